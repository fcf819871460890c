// The mappers from the core's generated records to the layer's own types (Models.swift,
// MemoryBudget.swift): the cases that differ from the core's shape, the counts as Int, and the
// Markdown text a block list leaves over, counted in UTF-16 as the core counts it.

import XCTest
@testable import AgentUI
// The core's records, to map them.
import AgentUICore

final class LayerTypesTests: XCTestCase {
    func testWarningKindsAreFlatAndTheFailedToolCallCarriesItsText() {
        XCTAssertEqual(AgentUI.SessionWarningKind(.protocol(.stripped)), .stripped)
        XCTAssertEqual(AgentUI.SessionWarningKind(.protocol(.patchNotApplied)), .patchNotApplied)
        XCTAssertEqual(AgentUI.SessionWarningKind(.viewFailed), .viewFailed)

        let failure = AgentUICore.ToolFailure.timedOut(after: 2.5)
        XCTAssertEqual(
            AgentUI.ToolCallPhase(.failed(failure: failure)),
            .failed(failure: .timedOut(after: 2.5), detail: String(describing: failure))
        )
        XCTAssertFalse(String(describing: failure).isEmpty)
        XCTAssertEqual(AgentUI.RunOutcome(.success(pendingToolCallIds: nil)), .success(pendingToolCallIds: []))
        XCTAssertEqual(AgentUI.RunOutcome(.success(pendingToolCallIds: ["a"])), .success(pendingToolCallIds: ["a"]))
    }

    func testCountsAreIntAndInterruptJsonIsReadAsValues() {
        let summary = AgentUI.ConversationSummary(AgentUICore.ConversationSummary(
            threadId: "t", title: "", agentUrl: "u", messageCount: UInt64.max, createdAtMs: 1, updatedAtMs: 2,
            phase: .idle, pendingSends: 3))
        XCTAssertEqual(summary.messageCount, Int.max, "clamped, never a trap")
        XCTAssertEqual(summary.pendingSends, 3)

        let schema: JsonObject = [PropEntry(name: "type", value: .text(value: "object")), PropEntry(name: "a", value: .null)]
        let interrupt = AgentUI.Interrupt(AgentUICore.Interrupt(
            id: "i", reason: "r", message: nil, toolCallId: nil, responseSchema: schema, expiresAt: nil,
            metadata: nil, subagentRunId: nil))
        XCTAssertEqual(interrupt.responseSchema, ["type": .text(value: "object"), "a": .null])
        XCTAssertEqual(interrupt.responseSchemaJson, #"{"a":null,"type":"object"}"#)
        XCTAssertNil(interrupt.metadata)
    }

    func testTheMemoryBudgetDefaultsAreTheCoresAndMapBothWays() {
        let core = AgentUICore.defaultMemoryBudget()
        XCTAssertEqual(MemoryBudget(), AgentUI.MemoryBudget(core))
        XCTAssertEqual(MemoryBudget().native, core)
        XCTAssertEqual(MemoryBudget(maxStateBytes: 200).native.maxStateBytes, 200)
        XCTAssertEqual(MemoryBudget(maxStateBytes: -1).native.maxStateBytes, 0, "negative is 0")
    }

    func testTheMarkdownPendingTextIsCountedInUtf16() {
        // "👍" is two UTF-16 units (four UTF-8 bytes): the blocks cover "👍 ok\n".
        let text = "👍 ok\nmore"
        XCTAssertEqual(ChatMarkdown(blocks: [], coveredUtf16: 6).pendingText(text), "more")
        XCTAssertEqual(ChatMarkdown(blocks: [], coveredUtf16: 10).pendingText(text), "")
        XCTAssertEqual(ChatMarkdown(blocks: [], coveredUtf16: 0).pendingText(text), "👍 ok\nmore")
        XCTAssertEqual(ChatMarkdown(blocks: [], coveredUtf16: -1).pendingText(text), "")
    }
}
