package dev.agentui.compose

import androidx.compose.foundation.background
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.layout.size
import androidx.compose.foundation.shape.RoundedCornerShape
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.runtime.produceState
import androidx.compose.runtime.remember
import androidx.compose.ui.Modifier
import androidx.compose.ui.layout.ContentScale
import androidx.compose.ui.platform.testTag
import androidx.compose.ui.unit.dp
import dev.agentui.MediaKind
import dev.agentui.MessagePart
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext

/**
 * The default view of a message's media parts ([dev.agentui.ChatMessage.media]), one under the
 * other: an image through the host's image loader ([LocalA2uiImageLoader], the one A2UI `Image`
 * nodes use), given its URL (which passed the core's media URL policy) or, for inline bytes, a
 * `data:` URL; anything else, and an image with neither, as a labelled chip. Inline bytes over
 * 16 KiB stay in the core ([MessagePart.Media.heldBytes]) and are fetched with [bytes] (pass
 * `conversation::mediaBytes`) when the image is shown, off the main thread; without [bytes]
 * such an image is a chip. Nothing is fetched from the network by this library.
 */
@Composable
public fun MessageMedia(
    media: List<MessagePart.Media>,
    modifier: Modifier = Modifier,
    bytes: (suspend (MessagePart.Media) -> ByteArray?)? = null,
) {
    Column(modifier) {
        for (item in media) {
            val label = item.name ?: item.mimeType ?: item.kind.name.lowercase()
            val mime = item.mimeType ?: "application/octet-stream"
            // Built once per part: an inline image's base64 text may be megabytes.
            val url = if (item.heldBytes != null && bytes != null && item.kind == MediaKind.IMAGE) {
                produceState<String?>(null, item) {
                    value = bytes(item)?.let { b ->
                        withContext(Dispatchers.Default) { "data:$mime;base64," + java.util.Base64.getEncoder().encodeToString(b) }
                    }
                }.value
            } else {
                remember(item) { item.url ?: item.base64?.let { "data:$mime;base64,$it" } }
            }
            if (item.kind == MediaKind.IMAGE && url != null) {
                LocalA2uiImageLoader.current.Image(
                    url,
                    label,
                    ContentScale.Fit,
                    Modifier.size(200.dp).padding(vertical = 4.dp).testTag("media:image:$label"),
                )
            } else {
                MediaChip(item, label)
            }
        }
    }
}

@Composable
private fun MediaChip(item: MessagePart.Media, label: String) {
    val kind = item.kind.name.lowercase()
    Text(
        "$kind · $label",
        modifier = Modifier
            .padding(vertical = 4.dp)
            .background(MaterialTheme.colorScheme.secondaryContainer, RoundedCornerShape(8.dp))
            .padding(horizontal = 8.dp, vertical = 4.dp)
            .testTag("media:chip:$label"),
        style = MaterialTheme.typography.labelMedium,
        color = MaterialTheme.colorScheme.onSecondaryContainer,
    )
}
