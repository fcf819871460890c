package dev.agentui

import dev.agentui.core.ActionResultRecord
import dev.agentui.core.Conversation
import dev.agentui.core.ConversationListener
import dev.agentui.core.ConversationUpdate
import dev.agentui.core.InterruptRecord
import dev.agentui.core.LocalOnlyReason
import dev.agentui.core.MessageRole
import dev.agentui.core.NodeValue
import dev.agentui.core.ResolvedNodeRecord
import dev.agentui.core.RunStatus
import dev.agentui.core.RunSummary
import dev.agentui.core.Surface
import dev.agentui.core.SurfaceDiffRecord
import dev.agentui.core.SubscriptionHandle
import dev.agentui.core.ToolCallStatus
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Deferred
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.async
import kotlinx.coroutines.cancel
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.channels.BufferOverflow
import kotlinx.coroutines.flow.MutableSharedFlow
import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.SharedFlow
import kotlinx.coroutines.flow.asSharedFlow
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.asStateFlow
import kotlinx.coroutines.launch
import java.io.Closeable
import java.util.concurrent.atomic.AtomicBoolean

/** Where one tool call stands; "requested" and "succeeded" are different states (lesson 1). */
data class ToolCallState(val toolCallId: String, val toolName: String, val status: ToolCallStatus)

/**
 * One conversation with an agent, as state flows a UI observes.
 *
 * The native conversation calls its listener on Rust worker threads. This class only enqueues
 * there; one coroutine on [dispatcher] applies the updates in order and publishes the flows, so
 * every flow changes on that dispatcher (the main thread on Android) and never on a Rust thread.
 * Updates that queued up while the dispatcher was busy are applied together and published once.
 *
 * [events] carries what the agent streams besides state (CUSTOM, RAW, STEP_STARTED/FINISHED), in
 * stream order; the state flows are published before each event, so a collector of [events]
 * already sees in [messages], [status]... everything that came before that event.
 *
 * [close] cancels the run in flight, the native subscription and the state coroutine, and frees
 * the native conversation. Flows keep their last values after close.
 */
