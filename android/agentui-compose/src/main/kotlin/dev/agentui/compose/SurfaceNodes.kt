package dev.agentui.compose

import androidx.compose.runtime.MutableState
import androidx.compose.runtime.State
import androidx.compose.runtime.Stable
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.referentialEqualityPolicy
import androidx.compose.runtime.setValue
import dev.agentui.SurfaceState
import dev.agentui.core.ResolvedNodeRecord

/**
 * A surface's nodes as one snapshot state per node id, so that a diff which changes node `n`
 * invalidates only the composables that read `n`.
 *
 * The Kotlin layer keeps the same record instance for a node no diff touched, so [update] is
 * mostly O(nodes) reference checks; a re-sent record that is equal to the shown one (a node the
 * core re-resolved to the same result) does not invalidate either. Touched only on the UI thread.
 */
@Stable
class SurfaceNodes {
    private val states = HashMap<String, MutableState<ResolvedNodeRecord?>>()

    var rootId: String? by mutableStateOf(null)
        private set

    /** Whether the surface exists (false once deleted, or before it was created). */
    var present: Boolean by mutableStateOf(false)
        private set

    /** The node with instance id [id] as observable state; null while it is pending. */
    fun state(id: String): State<ResolvedNodeRecord?> = slot(id)

    /** Applies the surface's latest published state; null means it is gone. */
    fun update(surface: SurfaceState?) {
        present = surface != null
        val nodes = surface?.nodes.orEmpty()
        for ((id, record) in nodes) {
            val slot = slot(id)
            val shown = slot.value
            if (shown !== record && shown != record) slot.value = record
        }
        // Removed nodes become pending again; their slots stay so readers see the change.
        for ((id, slot) in states) {
            if (slot.value != null && id !in nodes) slot.value = null
        }
        rootId = surface?.rootId
    }

    private fun slot(id: String): MutableState<ResolvedNodeRecord?> =
        states.getOrPut(id) { mutableStateOf(null, referentialEqualityPolicy()) }
}
