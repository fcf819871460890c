package dev.agentui.compose

import androidx.compose.material3.MaterialTheme
import androidx.compose.ui.test.ExperimentalTestApi
import androidx.compose.ui.test.runDesktopComposeUiTest
import dev.agentui.Fixtures
import dev.agentui.MainThread
import dev.agentui.WAIT_MS
import dev.agentui.WideSurfaceAgent
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicInteger
import kotlin.test.assertEquals

/**
 * Host-JVM figure for the Compose renderer on a 1,000-node surface (run with `-Pbench`): the
 * first composition. Indicative only (Compose for Desktop's offscreen test scene, not a device).
 * One bound value change is measured by [RecompositionBenchmark]: waiting in this test scene
 * polls its clock, so a loop here measured the poll.
 */
@Tag("benchmark")
@OptIn(ExperimentalTestApi::class)
class RendererBenchmark {
    private val nodeCount = 1_000

    @Test
    fun `1,000-node surface - first composition`() {
        WideSurfaceAgent(nodeCount).use { agent ->
            MainThread().use { main ->
                val conversation = Fixtures.runtime.connect(agent.agentUrl, dispatcher = main.dispatcher)
                conversation.use {
                    runBlocking { conversation.send("show the wide surface") }
                    runDesktopComposeUiTest(width = 800, height = 1200) {
                        waitUntil(timeoutMillis = WAIT_MS) { conversation.surface("wide") != null }
                        val compositions = ConcurrentHashMap<String, AtomicInteger>()
                        val counting = ComponentRegistry.basic().wrapAll { _, renderer ->
                            { scope, modifier ->
                                compositions.getOrPut(scope.node.id) { AtomicInteger() }.incrementAndGet()
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
                    }
                }
            }
        }
    }
}
