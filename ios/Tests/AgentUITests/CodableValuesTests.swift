// Codable values to and from NodeValue (NodeValueCoding.swift), and the calls that take them:
// round trips, the conventions (dates, numbers, absent optionals), and the typed errors of what
// does not fit. The agent tests need AGENTUI_DEMO_AGENT_URL (see TestSupport.swift).
//
// Imports AgentUI only, as an app does.

import Foundation
import XCTest
import AgentUI

private struct Booking: Codable, Equatable {
    enum Seat: String, Codable { case window, aisle }
    struct Guest: Codable, Equatable {
        let name: String
        let age: Int?
    }

    let guests: [Guest]
    let seat: Seat
    let nights: UInt8
    let price: Double
    let deposit: Int64
    let at: Date?
    let note: String?
    let tags: [String: Bool]
    let photo: Data
    let extra: NodeValue
}

final class CodableValuesTests: XCTestCase {
    private let booking = Booking(
        guests: [.init(name: "Ada", age: 36), .init(name: "Bo", age: nil)],
        seat: .window,
        nights: 3,
        price: -12.5,
        deposit: 9_007_199_254_740_992,
        at: Date(timeIntervalSince1970: 1_714_566_600),
        note: nil,
        tags: ["quiet": true],
        photo: Data([1, 2, 3]),
        extra: .array(items: [.null, .text(value: "x")])
    )

    func testANestedValueRoundTripsAndReadsAsTheJsonItStandsFor() throws {
        let value = try NodeValue(encoding: booking)
        XCTAssertEqual(try value.decode(as: Booking.self), booking)
        // What the agent reads: members in key order, the absent optional left out, the date as
        // RFC 3339 text, the bytes as base64, numbers as numbers.
        guard case .object(let entries) = value else { return XCTFail("not an object: \(value)") }
        XCTAssertEqual(entries.map(\.name), ["at", "deposit", "extra", "guests", "nights", "photo", "price", "seat", "tags"])
        XCTAssertEqual(value[member: "at"], .text(value: "2024-05-01T12:30:00Z"))
        XCTAssertEqual(value[member: "photo"], .text(value: "AQID"))
        XCTAssertEqual(value[member: "seat"], .text(value: "window"))
        XCTAssertEqual(value[member: "nights"], .number(value: 3))
        XCTAssertEqual(value[member: "deposit"], .number(value: 9_007_199_254_740_992))
        XCTAssertEqual(value[member: "guests"], .array(items: [
            .object(entries: [PropEntry(name: "age", value: .number(value: 36)), PropEntry(name: "name", value: .text(value: "Ada"))]),
            .object(entries: [PropEntry(name: "name", value: .text(value: "Bo"))]),
        ]))
    }

    func testDatesKeepTheirMillisecondsAndNullOrAbsentDecodesAsNil() throws {
        struct Stamp: Codable, Equatable { let at: Date? }
        let precise = Stamp(at: Date(timeIntervalSince1970: 1_714_566_600.25))
        let value = try NodeValue(encoding: precise)
        XCTAssertEqual(value[member: "at"], .text(value: "2024-05-01T12:30:00.250Z"))
        XCTAssertEqual(try value.decode(as: Stamp.self), precise)
        XCTAssertEqual(try NodeValue.object(entries: []).decode(as: Stamp.self), Stamp(at: nil))
        XCTAssertEqual(try NodeValue.object(entries: [PropEntry(name: "at", value: .null)]).decode(as: Stamp.self), Stamp(at: nil))
        // An agent's offset is read as the same instant.
        let offset = NodeValue.object(entries: [PropEntry(name: "at", value: .text(value: "2024-05-01T14:30:00+02:00"))])
        XCTAssertEqual(try offset.decode(as: Stamp.self), Stamp(at: Date(timeIntervalSince1970: 1_714_566_600)))
    }

