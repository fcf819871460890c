package dev.agentui.compose

import androidx.compose.foundation.background
import androidx.compose.foundation.border
import androidx.compose.foundation.horizontalScroll
import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Box
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.Row
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.heightIn
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.layout.width
import androidx.compose.foundation.rememberScrollState
import androidx.compose.foundation.shape.RoundedCornerShape
import androidx.compose.material3.HorizontalDivider
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.runtime.remember
import androidx.compose.ui.Modifier
import androidx.compose.ui.draw.drawBehind
import androidx.compose.ui.geometry.Offset
import androidx.compose.ui.graphics.Color
import androidx.compose.ui.layout.ContentScale
import androidx.compose.ui.platform.testTag
import androidx.compose.ui.semantics.heading
import androidx.compose.ui.semantics.semantics
import androidx.compose.ui.text.AnnotatedString
import androidx.compose.ui.text.LinkAnnotation
import androidx.compose.ui.text.SpanStyle
import androidx.compose.ui.text.TextLinkStyles
import androidx.compose.ui.text.TextStyle
import androidx.compose.ui.text.buildAnnotatedString
import androidx.compose.ui.text.font.FontFamily
import androidx.compose.ui.text.font.FontStyle
import androidx.compose.ui.text.font.FontWeight
import androidx.compose.ui.text.style.TextAlign
import androidx.compose.ui.text.style.TextDecoration
import androidx.compose.ui.unit.dp
import dev.agentui.MdAlignment
import dev.agentui.MdBlock

/**
 * The core's Markdown tree drawn with the app's Material theme (the agent chooses no style):
 * headings marked as headings for accessibility, links as [LinkAnnotation]s that call [onOpenUrl]
 * only on the user's tap (the core kept only the links the app's URL policy allows), code in
 * monospace with horizontal scroll, tables as a simple grid. [pending] is text the tree does not
 * cover yet while a long block streams (ChatMarkdown.pendingText), shown as plain text after it.
 */
@Composable
public fun MarkdownContent(
    blocks: List<MdBlock>,
    modifier: Modifier = Modifier,
    pending: String = "",
    onOpenUrl: (String) -> Unit,
) {
    val lines = remember(blocks, pending) { MarkdownLayout.lines(blocks, pending) }
    Column(modifier, verticalArrangement = Arrangement.spacedBy(6.dp)) {
        for (line in lines) MarkdownLineView(line, onOpenUrl)
    }
}

@Composable
private fun MarkdownLineView(line: MarkdownLine, onOpenUrl: (String) -> Unit) {
    val colors = MaterialTheme.colorScheme
    val barColor = colors.outlineVariant
    // One bar per quote level, drawn at the start.
    val quoted = Modifier
        .padding(start = (12 * line.quote).dp)
        .drawBehind {
            for (level in 0 until line.quote) {
                val x = -(12 * (level + 1)).dp.toPx() + 2.dp.toPx()
                drawLine(barColor, Offset(x, 0f), Offset(x, size.height), strokeWidth = 3.dp.toPx())
            }
        }
    when (line) {
        is MarkdownLine.Text -> Column(quoted.padding(start = (16 * line.indent).dp).fillMaxWidth()) {
            Row(Modifier.fillMaxWidth()) {
                line.marker?.let { Text(it, Modifier.width(24.dp), style = MaterialTheme.typography.bodyMedium) }
                val style = headingStyle(line.level)
                Text(
                    annotated(line.styled, onOpenUrl),
                    modifier = if (line.level > 0) Modifier.semantics { heading() } else Modifier,
                    style = if (line.plain) style.copy(fontFamily = FontFamily.Monospace) else style,
                )
            }
            // Images the app turned on (the core kept only addresses the media policy allows):
            // drawn under their line by the host's image loader, as A2UI `Image` is; the alt
            // text stays in the line and describes the image.
            for (span in line.styled.spans) {
                val url = span.url ?: continue
                if (span.style != MarkdownStyle.IMAGE) continue
                LocalA2uiImageLoader.current.Image(
                    url,
                    line.styled.text.substring(span.start, span.end),
                    ContentScale.Fit,
                    Modifier.fillMaxWidth().heightIn(max = 240.dp).testTag("markdown-image:$url"),
                )
            }
        }
        is MarkdownLine.Code -> Box(
            quoted
                .padding(start = (16 * line.indent).dp)
                .fillMaxWidth()
                .background(colors.surfaceVariant, RoundedCornerShape(6.dp))
                .horizontalScroll(rememberScrollState())
                .padding(8.dp),
        ) {
            Text(line.text, style = MaterialTheme.typography.bodySmall.copy(fontFamily = FontFamily.Monospace), softWrap = false)
        }
        is MarkdownLine.Rule -> HorizontalDivider(quoted.padding(vertical = 4.dp))
        is MarkdownLine.Table -> Box(quoted.padding(start = (16 * line.indent).dp).horizontalScroll(rememberScrollState())) {
            Column(Modifier.border(1.dp, colors.outlineVariant)) {
                TableRow(line.header, line.alignments, header = true, onOpenUrl)
                for (row in line.rows) TableRow(row, line.alignments, header = false, onOpenUrl)
            }
        }
    }
}

