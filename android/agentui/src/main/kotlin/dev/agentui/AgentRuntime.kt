package dev.agentui

import dev.agentui.core.ConversationOptions
import dev.agentui.core.Header
import dev.agentui.core.MemoryBudget
import dev.agentui.core.Runtime
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import java.io.Closeable
import java.util.Locale
import java.util.TimeZone
import java.util.concurrent.atomic.AtomicBoolean

/**
 * The native runtime (one tokio runtime in Rust) that conversations run on. Make one per app
 * and close it when the app no longer talks to agents; conversations made from it keep the
 * native runtime alive until they are closed too.
 */
class AgentRuntime private constructor(private val native: Runtime) : Closeable {
    private val closed = AtomicBoolean(false)

    /** A runtime with the library's default worker count (2). */
    constructor() : this(Runtime())

    /**
     * A conversation with the agent at [url]. No I/O happens here: the first request is made by
     * [AgentConversation.send].
     *
     * @param dispatcher where state flows are updated. Native callbacks arrive on Rust worker
     *   threads; the conversation hops to this dispatcher (the main thread on Android) before
     *   it touches any state a UI reads. Tests pass their own.
     * @param memoryBudget bounds on what the agent can make this conversation hold (state,
     *   data models, message sizes...); overrides `options.memoryBudget`. Without either, the
     *   phone defaults apply (see `defaultMemoryBudget()`). A breach fails the run with
     *   `ConversationException.LimitExceeded` and changes nothing.
     *
     * The A2UI formatting functions (`formatNumber`, `formatCurrency`, `formatDate`,
     * `pluralize`) follow `options.locale` (a BCP-47 tag) and `options.timeZone` (an IANA
     * name); when they are null, the device's `Locale.getDefault().toLanguageTag()` and
     * `TimeZone.getDefault().id` at the time of this call. A value the core cannot use throws
     * `ConversationException.InvalidOptions`.
     */
    fun connect(
        url: String,
        headers: Map<String, String> = emptyMap(),
        options: ConversationOptions = ConversationOptions(),
        dispatcher: CoroutineDispatcher = Dispatchers.Main,
        memoryBudget: MemoryBudget? = null,
    ): AgentConversation {
        check(!closed.get()) { "AgentRuntime is closed" }
        val effective = localized(if (memoryBudget != null) options.copy(memoryBudget = memoryBudget) else options)
        val native = native.connect(url, headers.map { (name, value) -> Header(name, value) }, effective)
        return AgentConversation.wrap(native, dispatcher)
    }

    /** [options] with the device's locale and time zone where it names none. */
    private fun localized(options: ConversationOptions): ConversationOptions =
        options.copy(
            locale = options.locale ?: Locale.getDefault().toLanguageTag(),
            timeZone = options.timeZone ?: TimeZone.getDefault().id,
        )

    /** Releases the Kotlin side's reference; the runtime stops once its conversations are closed. */
    override fun close() {
        if (closed.compareAndSet(false, true)) native.close()
    }

    companion object {
        init {
            // Before the bindings load: see NativeThreads.
            NativeThreads.install()
        }

        fun withWorkerThreads(workerThreads: Int): AgentRuntime {
            require(workerThreads > 0) { "workerThreads must be positive" }
            return AgentRuntime(Runtime.withWorkerThreads(workerThreads.toUInt()))
        }
    }
}
