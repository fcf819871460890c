// The Swift kit end to end: a scripted agent (the kit's own native library) driving the Swift
// layer's AgentConversation, with the kit's waits and node helpers. No demo agent needed.

import XCTest
import AgentUI
import AgentUITesting

final class ScriptedAgentTests: XCTestCase {
    private let booking = AgentScript()
        .on(.userSays("book a table"), reply: [
            .text("Here is the form.", chunkChars: 5),
            .surface(
                #"{"version": "v0.9", "createSurface": {"surfaceId": "booking", "catalogId": "\#(catalog)"}}"#,
                #"""
                {"version": "v0.9", "updateComponents": {"surfaceId": "booking", "components": [
                  {"id": "root", "component": "Column", "children": ["name", "book"]},
                  {"id": "name", "component": "TextField", "label": "Name", "value": {"path": "/name"}},
                  {"id": "book", "component": "Button", "child": "book-label",
                   "action": {"event": {"name": "book", "context": {"name": {"path": "/name"}}}}},
                  {"id": "book-label", "component": "Text", "text": "Book"}]}}
                """#
            ),
        ])
        .on(.userMatches("(?i)where am i"), reply: [.toolCall("get_location", arguments: ["precision": "city"])])
        .on(.toolResult("get_location"), reply: [.text("You are in Lisbon.")])

    @MainActor
    func testStreamedTextReachesTheConversation() async throws {
        let agent = try ScriptedAgent.start(AgentScript().on(.userSays("hello"), reply: [.text("Hello from a script.", chunkChars: 3)]))
        let conversation = try AgentRuntime().connect(url: agent.url)
        defer { conversation.close() }
        _ = try await conversation.send("hello")
        guard case .finished = try await conversation.awaitIdle() else {
            return XCTFail("the run finished: \(conversation.phase)")
        }
        XCTAssertEqual(conversation.messages.last { $0.role == .assistant }?.text, "Hello from a script.")
        XCTAssertEqual(agent.requests.count, 1)
        try agent.assertAllMatched()
    }

    @MainActor
    func testAClientToolsResultReachesTheAgentsRecordedRequest() async throws {
        let agent = try ScriptedAgent.start(booking)
        let conversation = try AgentRuntime().connect(url: agent.url)
        defer { conversation.close() }
        try conversation.registerTool(name: "get_location", description: "where the user is", parametersJsonSchema: #"{"type":"object"}"#) { _ in
            #"{"city": "Lisbon"}"#
        }
        _ = try await conversation.send("Where am I?")
        guard case .finished = try await conversation.awaitIdle() else {
            return XCTFail("the run finished: \(conversation.phase)")
        }
        XCTAssertEqual(conversation.messages.last { $0.role == .assistant && !$0.text.isEmpty }?.text, "You are in Lisbon.")
        XCTAssertEqual(agent.requests.count, 2, "the call's result came back in a second request")
        XCTAssertTrue(agent.requests[0].contains(#""get_location""#), "the app declared its tool: \(agent.requests[0])")
        // The follow-up carries the tool's message with the app's result.
        let followUp = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(agent.requests[1].utf8)) as? [String: Any])
        let messages = try XCTUnwrap(followUp["messages"] as? [[String: Any]])
        let toolMessage = try XCTUnwrap(messages.last { $0["role"] as? String == "tool" })
        XCTAssertEqual(toolMessage["content"] as? String, #"{"city": "Lisbon"}"#)
        try agent.assertAllMatched()
    }

    @MainActor
    func testASurfaceIsFoundTypedIntoAndPressed() async throws {
        let agent = try ScriptedAgent.start(booking)
        let conversation = try AgentRuntime().connect(url: agent.url)
        defer { conversation.close() }
        _ = try await conversation.send("book a table")
        try await conversation.awaitSurface("booking")
        let field = try await conversation.a2uiNode("name", in: "booking")
        XCTAssertEqual(field.componentType, "TextField")

        try await conversation.typeIntoA2uiNode("name", in: "booking", text: "Ada")
        let name = try await conversation.awaitA2uiNode("name", in: "booking") { $0.prop("value")?.textValue == "Ada" }
        XCTAssertEqual(name.bindingPath(for: "value"), "/name")

        let result = try await conversation.pressA2uiNode("book", in: "booking")
        guard case .ran = result else { return XCTFail("the action went to the agent: \(result)") }
        try await conversation.awaitIdle()
        XCTAssertEqual(agent.requests.count, 2, "the press sent the action in a request of its own")
        XCTAssertTrue(agent.requests[1].contains("Ada"), "the action's context carries the typed name: \(agent.requests[1])")

        do {
            try await conversation.typeIntoA2uiNode("nowhere", in: "booking", text: "x")
            XCTFail("typing into a missing node throws")
        } catch let error as ConversationWaitError {
            XCTAssertEqual(error, .noNode(surfaceId: "booking", nodeId: "nowhere"))
        }
    }

    @MainActor
    func testAnUnmatchedRequestFailsClearlyAndNeverHangs() async throws {
        let agent = try ScriptedAgent.start(booking)
        let conversation = try AgentRuntime().connect(url: agent.url)
        defer { conversation.close() }
        _ = try? await conversation.send("something else")
        guard case .failed = try await conversation.awaitIdle() else {
            return XCTFail("the run failed: \(conversation.phase)")
        }
        XCTAssertEqual(agent.unmatched.count, 1)
        XCTAssertThrowsError(try agent.assertAllMatched()) { error in
            guard case ScriptedAgentError.unmatched(let requests) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(requests.count, 1)
            XCTAssertTrue(requests[0].contains("something else"), requests[0])
            XCTAssertTrue("\(error)".hasPrefix("1 request(s) had no answer"), "\(error)")
        }
    }

    func testABadScriptIsATypedErrorWithItsPlace() {
        let bad = """
            {"rules": [{"when": {"userSays": "x"},
              "reply": [{"type": "teleport"}]}]}
            """
        XCTAssertThrowsError(try ScriptedAgent.start(json: bad)) { error in
            guard let error = error as? ScriptLoadError else { return XCTFail("not a ScriptLoadError: \(error)") }
            XCTAssertEqual(error.path, "/rules/0/reply/0")
            XCTAssertEqual(error.line, 2)
            XCTAssertGreaterThan(error.column, 0)
        }
        XCTAssertThrowsError(try ScriptedAgent.start(json: "{\"rules\": [")) { error in
            XCTAssertEqual((error as? ScriptLoadError)?.line, 1, "\(error)")
        }
        XCTAssertThrowsError(try ScriptedAgent.replay(directory: "/nonexistent/recording")) { error in
            guard case ScriptedAgentError.recording = error else { return XCTFail("\(error)") }
        }
    }

    func testAStoppedAgentKeepsNoLogAndStopsTwice() throws {
        let agent = try ScriptedAgent.start(booking)
        XCTAssertTrue(agent.url.hasPrefix("http://127.0.0.1:"), agent.url)
        agent.stop()
        agent.stop()
        XCTAssertEqual(agent.requests, [])
    }
}
