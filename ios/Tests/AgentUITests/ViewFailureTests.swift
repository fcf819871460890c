// How the layer's properties take failures: the counterpart of the Kotlin host tests in
// android/host-jvm/src/test/kotlin/dev/agentui/ViewFailureTest.kt. An internal error of the core
// while the properties are updated, a call that fails, and a runtime without a store file.
//
// Needs AGENTUI_DEMO_AGENT_URL (see TestSupport.swift).

import Combine
import Foundation
import XCTest
@testable import AgentUI
// The core itself, for what only a test reaches (its test hooks and records).
import AgentUICore

final class ViewFailureTests: XCTestCase {
    @MainActor
    func testAnInternalErrorOfTheViewFailsThePhaseWithAWarningAndReleasesTheCaller() async throws {
        let runtime = try AgentRuntime()
        let conversation = try runtime.connect(url: try DemoAgent.agentURL())
        defer { conversation.close() }
        var warnings: [AgentUI.SessionWarning] = []
        let collector = conversation.warnings.sink { warnings.append($0) }
        defer { collector.cancel() }
        try await waitUntil("the first batch") { conversation.snapshotsApplied >= 1 }
        // The core's next batch for this conversation is an internal error; the run goes on.
        failNextViewBatchForTests(threadId: conversation.threadId)
        let returned = Box(false)
        let sent = Task { @MainActor in
            defer { returned.value = true }
            return try await conversation.send("hello")
        }
        // Before the fix the pump ended in silence and the send never returned.
        try await waitUntil("the send to return") { returned.value }
        _ = try await sent.value
        guard case .failed(let error) = conversation.phase else {
            return XCTFail("the phase shows the failure: \(conversation.phase)")
        }
        XCTAssertTrue(error.hasPrefix(AgentConversation.viewFailedPrefix), error)
        XCTAssertTrue(error.contains("panicked"), error)
        XCTAssertEqual(warnings.filter { $0.kind == .viewFailed }.map(\.message), [error])
        // Terminal: later calls return without waiting for properties that no longer change.
        _ = try await conversation.send("hello again")
        XCTAssertEqual(conversation.phase, .failed(error: error))
    }

    @MainActor
    func testAFailedSendThrowsOnceThePropertiesShowTheFailureAndTheMessageThatWaits() async throws {
        // Port 9 (discard) on loopback: nothing listens there, the send fails at once. Sent at
        // once after connect: the pump applies its first batch and waits out the rest of that
        // frame, and the refusal comes inside it, so the failure shows only if send waits for it.
        let runtime = try AgentRuntime()
        let conversation = try runtime.connect(url: "http://127.0.0.1:9/agent")
        defer { conversation.close() }
        do {
            _ = try await conversation.send("hello")
            XCTFail("an unreachable agent must throw")
        } catch ConversationError.Network {
            // Read where the app's catch reads them: the failure's end, not the request's start.
            guard case .failed = conversation.phase else {
                return XCTFail("the phase shown as the error is caught: \(conversation.phase)")
            }
            XCTAssertEqual(conversation.pendingSends.count, 1, "the message waits for the agent")
            XCTAssertEqual(conversation.pendingSends.first?.attempts, 1, "its failed attempt is counted")
        }
    }

    @MainActor
    func testStoreCallsOnARuntimeWithoutAStoreFileThrowATypedError() async throws {
        let runtime = try AgentRuntime()
        do {
            _ = try await runtime.conversations()
            XCTFail("no store file: conversations() must throw")
        } catch let error as AgentRuntimeError {
            XCTAssertEqual(error, .noStoreFile)
            XCTAssertTrue(error.description.contains("AgentRuntime(storeURL:)"), error.description)
        }
        for call in ["fork", "delete"] {
            do {
                if call == "fork" {
                    _ = try await runtime.fork(threadId: "t")
                } else {
                    _ = try await runtime.delete(threadId: "t")
                }
                XCTFail("no store file: \(call) must throw")
            } catch let error as AgentRuntimeError {
                XCTAssertEqual(error, .noStoreFile, call)
            }
        }
        do {
            _ = try await runtime.resume(threadId: "t", url: "http://127.0.0.1:9/agent")
            XCTFail("no store file: resume must throw")
        } catch let error as AgentRuntimeError {
            XCTAssertEqual(error, .noStoreFile)
        }
    }
}
