package dev.agentui

import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.flow.transformWhile
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.Timeout
import java.util.Collections
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertIs
import kotlin.test.assertTrue

/**
 * What the agent streams besides state (CUSTOM, RAW, STEP), LangGraph's `on_interrupt`, and
 * messages kept on the device, through the real bindings against the demo agent.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AgentEventsTest {
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    private fun connect() = Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher)

    @Test
    fun `STEP, RAW and CUSTOM events reach the app in stream order`(): Unit = runBlocking {
        connect().use { conversation ->
            // Undispatched: subscribed before send(), as events are not replayed.
            val received = async(Dispatchers.Unconfined, start = CoroutineStart.UNDISPATCHED) {
                conversation.events
                    // What the messages flow showed when each event arrived.
                    .transformWhile { emit(it to conversation.messages.value.lastAssistantText()); it !is AgentEvent.StepFinished }
                    .toList()
            }
            val stepValues = Collections.synchronizedList(mutableListOf<List<String>>())
            val stepCollector = launch(Dispatchers.Unconfined) { conversation.activeSteps.collect { stepValues += it } }

            val summary = conversation.send("show me the steps")
            assertIs<RunPhase.Finished>(summary.phase)
            val events = withTimeout(WAIT_MS) { received.await() }

            assertEquals(4, events.size, "$events")
            assertEquals(AgentEvent.StepStarted("research"), events[0].first)
            val raw = assertIs<AgentEvent.Raw>(events[1].first)
            assertEquals("demo-agent", raw.source)
            assertTrue(raw.eventJson.contains("\"kind\":\"trace\""), raw.eventJson)
            assertEquals("trace", assertIs<Map<*, *>>(raw.event)["kind"], "the RAW event arrives as values")
            // The value arrives typed, its JSON text a convenience beside it.
            assertEquals(AgentEvent.Custom("progress", mapOf("percent" to 50.0)), events[2].first)
            assertEquals("""{"percent":50}""", (events[2].first as AgentEvent.Custom).valueJson)
            assertEquals(AgentEvent.StepFinished("research"), events[3].first)
            // State is published before each event: the text streamed inside the step is
            // already in the messages flow when the step's end arrives.
            assertEquals("Research step done.", events[3].second)

            conversation.phase.awaitValue { it is RunPhase.Finished }
            conversation.activeSteps.awaitValue { it.isEmpty() }
            stepCollector.cancel()
            assertTrue(listOf("research") in stepValues, "the step was shown as active: $stepValues")
        }
    }

    @Test
    fun `a view that starts mid-step shows the step open, as after a resync`(): Unit = runBlocking {
        // Paced: the step stays open for several 50 ms events, long enough to join inside it.
        Fixtures.runtime.connect(Fixtures.pacedAgent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
            val started = async(Dispatchers.Unconfined, start = CoroutineStart.UNDISPATCHED) {
                conversation.events.first { it is AgentEvent.StepStarted }
            }
            val run = async { conversation.send("show me the steps") }
            withTimeout(WAIT_MS) { started.await() }
            // A second adapter on the same conversation starts from the core's snapshot, as one
            // that fell behind does: the open step must be in it. (Not closed: it shares the
            // native conversation, which the first one closes; on a thread of its own, left open,
            // where its updates end once that happens.)
            val late = AgentConversation.wrap(conversation.native, MainThread().dispatcher)
            assertEquals(listOf("research"), late.activeSteps.awaitValue { it.isNotEmpty() })
            late.activeSteps.awaitValue { it.isEmpty() }
            assertIs<RunPhase.Finished>(run.await().phase)
        }
    }

    @Test
    fun `a LangGraph on_interrupt is answered through the layer and the agent reads the payload`(): Unit = runBlocking {
        connect().use { conversation ->
            val custom = async(Dispatchers.Unconfined, start = CoroutineStart.UNDISPATCHED) {
                conversation.events.first { it is AgentEvent.Custom }
            }
            val summary = conversation.send("legacy approval please")
            assertIs<RunPhase.Interrupted>(summary.phase)
            assertIs<RunPhase.Interrupted>(conversation.phase.awaitValue { it is RunPhase.Interrupted })
            val interrupt = conversation.interrupts.value.single()
            assertEquals("lg-1", interrupt.id, "the id comes from LangGraph's rawEvent")
            assertEquals("Approve?", interrupt.message)

            // Delivered as it came too: the value is JSON text holding JSON text.
            val event = assertIs<AgentEvent.Custom>(withTimeout(WAIT_MS) { custom.await() })
            assertEquals("on_interrupt", event.name)
            assertTrue(event.valueJson.startsWith("\"") && event.valueJson.contains("Approve?"), event.valueJson)
            assertEquals("""{"message":"Approve?"}""", event.value, "typed: the string LangGraph sent")

            conversation.resolveInterrupt(interrupt.id, """{"approved": true}""")
            val next = conversation.continueRun()
            assertIs<RunPhase.Finished>(next.phase)
            // The answer streams in two deltas: wait for the quoted payload, then compare exactly.
            val messages = conversation.messages.awaitValue { it.lastAssistantText().startsWith("Approved: {") }
            assertEquals("""Approved: {"approved":true}""", messages.lastAssistantText())
            assertTrue(conversation.interrupts.value.isEmpty())
        }
    }

    @Test
    fun `text cut short by a cancel is marked incomplete and kept local`(): Unit = runBlocking {
        connect().use { conversation ->
            val warning = async(Dispatchers.Unconfined, start = CoroutineStart.UNDISPATCHED) {
                conversation.warnings.first { it.kind == SessionWarningKind.KEPT_LOCAL }
            }
            val run = async { runCatching { conversation.send("slow please") } }
            conversation.messages.awaitValue { it.lastAssistantText().contains("Slow token 2.") }
            conversation.cancel()
            run.await()

            val messages = conversation.messages.awaitValue { list -> list.any { it.isIncomplete } }
            val cut = messages.single { it.localOnly != null }
            assertEquals(Role.ASSISTANT, cut.role)
            assertEquals(LocalOnly.CANCELLED, cut.localOnly)
            assertTrue(cut.isIncomplete)
            assertTrue(cut.text.contains("Slow token 2."), "the partial text stays visible: ${cut.text}")
            assertTrue(withTimeout(WAIT_MS) { warning.await() }.message.contains(cut.id))
        }
    }
}
