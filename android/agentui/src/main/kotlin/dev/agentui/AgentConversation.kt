package dev.agentui

import dev.agentui.core.Conversation
import dev.agentui.core.ConversationException
import dev.agentui.core.ValueWrite
import dev.agentui.core.ViewSubscription
import dev.agentui.core.runtime.ChatItem
import dev.agentui.core.runtime.MessageDiff
import dev.agentui.core.runtime.ToolCallDiff
import dev.agentui.core.runtime.ViewBatch
import dev.agentui.core.runtime.ViewEvent
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Deferred
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.async
import kotlinx.coroutines.cancel
import kotlinx.coroutines.channels.BufferOverflow
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.MutableSharedFlow
import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.SharedFlow
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.asSharedFlow
import kotlinx.coroutines.flow.asStateFlow
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.launch
import kotlinx.coroutines.withTimeoutOrNull
import java.io.Closeable
import java.util.concurrent.atomic.AtomicBoolean

/**
 * One conversation with an agent, as state flows a UI observes. An adapter with nothing to
 * interpret: the Rust core builds what a UI shows (chat items, tool calls in order, the open
 * steps...) and hands it over as batches of index-based list diffs, which this class applies to
 * its flows and publishes.
 *
 * One coroutine on [dispatcher] (the main thread on Android) pulls the next batch when it is
 * ready for one: there is no listener thread and no queue here. Whatever the core published
 * meanwhile arrives joined in that batch, so while the agent streams the flows are published at
 * most once a frame; a batch that carries an event ends there, and the event is emitted after
 * the flows show the state of its moment. The core's bounded inbox is the only back-pressure: a
 * main thread that falls far behind gets the whole state again, never unbounded memory.
 * [send], [continueRun], [answerConsent], [dispatchAction] and [callAgentFunction] return once the flows show the run's end,
 * and throw once the flows show the state the failure left (its phase, what waits in [pendingSends]).
 *
 * An internal error of the core while the flows are updated (a defect of this library) never
 * reaches the app's thread: the flows stop where they are, [phase] becomes [RunPhase.Failed] and a
 * [SessionWarningKind.VIEW_FAILED] warning is emitted; calls waiting for their run's end return.
 *
 * Surfaces are listed in [surfaces]; their nodes are observed one surface at a time with
 * [surfaceDiffs] (the Compose renderer does this), so a node change costs what it changed.
 */
