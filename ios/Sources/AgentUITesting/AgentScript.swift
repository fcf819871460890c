// A script for a ScriptedAgent, built as a Swift value; `json` is the script format of
// docs/testing-apps.md (the same JSON the Kotlin builder writes), checked by the core when the
// agent starts.
//
//     let script = AgentScript()
//         .on(.userSays("book a table"), reply: [
//             .text("Here is the form."),
//             .surface(createSurface, updateComponents),
//         ])
//         .on(.toolResult("get_location"), reply: [.text("You are in Lisbon.")])

public struct AgentScript: Equatable, Sendable {
    private var rules: [ScriptJSON] = []

    public init() {}

    /// A rule, tried after the ones before it: when `matcher` fits, the agent answers with `reply`.
    public func on(_ matcher: Matcher, reply: [ReplyStep]) -> AgentScript {
        var script = self
        script.rules.append(["when": matcher.json, "reply": .array(reply.map(\.json))])
        return script
    }

    /// The script's JSON text.
    public var json: String { ScriptJSON.object([("rules", .array(rules))]).text }
}

/// Which requests a rule answers: the first rule whose matcher fits the request answers it.
public struct Matcher: Equatable, Sendable {
    let json: ScriptJSON

    /// The latest user message is exactly `text` (surrounding white space ignored).
    public static func userSays(_ text: String) -> Matcher { Matcher(json: ["userSays": .string(text)]) }

    /// The latest user message matches `pattern` (Rust `regex` syntax, found anywhere).
    public static func userMatches(_ pattern: String) -> Matcher { Matcher(json: ["userMatches": .string(pattern)]) }

    /// The request carries the app's result for a call of `tool`.
    public static func toolResult(_ tool: String) -> Matcher { Matcher(json: ["toolResult": .string(tool)]) }

    /// The request answers an interrupt this script raised with `reason`.
    public static func interruptAnswered(_ reason: String) -> Matcher {
        Matcher(json: ["interruptAnswered": .string(reason)])
    }
}

/// One step of a reply; the steps of a reply go out in order.
public struct ReplyStep: Equatable, Sendable {
    let json: ScriptJSON

    /// A step of `type` with the fields that are set (nil ones left to the core's defaults).
    private static func step(_ type: String, _ fields: [(String, ScriptJSON?)] = []) -> ReplyStep {
        ReplyStep(json: .object([("type", .string(type))] + fields.compactMap { key, value in value.map { (key, $0) } }))
    }

    /// An assistant message streamed in chunks of `chunkChars` characters.
    public static func text(_ text: String, chunkChars: Int? = nil) -> ReplyStep {
        step("text", [("text", .string(text)), ("chunkChars", chunkChars.map(ScriptJSON.int))])
    }

    /// A call of the app's tool; the run ends, and the app's result finds the `.toolResult` rule.
    public static func toolCall(_ name: String, arguments: ScriptJSON = [:]) -> ReplyStep {
        step("toolCall", [("name", .string(name)), ("arguments", arguments)])
    }

    /// A tool the agent runs itself: its call, then `result`.
    public static func serverTool(_ name: String, arguments: ScriptJSON = [:], result: ScriptJSON) -> ReplyStep {
        step("serverTool", [("name", .string(name)), ("arguments", arguments), ("result", result)])
    }

    /// An A2UI surface: its messages (JSON text, any supported version) in one activity.
    public static func surface(_ messages: String...) -> ReplyStep {
        step("surface", [("messages", .array(messages.map(ScriptJSON.raw)))])
    }

    public static func stateSnapshot(_ snapshot: ScriptJSON) -> ReplyStep {
        step("stateSnapshot", [("snapshot", snapshot)])
    }

    /// RFC 6902 operations, e.g. `["op": "replace", "path": "/count", "value": 2]`.
    public static func stateDelta(_ operations: ScriptJSON...) -> ReplyStep {
        step("stateDelta", [("delta", .array(operations))])
    }

    /// The run ends waiting for the user; the answer finds the `.interruptAnswered` rule.
    public static func interrupt(_ reason: String, message: String? = nil, responseSchema: ScriptJSON? = nil) -> ReplyStep {
        step("interrupt", [("reason", .string(reason)), ("message", message.map(ScriptJSON.string)), ("responseSchema", responseSchema)])
    }

    public static func runError(_ message: String, code: String? = nil) -> ReplyStep {
        step("runError", [("message", .string(message)), ("code", code.map(ScriptJSON.string))])
    }

    /// The request is answered with `status` instead of a stream (the only step of its reply).
    public static func httpError(_ status: Int, body: String = "") -> ReplyStep {
        step("httpError", [("status", .int(status)), ("body", .string(body))])
    }

    /// The connection breaks here; when `resumable`, the client's resumption gets the rest.
    public static func dropStream(resumable: Bool = false) -> ReplyStep {
        step("dropStream", [("resumable", .bool(resumable))])
    }

    public static func delay(milliseconds: Int) -> ReplyStep { step("delay", [("ms", .int(milliseconds))]) }

    /// Any AG-UI event, as JSON text.
    public static func event(_ eventJson: String) -> ReplyStep { step("event", [("event", .raw(eventJson))]) }
}
