package dev.agentui.compose

import dev.agentui.AgentConversation
import dev.agentui.ActionResult
import dev.agentui.NodeValue
import kotlinx.coroutines.Deferred

/**
 * What a rendered surface sends back to the core. [A2uiSurface] builds one over an
 * [AgentConversation]; tests and apps with their own plumbing can pass their own.
 */
public interface SurfaceActions {
    /** Writes user input at JSON Pointer [path] of the surface's data model. Throws on refusal. */
    public fun setValue(path: String, value: NodeValue)

    /**
     * Starts the action of node [nodeId]. It must keep running when the caller's composition
     * goes away (a chat list scrolling the surface out of view must not cancel the run).
     */
    public fun dispatchAction(nodeId: String): Deferred<ActionResult>
}

internal class ConversationSurfaceActions(
    private val conversation: AgentConversation,
    private val surfaceId: String,
) : SurfaceActions {
    override fun setValue(path: String, value: NodeValue) = conversation.setValue(surfaceId, path, value)

    override fun dispatchAction(nodeId: String): Deferred<ActionResult> =
        conversation.dispatchActionAsync(surfaceId, nodeId)
}
