package dev.agentui.compose

import androidx.compose.animation.animateContentSize
import androidx.compose.foundation.background
import androidx.compose.foundation.focusable
import androidx.compose.foundation.gestures.scrollBy
import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Box
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.PaddingValues
import androidx.compose.foundation.layout.Row
import androidx.compose.foundation.layout.fillMaxSize
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.layout.widthIn
import androidx.compose.foundation.lazy.LazyColumn
import androidx.compose.foundation.lazy.items
import androidx.compose.foundation.lazy.rememberLazyListState
import androidx.compose.foundation.shape.RoundedCornerShape
import androidx.compose.material3.Button
import androidx.compose.material3.Card
import androidx.compose.material3.CircularProgressIndicator
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.OutlinedButton
import androidx.compose.material3.OutlinedTextField
import androidx.compose.material3.Text
import androidx.compose.material3.TextButton
import androidx.compose.runtime.Composable
import androidx.compose.runtime.Immutable
import androidx.compose.runtime.LaunchedEffect
import androidx.compose.runtime.State
import androidx.compose.runtime.Stable
import androidx.compose.runtime.collectAsState
import androidx.compose.runtime.derivedStateOf
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.remember
import androidx.compose.runtime.rememberCoroutineScope
import androidx.compose.runtime.rememberUpdatedState
import androidx.compose.runtime.setValue
import androidx.compose.runtime.snapshotFlow
import androidx.compose.ui.Alignment
import androidx.compose.ui.Modifier
import androidx.compose.ui.platform.LocalUriHandler
import androidx.compose.ui.platform.testTag
import androidx.compose.ui.semantics.LiveRegionMode
import androidx.compose.ui.semantics.contentDescription
import androidx.compose.ui.semantics.heading
import androidx.compose.ui.semantics.liveRegion
import androidx.compose.ui.semantics.semantics
import androidx.compose.ui.semantics.stateDescription
import androidx.compose.ui.unit.dp
import dev.agentui.AgentConversation
import dev.agentui.Attachment
import dev.agentui.ChatMarkdown
import dev.agentui.ChatMessage
import dev.agentui.ConsentAnswer
import dev.agentui.ConversationException
import dev.agentui.Delivery
import dev.agentui.RetryAction
import dev.agentui.TimelineItem
import dev.agentui.TimelineItemKind
import dev.agentui.ToolCallPhase
import dev.agentui.ToolSide
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.launch

/**
 * What the rows of [AgentChat] can do, for a slot that replaces one: the conversation, and the
 * answers a row's buttons give, each launched in the screen's scope. A failure is never thrown
 * into the UI: it goes to [AgentChat]'s `onError` (by default shown above the composer).
 */
@Stable
public class AgentChatScope internal constructor(
    public val conversation: AgentConversation,
    private val scope: CoroutineScope,
    /** The state of the messages, read by a row for its Markdown tree and media only. */
    private val messages: State<List<ChatMessage>>,
    private val onError: State<(Throwable) -> Unit>,
) {
    /** Answers consent request [toolCallId]. */
    public fun answerConsent(toolCallId: String, answer: ConsentAnswer) {
        launchQuietly { conversation.answerConsent(toolCallId, answer) }
    }

    /** Answers interrupt [id] with [answer] (plain values) and lets the run go on. */
    public fun resolveInterrupt(id: String, answer: Any?) {
        launchQuietly {
            conversation.resolveInterrupt(id, answer = answer)
            conversation.continueRun()
        }
    }

    /** Declines interrupt [id] and lets the run go on without it. */
    public fun cancelInterrupt(id: String) {
        launchQuietly {
            conversation.cancelInterrupt(id)
            conversation.continueRun()
        }
    }

    /** Does what [retry] says: resend what waits, or ask the agent to go on. */
    public fun retry(retry: RetryAction) {
        launchQuietly {
            when (retry) {
                RetryAction.RESEND_PENDING, RetryAction.SIGN_IN_THEN_RESEND -> conversation.retryPending()
                RetryAction.CONTINUE_RUN -> conversation.continueRun()
            }
        }
    }

    /** The parsed Markdown of agent message [messageId], as a state a row reads (null until parsed). */
    @Composable
    public fun markdownOf(messageId: String): ChatMarkdown? {
        // Derived: a row recomposes when its own message's tree changed, not on every batch.
        val markdown by remember(messageId) {
            derivedStateOf { messages.value.findLast { it.id == messageId }?.markdown }
        }
        return markdown
    }

    /** The media parts of the result of tool call [toolCallId] (none until it has one). */
    @Composable
    public fun resultMediaOf(toolCallId: String): List<dev.agentui.MessagePart.Media> {
        val media by remember(toolCallId) {
            derivedStateOf {
                messages.value.findLast { it.toolCallId == toolCallId && it.role == dev.agentui.Role.TOOL }?.media.orEmpty()
            }
        }
        return media
    }

    /** The bytes of a media part (see [AgentConversation.mediaBytes]). */
    public suspend fun mediaBytes(media: dev.agentui.MessagePart.Media): ByteArray? = conversation.mediaBytes(media)

    /** Runs [call]; its failure goes to the screen's error handler (the flows show what it left). */
    private fun launchQuietly(call: suspend () -> Unit) {
        scope.launch {
            try {
                call()
            } catch (cancelled: kotlinx.coroutines.CancellationException) {
                throw cancelled
            } catch (failure: Exception) {
                onError.value(failure)
            }
        }
    }
}

