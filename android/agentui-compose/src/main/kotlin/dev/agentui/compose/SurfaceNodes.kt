package dev.agentui.compose

import androidx.compose.runtime.MutableState
import androidx.compose.runtime.State
import androidx.compose.runtime.Stable
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.referentialEqualityPolicy
import androidx.compose.runtime.setValue
import dev.agentui.Node
import dev.agentui.SurfaceDiff

/**
 * A surface's nodes as one snapshot state per node id, kept current by [apply]: a `Patch`
 * writes only the slots of the nodes it upserts or removes, so it costs O(changed nodes) and
 * invalidates only the composables that read those nodes. Touched on one thread (the UI's).
 */
@Stable
public class SurfaceNodes {
    private val states = HashMap<String, MutableState<Node?>>()

    public var rootId: String? by mutableStateOf(null)
        private set

    /** Diffs applied so far; a test or a UI can wait on it. */
    public var version: Long by mutableStateOf(0L)
        private set

    /** The node with instance id [id] as observable state; null while it is pending. */
    public fun state(id: String): State<Node?> = slot(id)

    /** The node with instance id [id] now, outside composition. */
    public fun node(id: String): Node? = states[id]?.value

    /** How many nodes are present. */
    public val size: Int get() = states.values.count { it.value != null }

    public fun apply(diff: SurfaceDiff) {
        when (diff) {
            is SurfaceDiff.Reset -> {
                val ids = HashSet<String>(diff.nodes.size * 2)
                for (node in diff.nodes) {
                    ids += node.id
                    set(node.id, node)
                }
                // Nodes the reset does not carry become pending; their slots stay so readers see it.
                for ((id, slot) in states) if (slot.value != null && id !in ids) slot.value = null
                rootId = diff.root
            }
            is SurfaceDiff.Patch -> {
                for (id in diff.removed) states[id]?.value = null
                for (node in diff.upserted) set(node.id, node)
            }
        }
        version++
    }

    private fun set(id: String, node: Node) {
        val slot = slot(id)
        val shown = slot.value
        // A re-sent node equal to the shown one (re-resolved to the same result) does not invalidate.
        if (shown !== node && shown != node) slot.value = node
    }

    private fun slot(id: String): MutableState<Node?> =
        states.getOrPut(id) { mutableStateOf(null, referentialEqualityPolicy()) }
}
