package dev.agentui

import dev.agentui.compose.SurfaceNodes
import dev.agentui.core.a2ui.SurfaceDiff as CoreSurfaceDiff
import dev.agentui.core.SurfaceListener
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.cancel
import kotlinx.coroutines.launch
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.MethodOrderer
import org.junit.jupiter.api.Order
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestMethodOrder
import org.junit.jupiter.api.Timeout
import java.io.File
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertIs
import kotlin.test.assertTrue

/**
 * Issue 10's figures for the Kotlin adapter on the host JVM (run with `-Pbench`; printed, not
 * asserted against a time): the 62,043-event bench run, 1M one-character deltas, and setValue
 * until the renderer's node state shows the value.
 */
@Tag("benchmark")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
// The peak RSS figures come first: the setValue loop's garbage grows the heap, and a JVM keeps
// the pages it grew into, so a run measured after it would carry them.
@TestMethodOrder(MethodOrderer.OrderAnnotation::class)
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

    private fun peakRssMb(): Double =
        File("/proc/self/status").readLines().first { it.startsWith("VmHWM:") }.split(Regex("\\s+"))[1].toDouble() / 1024

    /** Resets VmHWM so the next reading is this measurement's peak (Linux: clear_refs 5). */
    private fun resetPeakRss() {
        runCatching { File("/proc/self/clear_refs").writeText("5") }
    }

    private class Run(val ms: Double, val conversation: AgentConversation, val main: MainThread) : AutoCloseable {
        override fun close() {
            conversation.close()
            main.close()
        }
    }

    /** One send() against [url], timed until it returned; [until] must hold at once after it. */
    private fun timedRun(url: String, threadId: String, until: (AgentConversation) -> Boolean): Run {
        val main = MainThread()
        // A recorded stream answers on its own thread: continue that one.
        val conversation = Fixtures.runtime.connect(url, options = AgentOptions(threadId = threadId), dispatcher = main.dispatcher)
        val t0 = System.nanoTime()
        runBlocking { conversation.send("go") }
        val ms = (System.nanoTime() - t0) / 1e6
        check(until(conversation)) {
            "send() returned before the flows showed the run's end: ${conversation.messages.value.size} messages, ${conversation.phase.value}"
        }
        return Run(ms, conversation, main)
    }

    /** The stream's messages: all but the user message the run was started with. */
    private fun AgentConversation.agentMessages() = messages.value.count { it.role != Role.USER }

    private companion object {
        const val BENCH_THREAD = "thread-bench-0001"

        /** About 5 s of updates: long enough for the JIT to have compiled the whole path. */
        const val WARM_UP_ROUNDS = 30_000
    }

    /** One measured run: its time, the process's peak RSS during it, and the snapshots it took. */
    private class Measured(val ms: Double, val rssMb: Double, val snapshots: Int)

    /**
     * [warmUps] unmeasured runs, then [runs] measured ones, each from a fresh peak RSS. A profile
     * (perf) of a single warm-up showed C1 and C2 still compiling through the measured run, on the
     * same two cores: its figure moved between 450 and 720 ms with the JIT's timing.
     */
    private fun measuredRuns(warmUps: Int, runs: Int, run: () -> Run, check: (AgentConversation) -> Unit): List<Measured> {
        repeat(warmUps) { run().close() }
        return List(runs) {
            System.gc()
            resetPeakRss()
            run().use {
                val rss = peakRssMb()
                check(it.conversation)
                // 1 unless the main thread fell behind and the core resynced it.
                Measured(it.ms, rss, it.conversation.snapshotsApplied)
            }
        }
    }

    private fun report(label: String, events: Int, runs: List<Measured>) {
        val ms = runs.map { it.ms }.sorted()
        val median = ms[ms.size / 2]
        println("BENCH %-60s %8.1f ms median (%.1f-%.1f, %d runs), %.2f us/event, peak RSS (VmHWM) %.0f MB, snapshots %s".format(
            label, median, ms.first(), ms.last(), ms.size, median * 1000 / events, runs.maxOf { it.rssMb }, runs.map { it.snapshots }))
    }

    @Test
    @Order(1)
    fun `the 62,043-event run through the Kotlin layer`() {
        val body = benchFile().readBytes()
        SseServer { it.write(body) }.use { server ->
            val runs = measuredRuns(
                warmUps = 3,
                runs = 5,
                run = { timedRun(server.url, BENCH_THREAD) { it.agentMessages() == 4040 && it.phase.value is RunPhase.Finished } },
                check = {
                    assertEquals(4040, it.agentMessages())
                    assertIs<RunPhase.Finished>(it.phase.value)
                },
            )
            report("62,043-event run -> AgentConversation flows (4,040 messages)", 62_043, runs)
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
                check = { assertEquals(deltas, it.messages.value.last().text!!.length) },
            )
            report("1M one-character deltas -> AgentConversation flows", deltas + 4, runs)
        }
    }

    @Test
    @Order(3)
    fun `setValue until the bound node is in the renderer's node state`() {
        val nodeCount = 1_000
        WideSurfaceAgent(nodeCount).use { agent ->
            MainThread().use { main ->
                Fixtures.runtime.connect(agent.agentUrl, dispatcher = main.dispatcher).use { conversation ->
                    runBlocking { conversation.send("show the wide surface") }
                    // The renderer's state, fed as A2uiSurface feeds it: diffs applied on the main thread.
                    val nodes = SurfaceNodes()
                    val applied = Channel<Unit>(Channel.CONFLATED)
                    val scope = CoroutineScope(main.dispatcher)
                    scope.launch {
                        conversation.surfaceDiffs("wide").collect {
                            nodes.apply(it)
                            applied.trySend(Unit)
                        }
                    }
                    fun shown(id: String) = nodes.node(id)?.prop("text")?.textOrNull
                    runBlocking(main.dispatcher) {
                        withTimeout(WAIT_MS) { while (nodes.size < nodeCount) applied.receive() }
                    }
                    // For the split only: a second, raw listener timestamps each diff where the
                    // core hands it over. It is a thread and a foreign call more per update on the
                    // same two cores, so the headline figures are taken without it.
                    val arrivals = LinkedBlockingQueue<Long>()
                    var round = 0
                    // The loop runs on the main thread, as an app's input handler does: it writes,
                    // then waits there until the diff has been applied to the renderer's state.
                    fun measure(rounds: Int, split: Boolean = false): List<LongArray> = runBlocking(main.dispatcher) {
                        val (written, delivered, total) = List(3) { LongArray(rounds) }
                        // One timeout for the loop: a timeout per update would wake a timer thread each time.
                        withTimeout(WAIT_MS + rounds) { repeat(rounds) { i ->
                            val k = 1 + round % (nodeCount - 1)
                            val text = "v${round++}"
                            val t0 = System.nanoTime()
                            conversation.setValue("wide", "/items/n$k", text)
                            written[i] = System.nanoTime() - t0
                            while (shown("t$k") != text) applied.receive()
                            total[i] = System.nanoTime() - t0
                            if (split) delivered[i] = checkNotNull(arrivals.poll(WAIT_MS, TimeUnit.MILLISECONDS)) - t0
                        } }
                        listOf(written, delivered, total)
                    }
                    fun report(label: String, samples: LongArray) {
                        val sorted = samples.sorted()
                        fun pct(p: Int) = sorted[(sorted.size - 1) * p / 100] / 1e6
                        println("BENCH %-60s %6.3f ms p50, %.3f ms p99, %.3f ms max (%d updates)".format(
                            label, pct(50), pct(99), sorted.last() / 1e6, sorted.size))
                    }
                    // Cold: the first updates after the surface is shown, while the JIT still
                    // compiles the path. Warm: the same loop once it has run for a while, as in
                    // an app that has been in use (the steady state a latency percentile means).
                    val (_, _, coldTotal) = measure(2_000)
                    measure(WARM_UP_ROUNDS)
                    val (_, _, total) = measure(10_000)
                    val raw = conversation.native.addSurfaceListener("wide", object : SurfaceListener {
                        override fun onDiffs(diffs: List<CoreSurfaceDiff>) {
                            val now = System.nanoTime()
                            for (diff in diffs) if (diff is CoreSurfaceDiff.Patch) arrivals.add(now)
                        }
                    })
                    while (arrivals.poll() != null) Unit
                    val (written, delivered, probed) = measure(10_000, split = true)
                    raw.close()
                    scope.cancel()
                    report("setValue -> the one node in SurfaceNodes, cold (first 2,000)", coldTotal)
                    report("setValue -> the one node in SurfaceNodes, warm", total)
                    report("the same with a raw listener timestamping the split", probed)
                    report("  of which: setValue returned (the core's write)", written)
                    report("  of which: the diff reached the raw listener's thread", delivered)
                    assertTrue(total.all { it > 0 } && coldTotal.all { it > 0 } && probed.all { it > 0 })
                }
            }
        }
    }
}
