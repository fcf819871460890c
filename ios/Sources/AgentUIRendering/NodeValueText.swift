// Resolved prop values as a renderer reads them: display text, numbers and booleans, by the
// rules of docs/rendering.md that the Compose renderer follows too.

import AgentUICore

extension NodeValue {
    /// Text for display: text as is, numbers as `formatNumber` writes them, booleans as
    /// true/false; nil for null, arrays and objects.
    public var displayText: String? {
        switch self {
        case .text(let value): return value
        case .number(let value): return formatNumber(value)
        case .bool(let value): return value ? "true" : "false"
        case .null, .array, .object: return nil
        }
    }

    /// A number, or text that parses as one.
    package var numberValue: Double? {
        switch self {
        case .number(let value): return value
        case .text(let value): return Double(value)
        default: return nil
        }
    }

    /// A boolean, or the text "true" / "false".
    package var boolValue: Bool? {
        switch self {
        case .bool(let value): return value
        case .text("true"): return true
        case .text("false"): return false
        default: return nil
        }
    }
}
