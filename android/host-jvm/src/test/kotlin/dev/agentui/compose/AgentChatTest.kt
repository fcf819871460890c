package dev.agentui.compose

import androidx.compose.foundation.layout.size
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.darkColorScheme
import androidx.compose.material3.lightColorScheme
import androidx.compose.ui.Modifier
import androidx.compose.ui.semantics.SemanticsProperties
import androidx.compose.ui.test.ExperimentalTestApi
import androidx.compose.ui.test.SemanticsMatcher
import androidx.compose.ui.test.assertCountEquals
import androidx.compose.ui.test.assertIsEnabled
import androidx.compose.ui.test.captureToImage
import androidx.compose.ui.test.onAllNodesWithTag
import androidx.compose.ui.test.onAllNodesWithText
import androidx.compose.ui.test.onNodeWithTag
import androidx.compose.ui.test.onNodeWithText
import androidx.compose.ui.test.onRoot
import androidx.compose.ui.test.performClick
import androidx.compose.ui.test.performTextInput
import androidx.compose.ui.test.runComposeUiTest
import androidx.compose.ui.unit.dp
import androidx.compose.runtime.getValue
import androidx.compose.runtime.setValue
import com.sun.net.httpserver.HttpServer
import dev.agentui.AgentOptions
import dev.agentui.AgentRuntime
import dev.agentui.Consent
import dev.agentui.Delivery
import dev.agentui.Fixtures
import dev.agentui.MainThreadExtension
import dev.agentui.TimelineItemKind
import dev.agentui.ToolCallPhase
import dev.agentui.ToolFailure
import dev.agentui.WAIT_MS
import dev.agentui.assistantTexts
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.extension.RegisterExtension
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlin.test.assertEquals
import kotlin.test.assertIs
import kotlin.test.assertTrue

/**
 * `AgentChat` on the conversation's timeline, against the in-process demo agent (and two small
 * loopback servers for a 500 and a send made offline), rendered offscreen by Compose for Desktop.
 */