/**
 * How each kind of row is drawn: one slot per [TimelineItemKind], each with a default
 * ([AgentChatDefaults]). Replace one and keep the rest:
 * `AgentChatSlots(toolActivity = { item, chat -> MyToolRow(item) })`.
 */
@Immutable
public data class AgentChatSlots(
    val userMessage: @Composable (TimelineItemKind.UserMessage, AgentChatScope) -> Unit = { item, chat ->
        AgentChatDefaults.UserMessage(item, chat)
    },
    val agentMessage: @Composable (TimelineItemKind.AgentMessage, AgentChatScope) -> Unit = { item, chat ->
        AgentChatDefaults.AgentMessage(item, chat)
    },
    val toolActivity: @Composable (TimelineItemKind.ToolActivity, AgentChatScope) -> Unit = { item, chat ->
        AgentChatDefaults.ToolActivity(item, chat)
    },
    val surface: @Composable (TimelineItemKind.Surface, AgentChatScope) -> Unit = { item, chat ->
        AgentChatDefaults.Surface(item, chat)
    },
    val interrupt: @Composable (TimelineItemKind.Interrupt, AgentChatScope) -> Unit = { item, chat ->
        AgentChatDefaults.Interrupt(item, chat)
    },
    val consentRequest: @Composable (TimelineItemKind.ConsentRequest, AgentChatScope) -> Unit = { item, chat ->
        AgentChatDefaults.ConsentRequest(item, chat)
    },
    val runError: @Composable (TimelineItemKind.RunError, AgentChatScope) -> Unit = { item, chat ->
        AgentChatDefaults.RunError(item, chat)
    },
    val runInProgress: @Composable (TimelineItemKind.RunInProgress, AgentChatScope) -> Unit = { _, _ ->
        AgentChatDefaults.RunInProgress()
    },
    /** Shown instead of the list while the timeline is empty. */
    val emptyState: @Composable () -> Unit = { AgentChatDefaults.EmptyState() },
)

/**
 * The conversation screen: the conversation's [AgentConversation.timeline] as a lazy list keyed
 * by row, and a composer. Every row kind has a slot ([slots]); theming comes from
 * [MaterialTheme]. The list stays at the bottom while the agent writes, unless the user scrolled
 * up. [onAttach]: the app's picker (a photo picker...), called by the attach button, returning
 * what to attach to the next message (null: nothing); no button when null. [placeholder]: the
 * composer's hint. [onError]: a failed answer or retry (an unknown consent request, a network
 * error...); by default the last one is shown above the composer. (A failed send shows in its
 * message's row instead.)
 */
