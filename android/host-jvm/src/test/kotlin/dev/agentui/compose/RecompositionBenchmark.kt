package dev.agentui.compose

import androidx.compose.material3.MaterialTheme
import androidx.compose.runtime.snapshots.Snapshot
import androidx.compose.ui.ImageComposeScene
import androidx.compose.ui.unit.Density
import dev.agentui.Fixtures
import dev.agentui.MainThread
import dev.agentui.WAIT_MS
import dev.agentui.WideSurfaceAgent
import dev.agentui.printLatencies
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals

/**
 * Issue 10's setValue figure to its end point (run with `-Pbench`; printed, not asserted against
 * a time): a write until the Compose composable of the one bound node has recomposed with the new
 * value, rendered by `A2uiSurface` from a [SurfaceNodes] that the surface's diffs update on the
 * main thread. The scene is driven by hand on that thread, a frame as soon as it has
 * invalidations, so the figure leaves out the wait for the next vsync (up to a frame on a device)
 * that no library controls. The clock stops inside the node's composition; the layout and draw of
 * that frame come after it and are not counted.
 *
 * The diffs are collected here rather than inside `A2uiSurface(conversation, …)`: that overload
 * collects in the composition's coroutine context, which `ImageComposeScene` runs only when it
 * renders, so each update would cost a frame to apply the diff and a second one to show it. On a
 * device the composition's context is the main thread's dispatcher, as the collector here.
 */
@Tag("benchmark")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class RecompositionBenchmark {
    @Test
    fun `setValue until the one node is recomposed`() {
        val nodeCount = 1_000
        WideSurfaceAgent(nodeCount).use { agent ->
            MainThread().use { main ->
                Fixtures.runtime.connect(agent.agentUrl, dispatcher = main.dispatcher).use { conversation ->
                    runBlocking { conversation.send("show the wide surface") }
                    // Written in composition, read by the loop: both on the main thread.
                    val shown = HashMap<String, String>()
                    val recomposedAt = HashMap<String, Long>()
                    var compositions = 0
                    val recording = ComponentRegistry.basic().wrapAll { _, renderer ->
                        { scope, modifier ->
                            compositions++
                            scope.text("text")?.let {
                                if (shown.put(scope.node.id, it) != it) recomposedAt[scope.node.id] = System.nanoTime()
                            }
                            renderer(scope, modifier)
                        }
                    }
                    runBlocking(main.dispatcher) {
                        val nodes = SurfaceNodes()
                        val diffs = launch { conversation.surfaceDiffs("wide").collect(nodes::apply) }
                        val scene = ImageComposeScene(800, 1200, Density(1f), coroutineContext = main.dispatcher) {
                            MaterialTheme {
                                A2uiSurface("wide", nodes, ConversationSurfaceActions(conversation, "wide"), components = recording)
                            }
                        }
                        try {
                            suspend fun frameWhenInvalid() {
                                yield() // lets the diff collector apply what has arrived
                                Snapshot.sendApplyNotifications()
                                if (scene.hasInvalidations()) scene.render(System.nanoTime())
                            }
                            // Every Text child shown: the surface's first composition is done.
                            withTimeout(WAIT_MS) { while (shown.size < nodeCount - 1) frameWhenInvalid() }
                            var round = 0
                            // Written and awaited on the main thread, as a text field's onValueChange is.
                            suspend fun measure(rounds: Int): LongArray = withTimeout(WAIT_MS + rounds * 20L) {
                                LongArray(rounds) {
                                    val k = 1 + round % (nodeCount - 1)
                                    val text = "v${round++}"
                                    val t0 = System.nanoTime()
                                    conversation.setValue("wide", "/items/n$k", text)
                                    while (shown["t$k"] != text) frameWhenInvalid()
                                    recomposedAt.getValue("t$k") - t0
                                }
                            }
                            compositions = 0
                            val cold = measure(2_000)
                            assertEquals(2_000, compositions, "each update recomposed its one node, nothing else")
                            measure(WARM_UP_ROUNDS)
                            val warm = measure(5_000)
                            printLatencies("setValue -> the one node recomposed, cold (first 2,000)", cold)
                            printLatencies("setValue -> the one node recomposed, warm", warm)
                        } finally {
                            diffs.cancel()
                            scene.close()
                        }
                    }
                }
            }
        }
    }

    private companion object {
        /** Each update also renders a 1,000-node frame (~8 ms here), so fewer rounds than SetValueBenchmark's warm-up. */
        const val WARM_UP_ROUNDS = 10_000
    }
}
