package dev.agentui

import dev.agentui.core.A2uiFunction
import dev.agentui.core.ConversationOptions
import dev.agentui.core.ConversationStore
import dev.agentui.core.Header
import dev.agentui.core.Runtime
import dev.agentui.core.agui.Context as ContextEntry
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import java.io.Closeable
import java.io.File
import java.util.Locale
import java.util.TimeZone
import java.util.concurrent.atomic.AtomicBoolean
import kotlin.time.Duration
import kotlin.time.Duration.Companion.seconds

/**
 * The native runtime (one tokio runtime in Rust) that conversations run on. Make one per app
 * and close it when the app no longer talks to agents; conversations made from it keep the
 * native runtime alive until they are closed too.
 *
 * With a store file ([AgentRuntime(storeFile)][AgentRuntime]) every conversation is kept in
 * it (SQLite) and survives process death: [connect] or [resume] with a thread id the store
 * holds brings the conversation back as it was (messages, state, tool calls, surfaces with
 * the user's unsent input, interrupts), without running a tool or sending anything again,
 * and [conversations], [fork] and [delete] manage what is stored. Without one, conversations
 * live in memory only.
 */
public class AgentRuntime private constructor(
    /** The generated object; internal so the layer's tests and benchmarks can reach it. */
    internal val native: Runtime,
    private val store: ConversationStore?,
) : Closeable {
    private val closed = AtomicBoolean(false)

    /** A runtime with the library's default worker count (2); conversations live in memory only. */
    public constructor() : this(Runtime(), null)

    /**
     * A runtime whose conversations are kept in the SQLite file [storeFile] (created when
     * missing; its directory must exist). On Android put it under `noBackupFilesDir`. Throws
     * `StoreException` when the file cannot be opened or was written by a newer library.
     */
    public constructor(storeFile: File) : this(store = openStore(storeFile), native = Runtime())

    /** Whether conversations are kept in a store file. */
    public val isPersistent: Boolean get() = store != null

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
     *
     * With a store file, the conversation `options.threadId` (a fresh id when null) is kept in
     * it: restored as last written when the store holds it, created otherwise. That reads the
     * file (a few ms for a long conversation); [resume] does it off the calling thread. A run
     * that was open when the app stopped comes back as [RunPhase.Abandoned]. Throws
     * `ConversationException.Store` when the store cannot restore it.
     *
     * @param headerProvider asked for headers before every request, and again on a 401 with
     *   its [AuthChallenge] (see [HeaderProvider]); its headers go over [headers].
     */
    public fun connect(
        url: String,
        headers: Map<String, String> = emptyMap(),
        options: AgentOptions = AgentOptions(),
        dispatcher: CoroutineDispatcher = Dispatchers.Main,
        headerProvider: HeaderProvider? = null,
    ): AgentConversation {
        check(!closed.get()) { "AgentRuntime is closed" }
        val nativeHeaders = headers.map { (name, value) -> Header(name, value) }
        val nativeOptions = options.toNative(headerProvider)
        val conversation = when (store) {
            null -> native.connect(url, nativeHeaders, nativeOptions)
            else -> native.open(store, url, nativeHeaders, nativeOptions)
        }
        return AgentConversation.wrap(conversation, dispatcher)
    }

    /**
     * Whether the device has a network, as the platform says: on Android,
     * `AgentRuntime(context, ...)` watches ConnectivityManager and calls this itself. While
     * offline, messages waiting for the agent and a dropped stream's resumption hold their
     * attempts; when online again they go at once. Online until told otherwise.
     */
    public fun setOnline(online: Boolean) {
        check(!closed.get()) { "AgentRuntime is closed" }
        native.setOnline(online)
    }

    /**
     * The stored conversation [threadId] with the agent at [url], read on `Dispatchers.IO`: its
     * flows start with the restored state. A thread id the store does not hold (deleted, or
     * never written) starts an empty conversation under that id. Needs a store file.
     */
    public suspend fun resume(
        threadId: String,
        url: String,
        headers: Map<String, String> = emptyMap(),
        options: AgentOptions = AgentOptions(),
        dispatcher: CoroutineDispatcher = Dispatchers.Main,
        headerProvider: HeaderProvider? = null,
    ): AgentConversation {
        requireStore()
        return withContext(Dispatchers.IO) {
            connect(url, headers, options.newBuilder().threadId(threadId).build(), dispatcher, headerProvider)
        }
    }

    /**
     * Stored conversations, most recently written first, [limit] per page; pass the page's
     * `nextCursor` as [cursor] for the next one. Needs a store file. Throws `StoreException`.
     */
    public suspend fun conversations(limit: Int = 20, cursor: String? = null): ConversationPage {
        require(limit > 0) { "limit must be positive" }
        val store = requireStore()
        return withContext(Dispatchers.IO) { store.list(limit.toUInt(), cursor).toPage() }
    }

    /**
     * Copies stored conversation [threadId] to [newThreadId] (a fresh id when null) and returns
     * the copy's id; the source is untouched, and what waits for the agent stays with it.
     * Throws `StoreException.NotFound`, or `StoreException.Exists` when [newThreadId] is taken.
     */
    public suspend fun fork(threadId: String, newThreadId: String? = null): String {
        val store = requireStore()
        return withContext(Dispatchers.IO) { store.fork(threadId, newThreadId) }
    }

    /** Deletes stored conversation [threadId]; false when there was none. Close it first if it is open. */
    public suspend fun delete(threadId: String): Boolean {
        val store = requireStore()
        return withContext(Dispatchers.IO) { store.delete(threadId) }
    }

    /** Releases the Kotlin side's references; the runtime and store stay until their conversations are closed. */
    override fun close() {
        if (closed.compareAndSet(false, true)) {
            closeHooks.forEach { it() }
            native.close()
            store?.close()
        }
    }

    private val closeHooks = java.util.concurrent.CopyOnWriteArrayList<() -> Unit>()

    /** Runs [hook] when this runtime is closed (a platform watcher stops). */
    internal fun onClose(hook: () -> Unit) {
        closeHooks.add(hook)
    }

    /** [setOnline] from a platform watcher, whose callbacks may still arrive after [close]. */
    internal fun reportOnline(online: Boolean) {
        if (!closed.get()) native.setOnline(online)
    }

    private fun requireStore(): ConversationStore {
        check(!closed.get()) { "AgentRuntime is closed" }
        return checkNotNull(store) { "this AgentRuntime has no store file: create it with AgentRuntime(storeFile)" }
    }

    public companion object {
        init {
            // Before the bindings load: see NativeThreads.
            NativeThreads.install()
        }

        /** A runtime with [workerThreads] workers, its conversations kept in [storeFile] when given. */
        public fun withWorkerThreads(workerThreads: Int, storeFile: File? = null): AgentRuntime {
            require(workerThreads > 0) { "workerThreads must be positive" }
            val store = storeFile?.let(::openStore)
            return try {
                AgentRuntime(Runtime.withWorkerThreads(workerThreads.toUInt()), store)
            } catch (e: Throwable) {
                store?.close()
                throw e
            }
        }

        private fun openStore(file: File): ConversationStore = ConversationStore.open(file.path)
    }
}