public class AgentConversation private constructor(
    /** The generated object; internal so the layer's tests can reach it, never part of the API. */
    internal val native: Conversation,
    dispatcher: CoroutineDispatcher,
) : Closeable {
    private val closed = AtomicBoolean(false)
    private val scope = CoroutineScope(SupervisorJob() + dispatcher)
    private val view: ViewSubscription = native.subscribeTimelineView()

    private val _messages = MutableStateFlow<List<ChatMessage>>(emptyList())
    private val _phase = MutableStateFlow<RunPhase>(RunPhase.Idle)
    private val _surfaces = MutableStateFlow<List<SurfaceInfo>>(emptyList())
    private val _toolCalls = MutableStateFlow<List<ToolCallUpdate>>(emptyList())
    private val _interrupts = MutableStateFlow<List<Interrupt>>(emptyList())
    private val _consentRequests = MutableStateFlow<List<ConsentRequest>>(emptyList())
    private val _consentGrants = MutableStateFlow<List<String>>(emptyList())
    private val _timeline = MutableStateFlow<List<TimelineItem>>(emptyList())
    private val _state = MutableStateFlow<Any?>(null)
    private val _stateJson = MutableStateFlow("{}")
    private val _warnings = MutableSharedFlow<SessionWarning>(extraBufferCapacity = 64, onBufferOverflow = BufferOverflow.DROP_OLDEST)
    private val _events = MutableSharedFlow<AgentEvent>(extraBufferCapacity = EVENT_BUFFER, onBufferOverflow = BufferOverflow.DROP_OLDEST)
    private val _activeSteps = MutableStateFlow<List<String>>(emptyList())
    private val _pendingSends = MutableStateFlow<List<PendingSend>>(emptyList())
    /** The highest barrier the applied batches settled (see [settled]). */
    private val settledUpTo = MutableStateFlow(0uL)
    /** Wakes the apply coroutine from its once-a-frame wait: someone waits for a barrier. */
    private val wake = Channel<Unit>(Channel.CONFLATED)
    /** Set when the apply coroutine has ended (closed, or stopped by an error): no barrier settles any more. */
    private val viewEnded = AtomicBoolean(false)

    /**
     * The messages in conversation order; streamed text updates its message in place. A message
     * that stays on this device has [ChatMessage.localOnly] set (text cut short by a cancel is
     * [ChatMessage.isIncomplete]).
     */
    public val messages: StateFlow<List<ChatMessage>> = _messages.asStateFlow()
    public val phase: StateFlow<RunPhase> = _phase.asStateFlow()
    /** The agent's live A2UI surfaces, in creation order ([surface] finds one). */
    public val surfaces: StateFlow<List<SurfaceInfo>> = _surfaces.asStateFlow()
    /** The last phase of every tool call, in the order the calls started ([toolCall] finds one). */
    public val toolCalls: StateFlow<List<ToolCallUpdate>> = _toolCalls.asStateFlow()
    /** What a run waits for the user to answer ([resolveInterrupt], [cancelInterrupt]). */
    public val interrupts: StateFlow<List<Interrupt>> = _interrupts.asStateFlow()
    /**
     * The calls of [Consent.ASK] tools waiting for the user's answer ([answerConsent]), in the
     * order the agent made them. A conversation restored from the store shows its waiting
     * requests again: none of them ran.
     */
    public val consentRequests: StateFlow<List<ConsentRequest>> = _consentRequests.asStateFlow()
    /**
     * The tools the user allowed for the rest of this conversation ([ConsentAnswer.ALLOW_ALWAYS]):
     * their calls run without asking. Kept with the conversation in a store.
     */
    public val consentGrants: StateFlow<List<String>> = _consentGrants.asStateFlow()
    /**
     * What a conversation screen shows, row by row, in the core's order (user and agent
     * messages, tool activity, surfaces in their place, interrupts, consent requests, a run's
     * error or progress): lay it out keyed by [TimelineItem.key]. Streamed text updates its row
     * in place. `AgentChat` (agentui-compose) draws it.
     */
    public val timeline: StateFlow<List<TimelineItem>> = _timeline.asStateFlow()
    /** The shared agent state as plain Kotlin values (Map, List, String, Double, Boolean, null). */
    public val state: StateFlow<Any?> = _state.asStateFlow()
    /** [state] as JSON text (`{}` when none). */
    public val stateJson: StateFlow<String> = _stateJson.asStateFlow()
    /** Non-fatal observations as they happen; not replayed, the latest 64 buffered. */
    public val warnings: SharedFlow<SessionWarning> = _warnings.asSharedFlow()
    /** The agent's CUSTOM, RAW and STEP events in stream order; not replayed, the latest 256 buffered. */
    public val events: SharedFlow<AgentEvent> = _events.asSharedFlow()
    /** The steps of the current run that started and have not finished, outermost first. */
    public val activeSteps: StateFlow<List<String>> = _activeSteps.asStateFlow()
    /**
     * Messages and actions the agent has not received yet, in call order: each one while its
     * request is under way, and those the agent could not be reached for ([send] threw) until
     * they are delivered, once, automatically or by [retryPending]. A waiting message also shows
     * as [ChatMessage.isPending]. A runtime with a store file keeps them across process death.
     */
    public val pendingSends: StateFlow<List<PendingSend>> = _pendingSends.asStateFlow()

    public val threadId: String = native.threadId()

    /** The published items, copied and changed once per batch. */
    private val items = ArrayList<ChatMessage>()
    private val toolCallList = ArrayList<ToolCallUpdate>()
    private val timelineRows = ArrayList<TimelineItem>()

    /**
     * Streamed pieces of the batch being applied, joined per text before they are copied into
     * their item once: appending each piece to the item's String would copy the whole text per
     * piece, quadratic over a long answer.
     */
    private val appended = LinkedHashMap<AppendTarget, StringBuilder>()

    /** Whole-state batches applied: the first, then one per resync after falling behind (for tests). */
    @Volatile
    internal var snapshotsApplied = 0
        private set

    init {
        // Atomic: the body always runs, so the subscription is freed here even when close()
        // comes first; nothing else frees it, so no call can reach a freed object.
        scope.launch(start = CoroutineStart.ATOMIC) {
            try {
                pump()
            } catch (cancelled: CancellationException) {
                throw cancelled
            } catch (failure: Exception) {
                // An internal error of the core (or a defect here). Thrown on, it would reach the
                // dispatcher thread's uncaught-exception handler, which ends the app on Android.
                if (!closed.get()) viewFailed(failure)
            } finally {
                viewEnded.set(true)
                // Releases every caller waiting for its run's end to show: nothing will show it now.
                settledUpTo.value = ULong.MAX_VALUE
                view.destroy()
            }
        }
    }

    /** Pulls and applies batches until the subscription ends. */
    private suspend fun pump() {
        var lastPublish = 0L
        while (true) {
            // A suspend call into the core: no thread waits while nothing changes.
            val batch = view.nextBatch() ?: break
            try {
                apply(batch)
            } catch (inconsistent: IndexOutOfBoundsException) {
                // A diff for a position this list does not have would be a core defect:
                // start again from the whole state rather than show a wrong list or crash.
                view.resync()
            }
            // While the agent streams, ask again at most once a frame: what arrives
            // meanwhile is joined into the next batch, and each publish copies the lists once.
            // A caller of send() waiting for its run's end cuts the wait short.
            val wait = PUBLISH_INTERVAL_NS - (System.nanoTime() - lastPublish)
            lastPublish = System.nanoTime()
            if (wait > 0 && batch.event == null) withTimeoutOrNull(wait / 1_000_000 + 1) { wake.receive() }
        }
    }

    /** The flows stop where they are and say why: a failed phase (final) and a warning. */
    private fun viewFailed(failure: Exception) {
        val detail = (failure as? ConversationException.Internal)?.detail ?: failure.toString()
        val message = "$VIEW_FAILED_PREFIX$detail"
        _phase.value = RunPhase.Failed(message)
        _warnings.tryEmit(SessionWarning(SessionWarningKind.VIEW_FAILED, message))
    }

    /** The last phase of tool call [id], null if there is none. */
    public fun toolCall(id: String): ToolCallUpdate? = _toolCalls.value.firstOrNull { it.toolCallId == id }

    /** Live surface [id], null when the agent has not created it or has deleted it. */
    public fun surface(id: String): SurfaceInfo? = _surfaces.value.firstOrNull { it.id == id }

    /** Sends a user message and runs the agent (and client-tool follow-ups) to the end. */
    public suspend fun send(text: String): RunSummary = settled { native.sendMessage(text) }.toSummary()

    /**
     * Sends [text] with [attachments] as one user message. The core checks each attachment
     * (size against the memory budget, MIME type against [AgentOptions.allowedAttachmentTypes],
     * that a file can be read), then reads and encodes it on its own threads: this call only
     * hands them over. A refused attachment fails the call with
     * `ConversationException.AttachmentRefused` naming it, and nothing is sent or queued. An
     * agent that refuses the message (HTTP 413 or 415) fails it with
     * `ConversationException.MessageRejected`.
     */
    public suspend fun send(text: String, attachments: List<Attachment>): RunSummary =
        settled { native.send(text, attachments.map { it.native }) }.toSummary()

    /**
     * The decoded bytes of [media], off the main thread: bytes the part carries itself (small
     * inline data) are decoded on [kotlinx.coroutines.Dispatchers.Default]; a part whose bytes
     * the core holds back ([MessagePart.Media.heldBytes], inline data over 16 KiB, so a photo is
     * held once, by the core) is fetched from it, decoded on its threads. Null for a URL or a
     * provider file, and when the message is gone.
     */
    public suspend fun mediaBytes(media: MessagePart.Media): ByteArray? = when {
        media.heldBytes != null && media.messageId != null && media.partIndex != null ->
            native.mediaBytes(media.messageId, media.partIndex.toUInt())
        media.base64 != null -> kotlinx.coroutines.withContext(kotlinx.coroutines.Dispatchers.Default) { media.bytes() }
        else -> null
    }

    /** Starts the next run: after answering interrupts, or when the follow-up bound was reached. */
    public suspend fun continueRun(): RunSummary = settled { native.continueRun() }.toSummary()

    /**
     * The user acted on node [nodeId] of surface [surfaceId] (a Button's action...).
     *
     * [metadata]: renderer-side data for the agent (an audit token...), sent as the A2UI v1.0
     * action's `metadata.extensions`; keys must be identifiers, values anything [nodeValueOf]
     * takes. Null or empty: none. Metadata for a surface that is not v1.0 throws
     * `ConversationException.A2ui` (`ACTION_REFUSED`): it is refused, never dropped.
     */
    public suspend fun dispatchAction(surfaceId: String, nodeId: String, metadata: Map<String, Any?>? = null): ActionResult =
        settled { native.dispatchAction(surfaceId, nodeId, metadata?.let(::nodeValueOf)) }.toResult()

    /**
     * Asks the agent to run a function for v1.0 surface [surfaceId] (A2UI v1.0
     * `callAgentFunction`): [call] is the `FunctionCall` object, e.g.
     * `mapOf("call" to "checkEmail", "args" to mapOf("email" to email))`. It goes in a run of
     * its own, queued like an action, and this returns the value of the agent's answer (as
     * [toKotlin] gives it) once the flows show that run's end. Throws
     * `ConversationException.AgentFunctionFailed` (the agent's error code and message),
     * `AgentFunctionUnanswered` (the run ended without an answer), `A2ui` (`ACTION_REFUSED`: not
     * a v1.0 surface, no function named, too many calls waiting).
     */
    public suspend fun callAgentFunction(surfaceId: String, call: Map<String, Any?>): Any? =
        settled { native.callAgentFunction(surfaceId, nodeValueOf(call)) }.toKotlin()

    /**
     * Delivers the messages and actions waiting for the agent ([pendingSends]) now, e.g. when
     * the network is back or the user signed in again; null when nothing waited. The
     * conversation also retries on its own, less often each time an attempt fails, except a send
     * the agent refused the credentials of ([PendingReason.UNAUTHORIZED]).
     */
    public suspend fun retryPending(): RunSummary? = settled { native.retryPending() }?.toSummary()

    /**
     * Drops the message or action waiting for the agent under [key] (a [PendingSend.key]) and
     * its stored row: it is never sent, and [pendingSends] updates. A message that had not joined
     * [messages] yet is gone with it; one that had (a send was attempted) stays there. False when
     * nothing waits under [key]: it was delivered (or discarded) meanwhile, or never queued.
     */
    public suspend fun discardPending(key: String): Boolean = settled { native.discardPending(key) }

    /** [send] in this conversation's own scope: the run outlives the caller's scope. */
    public fun sendAsync(text: String): Deferred<RunSummary> = scope.async { send(text) }

    /** [send] with [attachments] in this conversation's own scope, like [sendAsync]. */
    public fun sendAsync(text: String, attachments: List<Attachment>): Deferred<RunSummary> =
        scope.async { send(text, attachments) }

    /** [dispatchAction] in this conversation's own scope, like [sendAsync]. */
    public fun dispatchActionAsync(surfaceId: String, nodeId: String, metadata: Map<String, Any?>? = null): Deferred<ActionResult> =
        scope.async { dispatchAction(surfaceId, nodeId, metadata) }

    /**
     * Writes the data model of [surfaceId] at JSON Pointer [path], at once (during a run too);
     * bound nodes follow through [surfaceDiffs]. Throws `SurfaceException` (`UnknownSurface`,
     * `UnknownNode`, `Rejected`).
     */
    public fun setValue(surfaceId: String, path: String, value: Any?): Unit = native.setValue(ValueWrite(surfaceId, path, nodeValueOf(value)))

    /** Stops the run in flight and the runs queued behind it; never blocks. */
    public fun cancel(): Unit = native.cancel()

    /** Answers interrupt [id] with JSON text; the answer goes with the next [continueRun]. */
    public fun resolveInterrupt(id: String, payloadJson: String?): Unit = native.resolveInterrupt(id, payloadJson)

    /**
     * Answers interrupt [id] with a value (plain Kotlin values, see [nodeValueOf]): the agent
     * reads it as the JSON it stands for. Null sends no payload (`NodeValue.Null` sends a JSON
     * null). Name the argument for a String answer (`answer = "yes"`): positionally a String
     * picks the JSON-text form. Throws `ConversationException` as the text form does.
     */
    public fun resolveInterrupt(id: String, answer: Any?): Unit = native.resolveInterruptValue(id, answer?.let(::nodeValueOf))

    public fun cancelInterrupt(id: String): Unit = native.cancelInterrupt(id)

    /**
     * The user's [answer] to consent request [toolCallId] (one of [consentRequests]):
     * [ConsentAnswer.ALLOW_ONCE] runs the tool now, [ConsentAnswer.ALLOW_ALWAYS] too and lets
     * later calls of that tool in this conversation run at once, [ConsentAnswer.DECLINE] runs
     * nothing and tells the agent the user declined. Then the agent goes on with the results:
     * returns that follow-up run once the flows show its end, or null while other requests
     * still wait (their answers go with the last one). Throws
     * `ConversationException.UnknownConsentRequest` when no request waits under [toolCallId]
     * (unknown, or answered already): nothing runs.
     */
    public suspend fun answerConsent(toolCallId: String, answer: ConsentAnswer): RunSummary? =
        settled { native.answerConsent(toolCallId, answer.toNative()) }?.toSummary()

    /**
     * Registers a client tool; a run in flight keeps its tools, the next request has it.
     * [consent] = [Consent.ASK]: each call waits in [consentRequests] for the user's answer.
     */
    @JvmOverloads
    public fun registerTool(
        name: String,
        description: String,
        parametersJsonSchema: String,
        consent: Consent = Consent.RUN_AT_ONCE,
        tool: ClientTool,
    ): Unit = native.registerTool(name, description, parametersJsonSchema, nativeTool(tool), consent.toNative())

    /**
     * Registers a client tool that takes and returns values: [parameters] is the JSON Schema
     * object; the tool gets the arguments as a map and returns its result as plain values (a
     * String is read as text, anything else as JSON). [consent] as for the JSON-text tool.
     */
    @JvmOverloads
    public fun registerTool(
        name: String,
        description: String,
        parameters: Map<String, Any?>,
        consent: Consent = Consent.RUN_AT_ONCE,
        tool: TypedClientTool,
    ): Unit = native.registerTypedTool(name, description, nodeValueOf(parameters), nativeTypedTool(tool), consent.toNative())

    public fun unregisterTool(name: String): Boolean = native.unregisterTool(name)

    /**
     * One surface's nodes: a [SurfaceDiff.Reset] first (empty once the agent deleted the
     * surface), then [SurfaceDiff.Patch]es, delivered where the flow is collected. Pulled from the
     * core as the collector takes them (diffs queued meanwhile come together); cancelling the
     * collection ends the native subscription. Throws `SurfaceException.UnknownSurface`.
     */
    public fun surfaceDiffs(surfaceId: String): Flow<SurfaceDiff> = flow {
        val feed = native.surfaceFeed(surfaceId)
        try {
            while (true) {
                val diffs = feed.nextDiffs() ?: break
                for (diff in diffs) emit(diff.toDiff())
            }
        } finally {
            feed.unsubscribe()
            feed.destroy()
        }
    }

    /** Cancels the run in flight, the subscriptions and the apply coroutine; flows keep their last values. */
    override fun close() {
        if (!closed.compareAndSet(false, true)) return
        try {
            view.unsubscribe()
        } catch (ended: IllegalStateException) {
            // The apply coroutine ended on an error and freed the subscription already.
        }
        scope.cancel()
        // Releases a caller of send() that waits for its run's end to show.
        settledUpTo.value = ULong.MAX_VALUE
        native.cancel()
        native.close()
    }

    /**
     * Runs [call], then waits until the flows show everything the core published before it
     * returned or threw: a caller that catches the error reads the phase and the pending sends
     * the failure left, not older ones.
     */
    private suspend fun <T> settled(call: suspend () -> T): T {
        val result = try {
            call()
        } catch (cancelled: CancellationException) {
            throw cancelled
        } catch (failure: Exception) {
            awaitShown()
            throw failure
        }
        awaitShown()
        return result
    }

    /** Waits until the flows show everything the core published before this call. */
    private suspend fun awaitShown() {
        if (closed.get() || viewEnded.get()) return
        val barrier = try {
            view.barrier()
        } catch (ended: IllegalStateException) {
            // The apply coroutine ended and freed the subscription since the check above.
            return
        }
        wake.trySend(Unit)
        settledUpTo.first { it >= barrier }
    }

    /**
     * The one place the flows change: one batch, applied and published, then its event. Called
     * on the dispatcher only (internal for the shared adapter cases' test).
     */
    internal fun apply(batch: ViewBatch) {
        if (batch.reset) snapshotsApplied++
        if (batch.messages.isNotEmpty()) {
            try {
                for (diff in batch.messages) {
                    when (diff) {
                        is MessageDiff.AppendText -> append(AppendTarget(diff.index.toInt(), null), diff.text)
                        is MessageDiff.AppendArguments ->
                            append(AppendTarget(diff.index.toInt(), diff.call.toInt()), diff.text)
                        else -> {
                            // In order: this diff may replace or move an item that has pieces waiting.
                            flushAppended()
                            applyMessage(diff)
                        }
                    }
                }
                flushAppended()
            } finally {
                // Pieces of a batch that could not be applied never reach a later one.
                appended.clear()
            }
            _messages.value = items.toList()
        }
        if (batch.toolCalls.isNotEmpty()) {
            for (diff in batch.toolCalls) {
                when (diff) {
                    is ToolCallDiff.Reset -> {
                        toolCallList.clear()
                        diff.calls.mapTo(toolCallList) { it.toUpdate() }
                    }
                    is ToolCallDiff.Insert -> toolCallList.add(diff.index.toInt(), diff.call.toUpdate())
                    is ToolCallDiff.Set -> toolCallList[diff.index.toInt()] = diff.call.toUpdate()
                }
            }
            _toolCalls.value = toolCallList.toList()
        }
        batch.state?.let { value ->
            val state = value.toKotlin()
            _state.value = state
            _stateJson.value = if (state == null) "{}" else toJson(state)
        }
        batch.surfaces?.let { entries ->
            _surfaces.value = entries.map { SurfaceInfo(it.surfaceId, it.catalogId) }
        }
        batch.interrupts?.let { pending -> _interrupts.value = pending.map { it.toInterrupt() } }
        batch.consentRequests?.let { pending -> _consentRequests.value = pending.map { it.toRequest() } }
        batch.consentGrants?.let { _consentGrants.value = it }
        // After the messages: a message row takes its media from the message (their indices).
        if (batch.timeline.isNotEmpty()) {
            val media = MessageMedia(items)
            applyTimeline(timelineRows, batch.timeline.map { it.toChange(media::of) })
            _timeline.value = timelineRows.toList()
        }
        batch.activeSteps?.let { _activeSteps.value = it }
        // After the messages, so a collector of this flow finds a waiting message in them.
        batch.pendingSends?.let { pending -> _pendingSends.value = pending.map { it.toPending() } }
        // The phase last: a collector that sees a run's end finds everything of the run published.
        batch.phase?.let { _phase.value = it.toPhase() }
        when (val event = batch.event) {
            null -> Unit
            is ViewEvent.Custom -> _events.tryEmit(AgentEvent.Custom(event.name, event.value.toKotlin()))
            is ViewEvent.Raw -> _events.tryEmit(AgentEvent.Raw(event.event.toKotlin(), event.source))
            is ViewEvent.StepStarted -> _events.tryEmit(AgentEvent.StepStarted(event.name))
            is ViewEvent.StepFinished -> _events.tryEmit(AgentEvent.StepFinished(event.name))
            is ViewEvent.Warning -> _warnings.tryEmit(event.warning.toWarning())
        }
        if (batch.settled > settledUpTo.value) settledUpTo.value = batch.settled
    }

    private fun applyMessage(diff: MessageDiff) {
        when (diff) {
            is MessageDiff.Reset -> {
                items.clear()
                diff.items.mapTo(items) { it.toChat() }
            }
            is MessageDiff.Insert -> items.add(diff.index.toInt(), diff.item.toChat())
            is MessageDiff.Set -> items[diff.index.toInt()] = diff.item.toChat()
            // Joined by apply() first (append, flushAppended).
            is MessageDiff.AppendText, is MessageDiff.AppendArguments -> Unit
            is MessageDiff.Marks -> {
                val at = diff.index.toInt()
                items[at] = items[at].copy(localOnly = diff.localOnly?.toLocalOnly(), isPending = diff.pending)
            }
            is MessageDiff.Markdown -> {
                // "The blocks from `from` on are now …": the ones before were sent once and stay.
                val at = diff.index.toInt()
                items[at] = items[at].let { message ->
                    val kept = message.markdown?.blocks.orEmpty().take(diff.from.toInt())
                    message.copy(markdown = ChatMarkdown(kept + diff.blocks, diff.coveredUtf16.toInt()))
                }
            }
        }
    }

    private fun append(target: AppendTarget, piece: String) {
        appended.getOrPut(target) { StringBuilder() }.append(piece)
    }

    /** Copies the joined pieces into their items: one copy of each streamed text per batch. */
    private fun flushAppended() {
        if (appended.isEmpty()) return
        for ((target, pieces) in appended) {
            val message = items[target.at]
            items[target.at] = when (val call = target.call) {
                null -> message.copy(text = message.text + pieces)
                else -> message.copy(
                    toolCalls = message.toolCalls.mapIndexed { i, it ->
                        if (i == call) it.copy(argumentsJson = it.argumentsJson + pieces) else it
                    },
                )
            }
        }
        appended.clear()
    }

    /**
     * The media of the messages in [items] by id, for the timeline's rows of one batch: found from
     * the end (the rows a batch changes are mostly the last), indexed at the first lookup of an
     * older one.
     */
    private class MessageMedia(private val items: List<ChatMessage>) {
        private var byId: Map<String, ChatMessage>? = null

        fun of(messageId: String): List<MessagePart.Media>? {
            byId?.let { return it[messageId]?.media }
            for (at in items.lastIndex downTo maxOf(0, items.size - RECENT)) {
                if (items[at].id == messageId) return items[at].media
            }
            return items.associateBy { it.id }.also { byId = it }[messageId]?.media
        }

        private companion object {
            const val RECENT = 8
        }
    }

    /** Where streamed pieces go: the text of item [at], or the arguments of its tool call [call]. */
    private data class AppendTarget(val at: Int, val call: Int?)

    public companion object {
        private const val EVENT_BUFFER = 256
        /** How a failed phase and warning of a stopped view begin (the same text as Swift's). */
        internal const val VIEW_FAILED_PREFIX = "the view stopped on an internal error: "
        private const val PUBLISH_INTERVAL_NS = 16_000_000L

        /** Wraps a generated [Conversation]; [close] cancels and frees it. */
        internal fun wrap(native: Conversation, dispatcher: CoroutineDispatcher): AgentConversation =
            AgentConversation(native, dispatcher)
    }
}