@Composable
public fun AgentChat(
    conversation: AgentConversation,
    modifier: Modifier = Modifier,
    slots: AgentChatSlots = AgentChatSlots(),
    onAttach: (suspend () -> Attachment?)? = null,
    placeholder: String = "Message",
    onError: ((Throwable) -> Unit)? = null,
) {
    val timeline by conversation.timeline.collectAsState()
    val messages = conversation.messages.collectAsState()
    val phase by conversation.phase.collectAsState()
    val scope = rememberCoroutineScope()
    var lastError by remember { mutableStateOf<String?>(null) }
    val errors = rememberUpdatedState(onError ?: { failure: Throwable -> lastError = describeError(failure) })
    val chat = remember(conversation, scope) { AgentChatScope(conversation, scope, messages, errors) }
    val listState = rememberLazyListState()
    // Follows the bottom until the user scrolls up, and again once they are back at the bottom.
    var following by remember { mutableStateOf(true) }
    LaunchedEffect(listState) {
        snapshotFlow { listState.isScrollInProgress }.collect { scrolling ->
            if (!scrolling) following = !listState.canScrollForward
        }
    }
    // Keyed on the rows and the last row's text (a streamed piece grows the last row); run after
    // the composition is applied, never inside a layout pass.
    val lastLength = timeline.lastOrNull()?.let(::textLength) ?: 0
    LaunchedEffect(timeline.size, lastLength) {
        if (following && timeline.isNotEmpty()) {
            listState.scrollToItem(timeline.lastIndex)
            // The last row may be taller than the screen: show its end.
            listState.scrollBy(BOTTOM_SCROLL_PX)
        }
    }
    Column(modifier.fillMaxSize()) {
        if (timeline.isEmpty()) {
            Box(Modifier.weight(1f).fillMaxWidth(), contentAlignment = Alignment.Center) { slots.emptyState() }
        } else {
            LazyColumn(
                Modifier.weight(1f).fillMaxWidth().testTag("chat"),
                state = listState,
                contentPadding = PaddingValues(12.dp),
                verticalArrangement = Arrangement.spacedBy(8.dp),
            ) {
                items(timeline, key = TimelineItem::key, contentType = { it.kind::class }) { item ->
                    TimelineRow(item, slots, chat)
                }
            }
        }
        lastError?.let {
            Text(
                it,
                Modifier.padding(horizontal = 12.dp).testTag("chat-error"),
                style = MaterialTheme.typography.bodySmall,
                color = MaterialTheme.colorScheme.error,
            )
        }
        Composer(conversation, running = !phase.hasEnded, onAttach = onAttach, placeholder = placeholder, onError = errors)
    }
}

/** The distance [AgentChat] scrolls past the last row's start, clamped by the list to its end. */
private const val BOTTOM_SCROLL_PX = 1_000_000f

private fun textLength(item: TimelineItem): Int = when (val kind = item.kind) {
    is TimelineItemKind.AgentMessage -> kind.text.length
    is TimelineItemKind.UserMessage -> kind.text.length
    else -> 0
}

@Composable
private fun TimelineRow(item: TimelineItem, slots: AgentChatSlots, chat: AgentChatScope) {
    when (val kind = item.kind) {
        is TimelineItemKind.UserMessage -> slots.userMessage(kind, chat)
        is TimelineItemKind.AgentMessage -> slots.agentMessage(kind, chat)
        is TimelineItemKind.ToolActivity -> slots.toolActivity(kind, chat)
        is TimelineItemKind.Surface -> slots.surface(kind, chat)
        is TimelineItemKind.Interrupt -> slots.interrupt(kind, chat)
        is TimelineItemKind.ConsentRequest -> slots.consentRequest(kind, chat)
        is TimelineItemKind.RunError -> slots.runError(kind, chat)
        is TimelineItemKind.RunInProgress -> slots.runInProgress(kind, chat)
    }
}

