package dev.agentui.testing

import androidx.compose.material3.MaterialTheme
import androidx.compose.ui.test.ExperimentalTestApi
import androidx.compose.ui.test.runComposeUiTest
import dev.agentui.Fixtures
import dev.agentui.MainThreadExtension
import dev.agentui.RunPhase
import dev.agentui.assistantTexts
import dev.agentui.compose.A2uiSurface
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.extension.RegisterExtension
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertIs
import kotlin.test.assertTrue

private const val CATALOG = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"

/** The Kotlin kit: its builder, the scripted agent through the kit's own native library, the waits and matchers. */
@OptIn(ExperimentalTestApi::class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ScriptedAgentTest {
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    private val booking = scriptedAgent {
        on(userSays("book a table")) {
            text("Here is the form.", chunkChars = 5)
            surface(
                """{"version": "v0.9", "createSurface": {"surfaceId": "booking", "catalogId": "$CATALOG"}}""",
                """{"version": "v0.9", "updateComponents": {"surfaceId": "booking", "components": [
                     {"id": "root", "component": "Column", "children": ["name", "book"]},
                     {"id": "name", "component": "TextField", "label": "Name", "value": {"path": "/name"}},
                     {"id": "book", "component": "Button", "child": "book-label",
                      "action": {"event": {"name": "book", "context": {"name": {"path": "/name"}}}}},
                     {"id": "book-label", "component": "Text", "text": "Book"}]}}""",
            )
        }
        on(userMatches("(?i)where am i")) { toolCall("get_location", mapOf("precision" to "city")) }
        on(toolResult("get_location")) { text("You are in Lisbon.") }
    }

    @Test
    fun `a scripted agent answers the app and keeps what the app sent`(): Unit = runBlocking {
        ScriptedAgent.start(booking).use { agent ->
            Fixtures.runtime.connect(agent.url, dispatcher = main.dispatcher).use { conversation ->
                conversation.registerTool("get_location", "where the user is", """{"type":"object"}""") { """{"city": "Lisbon"}""" }
                conversation.send("Where am I?")
                assertIs<RunPhase.Finished>(conversation.awaitIdle())
                // The first assistant message carries the tool call and no text; the second answers.
                assertEquals(listOf("", "You are in Lisbon."), conversation.messages.value.assistantTexts().split("\n"))
                assertEquals(2, agent.requests.size, "the call's result came back in a second request")
                assertTrue(agent.requests[0].contains("\"get_location\""), agent.requests[0])
                agent.assertAllMatched()
            }
        }
    }

    @Test
    fun `a request no rule matches fails the test with the request`(): Unit = runBlocking {
        ScriptedAgent.start(booking).use { agent ->
            Fixtures.runtime.connect(agent.url, dispatcher = main.dispatcher).use { conversation ->
                runCatching { conversation.send("something else") }
                assertIs<RunPhase.Failed>(conversation.awaitIdle())
                val failure = assertFailsWith<AssertionError> { agent.assertAllMatched() }
                assertTrue(failure.message!!.contains("something else"), failure.message)
            }
        }
    }

    @Test
    fun `a script the core refuses names its place`() {
        val bad = """{"rules": [{"when": {"userSays": "x"},
            "reply": [{"type": "teleport"}]}]}"""
        val error = assertFailsWith<ScriptException> { ScriptedAgent.start(bad) }
        assertEquals("/rules/0/reply/0", error.path)
        assertEquals(2, error.line)
    }

    @Test
    fun `a surface is found, typed into and pressed through the kit's matchers`() = runComposeUiTest {
        ScriptedAgent.start(booking).use { agent ->
            val conversation = Fixtures.runtime.connect(agent.url, dispatcher = main.dispatcher)
            conversation.use {
                runBlocking {
                    conversation.send("book a table")
                    conversation.awaitSurface("booking")
                }
                setContent { MaterialTheme { A2uiSurface(conversation, "booking") } }
                waitForIdle()
                onA2uiNode("book").assertExists()
                typeIntoA2uiNode("name", "Ada")
                waitForIdle()
                onA2uiNode("name").assertExists()
            }
        }
    }
}
