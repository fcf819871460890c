package dev.agentui

import dev.agentui.core.a2ui.ResolvedNode
import dev.agentui.core.agui.Interrupt as CoreInterrupt
import dev.agentui.core.agui.LocalOnly as CoreLocalOnly
import dev.agentui.core.agui.MessageContent
import dev.agentui.core.agui.ContentPart as CoreContentPart
import dev.agentui.core.agui.MediaPart as CoreMediaPart
import dev.agentui.core.agui.PartSource as CorePartSource
import dev.agentui.core.runtime.Attachment as CoreAttachment
import dev.agentui.core.runtime.AttachmentData as CoreAttachmentData
import dev.agentui.core.agui.Role as CoreRole
import dev.agentui.core.agui.WarningKind as ProtocolWarningKind
import dev.agentui.core.runtime.ChatItem
import dev.agentui.core.runtime.Consent as CoreConsent
import dev.agentui.core.runtime.ConsentAnswer as CoreConsentAnswer
import dev.agentui.core.runtime.ConsentRequest as CoreConsentRequest
import dev.agentui.core.agui.RunOutcome as CoreOutcome
import dev.agentui.core.json.NodeValue
import dev.agentui.core.markdown.MarkdownText
import dev.agentui.core.markdown.MdBlock
import dev.agentui.core.runtime.ActionResult as CoreActionResult
import dev.agentui.core.runtime.ConversationPage as CorePage
import dev.agentui.core.runtime.ConversationSummary as CoreSummary
import dev.agentui.core.runtime.PendingReason as CorePendingReason
import dev.agentui.core.runtime.PendingSend as CorePendingSend
import dev.agentui.core.runtime.PendingSendKind as CorePendingKind
import dev.agentui.core.runtime.RunPhase as CorePhase
import dev.agentui.core.runtime.RunSummary as CoreRunSummary
import dev.agentui.core.runtime.SessionWarning as CoreSessionWarning
import dev.agentui.core.runtime.SessionWarningKind as CoreSessionWarningKind
import dev.agentui.core.runtime.ToolCallPhase as CoreToolPhase
import dev.agentui.core.runtime.ToolCallUpdate as CoreToolCallUpdate
import dev.agentui.core.runtime.ToolFailure as CoreToolFailure
import kotlin.time.Duration
import kotlin.time.toKotlinDuration

// The layer's public vocabulary. The generated records stay inside the layer: these types are
// what apps match on, and they change only when the app-facing meaning does.

public enum class Role { DEVELOPER, SYSTEM, ASSISTANT, USER, TOOL, ACTIVITY, REASONING }

/** A call an assistant message made; [argumentsJson] is the text the model produced. */
public data class MessageToolCall(val id: String, val name: String, val argumentsJson: String)

/** Why a message stays on this device and is never sent back to the agent. */
public enum class LocalOnly {
    /** A tool result that matched no call. */
    ORPHAN_TOOL_RESULT,
    /** Text cut short by a cancel: the agent never finished it. */
    CANCELLED,
}

/**
 * One message as a UI shows it. [text] is the readable text (text parts joined; empty when the
 * message has none, e.g. an assistant message that only calls tools); media parts and activity
 * content stay in [content] (the core's own type; null when the message is plain text) for apps
 * that show them.
 *
 * [localOnly] is set when the message stays on this device and is not sent back to the agent;
 * show an [isIncomplete] one as cut short, never as a finished answer. [isPending] is set while
 * a user message waits for the agent: until the agent took its request, and for as long as the
 * agent cannot be reached (see [AgentConversation.pendingSends]); show it as "sending".
 *
 * [markdown] is an assistant or reasoning message's text as the core parsed it (null for the
 * others): draw it, never parse [text] again.
 */