/** The text field, send, Stop while a run is in progress, and the app's attach button. */
@Composable
private fun Composer(
    conversation: AgentConversation,
    running: Boolean,
    onAttach: (suspend () -> Attachment?)?,
    placeholder: String,
    onError: State<(Throwable) -> Unit>,
) {
    val scope = rememberCoroutineScope()
    var draft by remember { mutableStateOf("") }
    var attached by remember { mutableStateOf(listOf<Attachment>()) }
    var attachError by remember { mutableStateOf<String?>(null) }
    attachError?.let {
        Text(
            it,
            Modifier.padding(horizontal = 12.dp).testTag("attach-error"),
            style = MaterialTheme.typography.bodySmall,
            color = MaterialTheme.colorScheme.error,
        )
    }
    if (attached.isNotEmpty()) {
        Row(Modifier.fillMaxWidth().padding(horizontal = 12.dp)) {
            for (a in attached) {
                Text(
                    "📎 ${a.name}",
                    Modifier.padding(end = 8.dp).testTag("attached:${a.name}"),
                    style = MaterialTheme.typography.labelMedium,
                )
            }
        }
    }
    Row(Modifier.fillMaxWidth().padding(8.dp), verticalAlignment = Alignment.CenterVertically) {
        if (onAttach != null && !running) {
            TextButton(
                onClick = {
                    scope.launch {
                        try {
                            onAttach()?.let { attached = attached + it }
                            attachError = null
                        } catch (refused: dev.agentui.core.ConversationException.AttachmentRefused) {
                            attachError = "Cannot attach ${refused.name}: ${refused.detail}"
                        }
                    }
                },
                modifier = Modifier.testTag("attach").semantics { contentDescription = "Attach a file" },
            ) { Text("Attach") }
        }
        OutlinedTextField(
            draft,
            { draft = it },
            Modifier.weight(1f).testTag("composer"),
            placeholder = { Text(placeholder) },
        )
        if (running) {
            TextButton(
                onClick = conversation::cancel,
                modifier = Modifier.padding(start = 8.dp).testTag("stop").semantics { contentDescription = "Stop the answer" },
            ) { Text("Stop") }
        } else {
            Button(
                onClick = {
                    val text = draft.trim()
                    val files = attached
                    draft = ""
                    attached = emptyList()
                    // In the conversation's scope: the run outlives this screen. A failure shows
                    // in the timeline (the message's delivery, an error row).
                    val run = if (files.isEmpty()) conversation.sendAsync(text) else conversation.sendAsync(text, files)
                    scope.launch {
                        try {
                            run.await()
                        } catch (cancelled: kotlinx.coroutines.CancellationException) {
                            throw cancelled
                        } catch (failure: ConversationException) {
                            // Shown by the message's row (waiting, or not sent with Retry), not twice.
                        } catch (failure: Exception) {
                            onError.value(failure)
                        }
                    }
                },
                modifier = Modifier.padding(start = 8.dp).testTag("send"),
                enabled = draft.isNotBlank() || attached.isNotEmpty(),
            ) { Text("Send") }
        }
    }
}

/** The default rows of [AgentChat], for a slot that wraps one, or draws it and something more. */
public object AgentChatDefaults {
    /** The user's text and attachments, right-aligned, with its delivery and a Retry when it failed. */
    @Composable
    public fun UserMessage(item: TimelineItemKind.UserMessage, chat: AgentChatScope) {
        val colors = MaterialTheme.colorScheme
        val status = deliveryLabel(item.delivery)
        Box(Modifier.fillMaxWidth(), contentAlignment = Alignment.CenterEnd) {
            // The bubble is the row's one description; media and buttons stay nodes of their own.
            Column(horizontalAlignment = Alignment.End) {
                if (item.text.isNotEmpty()) {
                    Text(
                        item.text,
                        Modifier
                            .semantics { contentDescription = "You: ${item.text}" + (status?.let { ", $it" } ?: "") }
                            .widthIn(max = 320.dp)
                            .background(colors.primaryContainer, RoundedCornerShape(12.dp))
                            .padding(horizontal = 12.dp, vertical = 8.dp),
                        color = colors.onPrimaryContainer,
                    )
                }
                MessageMedia(item.media, bytes = chat::mediaBytes)
                when (val delivery = item.delivery) {
                    Delivery.Delivered -> Unit
                    Delivery.Sending -> Status("Sending…", "sending:${item.messageId}")
                    is Delivery.WaitingForNetwork -> Row(verticalAlignment = Alignment.CenterVertically) {
                        Status("Waiting for network", "waiting:${item.messageId}")
                        TextButton(onClick = { chat.retry(RetryAction.RESEND_PENDING) }, Modifier.testTag("retry")) { Text("Retry") }
                    }
                    is Delivery.Failed -> Row(verticalAlignment = Alignment.CenterVertically) {
                        Status(delivery.error?.let { "Not sent: $it" } ?: "Not sent", "failed:${item.messageId}", error = true)
                        TextButton(onClick = { chat.retry(delivery.retry) }, Modifier.testTag("retry")) { Text("Retry") }
                    }
                }
            }
        }
    }

