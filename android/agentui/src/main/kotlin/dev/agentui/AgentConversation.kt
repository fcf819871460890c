package dev.agentui

import dev.agentui.core.Conversation
import dev.agentui.core.ConversationListener
import dev.agentui.core.agui.Message as CoreMessage
import dev.agentui.core.agui.MessageContent
import dev.agentui.core.runtime.ConversationDelta
import dev.agentui.core.runtime.ConversationSnapshot
import dev.agentui.core.runtime.Observed
import dev.agentui.core.a2ui.SurfaceDiff as CoreSurfaceDiff
import dev.agentui.core.SurfaceListener
import dev.agentui.core.TaskHandle
import dev.agentui.core.ValueWrite
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Deferred
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.async
import kotlinx.coroutines.cancel
import kotlinx.coroutines.channels.BufferOverflow
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.channels.ChannelResult
import kotlinx.coroutines.channels.ClosedSendChannelException
import kotlinx.coroutines.channels.awaitClose
import kotlinx.coroutines.channels.trySendBlocking
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.MutableSharedFlow
import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.SharedFlow
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.asSharedFlow
import kotlinx.coroutines.flow.asStateFlow
import kotlinx.coroutines.flow.buffer
import kotlinx.coroutines.flow.callbackFlow
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.isActive
import kotlinx.coroutines.launch
import kotlinx.coroutines.selects.onTimeout
import kotlinx.coroutines.selects.select
import java.io.Closeable
import java.util.concurrent.atomic.AtomicBoolean

/**
 * One conversation with an agent, as state flows a UI observes. An adapter: the Rust runtime
 * owns the conversation's state and sends a snapshot, then deltas; this class applies them to
 * its flows, in one place ([apply]), and holds nothing the core does not send.
 *
 * The native listener only enqueues batches (on its own Rust thread); one coroutine on
 * [dispatcher] applies them in order and publishes once per drained batch, so every flow changes
 * on that dispatcher (the main thread on Android). The queue is bounded: while it is full the
 * listener's thread waits, the core's inbox for this conversation fills, and the core then
 * sends a fresh snapshot. A main thread that falls behind costs a resync, never unbounded memory.
 * [send], [continueRun] and [dispatchAction] return once the flows show the run's end: the core
 * returns after publishing it, and the call then waits for a marker queued behind everything
 * delivered so far.
 *
 * Surfaces are listed in [surfaces]; their nodes are observed one surface at a time with
 * [surfaceDiffs] (the Compose renderer does this), so a node change costs what it changed.
 */