public data class ChatMessage(
    val id: String,
    val role: Role,
    val text: String,
    val toolCalls: List<MessageToolCall>,
    val toolCallId: String?,
    val error: String?,
    val activityType: String?,
    val content: MessageContent?,
    val localOnly: LocalOnly? = null,
    val isPending: Boolean = false,
    val markdown: ChatMarkdown? = null,
) {
    /** Cut short by a cancel: the agent never finished it, and it is not sent back. */
    val isIncomplete: Boolean get() = localOnly == LocalOnly.CANCELLED

    /** The content's parts in order (a text message is one text part; none when empty). */
    val parts: List<MessagePart> get() = messageParts(content, text, id)

    /** The media parts (images, audio, video, documents), in order. */
    val media: List<MessagePart.Media> get() = parts.filterIsInstance<MessagePart.Media>()
}

/** A file the user attaches to a message ([AgentConversation.send]). */
public class Attachment private constructor(internal val native: CoreAttachment) {
    public val name: String get() = native.name
    public val mimeType: String get() = native.mimeType

    public companion object {
        /** Bytes in memory (copied once into the core). */
        public fun bytes(name: String, mimeType: String, bytes: ByteArray): Attachment =
            Attachment(CoreAttachment(name, mimeType, CoreAttachmentData.Bytes(bytes)))

        /** A file the core reads, on its own threads, when the message is sent. */
        public fun file(file: java.io.File, mimeType: String, name: String = file.name): Attachment =
            Attachment(CoreAttachment(name, mimeType, CoreAttachmentData.File(file.path)))
    }
}

public enum class MediaKind { IMAGE, AUDIO, VIDEO, DOCUMENT }

/** One part of a message's content. */
public sealed interface MessagePart {
    public data class Text(val text: String) : MessagePart

    /**
     * An image, audio, video or document: inline bytes, a [url] (checked against the media URL
     * policy before a view loads it), or a provider's file handle ([fileId], never fetched).
     * Inline bytes come as [base64] when small; over 16 KiB the core holds them back and the
     * part has only their length, [heldBytes]: get either with [AgentConversation.mediaBytes].
     */
    public data class Media(
        val kind: MediaKind,
        val mimeType: String?,
        /** `metadata.filename`, when the sender named it. */
        val name: String?,
        val url: String? = null,
        val base64: String? = null,
        val fileId: String? = null,
        /** The length of inline bytes the core holds back (fetch them with [AgentConversation.mediaBytes]). */
        val heldBytes: Long? = null,
        /** The message and the part's index in its content: what [AgentConversation.mediaBytes] fetches. */
        val messageId: String? = null,
        val partIndex: Int? = null,
    ) : MessagePart {
        /** Inline bytes the part carries itself ([base64]), decoded; null for held-back ones. */
        public fun bytes(): ByteArray? = base64?.let { java.util.Base64.getDecoder().decode(it) }

        /** Inline bytes, carried or held back by the core. */
        val isInline: Boolean get() = base64 != null || heldBytes != null
    }
}

internal fun messageParts(content: MessageContent?, text: String, messageId: String? = null): List<MessagePart> = when (content) {
    is MessageContent.Parts -> content.v1.mapIndexed { at, part ->
        when (part) {
            is CoreContentPart.Text -> MessagePart.Text(part.v1.text)
            is CoreContentPart.Image -> part.v1.toMedia(MediaKind.IMAGE, messageId, at)
            is CoreContentPart.Audio -> part.v1.toMedia(MediaKind.AUDIO, messageId, at)
            is CoreContentPart.Video -> part.v1.toMedia(MediaKind.VIDEO, messageId, at)
            is CoreContentPart.Document -> part.v1.toMedia(MediaKind.DOCUMENT, messageId, at)
        }
    }
    else -> if (text.isEmpty()) emptyList() else listOf(MessagePart.Text(text))
}