@OptIn(ExperimentalTestApi::class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AgentChatTest {
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    private val schema = """{"type":"object","properties":{"precision":{"type":"string"}}}"""

    @Test
    fun `the agent's text streams in, and the empty state goes`() = runComposeUiTest {
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
            setContent { MaterialTheme { AgentChat(conversation) } }
            onNodeWithTag("empty").assertExists()
            onNodeWithTag("composer").performTextInput("hello")
            onNodeWithTag("send").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { conversation.phase.value is dev.agentui.RunPhase.Finished }
            waitForIdle()
            onNodeWithTag("empty").assertDoesNotExist()
            val answer = conversation.timeline.value.map { it.kind }.filterIsInstance<TimelineItemKind.AgentMessage>().single()
            assertTrue(answer.text.isNotEmpty() && !answer.streaming, "$answer")
            onNodeWithTag("markdown:${answer.messageId}", useUnmergedTree = true).assertExists()
            // Announced once whole.
            onAllNodes(SemanticsMatcher.keyIsDefined(SemanticsProperties.LiveRegion)).fetchSemanticsNodes().let {
                assertTrue(it.isNotEmpty(), "the finished message is a live region")
            }
        }
    }

    @Test
    fun `the booking form appears inline, is filled and booked`() = runComposeUiTest {
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
            setContent { MaterialTheme { AgentChat(conversation) } }
            onNodeWithTag("composer").performTextInput("book a table")
            onNodeWithTag("send").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { onAllNodesWithTag("surface:booking").fetchSemanticsNodes().isNotEmpty() }
            // Inline, after the message that asked for it.
            val keys = conversation.timeline.value.map { it.key }
            val user = keys.indexOfFirst { it.startsWith("m:") }
            assertTrue(user in 0 until keys.indexOf("s:booking"), "$keys")
            waitUntil(timeoutMillis = WAIT_MS) { onAllNodesWithText("Book a table").fetchSemanticsNodes().isNotEmpty() }
            onNodeWithTag(a2uiNodeTag("name")).performTextInput("Grace")
            onNodeWithTag(a2uiNodeTag("date")).performTextInput("2027-01-02")
            waitUntil(timeoutMillis = WAIT_MS) { runCatching { onNodeWithText("Book").assertIsEnabled() }.isSuccess }
            onNodeWithText("Book").performClick()
            val booked = "Booked a table for 2 on 2027-01-02 under the name Grace."
            waitUntil(timeoutMillis = WAIT_MS) { conversation.messages.value.assistantTexts().contains(booked) }
            waitUntil(timeoutMillis = WAIT_MS) { onAllNodesWithText(booked).fetchSemanticsNodes().isNotEmpty() }
        }
    }

    @Test
    fun `an ASK tool shows a card and runs only on Allow`() = runComposeUiTest {
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
            val calls = AtomicInteger()
            conversation.registerTool("get_location", "The user's current city", schema, consent = Consent.ASK) {
                calls.incrementAndGet()
                "Lisbon, Portugal"
            }
            setContent { MaterialTheme { AgentChat(conversation) } }
            onNodeWithTag("composer").performTextInput("where am I? use my location")
            onNodeWithTag("send").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { conversation.consentRequests.value.isNotEmpty() }
            val id = conversation.consentRequests.value.single().toolCallId
            waitUntil(timeoutMillis = WAIT_MS) { onAllNodesWithTag("consent:$id").fetchSemanticsNodes().isNotEmpty() }
            onNodeWithText("Allow get_location?").assertExists()
            assertEquals(0, calls.get(), "the card is up; nothing ran")
            onNodeWithTag("allow-once:$id").performClick()
            waitUntil(timeoutMillis = WAIT_MS) {
                conversation.messages.value.assistantTexts().contains("Your location according to the app: Lisbon, Portugal")
            }
            assertEquals(1, calls.get())
            waitForIdle()
            onNodeWithTag("consent:$id").assertDoesNotExist()
        }
    }

    @Test
    fun `Decline on the card reaches the agent as a declined result`() = runComposeUiTest {
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
            val calls = AtomicInteger()
            conversation.registerTool("get_location", "The user's current city", schema, consent = Consent.ASK) {
                calls.incrementAndGet()
                "Lisbon"
            }
            setContent { MaterialTheme { AgentChat(conversation) } }
            onNodeWithTag("composer").performTextInput("my location please")
            onNodeWithTag("send").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { conversation.consentRequests.value.isNotEmpty() }
            val id = conversation.consentRequests.value.single().toolCallId
            waitUntil(timeoutMillis = WAIT_MS) { onAllNodesWithTag("decline:$id").fetchSemanticsNodes().isNotEmpty() }
            onNodeWithTag("decline:$id").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { conversation.messages.value.assistantTexts().contains("the user declined it") }
            assertEquals(0, calls.get(), "a declined tool never runs")
            val phase = assertIs<ToolCallPhase.Failed>(conversation.toolCall(id)?.phase)
            assertEquals(ToolFailure.Declined, phase.failure)
            waitForIdle()
            onNodeWithText("Tool get_location: failed", substring = true).assertExists()
        }
    }

    @Test
    fun `an interrupt card approves and the run goes on`() = runComposeUiTest {
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
            setContent { MaterialTheme { AgentChat(conversation) } }
            onNodeWithTag("composer").performTextInput("delete the report")
            onNodeWithTag("send").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { conversation.interrupts.value.isNotEmpty() }
            val id = conversation.interrupts.value.single().id
            waitUntil(timeoutMillis = WAIT_MS) { onAllNodesWithTag("approve:$id").fetchSemanticsNodes().isNotEmpty() }
            onNodeWithText("Delete report.pdf?").assertExists()
            onNodeWithTag("approve:$id").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { conversation.messages.value.assistantTexts().contains("Deleted report.pdf.") }
            waitForIdle()
            onNodeWithTag("interrupt:$id").assertDoesNotExist()
        }
    }

    @Test
    fun `a 500 shows an error and its Retry succeeds`() = runComposeUiTest {
        FlakyAgent(failures = 1).use { agent ->
            Fixtures.runtime.connect(agent.url, options = AgentOptions { threadId = "t" }, dispatcher = main.dispatcher).use { conversation ->
                setContent { MaterialTheme { AgentChat(conversation) } }
                onNodeWithTag("composer").performTextInput("hello")
                onNodeWithTag("send").performClick()
                // The core says what a retry does; the row offers it.
                waitUntil(timeoutMillis = WAIT_MS) {
                    onAllNodesWithTag("retry").fetchSemanticsNodes().isNotEmpty() ||
                        onAllNodesWithTag("retry-run").fetchSemanticsNodes().isNotEmpty()
                }
                assertEquals(1, agent.requests.get())
                val retry = if (onAllNodesWithTag("retry").fetchSemanticsNodes().isNotEmpty()) "retry" else "retry-run"
                onNodeWithTag(retry).performClick()
                waitUntil(timeoutMillis = WAIT_MS) { conversation.messages.value.assistantTexts().contains(FlakyAgent.ANSWER) }
                waitForIdle()
                onAllNodesWithTag("run-error").assertCountEquals(0)
                val user = conversation.timeline.value.map { it.kind }.filterIsInstance<TimelineItemKind.UserMessage>().single()
                assertEquals(Delivery.Delivered, user.delivery)
            }
        }
    }

    @Test
    fun `a send made offline shows as waiting, then delivered`() = runComposeUiTest {
        // A port nothing listens on yet: the agent cannot be reached.
        val port = ServerSocket(0).use { it.localPort }
        AgentRuntime().use { runtime ->
            runtime.connect("http://127.0.0.1:$port/agent", options = AgentOptions { threadId = "t" }, dispatcher = main.dispatcher).use { conversation ->
                runtime.setOnline(false)
                setContent { MaterialTheme { AgentChat(conversation) } }
                onNodeWithTag("composer").performTextInput("from the tunnel")
                onNodeWithTag("send").performClick()
                waitUntil(timeoutMillis = WAIT_MS) {
                    conversation.timeline.value.any { (it.kind as? TimelineItemKind.UserMessage)?.delivery is Delivery.WaitingForNetwork }
                }
                val id = conversation.timeline.value.map { it.kind }.filterIsInstance<TimelineItemKind.UserMessage>().single().messageId
                waitUntil(timeoutMillis = WAIT_MS) { onAllNodesWithTag("waiting:$id").fetchSemanticsNodes().isNotEmpty() }
                FlakyAgent(failures = 0, port = port).use {
                    runtime.setOnline(true)
                    waitUntil(timeoutMillis = WAIT_MS) { conversation.messages.value.assistantTexts().contains(FlakyAgent.ANSWER) }
                    waitForIdle()
                    onNodeWithTag("waiting:$id").assertDoesNotExist()
                    val user = conversation.timeline.value.map { it.kind }.filterIsInstance<TimelineItemKind.UserMessage>().single()
                    assertEquals(Delivery.Delivered, user.delivery)
                }
            }
        }
    }

    /**
     * Replacing one slot keeps the others, and counts compositions: a streamed piece recomposes
     * the one row being written, not the rows before it.
     */
    @Test
    fun `a streamed piece recomposes only the row being written`() = runComposeUiTest {
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
            val compositions = ConcurrentHashMap<String, AtomicInteger>()
            val slots = AgentChatSlots(
                userMessage = { item, chat ->
                    compositions.getOrPut(item.messageId) { AtomicInteger() }.incrementAndGet()
                    AgentChatDefaults.UserMessage(item, chat)
                },
                agentMessage = { item, chat ->
                    compositions.getOrPut(item.messageId) { AtomicInteger() }.incrementAndGet()
                    AgentChatDefaults.AgentMessage(item, chat)
                },
            )
            setContent { MaterialTheme { AgentChat(conversation, slots = slots) } }
            onNodeWithTag("composer").performTextInput("hello")
            onNodeWithTag("send").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { conversation.phase.value is dev.agentui.RunPhase.Finished }
            waitForIdle()
            val first = conversation.timeline.value.map { it.kind }
            val userId = first.filterIsInstance<TimelineItemKind.UserMessage>().single().messageId
            val before = compositions.getValue(userId).get()
            // A second answer streams below: the rows above stay as they are.
            onNodeWithTag("composer").performTextInput("slow")
            onNodeWithTag("send").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { conversation.phase.value is dev.agentui.RunPhase.Finished && conversation.messages.value.size >= 4 }
            waitForIdle()
            val streamed = conversation.timeline.value.map { it.kind }.filterIsInstance<TimelineItemKind.AgentMessage>().last()
            val writes = compositions.getValue(streamed.messageId).get()
            println("BENCH AgentChat: the streamed row composed $writes times; the first user row ${compositions.getValue(userId).get() - before} more times")
            assertTrue(writes > 1, "the streamed row recomposed as it grew: $writes")
            assertTrue(compositions.getValue(userId).get() - before <= 1, "an earlier row is not recomposed per piece")
        }
    }

    @Test
    fun `screenshots light and dark`() = runComposeUiTest {
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
            var dark by androidx.compose.runtime.mutableStateOf(false)
            conversation.registerTool("get_location", "The user's current city", schema, consent = Consent.ASK) { "Lisbon" }
            setContent {
                MaterialTheme(colorScheme = if (dark) darkColorScheme() else lightColorScheme()) {
                    androidx.compose.material3.Surface(Modifier.size(420.dp, 760.dp)) { AgentChat(conversation) }
                }
            }
            onNodeWithTag("composer").performTextInput("hello")
            onNodeWithTag("send").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { conversation.phase.value is dev.agentui.RunPhase.Finished }
            onNodeWithTag("composer").performTextInput("where am I? use my location")
            onNodeWithTag("send").performClick()
            waitUntil(timeoutMillis = WAIT_MS) { conversation.consentRequests.value.isNotEmpty() }
            waitForIdle()
            val light = Screenshots.save(onRoot().captureToImage(), "agent-chat-light")
            dark = true
            waitForIdle()
            val night = Screenshots.save(onRoot().captureToImage(), "agent-chat-dark")
            assertTrue(light.distinctColours() > 8 && night.distinctColours() > 8, "both drew something")
            assertTrue(light.getRGB(2, 2) != night.getRGB(2, 2), "the dark theme is dark")
        }
    }
}

