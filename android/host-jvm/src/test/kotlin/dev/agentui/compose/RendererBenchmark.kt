package dev.agentui.compose

import androidx.compose.material3.MaterialTheme
import androidx.compose.ui.test.ExperimentalTestApi
import androidx.compose.ui.test.runDesktopComposeUiTest
import dev.agentui.Fixtures
import dev.agentui.MainThread
import dev.agentui.WAIT_MS
import dev.agentui.WideSurfaceAgent
import dev.agentui.textOrNull
import dev.agentui.prop
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicInteger
import kotlin.test.assertEquals

/**
 * Host-JVM figures for the Compose renderer on a 1,000-node surface (run with `-Pbench`):
 * the first composition, and what one bound value change costs on screen. Indicative only
 * (Compose for Desktop's offscreen test scene, not a device).
 */
@Tag("benchmark")
@OptIn(ExperimentalTestApi::class)
class RendererBenchmark {
    private val nodeCount = 1_000

    @Test
    fun `1,000-node surface - first composition and single-node updates`() {
        WideSurfaceAgent(nodeCount).use { agent ->
            MainThread().use { main ->
                val conversation = Fixtures.runtime.connect(agent.agentUrl, dispatcher = main.dispatcher)
                conversation.use {
                    runBlocking { conversation.send("show the wide surface") }
                    runDesktopComposeUiTest(width = 800, height = 1200) {
                        waitUntil(timeoutMillis = WAIT_MS) { "wide" in conversation.surfaces.value }
                        val compositions = ConcurrentHashMap<String, AtomicInteger>()
                        val shown = ConcurrentHashMap<String, String>()
                        val counting = ComponentRegistry.basic().wrapAll { _, renderer ->
                            { scope, modifier ->
                                compositions.getOrPut(scope.node.id) { AtomicInteger() }.incrementAndGet()
                                scope.text("text")?.let { shown[scope.node.id] = it }
                                renderer(scope, modifier)
                            }
                        }
                        val t0 = System.nanoTime()
                        setContent { MaterialTheme { A2uiSurface(conversation, "wide", components = counting) } }
                        waitUntil(timeoutMillis = WAIT_MS) { compositions.size == nodeCount }
                        waitForIdle()
                        val first = System.nanoTime() - t0
                        assertEquals(nodeCount, compositions.size)
                        println("BENCH %-58s %8.2f ms".format("Compose: first composition + layout + draw, 1,000 nodes (cold JVM)", first / 1e6))

                        // One at a time: write, then wait until that node shows the value.
                        val rounds = 300
                        compositions.clear()
                        val latencies = LongArray(rounds) { i ->
                            val id = "t${1 + i % (nodeCount - 1)}"
                            val started = System.nanoTime()
                            conversation.setValue("wide", "/items/n${1 + i % (nodeCount - 1)}", "v$i")
                            waitUntil(timeoutMillis = WAIT_MS) { shown[id] == "v$i" }
                            System.nanoTime() - started
                        }.drop(50).sorted()
                        val recomposed = compositions.values.sumOf { it.get() }
                        assertEquals(rounds, recomposed, "each update recomposed exactly one node")
                        assertEquals(null, compositions["root"], "the 1,000-child column was never recomposed")
                        println("BENCH %-58s %8.2f ms p50, %.2f ms p90 (%d updates, %d node recompositions)".format(
                            "Compose: setValue -> the one node recomposed", latencies[latencies.size / 2] / 1e6,
                            latencies[latencies.size * 9 / 10] / 1e6, rounds, recomposed))
                    }
                }
            }
        }
    }
}
