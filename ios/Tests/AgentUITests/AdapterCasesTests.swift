// tests/adapter-cases/cases.json, the cases the Kotlin layer's AdapterCasesTest reads too: each
// case's snapshot and deltas are played through the core (`adapterCaseBatches`, the batches a
// view gets), applied by the layer as it applies live batches, and its published properties
// compared with the case's `expect`. Needs AGENTUI_DEMO_AGENT_URL (a conversation to apply to).

import Foundation
import XCTest
@testable import AgentUI
// The core itself, for what only a test reaches (its test hooks and records).
import AgentUICore

final class AdapterCasesTests: XCTestCase {
    /// This file is ios/Tests/AgentUITests/AdapterCasesTests.swift: four levels below the root.
    private static let casesURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("tests/adapter-cases/cases.json")

    @MainActor
    func testEverySharedAdapterCaseShowsWhatItExpects() async throws {
        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.casesURL)) as? [String: Any]
        let cases = try XCTUnwrap(file?["cases"] as? [[String: Any]], "\(Self.casesURL.path) has no cases")
        XCTAssertGreaterThanOrEqual(cases.count, 10, "too few cases")
        let runtime = try AgentRuntime()
        for testCase in cases {
            let title = testCase["name"] as? String ?? "?"
            let conversation = try connect(runtime)
            defer { conversation.close() }
            // The conversation's own first batch (empty) is applied before the case's.
            try await waitUntil("the first batch") { conversation.snapshotsApplied >= 1 }
            var seen: [String] = []
            let events = conversation.events.sink { seen.append(Self.label($0)) }
            let warnings = conversation.warnings.sink { seen.append("Warning:" + Self.caseName($0.kind)) }
            let json = String(decoding: try JSONSerialization.data(withJSONObject: testCase), as: UTF8.self)
            for batch in try adapterCaseBatches(caseJson: json) { conversation.apply(batch) }
            events.cancel()
            warnings.cancel()
            try check(title, try XCTUnwrap(testCase["expect"] as? [String: Any], title), conversation, seen)
        }
    }

    @MainActor
    private func check(_ title: String, _ expect: [String: Any], _ conversation: AgentConversation, _ seen: [String]) throws {
        if let messages = expect["messages"] as? [[String: Any]] {
            let shown = conversation.messages
            XCTAssertEqual(shown.count, messages.count, "\(title): message count")
            for (message, want) in zip(shown, messages) {
                XCTAssertEqual(message.id, want["id"] as? String, title)
                XCTAssertEqual(String(describing: message.role), want["role"] as? String, title)
                XCTAssertEqual(message.text, want["text"] as? String, title)
                if let local = want["localOnly"] {
                    XCTAssertEqual(message.localOnly.map { Self.caseName($0) }, local as? String, title)
                }
                if let pending = want["pending"] as? Bool { XCTAssertEqual(message.isPending, pending, title) }
                if let calls = want["toolCalls"] as? [[String]] {
                    XCTAssertEqual(message.toolCalls.map { [$0.id, $0.argumentsJson] }, calls, title)
                }
                if want.keys.contains("markdown") {
                    // The kinds of the blocks shown, and the blocks themselves: what the diffs
                    // added up to must be the tree of the whole text.
                    let kinds = message.markdown.map { $0.blocks.map { Self.caseName($0) } }
                    XCTAssertEqual(kinds, want["markdown"] as? [String], title)
                    if let markdown = message.markdown {
                        XCTAssertEqual(markdown.blocks, markdownText(text: message.text).blocks, title)
                    }
                }
            }
        }
        if let calls = expect["toolCalls"] as? [[String]] {
            XCTAssertEqual(conversation.toolCalls.map { [$0.toolCallId, Self.caseName($0.phase)] }, calls, title)
        }
        if let phase = expect["phase"] as? String { XCTAssertEqual(Self.caseName(conversation.phase), phase, title) }
        if let steps = expect["activeSteps"] as? [String] { XCTAssertEqual(conversation.activeSteps, steps, title) }
        if let state = expect["state"] as? [String: Any] {
            let shown = try XCTUnwrap(conversation.state as? [String: Any], "\(title): no state")
            XCTAssertTrue(NSDictionary(dictionary: shown).isEqual(to: state), "\(title): \(shown) is not \(state)")
        }
        if let surfaces = expect["surfaces"] as? [String] { XCTAssertEqual(conversation.surfaces.map(\.id), surfaces, title) }
        if let events = expect["events"] as? [String] { XCTAssertEqual(seen, events, title) }
    }

    private static func label(_ event: AgentEvent) -> String {
        switch event {
        case .custom(let name, _): return "Custom:\(name)"
        case .raw: return "Raw"
        case .stepStarted(let name): return "StepStarted:\(name)"
        case .stepFinished(let name): return "StepFinished:\(name)"
        }
    }


    /// An enum case's name as the cases write it: `.finished(runId: ...)` is `Finished`.
    private static func caseName(_ value: Any) -> String {
        let described = String(describing: value)
        let name = described.prefix { $0 != "(" }.split(separator: ".").last.map(String.init) ?? described
        return name.prefix(1).uppercased() + name.dropFirst()
    }
}
