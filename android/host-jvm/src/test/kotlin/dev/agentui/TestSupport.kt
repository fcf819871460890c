package dev.agentui

import com.sun.net.httpserver.HttpServer
import dev.agentui.core.demo.DemoAgentHandle
import dev.agentui.core.demo.startDemoAgent
import dev.agentui.core.demo.startDemoAgentWith
import kotlinx.coroutines.ExecutorCoroutineDispatcher
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.launch
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.extension.AfterEachCallback
import org.junit.jupiter.api.extension.BeforeEachCallback
import org.junit.jupiter.api.extension.ExtensionContext
import java.io.OutputStream
import java.net.InetAddress
import java.net.InetSocketAddress
import java.util.concurrent.Executors

/** Process-wide native fixtures: one runtime and the in-process demo agents (loopback only). */
object Fixtures {
    /** FNV-1a, 64 bits, as hex: the hash the demo agent answers with for each part it decoded. */
    fun fnv1a64(bytes: ByteArray): String {
        var hash = -0x340d631b7bdddcdbL // 0xcbf29ce484222325
        for (b in bytes) {
            hash = hash xor (b.toLong() and 0xff)
            hash *= 0x100000001b3L
        }
        return "%016x".format(hash)
    }

    init {
        // First, before anything loads the bindings (see NativeThreads).
        NativeThreads.install()
    }

    /** No delay between events: fast tests. "slow" streams 50 deltas 100 ms apart. */
    val agent: DemoAgentHandle by lazy { startDemoAgent() }

    /**
     * 50 ms between events, so a UI-like collector sees the text grow delta by delta: three
     * publish frames (16 ms) fit between two events, and only a JVM stalled for longer than that
     * joins them. At 15 ms a loaded two-core CI machine joined the greeting into two values.
     */
    val pacedAgent: DemoAgentHandle by lazy { startDemoAgentWith(50uL, 100uL) }

    val runtime: AgentRuntime by lazy { AgentRuntime() }
}

/** The test's "main thread": one named thread, as Dispatchers.Main is on Android. */
class MainThread : AutoCloseable {
    val name = "test-main-${counter++}"
    private val executor = Executors.newSingleThreadExecutor { r -> Thread(r, name).apply { isDaemon = true } }
    val dispatcher: ExecutorCoroutineDispatcher = executor.asCoroutineDispatcher()

    override fun close() = dispatcher.close()

    private companion object {
        @Volatile var counter = 0
    }
}

/**
 * A fresh [MainThread] for each test, closed after it: `@JvmField @RegisterExtension val main =
 * MainThreadExtension()` in a test class. JUnit makes it before the class's `@BeforeEach` methods
 * and closes it after its `@AfterEach` ones, so both may use it.
 */
class MainThreadExtension : BeforeEachCallback, AfterEachCallback {
    private var current: MainThread? = null
    private val thread: MainThread get() = checkNotNull(current) { "MainThreadExtension is used outside a test" }

    val name: String get() = thread.name
    val dispatcher: ExecutorCoroutineDispatcher get() = thread.dispatcher

    override fun beforeEach(context: ExtensionContext) {
        current = MainThread()
    }

    override fun afterEach(context: ExtensionContext) {
        current?.close()
        current = null
    }
}

const val WAIT_MS = 15_000L

/** Prints a benchmark's latency samples (nanoseconds) as p50, p99 and max, on one BENCH line. */
fun printLatencies(label: String, samples: LongArray) {
    val sorted = samples.sorted()
    fun pct(p: Int) = sorted[(sorted.size - 1) * p / 100] / 1e6
    println("BENCH %-60s %6.3f ms p50, %.3f ms p99, %.3f ms max (%d updates)".format(
        label, pct(50), pct(99), sorted.last() / 1e6, sorted.size))
}

suspend fun <T> StateFlow<T>.awaitValue(timeoutMs: Long = WAIT_MS, predicate: (T) -> Boolean): T =
    withTimeout(timeoutMs) { first(predicate) }

