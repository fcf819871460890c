// The rules of AgentChatView that are not drawing: which slot draws which row (a replaced slot
// draws its kind only), when a finished answer is announced, when the list follows the bottom,
// which answer buttons an interrupt's schema gets, how a consent request's arguments and a
// tool's phase read. The views themselves are only type-checked on Linux (the SwiftUI
// stand-in draws nothing); these are plain values and functions. Needs AGENTUI_DEMO_AGENT_URL
// for a conversation to hand to the rows (no request is made).

import SwiftUI
import XCTest
@testable import AgentUI
@testable import AgentUISwiftUI

final class ChatViewRulesTests: XCTestCase {
    private static func user(_ id: String, _ text: String) -> AgentUI.TimelineItem {
        AgentUI.TimelineItem(key: "m:" + id, kind: .userMessage(messageId: id, text: text, media: [], delivery: .delivered))
    }

    private static func agent(_ id: String, _ text: String, streaming: Bool) -> AgentUI.TimelineItem {
        AgentUI.TimelineItem(
            key: "m:" + id,
            kind: .agentMessage(messageId: id, text: text, media: [], streaming: streaming, cutShort: false, error: nil))
    }

    private static let running = AgentUI.TimelineItem(key: "run", kind: .runInProgress(runId: "r1"))

    @MainActor
    func testAReplacedSlotDrawsItsKindOnlyAndTheOthersKeepTheirDefaults() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        let actions = ChatActions(conversation: conversation, signIn: nil, report: { _ in })
        var drawn: [String] = []
        let slots = AgentChatSlots()
            .toolActivity { call, _ in
                let _ = drawn.append("tool:" + call.name)
                Text(call.name)
            }
            .runInProgress { runId, _ in
                let _ = drawn.append("run:" + (runId ?? "-"))
                EmptyView()
            }
        let tool = AgentUI.TimelineItem(
            key: "t:c1", kind: .toolActivity(toolCallId: "c1", name: "navigate_to", side: .client, phase: .running))
        for item in [Self.user("u1", "hi"), tool, Self.agent("a1", "Hello", streaming: true), Self.running] {
            _ = slots.row(item, messages: [:], actions: actions)
        }
        XCTAssertEqual(drawn, ["tool:navigate_to", "run:r1"], "the replaced slots drew their own kind, once each")

        var plain = AgentChatSlots()
        plain.userMessage = { message, _ in
            drawn.append("user:" + message.text)
            return AnyView(EmptyView())
        }
        _ = plain.row(tool, messages: [:], actions: actions)
        _ = plain.row(Self.user("u2", "again"), messages: [:], actions: actions)
        XCTAssertEqual(drawn.last, "user:again", "a closure assigned to a slot draws that kind")
        XCTAssertEqual(drawn.count, 3, "the default tool row is not the replaced one")
    }

    @MainActor
    func testAFinishedAnswerIsTheLastAgentMessageOnceItStopsStreaming() async throws {
        XCTAssertNil(AgentChatView.finishedAnswer([Self.user("u1", "hi"), Self.running]))
        XCTAssertNil(
            AgentChatView.finishedAnswer([Self.user("u1", "hi"), Self.agent("a1", "Hel", streaming: true), Self.running]),
            "not while it streams")
        XCTAssertEqual(
            AgentChatView.finishedAnswer([Self.user("u1", "hi"), Self.agent("a1", "Hello", streaming: false)])?.key, "m:a1")
        // The user writes again: the same answer, so nothing is announced twice.
        XCTAssertEqual(
            AgentChatView.finishedAnswer([Self.agent("a1", "Hello", streaming: false), Self.user("u2", "and?"), Self.running])?.key,
            "m:a1")
    }

    @MainActor
    func testTheListFollowsANewRowAndTheLastRowsGrowthOnly() async throws {
        let before = AgentChatView.growth([Self.user("u1", "hi"), Self.agent("a1", "Hel", streaming: true)])
        XCTAssertNotEqual(before, AgentChatView.growth([Self.user("u1", "hi"), Self.agent("a1", "Hello", streaming: true)]))
        XCTAssertNotEqual(
            before, AgentChatView.growth([Self.user("u1", "hi"), Self.agent("a1", "Hel", streaming: true), Self.running]))
        XCTAssertEqual(before, AgentChatView.growth([Self.user("u1", "hi!"), Self.agent("a1", "Hel", streaming: true)]),
            "an earlier row's change does not move the list")
    }

    @MainActor
    func testAnInterruptWithOneBooleanGetsApproveAndRejectAndOtherSchemasATextAnswer() async throws {
        func interrupt(_ properties: [String: NodeValue]?) -> Interrupt {
            Interrupt(
                id: "i1", reason: "approval", message: "Book it?", toolCallId: nil, responseSchemaJson: nil,
                responseSchema: properties.map { ["type": "object".nodeValue, "properties": $0.nodeValue] }, expiresAt: nil,
                metadata: nil, subagentRunId: nil)
        }
        let approved = interrupt(["approved": ["type": "boolean"].nodeValue])
        XCTAssertEqual(ChatInterruptCard.onlyProperty(of: approved, type: "boolean"), "approved")
        XCTAssertNil(ChatInterruptCard.onlyProperty(of: approved, type: "string"))
        let two = interrupt(["approved": ["type": "boolean"].nodeValue, "note": ["type": "string"].nodeValue])
        XCTAssertNil(ChatInterruptCard.onlyProperty(of: two, type: "boolean"), "two answers are not a yes/no")
        XCTAssertNil(ChatInterruptCard.onlyProperty(of: interrupt(nil), type: "boolean"), "no schema")
        XCTAssertEqual(ChatInterruptCard.onlyProperty(of: interrupt(["note": ["type": "string"].nodeValue]), type: "string"), "note")
    }

    @MainActor
    func testConsentArgumentsAndToolPhasesReadAsWords() async throws {
        XCTAssertEqual(ChatConsentCard.arguments(["precision": "city"].nodeValue), "precision: city")
        XCTAssertEqual(ChatConsentCard.arguments(.text(value: "now")), "now")
        XCTAssertEqual(ChatToolActivityRow.describe(.awaitingConsent), "waiting for your permission")
        XCTAssertEqual(
            ChatToolActivityRow.describe(.failed(failure: .declined, detail: "the client refused to run this call: the user declined it")),
            "you declined it")
        XCTAssertEqual(ChatToolActivityRow.describe(.failed(failure: .crashed, detail: "the tool crashed")), "failed: the tool crashed")
        XCTAssertEqual(ChatToolActivityRow.describe(nil), "requested")
        XCTAssertEqual(ChatRunErrorRow.retryTitle(.signInThenResend), "Sign in and retry")
    }
}
