package dev.agentui

import dev.agentui.core.ConversationException
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.io.TempDir
import java.io.File
import java.util.Collections
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertIs
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

/**
 * The user's consent before a client tool acts, through the layer against the in-process demo
 * agent: its `get_location` scenario calls the tool and quotes the result (or the error) back.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsentTest {
    @TempDir
    lateinit var dir: File
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    private val schema = """{"type":"object","properties":{"precision":{"type":"string"}}}"""

    @Test
    fun `an ASK tool runs only after the user allowed it, and the agent quotes its result`(): Unit = runBlocking {
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
            val calls = Collections.synchronizedList(mutableListOf<String>())
            conversation.registerTool("get_location", "The user's current city", schema, consent = Consent.ASK) { arguments ->
                calls += arguments
                "Lisbon, Portugal"
            }
            val summary = conversation.send("where am I? use my location")

            assertTrue(calls.isEmpty(), "nothing runs before the answer")
            // send() returns once the flows show the run's end: the request is listed already.
            val request = conversation.consentRequests.value.single()
            assertEquals("get_location", request.toolName)
            assertEquals(mapOf("precision" to "city"), request.arguments)
            assertTrue(request.askedAtMs > 0, "epoch milliseconds: ${request.askedAtMs}")
            assertTrue(summary.toolCalls.isEmpty(), "the run reports no executed call: ${summary.toolCalls}")
            assertEquals(ToolCallPhase.AwaitingConsent, conversation.toolCall(request.toolCallId)?.phase)
            // The timeline puts the card right after the call it asks about.
            val rows = conversation.timeline.value.map { it.kind }
            val call = rows.indexOfFirst { it is TimelineItemKind.ToolActivity && it.toolCallId == request.toolCallId }
            assertEquals(ToolCallPhase.AwaitingConsent, (rows[call] as TimelineItemKind.ToolActivity).phase)
            assertEquals(TimelineItemKind.ConsentRequest(request), rows[call + 1])
            assertTrue(conversation.messages.value.assistantTexts().contains("Let me ask the app"))
            assertTrue(!conversation.messages.value.assistantTexts().contains("Lisbon"))

            val followUp = assertNotNull(conversation.answerConsent(request.toolCallId, ConsentAnswer.ALLOW_ONCE))
            assertEquals(1, calls.size)
            assertEquals(ToolCallPhase.Succeeded("Lisbon, Portugal"), followUp.toolCalls.single().phase)
            // answerConsent returns once the flows show the follow-up run's end.
            assertTrue(
                conversation.messages.value.assistantTexts().contains("Your location according to the app: Lisbon, Portugal"),
                conversation.messages.value.assistantTexts(),
            )
            assertTrue(conversation.consentRequests.value.isEmpty(), "answered, the request is gone")
            assertTrue(conversation.timeline.value.none { it.kind is TimelineItemKind.ConsentRequest }, "and its card")
            assertTrue(conversation.consentGrants.value.isEmpty(), "allowed once: no grant")

            // Answered already: the typed error, and nothing runs again.
            val again = assertFailsWith<ConversationException.UnknownConsentRequest> {
                conversation.answerConsent(request.toolCallId, ConsentAnswer.ALLOW_ONCE)
            }
            assertEquals(request.toolCallId, again.toolCallId)
            assertFailsWith<ConversationException.UnknownConsentRequest> {
                conversation.answerConsent("no-such-call", ConsentAnswer.DECLINE)
            }
            assertEquals(1, calls.size)
        }
    }

    @Test
    fun `a declined call reaches the agent as declined and the tool never runs`(): Unit = runBlocking {
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
            val calls = Collections.synchronizedList(mutableListOf<Map<String, Any?>>())
            // The typed overload takes the same consent.
            conversation.registerTool(
                "get_location",
                "The user's current city",
                mapOf("type" to "object", "properties" to mapOf("precision" to mapOf("type" to "string"))),
                consent = Consent.ASK,
            ) { arguments ->
                calls += arguments
                "Lisbon, Portugal"
            }
            conversation.send("my location please")
            val request = conversation.consentRequests.value.single()

            assertNotNull(conversation.answerConsent(request.toolCallId, ConsentAnswer.DECLINE))
            assertTrue(calls.isEmpty(), "a declined tool never runs")
            val phase = assertIs<ToolCallPhase.Failed>(conversation.toolCall(request.toolCallId)?.phase)
            assertEquals(ToolFailure.Declined, phase.failure, "told apart from a policy's refusal")
            assertTrue(phase.detail.contains("the user declined it"), phase.detail)
            val said = conversation.messages.value.assistantTexts()
            assertTrue(said.contains("The app reported an error") && said.contains("the user declined it"), said)
            assertTrue(!said.contains("Lisbon"), said)
            assertTrue(conversation.consentRequests.value.isEmpty())
        }
    }

    @Test
    fun `ALLOW_ALWAYS lets later calls of the tool run without asking`(): Unit = runBlocking {
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
            val calls = Collections.synchronizedList(mutableListOf<String>())
            conversation.registerTool("get_location", "The user's current city", schema, consent = Consent.ASK) { arguments ->
                calls += arguments
                "Porto"
            }
            conversation.send("where am I? use my location")
            conversation.answerConsent(conversation.consentRequests.value.single().toolCallId, ConsentAnswer.ALLOW_ALWAYS)
            assertEquals(1, calls.size)
            assertEquals(listOf("get_location"), conversation.consentGrants.value)

            val summary = conversation.send("and my location now?")
            assertEquals(2, calls.size, "granted: the second call ran at once")
            assertTrue(conversation.consentRequests.value.isEmpty())
            assertEquals(ToolCallPhase.Succeeded("Porto"), summary.toolCalls.single().phase)
        }
    }

    @Test
    fun `a tool registered without consent runs at once as before`(): Unit = runBlocking {
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
            conversation.registerTool("get_location", "The user's current city", schema) { "Faro" }
            val summary = conversation.send("where am I? use my location")
            assertEquals(ToolCallPhase.Succeeded("Faro"), summary.toolCalls.single().phase)
            assertTrue(conversation.consentRequests.value.isEmpty())
        }
    }

    @Test
    fun `a waiting request survives a new runtime on the store file and runs only when answered`(): Unit = runBlocking {
        val storeFile = File(dir, "consent.db")
        val url = Fixtures.agent.agentUrl()
        val calls = Collections.synchronizedList(mutableListOf<String>())
        val tool: ClientTool = { arguments ->
            calls += arguments
            "Braga"
        }
        val asked = AgentRuntime(storeFile).use { runtime ->
            runtime.connect(url, options = AgentOptions { threadId = "consent" }, dispatcher = main.dispatcher).use { conversation ->
                conversation.registerTool("get_location", "The user's current city", schema, consent = Consent.ASK, tool = tool)
                conversation.send("where am I? use my location")
                conversation.consentRequests.value.single()
            }
        }

        // As after process death: a new runtime on the same file.
        AgentRuntime(storeFile).use { runtime ->
            runtime.resume("consent", url, dispatcher = main.dispatcher).use { restored ->
                val shown = restored.consentRequests.awaitValue { it.isNotEmpty() }
                assertEquals(listOf(asked), shown, "the same request, asked at the same time")
                assertTrue(calls.isEmpty(), "restoring runs nothing")
                assertEquals(ToolCallPhase.AwaitingConsent, restored.toolCall(asked.toolCallId)?.phase)
                assertTrue(restored.timeline.value.any { it.kind == TimelineItemKind.ConsentRequest(asked) }, "its card is back")
                restored.registerTool("get_location", "The user's current city", schema, consent = Consent.ASK, tool = tool)

                val followUp = assertNotNull(restored.answerConsent(asked.toolCallId, ConsentAnswer.ALLOW_ONCE))
                assertEquals(1, calls.size)
                assertEquals(ToolCallPhase.Succeeded("Braga"), followUp.toolCalls.single().phase)
                assertTrue(restored.messages.value.assistantTexts().contains("Your location according to the app: Braga"))
                assertTrue(restored.consentRequests.value.isEmpty())
            }
        }
    }
}