/**
 * How a conversation behaves; every option has a default.
 *
 * Not a data class: an option added later is one more builder property, so code compiled
 * against an older version keeps linking. Kotlin writes `AgentOptions { threadId = "t" }`,
 * Java `new AgentOptions.Builder().threadId("t").build()`; [newBuilder] starts from these.
 *
 * - `memoryBudget`: bounds on what the agent can make this conversation hold (state, data
 *   models, message sizes...); the phone defaults (`MemoryBudget()`) when null. A breach
 *   fails the run with `ConversationException.LimitExceeded` and changes nothing.
 * - `locale`: a BCP-47 tag, and `timeZone` an IANA name, for the A2UI formatting functions;
 *   the device's at connect time when null.
 * - `catalogs`: the app's own A2UI catalogs, as catalog JSON text: advertised to the agent
 *   with every run beside the basic catalogs, so its surfaces may use them (at most 16, of
 *   256 KiB each). Or `catalogValues`, the same catalogs as plain values (maps, lists...),
 *   which the core converts: no JSON text on the app's side. Not both.
 * - `functions`: the app's implementations of catalog functions (of `catalogs` or a built-in
 *   catalog), each declared by its catalog. A malformed catalog, a known catalog id or an
 *   undeclared function makes connect throw `ConversationException.InvalidOptions`.
 *
 * [Builder] documents each option.
 */