@Composable
private fun TableRow(cells: List<StyledText>, alignments: List<MdAlignment>, header: Boolean, onOpenUrl: (String) -> Unit) {
    val colors = MaterialTheme.colorScheme
    Row(if (header) Modifier.background(colors.surfaceVariant) else Modifier) {
        for ((i, cell) in cells.withIndex()) {
            val align = when (alignments.getOrNull(i)) {
                MdAlignment.CENTER -> TextAlign.Center
                MdAlignment.RIGHT -> TextAlign.End
                else -> TextAlign.Start
            }
            Text(
                annotated(cell, onOpenUrl),
                modifier = Modifier.width(120.dp).border(0.5.dp, colors.outlineVariant).padding(6.dp),
                style = MaterialTheme.typography.bodyMedium.copy(fontWeight = if (header) FontWeight.SemiBold else null),
                textAlign = align,
            )
        }
    }
}

@Composable
private fun headingStyle(level: Int): TextStyle {
    val type = MaterialTheme.typography
    return when (level) {
        1 -> type.headlineSmall
        2 -> type.titleLarge
        3 -> type.titleMedium
        4, 5, 6 -> type.titleSmall
        else -> type.bodyMedium
    }
}

@Composable
internal fun annotated(styled: StyledText, onOpenUrl: (String) -> Unit): AnnotatedString {
    val linkColor = MaterialTheme.colorScheme.primary
    val codeBackground = MaterialTheme.colorScheme.surfaceVariant
    return buildAnnotatedString {
        append(styled.text)
        for (span in styled.spans) {
            when (span.style) {
                MarkdownStyle.EMPHASIS -> addStyle(SpanStyle(fontStyle = FontStyle.Italic), span.start, span.end)
                MarkdownStyle.STRONG -> addStyle(SpanStyle(fontWeight = FontWeight.Bold), span.start, span.end)
                MarkdownStyle.STRIKETHROUGH ->
                    addStyle(SpanStyle(textDecoration = TextDecoration.LineThrough), span.start, span.end)
                MarkdownStyle.CODE ->
                    addStyle(SpanStyle(fontFamily = FontFamily.Monospace, background = codeBackground), span.start, span.end)
                // Announced as a link by accessibility services; opened only when tapped.
                MarkdownStyle.LINK -> span.url?.let { url ->
                    addLink(
                        LinkAnnotation.Url(
                            url,
                            TextLinkStyles(SpanStyle(color = linkColor, textDecoration = TextDecoration.Underline)),
                        ) { onOpenUrl(url) },
                        span.start,
                        span.end,
                    )
                }
                // An image the app turned on: its alt text here, the picture under the line.
                MarkdownStyle.IMAGE -> addStyle(SpanStyle(fontStyle = FontStyle.Italic, color = Color.Gray), span.start, span.end)
            }
        }
    }
}
