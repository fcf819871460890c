// Codable values to and from the core's `NodeValue`, tree to tree (no JSON text in between), for
// typed interrupt answers, client tools and event values. Kotlin has no counterpart: its layer
// converts JSON to Map/List/Any? and an app maps those itself.
//
// Conventions (what JSONEncoder does by default, except dates): objects' members in key order;
// numbers are Doubles, so an integer must be one a Double holds exactly (|n| <= 2^53 for the
// large ones), and a non-finite number is refused; `Date` is RFC 3339 text (fractional seconds
// when it has them); `Data` is base64 text; `URL` is its absolute string; a nil optional
// member is left out (and a null or missing member decodes as nil). Failures are the standard
// `EncodingError` / `DecodingError`, with the coding path.

import Foundation
import AgentUICore

extension NodeValue {
    /// `value` as a `NodeValue`. Throws `EncodingError.invalidValue` for what JSON cannot hold.
    public init<Value: Encodable>(encoding value: Value) throws {
        self = try ValueEncoder(codingPath: []).box(value)
    }

    /// This value as a `Value`. Throws `DecodingError` naming the path that does not fit.
    public func decode<Value: Decodable>(as type: Value.Type = Value.self) throws -> Value {
        try ValueDecoder(value: self, codingPath: []).unbox(type)
    }
}

/// A `NodeValue` is Codable itself, as the JSON value it stands for: a Codable type may hold one
/// (a free-form member), and `[String: NodeValue]` goes wherever an `Encodable` does.
extension AgentUICore.NodeValue: Swift.Codable {
    public init(from decoder: Decoder) throws {
        if let direct = decoder as? ValueDecoder {
            self = direct.value
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value: value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value: value)
        } else if let value = try? single.decode(String.self) {
            self = .text(value: value)
        } else if let value = try? single.decode([NodeValue].self) {
            self = .array(items: value)
        } else {
            let members = try single.decode([String: NodeValue].self)
            self = .object(entries: members.keys.sorted().map { PropEntry(name: $0, value: members[$0]!) })
        }
    }

    public func encode(to encoder: Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .bool(let value): try single.encode(value)
        case .number(let value): try single.encode(value)
        case .text(let value): try single.encode(value)
        case .array(let items): try single.encode(items)
        case .object(let entries):
            // The last wins should a name repeat, as everywhere in the layer.
            try single.encode(Dictionary(entries.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }))
        }
    }
}

/// The member name or index of a coding path.
struct CodingIndex: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
    init(intValue: Int) { (stringValue, self.intValue) = ("\(intValue)", intValue) }
}

// MARK: Encoding

/// What an encoder wrote so far: a value, or an object or array whose parts are still written.
final class EncodedNode {
    enum Content {
        case none
        case value(NodeValue)
        case object([String: EncodedNode])
        case array([EncodedNode])
    }

    var content: Content = .none

    var value: NodeValue {
        switch content {
        // A type that opened no container wrote nothing: an empty object, as JSONEncoder writes.
        case .none: return .object(entries: [])
        case .value(let value): return value
        case .object(let members):
            return .object(entries: members.keys.sorted().map { PropEntry(name: $0, value: members[$0]!.value) })
        case .array(let items): return .array(items: items.map(\.value))
        }
    }
}

struct ValueEncoder: Encoder {
    var node = EncodedNode()
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(codingPath: [CodingKey], node: EncodedNode = EncodedNode()) {
        self.codingPath = codingPath
        self.node = node
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([:]) }
        return KeyedEncodingContainer(KeyedValueEncoder<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedValueEncoder(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer {
        SingleValueEncoder(node: node, codingPath: codingPath)
    }

    /// `value` as a NodeValue: the types JSON writes as text or numbers first, then its own encoding.
    func box<Value: Encodable>(_ value: Value) throws -> NodeValue {
        switch value {
        case let value as NodeValue: return value
        case let date as Date: return .text(value: IsoTimestamp.text(date))
        case let data as Data: return .text(value: data.base64EncodedString())
        case let url as URL: return .text(value: url.absoluteString)
        case let decimal as Decimal: return try number(NSDecimalNumber(decimal: decimal).doubleValue, value)
        case let double as Double: return try number(double, value)
        case let float as Float: return try number(Double(float), value)
        case let bool as Bool: return .bool(value: bool)
        case let text as String: return .text(value: text)
        default:
            let nested = ValueEncoder(codingPath: codingPath)
            try value.encode(to: nested)
            return nested.node.value
        }
    }

    func number(_ number: Double, _ value: Any) throws -> NodeValue {
        guard number.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "JSON has no \(number)"))
        }
        return .number(value: number)
    }

    func integer<Integer: BinaryInteger>(_ integer: Integer) throws -> NodeValue {
        // A JSON number is a Double: an integer it does not hold exactly would arrive changed.
        guard let number = Double(exactly: integer) else {
            throw EncodingError.invalidValue(integer, .init(
                codingPath: codingPath, debugDescription: "\(integer) is not exactly a JSON number (a Double)"))
        }
        return .number(value: number)
    }
}

