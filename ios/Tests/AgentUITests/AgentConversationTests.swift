// The Swift layer (AgentRuntime, AgentConversation) against the demo agent, through the
// generated bindings and the XCFramework's static library: the counterpart of the Kotlin host
// tests in android/host-jvm/src/test/kotlin/dev/agentui/AgentConversationTest.kt.
//
// Needs AGENTUI_DEMO_AGENT_URL (see TestSupport.swift); every test fails without it.

import Combine
import XCTest
@testable import AgentUI

final class AgentConversationTests: XCTestCase {
    @MainActor
    func testStreamedTextUpdatesMessagesSeveralTimes() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        // @Published sends every assignment: the sink sees each applied update, not a sample.
        var seen: [String] = []
        let subscription = conversation.$messages.sink { seen.append($0.lastAssistantText) }
        defer { subscription.cancel() }

        let summary = try await conversation.send("hello")
        XCTAssertTrue(summary.phase.isFinished, "\(summary.phase)")
        let final = try await eventually("the whole greeting") {
            conversation.messages.lastAssistantText.hasSuffix("emoji 🎉.") ? conversation.messages : nil
        }

        var steps: [String] = []
        for text in seen where !text.isEmpty && steps.last != text { steps.append(text) }
        XCTAssertGreaterThanOrEqual(steps.count, 3, "expected the text to grow in steps, saw \(steps)")
        XCTAssertTrue(zip(steps, steps.dropFirst()).allSatisfy { $1.hasPrefix($0) }, "text only grows: \(steps)")
        XCTAssertTrue(final.lastAssistantText.hasPrefix("Hello! I am the demo agent"), final.lastAssistantText)
        XCTAssertTrue(final.lastAssistantText.contains("日本語"), "non-ASCII survives the bindings")
        XCTAssertEqual(final.map(\.role), [.user, .assistant])
        try await waitUntil("status finished") { conversation.phase.isFinished }
    }

    /// The published timeline follows the live conversation: the user's message delivered, the
    /// streamed answer with the whole text, no run in progress once the run ended.
    @MainActor
    func testTimelineShowsTheSentMessageAndTheStreamedAnswer() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        _ = try await conversation.send("hello")
        // send() returns once the properties show the run's end: the rows are final.
        let rows = conversation.timeline
        let ids = conversation.messages.map(\.id)
        XCTAssertEqual(rows.count, 2, "\(rows)")
        guard rows.count == 2 else { return }
        XCTAssertEqual(rows.map(\.key), ids.map { "m:" + $0 }, "one row per message, keyed by its id")
        guard case .userMessage(_, let text, _, let delivery) = rows[0].kind else { return XCTFail("\(rows[0])") }
        XCTAssertEqual(text, "hello")
        XCTAssertEqual(delivery, .delivered)
        guard case .agentMessage(_, let answer, _, let streaming, let cutShort, let error) = rows[1].kind else {
            return XCTFail("\(rows[1])")
        }
        XCTAssertEqual(answer, conversation.messages.last?.text, "the appended pieces add up to the message's text")
        XCTAssertFalse(streaming)
        XCTAssertFalse(cutShort)
        XCTAssertNil(error)
    }

    @MainActor
    func testSwiftClientToolResultIsQuotedBackByTheAgent() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        let arguments = Box<String?>(nil)
        try conversation.registerTool(
            name: "get_location",
            description: "The user's current city",
            parametersJsonSchema: #"{"type":"object","properties":{"precision":{"type":"string"}}}"#
        ) { argumentsJson in
            arguments.value = argumentsJson
            try await Task.sleep(nanoseconds: 20_000_000) // a real suspension inside the tool
            return "Lisbon, Portugal"
        }

        let summary = try await conversation.send("where am I? use my location")

        let received = try XCTUnwrap(arguments.value, "the tool ran")
        XCTAssertTrue(received.contains("\"precision\""), "arguments reach Swift: \(received)")
        XCTAssertEqual(summary.toolCalls.count, 1)
        let report = try XCTUnwrap(summary.toolCalls.first)
        XCTAssertEqual(report.toolName, "get_location")
        XCTAssertEqual(report.phase, .succeeded(result: "Lisbon, Portugal"))

        let quoted = "Your location according to the app: Lisbon, Portugal"
        try await waitUntil("the agent quoting the tool") { conversation.messages.assistantTexts.contains(quoted) }
        try await waitUntil("the call marked succeeded") {
            conversation.toolCall(report.toolCallId)?.phase == ToolCallPhase.succeeded(result: "Lisbon, Portugal")
        }
        XCTAssertNil(conversation.toolCall("no-such-call"))
        // The result went back as a tool message, and the run continued from it.
        XCTAssertTrue(
            try conversation.native.snapshot().messages.contains { $0.role == .tool && $0.toolCallId == report.toolCallId },
            "a tool message answers \(report.toolCallId)"
        )
    }

    @MainActor
    func testFailingSwiftToolReportsItsFailureToTheAgent() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        try conversation.registerTool(
            name: "get_location",
            description: "The user's current city",
            parametersJsonSchema: #"{"type":"object"}"#
        ) { _ in
            throw ClientToolFailure("location permission denied")
        }

        let summary = try await conversation.send("my location please")

        let status = try XCTUnwrap(summary.toolCalls.first?.phase)
        guard case .failed(let failure, let detail) = status else { return XCTFail("expected a failed call, got \(status)") }
        // The failure, as Kotlin sees it too, and the text the agent read.
        XCTAssertEqual(failure, .failed(message: "location permission denied"))
        XCTAssertEqual(detail, "the tool failed: location permission denied")
        try await waitUntil("the agent reading the failure") {
            conversation.messages.assistantTexts.contains("location permission denied")
        }
    }

    @MainActor
    func testParallelClientToolsArePairedByCallId() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        try conversation.registerTool(
            name: "lookup_price",
            description: "Price of an item",
            parametersJsonSchema: #"{"type":"object","properties":{"item":{"type":"string"}},"required":["item"]}"#
        ) { argumentsJson in
            let object = try JSONSerialization.jsonObject(with: Data(argumentsJson.utf8)) as? [String: Any]
            let item = object?["item"] as? String ?? "?"
            // A answers last, so completion order differs from call order.
            if item == "A" { try await Task.sleep(nanoseconds: 150_000_000) }
            return "price of \(item) is \(item == "A" ? "3.50" : "4.20") EUR"
        }

        let summary = try await conversation.send("compare prices")

        XCTAssertEqual(summary.toolCalls.count, 2)
        let expected = "A -> price of A is 3.50 EUR; B -> price of B is 4.20 EUR"
        try await waitUntil("both results quoted in call order") {
            conversation.messages.assistantTexts.contains(expected)
        }
    }

    @MainActor
    func testBookingSurfaceArrivesAsResolvedNodesAndTheBookActionIsAnswered() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        _ = try await conversation.send("book a table")
        XCTAssertEqual(conversation.surfaces.map(\.id), ["booking"])
        XCTAssertEqual(conversation.surface("booking"), conversation.surfaces.first)
        let surface = try await eventually("the booking surface with its root") {
            conversation.surfaceNow("booking").flatMap { $0.root != nil ? $0 : nil }
        }

        let root = try XCTUnwrap(surface.root.flatMap { surface.node($0) })
        XCTAssertEqual(root.componentType, "Card")
        XCTAssertEqual(surface.node("name")?.componentType, "TextField")
        XCTAssertEqual(surface.node("date")?.componentType, "DateTimeInput")
        XCTAssertEqual(surface.node("guests")?.componentType, "ChoicePicker")
        let book = try XCTUnwrap(surface.node("book"))
        XCTAssertEqual(book.componentType, "Button")
        XCTAssertFalse(book.enabled, "Book is disabled until a name and a date are set")
        let form = try XCTUnwrap(surface.node("form"))
        XCTAssertEqual(surface.children(of: form).map(\.id), ["title", "name", "date", "guests", "book"])
        XCTAssertEqual(surface.node("title")?.prop("text")?.textValue, "Book a table")

        // A renderer subscribing to the surface starts from a full Reset.
        var diffs = try conversation.surfaceDiffs("booking").makeAsyncIterator()
        guard case .reset(let resetRoot, let nodes)? = await diffs.next() else {
            return XCTFail("the first diff is a reset")
        }
        XCTAssertEqual(resetRoot, "root")
        XCTAssertFalse(nodes.isEmpty)

        try conversation.setValue(surfaceId: "booking", path: "/booking/name", value: "Ada")
        try conversation.setValue(surfaceId: "booking", path: "/booking/date", value: NodeValue.text(value: "2026-12-24"))
        try conversation.setValue(surfaceId: "booking", path: "/booking/guests", value: ["4"])

        let filled = try await eventually("Book enabled") {
            conversation.surfaceNow("booking").flatMap { $0.node("book")?.enabled == true ? $0 : nil }
        }
        XCTAssertEqual(filled.node("name")?.prop("value")?.textValue, "Ada")

        let result = try await conversation.dispatchAction(surfaceId: "booking", nodeId: "book")
        guard case .ran = result else { return XCTFail("the action went to the agent: \(result)") }
        let booked = "Booked a table for 4 on 2026-12-24 under the name Ada."
        try await waitUntil("the agent's answer to the action") {
            conversation.messages.assistantTexts.contains(booked)
        }
        // The agent removes the form once the table is booked.
        try await waitUntil("the surface deleted") { conversation.surface("booking") == nil }
    }

    @MainActor
    func testV10SurfaceCallsAnAgentFunctionAndSendsActionMetadata() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        _ = try await conversation.send("I want to sign up")
        try await waitUntil("the sign-up card") { conversation.surfaceNow("signup")?.node("join") != nil }

        let answer = try await conversation.callAgentFunction(
            surfaceId: "signup",
            call: ["call": .text(value: "checkEmail"), "args": ["email": "zoe@example.com"].nodeValue]
        )
        XCTAssertEqual(answer[member: "email"]?.textValue, "zoe@example.com")
        XCTAssertEqual(answer[member: "available"], .bool(value: true))
        do {
            let value = try await conversation.callAgentFunction(surfaceId: "signup", call: ["call": .text(value: "nope")])
            XCTFail("an error answer must throw, got \(value)")
        } catch ConversationError.AgentFunctionFailed(_, let code, _) {
            XCTAssertEqual(code, "UNKNOWN_FUNCTION")
        }
        do {
            let value = try await conversation.callAgentFunction(surfaceId: "signup", call: ["call": .text(value: "silent")])
            XCTFail("no answer must throw, got \(value)")
        } catch ConversationError.AgentFunctionUnanswered {
            // the run ended without an answer, as expected
        }

        try conversation.setValue(surfaceId: "signup", path: "/email", value: "zoe@example.com")
        let result = try await conversation.dispatchAction(
            surfaceId: "signup", nodeId: "join", metadata: ["client_audit": ["signature": "abc"].nodeValue]
        )
        guard case .ran = result else { return XCTFail("the action went to the agent: \(result)") }
        XCTAssertEqual(
            conversation.messages.lastAssistantText,
            "Signed up zoe@example.com for 2 newsletters a month. Metadata: {\"client_audit\":{\"signature\":\"abc\"}}"
        )

        // A v0.9 surface refuses a call.
        _ = try await conversation.send("book a table")
        do {
            let value = try await conversation.callAgentFunction(surfaceId: "booking", call: ["call": .text(value: "checkEmail")])
            XCTFail("a v0.9 surface must refuse, got \(value)")
        } catch ConversationError.A2ui(let code, _) {
            XCTAssertEqual(code, "ACTION_REFUSED")
        }
    }

    @MainActor
    func testDisabledButtonRefusesTheAction() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        _ = try await conversation.send("book a table")
        try await waitUntil("the Book button") { conversation.surfaceNow("booking")?.node("book") != nil }
        do {
            let result = try await conversation.dispatchAction(surfaceId: "booking", nodeId: "book")
            XCTFail("a disabled button must refuse, got \(result)")
        } catch ConversationError.A2ui {
            // refused, as expected
        }
    }

    @MainActor
    func testInterruptIsResolvedFromSwiftAndTheRunContinues() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        let summary = try await conversation.send("delete the report")
        XCTAssertTrue(summary.phase.isInterrupted, "\(summary.phase)")
        try await waitUntil("status interrupted") { conversation.phase.isInterrupted }
        let pending = conversation.interrupts
        XCTAssertEqual(pending.count, 1)
        let interrupt = try XCTUnwrap(pending.first)
        XCTAssertEqual(interrupt.reason, "confirm_delete")
        XCTAssertEqual(summary.pendingInterrupts.map(\.id), [interrupt.id])
        XCTAssertEqual(
            interrupt.responseSchemaJson,
            #"{"properties":{"approved":{"type":"boolean"}},"required":["approved"],"type":"object"}"#
        )
        XCTAssertNil(interrupt.subagentRunId)
        XCTAssertTrue(conversation.phase.hasEnded, "an interrupted run has ended")
        XCTAssertFalse(RunPhase.running(runId: interrupt.id).hasEnded)

        try conversation.resolveInterrupt(id: interrupt.id, payloadJson: #"{"approved": true}"#)
        let next = try await conversation.continueRun()
        XCTAssertTrue(next.phase.isFinished, "\(next.phase)")
        try await waitUntil("the deletion reported") {
            conversation.messages.lastAssistantText.contains("Deleted report.pdf.")
        }
        XCTAssertTrue(conversation.interrupts.isEmpty)
    }

    @MainActor
    func testCancelStopsASlowRun() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        let run = Task { @MainActor in try await conversation.send("slow please") }
        try await waitUntil("the first slow token") {
            conversation.messages.lastAssistantText.contains("Slow token 1.")
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        let started = Date()
        conversation.cancel()

        let outcome = await run.result
        let stopSeconds = Date().timeIntervalSince(started)
        switch outcome {
        case .success(let summary):
            XCTFail("a cancelled run throws, it returned \(summary.phase)")
        case .failure(let error):
            XCTAssertEqual(error as? ConversationError, ConversationError.Cancelled, "got \(error)")
        }
        try await waitUntil("status cancelled") { conversation.phase.isCancelled }
        XCTAssertLessThan(stopSeconds, 2, "cancel took \(stopSeconds) s")
        let text = conversation.messages.lastAssistantText
        XCTAssertFalse(text.contains("Slow token 50."), "the stream stopped early: \(text)")
    }

    @MainActor
    func testHTTP500FromTheAgentIsASwiftError() async throws {
        let conversation = try connect(try AgentRuntime(), path: "/fault/http-500")
        defer { conversation.close() }
        do {
            let summary = try await conversation.send("hello")
            XCTFail("an HTTP 500 must throw, got \(summary.phase)")
        } catch ConversationError.HttpStatus(let status, _) {
            XCTAssertEqual(status, 500)
        }
        try await waitUntil("status failed") { conversation.phase.isFailed }
    }

    /// The counterpart of the Kotlin test of the same name: a budget given in `AgentOptions`.
    @MainActor
    func testAConfiguredMemoryBudgetFailsTheRunWithATypedError() async throws {
        let runtime = try AgentRuntime()
        // The demo's counter scenario sends {"counter": 0, "items": []}: about 330 bytes once
        // parsed, over a 200-byte state budget.
        let small = try runtime.connect(
            url: DemoAgent.agentURL(), options: AgentOptions(memoryBudget: MemoryBudget(maxStateBytes: 200))
        )
        defer { small.close() }
        do {
            let summary = try await small.send("counter")
            XCTFail("a state over the budget must throw, got \(summary.phase)")
        } catch ConversationError.LimitExceeded(let detail) {
            XCTAssertTrue(detail.contains("state size"), detail)
        }
        try await waitUntil("status failed") { small.phase.isFailed }
        XCTAssertEqual(small.stateJson, "{}", "the refused snapshot changed nothing")

        // The same scenario within the phone defaults applies the state.
        XCTAssertEqual(MemoryBudget().maxStateBytes, 4_194_304)
        let roomy = try runtime.connect(url: DemoAgent.agentURL(), options: AgentOptions(memoryBudget: MemoryBudget()))
        defer { roomy.close() }
        _ = try await roomy.send("counter")
        XCTAssertTrue(roomy.stateJson.contains(#""counter":3"#), roomy.stateJson)
    }

    /// `AgentOptions` as the core receives it: Swift durations in whole milliseconds, the
    /// context in key order, the device's locale and zone when none is named.
    func testAgentOptionsBecomeTheCoresOptions() {
        let native = AgentOptions(
            threadId: "t",
            connectTimeout: 2.5,
            idleTimeout: -1,
            toolTimeout: .infinity,
            maxFollowUpRuns: 2,
            context: ["b": "2", "a": "1"],
            locale: "de-DE"
        ).toNative()
        XCTAssertEqual(native.threadId, "t")
        XCTAssertEqual(native.connectTimeoutMs, 2_500)
        XCTAssertEqual(native.idleTimeoutMs, 0)
        XCTAssertEqual(native.toolTimeoutMs, UInt64.max)
        XCTAssertEqual(native.maxFollowUpRuns, 2)
        XCTAssertEqual(native.context.map { [$0.description, $0.value] }, [["a", "1"], ["b", "2"]])
        XCTAssertEqual(native.locale, "de-DE")
        XCTAssertEqual(native.timeZone, TimeZone.current.identifier)
        let defaults = AgentOptions().toNative()
        XCTAssertEqual([defaults.connectTimeoutMs, defaults.idleTimeoutMs, defaults.toolTimeoutMs], [10_000, 60_000, 30_000])
        XCTAssertEqual(defaults.maxFollowUpRuns, 5)
        XCTAssertNil(defaults.memoryBudget)
        XCTAssertTrue(defaults.advertiseA2ui)
        XCTAssertFalse(AgentOptions(advertiseA2ui: false).toNative().advertiseA2ui)
        XCTAssertEqual(defaults.locale, AgentRuntime.bcp47Tag(for: .current))
    }

    @MainActor
    func testAgentErrorIsASwiftError() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        do {
            let summary = try await conversation.send("please fail")
            XCTFail("RUN_ERROR must throw, got \(summary.phase)")
        } catch ConversationError.Agent {
            // the agent's RUN_ERROR, as expected
        }
        try await waitUntil("status agentError") { conversation.phase.isAgentError }
    }

    @MainActor
    func testCloseStopsUpdatesAndKeepsTheLastValues() async throws {
        let conversation = try connect(try AgentRuntime())
        _ = try await conversation.send("hello")
        try await waitUntil("a message") { !conversation.messages.isEmpty }
        conversation.close()
        conversation.close() // idempotent
        XCTAssertFalse(conversation.messages.isEmpty, "the published values stay")
    }

    func testNodeValuesConvertBothWays() {
        let value = ["a": [1.0, 2.5], "b": [3.0]].nodeValue
        XCTAssertEqual(
            value,
            .object(entries: [
                PropEntry(name: "a", value: .array(items: [.number(value: 1), .number(value: 2.5)])),
                PropEntry(name: "b", value: .array(items: [.number(value: 3)])),
            ])
        )
        XCTAssertEqual(value[member: "b"], .array(items: [.number(value: 3)]))
        XCTAssertNil(NodeValue.null.swiftValue)
        XCTAssertEqual(NodeValue.text(value: "x").textValue, "x")
        XCTAssertEqual(Optional<String>.none.nodeValue, .null)
    }
}