private fun CoreMediaPart.toMedia(kind: MediaKind, messageId: String?, at: Int): MessagePart.Media {
    val entries = (metadata as? NodeValue.Object)?.entries
    val name = (entries?.firstOrNull { it.name == "filename" }?.value as? NodeValue.Text)?.value
    // The core's mark on inline data it holds back (see AgentConversation.mediaBytes).
    val held = (entries?.firstOrNull { it.name == "agentuiHeldBytes" }?.value as? NodeValue.Number)?.value?.toLong()
    return when (val s = source) {
        // Only an emptied data part is held back (an agent may write any metadata key).
        is CorePartSource.Data ->
            if (held != null && s.value.isEmpty()) MessagePart.Media(kind, s.mimeType, name, heldBytes = held, messageId = messageId, partIndex = at)
            else MessagePart.Media(kind, s.mimeType, name, base64 = s.value, messageId = messageId, partIndex = at)
        is CorePartSource.Url -> MessagePart.Media(kind, s.mimeType, name, url = s.value.ifEmpty { null }, messageId = messageId, partIndex = at)
        is CorePartSource.File -> MessagePart.Media(kind, s.mimeType, name, fileId = s.value, messageId = messageId, partIndex = at)
    }
}

/** Something a run needs from the user before it can continue. */
public data class Interrupt(
    val id: String,
    val reason: String,
    val message: String?,
    val toolCallId: String?,
    val responseSchemaJson: String?,
    /** The JSON Schema an answer must satisfy, as plain values; [responseSchemaJson] as text. */
    val responseSchema: Map<String, Any?>?,
    /** RFC 3339. */
    val expiresAt: String?,
    val metadata: Any?,
    /** The sub-agent run that raised it, when a sub-agent did. */
    val subagentRunId: String?,
)

/** Whether a client tool runs as soon as the agent calls it, or only after the user allowed it. */
public enum class Consent {
    /** At once, as the agent calls it (the default). */
    RUN_AT_ONCE,

    /** Each call waits in [AgentConversation.consentRequests] until [AgentConversation.answerConsent]. */
    ASK,
}

/** The user's answer to a [ConsentRequest]. */
public enum class ConsentAnswer {
    /** Run this call. */
    ALLOW_ONCE,

    /** Run this call, and later calls of the same tool in this conversation without asking. */
    ALLOW_ALWAYS,

    /** Run nothing: the agent reads that the user declined the call. */
    DECLINE,
}

/**
 * A call of a tool registered with [Consent.ASK] that waits for the user: its tool has not run,
 * and runs only after [AgentConversation.answerConsent] allowed it. Its [ToolCallUpdate] shows
 * [ToolCallPhase.AwaitingConsent] meanwhile.
 */
public data class ConsentRequest(
    val toolCallId: String,
    val toolName: String,
    /** The call's arguments as plain values (an object is a `Map<String, Any?>`), checked against the tool's schema. */
    val arguments: Any?,
    /** When the call was put to the user, in epoch milliseconds (as [ConversationSummary.createdAtMs]). */
    val askedAtMs: Long,
)

public sealed interface RunOutcome {
    public data class Success(val pendingToolCallIds: List<String>) : RunOutcome
    public data class Interrupt(val interrupts: List<dev.agentui.Interrupt>) : RunOutcome
    public data object Cancelled : RunOutcome
}

/** Where the conversation's current (or last) run stands. */
public sealed interface RunPhase {
    public data object Idle : RunPhase
    public data class Starting(val runId: String) : RunPhase
    public data class Running(val runId: String) : RunPhase
    public data class Finished(val runId: String, val outcome: RunOutcome?) : RunPhase
    /** Answer the interrupts, then [AgentConversation.continueRun]. */
    public data class Interrupted(val runId: String, val interrupts: List<Interrupt>) : RunPhase
    /** The agent ended the run with RUN_ERROR: its [message] and [code]. */
    public data class AgentError(val message: String, val code: String?) : RunPhase
    /** The run failed on this side (transport, protocol, budget): [error] says why. */
    public data class Failed(val error: String) : RunPhase
    public data object Cancelled : RunPhase
    /**
     * The app stopped while this run was open; the conversation was restored from its store.
     * Nothing of the run is replayed: the user may send again, or [AgentConversation.continueRun].
     */
    public data class Abandoned(val runId: String?) : RunPhase

