// Issue 26 through the Swift layer: the counterpart of the Kotlin host tests in
// android/host-jvm/src/test/kotlin/dev/agentui/NetworkTest.kt. An `async` header provider asked
// before each request, its failure typed, and `setOnline` holding the outbox's retries offline.
//
// Needs AGENTUI_DEMO_AGENT_URL (see TestSupport.swift).

import Foundation
import XCTest
@testable import AgentUI

final class NetworkTests: XCTestCase {
    @MainActor
    func testTheHeaderProviderIsAskedBeforeEachRequest() async throws {
        let url = try DemoAgent.agentURL()
        let asked = Box<[Bool]>([])
        let conversation = try AgentRuntime().connect(url: url, headerProvider: { challenge in
            asked.value.append(challenge != nil)
            try await Task.sleep(nanoseconds: 10_000_000) // a token refresh
            return ["Authorization": "Bearer s3cret"]
        })
        defer { conversation.close() }
        for text in ["hello", "again"] {
            let summary = try await conversation.send(text)
            XCTAssertTrue(summary.phase.isFinished, "\(summary.phase)")
        }
        XCTAssertEqual(asked.value, [false, false])
    }

    @MainActor
    func testAfterA401TheProviderIsGivenItsChallengeAndItsFreshHeadersAreSent() async throws {
        let url = try DemoAgent.baseURL() + "/dpop/agent"
        let asked = Box<[AuthChallenge?]>([])
        // A stand-in DPoP proof: the agent accepts it only with the nonce of its 401.
        let conversation = try AgentRuntime().connect(url: url, headerProvider: { challenge in
            asked.value.append(challenge)
            return ["DPoP": "proof-for-\(challenge?.dpopNonce ?? "none")"]
        })
        defer { conversation.close() }
        let summary = try await conversation.send("hello")
        XCTAssertTrue(summary.phase.isFinished, "\(summary.phase)")
        XCTAssertEqual(asked.value.count, 2)
        XCTAssertNil(asked.value.first ?? nil)
        let challenge = try XCTUnwrap(asked.value.last ?? nil)
        XCTAssertEqual(
            challenge.wwwAuthenticate,
            ["DPoP error=\"use_dpop_nonce\", error_description=\"Resource server requires nonce in DPoP proof\""])
        XCTAssertNotNil(challenge.dpopNonce)
    }

    @MainActor
    func testAProviderThatFailsFailsTheSendWithHeaderProvider() async throws {
        let url = try DemoAgent.agentURL()
        let signedOut = try AgentRuntime().connect(url: url, headerProvider: { _ in
            throw HeaderProviderFailure("signed out")
        })
        defer { signedOut.close() }
        do {
            _ = try await signedOut.send("hello")
            XCTFail("a provider that fails must fail the send")
        } catch ConversationError.HeaderProvider(let detail) {
            XCTAssertEqual(detail, "signed out")
        }
        struct Corrupted: Error { let path = "/var/secret" }
        let crashing = try AgentRuntime().connect(url: url, headerProvider: { _ in throw Corrupted() })
        defer { crashing.close() }
        do {
            _ = try await crashing.send("hello")
            XCTFail("a provider that throws must fail the send")
        } catch ConversationError.HeaderProvider(let detail) {
            XCTAssertFalse(detail.contains("/var/secret"), "an unexpected error's text stays out: \(detail)")
        }
    }

    @MainActor
    func testOfflineTheWaitingMessageHoldsItsRetriesAndGoesAtOnceWhenBackOnline() async throws {
        // Port 9 (discard) on loopback: nothing listens there.
        let runtime = try AgentRuntime()
        let conversation = try runtime.connect(url: "http://127.0.0.1:9/agent")
        defer { conversation.close() }
        runtime.setOnline(false)
        do {
            _ = try await conversation.send("from the tunnel")
            XCTFail("an unreachable agent must throw")
        } catch ConversationError.Network {
        }
        try await waitUntil("the message to wait") { conversation.pendingSends.first?.attempts == 1 }
        // Online, the conversation would have tried again after 1 s and 3 s.
        try await Task.sleep(nanoseconds: 3_500_000_000)
        XCTAssertEqual(conversation.pendingSends.first?.attempts, 1, "no attempt spent offline")
        let back = Date()
        runtime.setOnline(true)
        try await waitUntil("an attempt once back online") { conversation.pendingSends.first?.attempts == 2 }
        XCTAssertLessThan(Date().timeIntervalSince(back), 0.9, "at once, not at the next retry")
    }
}
