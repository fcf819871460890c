package dev.agentui

import dev.agentui.compose.JsonReader
import dev.agentui.core.markdownText
import dev.agentui.core.adapterCaseBatches
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.io.File
import java.util.Collections
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * tests/adapter-cases/cases.json, the cases the Swift layer's AdapterCasesTests read too: each
 * case's snapshot and deltas are played through the core (`adapterCaseBatches`, the batches a
 * view gets), applied by the layer as it applies live batches, and its flows compared with the
 * case's `expect`. The core's own check of the same file is in agentui-runtime's tests (view.rs).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdapterCasesTest {
    private val file: File by lazy {
        val root = System.getProperty("agentui.repo.root")?.let(::File) ?: File(System.getProperty("user.dir"), "../..")
        File(root, "tests/adapter-cases/cases.json").canonicalFile
    }

    @Suppress("UNCHECKED_CAST")
    @Test
    fun `every shared adapter case shows what it expects`(): Unit = runBlocking {
        val cases = (JsonReader(file.readText()).document() as Map<String, Any?>)["cases"] as List<Map<String, Any?>>
        assertTrue(cases.size >= 10, "too few cases in $file")
        MainThread().use { main ->
            for (case in cases) {
                val title = case["name"] as String
                Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
                    // The conversation's own first batch (empty) is applied before the case's.
                    withTimeout(WAIT_MS) { while (conversation.snapshotsApplied < 1) delay(5) }
                    val seen = Collections.synchronizedList(mutableListOf<String>())
                    val collectors = listOf(
                        launch(Dispatchers.Unconfined) { conversation.events.collect { seen += it.label() } },
                        launch(Dispatchers.Unconfined) { conversation.warnings.collect { seen += "Warning:" + it.kind.pascal() } },
                    )
                    val batches = adapterCaseBatches(toJson(case))
                    withContext(main.dispatcher) { batches.forEach(conversation::apply) }
                    collectors.forEach { it.cancel() }
                    check(title, case["expect"] as Map<String, Any?>, conversation, seen)
                }
            }
        }
    }

    @Suppress("UNCHECKED_CAST")
    private fun check(title: String, expect: Map<String, Any?>, conversation: AgentConversation, seen: List<String>) {
        (expect["messages"] as List<Map<String, Any?>>?)?.let { messages ->
            val shown = conversation.messages.value
            assertEquals(messages.size, shown.size, "$title: message count")
            for ((message, want) in shown.zip(messages)) {
                assertEquals(want["id"], message.id, title)
                assertEquals(want["role"], message.role.name.lowercase(), title)
                assertEquals(want["text"], message.text, title)
                if ("localOnly" in want) assertEquals(want["localOnly"], message.localOnly?.pascal(), title)
                if ("pending" in want) assertEquals(want["pending"], message.isPending, title)
                (want["toolCalls"] as List<List<String>>?)?.let { calls ->
                    assertEquals(calls, message.toolCalls.map { listOf(it.id, it.argumentsJson) }, title)
                }
                if ("markdown" in want) {
                    // The kinds of the blocks shown, and the blocks themselves: what the diffs
                    // added up to must be the tree of the whole text.
                    assertEquals(want["markdown"], message.markdown?.blocks?.map { it::class.simpleName }, title)
                    message.markdown?.let { assertEquals(markdownText(message.text).blocks, it.blocks, title) }
                }
            }
        }
        (expect["toolCalls"] as List<List<String>>?)?.let { calls ->
            assertEquals(calls, conversation.toolCalls.value.map { listOf(it.toolCallId, it.phase::class.simpleName) }, title)
        }
        expect["phase"]?.let { assertEquals<Any?>(it, conversation.phase.value::class.simpleName, title) }
        expect["activeSteps"]?.let { assertEquals(it, conversation.activeSteps.value, title) }
        if ("state" in expect) assertEquals(normal(expect["state"]), normal(conversation.state.value), title)
        expect["surfaces"]?.let { assertEquals<Any?>(it, conversation.surfaces.value.map(SurfaceInfo::id), title) }
        expect["events"]?.let { assertEquals<Any?>(it, seen.toList(), title) }
    }

    private fun AgentEvent.label() = when (this) {
        is AgentEvent.Custom -> "Custom:$name"
        is AgentEvent.Raw -> "Raw"
        is AgentEvent.StepStarted -> "StepStarted:$name"
        is AgentEvent.StepFinished -> "StepFinished:$name"
    }

    /** `KEPT_LOCAL` as the cases write it, `KeptLocal`. */
    private fun Enum<*>.pascal() = name.lowercase().split('_').joinToString("") { it.replaceFirstChar(Char::uppercase) }

    /** JSON values compared whatever their maps' order and their numbers' Kotlin type. */
    private fun normal(value: Any?): Any? = when (value) {
        is Map<*, *> -> value.entries.associate { (k, v) -> k to normal(v) }
        is List<*> -> value.map(::normal)
        is Number -> value.toDouble()
        else -> value
    }
}
