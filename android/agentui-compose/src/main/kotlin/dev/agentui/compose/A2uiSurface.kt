package dev.agentui.compose

import androidx.compose.foundation.layout.Column
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.runtime.LaunchedEffect
import androidx.compose.runtime.collectAsState
import androidx.compose.runtime.CompositionLocalProvider
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.remember
import androidx.compose.runtime.rememberCoroutineScope
import androidx.compose.runtime.rememberUpdatedState
import androidx.compose.runtime.setValue
import androidx.compose.ui.Modifier
import androidx.compose.ui.platform.LocalUriHandler
import androidx.compose.ui.platform.testTag
import dev.agentui.AgentConversation
import dev.agentui.SurfaceDiff
import dev.agentui.core.SurfaceException

/**
 * Renders A2UI surface [surfaceId] of [conversation] from the core's resolved nodes.
 *
 * Each node is its own snapshot state, so a diff recomposes only the nodes it changed. Inputs
 * write through `setValue`; a tap on an actionable node dispatches its action, which keeps
 * running if this composable leaves the screen. An `openUrl` result is handed to [onOpenUrl]
 * (default: the platform's [LocalUriHandler]) on that tap, never otherwise.
 *
 * @param components the component renderers; replace or add types with [ComponentRegistry.with].
 * @param onError refused writes and failed actions; by default the last one is shown under the
 *   surface, so nothing fails silently.
 */
@Composable
public fun A2uiSurface(
    conversation: AgentConversation,
    surfaceId: String,
    modifier: Modifier = Modifier,
    components: ComponentRegistry = ComponentRegistry.basic(),
    onOpenUrl: ((String) -> Unit)? = null,
    onError: ((Throwable) -> Unit)? = null,
) {
    val actions = remember(conversation, surfaceId) { ConversationSurfaceActions(conversation, surfaceId) }
    val nodes = remember(conversation, surfaceId) { SurfaceNodes() }
    val present = conversation.surfaces.collectAsState().value.any { it.id == surfaceId }
    // One subscription per rendered surface while it exists: a Reset, then Patches applied on
    // this coroutine (the composition's thread). A surface that is gone renders nothing; one
    // the agent creates (again) later is followed from its new Reset.
    LaunchedEffect(nodes, present) {
        if (!present) {
            nodes.apply(SurfaceDiff.Reset(null, emptyList()))
            return@LaunchedEffect
        }
        try {
            conversation.surfaceDiffs(surfaceId).collect(nodes::apply)
        } catch (e: SurfaceException.UnknownSurface) {
            nodes.apply(SurfaceDiff.Reset(null, emptyList()))
        }
    }
    A2uiSurface(surfaceId, nodes, actions, modifier, components, onOpenUrl, onError)
}

/** Renders [nodes] (kept current by the caller with [SurfaceNodes.apply]) with [actions]. */
@Composable
public fun A2uiSurface(
    surfaceId: String,
    nodes: SurfaceNodes,
    actions: SurfaceActions,
    modifier: Modifier = Modifier,
    components: ComponentRegistry = ComponentRegistry.basic(),
    onOpenUrl: ((String) -> Unit)? = null,
    onError: ((Throwable) -> Unit)? = null,
) {
    val uriHandler = LocalUriHandler.current
    var lastError by remember(surfaceId) { mutableStateOf<String?>(null) }
    val currentOpenUrl by rememberUpdatedState(onOpenUrl ?: { url: String -> uriHandler.openUri(url) })
    val currentOnError by rememberUpdatedState(onError ?: { e: Throwable -> lastError = describeError(e) })
    val scope = rememberCoroutineScope()
    // Stable for the life of the surface: a new context would recompose every node.
    val context = remember(surfaceId, nodes, actions, components, scope) {
        SurfaceContext(
            surfaceId = surfaceId,
            nodes = nodes,
            registry = components,
            actions = actions,
            scope = scope,
            openUrl = { url -> currentOpenUrl(url) },
            onError = { error -> currentOnError(error) },
        )
    }
    CompositionLocalProvider(LocalSurfaceContext provides context) {
        Column(modifier.testTag("a2ui-surface:$surfaceId")) {
            SurfaceRoot(nodes)
            lastError?.let { message ->
                Text(message, color = MaterialTheme.colorScheme.error, style = MaterialTheme.typography.bodySmall)
            }
        }
    }
}

@Composable
private fun SurfaceRoot(nodes: SurfaceNodes) {
    // Reads only the root id: node changes recompose their own nodes, not this.
    val root = nodes.rootId ?: return
    RenderNode(root)
}

/** A short text for a refused write or a failed action, for the default error line. */
public fun describeError(error: Throwable): String = error.message?.takeIf { it.isNotBlank() } ?: error.javaClass.simpleName
