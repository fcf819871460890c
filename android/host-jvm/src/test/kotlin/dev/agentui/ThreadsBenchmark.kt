package dev.agentui

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.io.File
import java.util.concurrent.TimeUnit

/**
 * Issue 23's thread count (run with `-Pbench`; printed, not asserted): the OS threads a process
 * gains for one open conversation with ten surface subscriptions, as a screen showing ten
 * surfaces holds. Counted from /proc/self/task, after the runtime, the demo agent and the test's
 * main thread exist, so only what the conversation and its subscriptions add is counted.
 */
@Tag("benchmark")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ThreadsBenchmark {
    private fun osThreads() = File("/proc/self/task").list()!!.size

    @Test
    fun `threads of one conversation with ten surfaces shown`(): Unit = runBlocking {
        MainThread().use { main ->
            // Warm: the runtime's workers and the demo agent's threads exist before counting.
            Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { it.send("hello") }
            Thread.sleep(200)
            val before = osThreads()
            Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
                conversation.send("book a table")
                val shown = (1..10).map {
                    async(Dispatchers.Default) { withTimeout(WAIT_MS) { conversation.surfaceDiffs("booking").first() } }
                }
                // first() ends each collection: keep ten open instead, as shown surfaces do.
                shown.awaitAll()
                val held = (1..10).map { launch(Dispatchers.Default) { conversation.surfaceDiffs("booking").collect { } } }
                Thread.sleep(500)
                val during = osThreads()
                println("BENCH OS threads added by one conversation with 10 surface subscriptions: ${during - before} (before $before, during $during)")
                held.forEach { it.cancel() }
            }
        }
    }
}
