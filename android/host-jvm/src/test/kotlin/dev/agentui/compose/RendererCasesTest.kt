package dev.agentui.compose

import dev.agentui.core.a2ui.CheckResult
import dev.agentui.core.a2ui.Severity
import dev.agentui.core.json.NodeValue
import dev.agentui.nodeValueOf
import org.junit.jupiter.api.DynamicTest
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
        cases("checkShown", 7, { it["name"] as String }) { case ->
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
    fun `number input writes a number, null or the text`() = cases("numberInput", 25, { "\"${it["text"]}\"" }) { case ->
        assertEquals(nodeValueOf(case["wire"]), numberInputValue(case["text"] as String), "typed \"${case["text"]}\" (${case["why"] ?: ""})")
    }

    @TestFactory
    fun `numbers print the same text on both platforms`() = cases("numberFormat", 15, { "${it["number"]}" }) { case ->
        assertEquals(case["text"], formatNumber(case["number"] as Double))
    }
}
