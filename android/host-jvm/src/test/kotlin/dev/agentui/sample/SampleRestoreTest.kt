package dev.agentui.sample

import androidx.compose.material3.MaterialTheme
import androidx.compose.ui.test.ExperimentalTestApi
import androidx.compose.ui.test.assertIsEnabled
import androidx.compose.ui.test.assertTextContains
import androidx.compose.ui.test.onNodeWithTag
import androidx.compose.ui.test.onNodeWithText
import androidx.compose.ui.test.performClick
import androidx.compose.ui.test.performTextInput
import androidx.compose.ui.test.runComposeUiTest
import dev.agentui.AgentRuntime
import dev.agentui.Fixtures
import dev.agentui.MainThreadExtension
import dev.agentui.Role
import dev.agentui.WAIT_MS
import dev.agentui.assistantTexts
import dev.agentui.compose.a2uiNodeTag
import dev.agentui.sample.ui.Navigator
import dev.agentui.sample.ui.SampleApp
import dev.agentui.sample.ui.SampleConversation
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.io.TempDir
import java.io.File
import java.net.ServerSocket
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals

/**
 * The sample's way back from process death, as SampleViewModel does it: the thread id in saved
 * state (a map here; a SavedStateHandle on Android), the conversation in a store file. Each
 * "process" is a new runtime and conversation on the file; the Android pieces themselves
 * (SavedStateHandle, noBackupFilesDir, a real kill) are not on the host.
 */
@OptIn(ExperimentalTestApi::class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SampleRestoreTest {
    @TempDir
    lateinit var dir: File
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()
    private val storeFile get() = File(dir, "sample.db")

    /** Stands in for the ViewModel's SavedStateHandle, which Android hands back after the kill. */
    private val savedState = HashMap<String, Any?>()

    private fun open(runtime: AgentRuntime, url: String, navigator: Navigator = Navigator()) =
        SampleConversation.open(runtime, url, navigator, savedState[SampleConversation.THREAD_ID_KEY] as String?, main.dispatcher)
            .also { savedState[SampleConversation.THREAD_ID_KEY] = it.threadId }

    @Test
    fun `the chat and a half-filled form come back from the saved thread id and the form still books`() {
        val url = Fixtures.agent.agentUrl()
        AgentRuntime(storeFile).use { runtime ->
            open(runtime, url).use { conversation ->
                runBlocking { conversation.send("book a table") }
                conversation.setValue("booking", "/booking/name", "Grace")
            }
        }

        runComposeUiTest {
            AgentRuntime(storeFile).use { runtime ->
                val navigator = Navigator()
                open(runtime, url, navigator).use { conversation ->
                    setContent { MaterialTheme { SampleApp(conversation, navigator) } }
                    waitUntil(timeoutMillis = WAIT_MS) { conversation.surface("booking") != null }
                    waitForIdle()
                    onNodeWithText("Here is a booking form. Fill it in and press Book.").assertExists()
                    onNodeWithTag(a2uiNodeTag("name")).assertTextContains("Grace")
                    onNodeWithTag(a2uiNodeTag("date")).performTextInput("2027-01-02")
                    waitUntil(timeoutMillis = WAIT_MS) { runCatching { onNodeWithText("Book").assertIsEnabled() }.isSuccess }
                    onNodeWithText("Book").performClick()
                    waitUntil(timeoutMillis = WAIT_MS) {
                        conversation.messages.value.assistantTexts().contains("Booked a table for 2 on 2027-01-02 under the name Grace.")
                    }
                }
            }
        }
    }

    @Test
    fun `a message the agent could not receive shows as waiting and is delivered after the restart`() {
        val unreachable = ServerSocket(0).use { "http://127.0.0.1:${it.localPort}/agent" }
        runComposeUiTest {
            AgentRuntime(storeFile).use { runtime ->
                open(runtime, unreachable).use { conversation ->
                    setContent { MaterialTheme { SampleApp(conversation, Navigator()) } }
                    onNodeWithTag("composer").performTextInput("hello")
                    onNodeWithTag("send").performClick()
                    // The message's row says it waits for the network (AgentChat's delivery status).
                    waitUntil(timeoutMillis = WAIT_MS) { conversation.messages.value.size == 1 }
                    val id = conversation.messages.value.single().id
                    waitUntil(timeoutMillis = WAIT_MS) { runCatching { onNodeWithTag("waiting:$id").assertExists() }.isSuccess }
                    val attempts = conversation.pendingSends.value.single().attempts
                    onNodeWithTag("retry").performClick()
                    waitUntil(timeoutMillis = WAIT_MS) { conversation.pendingSends.value.single().attempts > attempts }
                }
            }
        }

        // The app comes back (the agent is reachable now): the message is delivered once.
        runComposeUiTest {
            AgentRuntime(storeFile).use { runtime ->
                open(runtime, Fixtures.agent.agentUrl()).use { conversation ->
                    setContent { MaterialTheme { SampleApp(conversation, Navigator()) } }
                    // Retry if the automatic retry (a second after the restore) has not delivered it yet.
                    runCatching { onNodeWithTag("retry").performClick() }
                    waitUntil(timeoutMillis = WAIT_MS) {
                        conversation.messages.value.assistantTexts().contains("Hello! I am the demo agent")
                    }
                    waitForIdle()
                    val sent = conversation.messages.value.first { it.role == Role.USER }.id
                    onNodeWithTag("waiting:$sent").assertDoesNotExist()
                    assertEquals(1, conversation.messages.value.count { it.role == Role.USER })
                }
            }
        }
    }
}
