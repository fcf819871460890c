package dev.agentui

import dev.agentui.core.A2uiFunctionException
import dev.agentui.core.A2uiFunctionHandler
import dev.agentui.core.json.NodeValue
import dev.agentui.core.json.PropEntry

/**
 * The app's implementation of a function its catalog declares: the call's evaluated arguments
 * in (as [toKotlin] gives them: null, Boolean, Double, String, List or Map; an argument whose
 * data has not arrived yet is null), the value out (anything [nodeValueOf] takes). It runs while
 * a surface resolves, each time a value it reads changes, on the thread that resolves it: a
 * runtime thread while the agent streams, or the thread that called [AgentConversation.setValue]
 * or `dispatchAction` (the main thread when the UI calls them). Keep it quick and pure, and off
 * the main thread's state. It runs while the conversation's surfaces are locked: a call back
 * into the conversation from it (`setValue`, an action) is refused with
 * `SurfaceException.Reentrant` / `ConversationException.Reentrant` instead of waiting.
 *
 * Throw [CatalogFunctionFailure] for a failure an agent's `callRendererFunction` may read as
 * is; any other exception fails the call too, with a generic text. A failed call's property
 * is null.
 */
public typealias CatalogFunction = (args: Map<String, Any?>) -> Any?

/** Function [name] of the catalog [catalogId]. */
public data class CatalogFunctionId(val catalogId: String, val name: String)

/** A catalog function's failure whose [message] the agent reads. */
public class CatalogFunctionFailure(message: String) : Exception(message)

/** Runs the app's [functions] for the native engine, by catalog id and name. */
/** The core's handler running [functions]; a private class, so the core's interface stays out of the API. */
internal fun catalogFunctionHandler(functions: Map<CatalogFunctionId, CatalogFunction>): A2uiFunctionHandler =
    CatalogFunctionsAdapter(functions)

private class CatalogFunctionsAdapter(
    private val functions: Map<CatalogFunctionId, CatalogFunction>,
) : A2uiFunctionHandler {
    override fun call(catalogId: String, name: String, args: List<PropEntry>): NodeValue {
        val function = functions[CatalogFunctionId(catalogId, name)]
            ?: throw A2uiFunctionException.Failed("no function $name for catalog $catalogId")
        return try {
            nodeValueOf(function(args.associate { it.name to it.value.toKotlin() }))
        } catch (e: CatalogFunctionFailure) {
            throw A2uiFunctionException.Failed(e.message ?: "the function failed")
        } catch (e: A2uiFunctionException) {
            throw e
        } catch (e: Exception) {
            throw A2uiFunctionException.Unexpected(e.toString())
        }
    }
}
