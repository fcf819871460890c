package dev.agentui.compose

import androidx.compose.ui.semantics.LiveRegionMode
import dev.agentui.CheckResult
import dev.agentui.Severity
import dev.agentui.NodeValue
import dev.agentui.core.markdownText
import dev.agentui.Node
import dev.agentui.core.a2ui.SurfaceDiff
import dev.agentui.core.a2uiCaseSurface
import dev.agentui.nodeValueOf
import dev.agentui.toJson
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory
import java.util.TimeZone
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * The renderer parity rules of docs/rendering.md, one case at a time from the file the SwiftUI
 * renderer's tests read too (tests/renderer-cases/cases.json).
 */
class RendererCasesTest {
    private fun cases(section: String, minimum: Int, name: (Map<String, Any?>) -> String, check: (Map<String, Any?>) -> Unit): List<DynamicTest> {
        val cases = RendererCases.section(section)
        // A truncated or renamed section must not pass by asserting nothing.
        assertTrue(cases.size >= minimum, "${RendererCases.file}: $section has ${cases.size} cases, expected at least $minimum")
        return cases.map { case -> DynamicTest.dynamicTest("$section: ${name(case)}") { check(case) } }
    }

    private fun NodeValue.shown(): String = displayText().orEmpty()

    @TestFactory
    fun `echo suppression compares wire values`() = cases("echo", 10, { it["name"] as String }) { case ->
        val initial = nodeValueOf(case["initial"])
        val bound = BoundValue(initial.shown(), initial)
        @Suppress("UNCHECKED_CAST")
        val steps = case["steps"] as List<Map<String, Any?>>
        for ((index, step) in steps.withIndex()) {
            if ("edit" in step) {
                // An absent "wrote" is an edit that wrote nothing; "wrote": null wrote JSON null.
                bound.edited(step["edit"] as String, if ("wrote" in step) nodeValueOf(step["wrote"]) else null)
            } else {
                val wire = nodeValueOf(step["resolved"])
                bound.resolved(wire, wire.shown())
            }
            assertEquals(step["shown"], bound.value, "${case["name"]}, after step $index $step")
        }
    }

    @TestFactory
    fun `ISO values are shown on the zone's wall clock`() = cases("dates", 30, { "${it["value"]} as ${it["format"]} in ${it["zone"]}" }) { case ->
        val zone = TimeZone.getTimeZone(case["zone"] as String)
        // TimeZone.getTimeZone falls back to GMT for an id it does not know.
        assertEquals(case["zone"], zone.id, "the JVM knows the zone")
        val format = when (case["format"]) {
            "date" -> IsoFormat.Date
            "time" -> IsoFormat.Time
            "dateTime" -> IsoFormat.DateTime
            else -> error("unknown format ${case["format"]}")
        }
        val shown = IsoDates.localText(case["value"] as String, format, zone)
        assertEquals(case["shown"], shown, "${case["value"]} (${case["why"] ?: ""})")
        // What is shown is what the field would write back, and Material's picker reads its day.
        if (shown != null) {
            assertTrue(format.accepts(shown), "$shown is a valid ${format.pattern}")
            if (format.hasDate) assertEquals(shown.take(10), IsoDates.date(IsoDates.dateMillis(shown)!!))
        }
    }

    @TestFactory
    fun `check results show the first failure, as an error only for severity error`() =
        cases("checkShown", 12, { it["name"] as String }) { case ->
            @Suppress("UNCHECKED_CAST")
            val checks = (case["checks"] as List<Map<String, Any?>>).map {
                CheckResult(
                    message = it["message"] as String,
                    passed = it["passed"] as Boolean,
                    code = it["code"] as String?,
                    severity = Severity.valueOf((it["severity"] as String).uppercase()),
                )
            }
            @Suppress("UNCHECKED_CAST")
            val expected = (case["shown"] as Map<String, Any?>?)?.let { CheckShown(it["message"] as String?, it["isError"] as Boolean) }
            assertEquals(expected, checkShown(checks), case["name"] as String)
        }

    @TestFactory
    fun `live regions follow live and hidden`() = cases("live", 12, { it["name"] as String }) { case ->
        @Suppress("UNCHECKED_CAST")
        val steps = case["steps"] as List<Map<String, Any?>>
        // Android announces a live region's changes itself: only the region is the renderer's.
        for ((index, step) in steps.withIndex()) {
            val expected = when (val region = step["region"]) {
                "polite" -> LiveRegionMode.Polite
                "assertive" -> LiveRegionMode.Assertive
                null -> null
                else -> error("${case["name"]}: unknown region $region")
            }
            assertEquals(expected, liveRegionMode(step["live"] as String?, step["hidden"] as Boolean?), "${case["name"]}, step $index $step")
        }
    }

