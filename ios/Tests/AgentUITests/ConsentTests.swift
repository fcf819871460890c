// The user's consent before a client tool acts, through the layer against the demo agent (its
// get_location scenario calls the tool and quotes the result, or the error, back): the
// counterpart of android/host-jvm/src/test/kotlin/dev/agentui/ConsentTest.kt.
//
// Needs AGENTUI_DEMO_AGENT_URL (see TestSupport.swift).

import Foundation
import XCTest
@testable import AgentUI

final class ConsentTests: XCTestCase {
    private let schema = #"{"type":"object","properties":{"precision":{"type":"string"}}}"#

    @MainActor
    func testAnAskToolRunsOnlyAfterTheUserAllowedItAndTheAgentQuotesItsResult() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        let calls = Box<[String]>([])
        try conversation.registerTool(
            name: "get_location", description: "The user's current city", parametersJsonSchema: schema, consent: .ask
        ) { arguments in
            calls.value.append(arguments)
            return "Lisbon, Portugal"
        }

        let summary = try await conversation.send("where am I? use my location")

        XCTAssertEqual(calls.value, [], "nothing runs before the answer")
        XCTAssertEqual(summary.toolCalls, [], "the run reports no executed call")
        // send() returns once the properties show the run's end: the request is listed already.
        XCTAssertEqual(conversation.consentRequests.count, 1)
        let request = try XCTUnwrap(conversation.consentRequests.first)
        XCTAssertEqual(request.toolName, "get_location")
        XCTAssertEqual(request.arguments, ["precision": "city"].nodeValue)
        XCTAssertGreaterThan(request.askedAtMs, 0, "epoch milliseconds")
        XCTAssertEqual(conversation.toolCall(request.toolCallId)?.phase, .awaitingConsent, "told apart from any requested call")
        // The timeline: the call's row waiting on the user, and the card right after it.
        let at = try XCTUnwrap(conversation.timeline.firstIndex { $0.key == "t:" + request.toolCallId })
        XCTAssertEqual(
            conversation.timeline[at].kind,
            .toolActivity(toolCallId: request.toolCallId, name: "get_location", side: .client, phase: .awaitingConsent))
        XCTAssertEqual(conversation.timeline.dropFirst(at + 1).first?.kind, .consentRequest(request))
        XCTAssertFalse(conversation.messages.assistantTexts.contains("Lisbon"))

        let followUp = try await conversation.answerConsent(toolCallId: request.toolCallId, answer: .allowOnce)
        XCTAssertEqual(calls.value.count, 1)
        XCTAssertEqual(try XCTUnwrap(followUp).toolCalls.map(\.phase), [.succeeded(result: "Lisbon, Portugal")])
        // answerConsent returns once the properties show the follow-up run's end.
        XCTAssertTrue(
            conversation.messages.assistantTexts.contains("Your location according to the app: Lisbon, Portugal"),
            conversation.messages.assistantTexts
        )
        XCTAssertEqual(conversation.consentRequests, [], "answered, the request is gone")

