// Swift values to and from the core's `NodeValue`, for `setValue` and for reading resolved
// props; the counterpart of the Kotlin layer's NodeValues.kt.

import AgentUICore

/// A Swift value with a `NodeValue` form: `NodeValue` itself, `Bool`, `String`, `Int`,
/// `Double`, `Float`, arrays and `[String: ...]` dictionaries of such values, and optionals
/// (`nil` is JSON null). Numbers are sent as `Double`, as the core stores JSON numbers.
public protocol NodeValueConvertible {
    var nodeValue: NodeValue { get }
}

extension NodeValue: NodeValueConvertible {
    public var nodeValue: NodeValue { self }
}

extension Bool: NodeValueConvertible {
    public var nodeValue: NodeValue { .bool(value: self) }
}

extension String: NodeValueConvertible {
    public var nodeValue: NodeValue { .text(value: self) }
}

extension Double: NodeValueConvertible {
    public var nodeValue: NodeValue { .number(value: self) }
}

extension Float: NodeValueConvertible {
    public var nodeValue: NodeValue { .number(value: Double(self)) }
}

extension Int: NodeValueConvertible {
    public var nodeValue: NodeValue { .number(value: Double(self)) }
}

extension Optional: NodeValueConvertible where Wrapped: NodeValueConvertible {
    public var nodeValue: NodeValue { self?.nodeValue ?? .null }
}

extension Array: NodeValueConvertible where Element: NodeValueConvertible {
    public var nodeValue: NodeValue { .array(items: map(\.nodeValue)) }
}

extension Dictionary: NodeValueConvertible where Key == String, Value: NodeValueConvertible {
    /// Keys in sorted order: a Swift dictionary has none of its own, and a stable order keeps
    /// equal values equal.
    public var nodeValue: NodeValue {
        .object(entries: keys.sorted().map { PropEntry(name: $0, value: self[$0]!.nodeValue) })
    }
}

extension NodeValue {
    /// The plain Swift value: `nil`, `Bool`, `Double`, `String`, `[Any?]` or `[String: Any?]`.
    public var swiftValue: Any? {
        switch self {
        case .null: return nil
        case .bool(let value): return value
        case .number(let value): return value
        case .text(let value): return value
        case .array(let items): return items.map(\.swiftValue)
        case .object(let entries):
            var object: [String: Any?] = [:]
            for entry in entries { object[entry.name] = entry.value.swiftValue }
            return object
        }
    }

    /// The text of a `.text` value, nil for any other kind.
    public var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The member `name` of an `.object` value, nil otherwise.
    public subscript(member name: String) -> NodeValue? {
        if case .object(let entries) = self { return entries.first { $0.name == name }?.value }
        return nil
    }
}

extension Node {
    /// The resolved value of property `name`, nil when the node has none.
    public func prop(_ name: String) -> NodeValue? {
        props.first { $0.name == name }?.value
    }

    /// The data-model path `property` is bound to (an input writes there), nil for a literal.
    public func bindingPath(for property: String = "value") -> String? {
        bindings.first { $0.property == property }?.path
    }
}
