package dev.agentui.sample.ui

import androidx.compose.runtime.Stable
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.setValue
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.withTimeoutOrNull

/** The sample's screens; their names are what the agent passes to `navigate_to`. */
enum class Screen(val title: String) {
    Chat("Chat"),
    Settings("Settings"),
    Profile("Profile"),
    ;

    companion object {
        fun named(name: String): Screen? = entries.firstOrNull { it.name.equals(name.trim(), ignoreCase = true) }
    }
}

/**
 * Which screen is shown. [navigate] returns only once the destination has actually been
 * composed, so the `navigate_to` tool reports what the user sees, not what was requested.
 */
@Stable
class Navigator(start: Screen = Screen.Chat) {
    var current: Screen by mutableStateOf(start)
        private set

    private var arrival: Pair<Screen, CompletableDeferred<Unit>>? = null

    /** The screen the UI last reported as composed. */
    private var shownScreen: Screen? = null

    /** Shows [screen]; true once it is on screen, false if it did not appear in [timeoutMs]. */
    suspend fun navigate(screen: Screen, timeoutMs: Long = 2_000): Boolean {
        // Already there: nothing will recompose to confirm it again.
        if (current == screen && shownScreen == screen) return true
        val shown = CompletableDeferred<Unit>()
        arrival = screen to shown
        current = screen
        return withTimeoutOrNull(timeoutMs) { shown.await() } != null
    }

    fun back() {
        current = Screen.Chat
    }

    /** Called by a screen when it has been composed. */
    fun arrived(screen: Screen) {
        shownScreen = screen
        val (expected, shown) = arrival ?: return
        if (expected == screen) {
            shown.complete(Unit)
            arrival = null
        }
    }
}
