// Numbers typed into a `number` TextField and numbers shown as text, by the rules of
// docs/rendering.md ("Number input"), which the Compose renderer's NumberInput.kt follows too;
// the shared cases are in tests/renderer-cases/cases.json (RendererCasesTests).

import AgentUICore

/// What a `number` TextField writes for `text`: null when it is blank (spaces, tabs, newlines),
/// the number when the text is one decimal number (ASCII digits, "." or "," as its one decimal
/// mark, an optional exponent, finite), else the text as typed (a half-typed "-" stays the
/// user's text, and the core's checks see it). Double(_:) alone would also take "nan", "inf"
/// and hex, and no decimal comma.
package func numberInputValue(_ text: String) -> NodeValue {
    // Scalars, not Characters: "\r\n" is one Character.
    let scalars = Array(text.unicodeScalars)
    let isBlank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = scalars.firstIndex(where: { !isBlank($0) }),
          let last = scalars.lastIndex(where: { !isBlank($0) })
    else { return .null }
    let trimmed = Array(scalars[first...last])
    var index = 0
    func digits() -> String {
        var run = ""
        while index < trimmed.count, (48...57).contains(trimmed[index].value) {
            run.unicodeScalars.append(trimmed[index])
            index += 1
        }
        return run
    }
    func take(_ accepted: Unicode.Scalar...) -> Unicode.Scalar? {
        guard index < trimmed.count, accepted.contains(trimmed[index]) else { return nil }
        index += 1
        return trimmed[index - 1]
    }

    let sign = take("+", "-") == "-" ? "-" : ""
    let whole = digits()
    let fraction = take(".", ",") != nil ? digits() : ""
    var exponent = ""
    if take("e", "E") != nil {
        let exponentSign = take("+", "-") == "-" ? "-" : ""
        let exponentDigits = digits()
        guard !exponentDigits.isEmpty else { return .text(value: text) }
        exponent = "e" + exponentSign + exponentDigits
    }
    // At least one digit in the mantissa: "." or "-" alone is still being typed.
    guard index == trimmed.count, !(whole.isEmpty && fraction.isEmpty) else { return .text(value: text) }
    let canonical = sign + (whole.isEmpty ? "0" : whole) + "." + (fraction.isEmpty ? "0" : fraction) + exponent
    guard let number = Double(canonical), number.isFinite else { return .text(value: text) }
    return .number(value: number)
}

/// A number as text: the shortest digits that read back as the same Double, in plain notation
/// from 1e-6 up to below 1e21 and with an exponent outside it ("1e-7", "1.5e+21"), so whole
/// numbers have no ".0" and both platforms print the same text for the same Double.
package func formatNumber(_ value: Double) -> String {
    guard value.isFinite else { return String(value) } // JSON has neither NaN nor infinities.
    if value == 0 { return "0" } // -0.0 too
    // `description` is the shortest round-trip text: "12345678.9", "100.0", "1e-07", "1.5e+300".
    let text = abs(value).description
    let parts = text.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
    let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let whole = String(mantissa[0])
    let fraction = mantissa.count > 1 ? String(mantissa[1]) : ""
    var digits = Array(whole + fraction)
    // value = 0.<digits> × 10^point
    var point = whole.count + (parts.count > 1 ? Int(parts[1]) ?? 0 : 0)
    while digits.first == "0" {
        digits.removeFirst()
        point -= 1
    }
    while digits.last == "0" { digits.removeLast() }
    let sign = value < 0 ? "-" : ""
    let count = digits.count
    if point >= count, point <= 21 {
        return sign + String(digits) + String(repeating: "0", count: point - count)
    }
    if point >= 1, point <= 21 {
        return sign + String(digits[..<point]) + "." + String(digits[point...])
    }
    if point >= -5, point <= 0 {
        return sign + "0." + String(repeating: "0", count: -point) + String(digits)
    }
    let exponent = point - 1
    let shownMantissa = count == 1 ? String(digits) : String(digits[0]) + "." + String(digits[1...])
    return sign + shownMantissa + "e" + (exponent < 0 ? "-" : "+") + String(abs(exponent))
}