    /** The run has ended (or none ran): nothing is streaming. */
    public val hasEnded: Boolean get() = this !is Starting && this !is Running
}

/** Why a client tool call failed, as the core (and Swift) tell it. */
public sealed interface ToolFailure {
    /** No tool of that name is registered here and no server result answered the call. */
    public data class NotRegistered(val name: String) : ToolFailure
    /** The app's tool policy refused the call. */
    public data class Denied(val reason: String) : ToolFailure
    /** The arguments were not JSON or did not satisfy the parameters schema. */
    public data class InvalidArguments(val detail: String) : ToolFailure
    /** The handler failed ([ClientToolFailure]'s message, or a generic text for another exception). */
    public data class Failed(val message: String) : ToolFailure
    /** The handler did not finish within the conversation's tool timeout. */
    public data class TimedOut(val after: Duration) : ToolFailure
    /** The handler crashed. */
    public data object Crashed : ToolFailure
    /** The run was cancelled before the call completed. */
    public data object Cancelled : ToolFailure
    /** The run ended before the call's arguments were complete. */
    public data object Incomplete : ToolFailure
    /** The user declined the call when asked ([ConsentAnswer.DECLINE]); nothing ran. */
    public data object Declined : ToolFailure
}

/** How far one tool call has got; "requested" and "succeeded" are different states (lesson 1). */
public sealed interface ToolCallPhase {
    public data object Streaming : ToolCallPhase
    public data object Requested : ToolCallPhase
    public data object Running : ToolCallPhase
    public data class Succeeded(val result: String) : ToolCallPhase
    /** [detail] is the text the agent read (Swift: `String(describing: failure)`). */
    public data class Failed(val failure: ToolFailure, val detail: String) : ToolCallPhase
    public data object CompletedByServer : ToolCallPhase
    public data class Skipped(val reason: String) : ToolCallPhase
    /** A call to a tool this client did not declare: shown, never answered here. */
    public data object OwnedByServer : ToolCallPhase
    public data class AwaitingInterrupt(val interruptId: String) : ToolCallPhase
    /** A call of a [Consent.ASK] tool waiting for the user's answer (its [ConsentRequest]). */
    public data object AwaitingConsent : ToolCallPhase
}

/**
 * The last update of one tool call: its phase. Not `ToolCall`, which is a message's call in
 * AG-UI (the core's `ToolCall`, [MessageToolCall] here); Swift and the core use this name too.
 */
public data class ToolCallUpdate(val toolCallId: String, val toolName: String, val phase: ToolCallPhase)

/**
 * What a [SessionWarning] is about. One flat enum: the core's protocol kinds (Swift:
 * `.protocol(.stripped)`...) are entries here beside the session's own.
 */
public enum class SessionWarningKind {
    DROPPED_EVENT, STRIPPED, COMPATIBILITY, VERSION, PATCH_NOT_APPLIED, SKIPPED, UNRESOLVED_TOOL_CALL,
    UNMATCHED_TOOL_RESULT, DUPLICATE_TOOL_CALL, SERVER_ANSWERED_CLIENT_TOOL, FOLLOW_UP_LIMIT,
    IGNORED_AFTER_RUN_END, UNANSWERED_INTERRUPT, INPUT_DOWNGRADE, A2UI, KEPT_LOCAL,
    ANSWERED_BY_INTERRUPT,
    /** The conversation store could not write; the conversation goes on in memory. */
    STORE,
    /** A message or action waiting for the agent was refused by it and dropped. */
    UNDELIVERED,
    /** The run's stream broke and was resumed from its last event id; nothing was lost. */
    STREAM_RESUMED,
    /**
     * The conversation's flows stopped on an internal error of this library: they keep their
     * last values, [AgentConversation.phase] shows [RunPhase.Failed]. Open the conversation again.
     */
    VIEW_FAILED,
}

