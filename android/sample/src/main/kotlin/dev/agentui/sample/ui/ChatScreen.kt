package dev.agentui.sample.ui

import androidx.compose.foundation.background
import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Box
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.PaddingValues
import androidx.compose.foundation.layout.Row
import androidx.compose.foundation.layout.fillMaxSize
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.imePadding
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.layout.safeDrawingPadding
import androidx.compose.foundation.layout.widthIn
import androidx.compose.foundation.lazy.LazyColumn
import androidx.compose.foundation.lazy.items
import androidx.compose.foundation.lazy.rememberLazyListState
import androidx.compose.foundation.shape.RoundedCornerShape
import androidx.compose.material3.Button
import androidx.compose.material3.LinearProgressIndicator
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.OutlinedTextField
import androidx.compose.material3.Text
import androidx.compose.material3.TextButton
import androidx.compose.runtime.Composable
import androidx.compose.runtime.LaunchedEffect
import androidx.compose.runtime.collectAsState
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateMapOf
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.remember
import androidx.compose.runtime.rememberCoroutineScope
import androidx.compose.runtime.setValue
import androidx.compose.ui.Alignment
import androidx.compose.ui.Modifier
import androidx.compose.ui.platform.LocalUriHandler
import androidx.compose.ui.platform.testTag
import androidx.compose.ui.unit.dp
import dev.agentui.AgentConversation
import dev.agentui.Attachment
import dev.agentui.core.ConversationException
import dev.agentui.ChatMessage
import dev.agentui.MessagePart
import dev.agentui.compose.A2uiSurface
import dev.agentui.compose.MarkdownContent
import dev.agentui.compose.MessageMedia
import dev.agentui.Role
import dev.agentui.RunPhase
import kotlinx.coroutines.launch

/** One row of the chat: a message, or a surface placed after the message it arrived with. */
private sealed interface ChatItem {
    val key: String

    data class Message(val message: ChatMessage) : ChatItem {
        override val key get() = "m:" + message.id
    }

    data class Surface(val surfaceId: String) : ChatItem {
        override val key get() = "s:$surfaceId"
    }
}

/**
 * Lets the user pick a photo to attach: on Android the system photo picker (MainActivity), in
 * tests a fake. Null when the user picked nothing; a photo that cannot be read throws.
 */
fun interface PhotoPicker {
    suspend fun pick(): Attachment?
}

@Composable
fun ChatScreen(conversation: AgentConversation, photoPicker: PhotoPicker? = null) {
    val messages by conversation.messages.collectAsState()
    val surfaces by conversation.surfaces.collectAsState()
    val surfaceIds = surfaces.map { it.id }
    val phase by conversation.phase.collectAsState()
    val pendingSends by conversation.pendingSends.collectAsState()
    // Waiting because the agent could not be reached (not merely under way).
    val undelivered = pendingSends.any { it.attempts > 0 }
    val scope = rememberCoroutineScope()
    // A surface is shown after the messages that existed when it first appeared.
    val anchors = remember(conversation) { mutableStateMapOf<String, Int>() }
    LaunchedEffect(surfaceIds) {
        for (id in surfaceIds) if (id !in anchors) anchors[id] = messages.size
    }
    val items = remember(messages, surfaceIds, anchors.toMap()) { chatItems(messages, surfaceIds, anchors) }
    val listState = rememberLazyListState()
    LaunchedEffect(items.size) { if (items.isNotEmpty()) listState.animateScrollToItem(items.lastIndex) }
    var draft by remember { mutableStateOf("") }
    // Photos picked for the next message.
    var attached by remember { mutableStateOf(listOf<Attachment>()) }
    var attachError by remember { mutableStateOf<String?>(null) }
    val running = !phase.hasEnded

    Column(Modifier.fillMaxSize().safeDrawingPadding().imePadding()) {
        if (running) LinearProgressIndicator(Modifier.fillMaxWidth()) else Box(Modifier.padding(top = 4.dp))
        LazyColumn(
            Modifier.weight(1f).fillMaxWidth().testTag("chat"),
            state = listState,
            contentPadding = PaddingValues(12.dp),
            verticalArrangement = Arrangement.spacedBy(8.dp),
        ) {
            items(items, key = { it.key }) { item ->
                when (item) {
                    is ChatItem.Message ->
                        MessageBubble(item.message, waiting = item.message.isPending && undelivered, bytes = conversation::mediaBytes)
                    is ChatItem.Surface ->
                        A2uiSurface(conversation, item.surfaceId, Modifier.fillMaxWidth(), components = LoyaltyCatalog.components)
                }
            }
        }
        if (phase is RunPhase.Abandoned) {
            // Restored after the app was closed mid-answer: nothing is replayed on its own.
            Notice("The answer was cut off when the app closed. Send again to continue.", "abandoned")
        }
        if (undelivered) {
            Row(Modifier.fillMaxWidth().padding(horizontal = 12.dp), verticalAlignment = Alignment.CenterVertically) {
                Notice("Not delivered yet: the agent cannot be reached.", "undelivered", Modifier.weight(1f))
                // The conversation retries on its own too; this is "now". A failure leaves it waiting.
                TextButton(onClick = { scope.launch { runCatching { conversation.retryPending() } } }, Modifier.testTag("retry")) {
                    Text("Retry")
                }
            }
        }
        attachError?.let { Notice(it, "attach-error") }
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
            if (photoPicker != null && !running) {
                TextButton(
                    onClick = {
                        scope.launch {
                            // Read off the main thread by the picker; a refused photo says why.
                            try {
                                photoPicker.pick()?.let { attached = attached + it }
                                attachError = null
                            } catch (e: ConversationException.AttachmentRefused) {
                                attachError = "Cannot attach ${e.name}: ${e.detail}"
                            }
                        }
                    },
                    modifier = Modifier.testTag("attach"),
                ) { Text("Photo") }
            }
            OutlinedTextField(
                draft,
                { draft = it },
                Modifier.weight(1f).testTag("composer"),
                placeholder = { Text("Try: hello, book a table, sign up, open settings") },
            )
            if (running) {
                TextButton(onClick = conversation::cancel, Modifier.padding(start = 8.dp)) { Text("Stop") }
            } else {
                Button(
                    onClick = {
                        val text = draft.trim()
                        val photos = attached
                        draft = ""
                        attached = emptyList()
                        // In the conversation's scope: the run survives this screen going away.
                        if (photos.isEmpty()) conversation.sendAsync(text) else conversation.sendAsync(text, photos)
                    },
                    modifier = Modifier.padding(start = 8.dp).testTag("send"),
                    enabled = draft.isNotBlank() || attached.isNotEmpty(),
                ) { Text("Send") }
            }
        }
    }
}