    /**
     * The agent's Markdown as the core parsed it, left-aligned; while it streams the text after
     * the last parsed block shows as plain text, and the row grows smoothly. Announced once
     * finished.
     */
    @Composable
    public fun AgentMessage(item: TimelineItemKind.AgentMessage, chat: AgentChatScope) {
        val colors = MaterialTheme.colorScheme
        val markdown = chat.markdownOf(item.messageId)
        Column(Modifier.fillMaxWidth(), horizontalAlignment = Alignment.Start) {
            val bubble = Modifier
                .semantics(mergeDescendants = true) {
                    contentDescription = "Agent: " + (item.error ?: item.text) + if (item.cutShort) ", cut short" else ""
                    // Announced when it is whole, not per streamed piece.
                    if (!item.streaming) liveRegion = LiveRegionMode.Polite
                }
                .widthIn(max = 320.dp)
                .background(colors.surfaceVariant, RoundedCornerShape(12.dp))
                .padding(horizontal = 12.dp, vertical = 8.dp)
                .animateContentSize()
            val error = item.error
            if (error != null) {
                Text("⚠ $error", bubble.testTag("error:${item.messageId}"), color = colors.error)
            } else if (item.text.isNotEmpty()) {
                val uriHandler = LocalUriHandler.current
                if (markdown != null) {
                    MarkdownContent(
                        markdown.blocks,
                        modifier = bubble.testTag("markdown:${item.messageId}"),
                        pending = markdown.pendingText(item.text),
                        onOpenUrl = { uriHandler.openUri(it) },
                    )
                } else {
                    Text(item.text, bubble.testTag("markdown:${item.messageId}"), color = colors.onSurfaceVariant)
                }
            }
            MessageMedia(item.media, bytes = chat::mediaBytes)
            if (item.cutShort) Status("Cut short", "cut:${item.messageId}")
        }
    }

    /**
     * A compact line: the tool's name and where its call stands; the media its result carries
     * (a picture a server tool made) under it.
     */
    @Composable
    public fun ToolActivity(item: TimelineItemKind.ToolActivity, chat: AgentChatScope) {
        val label = toolLabel(item)
        val media = chat.resultMediaOf(item.toolCallId)
        Column(Modifier.fillMaxWidth()) {
            ToolLine(item, label)
            if (media.isNotEmpty()) MessageMedia(media, bytes = chat::mediaBytes)
        }
    }

    @Composable
    private fun ToolLine(item: TimelineItemKind.ToolActivity, label: String) {
        Text(
            "Tool ${item.name}: $label",
            Modifier
                .fillMaxWidth()
                .testTag("tool:${item.toolCallId}")
                .semantics { contentDescription = "Tool ${item.name}, $label" },
            style = MaterialTheme.typography.labelMedium,
            color = MaterialTheme.colorScheme.onSurfaceVariant,
        )
    }

    /** The agent's A2UI surface, inline. */
    @Composable
    public fun Surface(item: TimelineItemKind.Surface, chat: AgentChatScope) {
        A2uiSurface(chat.conversation, item.surfaceId, Modifier.fillMaxWidth().testTag("surface:${item.surfaceId}"))
    }

    /**
     * The agent's question, with Approve and Decline. Approve answers `{"<field>": true}` for
     * the first boolean field of the answer's schema (`true` when it has none); Decline cancels
     * the interrupt. An app with richer answers replaces this slot.
     */
    @Composable
    public fun Interrupt(item: TimelineItemKind.Interrupt, chat: AgentChatScope) {
        val interrupt = item.interrupt
        val question = interrupt.message ?: interrupt.reason
        CardRow("interrupt:${interrupt.id}", "The agent asks: $question") {
            Text(question, Modifier.semantics { heading() }, style = MaterialTheme.typography.titleSmall)
            Row(horizontalArrangement = Arrangement.spacedBy(8.dp)) {
                Button(
                    onClick = { chat.resolveInterrupt(interrupt.id, approval(interrupt.responseSchema)) },
                    modifier = Modifier.testTag("approve:${interrupt.id}"),
                ) { Text("Approve") }
                OutlinedButton(
                    onClick = { chat.cancelInterrupt(interrupt.id) },
                    modifier = Modifier.testTag("decline:${interrupt.id}"),
                ) { Text("Decline") }
            }
        }
    }

    /** Asks whether a client tool may act: Allow once, Allow for this conversation, Decline. */
    @Composable
    public fun ConsentRequest(item: TimelineItemKind.ConsentRequest, chat: AgentChatScope) {
        val request = item.request
        val id = request.toolCallId
        CardRow("consent:$id", "The agent wants to use ${request.toolName}") {
            Text("Allow ${request.toolName}?", Modifier.semantics { heading() }, style = MaterialTheme.typography.titleSmall)
            argumentsLine(request.arguments).takeIf { it.isNotEmpty() }?.let {
                Text(it, style = MaterialTheme.typography.bodySmall)
            }
            Row(horizontalArrangement = Arrangement.spacedBy(8.dp)) {
                Button(onClick = { chat.answerConsent(id, ConsentAnswer.ALLOW_ONCE) }, Modifier.testTag("allow-once:$id")) {
                    Text("Allow once")
                }
                OutlinedButton(
                    onClick = { chat.answerConsent(id, ConsentAnswer.ALLOW_ALWAYS) },
                    modifier = Modifier.testTag("allow-always:$id"),
                ) { Text("Allow for this conversation") }
            }
            TextButton(onClick = { chat.answerConsent(id, ConsentAnswer.DECLINE) }, Modifier.testTag("decline:$id")) {
                Text("Decline")
            }
        }
    }