/** A non-fatal observation. */
public data class SessionWarning(val kind: SessionWarningKind, val message: String)

/**
 * What one [AgentConversation.send] / [AgentConversation.continueRun] and its follow-up runs came
 * to: a summary of one or more runs ([runIds]), the core's and Swift's `RunSummary` too.
 */
public data class RunSummary(
    val threadId: String,
    val runIds: List<String>,
    /** `Finished` or `Interrupted`. */
    val phase: RunPhase,
    /** Every call the client answered, `Succeeded` or `Failed`. */
    val toolCalls: List<ToolCallUpdate>,
    val pendingInterrupts: List<Interrupt>,
    /** Tool results wait for [AgentConversation.continueRun]. */
    val followUpLimitReached: Boolean,
    val needsResync: Boolean,
    val warnings: List<SessionWarning>,
)

public sealed interface ActionResult {
    public data class Ran(val summary: RunSummary) : ActionResult
    /** Open this URL (already checked against the URL policy). */
    public data class OpenUrl(val url: String) : ActionResult
    /** A local function ran; nothing went to the agent. */
    public data object Handled : ActionResult
}

/** What a waiting [PendingSend] delivers. */
public sealed interface PendingSendKind {
    /** A user message, already in [AgentConversation.messages] once first attempted; [text] is empty for media. */
    public data class Message(val messageId: String, val text: String) : PendingSendKind
    /** A user action (its event name [actionName]) on a node of surface [surfaceId]. */
    public data class Action(val surfaceId: String, val actionName: String) : PendingSendKind
}

/** Why a [PendingSend] waits. */
public enum class PendingReason {
    /** Not tried yet, or the agent could not be reached: sent again automatically (when the network is back, or on a timer). */
    UNREACHED,
    /**
     * The agent refused the credentials (HTTP 401): not sent again automatically. It goes with
     * [AgentConversation.retryPending] (after the user signed in again) or the next message sent.
     */
    UNAUTHORIZED,
}

/**
 * A message or action the agent has not received yet. [attempts] counts the attempts that could
 * not reach the agent (0 while the first is under way). Delivered once, in call order:
 * automatically (unless [reason] is [PendingReason.UNAUTHORIZED]), or at once by
 * [AgentConversation.retryPending]; dropped by [AgentConversation.discardPending]. [key] goes
 * with every attempt as `forwardedProps.agentuiIdempotencyKey`.
 */
public data class PendingSend(
    val key: String,
    val kind: PendingSendKind,
    val attempts: Int,
    val lastError: String?,
    val reason: PendingReason = PendingReason.UNREACHED,
)

/** One stored conversation, as [AgentRuntime.conversations] lists it. Times are epoch milliseconds. */
public data class ConversationSummary(
    val threadId: String,
    /** The start of the first user message; empty before there is one. */
    val title: String,
    val agentUrl: String,
    val messageCount: Long,
    val createdAtMs: Long,
    val updatedAtMs: Long,
    /**
     * As last written: a run open when the app stopped still reads `Starting`/`Running` here
     * (it may also be running in this process), and comes back [RunPhase.Abandoned] when resumed.
     */
    val phase: RunPhase,
    /** Messages and actions waiting for the agent. */
    val pendingSends: Int,
)

/** One page of stored conversations, most recently written first; [nextCursor] is null on the last page. */
public data class ConversationPage(val conversations: List<ConversationSummary>, val nextCursor: String?)

/** A surface the agent created. */
public data class SurfaceInfo(val id: String, val catalogId: String)

/** A resolved A2UI node, field for field what the core resolved (the renderer's input). */
public typealias Node = ResolvedNode

/** A change to one surface's nodes: a [Reset] first (empty when the agent deleted it), then [Patch]es. */
public sealed interface SurfaceDiff {
    public data class Reset(val root: String?, val nodes: List<Node>) : SurfaceDiff
    public data class Patch(val upserted: List<Node>, val removed: List<String>) : SurfaceDiff
}

