package dev.agentui

import dev.agentui.core.agui.MessageContent
import dev.agentui.core.runtime.Delivery as CoreDelivery
import dev.agentui.core.runtime.RetryAction as CoreRetryAction
import dev.agentui.core.runtime.RunErrorKind as CoreRunErrorKind
import dev.agentui.core.runtime.TimelineChange as CoreTimelineChange
import dev.agentui.core.runtime.TimelineItem as CoreTimelineItem
import dev.agentui.core.runtime.TimelineItemKind as CoreTimelineItemKind
import dev.agentui.core.runtime.ToolSide as CoreToolSide

// The conversation screen's rows, as the core orders them (docs/architecture.md, "The
// timeline"): the layer only maps and applies them, it never decides where a row goes.

/** What trying again would do, for a retry button. */
public enum class RetryAction {
    /** Deliver what waits for the agent now ([AgentConversation.retryPending]). */
    RESEND_PENDING,

    /** The agent refused the credentials: sign in again, then [AgentConversation.retryPending]. */
    SIGN_IN_THEN_RESEND,

    /** Ask the agent to go on without a new message ([AgentConversation.continueRun]). */
    CONTINUE_RUN,
}

/** Where a user message stands on its way to the agent. */
public sealed interface Delivery {
    /** Queued; no attempt has failed yet. */
    public data object Sending : Delivery

    /** Attempts could not reach the agent; it goes again on its own when the network is back. */
    public data class WaitingForNetwork(val attempts: Int, val lastError: String?) : Delivery

    /** Not sent again on its own; [retry] says what would send it. */
    public data class Failed(val error: String?, val retry: RetryAction) : Delivery

    /** The agent has it. */
    public data object Delivered : Delivery
}

/** Who runs a tool call, as far as its phase tells. */
public enum class ToolSide {
    /** A tool of this client: its handler runs, ran, or waits for the user's consent. */
    CLIENT,

    /** The agent's side answers it. */
    SERVER,

    /** Not known yet (the arguments stream, or the call waits for the run's end). */
    UNDECIDED,
}

/** Why a run ended with an error row. */
public enum class RunErrorKind {
    /** The agent ended the run with RUN_ERROR. */
    AGENT,

    /** The exchange failed on this side (network, protocol). */
    CLIENT,

    /** The app stopped while the run was open (restored from a store). */
    ABANDONED,
}

/** What one row of the conversation screen shows. */
public sealed interface TimelineItemKind {
    /** A message of the user, with its [delivery]; [media] are its attachments. */
    public data class UserMessage(
        val messageId: String,
        val text: String,
        val media: List<MessagePart.Media>,
        val delivery: Delivery,
    ) : TimelineItemKind

    /**
     * A message of the agent: [text] is Markdown (its parsed tree is the [ChatMessage.markdown]
     * of the same id). [streaming]: text may still arrive. [cutShort]: a cancel stopped it.
     */
    public data class AgentMessage(
        val messageId: String,
        val text: String,
        val media: List<MessagePart.Media>,
        val streaming: Boolean,
        val cutShort: Boolean,
        val error: String?,
    ) : TimelineItemKind

    /** A tool call: [phase] is null until its first phase is known. */
    public data class ToolActivity(
        val toolCallId: String,
        val name: String,
        val side: ToolSide,
        val phase: ToolCallPhase?,
    ) : TimelineItemKind

    /** An A2UI surface of the agent, in its place. */
    public data class Surface(val surfaceId: String, val catalogId: String) : TimelineItemKind

    /** The agent's question ([AgentConversation.resolveInterrupt]). */
    public data class Interrupt(val interrupt: dev.agentui.Interrupt) : TimelineItemKind

    /** A call waiting for the user's consent ([AgentConversation.answerConsent]). */
    public data class ConsentRequest(val request: dev.agentui.ConsentRequest) : TimelineItemKind

    /** The run ended with an error; [retry] says what would try again. */
    public data class RunError(
        val kind: RunErrorKind,
        val message: String,
        val code: String?,
        val retry: RetryAction,
    ) : TimelineItemKind

    /** A run is starting or streaming. */
    public data class RunInProgress(val runId: String?) : TimelineItemKind
}

/** One row and the key a lazy list keeps it by: stable for as long as the row exists. */
public data class TimelineItem(val key: String, val kind: TimelineItemKind)

/** A change to the timeline; the changes of one batch, applied in order, give the new list. */
public sealed interface TimelineChange {
    public data class Reset(val items: List<TimelineItem>) : TimelineChange
    public data class Inserted(val index: Int, val item: TimelineItem) : TimelineChange
    public data class Updated(val index: Int, val item: TimelineItem) : TimelineChange
    public data class Removed(val index: Int, val key: String) : TimelineChange

    /** Streamed text for the message row at [index] (key [key]). */
    public data class TextAppended(val index: Int, val key: String, val text: String) : TimelineChange
}

/**
 * Applies one batch's [changes] to [rows], in order. Streamed pieces are joined per row and
 * copied into it once, so a long answer costs one copy of its text per batch, not per piece.
 * Throws IndexOutOfBoundsException on a position the list lacks (a core defect: the caller
 * starts again from the whole state). A top-level function, not a class: the layer's public
 * API dump lists internal classes.
 */