struct KeyedValueEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodedNode
    let codingPath: [CodingKey]

    private func set(_ value: NodeValue, _ key: Key) {
        child(key).content = .value(value)
    }

    private func child(_ key: Key) -> EncodedNode {
        guard case .object(var members) = node.content else { preconditionFailure("a keyed container's node is an object") }
        let child = members[key.stringValue] ?? EncodedNode()
        members[key.stringValue] = child
        node.content = .object(members)
        return child
    }

    private func encoder(_ key: Key) -> ValueEncoder { ValueEncoder(codingPath: codingPath + [key]) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value: value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.text(value: value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try encoder(key).number(value, value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try encoder(key).number(Double(value), value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(try encoder(key).integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(try encoder(key).integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(try encoder(key).integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(try encoder(key).integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(try encoder(key).integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(try encoder(key).integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(try encoder(key).integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(try encoder(key).integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(try encoder(key).integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(try encoder(key).integer(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { set(try encoder(key).box(value), key) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        ValueEncoder(codingPath: codingPath + [key], node: child(key)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        ValueEncoder(codingPath: codingPath + [key], node: child(key)).unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder { superEncoder(forKey: Key(stringValue: "super")!) }
    mutating func superEncoder(forKey key: Key) -> Encoder { ValueEncoder(codingPath: codingPath + [key], node: child(key)) }
}

struct UnkeyedValueEncoder: UnkeyedEncodingContainer {
    let node: EncodedNode
    let codingPath: [CodingKey]

    var count: Int {
        if case .array(let items) = node.content { return items.count }
        return 0
    }

    private func append() -> EncodedNode {
        guard case .array(var items) = node.content else { preconditionFailure("an unkeyed container's node is an array") }
        let child = EncodedNode()
        items.append(child)
        node.content = .array(items)
        return child
    }

    private func add(_ value: NodeValue) { append().content = .value(value) }
    private var encoder: ValueEncoder { ValueEncoder(codingPath: codingPath + [CodingIndex(intValue: count)]) }

    mutating func encodeNil() throws { add(.null) }
    mutating func encode(_ value: Bool) throws { add(.bool(value: value)) }
    mutating func encode(_ value: String) throws { add(.text(value: value)) }
    mutating func encode(_ value: Double) throws { add(try encoder.number(value, value)) }
    mutating func encode(_ value: Float) throws { add(try encoder.number(Double(value), value)) }
    mutating func encode(_ value: Int) throws { add(try encoder.integer(value)) }
    mutating func encode(_ value: Int8) throws { add(try encoder.integer(value)) }
    mutating func encode(_ value: Int16) throws { add(try encoder.integer(value)) }
    mutating func encode(_ value: Int32) throws { add(try encoder.integer(value)) }
    mutating func encode(_ value: Int64) throws { add(try encoder.integer(value)) }
    mutating func encode(_ value: UInt) throws { add(try encoder.integer(value)) }
    mutating func encode(_ value: UInt8) throws { add(try encoder.integer(value)) }
    mutating func encode(_ value: UInt16) throws { add(try encoder.integer(value)) }
    mutating func encode(_ value: UInt32) throws { add(try encoder.integer(value)) }
    mutating func encode(_ value: UInt64) throws { add(try encoder.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { add(try encoder.box(value)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [CodingIndex(intValue: count)]
        return ValueEncoder(codingPath: path, node: append()).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let path = codingPath + [CodingIndex(intValue: count)]
        return ValueEncoder(codingPath: path, node: append()).unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder {
        let path = codingPath + [CodingIndex(intValue: count)]
        return ValueEncoder(codingPath: path, node: append())
    }
}

struct SingleValueEncoder: SingleValueEncodingContainer {
    let node: EncodedNode
    let codingPath: [CodingKey]

    private var encoder: ValueEncoder { ValueEncoder(codingPath: codingPath) }
    private func set(_ value: NodeValue) { node.content = .value(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value: value)) }
    mutating func encode(_ value: String) throws { set(.text(value: value)) }
    mutating func encode(_ value: Double) throws { set(try encoder.number(value, value)) }
    mutating func encode(_ value: Float) throws { set(try encoder.number(Double(value), value)) }
    mutating func encode(_ value: Int) throws { set(try encoder.integer(value)) }
    mutating func encode(_ value: Int8) throws { set(try encoder.integer(value)) }
    mutating func encode(_ value: Int16) throws { set(try encoder.integer(value)) }
    mutating func encode(_ value: Int32) throws { set(try encoder.integer(value)) }
    mutating func encode(_ value: Int64) throws { set(try encoder.integer(value)) }
    mutating func encode(_ value: UInt) throws { set(try encoder.integer(value)) }
    mutating func encode(_ value: UInt8) throws { set(try encoder.integer(value)) }
    mutating func encode(_ value: UInt16) throws { set(try encoder.integer(value)) }
    mutating func encode(_ value: UInt32) throws { set(try encoder.integer(value)) }
    mutating func encode(_ value: UInt64) throws { set(try encoder.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { set(try encoder.box(value)) }
}

// MARK: Decoding

struct ValueDecoder: Decoder {
    let value: NodeValue
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let entries) = value else { throw mismatch([String: Any].self) }
        let members = Dictionary(entries.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        return KeyedDecodingContainer(KeyedValueDecoder<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([Any].self) }
        return UnkeyedValueDecoder(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { SingleValueDecoder(decoder: self) }

    /// What `value` holds, in words, for an error.
    var kind: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number(let number): return "the number \(number)"
        case .text: return "text"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        if case .null = value {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "expected \(type), found null"))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(type), found \(kind)"))
    }

    func corrupted(_ detail: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: detail))
    }

    func text() throws -> String {
        guard case .text(let text) = value else { throw mismatch(String.self) }
        return text
    }

    func bool() throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self) }
        return bool
    }

    func double() throws -> Double {
        guard case .number(let number) = value else { throw mismatch(Double.self) }
        return number
    }

    func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
        let number = try double()
        guard let integer = Integer(exactly: number) else { throw corrupted("\(number) is not a \(type)") }
        return integer
    }

    func float() throws -> Float {
        let number = try double()
        let float = Float(number)
        guard float.isFinite else { throw corrupted("\(number) does not fit a Float") }
        return float
    }

    /// `value` as a `Value`: the types JSON writes as text or numbers first, then its own decoding.
    func unbox<Value: Decodable>(_ type: Value.Type) throws -> Value {
        switch type {
        case is NodeValue.Type: return value as! Value
        case is Date.Type:
            let text = try text()
            guard let date = IsoTimestamp.date(text) else { throw corrupted("\"\(text)\" is not an RFC 3339 date") }
            return date as! Value
        case is Data.Type:
            guard let data = Data(base64Encoded: try text()) else { throw corrupted("not base64 text") }
            return data as! Value
        case is URL.Type:
            let text = try text()
            guard let url = URL(string: text) else { throw corrupted("\"\(text)\" is not a URL") }
            return url as! Value
        case is Decimal.Type: return Decimal(try double()) as! Value
        default: return try Value(from: self)
        }
    }
}

struct KeyedValueDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: NodeValue]
    let codingPath: [CodingKey]

    var allKeys: [Key] { members.keys.sorted().compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func decoder(_ key: Key) throws -> ValueDecoder {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
        }
        return ValueDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try decoder(key).value { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(key).text() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(key).double() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(key).float() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(key).integer(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(key).unbox(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer { try decoder(key).unkeyedContainer() }
    func superDecoder() throws -> Decoder { try decoder(Key(stringValue: "super")!) }
    func superDecoder(forKey key: Key) throws -> Decoder { try decoder(key) }
}

struct UnkeyedValueDecoder: UnkeyedDecodingContainer {
    let items: [NodeValue]
    let codingPath: [CodingKey]
    var currentIndex = 0

    init(items: [NodeValue], codingPath: [CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The next item's decoder; the index moves on only when `body` succeeds.
    private mutating func next<T>(_ type: T.Type, _ body: (ValueDecoder) throws -> T) throws -> T {
        let path = codingPath + [CodingIndex(intValue: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "the array has no more items"))
        }
        let value = try body(ValueDecoder(value: items[currentIndex], codingPath: path))
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = items[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.bool() } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.text() } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.double() } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.float() } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.integer(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.unbox(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        try next(UnkeyedDecodingContainer.self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> Decoder { try next(Decoder.self) { $0 } }
}

struct SingleValueDecoder: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        if case .null = decoder.value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
    func decode(_ type: String.Type) throws -> String { try decoder.text() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.double() }
    func decode(_ type: Float.Type) throws -> Float { try decoder.float() }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unbox(type) }
}

/// RFC 3339 timestamps, as `Date` is written to and read from a NodeValue.
enum IsoTimestamp {
    static func text(_ date: Date) -> String {
        // Whole seconds without a fraction; otherwise milliseconds, what ISO8601DateFormatter keeps.
        let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
        return (whole ? plain : fractional).string(from: date)
    }

    static func date(_ text: String) -> Date? {
        fractional.date(from: text) ?? plain.date(from: text)
    }

    // ISO8601DateFormatter is thread-safe once configured.
    private static let plain: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }()

    private static let fractional: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}

/// A coding error in words, its path first (`guests.0: expected Int, found text`).
enum CodingFailure {
    static func describe(_ error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): context = c
        @unknown default: return String(describing: error)
        }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    }
}