/** The resolved value of property [name], or null when the node has none. */
public fun Node.prop(name: String): NodeValue? = props.firstOrNull { it.name == name }?.value

/** The data-model path [property] is bound to (an input writes there), null for a literal. */
public fun Node.bindingPath(property: String = "value"): String? = bindings.firstOrNull { it.property == property }?.path

// Conversions from the generated core types, used only inside the layer.

// Exhaustive mappings, never by name: a variant the core adds breaks this build, not a device.

internal fun CoreRole.toRole(): Role = when (this) {
    CoreRole.DEVELOPER -> Role.DEVELOPER
    CoreRole.SYSTEM -> Role.SYSTEM
    CoreRole.ASSISTANT -> Role.ASSISTANT
    CoreRole.USER -> Role.USER
    CoreRole.TOOL -> Role.TOOL
    CoreRole.ACTIVITY -> Role.ACTIVITY
    CoreRole.REASONING -> Role.REASONING
}

internal fun CoreLocalOnly.toLocalOnly(): LocalOnly = when (this) {
    CoreLocalOnly.ORPHAN_TOOL_RESULT -> LocalOnly.ORPHAN_TOOL_RESULT
    CoreLocalOnly.CANCELLED -> LocalOnly.CANCELLED
}

/** The core's chat item as the layer's [ChatMessage], field for field (no text is empty text). */
internal fun ChatItem.toChat() = ChatMessage(
    id = id,
    role = role.toRole(),
    text = text,
    toolCalls = toolCalls.map { MessageToolCall(it.id, it.name, it.argumentsJson) },
    toolCallId = toolCallId,
    error = error,
    activityType = activityType,
    content = content,
    localOnly = localOnly?.toLocalOnly(),
    isPending = pending,
    markdown = markdown?.toChat(),
)

/**
 * A message's text as Markdown blocks, the core's tree as it is (like [ResolvedNode] for surfaces:
 * the renderers draw it). While a long block streams the blocks may cover less than the text:
 * [pendingText] is the rest, to show as plain text after the last block.
 */
public data class ChatMarkdown(val blocks: List<MdBlock>, val coveredUtf16: Int) {
    public fun pendingText(text: String): String = if (coveredUtf16 in 0 until text.length) text.substring(coveredUtf16) else ""
}

internal fun MarkdownText.toChat() = ChatMarkdown(blocks, coveredUtf16.toInt())

internal fun CoreInterrupt.toInterrupt() = Interrupt(
    id = id,
    reason = reason,
    message = message,
    toolCallId = toolCallId,
    responseSchemaJson = responseSchema?.let { toJson(NodeValue.Object(it).toKotlin()) },
    responseSchema = responseSchema?.associate { it.name to it.value.toKotlin() },
    expiresAt = expiresAt,
    metadata = metadata?.let { NodeValue.Object(it).toKotlin() },
    subagentRunId = subagentRunId,
)

internal fun CoreConsentRequest.toRequest() = ConsentRequest(
    toolCallId = toolCallId,
    toolName = toolName,
    arguments = arguments.toKotlin(),
    askedAtMs = askedAtMs.toLong(),
)

internal fun Consent.toNative(): CoreConsent = when (this) {
    Consent.RUN_AT_ONCE -> CoreConsent.RUN_AT_ONCE
    Consent.ASK -> CoreConsent.ASK
}

internal fun ConsentAnswer.toNative(): CoreConsentAnswer = when (this) {
    ConsentAnswer.ALLOW_ONCE -> CoreConsentAnswer.ALLOW_ONCE
    ConsentAnswer.ALLOW_ALWAYS -> CoreConsentAnswer.ALLOW_ALWAYS
    ConsentAnswer.DECLINE -> CoreConsentAnswer.DECLINE
}

