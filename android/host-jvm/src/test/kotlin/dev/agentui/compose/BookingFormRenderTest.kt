package dev.agentui.compose

import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.lightColorScheme
import androidx.compose.runtime.Composable
import androidx.compose.ui.graphics.toArgb
import androidx.compose.ui.test.ExperimentalTestApi
import androidx.compose.ui.test.assertIsEnabled
import androidx.compose.ui.test.captureToImage
import androidx.compose.ui.test.assertIsNotEnabled
import androidx.compose.ui.test.onAllNodesWithText
import androidx.compose.ui.test.onNodeWithTag
import androidx.compose.ui.test.onNodeWithText
import androidx.compose.ui.test.performClick
import androidx.compose.ui.test.performTextInput
import androidx.compose.ui.test.runComposeUiTest
import dev.agentui.Fixtures
import dev.agentui.MainThreadExtension
import dev.agentui.SurfaceProbe
import dev.agentui.WAIT_MS
import dev.agentui.assistantTexts
import dev.agentui.core.json.NodeValue
import dev.agentui.prop
import dev.agentui.textOrNull
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.Timeout
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * The Compose renderer on the demo agent's booking form: resolved nodes from the real core
 * through the bindings, rendered offscreen by Compose for Desktop.
 */
@OptIn(ExperimentalTestApi::class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BookingFormRenderTest {
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    private val colors = lightColorScheme()

    @Composable
    private fun Themed(content: @Composable () -> Unit) = MaterialTheme(colorScheme = colors, content = content)

    @Test
    fun `the booking form renders, binds its inputs and books through the agent`() = runComposeUiTest {
        val conversation = Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher)
        conversation.use {
            conversation.sendAsync("book a table")
            waitUntil(timeoutMillis = WAIT_MS) { conversation.surface("booking") != null }
            val probe = SurfaceProbe(conversation, "booking", main.dispatcher)
            setContent { Themed { A2uiSurface(conversation, "booking") } }
            waitUntil(timeoutMillis = WAIT_MS) { probe.root != null }
            // The probe and the surface subscribe separately; wait for what Compose draws.
            waitUntil(timeoutMillis = WAIT_MS) { onAllNodesWithText("Book a table").fetchSemanticsNodes().isNotEmpty() }

            onNodeWithText("Book a table").assertExists()
            onNodeWithText("Please enter a name").assertExists()
            onNodeWithText("2 guests").assertExists()
            val book = onNodeWithTag(a2uiNodeTag("book"))
            book.assertIsNotEnabled()
            val primary = colors.primary.toArgb()
            val disabledButton = Screenshots.save(book.captureToImage(), "booking-book-disabled")
            assertEquals(0, disabledButton.countNear(primary), "a disabled button is not drawn in the primary colour")

            onNodeWithTag(a2uiNodeTag("name")).performTextInput("Ada")
            onNodeWithTag(a2uiNodeTag("date")).performTextInput("2026-12-24")
            onNodeWithText("4 guests").performClick()
            // Writes apply at once in the core, during the first run too.
            waitUntil(timeoutMillis = WAIT_MS) {
                val guests = probe.node("guests")?.prop("value")
                probe.node("book")?.enabled == true && guests == NodeValue.Array(listOf(NodeValue.Text("4")))
            }
            val nodes = probe
            assertEquals("Ada", nodes.node("name")?.prop("value")?.textOrNull, "typed text reached the data model")
            assertEquals("2026-12-24", nodes.node("date")?.prop("value")?.textOrNull)
            assertEquals(listOf(NodeValue.Text("4")), (nodes.node("guests")?.prop("value") as NodeValue.Array).items)

            waitForIdle()
            book.assertIsEnabled()
            onNodeWithText("Please enter a name").assertDoesNotExist()
            val form = Screenshots.save(onNodeWithTag("a2ui-surface:booking").captureToImage(), "booking-form")
            assertTrue(form.width >= 200 && form.height >= 200, "the whole form was captured: ${form.width}x${form.height}")
            assertTrue(form.distinctColours() > 50, "a rendered form, not a blank image")
            val enabledButton = Screenshots.save(book.captureToImage(), "booking-book-enabled")
            assertTrue(enabledButton.countNear(primary) > enabledButton.width * enabledButton.height / 4, "an enabled primary button is filled with the primary colour")

            book.performClick()
            waitUntil(timeoutMillis = WAIT_MS) {
                conversation.messages.value.assistantTexts().contains("Booked a table for 4 on 2026-12-24 under the name Ada.")
            }
            // The agent deletes the form once booked.
            waitUntil(timeoutMillis = WAIT_MS) { conversation.surface("booking") == null }
            waitUntil(timeoutMillis = WAIT_MS) { probe.root == null }
            waitForIdle()
            onNodeWithText("Book a table").assertDoesNotExist()
            probe.close()
        }
    }

    @Test
    fun `a data model write recomposes only the nodes that read it`() = runComposeUiTest {
        val conversation = Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher)
        conversation.use {
            conversation.sendAsync("book a table")
            waitUntil(timeoutMillis = WAIT_MS) { conversation.surface("booking") != null }
            val probe = SurfaceProbe(conversation, "booking", main.dispatcher)
            val compositions = ConcurrentHashMap<String, AtomicInteger>()
            val counting = ComponentRegistry.basic().wrapAll { _, renderer ->
                { scope, modifier ->
                    compositions.getOrPut(scope.node.id) { AtomicInteger() }.incrementAndGet()
                    renderer(scope, modifier)
                }
            }
            setContent { Themed { A2uiSurface(conversation, "booking", components = counting) } }
            waitUntil(timeoutMillis = WAIT_MS) { probe.root != null }
            val rendered = setOf("root", "form", "title", "name", "date", "guests", "book", "book-label")
            // The surface's own subscription delivers on the main dispatcher, independently of
            // the probe's: the probe seeing a root does not mean Compose has drawn it yet.
            waitUntil(timeoutMillis = WAIT_MS) { compositions.keys.containsAll(rendered) }
            waitForIdle()
            assertEquals(rendered, compositions.keys, "every node rendered once at first")
            compositions.clear()

            // Not through the UI: only the write's own effect is measured.
            runOnIdle { conversation.setValue("booking", "/booking/name", "Grace") }
            waitUntil(timeoutMillis = WAIT_MS) { probe.node("name")?.prop("value")?.textOrNull == "Grace" }
            waitUntil(timeoutMillis = WAIT_MS) { onAllNodesWithText("Grace").fetchSemanticsNodes().isNotEmpty() }
            waitForIdle()
            onNodeWithText("Grace").assertExists()
            assertTrue("name" in compositions.keys, "the node showing the value recomposed: ${compositions.keys}")
            // book's checks read the name too; its result did not change (the date is still
            // missing), so it may be re-resolved but must not change what is drawn.
            assertEquals(
                emptySet(),
                compositions.keys - setOf("name", "book"),
                "nodes that do not read /booking/name were not recomposed",
            )
            probe.close()
        }
    }
}