    /** The run's error and a Retry doing what the core says would try again. */
    @Composable
    public fun RunError(item: TimelineItemKind.RunError, chat: AgentChatScope) {
        Row(
            Modifier.fillMaxWidth().testTag("run-error").semantics(mergeDescendants = true) {
                contentDescription = "Error: ${item.message}"
                liveRegion = LiveRegionMode.Polite
            },
            verticalAlignment = Alignment.CenterVertically,
        ) {
            Text(
                "⚠ ${item.message}",
                Modifier.weight(1f),
                style = MaterialTheme.typography.bodySmall,
                color = MaterialTheme.colorScheme.error,
            )
            TextButton(onClick = { chat.retry(item.retry) }, Modifier.testTag("retry-run")) { Text("Retry") }
        }
    }

    /** A small spinner while a run starts or streams. */
    @Composable
    public fun RunInProgress() {
        Box(
            Modifier.fillMaxWidth().testTag("run-in-progress").semantics { stateDescription = "The agent is answering" },
            contentAlignment = Alignment.CenterStart,
        ) {
            CircularProgressIndicator(Modifier.padding(4.dp).widthIn(max = 20.dp), strokeWidth = 2.dp)
        }
    }

    /** What an empty conversation shows. */
    @Composable
    public fun EmptyState() {
        Text(
            "Ask the agent anything.",
            Modifier.testTag("empty").semantics { contentDescription = "No messages yet. Ask the agent anything." },
            style = MaterialTheme.typography.bodyMedium,
            color = MaterialTheme.colorScheme.onSurfaceVariant,
        )
    }
}

/** A focusable card for a question to the user. */
@Composable
private fun CardRow(tag: String, description: String, content: @Composable () -> Unit) {
    Card(
        Modifier
            .fillMaxWidth()
            .testTag(tag)
            .semantics { contentDescription = description }
            .focusable(),
    ) {
        Column(Modifier.padding(12.dp), verticalArrangement = Arrangement.spacedBy(8.dp)) { content() }
    }
}

@Composable
private fun Status(text: String, tag: String, error: Boolean = false) {
    Text(
        text,
        Modifier.testTag(tag),
        style = MaterialTheme.typography.labelSmall,
        color = if (error) MaterialTheme.colorScheme.error else MaterialTheme.colorScheme.onSurfaceVariant,
    )
}

private fun deliveryLabel(delivery: Delivery): String? = when (delivery) {
    Delivery.Delivered -> null
    Delivery.Sending -> "sending"
    is Delivery.WaitingForNetwork -> "waiting for network"
    is Delivery.Failed -> "not sent"
}

private fun toolLabel(item: TimelineItemKind.ToolActivity): String = when (val phase = item.phase) {
    null, ToolCallPhase.Streaming -> "preparing"
    ToolCallPhase.Requested -> if (item.side == ToolSide.SERVER) "on the agent" else "requested"
    ToolCallPhase.Running -> "running"
    is ToolCallPhase.Succeeded -> "done"
    is ToolCallPhase.Failed -> "failed: ${phase.detail}"
    ToolCallPhase.CompletedByServer, ToolCallPhase.OwnedByServer -> "on the agent"
    is ToolCallPhase.Skipped -> "skipped"
    is ToolCallPhase.AwaitingInterrupt -> "waiting for your answer"
    ToolCallPhase.AwaitingConsent -> "waiting for your permission"
}

/** The answer an Approve gives: the schema's first boolean field set to true. */
private fun approval(schema: Map<String, Any?>?): Any? {
    @Suppress("UNCHECKED_CAST")
    val properties = schema?.get("properties") as? Map<String, Any?> ?: return true
    val field = properties.entries.firstOrNull { (it.value as? Map<*, *>)?.get("type") == "boolean" }?.key ?: return true
    return mapOf(field to true)
}

/** A call's arguments in a line: `name: value` per field of an object. */
private fun argumentsLine(arguments: Any?): String = when (arguments) {
    is Map<*, *> -> arguments.entries.joinToString(", ") { (k, v) -> "$k: $v" }
    null -> ""
    else -> arguments.toString()
}