@OptIn(ExperimentalCoroutinesApi::class) // select's onTimeout
class AgentConversation private constructor(
    /** The generated object; internal so the layer's tests can reach it, never part of the API. */
    internal val native: Conversation,
    dispatcher: CoroutineDispatcher,
) : Closeable {
    private val closed = AtomicBoolean(false)
    private val scope = CoroutineScope(SupervisorJob() + dispatcher)

    /** Update batches from the core, and markers [send] waits on, in one order. */
    private val queue = Channel<Any>(QUEUED_BATCHES) { undelivered ->
        // Dropped by close(): release whoever waits on it; the flows keep their last values.
        (undelivered as? Settled)?.done?.complete(Unit)
    }

    private val _messages = MutableStateFlow<List<ChatMessage>>(emptyList())
    private val _phase = MutableStateFlow<RunPhase>(RunPhase.Idle)
    private val _surfaces = MutableStateFlow<Map<String, SurfaceInfo>>(emptyMap())
    private val _toolCalls = MutableStateFlow<Map<String, ToolCall>>(emptyMap())
    private val _interrupts = MutableStateFlow<List<Interrupt>>(emptyList())
    private val _state = MutableStateFlow<Any?>(null)
    private val _stateJson = MutableStateFlow("{}")
    private val _warnings = MutableSharedFlow<Warning>(extraBufferCapacity = 64, onBufferOverflow = BufferOverflow.DROP_OLDEST)
    private val _events = MutableSharedFlow<AgentEvent>(extraBufferCapacity = EVENT_BUFFER, onBufferOverflow = BufferOverflow.DROP_OLDEST)
    private val _activeSteps = MutableStateFlow<List<String>>(emptyList())
    private val _pendingSends = MutableStateFlow<List<PendingSend>>(emptyList())

    /**
     * The messages in conversation order; streamed text updates its message in place. A message
     * that stays on this device has [ChatMessage.localOnly] set (text cut short by a cancel is
     * [ChatMessage.incomplete]).
     */
    val messages: StateFlow<List<ChatMessage>> = _messages.asStateFlow()
    val phase: StateFlow<RunPhase> = _phase.asStateFlow()
    /** The agent's live A2UI surfaces by id, in creation order. */
    val surfaces: StateFlow<Map<String, SurfaceInfo>> = _surfaces.asStateFlow()
    /** The last phase of every tool call by id, in the order the calls started. */
    val toolCalls: StateFlow<Map<String, ToolCall>> = _toolCalls.asStateFlow()
    /** What a run waits for the user to answer ([resolveInterrupt], [cancelInterrupt]). */
    val interrupts: StateFlow<List<Interrupt>> = _interrupts.asStateFlow()
    /** The shared agent state as plain Kotlin values (Map, List, String, Double, Boolean, null). */
    val state: StateFlow<Any?> = _state.asStateFlow()
    /** [state] as JSON text (`{}` when none). */
    val stateJson: StateFlow<String> = _stateJson.asStateFlow()
    /** Non-fatal observations as they happen; not replayed, the latest 64 buffered. */
    val warnings: SharedFlow<Warning> = _warnings.asSharedFlow()
    /** The agent's CUSTOM, RAW and STEP events in stream order; not replayed, the latest 256 buffered. */
    val events: SharedFlow<AgentEvent> = _events.asSharedFlow()
    /** The steps of the current run that started and have not finished, outermost first. */
    val activeSteps: StateFlow<List<String>> = _activeSteps.asStateFlow()
    /**
     * Messages and actions the agent has not received yet, in call order: each one while its
     * request is under way, and those the agent could not be reached for ([send] threw) until
     * they are delivered, once, automatically or by [retryPending]. A waiting message also shows
     * as [ChatMessage.pending]. A runtime with a store file keeps them across process death.
     */
    val pendingSends: StateFlow<List<PendingSend>> = _pendingSends.asStateFlow()

    val threadId: String = native.threadId()

    // Working copies, touched only by the apply coroutine. Streamed text grows in a builder and
    // becomes a String once per publish, so a long message costs O(delta) per event.
    private val messageIndex = LinkedHashMap<String, ChatMessage>()
    /** The core's kept-local marks, so a message rebuilt from its record keeps its mark. */
    private val localOnlyIndex = HashMap<String, LocalOnlyReason>()
    /** Ids of the user messages waiting for the agent, so a rebuilt message keeps its mark. */
    private var pendingMessageIds: Set<String> = emptySet()
    private var pending: List<PendingSend> = emptyList()
    private val growing = HashMap<String, StringBuilder>()
    private val grown = HashSet<String>()
    private val toolCallIndex = LinkedHashMap<String, ToolCall>()
    private val surfaceIndex = LinkedHashMap<String, SurfaceInfo>()
    private val stateTree = StateTree()
    private val steps = ArrayList<String>()
    private var messagesDirty = false
    private var toolCallsDirty = false
    private var surfacesDirty = false
    private var stateDirty = false
    private var stepsDirty = false
    private var pendingDirty = false

    /** Snapshots applied: the first, then one per resync after falling behind (for tests). */
    @Volatile
    internal var snapshotsApplied = 0
        private set

    private val subscription: TaskHandle = native.addListener(object : ConversationListener {
        override fun onUpdates(updates: List<Observed>) {
            // Waits while the queue is full (see the class comment); fails once closed.
            queue.trySendBlocking(updates)
        }
    })

    init {
        scope.launch {
            var lastPublish = 0L
            for (item in queue) {
                handle(item)
                drainReady()
                // While the agent streams, publish at most once a frame: a UI shows no more, and
                // each publish copies the growing message text once. Batches keep being applied
                // meanwhile: a queue left full would make the core resync with a whole snapshot.
                while (dirty()) {
                    val wait = PUBLISH_INTERVAL_NS - (System.nanoTime() - lastPublish)
                    if (wait <= 0) break
                    // select, not withTimeout: a timed-out select never takes (and loses) an item.
                    val next = select<ChannelResult<Any>?> {
                        queue.onReceiveCatching { it }
                        onTimeout(wait / 1_000_000 + 1) { null }
                    } ?: break
                    handle(next.getOrNull() ?: break)
                    drainReady()
                }
                publish()
                lastPublish = System.nanoTime()
            }
        }
    }

    private fun drainReady() {
        while (true) handle(queue.tryReceive().getOrNull() ?: return)
    }

    /** Sends a user message and runs the agent (and client-tool follow-ups) to the end. */
    suspend fun send(text: String): RunResult = settled { native.sendMessage(text) }.toResult()

    /** Starts the next run: after answering interrupts, or when the follow-up bound was reached. */
    suspend fun continueRun(): RunResult = settled { native.continueRun() }.toResult()

    /** The user acted on node [nodeId] of surface [surfaceId] (a Button's action...). */
    suspend fun dispatchAction(surfaceId: String, nodeId: String): ActionResult =
        settled { native.dispatchAction(surfaceId, nodeId) }.toResult()

    /**
     * Delivers the messages and actions waiting for the agent ([pendingSends]) now, e.g. when
     * the network is back; null when nothing waited. The conversation also retries on its own,
     * less often each time an attempt fails.
     */
    suspend fun retryPending(): RunResult? = settled { native.retryPending() }?.toResult()

    /** [send] in this conversation's own scope: the run outlives the caller's scope. */
    fun sendAsync(text: String): Deferred<RunResult> = scope.async { send(text) }

    /** [dispatchAction] in this conversation's own scope, like [sendAsync]. */
    fun dispatchActionAsync(surfaceId: String, nodeId: String): Deferred<ActionResult> =
        scope.async { dispatchAction(surfaceId, nodeId) }

    /**
     * Writes the data model of [surfaceId] at JSON Pointer [path], at once (during a run too);
     * bound nodes follow through [surfaceDiffs]. Throws `SurfaceException` (`UnknownSurface`,
     * `UnknownNode`, `Rejected`).
     */
    fun setValue(surfaceId: String, path: String, value: Any?) = native.setValue(ValueWrite(surfaceId, path, nodeValueOf(value)))

    /** Stops the run in flight and the runs queued behind it; never blocks. */
    fun cancel() = native.cancel()

    /** Answers interrupt [id]; the answer goes with the next [continueRun]. */
    fun resolveInterrupt(id: String, payloadJson: String?) = native.resolveInterrupt(id, payloadJson)

    fun cancelInterrupt(id: String) = native.cancelInterrupt(id)

    /** Registers a client tool; a run in flight keeps its tools, the next request has it. */
    fun registerTool(name: String, description: String, parametersJsonSchema: String, tool: ClientTool) =
        native.registerTool(name, description, parametersJsonSchema, ClientToolAdapter(tool))

    fun unregisterTool(name: String): Boolean = native.unregisterTool(name)

    /**
     * One surface's nodes: a [SurfaceDiff.Reset] first (empty once the agent deleted the
     * surface), then [SurfaceDiff.Patch]es, delivered where the flow is collected. Cancelling
     * the collection ends the native subscription. Throws `SurfaceException.UnknownSurface`.
     */
    fun surfaceDiffs(surfaceId: String): Flow<SurfaceDiff> = callbackFlow {
        val handle = native.addSurfaceListener(surfaceId, object : SurfaceListener {
            override fun onDiffs(diffs: List<CoreSurfaceDiff>) {
                // Bounded like the conversation's queue: a slow collector makes the core resync it.
                for (diff in diffs) if (trySendBlocking(diff.toDiff()).isClosed) return
            }
        })
        awaitClose { handle.close() }
    }.buffer(QUEUED_DIFFS)

    /** Cancels the run in flight, the subscription and the apply coroutine; flows keep their last values. */
    override fun close() {
        if (!closed.compareAndSet(false, true)) return
        subscription.close()
        // Cancel, not close: it wakes a listener thread waiting for room and drops what is queued.
        queue.cancel()
        scope.cancel()
        native.cancel()
        native.close()
    }

    /** Runs [call], then waits until the flows have applied everything the core published before it returned. */
    private suspend fun <T> settled(call: suspend () -> T): T {
        val result = call()
        subscription.flush()
        val marker = Settled()
        try {
            queue.send(marker)
        } catch (closed: ClosedSendChannelException) {
            return result
        } catch (closed: CancellationException) {
            // The queue was cancelled by close(), not this coroutine: nothing more will apply.
            if (!currentCoroutineContext().isActive) throw closed
            return result
        }
        marker.done.await()
        return result
    }

    private fun handle(item: Any) {
        when (item) {
            is Settled -> {
                // Everything before the marker is applied; publish it before releasing the caller.
                publish()
                item.done.complete(Unit)
            }
            is List<*> -> for (update in item) {
                when (update) {
                    is Observed.Snapshot -> reset(update.v1)
                    is Observed.Delta -> apply(update.v1)
                }
            }
        }
    }

    private fun reset(snapshot: ConversationSnapshot) {
        snapshotsApplied++
        messageIndex.clear()
        growing.clear()
        grown.clear()
        localOnlyIndex.clear()
        snapshot.keptLocal.forEach { localOnlyIndex[it.messageId] = it.reason.toReason() }
        setPending(snapshot.pendingSends)
        snapshot.messages.forEach { upsert(it) }
        stateTree.replace(snapshot.state)
        toolCallIndex.clear()
        snapshot.toolCalls.forEach { toolCallIndex[it.toolCallId] = it.toToolCall() }
        _interrupts.value = snapshot.pendingInterrupts.map { it.toInterrupt() }
        surfaceIndex.clear()
        snapshot.surfaces.forEach { surfaceIndex[it.surfaceId] = SurfaceInfo(it.surfaceId, it.catalogId) }
        messagesDirty = true
        toolCallsDirty = true
        surfacesDirty = true
        stateDirty = true
        // The phase last, after what it is the phase of, as for a RunPhase delta: a collector that
        // sees a restored run's phase must find its messages already published.
        publish()
        _phase.value = snapshot.phase.toPhase()
    }

    /** The one place a delta changes what the flows show. */
    private fun apply(delta: ConversationDelta) {
        when (delta) {
            is ConversationDelta.MessageAdded -> upsert(delta.v1)
            is ConversationDelta.MessageReplaced -> upsert(delta.v1)
            is ConversationDelta.TextAppended -> {
                val message = messageIndex[delta.messageId] ?: return
                growing.getOrPut(delta.messageId) { StringBuilder(message.text.orEmpty()) }.append(delta.delta)
                grown += delta.messageId
                messagesDirty = true
            }
            // Arguments are shown from the message record once complete; the tool call's phase says when.
            is ConversationDelta.ToolCallArgsAppended -> {
                val message = messageIndex[delta.messageId] ?: return
                messageIndex[delta.messageId] = message.copy(
                    toolCalls = message.toolCalls.map {
                        if (it.id == delta.toolCallId) it.copy(argumentsJson = it.argumentsJson + delta.delta) else it
                    },
                )
                messagesDirty = true
            }
            is ConversationDelta.MessagesReset -> {
                messageIndex.clear()
                growing.clear()
                grown.clear()
                // A reset clears the marks; the core re-sends the ones that still hold.
                localOnlyIndex.clear()
                delta.v1.forEach { upsert(it) }
            }
            is ConversationDelta.MessageKeptLocal -> {
                val reason = delta.reason.toReason()
                localOnlyIndex[delta.messageId] = reason
                messageIndex[delta.messageId]?.let { messageIndex[delta.messageId] = it.copy(localOnly = reason) }
                messagesDirty = true
            }
            is ConversationDelta.StatePatched -> {
                // The core applied this patch; a disagreement here would be a defect, so the state
                // is re-read whole rather than left wrong.
                if (!stateTree.apply(delta.v1)) stateTree.replace(native.snapshot().state)
                stateDirty = true
            }
            is ConversationDelta.StateReplaced -> {
                stateTree.replace(delta.v1)
                stateDirty = true
            }
            is ConversationDelta.StateResyncNeeded -> Unit
            is ConversationDelta.RunPhase -> {
                val phase = delta.v1.toPhase()
                // Steps belong to one run: none is open before it streams or after it ended.
                if (phase !is RunPhase.Running && steps.isNotEmpty()) {
                    steps.clear()
                    stepsDirty = true
                }
                publish()
                _phase.value = phase
            }
            is ConversationDelta.ToolCall -> {
                toolCallIndex[delta.v1.toolCallId] = delta.v1.toToolCall()
                toolCallsDirty = true
            }
            is ConversationDelta.Interrupts -> _interrupts.value = delta.v1.map { it.toInterrupt() }
            is ConversationDelta.SurfaceAdded -> {
                surfaceIndex[delta.v1.surfaceId] = SurfaceInfo(delta.v1.surfaceId, delta.v1.catalogId)
                surfacesDirty = true
            }
            is ConversationDelta.SurfaceRemoved -> {
                surfaceIndex.remove(delta.surfaceId)
                surfacesDirty = true
            }
            is ConversationDelta.Warning -> _warnings.tryEmit(delta.v1.toWarning())
            is ConversationDelta.Custom -> emitEvent(AgentEvent.Custom(delta.name, toJson(delta.value.toKotlin())))
            is ConversationDelta.Raw -> emitEvent(AgentEvent.Raw(toJson(delta.event.toKotlin()), delta.source))
            is ConversationDelta.PendingSends -> {
                val before = pendingMessageIds
                setPending(delta.v1)
                for (id in before union pendingMessageIds) {
                    val message = messageIndex[id] ?: continue
                    messageIndex[id] = message.copy(pending = id in pendingMessageIds)
                    messagesDirty = true
                }
            }
            is ConversationDelta.Step -> {
                if (delta.started) {
                    steps += delta.name
                } else {
                    val at = steps.lastIndexOf(delta.name)
                    if (at >= 0) steps.removeAt(at)
                }
                stepsDirty = true
                emitEvent(if (delta.started) AgentEvent.StepStarted(delta.name) else AgentEvent.StepFinished(delta.name))
            }
        }
    }

    private fun upsert(record: CoreMessage) {
        growing.remove(record.id)
        grown.remove(record.id)
        messageIndex[record.id] = record.toChat(localOnly = localOnlyIndex[record.id], pending = record.id in pendingMessageIds)
        messagesDirty = true
    }

    private fun setPending(records: List<dev.agentui.core.runtime.PendingSend>) {
        pending = records.map { it.toPending() }
        pendingMessageIds = pending.mapNotNullTo(HashSet()) { (it.kind as? PendingSendKind.Message)?.messageId }
        pendingDirty = true
    }

    /** Publishes the flows first, so an event's collector sees everything that came before it. */
    private fun emitEvent(event: AgentEvent) {
        publish()
        _events.tryEmit(event)
    }

    private fun dirty() = messagesDirty || toolCallsDirty || surfacesDirty || stateDirty || stepsDirty || pendingDirty

    private fun publish() {
        if (messagesDirty) {
            for (id in grown) {
                val message = messageIndex[id] ?: continue
                val text = growing.getValue(id).toString()
                // The record's text content grows with it, so a streamed message equals the same
                // message read back whole (a restore, a MessageReplaced).
                val content = if (message.content is MessageContent.Text) MessageContent.Text(text) else message.content
                messageIndex[id] = message.copy(text = text, content = content)
            }
            grown.clear()
            _messages.value = messageIndex.values.toList()
            messagesDirty = false
        }
        if (toolCallsDirty) {
            _toolCalls.value = LinkedHashMap(toolCallIndex)
            toolCallsDirty = false
        }
        if (surfacesDirty) {
            _surfaces.value = LinkedHashMap(surfaceIndex)
            surfacesDirty = false
        }
        if (stateDirty) {
            val state = stateTree.snapshot()
            _state.value = state
            _stateJson.value = if (state == null) "{}" else toJson(state)
            stateDirty = false
        }
        if (stepsDirty) {
            _activeSteps.value = steps.toList()
            stepsDirty = false
        }
        // After the messages, so a collector of this flow finds a waiting message in them.
        if (pendingDirty) {
            _pendingSends.value = pending
            pendingDirty = false
        }
    }

    /** Queued behind the batches delivered so far; completed once they are applied. */
    private class Settled {
        val done = CompletableDeferred<Unit>()
    }

    companion object {
        /** Batches (each at most 1,024 updates) waiting for the apply coroutine. */
        private const val QUEUED_BATCHES = 64
        /** One surface's diffs waiting for its collector. */
        private const val QUEUED_DIFFS = 1024
        private const val EVENT_BUFFER = 256
        private const val PUBLISH_INTERVAL_NS = 16_000_000L

        /** Wraps a generated [Conversation]; [close] cancels and frees it. */
        internal fun wrap(native: Conversation, dispatcher: CoroutineDispatcher): AgentConversation =
            AgentConversation(native, dispatcher)
    }
}