internal fun CoreOutcome.toOutcome(): RunOutcome = when (this) {
    is CoreOutcome.Success -> RunOutcome.Success(pendingToolCallIds.orEmpty())
    is CoreOutcome.Interrupt -> RunOutcome.Interrupt(interrupts.map { it.toInterrupt() })
    is CoreOutcome.Cancelled -> RunOutcome.Cancelled
}

internal fun CorePhase.toPhase(): RunPhase = when (this) {
    is CorePhase.Idle -> RunPhase.Idle
    is CorePhase.Starting -> RunPhase.Starting(runId)
    is CorePhase.Running -> RunPhase.Running(runId)
    is CorePhase.Finished -> RunPhase.Finished(runId, outcome?.toOutcome())
    is CorePhase.Interrupted -> RunPhase.Interrupted(runId, interrupts.map { it.toInterrupt() })
    is CorePhase.AgentError -> RunPhase.AgentError(message, code)
    is CorePhase.Failed -> RunPhase.Failed(error)
    is CorePhase.Cancelled -> RunPhase.Cancelled
    is CorePhase.Abandoned -> RunPhase.Abandoned(runId)
}

private fun CoreToolFailure.toFailure(): ToolFailure = when (this) {
    is CoreToolFailure.NotRegistered -> ToolFailure.NotRegistered(name)
    is CoreToolFailure.Denied -> ToolFailure.Denied(reason)
    is CoreToolFailure.InvalidArguments -> ToolFailure.InvalidArguments(detail)
    is CoreToolFailure.Failed -> ToolFailure.Failed(message)
    is CoreToolFailure.TimedOut -> ToolFailure.TimedOut(after.toKotlinDuration())
    is CoreToolFailure.Crashed -> ToolFailure.Crashed
    is CoreToolFailure.Cancelled -> ToolFailure.Cancelled
    is CoreToolFailure.Incomplete -> ToolFailure.Incomplete
    is CoreToolFailure.Declined -> ToolFailure.Declined
}

internal fun CoreToolPhase.toPhase(): ToolCallPhase = when (this) {
    is CoreToolPhase.Streaming -> ToolCallPhase.Streaming
    is CoreToolPhase.Requested -> ToolCallPhase.Requested
    is CoreToolPhase.Running -> ToolCallPhase.Running
    is CoreToolPhase.Succeeded -> ToolCallPhase.Succeeded(result)
    // The failure's text (its Rust Display, as toString) is what the agent read.
    is CoreToolPhase.Failed -> ToolCallPhase.Failed(failure.toFailure(), failure.toString())
    is CoreToolPhase.CompletedByServer -> ToolCallPhase.CompletedByServer
    is CoreToolPhase.Skipped -> ToolCallPhase.Skipped(reason)
    is CoreToolPhase.OwnedByServer -> ToolCallPhase.OwnedByServer
    is CoreToolPhase.AwaitingInterrupt -> ToolCallPhase.AwaitingInterrupt(interruptId)
    is CoreToolPhase.AwaitingConsent -> ToolCallPhase.AwaitingConsent
}

internal fun CoreToolCallUpdate.toUpdate() = ToolCallUpdate(toolCallId, toolName, phase.toPhase())

