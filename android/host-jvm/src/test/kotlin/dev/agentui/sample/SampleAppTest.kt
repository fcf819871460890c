package dev.agentui.sample

import androidx.compose.material3.MaterialTheme
import androidx.compose.runtime.rememberCoroutineScope
import androidx.compose.ui.test.ExperimentalTestApi
import androidx.compose.ui.test.onAllNodesWithTag
import androidx.compose.ui.test.onAllNodesWithText
import androidx.compose.ui.test.assertIsNotEnabled
import androidx.compose.ui.test.onNodeWithTag
import androidx.compose.ui.test.onNodeWithText
import androidx.compose.ui.test.performClick
import androidx.compose.ui.test.performTextInput
import androidx.compose.ui.test.runComposeUiTest
import dev.agentui.Attachment
import dev.agentui.Fixtures
import dev.agentui.Role
import dev.agentui.MainThreadExtension
import dev.agentui.WAIT_MS
import dev.agentui.assistantTexts
import dev.agentui.compose.a2uiNodeTag
import dev.agentui.ToolCallPhase
import androidx.compose.ui.test.assertIsEnabled
import dev.agentui.sample.ui.NavigationTool
import dev.agentui.sample.ui.Navigator
import dev.agentui.sample.ui.PhotoPicker
import dev.agentui.sample.ui.SampleConversation
import dev.agentui.sample.ui.SampleApp
import dev.agentui.sample.ui.Screen
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.Timeout
import java.util.concurrent.TimeUnit
import kotlin.coroutines.ContinuationInterceptor
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertTrue

/** The sample app's screens (the same sources the Android app compiles) against the demo agent. */
@OptIn(ExperimentalTestApi::class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SampleAppTest {
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    @Test
    fun `the agent's navigate_to call really changes the screen and the agent hears it succeeded`() = runComposeUiTest {
        val conversation = Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher)
        conversation.use {
            val navigator = Navigator()
            setContent {
                val ui = rememberCoroutineScope().coroutineContext[ContinuationInterceptor]!!
                androidx.compose.runtime.LaunchedEffect(Unit) { NavigationTool.install(conversation, navigator, ui) }
                MaterialTheme { SampleApp(conversation, navigator) }
            }
            waitForIdle()
            onNodeWithTag("composer").performTextInput("open settings")
            onNodeWithTag("send").performClick()

            waitUntil(timeoutMillis = WAIT_MS) {
                conversation.messages.value.assistantTexts().contains("Done: the app now shows settings.")
            }
            onNodeWithTag("screen:settings").assertExists()
            assertEquals(Screen.Settings, navigator.current)
            // Asked again for the screen already shown: confirmed at once, not timed out.
            val again = runBlocking {
                NavigationTool.run("""{"screen": "settings"}""", navigator, kotlinx.coroutines.Dispatchers.Unconfined)
            }
            assertEquals("""{"navigated": true, "screen": "settings"}""", again)
            val status = conversation.toolCalls.value.single().phase
            assertEquals(ToolCallPhase.Succeeded("""{"navigated": true, "screen": "settings"}"""), status)

            onNodeWithText("← Back to chat").performClick()
            onNodeWithTag("chat").assertExists()
            onNodeWithText("Done: the app now shows settings.").assertExists()
        }
    }

    @Test
    fun `an image the agent returns is shown in the chat through the image loader`() = runComposeUiTest {
        val conversation = Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher)
        conversation.use {
            setContent { MaterialTheme { SampleApp(conversation, Navigator()) } }
            onNodeWithTag("composer").performTextInput("draw a picture")
            onNodeWithTag("send").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { conversation.messages.value.any { it.media.isNotEmpty() } }
            waitForIdle()
            // The default loader draws a placeholder labelled with the image's name.
            onNodeWithTag("media:image:gradient.png").assertExists()
        }
    }

    /**
     * The user picks a photo (a fake picker here; the Android app's is the system photo picker),
     * it is shown as attached, sent with the message, and arrives intact: the demo agent answers
     * with its decoded length and hash. The photo is then in the chat, fetched from the core.
     */
    @Test
    fun `a photo the user picks is sent intact and shown in the chat`() = runComposeUiTest {
        val photo = ByteArray(200_003) { (it * 31 % 256).toByte() }
        val picker = PhotoPicker { Attachment.bytes("beach.png", "image/png", photo) }
        val conversation = Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher)
        conversation.use {
            setContent { MaterialTheme { SampleApp(conversation, Navigator(), photoPicker = picker) } }
            onNodeWithTag("attach").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { onAllNodesWithTag("attached:beach.png").fetchSemanticsNodes().isNotEmpty() }
            onNodeWithTag("send").assertIsEnabled()
            onNodeWithTag("send").performClick()
            val expected = "image image/png beach.png bytes=200003 fnv=${Fixtures.fnv1a64(photo)}"
            waitUntil(timeoutMillis = WAIT_MS) { conversation.messages.value.assistantTexts().contains(expected) }
            // The core holds the photo; the chat's image view fetched it to show it.
            val sent = conversation.messages.value.first { it.role == Role.USER }.media.single()
            assertEquals(200_003L, sent.heldBytes)
            waitUntil(timeoutMillis = WAIT_MS) { onAllNodesWithTag("media:image:beach.png").fetchSemanticsNodes().isNotEmpty() }
            onNodeWithTag("attached:beach.png").assertDoesNotExist()
        }
    }

    @Test
    fun `a surface shows inline in the chat and its action reaches the agent`() = runComposeUiTest {
        val conversation = Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher)
        conversation.use {
            setContent { MaterialTheme { SampleApp(conversation, Navigator()) } }
            onNodeWithTag("composer").performTextInput("book a table")
            onNodeWithTag("send").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { conversation.surface("booking") != null }
            waitForIdle()
            onNodeWithText("Book a table").assertExists()
            onNodeWithTag(a2uiNodeTag("name")).performTextInput("Grace")
            onNodeWithTag(a2uiNodeTag("date")).performTextInput("2027-01-02")
            waitUntil(timeoutMillis = WAIT_MS) { runCatching { onNodeWithText("Book").assertIsEnabled() }.isSuccess }
            onNodeWithText("Book").performClick()
            waitUntil(timeoutMillis = WAIT_MS) {
                conversation.messages.value.assistantTexts().contains("Booked a table for 2 on 2027-01-02 under the name Grace.")
            }
        }
    }

    /**
     * The demo agent's A2UI v1.0 card in the sample's chat: the placeholder and the structured
     * email check are drawn, the button stays disabled until the email is valid, and the action
     * reaches the agent, whose v1.0 `updateDataModel` updates the live status line.
     */
    @Test
    fun `the v1_0 sign-up card is drawn, checked and answered in the chat`() = runComposeUiTest {
        val conversation = Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher)
        conversation.use {
            setContent { MaterialTheme { SampleApp(conversation, Navigator()) } }
            onNodeWithTag("composer").performTextInput("sign up")
            onNodeWithTag("send").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { conversation.surface("signup") != null }
            waitForIdle()
            onNodeWithText("Fill in your email to sign up.").assertExists()
            // Material 3 shows a labelled field's placeholder once the field has focus.
            onNodeWithTag(a2uiNodeTag("email")).performClick()
            waitForIdle()
            onNodeWithText("you@example.com").assertExists()
            onNodeWithText("Sign up").assertIsNotEnabled()
            onNodeWithTag(a2uiNodeTag("email")).performTextInput("ada@example.com")
            waitUntil(timeoutMillis = WAIT_MS) { runCatching { onNodeWithText("Sign up").assertIsEnabled() }.isSuccess }
            onNodeWithText("Sign up").performClick()
            waitUntil(timeoutMillis = WAIT_MS) {
                conversation.messages.value.assistantTexts().contains("Signed up ada@example.com for 2 newsletters a month.")
            }
            waitUntil(timeoutMillis = WAIT_MS) {
                onAllNodesWithText("Welcome aboard, ada@example.com!").fetchSemanticsNodes().isNotEmpty()
            }
        }
    }

    @Test
    fun `navigate_to refuses an unknown screen and a screen that never appears`(): Unit = runBlocking {
        val navigator = Navigator()
        val unknown = assertFailsWith<dev.agentui.ClientToolFailure> {
            NavigationTool.run("""{"screen": "billing"}""", navigator, kotlinx.coroutines.Dispatchers.Unconfined)
        }
        assertTrue(unknown.message!!.startsWith("unknown screen 'billing'"), unknown.message)
        // Nothing composes here, so the destination never reports that it is shown.
        val hidden = assertFailsWith<dev.agentui.ClientToolFailure> {
            NavigationTool.run("""{"screen": "profile"}""", navigator, kotlinx.coroutines.Dispatchers.Unconfined)
        }
        assertEquals("the profile screen did not appear", hidden.message)
    }

    @Test
    fun `the loyalty card is drawn in the sample's own catalog with its formatPoints`() = runComposeUiTest {
        val navigator = Navigator()
        // Opened as the ViewModel opens it: with the sample's catalog and function.
        val conversation = SampleConversation.open(Fixtures.runtime, Fixtures.agent.agentUrl(), navigator, null, main.dispatcher)
        conversation.use {
            setContent { MaterialTheme { SampleApp(conversation, navigator) } }
            waitForIdle()
            onNodeWithTag("composer").performTextInput("show my loyalty card")
            onNodeWithTag("send").performClick()
            waitUntil(timeoutMillis = WAIT_MS) {
                onAllNodesWithText("Gold · 1,250 points").fetchSemanticsNodes().isNotEmpty()
            }
            // The sample's renderer drew the badge node (the renderer's modifier carries its tag).
            onNodeWithTag(a2uiNodeTag("root")).assertExists()
        }
    }
}