public class AgentOptions private constructor(builder: Builder) {
    public val threadId: String? = builder.threadId
    public val connectTimeout: Duration = builder.connectTimeout
    public val idleTimeout: Duration = builder.idleTimeout
    public val toolTimeout: Duration = builder.toolTimeout
    public val maxFollowUpRuns: Int = builder.maxFollowUpRuns
    public val context: Map<String, String> = builder.context.toMap()
    public val forwardedPropsJson: String? = builder.forwardedPropsJson
    public val forwardedProps: Map<String, Any?>? = builder.forwardedProps?.toMap()
    public val memoryBudget: MemoryBudget? = builder.memoryBudget
    public val trustStore: TrustStore? = builder.trustStore
    public val extraRootsPem: List<String> = builder.extraRootsPem.toList()
    public val extraRootsDer: List<ByteArray> = builder.extraRootsDer.toList()
    public val certificatePins: List<String> = builder.certificatePins.toList()
    public val locale: String? = builder.locale
    public val timeZone: String? = builder.timeZone
    public val allowedAttachmentTypes: List<String>? = builder.allowedAttachmentTypes?.toList()
    public val allowedUrlSchemes: List<String>? = builder.allowedUrlSchemes?.toList()
    public val chatMarkdown: Boolean = builder.chatMarkdown
    public val markdownImages: Boolean = builder.markdownImages
    public val advertiseA2ui: Boolean = builder.advertiseA2ui
    public val catalogs: List<String> = builder.catalogs.toList()
    public val catalogValues: List<Map<String, Any?>> = builder.catalogValues.map { it.toMap() }
    public val functions: Map<CatalogFunctionId, CatalogFunction> = builder.functions.toMap()

    /** A builder holding these options, to derive others from them. */
    public fun newBuilder(): Builder = Builder(this)

    /**
     * The options under construction. Kotlin sets the properties (in `AgentOptions { ... }`);
     * Java chains the same-named methods, which return the builder.
     */
    public class Builder() {
        public var threadId: String? = null
        public var connectTimeout: Duration = 10.seconds

        /** Longest silence tolerated from the agent while a run streams. */
        public var idleTimeout: Duration = 60.seconds

        /** Bound on one client tool handler. */
        public var toolTimeout: Duration = 30.seconds

        /** Follow-up runs one [AgentConversation.send] may start to deliver tool results. */
        public var maxFollowUpRuns: Int = 5

        /** Ambient information given to the agent with every run: description to value. */
        public var context: Map<String, String> = emptyMap()

        /** `forwardedProps` sent with every run, as JSON text; or [forwardedProps], not both. */
        public var forwardedPropsJson: String? = null

        /**
         * `forwardedProps` sent with every run, as plain values (see [nodeValueOf]); setting it
         * and [forwardedPropsJson] makes connect throw `ConversationException.InvalidOptions`.
         */
        public var forwardedProps: Map<String, Any?>? = null

        /** Bounds on what the agent can make the conversation hold; the phone defaults when null. */
        public var memoryBudget: MemoryBudget? = null

        /** Whose roots vouch for the agent's certificate; null is the platform's. */
        public var trustStore: TrustStore? = null
        public var extraRootsPem: List<String> = emptyList()
        public var extraRootsDer: List<ByteArray> = emptyList()

        /** `sha256/BASE64` (public key) or `cert-sha256/BASE64` (whole certificate) of the leaf. */
        public var certificatePins: List<String> = emptyList()

        /** A BCP-47 tag for the A2UI formatting functions; the device's at connect time when null. */
        public var locale: String? = null

        /** An IANA time zone for the A2UI formatting functions; the device's when null. */
        public var timeZone: String? = null

