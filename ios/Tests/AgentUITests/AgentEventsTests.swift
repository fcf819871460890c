// What the agent streams besides state (STEP, RAW, CUSTOM), LangGraph's `on_interrupt`, and text
// kept on the device after a cancel, through the Swift layer against the demo agent: the
// counterpart of android/host-jvm/src/test/kotlin/dev/agentui/AgentEventsTest.kt.
//
// Needs AGENTUI_DEMO_AGENT_URL (see TestSupport.swift); every test fails without it.

import Combine
import XCTest
@testable import AgentUI

final class AgentEventsTests: XCTestCase {
    @MainActor
    func testStepRawAndCustomEventsReachTheAppInStreamOrder() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        // Subscribed before send(): events are not replayed. Each event is recorded with what
        // the messages showed when it arrived (the layer publishes state before each event).
        var received: [(event: AgentEvent, text: String)] = []
        let events = conversation.events.sink { event in
            received.append((event, conversation.messages.lastAssistantText))
        }
        defer { events.cancel() }
        var stepValues: [[String]] = []
        let steps = conversation.$activeSteps.sink { stepValues.append($0) }
        defer { steps.cancel() }

        let summary = try await conversation.send("show me the steps")
        XCTAssertTrue(summary.phase.isFinished, "\(summary.phase)")
        try await waitUntil("the step's end") {
            received.contains { $0.event == .stepFinished(name: "research") }
        }

        XCTAssertEqual(received.count, 4, "\(received)")
        guard received.count == 4 else { return }
        XCTAssertEqual(received[0].event, .stepStarted(name: "research"))
        guard case .raw(let event, let source) = received[1].event else {
            return XCTFail("second event is RAW: \(received[1].event)")
        }
        XCTAssertEqual(source, "demo-agent")
        XCTAssertEqual(event[member: "kind"], .text(value: "trace"), "the RAW event arrives as a value")
        let eventJson = try XCTUnwrap(received[1].event.eventJson)
        XCTAssertTrue(eventJson.contains("\"kind\":\"trace\""), eventJson)
        // The value arrives typed, its JSON text a convenience beside it.
        XCTAssertEqual(received[2].event, .custom(name: "progress", value: ["percent": 50].nodeValue))
        XCTAssertEqual(received[2].event.valueJson, #"{"percent":50}"#)
        // And decodes into the app's own type.
        struct Progress: Decodable, Equatable { let percent: Int }
        if case .custom(_, let value) = received[2].event {
            XCTAssertEqual(try value.decode(as: Progress.self), Progress(percent: 50))
        }
        XCTAssertEqual(received[3].event, .stepFinished(name: "research"))
        // The text streamed inside the step was already published when the step's end arrived.
        XCTAssertEqual(received[3].text, "Research step done.")

        try await waitUntil("status finished") { conversation.phase.isFinished }
        try await waitUntil("no active step") { conversation.activeSteps.isEmpty }
        XCTAssertTrue(stepValues.contains(["research"]), "the step was shown as active: \(stepValues)")
    }

    @MainActor
    func testLangGraphOnInterruptIsAnsweredAndTheAgentReadsThePayload() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        var customs: [AgentEvent] = []
        let events = conversation.events.sink { event in
            if case .custom = event { customs.append(event) }
        }
        defer { events.cancel() }

        let summary = try await conversation.send("legacy approval please")
        XCTAssertTrue(summary.phase.isInterrupted, "\(summary.phase)")
        try await waitUntil("status interrupted") { conversation.phase.isInterrupted }
        let pending = conversation.interrupts
        XCTAssertEqual(pending.count, 1)
        let interrupt = try XCTUnwrap(pending.first)
        XCTAssertEqual(interrupt.id, "lg-1", "the id comes from LangGraph's rawEvent")
        XCTAssertEqual(interrupt.message, "Approve?")

        // Delivered as it came too: the value is JSON text holding JSON text.
        let custom = try await eventually("the on_interrupt CUSTOM event") { customs.first }
        guard case .custom(let name, let value) = custom else { return XCTFail("\(custom)") }
        XCTAssertEqual(name, "on_interrupt")
        XCTAssertEqual(value, .text(value: #"{"message":"Approve?"}"#), "typed: the string LangGraph sent")
        let valueJson = try XCTUnwrap(custom.valueJson)
        XCTAssertTrue(valueJson.hasPrefix("\"") && valueJson.contains("Approve?"), valueJson)

        try conversation.resolveInterrupt(id: interrupt.id, payloadJson: #"{"approved": true}"#)
        let next = try await conversation.continueRun()
        XCTAssertTrue(next.phase.isFinished, "\(next.phase)")
        // The answer streams in two deltas: wait for the quoted payload, then compare exactly.
        try await waitUntil("the quoted payload") {
            conversation.messages.lastAssistantText.hasPrefix("Approved: {")
        }
        XCTAssertEqual(conversation.messages.lastAssistantText, #"Approved: {"approved":true}"#)
        XCTAssertTrue(conversation.interrupts.isEmpty)
    }

    @MainActor
    func testTextCutShortByACancelIsMarkedIncompleteAndKeptLocal() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        // Warnings are delivered (the layer used to drop them).
        var warnings: [SessionWarning] = []
        let sink = conversation.warnings.sink { warnings.append($0) }
        defer { sink.cancel() }
        let run = Task { @MainActor in try await conversation.send("slow please") }
        try await waitUntil("the second slow token") {
            conversation.messages.lastAssistantText.contains("Slow token 2.")
        }
        conversation.cancel()
        _ = await run.result

        try await waitUntil("the cut message marked incomplete") {
            conversation.messages.contains { $0.isIncomplete }
        }
        let kept = conversation.messages.filter { $0.localOnly != nil }
        XCTAssertEqual(kept.count, 1)
        let cut = try XCTUnwrap(kept.first)
        XCTAssertEqual(cut.role, .assistant)
        XCTAssertEqual(cut.localOnly, .cancelled)
        XCTAssertTrue(cut.isIncomplete)
        XCTAssertTrue(cut.text.contains("Slow token 2."), "the partial text stays visible: \(cut.text)")
        try await waitUntil("the KEPT_LOCAL warning") {
            warnings.contains { $0.kind == .keptLocal && $0.message.contains(cut.id) }
        }
    }
}
