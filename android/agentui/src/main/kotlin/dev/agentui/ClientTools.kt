package dev.agentui

import dev.agentui.core.ClientToolHandler
import dev.agentui.core.ToolHandlerException
import kotlin.coroutines.cancellation.CancellationException

/**
 * A client tool: receives the call's arguments (JSON text, already validated against the tool's
 * parameter schema) and returns the result text the agent reads. It runs on a background
 * coroutine (the bindings launch it on `Dispatchers.Default`); switch with `withContext` for
 * work that needs the main thread. Cancelling the run cancels this coroutine.
 *
 * Throw [ClientToolFailure] for a failure the agent should read as is. Any other exception also
 * fails the call, but the agent reads only a generic text (exception messages may hold app
 * internals); nothing is ever swallowed as success.
 */
typealias ClientTool = suspend (argumentsJson: String) -> String

/** A tool failure whose [message] goes back to the agent in the error result. */
class ClientToolFailure(message: String) : Exception(message)

/** Adapts a [ClientTool] lambda to the foreign trait the native registry calls. */
internal class ClientToolAdapter(private val tool: ClientTool) : ClientToolHandler {
    override suspend fun call(toolCallId: String, argumentsJson: String): String =
        try {
            tool(argumentsJson)
        } catch (e: CancellationException) {
            throw e
        } catch (e: ClientToolFailure) {
            throw ToolHandlerException.Failed(e.message ?: "the tool failed")
        } catch (e: ToolHandlerException) {
            throw e
        } catch (e: Exception) {
            throw ToolHandlerException.Unexpected(e.toString())
        }
}
