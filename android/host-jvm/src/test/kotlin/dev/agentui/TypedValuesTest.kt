package dev.agentui

import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.Timeout
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertIs
import kotlin.test.assertTrue

/**
 * The typed forms of the calls that also take JSON text: values go in and come out as plain
 * Kotlin values, and the demo agent reads the JSON they stand for.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TypedValuesTest {
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    private fun connect(options: AgentOptions = AgentOptions()) =
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), options = options, dispatcher = main.dispatcher)

    @Test
    fun `an interrupt answered with a map reaches the agent as JSON`(): Unit = runBlocking {
        connect().use { conversation ->
            assertIs<RunPhase.Interrupted>(conversation.send("delete the report").phase)
            val interrupt = conversation.interrupts.value.single()
            val properties = assertIs<Map<*, *>>(interrupt.responseSchema?.get("properties"))
            assertTrue("approved" in properties, "the schema arrives typed: $properties")

            // `false` keeps the file: the agent read the member, not only that an answer came.
            conversation.resolveInterrupt(interrupt.id, answer = mapOf("approved" to false))
            assertIs<RunPhase.Finished>(conversation.continueRun().phase)
            val messages = conversation.messages.awaitValue { it.lastAssistantText() == "Kept report.pdf." }
            assertEquals("Kept report.pdf.", messages.lastAssistantText())
        }
    }

    @Test
    fun `a typed tool gets a map and its map goes back to the agent as JSON`(): Unit = runBlocking {
        connect().use { conversation ->
            val arguments = CompletableDeferred<Map<String, Any?>>()
            val schema = mapOf("type" to "object", "properties" to mapOf("precision" to mapOf("type" to "string")))
            conversation.registerTool("get_location", "The user's current city", schema) { args ->
                arguments.complete(args)
                mapOf("city" to "Lisbon", "country" to "Portugal")
            }
            val summary = conversation.send("where am I? use my location")

            assertEquals(mapOf<String, Any?>("precision" to "city"), arguments.await())
            assertIs<ToolCallPhase.Succeeded>(summary.toolCalls.single().phase)
            val expected = """Your location according to the app: {"city":"Lisbon","country":"Portugal"}"""
            val messages = conversation.messages.awaitValue { expected in it.assistantTexts() }
            assertTrue(expected in messages.assistantTexts(), messages.assistantTexts())
        }
    }

    @Test
    fun `typed forwarded props arrive in the run input`(): Unit = runBlocking {
        // The demo agent quotes `forwardedProps.command.resume` back (LangGraph's legacy channel).
        val props = mapOf("command" to mapOf("resume" to mapOf("ok" to true)))
        connect(AgentOptions { forwardedProps = props }).use { conversation ->
            conversation.send("hello")
            val messages = conversation.messages.awaitValue { it.lastAssistantText().startsWith("Approved: {") }
            assertEquals("""Approved: {"ok":true}""", messages.lastAssistantText())
        }
    }
}
