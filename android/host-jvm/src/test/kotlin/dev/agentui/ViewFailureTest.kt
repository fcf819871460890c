package dev.agentui

import dev.agentui.core.ConversationException
import dev.agentui.core.adapterCaseBatches
import dev.agentui.core.failNextViewBatchForTests
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.test.StandardTestDispatcher
import kotlinx.coroutines.test.TestCoroutineScheduler
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.Timeout
import java.lang.management.ManagementFactory
import java.net.ServerSocket
import java.util.Collections
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertIs
import kotlin.test.assertTrue

/**
 * How the layer's flows take failures: an internal error of the core while they are updated,
 * a call that fails, and what a long stream costs them. Swift: ViewFailureTests.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ViewFailureTest {
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    @Test
    fun `an internal error of the view fails the phase with a warning and releases the caller, never the app`(): Unit =
        runBlocking {
            // What an exception the apply coroutine let through would reach: on Android, the crash.
            val uncaught = Collections.synchronizedList(mutableListOf<Throwable>())
            withContext(main.dispatcher) { Thread.currentThread().setUncaughtExceptionHandler { _, e -> uncaught += e } }
            Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
                val warnings = Collections.synchronizedList(mutableListOf<SessionWarning>())
                val collector = launch(Dispatchers.Unconfined) { conversation.warnings.collect { warnings += it } }
                withTimeout(WAIT_MS) { while (conversation.snapshotsApplied < 1) delay(5) }
                // The core's next batch for this conversation is an internal error; the run goes on.
                failNextViewBatchForTests(conversation.threadId)
                val sent = withTimeout(WAIT_MS) { runCatching { conversation.send("hello") } }
                assertTrue(sent.isSuccess, "the run itself succeeded: $sent")
                val phase = conversation.phase.value
                assertIs<RunPhase.Failed>(phase)
                assertTrue(phase.error.startsWith(AgentConversation.VIEW_FAILED_PREFIX), phase.error)
                assertTrue(phase.error.contains("panicked"), phase.error)
                withTimeout(WAIT_MS) { while (warnings.none { it.kind == SessionWarningKind.VIEW_FAILED }) delay(5) }
                assertEquals(phase.error, warnings.single { it.kind == SessionWarningKind.VIEW_FAILED }.message)
                // Terminal: later calls return without waiting for flows that no longer change.
                withTimeout(WAIT_MS) { conversation.send("hello again") }
                assertEquals(phase, conversation.phase.value)
                collector.cancel()
            }
            withContext(main.dispatcher) { } // whatever the dispatcher thread still had to run
            assertEquals(emptyList(), uncaught.toList(), "nothing reached the thread's handler")
        }

    @Test
    fun `a failed send throws once the flows show the failure and the message that waits`(): Unit = runBlocking {
        // A "main thread" that runs only when told: what it shows when send throws is what the
        // layer waited for, never what it happened to apply meanwhile.
        val scheduler = TestCoroutineScheduler()
        val testMain = StandardTestDispatcher(scheduler, "test-main")
        val unreachable = ServerSocket(0).use { "http://127.0.0.1:${it.localPort}/agent" }
        Fixtures.runtime.connect(unreachable, dispatcher = testMain).use { conversation ->
            val caught = async(Dispatchers.Default) {
                try {
                    conversation.send("hello")
                    null
                } catch (failure: ConversationException) {
                    // Read where the app's catch reads them.
                    Triple(failure, conversation.phase.value, conversation.pendingSends.value)
                }
            }
            val deadline = System.nanoTime() + WAIT_MS * 1_000_000
            while (!caught.isCompleted) {
                assertTrue(System.nanoTime() < deadline, "send never returned")
                Thread.sleep(5)
                scheduler.advanceUntilIdle()
            }
            val (error, phase, pending) = caught.await() ?: error("the send to a closed port succeeded")
            assertIs<ConversationException.Network>(error)
            assertIs<RunPhase.Failed>(phase, "the phase shown as the error is caught")
            assertEquals(1, pending.size, "the message waits for the agent: $pending")
            assertEquals(1, pending.single().attempts, "its failed attempt is counted: $pending")
        }
    }

    @Test
    fun `streamed pieces of one batch are copied into their message once, not once a piece`(): Unit = runBlocking {
        // Two messages stream at once, their pieces interleaved in one batch (the core joins only
        // pieces in a row). Appending each piece to the message's text would copy the text per
        // piece: 2 x 2,000 pieces of 50 characters allocate about 200 MB that way.
        val pieces = 2_000
        val piece = "0123456789".repeat(5)
        val deltas = (0 until pieces).flatMap {
            listOf("a1", "a2").map { id -> """{"TextAppended": {"message_id": "$id", "delta": "$piece"}}""" }
        }
        val case = """{"deltas": [
            {"MessageAdded": {"id": "a1", "role": "assistant", "content": ""}},
            {"MessageAdded": {"id": "a2", "role": "assistant", "content": ""}},
            ${deltas.joinToString(",\n")}
        ]}"""
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher, options = AgentOptions { chatMarkdown = false }).use {
                conversation ->
            withTimeout(WAIT_MS) { while (conversation.snapshotsApplied < 1) delay(5) }
            val batches = adapterCaseBatches(case)
            val appends = batches.flatMap { it.messages }.count { it is dev.agentui.core.runtime.MessageDiff.AppendText }
            assertTrue(appends >= 2 * pieces - 2, "the batch holds the pieces apart: $appends appends")
            val threads = ManagementFactory.getThreadMXBean() as com.sun.management.ThreadMXBean
            val allocated = withContext(main.dispatcher) {
                val thread = Thread.currentThread().id
                val before = threads.getThreadAllocatedBytes(thread)
                batches.forEach(conversation::apply)
                threads.getThreadAllocatedBytes(thread) - before
            }
            val texts = conversation.messages.value.map { it.text }
            assertEquals(listOf(piece.repeat(pieces), piece.repeat(pieces)), texts)
            // Linear: the pieces' builders and one copy of each text (2 x 100,000 characters), a
            // few times over for the builders' growth; per piece it would be 1,000 times this.
            val textBytes = 2L * pieces * piece.length
            println("applying ${2 * pieces} interleaved pieces ($textBytes bytes of text) allocated $allocated bytes")
            assertTrue(allocated < 10 * textBytes, "applying allocated $allocated bytes for $textBytes of text")
        }
    }
}
