package dev.agentui.testing

import dev.agentui.testing.core.KitException
import dev.agentui.testing.core.KitServer
import dev.agentui.testing.core.startRecordingServer
import dev.agentui.testing.core.startScriptedAgent

/**
 * An AG-UI agent on 127.0.0.1 for a test: a script ([start]) or a recording made with
 * `agentui run --record` ([replay]). The server is the core's (the kit's own native library,
 * `agentui_testing`), so Kotlin and Swift tests get the same behaviour. Close it when done.
 */
public class ScriptedAgent private constructor(private val server: KitServer) : AutoCloseable {
    /** The endpoint to connect the app's conversation to. */
    public val url: String = server.url()

    /** Every request the agent received (`RunAgentInput` JSON), in order. */
    public val requests: List<String> get() = server.requests()

    /** The requests the agent could not answer, each with why and the request. */
    public val unmatched: List<String> get() = server.unmatched()

    /** Fails with every request the agent could not answer. */
    public fun assertAllMatched() {
        val left = unmatched
        if (left.isNotEmpty()) throw AssertionError("${left.size} request(s) had no answer:\n" + left.joinToString("\n---\n"))
    }

    override fun close(): Unit = server.stop()

    public companion object {
        /** Serves [script] (port 0: a free one). A script that does not load throws [ScriptException]. */
        public fun start(script: AgentScript, port: Int = 0): ScriptedAgent = wrap { startScriptedAgent(script.json, port.toUShort()) }

        /** Serves a script written as JSON text (a file shared with Swift tests). */
        public fun start(scriptJson: String, port: Int = 0): ScriptedAgent = wrap { startScriptedAgent(scriptJson, port.toUShort()) }

        /** Serves the recording in [dir]: the N-th request gets the N-th recorded answer. */
        public fun replay(dir: String, port: Int = 0): ScriptedAgent = wrap { startRecordingServer(dir, port.toUShort()) }

        private fun wrap(start: () -> KitServer): ScriptedAgent = try {
            ScriptedAgent(start())
        } catch (e: KitException.Script) {
            throw ScriptException(e.detail, e.path, e.line.toInt(), e.column.toInt())
        } catch (e: KitException.Recording) {
            throw IllegalStateException(e.detail, e)
        } catch (e: KitException.Server) {
            throw IllegalStateException(e.detail, e)
        }
    }
}

/** A script that does not load: [path] is a JSON pointer into it; [line], [column] 0 when unknown. */
public class ScriptException(message: String, public val path: String, public val line: Int, public val column: Int) :
    IllegalArgumentException(message)
