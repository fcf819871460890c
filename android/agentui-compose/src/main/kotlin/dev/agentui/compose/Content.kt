package dev.agentui.compose

import androidx.compose.foundation.border
import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.Row
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.height
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.layout.size
import androidx.compose.foundation.shape.CircleShape
import androidx.compose.material.icons.Icons
import androidx.compose.material.icons.filled.PlayArrow
import androidx.compose.material3.Icon
import androidx.compose.material3.IconButton
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.OutlinedCard
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.ui.Alignment
import androidx.compose.ui.Modifier
import androidx.compose.ui.draw.clip
import androidx.compose.ui.layout.ContentScale
import androidx.compose.ui.platform.LocalUriHandler
import androidx.compose.ui.text.TextStyle
import androidx.compose.ui.unit.dp
import dev.agentui.core.markdown.MdBlock

/**
 * A `Text` draws the Markdown tree the core made of it under its catalog's profile (v0.9: no
 * links or images; v1.0: headings, links through the URL policy): one paragraph in the variant's
 * style, more as blocks. A link opens only on the user's tap.
 */
@Composable
internal fun TextComponent(scope: NodeScope, modifier: Modifier) {
    val style = textStyle(scope.text("variant"))
    val blocks = scope.node.markdown
    val uriHandler = LocalUriHandler.current
    val paragraph = blocks?.singleOrNull() as? MdBlock.Paragraph
    when {
        blocks == null -> Text(scope.text("text").orEmpty(), modifier = modifier, style = style)
        blocks.isEmpty() -> Text("", modifier = modifier, style = style)
        paragraph != null ->
            Text(annotated(MarkdownLayout.styled(paragraph.inlines)) { uriHandler.openUri(it) }, modifier = modifier, style = style)
        else -> MarkdownContent(blocks, modifier) { uriHandler.openUri(it) }
    }
}

@Composable
private fun textStyle(variant: String?): TextStyle {
    val type = MaterialTheme.typography
    return when (variant) {
        "h1" -> type.headlineLarge
        "h2" -> type.headlineMedium
        "h3" -> type.headlineSmall
        "h4" -> type.titleLarge
        "h5" -> type.titleSmall
        "caption" -> type.bodySmall
        else -> type.bodyLarge
    }
}

@Composable
internal fun ImageComponent(scope: NodeScope, modifier: Modifier) {
    val description = scope.node.accessibility?.label ?: scope.text("description")
    val sized = when (scope.text("variant")) {
        "icon" -> modifier.size(24.dp)
        "avatar" -> modifier.size(40.dp).clip(CircleShape)
        "smallFeature" -> modifier.size(80.dp)
        "mediumFeature" -> modifier.size(160.dp)
        "largeFeature" -> modifier.size(240.dp)
        "header" -> modifier.fillMaxWidth().height(200.dp)
        else -> modifier.size(160.dp)
    }
    val scale = when (scope.text("fit")) {
        "cover" -> ContentScale.Crop
        "fill" -> ContentScale.FillBounds
        "none" -> ContentScale.None
        "scaleDown" -> ContentScale.Inside
        else -> ContentScale.Fit
    }
    LocalA2uiImageLoader.current.Image(scope.text("url"), description, scale, sized)
}

@Composable
internal fun IconComponent(scope: NodeScope, modifier: Modifier) {
    val name = scope.text("name").orEmpty()
    val description = scope.node.accessibility?.label ?: name
    val vector = materialIcon(name)
    if (vector != null) {
        Icon(vector, contentDescription = description, modifier = modifier)
    } else {
        // No Material icon for this name in the core icon set: show the name, never nothing.
        Text(
            name,
            modifier = modifier
                .border(1.dp, MaterialTheme.colorScheme.outline, MaterialTheme.shapes.extraSmall)
                .padding(horizontal = 4.dp),
            style = MaterialTheme.typography.labelSmall,
        )
    }
}

/**
 * Video and AudioPlayer: the URL (already policy-checked) goes to the app's URL handler on a
 * tap. A v1.0 Video's `posterUrl` (policy-checked too) is drawn above, through the image loader.
 * Register your own renderer for inline playback (ExoPlayer/Media3).
 */
@Composable
internal fun MediaComponent(scope: NodeScope, modifier: Modifier, isVideo: Boolean) {
    val url = scope.text("url")
    val context = LocalSurfaceContext.current
    val label = scope.node.accessibility?.label ?: scope.text("description") ?: if (isVideo) "Video" else "Audio"
    OutlinedCard(modifier) {
        val poster = if (isVideo) scope.text("posterUrl") else null
        if (poster != null) {
            LocalA2uiImageLoader.current.Image(poster, "$label poster", ContentScale.Crop, Modifier.fillMaxWidth().height(160.dp))
        }
        Row(
            Modifier.padding(horizontal = 8.dp, vertical = 4.dp),
            verticalAlignment = Alignment.CenterVertically,
            horizontalArrangement = Arrangement.spacedBy(8.dp),
        ) {
            IconButton(onClick = { if (url != null) context?.openMedia(url) }, enabled = url != null) {
                Icon(Icons.Filled.PlayArrow, contentDescription = "Play $label")
            }
            Text(if (url == null) "$label (unavailable)" else label, style = MaterialTheme.typography.bodyMedium)
        }
    }
}

/** A type the registry does not know: visible, with its children, so nothing disappears. */
internal val UnsupportedComponent: ComponentRenderer = { scope, modifier ->
    Column(
        modifier
            .border(1.dp, MaterialTheme.colorScheme.error, MaterialTheme.shapes.small)
            .padding(8.dp),
    ) {
        Text(
            "Unsupported component: ${scope.node.componentType}",
            style = MaterialTheme.typography.labelMedium,
            color = MaterialTheme.colorScheme.error,
        )
        for (child in scope.children) scope.Child(child)
    }
}
