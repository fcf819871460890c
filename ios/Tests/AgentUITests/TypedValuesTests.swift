// The typed forms of the calls that also take JSON text, through the Swift layer against the demo
// agent: values go in and come out as `NodeValue`s, and the agent reads the JSON they stand for.
// The counterpart of android/host-jvm/src/test/kotlin/dev/agentui/TypedValuesTest.kt.
//
// Needs AGENTUI_DEMO_AGENT_URL (see TestSupport.swift); every test fails without it.

import XCTest
@testable import AgentUI

final class TypedValuesTests: XCTestCase {
    @MainActor
    func testAnInterruptAnsweredWithAValueReachesTheAgentAsJson() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        let summary = try await conversation.send("delete the report")
        XCTAssertTrue(summary.phase.isInterrupted, "\(summary.phase)")
        try await waitUntil("status interrupted") { conversation.phase.isInterrupted }
        let interrupt = try XCTUnwrap(conversation.interrupts.first)

        // `false` keeps the file: the agent read the member, not only that an answer came.
        try conversation.resolveInterrupt(id: interrupt.id, answer: ["approved": false])
        let next = try await conversation.continueRun()
        XCTAssertTrue(next.phase.isFinished, "\(next.phase)")
        try await waitUntil("the file kept") { conversation.messages.lastAssistantText == "Kept report.pdf." }
    }

    @MainActor
    func testATypedToolGetsValuesAndItsValueGoesBackToTheAgentAsJson() async throws {
        let conversation = try connect(try AgentRuntime())
        defer { conversation.close() }
        let arguments = Box<[String: NodeValue]?>(nil)
        try conversation.registerTool(
            name: "get_location",
            description: "The user's current city",
            parameters: ["type": "object".nodeValue, "properties": ["precision": ["type": "string"]].nodeValue]
        ) { args in
            arguments.value = args
            return ["city": "Lisbon", "country": "Portugal"].nodeValue
        }

        let summary = try await conversation.send("where am I? use my location")

        XCTAssertEqual(arguments.value, ["precision": .text(value: "city")])
        XCTAssertEqual(summary.toolCalls.count, 1)
        let quoted = #"Your location according to the app: {"city":"Lisbon","country":"Portugal"}"#
        try await waitUntil("the agent quoting the tool") { conversation.messages.assistantTexts.contains(quoted) }
    }

    @MainActor
    func testTypedForwardedPropsArriveInTheRunInput() async throws {
        // The demo agent quotes `forwardedProps.command.resume` back (LangGraph's legacy channel).
        let props: [String: NodeValue] = ["command": ["resume": ["ok": true]].nodeValue]
        let conversation = try AgentRuntime().connect(
            url: DemoAgent.baseURL() + "/agent",
            options: AgentOptions(forwardedProps: props)
        )
        defer { conversation.close() }
        _ = try await conversation.send("hello")
        try await waitUntil("the quoted props") {
            conversation.messages.lastAssistantText == #"Approved: {"ok":true}"#
        }
    }
}
