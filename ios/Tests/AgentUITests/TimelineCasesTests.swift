// tests/timeline-cases/cases.json, the cases the Rust tests and the Kotlin layer's
// TimelineCasesTest read too: each case's snapshot and deltas are played through the core's
// timeline (`timelineCaseChanges`), the changes mapped to the layer's types and applied by the
// layer's applier, as `AgentConversation` applies live batches, and the rows compared with the
// case's checkpoints. Needs no agent.

import Foundation
import XCTest
@testable import AgentUI
// The core itself, for its test hook.
import AgentUICore

// The layer's types, not the core's of the same names.
private typealias TimelineItem = AgentUI.TimelineItem
private typealias TimelineChange = AgentUI.TimelineChange

final class TimelineCasesTests: XCTestCase {
    /// This file is ios/Tests/AgentUITests/TimelineCasesTests.swift: four levels below the root.
    private static let casesURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("tests/timeline-cases/cases.json")

    func testEverySharedTimelineCaseShowsWhatItExpects() throws {
        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.casesURL)) as? [String: Any]
        let cases = try XCTUnwrap(file?["cases"] as? [[String: Any]], "\(Self.casesURL.path) has no cases")
        XCTAssertGreaterThanOrEqual(cases.count, 17, "too few cases")
        var checkpoints = 0
        for testCase in cases {
            let title = testCase["name"] as? String ?? "?"
            let json = String(decoding: try JSONSerialization.data(withJSONObject: testCase), as: UTF8.self)
            let steps = try timelineCaseChanges(caseJson: json)
            let deltas = (testCase["deltas"] as? [Any])?.count ?? 0
            XCTAssertEqual(steps.count, deltas + 1, "\(title): one step for the snapshot and one per delta")
            let expect = try XCTUnwrap(testCase["expect"] as? [[String: Any]], title)
            var rows: [TimelineItem] = []
            for (after, changes) in steps.enumerated() {
                let mapped = changes.map { TimelineChange($0, messages: []) }
                rows = try XCTUnwrap(TimelineChange.applying(mapped, to: rows), "\(title): step \(after) does not apply")
                for checkpoint in expect where checkpoint["after"] as? Int == after {
                    checkpoints += 1
                    try check("\(title), after \(after)", try XCTUnwrap(checkpoint["items"] as? [[String: Any]]), rows)
                }
            }
        }
        XCTAssertGreaterThanOrEqual(checkpoints, cases.count, "every case has a checkpoint that was checked")
    }

    /// A change that names a row the list does not have is refused whole, never half applied.
    func testAChangeForARowTheListDoesNotHaveIsRefused() {
        let row = TimelineItem(key: "run", kind: .runInProgress(runId: nil))
        XCTAssertNil(TimelineChange.applying([.removed(index: 1, key: "run")], to: [row]))
        XCTAssertNil(TimelineChange.applying([.removed(index: 0, key: "other")], to: [row]))
        XCTAssertNil(TimelineChange.applying([.inserted(index: 2, item: row)], to: [row]))
        XCTAssertNil(TimelineChange.applying([.textAppended(index: 0, key: "run", text: "x")], to: [row]))
        XCTAssertEqual(TimelineChange.applying([.removed(index: 0, key: "run")], to: [row]), [])
    }

    private func check(_ title: String, _ want: [[String: Any]], _ rows: [TimelineItem]) throws {
        XCTAssertEqual(rows.map(\.key), want.compactMap { $0["key"] as? String }, "\(title): keys")
        for (row, item) in zip(rows, want) {
            let shown = Self.fields(row)
            XCTAssertEqual(shown["kind"] as? String, item["kind"] as? String, "\(title): kind of \(row.key)")
            for (name, value) in item where name != "kind" && name != "key" {
                guard shown.keys.contains(name) else {
                    XCTFail("\(title): \(row.key) has no field \(name)")
                    continue
                }
                let have = shown[name] ?? NSNull()
                XCTAssertTrue(Self.same(have, value), "\(title): \(row.key).\(name) is \(have), expected \(value)")
            }
        }
    }

    /// A field's value against the case's, by the field's type: JSON's `false` reads as an
    /// NSNumber on Linux, which NSDictionary does not find equal to a Swift `Bool`.
    private static func same(_ have: Any, _ want: Any) -> Bool {
        switch have {
        case let flag as Bool: return want as? Bool == flag
        case let count as Int: return want as? Int == count
        case let text as String: return want as? String == text
        case is NSNull: return want is NSNull
        default: return NSDictionary(dictionary: ["v": have]).isEqual(to: ["v": want])
        }
    }

    /// A row's fields under the names the cases use, as JSON-like values (NSNull for none).
    private static func fields(_ row: TimelineItem) -> [String: Any] {
        func optional(_ value: Any?) -> Any { value ?? NSNull() }
        switch row.kind {
        case .userMessage(_, let text, let media, let delivery):
            var fields: [String: Any] = ["kind": "UserMessage", "text": text, "media": media.count, "delivery": caseName(delivery)]
            if case .failed(_, let retry) = delivery { fields["retry"] = caseName(retry) }
            return fields
        case .agentMessage(_, let text, let media, let streaming, let cutShort, let error):
            return [
                "kind": "AgentMessage", "text": text, "media": media.count, "streaming": streaming,
                "cutShort": cutShort, "error": optional(error),
            ]
        case .toolActivity(_, let name, let side, let phase):
            return ["kind": "ToolActivity", "name": name, "side": caseName(side), "phase": optional(phase.map(caseName))]
        case .surface:
            return ["kind": "Surface"]
        case .interrupt(let interrupt):
            let schema: Any = interrupt.responseSchemaJson
                .flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } ?? NSNull()
            return ["kind": "Interrupt", "question": interrupt.message ?? interrupt.reason, "schema": schema]
        case .consentRequest(let request):
            return ["kind": "ConsentRequest", "tool": request.toolName]
        case .runError(let kind, let message, _, let retry):
            return ["kind": "RunError", "errorKind": caseName(kind), "message": message, "retry": caseName(retry)]
        case .runInProgress:
            return ["kind": "RunInProgress"]
        }
    }

    /// An enum case's name as the cases write it: `.waitingForNetwork(...)` is `WaitingForNetwork`.
    private static func caseName(_ value: Any) -> String {
        let described = String(describing: value)
        let name = described.prefix { $0 != "(" }.split(separator: ".").last.map(String.init) ?? described
        return name.prefix(1).uppercased() + name.dropFirst()
    }
}
