package dev.agentui

import dev.agentui.core.demo.startDemoAgentWith
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.io.TempDir
import java.io.File
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import kotlin.concurrent.thread
import kotlin.test.assertEquals
import kotlin.test.assertIs
import kotlin.test.assertNotNull
import kotlin.test.assertTrue

/**
 * Process death as Android does it, as far as a host allows: a separate JVM streams a
 * conversation into a store file and is killed with SIGKILL mid-stream (no shutdown hook, no
 * finaliser, no close runs); this JVM then restores it.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ProcessDeathTest {
    @TempDir
    lateinit var dir: File
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    @Test
    fun `a conversation killed with SIGKILL mid-stream comes back abandoned in another process`(): Unit = runBlocking {
        val file = File(dir, "killed.db")
        val output = LinkedBlockingQueue<String>()
        val child = ProcessBuilder(
            File(System.getProperty("java.home"), "bin/java").path,
            "-Xmx256m",
            "-Djna.library.path=${System.getProperty("jna.library.path")}",
            "-cp",
            // Surefire runs the tests from a manifest-only jar; this is the real class path.
            System.getProperty("surefire.test.class.path") ?: System.getProperty("java.class.path"),
            StoreWriterProcess::class.java.name,
            file.path,
            "killed",
        ).redirectErrorStream(true).start()
        val printed = try {
            thread(isDaemon = true) { child.inputStream.bufferedReader().forEachLine(output::put) }
            val seen = StringBuilder()
            var line: String?
            do {
                line = output.poll(45, TimeUnit.SECONDS)
                line?.let { seen.appendLine(it) }
            } while (line != null && !line.startsWith(StoreWriterProcess.STREAMING))
            assertNotNull(line, "the child never streamed:\n$seen").removePrefix(StoreWriterProcess.STREAMING)
        } finally {
            // SIGKILL on Unix: the process gets no chance to close or flush anything.
            child.destroyForcibly()
        }
        assertTrue(child.waitFor(20, TimeUnit.SECONDS))
        assertEquals(137, child.exitValue(), "128 + SIGKILL")

        AgentRuntime(file).use { runtime ->
            // The list shows the phase as written; opening it is what marks the run abandoned.
            assertIs<RunPhase.Running>(runtime.conversations().conversations.single().phase)
            runtime.resume("killed", Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { restored ->
                val phase = restored.phase.awaitValue { it !is RunPhase.Idle }
                assertIs<RunPhase.Abandoned>(phase)
                val messages = restored.messages.value
                assertEquals(listOf(Role.USER, Role.ASSISTANT), messages.map { it.role })
                assertEquals("slow", messages[0].text)
                // What the store committed and what the child's UI showed when it reported are
                // the same stream cut at two nearby points.
                val text = messages.lastAssistantText()
                assertTrue(text.startsWith("Slow token 1."), text)
                assertTrue(text.startsWith(printed) || printed.startsWith(text), "restored '$text', shown '$printed'")
                assertTrue(restored.pendingSends.value.isEmpty(), "the agent had taken the message")
                // The user carries on.
                assertIs<RunPhase.Finished>(restored.send("hello").phase)
            }
        }
    }

    @Test
    fun `a consent request asked before SIGKILL is asked again in another process and runs only when allowed`(): Unit = runBlocking {
        val file = File(dir, "consent-killed.db")
        val output = LinkedBlockingQueue<String>()
        val child = ProcessBuilder(
            File(System.getProperty("java.home"), "bin/java").path,
            "-Xmx256m",
            "-Djna.library.path=${System.getProperty("jna.library.path")}",
            "-cp",
            System.getProperty("surefire.test.class.path") ?: System.getProperty("java.class.path"),
            StoreWriterProcess::class.java.name,
            file.path,
            "consent-killed",
            "consent",
        ).redirectErrorStream(true).start()
        val asked = try {
            thread(isDaemon = true) { child.inputStream.bufferedReader().forEachLine(output::put) }
            val seen = StringBuilder()
            var line: String?
            do {
                line = output.poll(45, TimeUnit.SECONDS)
                line?.let { seen.appendLine(it) }
            } while (line != null && !line.startsWith(StoreWriterProcess.ASKED))
            assertNotNull(line, "the child never asked:\n$seen").removePrefix(StoreWriterProcess.ASKED)
        } finally {
            child.destroyForcibly()
        }
        assertTrue(child.waitFor(20, TimeUnit.SECONDS))
        assertEquals(137, child.exitValue(), "128 + SIGKILL")

        AgentRuntime(file).use { runtime ->
            runtime.resume("consent-killed", Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { restored ->
                val request = restored.consentRequests.awaitValue { it.isNotEmpty() }.single()
                assertEquals(asked, request.toolCallId)
                assertEquals(ToolCallPhase.AwaitingConsent, restored.toolCall(asked)?.phase)
                restored.timeline.awaitValue { rows -> rows.any { it.kind == TimelineItemKind.ConsentRequest(request) } }
                val runs = java.util.concurrent.atomic.AtomicInteger()
                restored.registerTool("get_location", "The user's current city", "{\"type\":\"object\"}", consent = Consent.ASK) {
                    runs.incrementAndGet()
                    "Coimbra"
                }
                assertEquals(0, runs.get(), "restoring runs nothing")
                assertNotNull(restored.answerConsent(asked, ConsentAnswer.ALLOW_ONCE))
                assertEquals(1, runs.get())
                assertTrue(restored.messages.value.assistantTexts().contains("Coimbra"), restored.messages.value.assistantTexts())
                assertTrue(restored.timeline.value.none { it.kind is TimelineItemKind.ConsentRequest })
            }
        }
    }
}

/** The child JVM of [ProcessDeathTest]: streams the slow scenario into a store file until killed. */
object StoreWriterProcess {
    const val STREAMING = "STREAMING "
    const val ASKED = "ASKED "

    @JvmStatic
    fun main(args: Array<String>) {
        NativeThreads.install()
        val (path, threadId) = args
        // In this process, so it dies with it.
        val agent = startDemoAgentWith(0uL, 100uL)
        val ui = MainThread()
        val runtime = AgentRuntime(File(path))
        val conversation = runtime.connect(agent.agentUrl(), options = AgentOptions { this.threadId = threadId }, dispatcher = ui.dispatcher)
        if (args.getOrNull(2) == "consent") {
            // A call of an ASK tool put to the user, who never answers before the kill.
            conversation.registerTool("get_location", "The user's current city", "{\"type\":\"object\"}", consent = Consent.ASK) {
                error("never runs in this process")
            }
            runBlocking { conversation.send("where am I? use my location") }
            val asked = conversation.consentRequests.value.single()
            // What the store holds is written on its own thread: give it a moment before the report.
            Thread.sleep(1_000)
            println(ASKED + asked.toolCallId)
            System.out.flush()
            Thread.sleep(120_000)
            return
        }
        conversation.sendAsync("slow")
        val shown = runBlocking { conversation.messages.awaitValue { it.lastAssistantText().contains("Slow token 3.") } }
        println(STREAMING + shown.lastAssistantText())
        System.out.flush()
        Thread.sleep(120_000)
    }
}
