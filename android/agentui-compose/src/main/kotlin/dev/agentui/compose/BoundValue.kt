package dev.agentui.compose

import androidx.compose.runtime.Composable
import androidx.compose.runtime.LaunchedEffect
import androidx.compose.runtime.Stable
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.remember
import androidx.compose.runtime.setValue

/**
 * The value an input shows, for two-way binding without lost keystrokes.
 *
 * The user's edit shows at once and is written to the core; the core's echo (the re-resolved
 * node) arrives later, possibly after further edits. An echo of a value we wrote is not
 * applied (it would roll back what was typed since); any other resolved value is a change from
 * elsewhere (the agent) and replaces what is shown.
 */
@Stable
internal class BoundValue<T>(initial: T) {
    var value: T by mutableStateOf(initial)
        private set

    private val written = ArrayDeque<T>()
    private var lastResolved: T = initial

    fun resolved(resolved: T) {
        if (resolved == lastResolved) return
        lastResolved = resolved
        val echo = written.indexOf(resolved)
        if (echo >= 0) {
            repeat(echo + 1) { written.removeFirst() }
        } else {
            written.clear()
            value = resolved
        }
    }

    /**
     * Shows [edited] and writes it; [write] returns false when nothing was written. [echo] is
     * how the core will show the written value back when that differs from the text typed (the
     * number 1.0 typed as "1." comes back as "1"), so the echo does not replace the typing.
     */
    fun edit(edited: T, echo: T = edited, write: (T) -> Boolean) {
        value = edited
        if (write(edited)) {
            written.addLast(echo)
            if (written.size > MAX_UNECHOED) written.removeFirst()
        }
    }

    private companion object {
        const val MAX_UNECHOED = 64
    }
}

@Composable
internal fun <T> rememberBoundValue(scope: NodeScope, resolved: T): BoundValue<T> {
    val bound = remember(scope.node.id) { BoundValue(resolved) }
    LaunchedEffect(bound, resolved) { bound.resolved(resolved) }
    return bound
}