        // Answered already, or never asked: the typed error, and nothing runs again.
        for id in [request.toolCallId, "no-such-call"] {
            do {
                _ = try await conversation.answerConsent(toolCallId: id, answer: .allowOnce)
                XCTFail("answering \(id) should throw")
            } catch ConversationError.UnknownConsentRequest(let toolCallId) {
                XCTAssertEqual(toolCallId, id)
            }
        }
        XCTAssertEqual(calls.value.count, 1)
    }

    @MainActor
    func testADeclinedCallReachesTheAgentAsDeclinedAndTheToolNeverRuns() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        let calls = Box<Int>(0)
        struct Arguments: Decodable { let precision: String? }
        // The Codable overload takes the same consent.
        try conversation.registerTool(
            name: "get_location",
            description: "The user's current city",
            parameters: ["type": "object".nodeValue, "properties": ["precision": ["type": "string"]].nodeValue],
            consent: .ask
        ) { (_: Arguments) in
            calls.value += 1
            return "Lisbon, Portugal"
        }
        _ = try await conversation.send("my location please")
        let request = try XCTUnwrap(conversation.consentRequests.first)

        let followUp = try await conversation.answerConsent(toolCallId: request.toolCallId, answer: .decline)
        XCTAssertNotNil(followUp)
        XCTAssertEqual(calls.value, 0, "a declined tool never runs")
        XCTAssertEqual(
            conversation.toolCall(request.toolCallId)?.phase,
            .failed(failure: .declined, detail: "the client refused to run this call: the user declined it")
        )
        let said = conversation.messages.assistantTexts
        XCTAssertTrue(said.contains("The app reported an error") && said.contains("the user declined it"), said)
        XCTAssertFalse(said.contains("Lisbon"), said)
        XCTAssertEqual(conversation.consentRequests, [])
    }

    @MainActor
    func testAllowAlwaysLetsLaterCallsOfTheToolRunWithoutAsking() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        let calls = Box<Int>(0)
        // The typed overload takes the same consent.
        try conversation.registerTool(
            name: "get_location",
            description: "The user's current city",
            parameters: ["type": "object".nodeValue],
            consent: .ask
        ) { (_: [String: NodeValue]) in
            calls.value += 1
            return "Porto".nodeValue
        }
        _ = try await conversation.send("where am I? use my location")
        let request = try XCTUnwrap(conversation.consentRequests.first)
        XCTAssertEqual(conversation.consentGrants, [])
        _ = try await conversation.answerConsent(toolCallId: request.toolCallId, answer: .allowAlways)
        XCTAssertEqual(calls.value, 1)
        XCTAssertEqual(conversation.consentGrants, ["get_location"], "the grant is published")

        let summary = try await conversation.send("and my location now?")
        XCTAssertEqual(calls.value, 2, "granted: the second call ran at once")
        XCTAssertEqual(conversation.consentRequests, [])
        XCTAssertEqual(summary.toolCalls.map(\.phase), [.succeeded(result: "Porto")])
    }

    @MainActor
    func testAWaitingRequestSurvivesANewRuntimeOnTheStoreFileAndRunsOnlyWhenAnswered() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agentui-consent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeURL = directory.appendingPathComponent("consent.db")
        let url = try DemoAgent.agentURL()
        let calls = Box<Int>(0)
        let tool: ClientTool = { _ in
            calls.value += 1
            return "Braga"
        }
        let asked: ConsentRequest
        do {
            let conversation = try AgentRuntime(storeURL: storeURL).connect(url: url, options: AgentOptions(threadId: "consent"))
            defer { conversation.close() }
            try conversation.registerTool(
                name: "get_location", description: "The user's current city", parametersJsonSchema: schema, consent: .ask, tool: tool)
            _ = try await conversation.send("where am I? use my location")
            asked = try XCTUnwrap(conversation.consentRequests.first)
        }

        // As after the app was terminated: a new runtime on the same file.
        let restored = try await AgentRuntime(storeURL: storeURL).resume(threadId: "consent", url: url)
        defer { restored.close() }
        let shown = try await eventually("the restored request") {
            restored.consentRequests.isEmpty ? nil : restored.consentRequests
        }
        XCTAssertEqual(shown, [asked], "the same request, asked at the same time")
        XCTAssertEqual(restored.toolCall(asked.toolCallId)?.phase, .awaitingConsent, "still waiting after the restore")
        XCTAssertEqual(calls.value, 0, "restoring runs nothing")
        try restored.registerTool(
            name: "get_location", description: "The user's current city", parametersJsonSchema: schema, consent: .ask, tool: tool)

        let followUp = try await restored.answerConsent(toolCallId: asked.toolCallId, answer: .allowOnce)
        XCTAssertEqual(calls.value, 1)
        XCTAssertEqual(try XCTUnwrap(followUp).toolCalls.map(\.phase), [.succeeded(result: "Braga")])
        XCTAssertTrue(restored.messages.assistantTexts.contains("Your location according to the app: Braga"))
        XCTAssertEqual(restored.consentRequests, [])
    }
}
