// The Swift builder writes the script format of docs/testing-apps.md, and the core reads it.

import XCTest
import AgentUITesting

final class ScriptBuilderTests: XCTestCase {
    func testTheBuilderWritesTheScriptFormatInTheOrderWritten() throws {
        let script = AgentScript()
            .on(.userSays("hi \"there\"\n"), reply: [.text("Hello.", chunkChars: 2), .delay(milliseconds: 5)])
            .on(.toolResult("get_location"), reply: [
                .toolCall("get_location", arguments: ["precision": "city", "radius": 1.5, "max": 3]),
                .stateDelta(["op": "replace", "path": "/count", "value": 2]),
            ])
        XCTAssertEqual(
            script.json,
            #"{"rules":[{"when":{"userSays":"hi \"there\"\n"},"reply":[{"type":"text","text":"Hello.","chunkChars":2},{"type":"delay","ms":5}]},"#
                + #"{"when":{"toolResult":"get_location"},"reply":[{"type":"toolCall","name":"get_location","arguments":{"precision":"city","radius":1.5,"max":3}},"#
                + #"{"type":"stateDelta","delta":[{"op":"replace","path":"/count","value":2}]}]}]}"#
        )
        // Steps with nothing optional set leave the fields to the core's defaults.
        XCTAssertEqual(
            AgentScript().on(.userMatches("(?i)x"), reply: [.runError("no")]).json,
            #"{"rules":[{"when":{"userMatches":"(?i)x"},"reply":[{"type":"runError","message":"no"}]}]}"#
        )
        try ScriptedAgent.check(script)
    }

    func testEveryStepTheBuilderWritesLoadsInTheCore() throws {
        let script = AgentScript()
            .on(.userSays("all"), reply: [
                .text("a"),
                .serverTool("search", arguments: ["q": "x"], result: ["hits": [1, 2]]),
                .surface(
                    #"{"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "\#(catalog)"}}"#
                ),
                .stateSnapshot(["count": 1, "none": nil, "ok": true]),
                .event(#"{"type": "CUSTOM", "name": "ping", "value": {}}"#),
                .dropStream(resumable: true),
                .interrupt("approve", message: "Sure?", responseSchema: ["type": "boolean"]),
            ])
            .on(.interruptAnswered("approve"), reply: [.httpError(503, body: "busy")])
        XCTAssertNoThrow(try ScriptedAgent.check(script))
    }
}

let catalog = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"
