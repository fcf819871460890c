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
import dev.agentui.sample.ui.LoyaltyCatalog
import dev.agentui.sample.ui.NavigationTool
import dev.agentui.testing.ScriptedAgent
import dev.agentui.testing.onA2uiNode
import dev.agentui.testing.onAgentMessage
import dev.agentui.testing.onChatSurface
import dev.agentui.testing.onToolRow
import dev.agentui.testing.onUserMessage
import dev.agentui.testing.scriptedAgent
import dev.agentui.testing.toolResult
import dev.agentui.testing.userMatches
import dev.agentui.testing.userSays
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

/**
 * The sample app's screens (the same sources the Android app compiles). Tests of the app's own
 * behaviour run against a scripted agent, so each says what the agent does; the two surface
 * actions still use the demo agent, whose answer depends on the action's context (a script
 * matches user messages and tool results, not actions).
 */
@OptIn(ExperimentalTestApi::class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SampleAppTest {
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    @Test
    fun `the agent's navigate_to call really changes the screen and the agent hears it succeeded`() = runComposeUiTest {
        val script = scriptedAgent {
            on(userSays("open settings")) { toolCall("navigate_to", mapOf("screen" to "settings")) }
            on(toolResult("navigate_to")) { text("Done: the app now shows settings.") }
        }
        ScriptedAgent.start(script).use { agent ->
            val conversation = Fixtures.runtime.connect(agent.url, dispatcher = main.dispatcher)
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
                // The app offered the tool, and its result is what the agent heard.
                assertTrue(agent.requests[0].contains("\"navigate_to\""), agent.requests[0])
                assertTrue(agent.requests[1].contains("navigated"), agent.requests[1])
                agent.assertAllMatched()
                // Asked again for the screen already shown: confirmed at once, not timed out.
                val again = runBlocking {
                    NavigationTool.run("""{"screen": "settings"}""", navigator, kotlinx.coroutines.Dispatchers.Unconfined)
                }
                assertEquals("""{"navigated": true, "screen": "settings"}""", again)
                val status = conversation.toolCalls.value.single().phase
                assertEquals(ToolCallPhase.Succeeded("""{"navigated": true, "screen": "settings"}"""), status)

                onNodeWithText("← Back to chat").performClick()
                onNodeWithTag("chat").assertExists()
                onAgentMessage("Done: the app now shows settings.").assertExists()
                onToolRow("navigate_to").assertExists()
                onUserMessage("open settings").assertExists()
            }
        }
    }

    @Test
    fun `an image the agent returns is shown in the chat through the image loader`() = runComposeUiTest {
        // A tool the agent runs itself, whose result carries an inline PNG (as ADK's artifacts do).
        val script = scriptedAgent {
            on(userSays("draw a picture")) {
                event("""{"type": "TOOL_CALL_START", "toolCallId": "draw-1", "toolCallName": "draw_picture"}""")
                event("""{"type": "TOOL_CALL_END", "toolCallId": "draw-1"}""")
                event(
                    """{"type": "TOOL_CALL_RESULT", "messageId": "draw-result-1", "toolCallId": "draw-1", "role": "tool",
                        "content": [{"type": "text", "text": "An 8x8 gradient."},
                          {"type": "image", "source": {"type": "data", "value": "$GRADIENT_PNG", "mimeType": "image/png"},
                           "metadata": {"filename": "gradient.png"}}]}""",
                )
                text("Here is your picture.")
            }
        }
        ScriptedAgent.start(script).use { agent ->
            val conversation = Fixtures.runtime.connect(agent.url, dispatcher = main.dispatcher)
            conversation.use {
                setContent { MaterialTheme { SampleApp(conversation, Navigator()) } }
                onNodeWithTag("composer").performTextInput("draw a picture")
                onNodeWithTag("send").performClick()
                waitUntil(timeoutMillis = WAIT_MS) { conversation.messages.value.any { it.media.isNotEmpty() } }
                waitForIdle()
                // The default loader draws a placeholder labelled with the image's name.
                onNodeWithTag("media:image:gradient.png").assertExists()
                agent.assertAllMatched()
            }
        }
    }

    /**
     * The user picks a photo (a fake picker here; the Android app's is the system photo picker),
     * it is shown as attached, sent with the message, and arrives intact: the request the agent
     * got carries its bytes. The photo is then in the chat, fetched from the core.
     */
    @Test
    fun `a photo the user picks is sent intact and shown in the chat`() = runComposeUiTest {
        val photo = ByteArray(200_003) { (it * 31 % 256).toByte() }
        val picker = PhotoPicker { Attachment.bytes("beach.png", "image/png", photo) }
        val script = scriptedAgent { on(userMatches(".*")) { text("Nice photo.") } }
        ScriptedAgent.start(script).use { agent ->
            val conversation = Fixtures.runtime.connect(agent.url, dispatcher = main.dispatcher)
            conversation.use {
                setContent { MaterialTheme { SampleApp(conversation, Navigator(), photoPicker = picker) } }
                onNodeWithTag("attach").performClick()
                waitUntil(timeoutMillis = WAIT_MS) { onAllNodesWithTag("attached:beach.png").fetchSemanticsNodes().isNotEmpty() }
                onNodeWithTag("send").assertIsEnabled()
                onNodeWithTag("send").performClick()
                waitUntil(timeoutMillis = WAIT_MS) { conversation.messages.value.assistantTexts().contains("Nice photo.") }
                val request = agent.requests.single()
                assertTrue(request.contains(java.util.Base64.getEncoder().encodeToString(photo)), "the photo's bytes were not in the request")
                assertTrue(request.contains("\"beach.png\"") && request.contains("\"image/png\""), "name or type missing")
                // The core holds the photo; the chat's image view fetched it to show it.
                val sent = conversation.messages.value.first { it.role == Role.USER }.media.single()
                assertEquals(200_003L, sent.heldBytes)
                waitUntil(timeoutMillis = WAIT_MS) { onAllNodesWithTag("media:image:beach.png").fetchSemanticsNodes().isNotEmpty() }
                onNodeWithTag("attached:beach.png").assertDoesNotExist()
            }
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
        val script = scriptedAgent {
            on(userSays("show my loyalty card")) {
                text("Here is your loyalty card.")
                surface(
                    """{"version": "v0.9", "createSurface": {"surfaceId": "loyalty", "catalogId": "${LoyaltyCatalog.ID}"}}""",
                    """{"version": "v0.9", "updateComponents": {"surfaceId": "loyalty", "components": [
                         {"id": "root", "component": "LoyaltyBadge", "tier": {"path": "/tier"},
                          "points": {"call": "formatPoints", "args": {"value": {"path": "/points"}}, "returnType": "string"}}]}}""",
                    """{"version": "v0.9", "updateDataModel": {"surfaceId": "loyalty", "value": {"tier": "Gold", "points": 1250}}}""",
                )
            }
        }
        ScriptedAgent.start(script).use { agent ->
            val navigator = Navigator()
            // Opened as the ViewModel opens it: with the sample's catalog and function.
            val conversation = SampleConversation.open(Fixtures.runtime, agent.url, navigator, null, main.dispatcher)
            conversation.use {
                setContent { MaterialTheme { SampleApp(conversation, navigator) } }
                waitForIdle()
                onNodeWithTag("composer").performTextInput("show my loyalty card")
                onNodeWithTag("send").performClick()
                waitUntil(timeoutMillis = WAIT_MS) {
                    onAllNodesWithText("Gold · 1,250 points").fetchSemanticsNodes().isNotEmpty()
                }
                // The app told the agent it renders its own catalog.
                assertTrue(agent.requests.single().contains(LoyaltyCatalog.ID), agent.requests.single())
                // The sample's renderer drew the badge node (the renderer's modifier carries its tag).
                onA2uiNode("root").assertExists()
                onChatSurface("loyalty").assertExists()
            }
        }
    }
}

/** An 8x8 RGB PNG, 166 bytes: a colour gradient. */
private const val GRADIENT_PNG =
    "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAbUlEQVR42hXOUREAUQhCUaMYhShEMcqNQhSi7Fs/OQzjzLCDBg83MGToMLPsosXLLSxZug/ECgmLE4iI6oFZI2NzBhNTPzj20OHjDo4cvQf/7Bt41Rf+F+h7YsIGBYfLHyc0D8oWFZfrX05p+QDeqGABtJu0bQAAAABJRU5ErkJggg=="
