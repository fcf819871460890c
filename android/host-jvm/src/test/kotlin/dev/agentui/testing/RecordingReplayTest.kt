package dev.agentui.testing

import androidx.compose.material3.MaterialTheme
import androidx.compose.ui.test.ExperimentalTestApi
import androidx.compose.ui.test.runComposeUiTest
import dev.agentui.Fixtures
import dev.agentui.MainThreadExtension
import dev.agentui.Role
import dev.agentui.RunPhase
import dev.agentui.ToolCallPhase
import dev.agentui.sample.ui.Navigator
import dev.agentui.sample.ui.SampleApp
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.extension.RegisterExtension
import java.io.File
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertIs

/**
 * A turn recorded against a real framework server (LangGraph, through ag-ui-langgraph; how it
 * was made: docs/testing-apps.md, "A recording from a real framework"), replayed through the
 * kit into the app's conversation and its chat screen, with no server but the recording.
 */
@OptIn(ExperimentalTestApi::class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RecordingReplayTest {
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    private val recording: String =
        File(checkNotNull(javaClass.getResource("/recordings/langgraph-location/0001-request.json")).toURI()).parent

    @Test
    fun `a LangGraph turn with a client tool replays into the chat as it happened`() = runComposeUiTest {
        ScriptedAgent.replay(recording).use { agent ->
            val conversation = Fixtures.runtime.connect(agent.url, dispatcher = main.dispatcher)
            conversation.use {
                conversation.registerTool("get_location", "where the user is", """{"type":"object"}""") { """{"city":"Lisbon"}""" }
                setContent { MaterialTheme { SampleApp(conversation, Navigator()) } }
                runBlocking {
                    conversation.send("what is my location?")
                    assertIs<RunPhase.Finished>(conversation.awaitIdle())
                }
                // LangGraph's snapshot echoes the app's own messages: the order is the app's.
                val messages = conversation.messages.value
                assertEquals(listOf(Role.USER, Role.ASSISTANT, Role.TOOL, Role.ASSISTANT), messages.map { it.role })
                assertEquals("""Tool get_location returned: {"city":"Lisbon"}""", messages.last().text)
                val call = conversation.toolCalls.value.single()
                assertEquals("get_location", call.toolName)
                assertEquals(ToolCallPhase.Succeeded("""{"city":"Lisbon"}"""), call.phase)
                // The call and the result's follow-up: both recorded exchanges answered, nothing more.
                assertEquals(2, agent.requests.size)
                agent.assertAllMatched()

                waitForIdle()
                onUserMessage("what is my location?").assertExists()
                onToolRow("get_location").assertExists()
                onAgentMessage("""Tool get_location returned: {"city":"Lisbon"}""").assertExists()
            }
        }
    }
}
