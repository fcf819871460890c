package dev.agentui.compose

import androidx.compose.runtime.Composable
import androidx.compose.ui.Modifier
import dev.agentui.core.a2ui.ActionKind
import dev.agentui.core.json.NodeValue
import dev.agentui.Node
import dev.agentui.bindingPath
import dev.agentui.nodeValueOf
import dev.agentui.prop

/**
 * One node as a component renderer sees it: the resolved record, typed prop readers, its
 * children, and the two ways back to the core ([write] and [activate]).
 */
public class NodeScope internal constructor(
    public val node: Node,
    private val surface: SurfaceContext,
) {
    public val surfaceId: String get() = surface.surfaceId

    /** False when a check failed on an actionable component: render it disabled. */
    public val enabled: Boolean get() = node.enabled

    /** The first failing check's message, for inputs to show. */
    public val validationMessage: String? get() = node.validationMessage

    /**
     * The first failing check as an input shows it: its message, and whether it is an error. A
     * node that carries only a validation message (no check results) shows it as an error.
     */
    public val checkShown: CheckShown? get() = checkShown(node.checks) ?: node.validationMessage?.let { CheckShown(it, isError = true) }

    public fun prop(name: String): NodeValue? = node.prop(name)

    /** A prop as text: text as is, numbers without a trailing `.0`, booleans as true/false. */
    public fun text(name: String): String? = prop(name)?.displayText()

    public fun number(name: String): Double? = prop(name)?.asNumber()

    public fun bool(name: String): Boolean? = prop(name)?.asBool()

    public fun list(name: String): List<NodeValue> = (prop(name) as? NodeValue.Array)?.items.orEmpty()

    /** Renders the child with instance id [id]; nothing while it is pending. */
    @Composable
    public fun Child(id: String, modifier: Modifier = Modifier): Unit = RenderNode(id, modifier)

    /** Instance ids of the children, in order (pending ones included: they render nothing). */
    public val children: List<String> get() = node.children

    /**
     * The instance id a single-child reference [name] points at. The core does not repeat
     * `child` in the props (it is the first of [children]); Modal's `trigger`/`content` are props.
     */
    public fun childId(name: String = "child"): String? = if (name == "child") children.firstOrNull() else text(name)

    /** The data model path [property] is bound to, or null for a literal value. */
    public fun bindingPath(property: String = "value"): String? = node.bindingPath(property)

    /**
     * Writes [value] (see [nodeValueOf]) through the binding of [property]. Returns false when
     * the property is not bound (a literal: the input keeps the value locally) or the core
     * refused the write (reported through the surface's error handler).
     */
    public fun write(value: Any?, property: String = "value"): Boolean {
        val path = bindingPath(property) ?: return false
        return surface.write(path, nodeValueOf(value))
    }

    /** Whether this node has an action for [activate] to send. */
    public val isActionable: Boolean get() = node.action != null

    /**
     * The user activated this node (a tap): sends its action to the core, which runs it (an
     * event goes to the agent; `openUrl` comes back as a URL the app opens now, on this gesture).
     */
    public fun activate() {
        if (node.action != null) surface.dispatch(node.id)
    }

    /** The name of this node's action, for labels and logs. */
    public val actionName: String?
        get() = when (val action = node.action) {
            is ActionKind.Event -> action.name
            is ActionKind.FunctionCall -> action.name
            null -> null
        }
}

internal fun NodeValue.asNumber(): Double? = when (this) {
    is NodeValue.Number -> value
    is NodeValue.Text -> value.toDoubleOrNull()
    else -> null
}

internal fun NodeValue.asBool(): Boolean? = when (this) {
    is NodeValue.Bool -> value
    is NodeValue.Text -> value.toBooleanStrictOrNull()
    else -> null
}

/** Text for display: numbers as [formatNumber] writes them. */
internal fun NodeValue.displayText(): String? = when (this) {
    is NodeValue.Text -> value
    is NodeValue.Number -> formatNumber(value)
    is NodeValue.Bool -> value.toString()
    is NodeValue.Null -> null
    is NodeValue.Array, is NodeValue.Object -> null
}