class AgentConversation private constructor(
    /** The generated object, for what this class does not wrap. Do not close it yourself. */
    val native: Conversation,
    dispatcher: CoroutineDispatcher,
    private val ownsNative: Boolean,
) : Closeable {
    private val closed = AtomicBoolean(false)
    private val scope = CoroutineScope(SupervisorJob() + dispatcher)
    private val queue = Channel<ConversationUpdate>(Channel.UNLIMITED)

    private val _messages = MutableStateFlow<List<ChatMessage>>(emptyList())
    private val _status = MutableStateFlow<RunStatus>(RunStatus.Idle)
    private val _surfaces = MutableStateFlow<Map<String, SurfaceState>>(emptyMap())
    private val _toolCalls = MutableStateFlow<Map<String, ToolCallState>>(emptyMap())
    private val _stateJson = MutableStateFlow("{}")
    private val _warnings = MutableSharedFlow<ConversationUpdate.Warning>(
        extraBufferCapacity = 64,
        onBufferOverflow = BufferOverflow.DROP_OLDEST,
    )
    private val _events = MutableSharedFlow<AgentEvent>(
        extraBufferCapacity = EVENT_BUFFER,
        onBufferOverflow = BufferOverflow.DROP_OLDEST,
    )
    private val _activeSteps = MutableStateFlow<List<String>>(emptyList())

    /**
     * The messages in conversation order; streamed text updates its message in place. A message
     * that stays on this device has [ChatMessage.localOnly] set (text cut short by a cancel is
     * [ChatMessage.incomplete]), from the moment this object exists.
     */
    val messages: StateFlow<List<ChatMessage>> = _messages.asStateFlow()
    val status: StateFlow<RunStatus> = _status.asStateFlow()
    /** Live A2UI surfaces by id, as resolved nodes. */
    val surfaces: StateFlow<Map<String, SurfaceState>> = _surfaces.asStateFlow()
    /** Tool calls by id, in the order the agent asked. */
    val toolCalls: StateFlow<Map<String, ToolCallState>> = _toolCalls.asStateFlow()
    /** The shared agent state as JSON text (`{}` when none). */
    val stateJson: StateFlow<String> = _stateJson.asStateFlow()

    /**
     * Non-fatal observations as they happen (a dropped event, input queued during a run that the
     * engine then refused: `WarningKind.INPUT_NOT_APPLIED`...). Not replayed; the latest 64 are
     * buffered for a slow collector.
     */
    val warnings: SharedFlow<ConversationUpdate.Warning> = _warnings.asSharedFlow()

    /**
     * The agent's CUSTOM, RAW and STEP events, one [AgentEvent] each, in the order the agent sent
     * them (including LangGraph's `on_interrupt`, which also becomes a pending interrupt). Like
     * [warnings], not replayed: collect before [send] to see a run's events. The latest 256 are
     * buffered for a slow collector; older ones are dropped first.
     */
    val events: SharedFlow<AgentEvent> = _events.asSharedFlow()

    /**
     * The steps of the current run that started and have not finished, outermost first. Emptied
     * when a run starts or ends (a cancelled run may leave steps open).
     */
    val activeSteps: StateFlow<List<String>> = _activeSteps.asStateFlow()

    val threadId: String = native.threadId()

    // Mutable working copies, touched only by the state coroutine.
    private val messageIndex = LinkedHashMap<String, ChatMessage>()
    private val surfaceBuilders = LinkedHashMap<String, SurfaceBuilder>()
    private val toolCallIndex = LinkedHashMap<String, ToolCallState>()
    private val localOnlyIndex = HashMap<String, LocalOnlyReason>()
    private val stepIndex = ArrayList<String>()
    private var messagesDirty = false
    private var surfacesDirty = false
    private var toolCallsDirty = false
    private var stepsDirty = false

    private val subscription: SubscriptionHandle

    init {
        // Subscribe before reading the current state: whatever happens in between is queued and
        // applied on top (upserts by id, so nothing is lost or doubled).
        subscription = native.addListener(object : ConversationListener {
            override fun onUpdate(update: ConversationUpdate) {
                queue.trySend(update)
            }
        })
        seed()
        scope.launch {
            for (update in queue) {
                apply(update)
                while (true) apply(queue.tryReceive().getOrNull() ?: break)
                publish()
            }
        }
    }

    /** Sends a user message and runs the agent (and any client-tool follow-ups) to the end. */
    suspend fun send(text: String): RunSummary = native.sendMessage(text)

    /** Starts the next run: after answering interrupts, or when the follow-up bound was reached. */
    suspend fun continueRun(): RunSummary = native.continueRun()

    /** The user acted on node [nodeId] of surface [surfaceId] (a Button's action...). */
    suspend fun dispatchAction(surfaceId: String, nodeId: String): ActionResultRecord =
        native.dispatchAction(surfaceId, nodeId)

    /**
     * [send] in this conversation's own scope: the run goes on when the caller's scope ends (a
     * screen rotating, a list item scrolling away). [cancel] or [close] stop it.
     */
    fun sendAsync(text: String): Deferred<RunSummary> = scope.async { send(text) }

    /** [dispatchAction] in this conversation's own scope, like [sendAsync]. */
    fun dispatchActionAsync(surfaceId: String, nodeId: String): Deferred<ActionResultRecord> =
        scope.async { dispatchAction(surfaceId, nodeId) }

    /**
     * Writes the data model of [surfaceId] at JSON Pointer [path]; bound nodes update through
     * [surfaces]. Never waits: during a run the core queues the write and applies it when the
     * run ends (a refusal then arrives on [warnings] as `INPUT_NOT_APPLIED`). Throws
     * `SurfaceException` (`UnknownSurface`, `Rejected`, `Busy` only past 1,024 queued writes).
     */
    fun setValue(surfaceId: String, path: String, value: NodeValue) = native.setValue(surfaceId, path, value)

    /** [setValue] with a plain Kotlin value (see [nodeValueOf]). */
    fun setValue(surfaceId: String, path: String, value: Any?) = setValue(surfaceId, path, nodeValueOf(value))

    /** Stops the run in flight and the runs queued behind it; never blocks. */
    fun cancel() = native.cancel()

    fun pendingInterrupts(): List<InterruptRecord> = native.pendingInterrupts()

    /** Answers interrupt [id]; the answer goes with the next [continueRun]. */
    fun resolveInterrupt(id: String, payloadJson: String?) = native.resolveInterrupt(id, payloadJson)

    fun cancelInterrupt(id: String) = native.cancelInterrupt(id)

    /**
     * Registers a client tool. The same registry declares it to the agent and executes it, so
     * what the agent is told and what the app runs cannot drift.
     */
    fun registerTool(name: String, description: String, parametersJsonSchema: String, tool: ClientTool) =
        native.registerTool(name, description, parametersJsonSchema, ClientToolAdapter(tool))

    fun unregisterTool(name: String): Boolean = native.unregisterTool(name)

    /** The native live surface, for a renderer that subscribes itself ([Surface.diffs]); close it after use. */
    fun surface(surfaceId: String): Surface? = native.surface(surfaceId)

    override fun close() {
        if (!closed.compareAndSet(false, true)) return
        subscription.close()
        queue.close()
        scope.cancel()
        if (ownsNative) {
            native.cancel()
            native.close()
        }
    }

    private fun seed() {
        native.messages().forEach { messageIndex[it.id] = ChatMessage.from(it) }
        _status.value = native.status()
        _stateJson.value = native.stateJson()
        for (id in native.surfaceIds()) {
            native.surface(id)?.use { surface ->
                val builder = SurfaceBuilder(id, surface.catalogId())
                builder.apply(surface.snapshot())
                surfaceBuilders[id] = builder
            }
        }
        messagesDirty = true
        surfacesDirty = true
        publish()
    }

    private fun apply(update: ConversationUpdate) {
        when (update) {
            is ConversationUpdate.RunStatusChanged -> {
                _status.value = update.status
                // Steps belong to one run: none is open before it streams or after it ended.
                if (update.status !is RunStatus.Running && stepIndex.isNotEmpty()) {
                    stepIndex.clear()
                    stepsDirty = true
                }
            }
            is ConversationUpdate.MessageUpserted -> {
                val id = update.message.id
                messageIndex[id] = ChatMessage.from(update.message, localOnlyIndex[id])
                messagesDirty = true
            }
            is ConversationUpdate.MessagesReset -> {
                // As the core does: the agent holds what its snapshot carries, so only messages
                // of client-only roles (which a snapshot leaves in place) keep their mark.
                val kept = update.messages.filter { it.role == MessageRole.ACTIVITY || it.role == MessageRole.REASONING }
                    .mapTo(HashSet()) { it.id }
                localOnlyIndex.keys.retainAll(kept)
                messageIndex.clear()
                update.messages.forEach { messageIndex[it.id] = ChatMessage.from(it, localOnlyIndex[it.id]) }
                messagesDirty = true
            }
            is ConversationUpdate.MessageKeptLocal -> {
                localOnlyIndex[update.messageId] = update.reason
                messageIndex[update.messageId]?.let { messageIndex[update.messageId] = it.copy(localOnly = update.reason) }
                messagesDirty = true
            }
            is ConversationUpdate.ToolCall -> {
                toolCallIndex[update.toolCallId] = ToolCallState(update.toolCallId, update.toolName, update.status)
                toolCallsDirty = true
            }
            is ConversationUpdate.StateChanged -> _stateJson.value = update.json
            is ConversationUpdate.SurfaceCreated -> {
                surfaceBuilders[update.surfaceId] = SurfaceBuilder(update.surfaceId, update.catalogId)
                surfacesDirty = true
            }
            is ConversationUpdate.SurfaceDiff -> {
                // A diff for a surface created before this object existed and not seeded: take
                // the catalog from the native side once.
                val builder = surfaceBuilders.getOrPut(update.surfaceId) {
                    SurfaceBuilder(update.surfaceId, native.surface(update.surfaceId)?.use { it.catalogId() } ?: "")
                }
                builder.apply(update.diff)
                surfacesDirty = true
            }
            is ConversationUpdate.SurfaceDeleted -> {
                surfaceBuilders.remove(update.surfaceId)
                surfacesDirty = true
            }
            is ConversationUpdate.Warning -> _warnings.tryEmit(update)
            is ConversationUpdate.StateResyncNeeded -> Unit
            is ConversationUpdate.Custom -> emitEvent(AgentEvent.Custom(update.name, update.valueJson))
            is ConversationUpdate.Raw -> emitEvent(AgentEvent.Raw(update.eventJson, update.source))
            is ConversationUpdate.Step -> {
                if (update.started) {
                    stepIndex += update.name
                } else {
                    val at = stepIndex.lastIndexOf(update.name)
                    if (at >= 0) stepIndex.removeAt(at)
                }
                stepsDirty = true
                emitEvent(if (update.started) AgentEvent.StepStarted(update.name) else AgentEvent.StepFinished(update.name))
            }
        }
    }

    /** Publishes the state first, so the event's collector sees everything that came before it. */
    private fun emitEvent(event: AgentEvent) {
        publish()
        _events.tryEmit(event)
    }

    private fun publish() {
        if (messagesDirty) {
            _messages.value = messageIndex.values.toList()
            messagesDirty = false
        }
        if (toolCallsDirty) {
            _toolCalls.value = LinkedHashMap(toolCallIndex)
            toolCallsDirty = false
        }
        if (stepsDirty) {
            _activeSteps.value = stepIndex.toList()
            stepsDirty = false
        }
        if (surfacesDirty) {
            val previous = _surfaces.value
            _surfaces.value = surfaceBuilders.mapValuesTo(LinkedHashMap()) { (id, builder) ->
                builder.snapshotOr(previous[id])
            }
            surfacesDirty = false
        }
    }

    /** One surface's nodes while diffs are applied; snapshots are taken only when it changed. */
    private class SurfaceBuilder(val id: String, val catalogId: String) {
        private val nodes = LinkedHashMap<String, ResolvedNodeRecord>()
        private var rootId: String? = null
        private var version = 0L
        private var dirty = true

        fun apply(diff: SurfaceDiffRecord) {
            when (diff) {
                is SurfaceDiffRecord.Reset -> {
                    nodes.clear()
                    rootId = diff.root
                    diff.nodes.forEach { nodes[it.id] = it }
                }
                is SurfaceDiffRecord.Patch -> {
                    diff.removed.forEach { nodes.remove(it) }
                    diff.upserted.forEach { nodes[it.id] = it }
                }
            }
            version++
            dirty = true
        }

        fun snapshotOr(previous: SurfaceState?): SurfaceState {
            if (!dirty && previous != null) return previous
            dirty = false
            return SurfaceState(id, catalogId, rootId, LinkedHashMap(nodes), version)
        }
    }

    companion object {
        private const val EVENT_BUFFER = 256

        /**
         * Wraps a generated [Conversation]. With [ownsNative] (the default) [close] also cancels
         * and frees it; pass false to keep using the native object after this wrapper is closed.
         */
        fun wrap(native: Conversation, dispatcher: CoroutineDispatcher, ownsNative: Boolean = true): AgentConversation =
            AgentConversation(native, dispatcher, ownsNative)
    }
}