    @TestFactory
    fun `v1_0 wire messages reach the renderer as the cases say`() = cases("v1_0", 12, { it["name"] as String }) { case ->
        val title = case["name"] as String
        // The core resolves the case's messages (@path, @call, checks, accessibility) as a
        // conversation would; what the renderer makes of its nodes is asserted here.
        val reset = a2uiCaseSurface(toJson(case["messages"])) as SurfaceDiff.Reset
        val taken = mutableMapOf<String, Int>()
        @Suppress("UNCHECKED_CAST")
        for (want in case["nodes"] as List<Map<String, Any?>>) {
            val node: Node = (want["id"] as String?)?.let { id -> reset.nodes.single { it.id == id } } ?: run {
                // A template's instances, in the core's order.
                val component = want["componentId"] as String
                val nth = taken.merge(component, 1, Int::plus)!! - 1
                reset.nodes.filter { it.componentId == component }.getOrNull(nth) ?: error("$title: no instance $nth of $component")
            }
            val at = "$title: node ${node.id}"
            for (property in listOf("text", "value")) {
                if (property in want) assertEquals(want[property], node.props.firstOrNull { it.name == property }?.value?.displayText(), "$at: $property")
            }
            if ("label" in want) assertEquals(want["label"], node.accessibility?.label, "$at: label")
            if ("hidden" in want) assertEquals(want["hidden"], node.accessibility?.hidden, "$at: hidden")
            if ("region" in want) {
                val expected = when (want["region"]) {
                    "polite" -> LiveRegionMode.Polite
                    "assertive" -> LiveRegionMode.Assertive
                    else -> null
                }
                assertEquals(expected, liveRegionMode(node.accessibility?.live, node.accessibility?.hidden), "$at: region")
            }
            if ("bindings" in want) assertEquals(want["bindings"], node.bindings.associate { it.property to it.path }, "$at: bindings")
            if ("shown" in want) {
                @Suppress("UNCHECKED_CAST")
                val expected = (want["shown"] as Map<String, Any?>?)?.let { CheckShown(it["message"] as String?, it["isError"] as Boolean) }
                assertEquals(expected, checkShown(node.checks), "$at: checks ${node.checks}")
            }
        }
    }

    @TestFactory
    fun `number input writes a number, null or the text`() = cases("numberInput", 25, { "\"${it["text"]}\"" }) { case ->
        assertEquals(nodeValueOf(case["wire"]), numberInputValue(case["text"] as String), "typed \"${case["text"]}\" (${case["why"] ?: ""})")
    }

    @TestFactory
    fun `numbers print the same text on both platforms`() = cases("numberFormat", 15, { "${it["number"]}" }) { case ->
        assertEquals(case["text"], formatNumber(case["number"] as Double))
    }

    @TestFactory
    fun `Markdown from the core is laid out the same on both platforms`() = cases("markdown", 8, { it["name"] as String }) { case ->
        val tree = markdownText(case["markdown"] as String)
        val lines = MarkdownLayout.lines(tree.blocks).map(::describe)
        @Suppress("UNCHECKED_CAST")
        val expected = (case["lines"] as List<Map<String, Any?>>).map(::normalized)
        assertEquals(expected, lines, case["name"] as String)
    }

    /** A line as the cases write it: absent keys are 0, null or empty. */
    private fun normalized(line: Map<String, Any?>): Map<String, Any?> = mapOf(
        "kind" to line["kind"],
        "text" to (line["text"] ?: ""),
        "level" to ((line["level"] as? Double)?.toInt() ?: 0),
        "marker" to line["marker"],
        "indent" to ((line["indent"] as? Double)?.toInt() ?: 0),
        "quote" to ((line["quote"] as? Double)?.toInt() ?: 0),
        "plain" to (line["plain"] ?: false),
        "spans" to (line["spans"] ?: emptyList<Any>()),
        "language" to line["language"],
        "header" to (line["header"] ?: emptyList<Any>()),
        "rows" to (line["rows"] ?: emptyList<Any>()),
    )

    private fun spans(styled: StyledText): List<List<String>> = styled.spans.map { span ->
        val style = when (span.style) {
            MarkdownStyle.LINK -> "link ${span.url}"
            MarkdownStyle.IMAGE -> "image ${span.url}"
            else -> span.style.name.lowercase()
        }
        listOf(style, styled.text.substring(span.start, span.end))
    }

    private fun describe(line: MarkdownLine): Map<String, Any?> {
        val base = mapOf<String, Any?>(
            "kind" to null, "text" to "", "level" to 0, "marker" to null, "indent" to 0, "quote" to line.quote,
            "plain" to false, "spans" to emptyList<Any>(), "language" to null, "header" to emptyList<Any>(), "rows" to emptyList<Any>(),
        )
        return base + when (line) {
            is MarkdownLine.Text -> mapOf(
                "kind" to "text", "text" to line.styled.text, "level" to line.level, "marker" to line.marker,
                "indent" to line.indent, "plain" to line.plain, "spans" to spans(line.styled),
            )
            is MarkdownLine.Code -> mapOf("kind" to "code", "text" to line.text, "language" to line.language, "indent" to line.indent)
            is MarkdownLine.Rule -> mapOf("kind" to "rule")
            is MarkdownLine.Table -> mapOf(
                "kind" to "table", "indent" to line.indent,
                "header" to line.header.map { it.text }, "rows" to line.rows.map { row -> row.map { it.text } },
            )
        }
    }

    @Test
    fun `text the tree does not cover yet is shown after the last block`() {
        val tree = markdownText("# Title\n\nsome **bold")
        val lines = MarkdownLayout.lines(tree.blocks, pending = " and more")
        assertEquals("some **bold and more", (lines.last() as MarkdownLine.Text).styled.text)
        val code = MarkdownLayout.lines(markdownText("```\nfn").blocks, pending = " main")
        assertEquals("fn main", (code.last() as MarkdownLine.Code).text)
    }
}