    func testWhatDoesNotFitIsATypedErrorNamingItsPath() throws {
        struct Party: Decodable { let guests: [Int] }
        let text = NodeValue.object(entries: [PropEntry(name: "guests", value: .array(items: [.number(value: 1), .text(value: "two")]))])
        XCTAssertThrowsError(try text.decode(as: Party.self)) { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["guests", "1"])
        }
        let fraction = NodeValue.object(entries: [PropEntry(name: "guests", value: .array(items: [.number(value: 2.5)]))])
        XCTAssertThrowsError(try fraction.decode(as: Party.self)) { error in
            guard case DecodingError.dataCorrupted = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try NodeValue.object(entries: []).decode(as: Party.self)) { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "guests")
        }
        XCTAssertThrowsError(try NodeValue.number(value: 300).decode(as: UInt8.self))
        XCTAssertThrowsError(try NodeValue.text(value: "yesterday").decode(as: Date.self))
        // JSON holds neither a non-finite number nor an integer a Double would change.
        XCTAssertThrowsError(try NodeValue(encoding: ["x": Double.nan])) { error in
            guard case EncodingError.invalidValue = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try NodeValue(encoding: Int64.max)) { error in
            guard case EncodingError.invalidValue = error else { return XCTFail("\(error)") }
        }
    }

    func testANodeValueIsCodableThroughJsonToo() throws {
        let json = try JSONEncoder().encode(booking)
        XCTAssertEqual(try JSONDecoder().decode(Booking.self, from: json).extra, booking.extra)
        let nested = #"{"a":[1,true,null,"s",{"b":{}}]}"#
        let value = try JSONDecoder().decode(NodeValue.self, from: Data(nested.utf8))
        XCTAssertEqual(value[member: "a"], .array(items: [
            .number(value: 1), .bool(value: true), .null, .text(value: "s"),
            .object(entries: [PropEntry(name: "b", value: .object(entries: []))]),
        ]))
    }

    private struct Approval: Encodable { let approved: Bool }

    @MainActor
    func testAnInterruptAnsweredWithAnEncodableReachesTheAgent() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        _ = try await conversation.send("delete the report")
        try await waitUntil("status interrupted") { conversation.phase.isInterrupted }
        let interrupt = try XCTUnwrap(conversation.interrupts.first)
        try conversation.resolveInterrupt(id: interrupt.id, answer: Approval(approved: false))
        _ = try await conversation.continueRun()
        try await waitUntil("the file kept") { conversation.messages.lastAssistantText == "Kept report.pdf." }
    }

    private struct LocationQuery: Decodable { let precision: String }
    private struct Location: Encodable { let city: String; let country: String }
    private struct Coordinates: Decodable { let latitude: Double }

    @MainActor
    func testACodableToolDecodesItsArgumentsAndEncodesItsResult() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        let asked = Box<String?>(nil)
        try conversation.registerTool(
            name: "get_location",
            description: "The user's current city",
            parameters: ["type": "object".nodeValue, "properties": ["precision": ["type": "string"]].nodeValue]
        ) { (query: LocationQuery) in
            asked.value = query.precision
            return Location(city: "Lisbon", country: "Portugal")
        }
        _ = try await conversation.send("where am I? use my location")
        XCTAssertEqual(asked.value, "city")
        let quoted = #"Your location according to the app: {"city":"Lisbon","country":"Portugal"}"#
        try await waitUntil("the agent quoting the tool") { conversation.messages.assistantTexts.contains(quoted) }
    }

    @MainActor
    func testArgumentsThatDoNotDecodeFailTheCallWithTheirPath() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        try conversation.registerTool(
            name: "get_location",
            description: "The user's current city",
            parameters: ["type": "object".nodeValue]
        ) { (_: Coordinates) in Location(city: "-", country: "-") }
        let summary = try await conversation.send("where am I? use my location")
        let phase = try XCTUnwrap(summary.toolCalls.first?.phase)
        guard case .failed(.failed(let message), _) = phase else { return XCTFail("\(phase)") }
        XCTAssertTrue(message.hasPrefix("the arguments do not fit the tool: "), message)
        XCTAssertTrue(message.contains("latitude"), message)
    }
}
