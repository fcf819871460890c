// Conversations kept in a store file: the counterpart of the Kotlin host tests in
// android/host-jvm/src/test/kotlin/dev/agentui/ConversationStoreTest.kt. Each "launch" is a new
// AgentRuntime on the same file, as after the app was terminated.
//
// Needs AGENTUI_DEMO_AGENT_URL (see TestSupport.swift).

import Foundation
import XCTest
@testable import AgentUI

final class ConversationStoreTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("agentui-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private var storeURL: URL { directory.appendingPathComponent("conversations.db") }

    @MainActor
    func testAConversationComesBackThroughANewRuntimeWithItsSurfaceInput() async throws {
        let url = try DemoAgent.agentURL()
        let before: [ChatMessage]
        let stateJson: String
        do {
            let conversation = try AgentRuntime(storeURL: storeURL).connect(url: url, options: AgentOptions(threadId: "restore"))
            defer { conversation.close() }
            _ = try await conversation.send("counter")
            _ = try await conversation.send("book a table")
            try conversation.setValue(surfaceId: "booking", path: "/booking/name", value: "Ada")
            before = conversation.messages
            stateJson = conversation.stateJson
        }

        let conversation = try await AgentRuntime(storeURL: storeURL).resume(threadId: "restore", url: url)
        defer { conversation.close() }
        let messages = try await eventually("the restored messages") {
            conversation.messages.count == before.count ? conversation.messages : nil
        }
        XCTAssertEqual(messages.map(\.id), before.map(\.id))
        XCTAssertEqual(messages.map(\.text), before.map(\.text))
        XCTAssertEqual(conversation.stateJson, stateJson)
        XCTAssertEqual(conversation.surfaces.map(\.id), ["booking"])
        XCTAssertTrue(conversation.phase.isFinished, "\(conversation.phase)")
        let name = conversation.surfaceNow("booking")?.node("name")?.props.first { $0.name == "value" }?.value
        XCTAssertEqual(name, .text(value: "Ada"), "the user's unsent input comes back")
    }

    @MainActor
    func testConversationsPageNewestFirstForkCopiesDeleteIsIdempotent() async throws {
        let url = try DemoAgent.agentURL()
        let runtime = try AgentRuntime(storeURL: storeURL)
        XCTAssertTrue(runtime.isPersistent)
        for thread in ["a", "b", "c"] {
            let conversation = try runtime.connect(url: url, options: AgentOptions(threadId: thread))
            _ = try await conversation.send("hello \(thread)")
            conversation.close()
            try await Task.sleep(nanoseconds: 5_000_000) // distinct write times
        }
        let first = try await runtime.conversations(limit: 2)
        XCTAssertEqual(first.conversations.map(\.threadId), ["c", "b"])
        XCTAssertEqual(first.conversations[0].title, "hello c")
        XCTAssertEqual(first.conversations[0].messageCount, 2)
        let rest = try await runtime.conversations(limit: 2, cursor: first.nextCursor)
        XCTAssertEqual(rest.conversations.map(\.threadId), ["a"])
        XCTAssertNil(rest.nextCursor)

        let copy = try await runtime.fork(threadId: "a", newThreadId: "a-copy")
        XCTAssertEqual(copy, "a-copy")
        do {
            _ = try await runtime.fork(threadId: "a", newThreadId: "b")
            XCTFail("a fork never overwrites")
        } catch StoreError.Exists(let threadId) {
            XCTAssertEqual(threadId, "b")
        }
        let deleted = try await runtime.delete(threadId: "a")
        XCTAssertTrue(deleted)
        let again = try await runtime.delete(threadId: "a")
        XCTAssertFalse(again, "deleting twice is fine")
        let left = try await runtime.conversations(limit: 10).conversations.map(\.threadId)
        XCTAssertEqual(Set(left), ["a-copy", "b", "c"])
    }

    @MainActor
    func testAMessageTheAgentCouldNotReceiveWaitsAndRetryPendingDeliversIt() async throws {
        // Port 9 (discard) on loopback: nothing listens there on a developer Mac or CI runner.
        let unreachable = "http://127.0.0.1:9/agent"
        do {
            let conversation = try AgentRuntime(storeURL: storeURL)
                .connect(url: unreachable, options: AgentOptions(threadId: "offline"))
            defer { conversation.close() }
            do {
                _ = try await conversation.send("hello, anyone?")
                XCTFail("an unreachable agent must throw")
            } catch ConversationError.Network {
            }
            let pending = try await eventually("the message to wait") {
                conversation.pendingSends.first.flatMap { $0.attempts > 0 ? $0 : nil }
            }
            guard case .message(_, let text) = pending.kind else { return XCTFail("\(pending.kind)") }
            XCTAssertEqual(text, "hello, anyone?")
            XCTAssertEqual(conversation.messages.map(\.isPending), [true])
        }

        let conversation = try await AgentRuntime(storeURL: storeURL).resume(threadId: "offline", url: try DemoAgent.agentURL())
        defer { conversation.close() }
        try await waitUntil("the restored waiting message") { conversation.pendingSends.count == 1 }
        let summary = try await conversation.retryPending()
        XCTAssertNotNil(summary, "delivered by this call")
        XCTAssertTrue(conversation.pendingSends.isEmpty)
        XCTAssertEqual(conversation.messages.map(\.role), [.user, .assistant], "the message is in the conversation once")
        XCTAssertFalse(conversation.messages[0].isPending)
        XCTAssertTrue(conversation.messages.lastAssistantText.hasPrefix("Hello!"), conversation.messages.lastAssistantText)
    }

    @MainActor
    func testDiscardPendingDropsAWaitingMessageAndItsStoredRow() async throws {
        let unreachable = "http://127.0.0.1:9/agent"
        let runtime = try AgentRuntime(storeURL: storeURL)
        let conversation = try runtime.connect(url: unreachable, options: AgentOptions(threadId: "discard"))
        defer { conversation.close() }
        do {
            _ = try await conversation.send("never mind")
            XCTFail("an unreachable agent must throw")
        } catch ConversationError.Network {
        }
        let pending = try await eventually("the message to wait") {
            conversation.pendingSends.first.flatMap { $0.attempts > 0 ? $0 : nil }
        }
        XCTAssertEqual(pending.reason, .unreached, "unreachable: retried on its own")
        let discarded = try await conversation.discardPending(key: pending.key)
        XCTAssertTrue(discarded)
        try await waitUntil("the empty waiting list") { conversation.pendingSends.isEmpty }
        let again = try await conversation.discardPending(key: pending.key)
        XCTAssertFalse(again, "nothing waits under it any more")
        let unknown = try await conversation.discardPending(key: "no-such-key")
        XCTAssertFalse(unknown)
        XCTAssertEqual(conversation.messages.map(\.text), ["never mind"], "a message already in the conversation stays")
        let stored = try await runtime.conversations(limit: 10).conversations.first { $0.threadId == "discard" }
        XCTAssertEqual(stored?.pendingSends, 0, "the stored row is gone")
    }
}