private fun chatItems(messages: List<ChatMessage>, surfaceIds: List<String>, anchors: Map<String, Int>): List<ChatItem> {
    val visible = messages.filter {
        it.role == Role.USER || it.role == Role.ASSISTANT && it.text.isNotEmpty() || it.error != null || it.media.isNotEmpty()
    }
    val bySlot = surfaceIds.groupBy { id -> (anchors[id] ?: messages.size).coerceAtMost(messages.size) }
    val out = ArrayList<ChatItem>()
    var shown = 0
    for ((index, message) in messages.withIndex()) {
        bySlot[index]?.forEach { out += ChatItem.Surface(it) }
        if (shown < visible.size && visible[shown] === message) {
            out += ChatItem.Message(message)
            shown++
        }
    }
    bySlot[messages.size]?.forEach { out += ChatItem.Surface(it) }
    return out
}

@Composable
private fun Notice(text: String, tag: String, modifier: Modifier = Modifier.padding(horizontal = 12.dp)) {
    Text(text, modifier.testTag(tag), style = MaterialTheme.typography.bodySmall, color = MaterialTheme.colorScheme.error)
}

/** [waiting]: a user message the agent has not received because it could not be reached. */
@Composable
private fun MessageBubble(message: ChatMessage, waiting: Boolean, bytes: suspend (MessagePart.Media) -> ByteArray?) {
    val mine = message.role == Role.USER
    Box(Modifier.fillMaxWidth(), contentAlignment = if (mine) Alignment.CenterEnd else Alignment.CenterStart) {
        val colors = MaterialTheme.colorScheme
        Column(horizontalAlignment = if (mine) Alignment.End else Alignment.Start) {
            val markdown = message.markdown
            if (markdown != null && message.error == null && message.text.isNotEmpty()) {
                // The assistant's Markdown as the core parsed it; a link opens only when tapped.
                val uriHandler = LocalUriHandler.current
                MarkdownContent(
                    markdown.blocks,
                    modifier = Modifier
                        .widthIn(max = 320.dp)
                        .background(colors.surfaceVariant, RoundedCornerShape(12.dp))
                        .padding(horizontal = 12.dp, vertical = 8.dp)
                        .testTag("markdown:" + message.id),
                    pending = markdown.pendingText(message.text),
                    onOpenUrl = { uriHandler.openUri(it) },
                )
            } else if (message.text.isNotEmpty() || message.error != null || waiting) {
                Text(
                    // Text cut short by Stop is not a finished answer: say so.
                    message.error?.let { "⚠ $it" } ?: (message.text + if (waiting) "  ⏳" else ""),
                    modifier = Modifier
                        .widthIn(max = 320.dp)
                        .background(if (mine) colors.primaryContainer else colors.surfaceVariant, RoundedCornerShape(12.dp))
                        .padding(horizontal = 12.dp, vertical = 8.dp)
                        .then(if (waiting) Modifier.testTag("waiting:" + message.id) else Modifier),
                    color = if (message.error != null) colors.error else colors.onSurface,
                )
            }
            // Images through the host's image loader (a photo's bytes fetched from the core when
            // shown), a chip for the rest.
            MessageMedia(message.media, bytes = bytes)
        }
    }
}
