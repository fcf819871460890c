package dev.agentui

import dev.agentui.compose.SurfaceNodes
import dev.agentui.core.a2ui.SurfaceDiff as CoreSurfaceDiff
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.cancel
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.io.File
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import kotlin.test.assertTrue

/**
 * Issue 10's setValue figure on the host JVM (run with `-Pbench`; printed, not asserted against
 * a time): a write until the renderer's node state shows it. A class of its own, so that with
 * `-Pbench` it gets a JVM of its own: the 1M-delta run leaves millions of JNA memory objects for
 * the cleaner, and an update loop measured while they drain measures that backlog.
 */
@Tag("benchmark")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class SetValueBenchmark {
    @Test
    fun `setValue until the bound node is in the renderer's node state`() = measureSetValue(Fixtures.runtime, "", split = true)

    /**
     * The same with the conversation kept in a store: the write only notes the surface, and the
     * store's own thread exports and writes it, so neither the calling thread nor the node waits
     * for the disk.
     */
    @Test
    fun `setValue with a store until the bound node is in the renderer's node state`() {
        val storeFile = File.createTempFile("agentui-setvalue", ".db").also { it.delete() }
        try {
            AgentRuntime(storeFile).use { measureSetValue(it, " (store on)", split = false) }
        } finally {
            listOf("", "-wal", "-shm").forEach { File(storeFile.path + it).delete() }
        }
    }

    private fun measureSetValue(runtime: AgentRuntime, variant: String, split: Boolean) {
        val nodeCount = 1_000
        WideSurfaceAgent(nodeCount).use { agent ->
            MainThread().use { main ->
                runtime.connect(agent.agentUrl, dispatcher = main.dispatcher).use { conversation ->
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
                    // Cold: the first updates after the surface is shown, while the JIT still
                    // compiles the path. Warm: the same loop once it has run for a while, as in
                    // an app that has been in use (the steady state a latency percentile means).
                    val (_, _, coldTotal) = measure(2_000)
                    measure(WARM_UP_ROUNDS)
                    val (warmWritten, _, total) = measure(10_000)
                    printLatencies("setValue$variant -> the one node in SurfaceNodes, cold (first 2,000)", coldTotal)
                    printLatencies("setValue$variant -> the one node in SurfaceNodes, warm", total)
                    printLatencies("  of which: setValue$variant returned (the calling thread)", warmWritten)
                    assertTrue(total.all { it > 0 } && coldTotal.all { it > 0 } && warmWritten.all { it > 0 })
                    if (!split) {
                        scope.cancel()
                        return@use
                    }
                    // A raw pulled feed beside the renderer's, timestamping when each patch is read.
                    val feed = conversation.native.surfaceFeed("wide")
                    val raw = scope.launch(kotlinx.coroutines.Dispatchers.Default) {
                        while (true) {
                            val diffs = feed.nextDiffs() ?: break
                            val now = System.nanoTime()
                            for (diff in diffs) if (diff is CoreSurfaceDiff.Patch) arrivals.add(now)
                        }
                    }
                    while (arrivals.poll() != null) Unit
                    val (written, delivered, probed) = measure(10_000, split = true)
                    raw.cancel()
                    feed.unsubscribe()
                    scope.cancel()
                    printLatencies("the same with a raw listener timestamping the split", probed)
                    printLatencies("  of which: setValue returned (the core's write)", written)
                    printLatencies("  of which: the diff reached the raw listener's thread", delivered)
                    assertTrue(probed.all { it > 0 })
                }
            }
        }
    }

    private companion object {
        /** About 5 s of updates: long enough for the JIT to have compiled the whole path. */
        const val WARM_UP_ROUNDS = 30_000
    }
}
