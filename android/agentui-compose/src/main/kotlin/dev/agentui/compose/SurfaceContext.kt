package dev.agentui.compose

import androidx.compose.runtime.Composable
import androidx.compose.runtime.CompositionLocalProvider
import androidx.compose.runtime.Stable
import androidx.compose.runtime.key
import androidx.compose.runtime.staticCompositionLocalOf
import androidx.compose.ui.Modifier
import androidx.compose.ui.platform.testTag
import androidx.compose.ui.semantics.LiveRegionMode
import androidx.compose.ui.semantics.clearAndSetSemantics
import androidx.compose.ui.semantics.contentDescription
import androidx.compose.ui.semantics.liveRegion
import androidx.compose.ui.semantics.semantics
import androidx.compose.ui.semantics.stateDescription
import dev.agentui.ActionResult
import dev.agentui.NodeValue
import dev.agentui.Node
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.launch

/** Everything the nodes of one rendered surface share. */
@Stable
internal class SurfaceContext(
    val surfaceId: String,
    val nodes: SurfaceNodes,
    val registry: ComponentRegistry,
    private val actions: SurfaceActions,
    private val scope: CoroutineScope,
    private val openUrl: (String) -> Unit,
    private val onError: (Throwable) -> Unit,
) {
    fun write(path: String, value: NodeValue): Boolean =
        try {
            actions.setValue(path, value)
            true
        } catch (e: Exception) {
            onError(e)
            false
        }

    /** A media URL (already policy-checked) the user tapped to play. */
    fun openMedia(url: String) = openUrl(url)

    fun dispatch(nodeId: String) {
        val pending = actions.dispatchAction(nodeId)
        scope.launch {
            try {
                when (val result = pending.await()) {
                    // Already checked against the core's URL policy; this tap is the gesture.
                    is ActionResult.OpenUrl -> openUrl(result.url)
                    is ActionResult.Ran, is ActionResult.Handled -> Unit
                }
            } catch (e: CancellationException) {
                throw e
            } catch (e: Exception) {
                onError(e)
            }
        }
    }
}

internal val LocalSurfaceContext = staticCompositionLocalOf<SurfaceContext?> { null }

/** Set by Row and Column for their direct children: turns a node's `weight` into a modifier. */
internal val LocalChildWeight = staticCompositionLocalOf<((Float) -> Modifier)?> { null }

/** The test tag of node [instanceId]; app UI tests can find nodes with it. */
public fun a2uiNodeTag(instanceId: String): String = "a2ui:$instanceId"

/** Renders node [id] of the current surface; nothing while it is pending. */
@Composable
internal fun RenderNode(id: String, modifier: Modifier = Modifier) {
    val context = LocalSurfaceContext.current ?: return
    // The only read of this node's state: a diff that changes it recomposes from here.
    val node = context.nodes.state(id).value ?: return
    val renderer = context.registry[node.componentType] ?: UnsupportedComponent
    val weight = node.weight?.toFloat()?.takeIf { it > 0f }
    val weighted = LocalChildWeight.current
    val nodeModifier = modifier
        .then(if (weight != null && weighted != null) weighted(weight) else Modifier)
        .testTag(a2uiNodeTag(node.id))
        .accessibility(node)
    CompositionLocalProvider(LocalChildWeight provides null) {
        // A new type under the same id is a new widget, not a recomposed one.
        key(node.componentType) { renderer(NodeScope(node, context), nodeModifier) }
    }
}

private fun Modifier.accessibility(node: Node): Modifier {
    val accessibility = node.accessibility ?: return this
    // A2UI v1.0 `hidden`: the node and its children leave the accessibility tree.
    if (accessibility.hidden == true) return clearAndSetSemantics { }
    val label = accessibility.label
    val description = accessibility.description
    val live = liveRegionMode(accessibility.live, accessibility.hidden)
    if (label == null && description == null && live == null) return this
    return semantics {
        if (label != null) contentDescription = label
        if (description != null) stateDescription = description
        if (live != null) liveRegion = live
    }
}

/**
 * v1.0 `live` as a live region: changes are announced when the user pauses (polite) or at once
 * (assertive); none for `off`, no value or another value, nor for a hidden node (its semantics
 * are cleared). tests/renderer-cases/cases.json `live` holds the cases (`region`) the SwiftUI
 * renderer's LivePoliteness asserts too.
 */
internal fun liveRegionMode(live: String?, hidden: Boolean?): LiveRegionMode? = when {
    hidden == true -> null
    live == "polite" -> LiveRegionMode.Polite
    live == "assertive" -> LiveRegionMode.Assertive
    else -> null
}
