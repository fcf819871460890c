package dev.agentui

import kotlinx.coroutines.flow.first
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.io.File
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * Opening and closing many conversations must give back what they took on the native side.
 * Checked three ways: UniFFI's foreign-object handle maps (a listener or tool handler Rust
 * still holds stays registered there), the process's OS thread count, and its resident memory.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NativeResourcesTest {
    @Test
    fun `300 conversations opened and closed release their native resources`(): Unit = runBlocking {
        MainThread().use { main ->
            suspend fun oneConversation(i: Int) {
                Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
                    conversation.registerTool("get_location", "city", """{"type":"object"}""") { "Paris" }
                    if (i % 2 == 0) {
                        conversation.send("hello")
                    } else {
                        conversation.send("book a table")
                        // A renderer-style subscription, left open: close() of the
                        // conversation must still release everything.
                        val first = withTimeout(WAIT_MS) { conversation.surfaceDiffs("booking").first() }
                        check(first is SurfaceDiff.Reset)
                    }
                    conversation.messages.awaitValue { it.size >= 2 }
                }
            }

            repeat(30) { oneConversation(it) }
            val before = Sample.take()

            // The probe sees live objects: an open conversation holds its tool. It holds no
            // listener: the layer pulls its updates, and the FFI has no listener interface left.
            Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { open ->
                open.registerTool("get_location", "city", """{"type":"object"}""") { "Paris" }
                open.messages.awaitValue { true }
                val live = ForeignHandles.count()
                assertEquals(before.foreignHandles.getValue("FfiConverterTypeClientToolHandler") + 1,
                    live.getValue("FfiConverterTypeClientToolHandler"), "probe: $live")
            }

            // 3 x 100 more; the process must level off, not grow with the count.
            val samples = mutableListOf(before)
            repeat(3) { round ->
                repeat(100) { oneConversation(round * 100 + it) }
                samples += Sample.take()
            }
            samples.forEachIndexed { i, sample -> println("LEAK after ${30 + i * 100} conversations: $sample") }
            val after = samples.last()

            assertEquals(before.foreignHandles, after.foreignHandles, "listeners/tool handlers still held by Rust")
            assertTrue(after.osThreads - before.osThreads <= 2, "OS threads grew: $before -> $after")
            assertTrue(after.javaThreads - before.javaThreads <= 2, "JVM threads grew: $before -> $after")
            // RSS includes the Java heap growing towards -Xmx and JIT code, so the first rounds
            // rise; a per-conversation leak keeps rising. 300 conversations holding ~100 KB of
            // native state each would add 30 MB in the last two rounds alone.
            val lateGrowthKb = after.rssKb - samples[1].rssKb
            assertTrue(lateGrowthKb < 16 * 1024, "RSS still growing: ${lateGrowthKb / 1024} MB over the last 200 conversations")
            assertTrue(after.rssKb - before.rssKb < 64 * 1024, "RSS grew by ${(after.rssKb - before.rssKb) / 1024} MB")
        }
    }

    data class Sample(val rssKb: Long, val osThreads: Int, val javaThreads: Int, val foreignHandles: Map<String, Int>) {
        companion object {
            fun take(): Sample {
                repeat(3) {
                    System.gc()
                    Thread.sleep(100)
                }
                val status = File("/proc/self/status").readLines()
                fun field(name: String) = status.first { it.startsWith("$name:") }.substringAfter(':').trim().split(' ')[0].toLong()
                return Sample(field("VmRSS"), field("Threads").toInt(), Thread.getAllStackTraces().size, ForeignHandles.count())
            }
        }
    }
}

/**
 * Sizes of the generated `UniffiHandleMap`s that hold Kotlin objects passed to Rust (tool
 * handlers, the one foreign interface). An entry leaves the map only when Rust drops its last reference, so a stable
 * size after closing means the native side let go. Read by reflection: the maps are internal
 * to the generated file.
 */
object ForeignHandles {
    private val converters = listOf(
        "dev.agentui.core.FfiConverterTypeClientToolHandler",
    )

    fun count(): Map<String, Int> = converters.associate { name ->
        name.substringAfterLast('.') to (runCatching { sizeOf(Class.forName(name)) }.getOrElse { -1 })
    }

    private fun sizeOf(converter: Class<*>): Int {
        val instance = converter.getField("INSTANCE").get(null)
        val field = converter.declaredFields.first { it.name == "handleMap" }.apply { isAccessible = true }
        val map = field.get(instance)
        val size = map.javaClass.methods.first { it.name == "getSize" || it.name == "size" }
        return (size.invoke(map) as Number).toInt()
    }
}
