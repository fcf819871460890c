package dev.agentui

import dev.agentui.compose.JsonReader
import dev.agentui.core.timelineCaseChanges
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.io.File
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * tests/timeline-cases/cases.json, the cases the core (agentui-runtime's tests/timeline.rs) and
 * the Swift layer check too: each case's snapshot and deltas are played through the core's
 * timeline (`timelineCaseChanges`, one list of changes per step), mapped and applied by the
 * layer as [AgentConversation] applies live batches, and the rows compared with each checkpoint.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TimelineCasesTest {
    private val file: File by lazy {
        val root = System.getProperty("agentui.repo.root")?.let(::File) ?: File(System.getProperty("user.dir"), "../..")
        File(root, "tests/timeline-cases/cases.json").canonicalFile
    }

    @Suppress("UNCHECKED_CAST")
    @Test
    fun `every shared timeline case shows the rows it expects`() {
        val cases = (JsonReader(file.readText()).document() as Map<String, Any?>)["cases"] as List<Map<String, Any?>>
        assertTrue(cases.size >= 10, "too few cases in $file")
        var checkpoints = 0
        for (case in cases) {
            val title = case["name"] as String
            val steps = timelineCaseChanges(toJson(case))
            val rows = ArrayList<TimelineItem>()
            val expect = (case["expect"] as List<Map<String, Any?>>).associateBy { (it["after"] as Number).toInt() }
            // Step 0 is the snapshot; step n the n-th delta.
            steps.forEachIndexed { step, changes ->
                applyTimeline(rows, changes.map { it.toChange { null } })
                expect[step]?.let { checkpoint ->
                    check("$title, after $step", checkpoint["items"] as List<Map<String, Any?>>, rows.toList())
                    checkpoints++
                }
            }
            assertTrue(expect.keys.all { it < steps.size }, "$title: a checkpoint past the last delta")
        }
        assertTrue(checkpoints >= cases.size, "every case was checked")
    }

    private fun check(title: String, want: List<Map<String, Any?>>, rows: List<TimelineItem>) {
        assertEquals(want.map { it["key"] }, rows.map { it.key }, "$title: keys")
        for ((expected, row) in want.zip(rows)) {
            val at = "$title, ${row.key}"
            val kind = row.kind
            assertEquals(expected["kind"], kind::class.simpleName, at)
            for ((field, value) in expected) {
                if (field == "kind" || field == "key") continue
                assertEquals(normal(value), normal(field(kind, field)), "$at: $field")
            }
        }
    }

    /** The value of a case's optional [field] as the row shows it, in the case's spelling. */
    private fun field(kind: TimelineItemKind, field: String): Any? = when (field) {
        "text" -> when (kind) {
            is TimelineItemKind.UserMessage -> kind.text
            is TimelineItemKind.AgentMessage -> kind.text
            else -> error("text of $kind")
        }
        "media" -> when (kind) {
            is TimelineItemKind.UserMessage -> kind.media.size
            is TimelineItemKind.AgentMessage -> kind.media.size
            else -> error("media of $kind")
        }
        "delivery" -> (kind as TimelineItemKind.UserMessage).delivery::class.simpleName
        "retry" -> when (kind) {
            is TimelineItemKind.UserMessage -> (kind.delivery as? Delivery.Failed)?.retry?.pascal()
            is TimelineItemKind.RunError -> kind.retry.pascal()
            else -> error("retry of $kind")
        }
        "streaming" -> (kind as TimelineItemKind.AgentMessage).streaming
        "cutShort" -> (kind as TimelineItemKind.AgentMessage).cutShort
        "name" -> (kind as TimelineItemKind.ToolActivity).name
        "side" -> (kind as TimelineItemKind.ToolActivity).side.pascal()
        "phase" -> (kind as TimelineItemKind.ToolActivity).phase?.let { it::class.simpleName }
        "question" -> (kind as TimelineItemKind.Interrupt).interrupt.let { it.message ?: it.reason }
        "schema" -> (kind as TimelineItemKind.Interrupt).interrupt.responseSchema
        "tool" -> (kind as TimelineItemKind.ConsentRequest).request.toolName
        "errorKind" -> (kind as TimelineItemKind.RunError).kind.pascal()
        "message" -> (kind as TimelineItemKind.RunError).message
        else -> error("a field this test does not know: $field")
    }

    /** `SIGN_IN_THEN_RESEND` as the cases write it, `SignInThenResend`. */
    private fun Enum<*>.pascal() = name.lowercase().split('_').joinToString("") { it.replaceFirstChar(Char::uppercase) }

    /** JSON values compared whatever their maps' order and their numbers' Kotlin type. */
    private fun normal(value: Any?): Any? = when (value) {
        is Map<*, *> -> value.entries.associate { (k, v) -> k to normal(v) }
        is List<*> -> value.map(::normal)
        is Number -> value.toDouble()
        else -> value
    }
}
