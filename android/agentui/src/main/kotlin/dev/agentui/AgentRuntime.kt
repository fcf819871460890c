package dev.agentui

import dev.agentui.core.ContextEntry
import dev.agentui.core.ConversationOptions
import dev.agentui.core.Header
import dev.agentui.core.MemoryBudget
import dev.agentui.core.Runtime
import dev.agentui.core.TrustStore
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import java.io.Closeable
import java.util.Locale
import java.util.TimeZone
import java.util.concurrent.atomic.AtomicBoolean
import kotlin.time.Duration
import kotlin.time.Duration.Companion.seconds

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
        options: AgentOptions = AgentOptions(),
        dispatcher: CoroutineDispatcher = Dispatchers.Main,
    ): AgentConversation {
        check(!closed.get()) { "AgentRuntime is closed" }
        val native = native.connect(url, headers.map { (name, value) -> Header(name, value) }, options.toNative())
        return AgentConversation.wrap(native, dispatcher)
    }

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

/**
 * How a conversation behaves; every field has a default.
 *
 * @param memoryBudget bounds on what the agent can make this conversation hold (state, data
 *   models, message sizes...); the phone defaults (`defaultMemoryBudget()`) when null. A breach
 *   fails the run with `ConversationException.LimitExceeded` and changes nothing.
 * @param locale a BCP-47 tag and [timeZone] an IANA name for the A2UI formatting functions;
 *   the device's at connect time when null.
 */
data class AgentOptions(
    val threadId: String? = null,
    val connectTimeout: Duration = 10.seconds,
    /** Longest silence tolerated from the agent while a run streams. */
    val idleTimeout: Duration = 60.seconds,
    /** Bound on one client tool handler. */
    val toolTimeout: Duration = 30.seconds,
    /** Follow-up runs one [AgentConversation.send] may start to deliver tool results. */
    val maxFollowUpRuns: Int = 5,
    /** Ambient information given to the agent with every run: description to value. */
    val context: Map<String, String> = emptyMap(),
    val forwardedPropsJson: String? = null,
    val memoryBudget: MemoryBudget? = null,
    /** Whose roots vouch for the agent's certificate; null is the platform's. */
    val trustStore: TrustStore? = null,
    val extraRootsPem: List<String> = emptyList(),
    val extraRootsDer: List<ByteArray> = emptyList(),
    /** `sha256/BASE64` (public key) or `cert-sha256/BASE64` (whole certificate) of the leaf. */
    val certificatePins: List<String> = emptyList(),
    val locale: String? = null,
    val timeZone: String? = null,
) {
    internal fun toNative() = ConversationOptions(
        threadId = threadId,
        connectTimeoutMs = connectTimeout.inWholeMilliseconds.coerceAtLeast(0).toULong(),
        idleTimeoutMs = idleTimeout.inWholeMilliseconds.coerceAtLeast(0).toULong(),
        toolTimeoutMs = toolTimeout.inWholeMilliseconds.coerceAtLeast(0).toULong(),
        maxFollowUpRuns = maxFollowUpRuns.toUInt(),
        context = context.map { (description, value) -> ContextEntry(description, value) },
        forwardedPropsJson = forwardedPropsJson,
        memoryBudget = memoryBudget,
        trustStore = trustStore,
        extraRootsPem = extraRootsPem,
        extraRootsDer = extraRootsDer,
        certificatePins = certificatePins,
        locale = locale ?: Locale.getDefault().toLanguageTag(),
        timeZone = timeZone ?: TimeZone.getDefault().id,
    )
}
