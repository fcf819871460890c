package dev.agentui.compose

import dev.agentui.core.json.NodeValue
import java.math.BigDecimal
import java.math.MathContext
import java.math.RoundingMode
import kotlin.math.abs

/*
 * Numbers typed into a `number` TextField and numbers shown as text, by the rules of
 * docs/rendering.md ("Number input"), which the SwiftUI renderer's NumberInput.swift follows
 * too; the shared cases are in tests/renderer-cases/cases.json.
 */

// A decimal number with "." or "," as its one decimal mark, an optional exponent, ASCII digits.
// Nothing else: no grouping ("1,000.5"), hex, NaN/Infinity or JVM suffixes ("1d"), which
// String.toDouble would take and Swift's Double(_:) would read differently.
private val NUMBER = Regex("""([+-]?)([0-9]*)(?:[.,]([0-9]*))?(?:[eE]([+-]?[0-9]+))?""")

private fun isBlankChar(c: Char) = c == ' ' || c == '\t' || c == '\n' || c == '\r'

/**
 * What a `number` TextField writes for [text]: null when it is blank (no number), the number it
 * spells, or else the text as typed (a half-typed "-" stays the user's text, and the core's
 * checks see it).
 */
internal fun numberInputValue(text: String): NodeValue {
    val trimmed = text.trim(::isBlankChar)
    if (trimmed.isEmpty()) return NodeValue.Null
    val match = NUMBER.matchEntire(trimmed) ?: return NodeValue.Text(text)
    val (sign, whole, fraction, exponent) = match.destructured
    // At least one digit in the mantissa: "." or "-" alone is still being typed.
    if (whole.isEmpty() && fraction.isEmpty()) return NodeValue.Text(text)
    val canonical = sign + whole.ifEmpty { "0" } + "." + fraction.ifEmpty { "0" } + (if (exponent.isEmpty()) "" else "e$exponent")
    val number = canonical.toDouble()
    return if (number.isFinite()) NodeValue.Number(number) else NodeValue.Text(text)
}

/**
 * A number as text: the shortest digits that read back as the same double, in plain notation
 * from 1e-6 up to below 1e21 and with an exponent outside it ("1e-7", "1.5e+21"), so whole numbers
 * have no ".0" and both platforms print the same text for the same double.
 */
internal fun formatNumber(value: Double): String {
    if (!value.isFinite()) return value.toString() // JSON has neither NaN nor infinities.
    if (value == 0.0) return "0" // -0.0 too
    val decimal = shortestDecimal(abs(value))
    val digits = decimal.unscaledValue().toString()
    val point = digits.length - decimal.scale() // value = 0.<digits> × 10^point
    val sign = if (value < 0) "-" else ""
    return sign + when {
        point in digits.length..21 -> digits + "0".repeat(point - digits.length)
        point in 1..21 -> digits.substring(0, point) + "." + digits.substring(point)
        point in -5..0 -> "0." + "0".repeat(-point) + digits
        else -> {
            val exponent = point - 1
            val mantissa = if (digits.length == 1) digits else digits.take(1) + "." + digits.drop(1)
            mantissa + "e" + (if (exponent < 0) "-" else "+") + abs(exponent)
        }
    }
}

/**
 * The fewest significant digits that read back as [positive]. Double.toString is round-trip but
 * not always shortest before JDK 19 (4.9E-324, 2.82879384806159008E17), while Swift's is: so
 * its digits are shortened for as long as they still read back.
 */
private fun shortestDecimal(positive: Double): BigDecimal {
    val decimal = BigDecimal(positive.toString()).stripTrailingZeros()
    for (precision in 1 until decimal.precision()) {
        val shorter = decimal.round(MathContext(precision, RoundingMode.HALF_EVEN))
        if (shorter.toDouble() == positive) return shorter.stripTrailingZeros()
    }
    return decimal
}
