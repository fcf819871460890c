package dev.agentui.compose

import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.width
import androidx.compose.material3.MaterialTheme
import androidx.compose.ui.Modifier
import androidx.compose.ui.semantics.SemanticsProperties
import androidx.compose.ui.test.ExperimentalTestApi
import androidx.compose.ui.test.SemanticsNodeInteraction
import androidx.compose.ui.test.onNodeWithTag
import androidx.compose.ui.test.onNodeWithText
import androidx.compose.ui.test.performTextInput
import androidx.compose.ui.test.runDesktopComposeUiTest
import androidx.compose.ui.unit.dp
import dev.agentui.ActionResult
import dev.agentui.SurfaceDiff
import dev.agentui.Binding
import dev.agentui.core.json.NodeValue
import dev.agentui.PropEntry
import dev.agentui.Node
import dev.agentui.nodeValueOf
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Deferred
import org.junit.jupiter.api.Test
import java.util.TimeZone
import kotlin.test.assertEquals

/**
 * The parity rules of docs/rendering.md as the rendered Compose inputs follow them: every input
 * shows its validation message, a number field's echo is recognised by value, and a date-time
 * instant is shown on the device's wall clock.
 */
@OptIn(ExperimentalTestApi::class)
class InputParityRenderTest {
    private class RecordingActions : SurfaceActions {
        val writes = mutableListOf<Pair<String, NodeValue>>()

        override fun setValue(path: String, value: NodeValue) {
            writes += path to value
        }

        override fun dispatchAction(nodeId: String): Deferred<ActionResult> = CompletableDeferred(ActionResult.Handled)
    }

    private fun input(id: String, type: String, vararg props: Pair<String, Any?>, validation: String? = null) = Node(
        id = id,
        componentId = id,
        componentType = type,
        props = props.map { (name, value) -> PropEntry(name, nodeValueOf(value)) },
        children = emptyList(),
        accessibility = null,
        checks = emptyList(),
        validationMessage = validation,
        enabled = true,
        action = null,
        bindings = listOf(Binding("value", "/form/$id")),
        weight = null,
        markdown = null,
    )

    /** The whole surface as the core would reset it: a column holding [nodes]. */
    private fun state(vararg nodes: Node): SurfaceDiff {
        val root = input("root", "Column").copy(children = nodes.map { it.id }, bindings = emptyList())
        return SurfaceDiff.Reset("root", listOf(root) + nodes)
    }

    private fun inputs(validated: Boolean) = arrayOf(
        input("agree", "CheckBox", "label" to "I agree", "value" to false, validation = "You must agree".takeIf { validated }),
        input("volume", "Slider", "label" to "Volume", "min" to 0, "max" to 10, "value" to 3, validation = "Too quiet".takeIf { validated }),
        input("name", "TextField", "label" to "Name", "value" to "", validation = "Enter a name".takeIf { validated }),
        input(
            "size", "ChoicePicker", "label" to "Size", "options" to listOf(mapOf("label" to "Small", "value" to "s")),
            "value" to emptyList<String>(), validation = "Pick a size".takeIf { validated },
        ),
        input("when", "DateTimeInput", "label" to "When", "value" to "", "enableDate" to true, validation = "Pick a day".takeIf { validated }),
    )

    @Test
    fun `every input shows its validation message under it, and drops it once the check passes`() =
        runDesktopComposeUiTest(width = 600, height = 1200) {
            val nodes = SurfaceNodes().apply { apply(state(*inputs(validated = true))) }
            setContent {
                MaterialTheme { Column(Modifier.width(560.dp)) { A2uiSurface("form", nodes, RecordingActions()) } }
            }
            val messages = listOf("You must agree", "Too quiet", "Enter a name", "Pick a size", "Pick a day")
            for (message in messages) onNodeWithText(message).assertExists()
            runOnIdle { nodes.apply(state(*inputs(validated = false))) }
            for (message in messages) onNodeWithText(message).assertDoesNotExist()
        }

    /** The text in a text field (its label and supporting text are not part of it). */
    private fun SemanticsNodeInteraction.fieldText(): String = fetchSemanticsNode().config[SemanticsProperties.EditableText].text

    @Test
    fun `a decimal comma typed into a number field stays when its value comes back`() =
        runDesktopComposeUiTest(width = 600, height = 400) {
            val actions = RecordingActions()
            val field = { value: Any? -> input("amount", "TextField", "label" to "Amount", "variant" to "number", "value" to value) }
            val nodes = SurfaceNodes().apply { apply(state(field(null))) }
            setContent { MaterialTheme { A2uiSurface("form", nodes, actions) } }

            onNodeWithTag(a2uiNodeTag("amount")).performTextInput("1,5")
            waitForIdle()
            assertEquals("/form/amount" to NodeValue.Number(1.5), actions.writes.last(), "written as the number 1.5")
            // The core's echo: the number 1.5, whose display text "1.5" differs from what was typed.
            runOnIdle { nodes.apply(state(field(1.5))) }
            assertEquals("1,5", onNodeWithTag(a2uiNodeTag("amount")).fieldText(), "the echo did not replace the typing")
            // A value from elsewhere replaces it.
            runOnIdle { nodes.apply(state(field(2.25))) }
            assertEquals("2.25", onNodeWithTag(a2uiNodeTag("amount")).fieldText())
        }

    @Test
    fun `an instant is shown in the device's zone, a date alone is not shifted`() {
        val saved = TimeZone.getDefault()
        TimeZone.setDefault(TimeZone.getTimeZone("America/Los_Angeles"))
        try {
            runDesktopComposeUiTest(width = 600, height = 400) {
                val nodes = SurfaceNodes().apply {
                    apply(
                        state(
                            input("start", "DateTimeInput", "label" to "Start", "value" to "2026-01-01T00:15:00Z", "enableDate" to true, "enableTime" to true),
                            input("day", "DateTimeInput", "label" to "Day", "value" to "2026-03-05", "enableDate" to true),
                        ),
                    )
                }
                setContent { MaterialTheme { A2uiSurface("form", nodes, RecordingActions()) } }
                assertEquals("2025-12-31T16:15", onNodeWithTag(a2uiNodeTag("start")).fieldText(), "00:15 UTC is 16:15 the day before in Los Angeles")
                assertEquals("2026-03-05", onNodeWithTag(a2uiNodeTag("day")).fieldText(), "a calendar date, not UTC midnight moved west")
            }
        } finally {
            TimeZone.setDefault(saved)
        }
    }
}