internal fun applyTimeline(rows: MutableList<TimelineItem>, changes: List<TimelineChange>) {
    val appended = LinkedHashMap<Int, StringBuilder>()
    fun flushAppended() {
        for ((at, pieces) in appended) {
            val row = rows[at]
            rows[at] = when (val kind = row.kind) {
                is TimelineItemKind.AgentMessage -> row.copy(kind = kind.copy(text = kind.text + pieces))
                is TimelineItemKind.UserMessage -> row.copy(kind = kind.copy(text = kind.text + pieces))
                else -> throw IndexOutOfBoundsException("text appended to row $at (${row.key}), not a message")
            }
        }
        appended.clear()
    }
    for (change in changes) {
        if (change is TimelineChange.TextAppended) {
            appended.getOrPut(change.index) { StringBuilder() }.append(change.text)
            continue
        }
        // In order: this change may replace or move a row that has pieces waiting.
        flushAppended()
        when (change) {
            is TimelineChange.Reset -> {
                rows.clear()
                rows.addAll(change.items)
            }
            is TimelineChange.Inserted -> rows.add(change.index, change.item)
            is TimelineChange.Updated -> rows[change.index] = change.item
            is TimelineChange.Removed -> rows.removeAt(change.index)
            is TimelineChange.TextAppended -> Unit
        }
    }
    flushAppended()
}

// Conversions from the generated core types. Exhaustive: a case the core adds breaks this build.

/**
 * [mediaOf]: the media of a message as [ChatMessage.media] gives them (their part indices are the
 * message content's, which [AgentConversation.mediaBytes] needs); null when the message is not
 * known, and the row's own parts are mapped.
 */
internal fun CoreTimelineChange.toChange(mediaOf: (String) -> List<MessagePart.Media>?): TimelineChange = when (this) {
    is CoreTimelineChange.Reset -> TimelineChange.Reset(items.map { it.toItem(mediaOf) })
    is CoreTimelineChange.Inserted -> TimelineChange.Inserted(index.toInt(), item.toItem(mediaOf))
    is CoreTimelineChange.Updated -> TimelineChange.Updated(index.toInt(), item.toItem(mediaOf))
    is CoreTimelineChange.Removed -> TimelineChange.Removed(index.toInt(), key)
    is CoreTimelineChange.TextAppended -> TimelineChange.TextAppended(index.toInt(), key, text)
}

internal fun CoreTimelineItem.toItem(mediaOf: (String) -> List<MessagePart.Media>?): TimelineItem {
    fun media(messageId: String, parts: List<dev.agentui.core.agui.ContentPart>): List<MessagePart.Media> =
        if (parts.isEmpty()) emptyList()
        else mediaOf(messageId) ?: messageParts(MessageContent.Parts(parts), "").filterIsInstance<MessagePart.Media>()
    val mapped = when (val k = kind) {
        is CoreTimelineItemKind.UserMessage ->
            TimelineItemKind.UserMessage(k.messageId, k.text, media(k.messageId, k.media), k.delivery.toDelivery())
        is CoreTimelineItemKind.AgentMessage ->
            TimelineItemKind.AgentMessage(k.messageId, k.text, media(k.messageId, k.media), k.streaming, k.cutShort, k.error)
        is CoreTimelineItemKind.ToolActivity ->
            TimelineItemKind.ToolActivity(k.toolCallId, k.name, k.side.toSide(), k.phase?.toPhase())
        is CoreTimelineItemKind.Surface -> TimelineItemKind.Surface(k.surfaceId, k.catalogId)
        is CoreTimelineItemKind.Interrupt -> TimelineItemKind.Interrupt(k.interrupt.toInterrupt())
        is CoreTimelineItemKind.ConsentRequest -> TimelineItemKind.ConsentRequest(k.request.toRequest())
        is CoreTimelineItemKind.RunError -> TimelineItemKind.RunError(k.kind.toKind(), k.message, k.code, k.retry.toRetry())
        is CoreTimelineItemKind.RunInProgress -> TimelineItemKind.RunInProgress(k.runId)
    }
    return TimelineItem(key, mapped)
}

private fun CoreRetryAction.toRetry(): RetryAction = when (this) {
    CoreRetryAction.RESEND_PENDING -> RetryAction.RESEND_PENDING
    CoreRetryAction.SIGN_IN_THEN_RESEND -> RetryAction.SIGN_IN_THEN_RESEND
    CoreRetryAction.CONTINUE_RUN -> RetryAction.CONTINUE_RUN
}

private fun CoreDelivery.toDelivery(): Delivery = when (this) {
    is CoreDelivery.Sending -> Delivery.Sending
    is CoreDelivery.WaitingForNetwork -> Delivery.WaitingForNetwork(attempts.toInt(), lastError)
    is CoreDelivery.Failed -> Delivery.Failed(error, retry.toRetry())
    is CoreDelivery.Delivered -> Delivery.Delivered
}

private fun CoreToolSide.toSide(): ToolSide = when (this) {
    CoreToolSide.CLIENT -> ToolSide.CLIENT
    CoreToolSide.SERVER -> ToolSide.SERVER
    CoreToolSide.UNDECIDED -> ToolSide.UNDECIDED
}

private fun CoreRunErrorKind.toKind(): RunErrorKind = when (this) {
    CoreRunErrorKind.AGENT -> RunErrorKind.AGENT
    CoreRunErrorKind.CLIENT -> RunErrorKind.CLIENT
    CoreRunErrorKind.ABANDONED -> RunErrorKind.ABANDONED
}