/** An agent on loopback that answers [failures] requests with HTTP 500, then a short run. */
private class FlakyAgent(private val failures: Int, port: Int = 0) : AutoCloseable {
    val requests = AtomicInteger()
    private val server = HttpServer.create(InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0).apply {
        createContext("/") { exchange ->
            exchange.requestBody.readBytes()
            if (requests.incrementAndGet() <= failures) {
                exchange.sendResponseHeaders(500, -1)
                exchange.close()
                return@createContext
            }
            exchange.responseHeaders.add("Content-Type", "text/event-stream")
            exchange.sendResponseHeaders(200, 0)
            exchange.responseBody.use { out ->
                val run = "r" + requests.get()
                for (event in listOf(
                    """{"type":"RUN_STARTED","threadId":"t","runId":"$run"}""",
                    """{"type":"TEXT_MESSAGE_START","messageId":"a$run","role":"assistant"}""",
                    """{"type":"TEXT_MESSAGE_CONTENT","messageId":"a$run","delta":"$ANSWER"}""",
                    """{"type":"TEXT_MESSAGE_END","messageId":"a$run"}""",
                    """{"type":"RUN_FINISHED","threadId":"t","runId":"$run"}""",
                )) out.write("data: $event\n\n".encodeToByteArray())
            }
        }
        start()
    }
    val url get() = "http://127.0.0.1:${server.address.port}/agent"
    override fun close() = server.stop(0)

    companion object {
        const val ANSWER = "Reached you."
    }
}
