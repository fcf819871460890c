package dev.agentui

import dev.agentui.core.ClientToolHandler
import dev.agentui.core.ToolHandlerException
import dev.agentui.core.TypedClientToolHandler
import dev.agentui.core.TypedToolResult
import dev.agentui.core.json.NodeValue
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
public typealias ClientTool = suspend (argumentsJson: String) -> String

/**
 * A client tool taking and returning values: the call's arguments (validated against the tool's
 * parameter schema) as a map of plain Kotlin values, and a result of plain values (see
 * [nodeValueOf]; a String is read as text, anything else as JSON). Otherwise as [ClientTool].
 */
public typealias TypedClientTool = suspend (arguments: Map<String, Any?>) -> Any?

/** A tool failure whose [message] goes back to the agent in the error result. */
public class ClientToolFailure(message: String) : Exception(message)

/** Adapts a [ClientTool] lambda to the foreign trait the native registry calls. */
// The core's handlers calling the app's tools; private classes, so the core's interfaces stay out of the API.
internal fun nativeTool(tool: ClientTool): ClientToolHandler = ClientToolAdapter(tool)

internal fun nativeTypedTool(tool: TypedClientTool): TypedClientToolHandler = TypedClientToolAdapter(tool)

private class ClientToolAdapter(private val tool: ClientTool) : ClientToolHandler {
    override suspend fun call(toolCallId: String, argumentsJson: String): String =
        failuresAsToolErrors { tool(argumentsJson) }
}

/** Adapts a [TypedClientTool] lambda to the foreign trait the native registry calls. */
private class TypedClientToolAdapter(private val tool: TypedClientTool) : TypedClientToolHandler {
    override suspend fun call(toolCallId: String, arguments: NodeValue): TypedToolResult = failuresAsToolErrors {
        // The core sends the object the agent produced; the schema may let another kind through.
        val members = (arguments as? NodeValue.Object)?.entries?.associate { it.name to it.value.toKotlin() }
            ?: throw ToolHandlerException.Failed("the tool's arguments are not a JSON object")
        TypedToolResult(nodeValueOf(tool(members)))
    }
}

/** [block]'s result, its failures as the trait's errors: [ClientToolFailure] as is, others generic. */
private inline fun <T> failuresAsToolErrors(block: () -> T): T =
    try {
        block()
    } catch (e: CancellationException) {
        throw e
    } catch (e: ClientToolFailure) {
        throw ToolHandlerException.Failed(e.message ?: "the tool failed")
    } catch (e: ToolHandlerException) {
        throw e
    } catch (e: Exception) {
        throw ToolHandlerException.Unexpected(e.toString())
    }
