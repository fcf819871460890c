package dev.agentui

import dev.agentui.core.NodeValue
import dev.agentui.core.SurfaceDiffRecord
import dev.agentui.core.SurfaceListener
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Semaphore
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicLong
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * Host-JVM figures for the bindings (run with `-Pbench`). Not a JMH harness: plain loops after
 * a warm-up, medians printed, so the numbers are indicative (±10-20 % between runs on a shared
 * 2-core machine), not publication grade.
 */
@Tag("benchmark")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BindingsBenchmark {
    private val nodes = 1_000
    private lateinit var agent: WideSurfaceAgent
    private lateinit var main: MainThread
    private lateinit var conversation: AgentConversation

    @BeforeAll
    fun setUp(): Unit = runBlocking {
        agent = WideSurfaceAgent(nodes)
        main = MainThread()
        conversation = Fixtures.runtime.connect(agent.agentUrl, dispatcher = main.dispatcher)
        val started = System.nanoTime()
        conversation.send("show the wide surface")
        conversation.surfaces.awaitValue { (it["wide"]?.nodes?.size ?: 0) == nodes }
        report("end to end: HTTP + SSE + A2UI resolve + FFI + Kotlin state, 1,000-node surface", System.nanoTime() - started, 1)
    }

    @AfterAll
    fun tearDown() {
        conversation.close()
        main.close()
        agent.close()
    }

    @Test
    fun `per-call overhead of simple FFI calls`() {
        val native = conversation.native
        fun measure(label: String, calls: Int, call: () -> Any?) {
            repeat(calls / 5) { call() }
            val times = LongArray(5) {
                val t0 = System.nanoTime()
                repeat(calls) { call() }
                System.nanoTime() - t0
            }
            times.sort()
            println("BENCH %-58s %8.0f ns/call (median of 5 x %,d calls)".format(label, times[2].toDouble() / calls, calls))
        }
        measure("Conversation.threadId() -> String", 20_000) { native.threadId() }
        measure("Conversation.status() -> RunStatus (sealed class)", 20_000) { native.status() }
        measure("Conversation.surfaceIds() -> List<String>", 20_000) { native.surfaceIds() }
        measure("Conversation.surface(id) + close() (object round trip)", 20_000) { native.surface("wide")!!.close() }
        native.surface("wide")!!.use { surface ->
            measure("Surface.node(id) -> ResolvedNodeRecord", 20_000) { surface.node("t5") }
        }
    }

    @Test
    fun `1,000-node reset delivered to a Kotlin listener`() {
        conversation.native.surface("wide")!!.use { surface ->
            val rounds = 40
            val times = LongArray(rounds) {
                val latch = CountDownLatch(1)
                val received = AtomicLong()
                val t0 = System.nanoTime()
                val handle = surface.subscribe(object : SurfaceListener {
                    override fun onDiff(diff: SurfaceDiffRecord) {
                        if (diff is SurfaceDiffRecord.Reset) {
                            received.set(diff.nodes.size.toLong())
                            latch.countDown()
                        }
                    }
                })
                assertTrue(latch.await(10, TimeUnit.SECONDS))
                val elapsed = System.nanoTime() - t0
                handle.close()
                assertEquals(nodes.toLong(), received.get())
                elapsed
            }
            val measured = times.drop(10).sorted()
            report("reset of 1,000 nodes: subscribe() -> Reset in Kotlin listener", measured[measured.size / 2], nodes)
            println("BENCH   (min %.2f ms, max %.2f ms over %d rounds after 10 warm-up)".format(
                measured.first() / 1e6, measured.last() / 1e6, measured.size))

            val snapshotTimes = LongArray(30) {
                val t0 = System.nanoTime()
                val snap = surface.snapshot()
                check((snap as SurfaceDiffRecord.Reset).nodes.size == nodes)
                System.nanoTime() - t0
            }.drop(10).sorted()
            report("Surface.snapshot(): 1,000 nodes lifted synchronously", snapshotTimes[snapshotTimes.size / 2], nodes)
        }
    }

    @Test
    fun `single-node updates delivered to a Kotlin listener`() {
        conversation.native.surface("wide")!!.use { surface ->
            val patches = Semaphore(0)
            val upserted = AtomicLong()
            val reset = CountDownLatch(1)
            val handle = surface.subscribe(object : SurfaceListener {
                override fun onDiff(diff: SurfaceDiffRecord) {
                    when (diff) {
                        is SurfaceDiffRecord.Reset -> reset.countDown()
                        is SurfaceDiffRecord.Patch -> {
                            upserted.addAndGet(diff.upserted.size.toLong())
                            patches.release()
                        }
                    }
                }
            })
            assertTrue(reset.await(10, TimeUnit.SECONDS))

            // Latency: setValue, then wait for its one-node patch, one at a time.
            val rounds = 2_000
            val latencies = LongArray(rounds) { i ->
                val t0 = System.nanoTime()
                surface.setValue("/items/n${1 + i % (nodes - 1)}", NodeValue.Text("latency $i"))
                check(patches.tryAcquire(10, TimeUnit.SECONDS))
                System.nanoTime() - t0
            }.drop(200).sorted()
            val p50 = latencies[latencies.size / 2]
            val p99 = latencies[latencies.size * 99 / 100]
            println("BENCH %-58s %8.1f us p50, %.1f us p99 (%,d updates)".format(
                "single-node update: setValue -> Patch in Kotlin listener", p50 / 1e3, p99 / 1e3, latencies.size))

            // Throughput: fire all, then wait for every patch.
            upserted.set(0)
            val burst = 10_000
            val t0 = System.nanoTime()
            for (i in 0 until burst) surface.setValue("/items/n${1 + i % (nodes - 1)}", NodeValue.Text("burst $i"))
            check(patches.tryAcquire(burst, 30, TimeUnit.SECONDS))
            val elapsed = System.nanoTime() - t0
            assertEquals(burst.toLong(), upserted.get(), "each setValue changes exactly one bound node")
            println("BENCH %-58s %,10.0f updates/s (%,d one-node patches in %.1f ms)".format(
                "single-node updates, burst", burst / (elapsed / 1e9), burst, elapsed / 1e6))
            handle.close()
        }

        // The same through AgentConversation: the surfaces StateFlow on the "main thread".
        runBlocking {
            val rounds = 500
            val t0 = System.nanoTime()
            for (i in 0 until rounds) {
                conversation.setValue("wide", "/items/n7", "flow $i")
                conversation.surfaces.awaitValue { it["wide"]?.node("t7")?.prop("text")?.textOrNull == "flow $i" }
            }
            val elapsed = System.nanoTime() - t0
            println("BENCH %-58s %8.1f us/update (%,d updates, includes the copy of the 1,000-node map)".format(
                "single-node update -> AgentConversation.surfaces StateFlow", elapsed / 1e3 / rounds, rounds))
        }
    }

    private fun report(label: String, nanos: Long, nodeCount: Int) {
        println("BENCH %-58s %8.2f ms  %,12.0f nodes/s".format(label, nanos / 1e6, nodeCount / (nanos / 1e9)))
    }
}
