package dev.agentui.testing

/**
 * A script for a [ScriptedAgent], built in Kotlin; [json] is the script format of
 * docs/testing-apps.md, checked by the core when the agent starts.
 *
 * ```
 * val script = scriptedAgent {
 *     on(userSays("book a table")) {
 *         text("Here is the form.")
 *         surface(createSurface, updateComponents)
 *     }
 *     on(toolResult("get_location")) { text("You are in Lisbon.") }
 * }
 * ```
 */
public class AgentScript internal constructor(public val json: String)

/** What a rule answers: the first rule whose matcher fits the request answers it. */
public class Matcher internal constructor(internal val json: Map<String, Any?>)

/** The latest user message is exactly [text] (surrounding white space ignored). */
public fun userSays(text: String): Matcher = Matcher(mapOf("userSays" to text))

/** The latest user message matches [pattern] (Rust `regex` syntax, found anywhere). */
public fun userMatches(pattern: String): Matcher = Matcher(mapOf("userMatches" to pattern))

/** The request carries the app's result for a call of [tool]. */
public fun toolResult(tool: String): Matcher = Matcher(mapOf("toolResult" to tool))

/** The request answers an interrupt this script raised with [reason]. */
public fun interruptAnswered(reason: String): Matcher = Matcher(mapOf("interruptAnswered" to reason))

@DslMarker
public annotation class ScriptDsl

/** Builds a script: one [on] per rule, in the order they are tried. */
public fun scriptedAgent(build: ScriptBuilder.() -> Unit): AgentScript {
    val builder = ScriptBuilder().apply(build)
    return AgentScript(jsonOf(mapOf("rules" to builder.rules)))
}

@ScriptDsl
public class ScriptBuilder internal constructor() {
    internal val rules = mutableListOf<Map<String, Any?>>()

    /** A rule: when [matcher] fits, the agent answers with the steps [reply] adds. */
    public fun on(matcher: Matcher, reply: ReplyBuilder.() -> Unit) {
        rules += mapOf("when" to matcher.json, "reply" to ReplyBuilder().apply(reply).steps)
    }
}

/** The steps of one reply, in order. */
@ScriptDsl
public class ReplyBuilder internal constructor() {
    internal val steps = mutableListOf<Map<String, Any?>>()

    private fun step(type: String, vararg fields: Pair<String, Any?>) {
        steps += linkedMapOf<String, Any?>("type" to type).apply { fields.filter { it.second != null }.forEach { put(it.first, it.second) } }
    }

    /** An assistant message streamed in chunks of [chunkChars] characters. */
    public fun text(text: String, chunkChars: Int? = null): Unit = step("text", "text" to text, "chunkChars" to chunkChars)

    /** A call of the app's tool; the run ends, and the app's result finds the [toolResult] rule. */
    public fun toolCall(name: String, arguments: Map<String, Any?> = emptyMap()): Unit =
        step("toolCall", "name" to name, "arguments" to arguments)

    /** A tool the agent runs itself: its call, then [result]. */
    public fun serverTool(name: String, arguments: Map<String, Any?> = emptyMap(), result: Any?): Unit =
        step("serverTool", "name" to name, "arguments" to arguments, "result" to result)

    /** An A2UI surface: its messages (JSON text, any supported version) in one activity. */
    public fun surface(vararg messages: String): Unit = step("surface", "messages" to messages.map(::RawJson))

    public fun stateSnapshot(snapshot: Any?): Unit = step("stateSnapshot", "snapshot" to snapshot)

    /** RFC 6902 operations, e.g. `mapOf("op" to "replace", "path" to "/count", "value" to 2)`. */
    public fun stateDelta(vararg operations: Map<String, Any?>): Unit = step("stateDelta", "delta" to operations.toList())

    /** The run ends waiting for the user; the answer finds the [interruptAnswered] rule. */
    public fun interrupt(reason: String, message: String? = null, responseSchema: Map<String, Any?>? = null): Unit =
        step("interrupt", "reason" to reason, "message" to message, "responseSchema" to responseSchema)

    public fun runError(message: String, code: String? = null): Unit = step("runError", "message" to message, "code" to code)

    /** The request is answered with [status] instead of a stream (the only step of its reply). */
    public fun httpError(status: Int, body: String = ""): Unit = step("httpError", "status" to status, "body" to body)

    /** The connection breaks here; when [resumable], the client's resumption gets the rest. */
    public fun dropStream(resumable: Boolean = false): Unit = step("dropStream", "resumable" to resumable)

    public fun delay(millis: Long): Unit = step("delay", "ms" to millis)

    /** Any AG-UI event, as JSON text. */
    public fun event(eventJson: String): Unit = step("event", "event" to RawJson(eventJson))
}
