package dev.agentui.sample

import androidx.compose.ui.test.ComposeTimeoutException
import androidx.compose.ui.test.SemanticsMatcher
import androidx.compose.ui.test.assertIsEnabled
import androidx.compose.ui.test.hasTestTag
import androidx.compose.ui.test.hasText
import androidx.compose.ui.test.junit4.createAndroidComposeRule
import androidx.compose.ui.test.onNodeWithTag
import androidx.compose.ui.test.onNodeWithText
import androidx.compose.ui.test.performClick
import androidx.compose.ui.test.performScrollTo
import androidx.compose.ui.test.performTextInput
import androidx.test.ext.junit.runners.AndroidJUnit4
import dev.agentui.compose.a2uiNodeTag
import org.junit.Rule
import org.junit.Test
import org.junit.runner.RunWith

/**
 * The real sample app (MainActivity, SampleViewModel, the AAR's native library through JNA, the
 * Compose renderer on Jetpack Compose) on an emulator, against the demo agent running on the
 * host: `cargo run -p agentui-cli -- serve-demo --port 8765`, which the emulator reaches at
 * 10.0.2.2:8765 (BuildConfig.AGENT_URL; override with -Pagentui.agentUrl=...).
 *
 * Mirrors the host-JVM SampleAppTest (android/host-jvm), which drives the same screens on
 * Compose for Desktop; here nothing is stubbed: the app builds its own runtime, conversation and
 * navigate_to tool exactly as a user launching it would get them.
 */
@RunWith(AndroidJUnit4::class)
class SampleAppInstrumentedTest {
    // A fresh activity (and so a fresh SampleViewModel and conversation) for every test.
    @get:Rule
    val compose = createAndroidComposeRule<MainActivity>()

    @Test
    fun helloStreamsTheAgentsGreeting() {
        send("hello")
        waitFor("the greeting", hasText("Hello! I am the demo agent", substring = true))
        // The last delta too: the whole streamed answer reached the screen, non-ASCII intact.
        waitFor("the end of the greeting", hasText("日本語, emoji 🎉.", substring = true))
    }

    @Test
    fun openSettingsSwitchesTheScreenThroughTheNavigateToTool() {
        send("open settings")
        // The agent calls navigate_to; the app's tool changes the screen on the main thread.
        waitFor("the settings screen", hasTestTag("screen:settings"))
        compose.onNodeWithText("← Back to chat").performClick()
        // The tool reported success only once Settings was composed, and the agent says so.
        waitFor("the agent's confirmation", hasText("Done: the app now shows settings."))
    }

    @Test
    fun theBookingFormBooksATable() {
        send("book a table")
        waitFor("the booking form", hasTestTag(a2uiNodeTag("name")))
        compose.onNodeWithText("Book a table").assertExists()

        compose.onNodeWithTag(a2uiNodeTag("name")).performScrollTo().performTextInput("Grace")
        compose.onNodeWithTag(a2uiNodeTag("date")).performScrollTo().performTextInput("2027-01-02")
        // Book stays disabled until the core's checks pass for both fields.
        waitUntil("the Book button to become enabled") {
            runCatching { compose.onNodeWithTag(a2uiNodeTag("book")).assertIsEnabled() }.isSuccess
        }
        compose.onNodeWithTag(a2uiNodeTag("book")).performScrollTo().performClick()

        // The action went to the agent in a new run; guests kept the form's default of 2.
        waitFor("the booking confirmation", hasText("Booked a table for 2 on 2027-01-02 under the name Grace."))
    }

    private fun send(text: String) {
        compose.onNodeWithTag("composer").performTextInput(text)
        compose.onNodeWithTag("send").performClick()
    }

    private fun waitFor(what: String, matcher: SemanticsMatcher) =
        waitUntil(what) { compose.onAllNodes(matcher).fetchSemanticsNodes().isNotEmpty() }

    private fun waitUntil(what: String, condition: () -> Boolean) {
        try {
            compose.waitUntil(AGENT_WAIT_MS, condition)
        } catch (e: ComposeTimeoutException) {
            throw AssertionError(
                "timed out after $AGENT_WAIT_MS ms waiting for $what. Is the demo agent running on the host " +
                    "(cargo run -p agentui-cli -- serve-demo --port 8765)? The app talks to ${BuildConfig.AGENT_URL}.",
                e,
            )
        }
    }

    private companion object {
        // The demo agent streams with 30 ms between events; an emulator on CI is slow to start
        // the first native call (library load, runtime), so leave room.
        const val AGENT_WAIT_MS = 30_000L
    }
}