        /**
         * The MIME types [AgentConversation.send] takes as attachments (`image/jpeg`, `image/ *`...);
         * null: images, audio, video, PDF and plain text.
         */
        public var allowedAttachmentTypes: List<String>? = null

        /**
         * The URL schemes the app allows: what `openUrl` may open (never beyond http and https),
         * surface media, and the links and images of Markdown, which follow the same two rules;
         * null: http and https.
         */
        public var allowedUrlSchemes: List<String>? = null

        /** Whether chat messages carry a Markdown tree (`ChatItem.markdown`); off: no parse. */
        public var chatMarkdown: Boolean = true

        /** Whether Markdown images in chat are shown (through [allowedUrlSchemes]); off: alt text. */
        public var markdownImages: Boolean = false

        /**
         * Whether each request tells the agent which A2UI catalogs the app renders (one context
         * entry, `a2uiClientCapabilities`); off for an app that shows no A2UI.
         */
        public var advertiseA2ui: Boolean = true

        /** The app's own A2UI catalogs, as catalog JSON text (at most 16, of 256 KiB each). */
        public var catalogs: List<String> = emptyList()

        /**
         * The app's own A2UI catalogs as plain values (see [nodeValueOf]), each the object the
         * catalog JSON text would be; the same checks and bounds (256 KiB each as compact JSON).
         * Setting it and [catalogs] makes connect throw `ConversationException.InvalidOptions`.
         */
        public var catalogValues: List<Map<String, Any?>> = emptyList()

        /** The app's implementations of catalog functions, each declared by its catalog. */
        public var functions: Map<CatalogFunctionId, CatalogFunction> = emptyMap()

        internal constructor(options: AgentOptions) : this() {
            threadId = options.threadId
            connectTimeout = options.connectTimeout
            idleTimeout = options.idleTimeout
            toolTimeout = options.toolTimeout
            maxFollowUpRuns = options.maxFollowUpRuns
            context = options.context
            forwardedPropsJson = options.forwardedPropsJson
            forwardedProps = options.forwardedProps
            memoryBudget = options.memoryBudget
            trustStore = options.trustStore
            extraRootsPem = options.extraRootsPem
            extraRootsDer = options.extraRootsDer
            certificatePins = options.certificatePins
            locale = options.locale
            timeZone = options.timeZone
            allowedAttachmentTypes = options.allowedAttachmentTypes
            allowedUrlSchemes = options.allowedUrlSchemes
            chatMarkdown = options.chatMarkdown
            markdownImages = options.markdownImages
            advertiseA2ui = options.advertiseA2ui
            catalogs = options.catalogs
            catalogValues = options.catalogValues
            functions = options.functions
        }

        // Chained setters for Java (and Kotlin call chains); each sets its property.
        public fun threadId(value: String?): Builder = apply { threadId = value }
        public fun connectTimeout(value: Duration): Builder = apply { connectTimeout = value }
        public fun idleTimeout(value: Duration): Builder = apply { idleTimeout = value }
        public fun toolTimeout(value: Duration): Builder = apply { toolTimeout = value }
        public fun maxFollowUpRuns(value: Int): Builder = apply { maxFollowUpRuns = value }
        public fun context(value: Map<String, String>): Builder = apply { context = value }
        public fun forwardedPropsJson(value: String?): Builder = apply { forwardedPropsJson = value }
        public fun forwardedProps(value: Map<String, Any?>?): Builder = apply { forwardedProps = value }
        public fun memoryBudget(value: MemoryBudget?): Builder = apply { memoryBudget = value }
        public fun trustStore(value: TrustStore?): Builder = apply { trustStore = value }
        public fun extraRootsPem(value: List<String>): Builder = apply { extraRootsPem = value }
        public fun extraRootsDer(value: List<ByteArray>): Builder = apply { extraRootsDer = value }
        public fun certificatePins(value: List<String>): Builder = apply { certificatePins = value }
        public fun locale(value: String?): Builder = apply { locale = value }
        public fun timeZone(value: String?): Builder = apply { timeZone = value }
        public fun allowedAttachmentTypes(value: List<String>?): Builder = apply { allowedAttachmentTypes = value }
        public fun allowedUrlSchemes(value: List<String>?): Builder = apply { allowedUrlSchemes = value }
        public fun chatMarkdown(value: Boolean): Builder = apply { chatMarkdown = value }
        public fun markdownImages(value: Boolean): Builder = apply { markdownImages = value }
        public fun advertiseA2ui(value: Boolean): Builder = apply { advertiseA2ui = value }
        public fun catalogs(value: List<String>): Builder = apply { catalogs = value }
        public fun catalogValues(value: List<Map<String, Any?>>): Builder = apply { catalogValues = value }
        public fun functions(value: Map<CatalogFunctionId, CatalogFunction>): Builder = apply { functions = value }

