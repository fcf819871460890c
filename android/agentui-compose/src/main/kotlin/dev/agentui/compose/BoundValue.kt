package dev.agentui.compose

import androidx.compose.runtime.Composable
import androidx.compose.runtime.LaunchedEffect
import androidx.compose.runtime.Stable
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.remember
import androidx.compose.runtime.setValue
import dev.agentui.core.json.NodeValue

/**
 * The value an input shows, for two-way binding without lost keystrokes.
 *
 * The user's edit shows at once and is written to the core; the core's echo (the re-resolved
 * node) arrives later, possibly after further edits. Echoes are recognised by their **wire
 * value** (docs/rendering.md, "Echo suppression"): a resolved value equal to one this input
 * wrote is not applied (it would roll back what was typed since); any other resolved value is a
 * change from elsewhere (the agent) and replaces what is shown. Comparing display text instead
 * would mistake "1,5" (written as 1.5, echoed as "1.5") for a change. Same rule as the SwiftUI
 * renderer's BoundValue; the cases are in tests/renderer-cases/cases.json.
 */
@Stable
internal class BoundValue<T>(initial: T, initialWire: NodeValue) {
    var value: T by mutableStateOf(initial)
        private set

    private val written = ArrayDeque<NodeValue>()
    private var lastResolved: NodeValue = initialWire

    /** The core sent the node again with [wire] as its value; [shown] is how the input shows it. */
    fun resolved(wire: NodeValue, shown: T) {
        if (wire == lastResolved) return
        lastResolved = wire
        val echo = written.indexOf(wire)
        if (echo >= 0) {
            repeat(echo + 1) { written.removeFirst() }
        } else {
            written.clear()
            value = shown
        }
    }

    /**
     * The user edited the input to [edited]; [wrote] is the value written to the core, null when
     * nothing was written (no binding: the input keeps its value locally; invalid text; or the
     * core refused it), so no echo is expected.
     */
    fun edited(edited: T, wrote: NodeValue?) {
        value = edited
        if (wrote == null) return
        written.addLast(wrote)
        if (written.size > MAX_UNECHOED) written.removeFirst()
    }

    private companion object {
        const val MAX_UNECHOED = 64
    }
}

/**
 * The bound value of [scope]'s `value` prop; [shown] turns a wire value into what the input
 * shows (evaluated for the first value and for each new one the core sends).
 */
@Composable
internal fun <T> rememberBoundValue(scope: NodeScope, shown: (NodeValue) -> T): BoundValue<T> {
    val wire = scope.prop("value") ?: NodeValue.Null
    val bound = remember(scope.node.id) { BoundValue(shown(wire), wire) }
    LaunchedEffect(bound, wire) { bound.resolved(wire, shown(wire)) }
    return bound
}