/** The text of the last assistant message, or "" if none. */
fun List<ChatMessage>.lastAssistantText(): String =
    lastOrNull { it.role == Role.ASSISTANT && it.text.isNotEmpty() }?.text.orEmpty()

/** Every assistant text joined, for assertions that do not care which message said it. */
fun List<ChatMessage>.assistantTexts(): String =
    filter { it.role == Role.ASSISTANT }.mapNotNull { it.text }.joinToString("\n")

/**
 * Follows one surface the way the Compose renderer does: its diffs applied to a [SurfaceNodes]
 * on [dispatcher] (the test's main thread). [await] polls the node state until it matches.
 */
class SurfaceProbe(
    conversation: AgentConversation,
    surfaceId: String,
    private val dispatcher: kotlinx.coroutines.CoroutineDispatcher,
) : AutoCloseable {
    val nodes = dev.agentui.compose.SurfaceNodes()
    private val scope = kotlinx.coroutines.CoroutineScope(dispatcher)
    private val job = scope.launch { conversation.surfaceDiffs(surfaceId).collect(nodes::apply) }

    fun node(id: String): Node? = nodes.node(id)
    val root: Node? get() = nodes.rootId?.let(nodes::node)
    fun children(node: Node): List<Node> = node.children.mapNotNull(nodes::node)

    suspend fun await(timeoutMs: Long = WAIT_MS, predicate: (SurfaceProbe) -> Boolean): SurfaceProbe =
        withTimeout(timeoutMs) {
            // Checked on the thread that applies the diffs: a Reset writes its nodes one by one, and
            // a check from another thread could see the first node of a diff without the rest.
            kotlinx.coroutines.withContext(dispatcher) {
                while (!predicate(this@SurfaceProbe)) kotlinx.coroutines.delay(2)
            }
            this@SurfaceProbe
        }

    override fun close() {
        job.cancel()
    }
}

/** Waits until [surfaceId] exists, then follows it. */
suspend fun AgentConversation.probe(surfaceId: String, dispatcher: kotlinx.coroutines.CoroutineDispatcher): SurfaceProbe {
    surfaces.awaitValue { live -> live.any { it.id == surfaceId } }
    return SurfaceProbe(this, surfaceId, dispatcher)
}

/** Answers any POST with the SSE body [write] produces, on loopback. */
class SseServer(private val write: (OutputStream) -> Unit) : AutoCloseable {
    private val server = HttpServer.create(InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0).apply {
        createContext("/") { exchange ->
            exchange.requestBody.readBytes()
            exchange.responseHeaders.add("Content-Type", "text/event-stream")
            exchange.sendResponseHeaders(200, 0)
            exchange.responseBody.buffered(1 shl 16).use(write)
        }
        start()
    }
    val url get() = "http://127.0.0.1:${server.address.port}/agent"
    override fun close() = server.stop(0)

    companion object {
        private fun event(json: String) = "data: $json\n\n".encodeToByteArray()

        /** One run on thread "t" streaming one assistant message of [deltas] one-character deltas. */
        fun oneLongMessage(deltas: Int) = SseServer { out ->
            val content = event("""{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x"}""")
            out.write(event("""{"type":"RUN_STARTED","threadId":"t","runId":"r"}"""))
            out.write(event("""{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"""))
            repeat(deltas) { out.write(content) }
            out.write(event("""{"type":"TEXT_MESSAGE_END","messageId":"m1"}"""))
            out.write(event("""{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"""))
        }

        /** [count] one-piece assistant messages: no streamed piece can join another. */
        fun manyMessages(count: Int) = SseServer { out ->
            out.write(event("""{"type":"RUN_STARTED","threadId":"t","runId":"r"}"""))
            repeat(count) { i ->
                out.write(event("""{"type":"TEXT_MESSAGE_START","messageId":"m$i","role":"assistant"}"""))
                out.write(event("""{"type":"TEXT_MESSAGE_CONTENT","messageId":"m$i","delta":"x"}"""))
                out.write(event("""{"type":"TEXT_MESSAGE_END","messageId":"m$i"}"""))
            }
            out.write(event("""{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"""))
        }
    }
}
