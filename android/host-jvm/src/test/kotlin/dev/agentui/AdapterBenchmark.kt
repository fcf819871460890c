package dev.agentui

import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.MethodOrderer
import org.junit.jupiter.api.Order
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.api.TestMethodOrder
import org.junit.jupiter.api.Timeout
import java.io.File
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertIs

/**
 * Issue 10's figures for the Kotlin adapter on the host JVM (run with `-Pbench`; printed, not
 * asserted against a time): the 62,043-event bench run and 1M one-character deltas.
 * [SetValueBenchmark] has the third. The 62k case also times the runtime alone in this JVM,
 * before each measured run (issue 23's ratio): 10 warm-up pairs, then 9 measured ones.
 *
 * Chat Markdown is on, as an app gets it; `-Dagentui.bench.markdown=off` runs the same with it
 * off (issue 25 compares the two, each in its own JVM so the peak RSS is its own).
 */
@Tag("benchmark")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
// The 62k run first: the 1M run grows the heap, and a JVM keeps the pages it grew into, so a
// peak RSS read after it would carry them.
@TestMethodOrder(MethodOrderer.OrderAnnotation::class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdapterBenchmark {
    private fun benchFile(): File {
        // The workloads sit beside the repository: ../shared/bench from its root.
        var dir: File? = File("").absoluteFile
        while (dir != null) {
            val candidate = File(dir, "../shared/bench/agui-stream-n2000.sse")
            if (File(dir, "Cargo.toml").exists() && candidate.exists()) return candidate.canonicalFile
            dir = dir.parentFile
        }
        error("../shared/bench/agui-stream-n2000.sse not found above ${File("").absolutePath}")
    }

    private fun statusMb(field: String): Double =
        File("/proc/self/status").readLines().first { it.startsWith("$field:") }.split(Regex("\\s+"))[1].toDouble() / 1024

    private fun peakRssMb(): Double = statusMb("VmHWM")

    /** The process's resident memory now (`VmRSS`). */
    private fun rssMb(): Double = statusMb("VmRSS")

    /** Where the resident memory is: the Java heap and the JVM's own (code, classes) as committed. */
    private fun jvmCommitted(): String {
        val memory = java.lang.management.ManagementFactory.getMemoryMXBean()
        val mb = 1024.0 * 1024.0
        return "heap committed %.0f MB, JVM non-heap committed %.0f MB".format(
            memory.heapMemoryUsage.committed / mb, memory.nonHeapMemoryUsage.committed / mb)
    }

    /** Resets VmHWM so the next reading is this measurement's peak (Linux: clear_refs 5). */
    private fun resetPeakRss() {
        runCatching { File("/proc/self/clear_refs").writeText("5") }
    }

    private class Run(val ms: Double, val conversation: AgentConversation) : AutoCloseable {
        override fun close() = conversation.close()
    }

    /**
     * One main thread for every run of a case, as an app has one: a thread per run made each
     * run's native allocations start in another glibc arena, and the process's RSS crept up by
     * 2 MB a run with them (178 to 236 MB over 30 runs, against 172 to 180 MB with one thread).
     */
    private val main = MainThread()

    @AfterAll
    fun closeMain() = main.close()

    /** One send() against [url], timed until it returned; [until] must hold at once after it. */
    private fun timedRun(url: String, threadId: String, until: (AgentConversation) -> Boolean): Run {
        // A recorded stream answers on its own thread: continue that one.
        val conversation = Fixtures.runtime.connect(url, options = AgentOptions { this.threadId = threadId; chatMarkdown = MARKDOWN }, dispatcher = main.dispatcher)
        val t0 = System.nanoTime()
        runBlocking { conversation.send("go") }
        val ms = (System.nanoTime() - t0) / 1e6
        check(until(conversation)) {
            "send() returned before the flows showed the run's end: ${conversation.messages.value.size} messages, ${conversation.phase.value}"
        }
        return Run(ms, conversation)
    }

    /** The stream's messages: all but the user message the run was started with. */
    private fun AgentConversation.agentMessages() = messages.value.count { it.role != Role.USER }

    private companion object {
        const val BENCH_THREAD = "thread-bench-0001"
        val MARKDOWN = System.getProperty("agentui.bench.markdown", "on") != "off"
        val MARKDOWN_LABEL = if (MARKDOWN) "Markdown on" else "Markdown off"
    }

    /**
     * One measured run: its time, the process's peak RSS during it, the Java heap still live
     * after it (collected, the conversation still open: what the flows hold), and the snapshots
     * it took.
     */
    private class Measured(val ms: Double, val rssMb: Double, val startRssMb: Double, val liveHeapMb: Double, val snapshots: Int)

    private fun liveHeapMb(): Double {
        System.gc()
        val runtime = Runtime.getRuntime()
        return (runtime.totalMemory() - runtime.freeMemory()) / (1024.0 * 1024.0)
    }

    /**
     * [warmUps] unmeasured runs, then [runs] measured ones, each from a fresh peak RSS. A profile
     * (perf) of a single warm-up showed C1 and C2 still compiling through the measured run, on the
     * same two cores: its figure moved between 450 and 720 ms with the JIT's timing.
     */
    private fun measuredRuns(
        warmUps: Int,
        runs: Int,
        run: () -> Run,
        check: (AgentConversation) -> Unit,
        // Run before each one, outside its peak RSS: the same work without the Kotlin layer, so
        // the two are timed side by side, under the same load.
        before: () -> Unit = {},
    ): List<Measured> {
        // What the JVM (JUnit, Kotlin, JNA, the loaded library) holds before this case runs.
        System.gc()
        println("BENCH RSS before the warm-ups: %.0f MB (%s)".format(rssMb(), jvmCommitted()))
        repeat(warmUps) {
            before()
            run().close()
        }
        System.gc()
        println("BENCH RSS after the warm-ups: %.0f MB (%s)".format(rssMb(), jvmCommitted()))
        return List(runs) {
            before()
            System.gc()
            resetPeakRss()
            val startRss = rssMb()
            run().use {
                val rss = peakRssMb()
                check(it.conversation)
                // 1 unless the main thread fell behind and the core resynced it.
                Measured(it.ms, rss, startRss, liveHeapMb(), it.conversation.snapshotsApplied)
            }
        }
    }

    /**
     * One send() against [url] through the runtime alone, in this JVM: the generated object
     * without [AgentConversation], so no view is subscribed and nothing crosses but the call and
     * its summary. Returns its time; the messages are counted after it.
     */
    private fun runtimeAloneMs(url: String, threadId: String): Double {
        val options = AgentOptions { this.threadId = threadId; chatMarkdown = MARKDOWN }.toNative()
        return Fixtures.runtime.native.connect(url, emptyList(), options).use { conversation ->
            val t0 = System.nanoTime()
            val summary = runBlocking { conversation.sendMessage("go") }
            val ms = (System.nanoTime() - t0) / 1e6
            assertIs<dev.agentui.core.runtime.RunPhase.Finished>(summary.phase)
            assertEquals(4040, conversation.snapshot().messages.count { it.role != dev.agentui.core.agui.Role.USER })
            ms
        }
    }

    private fun report(label: String, events: Int, runs: List<Measured>) {
        val ms = runs.map { it.ms }.sorted()
        val median = ms[ms.size / 2]
        println("BENCH %-60s %8.1f ms median (%.1f-%.1f, %d runs), %.2f us/event, peak RSS (VmHWM) %.0f MB (%.0f MB at the run's start), live heap after %.0f MB, snapshots %s (JVM: %s)".format(
            label, median, ms.first(), ms.last(), ms.size, median * 1000 / events, runs.maxOf { it.rssMb },
            runs.minOf { it.startRssMb }, runs.maxOf { it.liveHeapMb }, runs.map { it.snapshots },
            java.lang.management.ManagementFactory.getRuntimeMXBean().inputArguments.filter { it.startsWith("-Xm") }))
    }

    @Test
    @Order(1)
    fun `the 62,043-event run through the Kotlin layer`() {
        val body = benchFile().readBytes()
        SseServer { it.write(body) }.use { server ->
            val alone = ArrayList<Double>()
            val runs = measuredRuns(
                warmUps = 10,
                runs = 9,
                run = { timedRun(server.url, BENCH_THREAD) { it.agentMessages() == 4040 && it.phase.value is RunPhase.Finished } },
                check = {
                    assertEquals(4040, it.agentMessages())
                    assertIs<RunPhase.Finished>(it.phase.value)
                    // The run reached the timeline too: a row per agent message with something to show.
                    val shown = it.messages.value.count { m -> m.role == Role.ASSISTANT && (m.text.isNotEmpty() || m.error != null || m.media.isNotEmpty()) }
                    assertEquals(shown, it.timeline.value.count { row -> row.kind is TimelineItemKind.AgentMessage })
                },
                before = { alone += runtimeAloneMs(server.url, BENCH_THREAD) },
            )
            report("62,043-event run -> AgentConversation flows (4,040 messages), $MARKDOWN_LABEL", 62_043, runs)
            // The measured rounds only (the warm-ups' come first). Each pair ran back to back, so
            // its ratio is the least disturbed by what else the machine did.
            val aloneRuns = alone.takeLast(runs.size)
            val ratios = aloneRuns.zip(runs) { a, f -> f.ms / a }.sorted()
            val aloneMs = aloneRuns.sorted()
            println("BENCH %-60s %8.1f ms median (%.1f-%.1f, %d runs); the flows take %.2fx its median, %.2fx as the median of the pairs (%.2f-%.2f)".format(
                "62,043-event run -> the runtime alone, same JVM, side by side", aloneMs[aloneMs.size / 2],
                aloneMs.first(), aloneMs.last(), aloneMs.size, runs.map { it.ms }.sorted()[runs.size / 2] / aloneMs[aloneMs.size / 2],
                ratios[ratios.size / 2], ratios.first(), ratios.last()))
        }
    }

    @Test
    @Order(2)
    fun `1M one-character text deltas through the Kotlin layer`() {
        val deltas = 1_000_000
        SseServer.oneLongMessage(deltas).use { server ->
            val runs = measuredRuns(
                warmUps = 1,
                runs = 3,
                run = { timedRun(server.url, "t") { it.messages.value.lastOrNull()?.text?.length == deltas } },
                check = { assertEquals(deltas, it.messages.value.last().text.length) },
            )
            report("1M one-character deltas -> AgentConversation flows, $MARKDOWN_LABEL", deltas + 4, runs)
        }
    }
}