/** The core's kind as the layer's flat [SessionWarningKind]: a protocol warning by its own kind. */
private fun CoreSessionWarningKind.toKind(): SessionWarningKind = when (this) {
    is CoreSessionWarningKind.Protocol -> when (v1) {
        ProtocolWarningKind.DROPPED_EVENT -> SessionWarningKind.DROPPED_EVENT
        ProtocolWarningKind.STRIPPED -> SessionWarningKind.STRIPPED
        ProtocolWarningKind.COMPATIBILITY -> SessionWarningKind.COMPATIBILITY
        ProtocolWarningKind.VERSION -> SessionWarningKind.VERSION
        ProtocolWarningKind.PATCH_NOT_APPLIED -> SessionWarningKind.PATCH_NOT_APPLIED
        ProtocolWarningKind.SKIPPED -> SessionWarningKind.SKIPPED
    }
    CoreSessionWarningKind.UnresolvedToolCall -> SessionWarningKind.UNRESOLVED_TOOL_CALL
    CoreSessionWarningKind.UnmatchedToolResult -> SessionWarningKind.UNMATCHED_TOOL_RESULT
    CoreSessionWarningKind.DuplicateToolCall -> SessionWarningKind.DUPLICATE_TOOL_CALL
    CoreSessionWarningKind.ServerAnsweredClientTool -> SessionWarningKind.SERVER_ANSWERED_CLIENT_TOOL
    CoreSessionWarningKind.FollowUpLimit -> SessionWarningKind.FOLLOW_UP_LIMIT
    CoreSessionWarningKind.IgnoredAfterRunEnd -> SessionWarningKind.IGNORED_AFTER_RUN_END
    CoreSessionWarningKind.UnansweredInterrupt -> SessionWarningKind.UNANSWERED_INTERRUPT
    CoreSessionWarningKind.InputDowngrade -> SessionWarningKind.INPUT_DOWNGRADE
    CoreSessionWarningKind.A2ui -> SessionWarningKind.A2UI
    CoreSessionWarningKind.KeptLocal -> SessionWarningKind.KEPT_LOCAL
    CoreSessionWarningKind.AnsweredByInterrupt -> SessionWarningKind.ANSWERED_BY_INTERRUPT
    CoreSessionWarningKind.Store -> SessionWarningKind.STORE
    CoreSessionWarningKind.Undelivered -> SessionWarningKind.UNDELIVERED
    CoreSessionWarningKind.StreamResumed -> SessionWarningKind.STREAM_RESUMED
    CoreSessionWarningKind.ViewFailed -> SessionWarningKind.VIEW_FAILED
}

internal fun CoreSessionWarning.toWarning() = SessionWarning(kind.toKind(), message)

internal fun CoreRunSummary.toSummary() = RunSummary(
    threadId = threadId,
    runIds = runIds,
    phase = phase.toPhase(),
    toolCalls = toolCalls.map { it.toUpdate() },
    pendingInterrupts = pendingInterrupts.map { it.toInterrupt() },
    followUpLimitReached = followUpLimitReached,
    needsResync = needsResync,
    warnings = warnings.map { it.toWarning() },
)

internal fun CorePendingSend.toPending() = PendingSend(
    key = key,
    kind = when (val k = kind) {
        is CorePendingKind.Message -> PendingSendKind.Message(k.messageId, k.text)
        is CorePendingKind.Action -> PendingSendKind.Action(k.surfaceId, k.actionName)
    },
    attempts = attempts.toInt(),
    lastError = lastError,
    reason = when (reason) {
        CorePendingReason.UNREACHED -> PendingReason.UNREACHED
        CorePendingReason.UNAUTHORIZED -> PendingReason.UNAUTHORIZED
    },
)

internal fun CoreSummary.toSummary() = ConversationSummary(
    threadId = threadId,
    title = title,
    agentUrl = agentUrl,
    messageCount = messageCount.toLong(),
    createdAtMs = createdAtMs,
    updatedAtMs = updatedAtMs,
    phase = phase.toPhase(),
    pendingSends = pendingSends.toInt(),
)

internal fun CorePage.toPage() = ConversationPage(conversations.map { it.toSummary() }, nextCursor)

internal fun CoreActionResult.toResult(): ActionResult = when (this) {
    is CoreActionResult.Ran -> ActionResult.Ran(v1.toSummary())
    is CoreActionResult.OpenUrl -> ActionResult.OpenUrl(v1)
    is CoreActionResult.Handled -> ActionResult.Handled
}

internal fun dev.agentui.core.a2ui.SurfaceDiff.toDiff(): SurfaceDiff = when (this) {
    is dev.agentui.core.a2ui.SurfaceDiff.Reset -> SurfaceDiff.Reset(root, nodes)
    is dev.agentui.core.a2ui.SurfaceDiff.Patch -> SurfaceDiff.Patch(upserted, removed)
}