        public fun build(): AgentOptions = AgentOptions(this)
    }

    public companion object {
        /** Options with every default changed by [configure]: `AgentOptions { threadId = "t" }`. */
        public operator fun invoke(configure: Builder.() -> Unit = {}): AgentOptions =
            Builder().apply(configure).build()
    }

    // Value equality and text as the data class had them; this list is every option.
    private fun fields(): List<Pair<String, Any?>> = listOf(
        "threadId" to threadId,
        "connectTimeout" to connectTimeout,
        "idleTimeout" to idleTimeout,
        "toolTimeout" to toolTimeout,
        "maxFollowUpRuns" to maxFollowUpRuns,
        "context" to context,
        "forwardedPropsJson" to forwardedPropsJson,
        "forwardedProps" to forwardedProps,
        "memoryBudget" to memoryBudget,
        "trustStore" to trustStore,
        "extraRootsPem" to extraRootsPem,
        "extraRootsDer" to extraRootsDer,
        "certificatePins" to certificatePins,
        "locale" to locale,
        "timeZone" to timeZone,
        "allowedAttachmentTypes" to allowedAttachmentTypes,
        "allowedUrlSchemes" to allowedUrlSchemes,
        "chatMarkdown" to chatMarkdown,
        "markdownImages" to markdownImages,
        "advertiseA2ui" to advertiseA2ui,
        "catalogs" to catalogs,
        "catalogValues" to catalogValues,
        "functions" to functions,
    )

    override fun equals(other: Any?): Boolean = other is AgentOptions && fields() == other.fields()

    override fun hashCode(): Int = fields().hashCode()

    override fun toString(): String =
        fields().joinToString(prefix = "AgentOptions(", postfix = ")") { (name, value) -> "$name=$value" }

    internal fun toNative(headerProvider: HeaderProvider? = null) = ConversationOptions(
        threadId = threadId,
        connectTimeoutMs = connectTimeout.inWholeMilliseconds.coerceAtLeast(0).toULong(),
        idleTimeoutMs = idleTimeout.inWholeMilliseconds.coerceAtLeast(0).toULong(),
        toolTimeoutMs = toolTimeout.inWholeMilliseconds.coerceAtLeast(0).toULong(),
        maxFollowUpRuns = maxFollowUpRuns.toUInt(),
        context = context.map { (description, value) -> ContextEntry(description, value) },
        forwardedPropsJson = forwardedPropsJson,
        forwardedProps = forwardedProps?.let(::nodeValueOf),
        memoryBudget = memoryBudget?.toNative(),
        trustStore = trustStore?.toNative(),
        extraRootsPem = extraRootsPem,
        extraRootsDer = extraRootsDer,
        certificatePins = certificatePins,
        locale = locale ?: Locale.getDefault().toLanguageTag(),
        timeZone = timeZone ?: TimeZone.getDefault().id,
        allowedAttachmentTypes = allowedAttachmentTypes,
        allowedUrlSchemes = allowedUrlSchemes,
        chatMarkdown = chatMarkdown,
        markdownImages = markdownImages,
        advertiseA2ui = advertiseA2ui,
        catalogsJson = catalogs,
        catalogs = catalogValues.map(::nodeValueOf),
        a2uiFunctions = functions.keys.map { A2uiFunction(it.catalogId, it.name) },
        a2uiFunctionHandler = if (functions.isEmpty()) null else catalogFunctionHandler(functions.toMap()),
        headerProvider = headerProvider?.let(::nativeHeaderProvider),
    )
}
