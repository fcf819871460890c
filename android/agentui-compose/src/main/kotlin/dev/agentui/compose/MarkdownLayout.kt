package dev.agentui.compose

import dev.agentui.MdAlignment
import dev.agentui.core.markdown.MdBlock
import dev.agentui.core.markdown.MdInline

/** A style over `[start, end)` of a line's text; [url] for a link (and an image's address). */
public data class MarkdownSpan(val start: Int, val end: Int, val style: MarkdownStyle, val url: String? = null)

public enum class MarkdownStyle { EMPHASIS, STRONG, STRIKETHROUGH, CODE, LINK, IMAGE }

/** Text with its styles: what one `AnnotatedString` is built from. */
public data class StyledText(val text: String, val spans: List<MarkdownSpan>)

/**
 * The core's Markdown tree laid out as lines to draw, one per block, nesting turned into a quote
 * depth and a list indent. Pure, so that the shared renderer cases (tests/renderer-cases) check
 * it on the host JVM, as the SwiftUI renderer's tests check its twin (AgentUIRendering).
 */
public sealed interface MarkdownLine {
    /** Quote depth: how many quote bars are drawn before the line. */
    public val quote: Int

    /** A paragraph, a heading ([level] 1–6), a list item's first paragraph (with [marker]), or
     *  source text shown as it is ([plain]: raw HTML, or what went over a bound). */
    public data class Text(
        val styled: StyledText,
        override val quote: Int = 0,
        val indent: Int = 0,
        val level: Int = 0,
        val marker: String? = null,
        val plain: Boolean = false,
    ) : MarkdownLine

    public data class Code(val language: String?, val text: String, override val quote: Int = 0, val indent: Int = 0) : MarkdownLine

    public data class Rule(override val quote: Int = 0) : MarkdownLine

    public data class Table(
        val alignments: List<MdAlignment>,
        val header: List<StyledText>,
        val rows: List<List<StyledText>>,
        override val quote: Int = 0,
        val indent: Int = 0,
    ) : MarkdownLine
}

public object MarkdownLayout {
    /** [blocks] as lines; [pending] (the text the tree does not cover yet) goes after them as plain text. */
    public fun lines(blocks: List<MdBlock>, pending: String = ""): List<MarkdownLine> {
        val out = ArrayList<MarkdownLine>()
        blocks(blocks, quote = 0, indent = 0, marker = null, out = out)
        if (pending.isNotEmpty()) {
            when (val last = out.lastOrNull()) {
                is MarkdownLine.Text -> out[out.size - 1] =
                    last.copy(styled = last.styled.copy(text = last.styled.text + pending))
                is MarkdownLine.Code -> out[out.size - 1] = last.copy(text = last.text + pending)
                else -> out += MarkdownLine.Text(StyledText(pending, emptyList()))
            }
        }
        return out
    }

    /** [marker] is put on the first line the blocks make: a list item's bullet or number. */
    private fun blocks(blocks: List<MdBlock>, quote: Int, indent: Int, marker: String?, out: MutableList<MarkdownLine>) {
        var pendingMarker = marker
        for (block in blocks) {
            val mark = pendingMarker
            pendingMarker = null
            when (block) {
                is MdBlock.Paragraph -> out += MarkdownLine.Text(styled(block.inlines), quote, indent, marker = mark)
                is MdBlock.Heading -> out += MarkdownLine.Text(styled(block.inlines), quote, indent, block.level.toInt(), mark)
                is MdBlock.Quote -> blocks(block.blocks, quote + 1, indent, mark, out)
                is MdBlock.ItemList -> {
                    if (mark != null) out += MarkdownLine.Text(StyledText("", emptyList()), quote, indent, marker = mark)
                    for ((i, item) in block.items.withIndex()) {
                        val itemMarker = when {
                            item.task == true -> "☑"
                            item.task == false -> "☐"
                            block.start != null -> "${block.start!!.toLong() + i}."
                            else -> "•"
                        }
                        if (item.blocks.isEmpty()) {
                            out += MarkdownLine.Text(StyledText("", emptyList()), quote, indent + 1, marker = itemMarker)
                        } else {
                            blocks(item.blocks, quote, indent + 1, itemMarker, out)
                        }
                    }
                }
                is MdBlock.Code -> {
                    if (mark != null) out += MarkdownLine.Text(StyledText("", emptyList()), quote, indent, marker = mark)
                    out += MarkdownLine.Code(block.language, block.text.removeSuffix("\n"), quote, indent)
                }
                is MdBlock.Rule -> out += MarkdownLine.Rule(quote)
                is MdBlock.Table -> {
                    if (mark != null) out += MarkdownLine.Text(StyledText("", emptyList()), quote, indent, marker = mark)
                    out += MarkdownLine.Table(
                        block.alignments,
                        block.header.map { styled(it.inlines) },
                        block.rows.map { row -> row.map { styled(it.inlines) } },
                        quote,
                        indent,
                    )
                }
                is MdBlock.PlainText ->
                    out += MarkdownLine.Text(StyledText(block.text.removeSuffix("\n"), emptyList()), quote, indent, marker = mark, plain = true)
            }
        }
    }

    /** Inlines as one text with its styles: a soft break is a space, a hard break a line break. */
    public fun styled(inlines: List<MdInline>): StyledText {
        val text = StringBuilder()
        val spans = ArrayList<MarkdownSpan>()
        fun walk(inlines: List<MdInline>) {
            for (inline in inlines) {
                when (inline) {
                    is MdInline.Text -> text.append(inline.text)
                    is MdInline.RawHtml -> text.append(inline.text)
                    is MdInline.SoftBreak -> text.append(' ')
                    is MdInline.HardBreak -> text.append('\n')
                    is MdInline.Code -> span(text, spans, MarkdownStyle.CODE) { text.append(inline.text) }
                    is MdInline.Emphasis -> span(text, spans, MarkdownStyle.EMPHASIS) { walk(inline.children) }
                    is MdInline.Strong -> span(text, spans, MarkdownStyle.STRONG) { walk(inline.children) }
                    is MdInline.Strikethrough -> span(text, spans, MarkdownStyle.STRIKETHROUGH) { walk(inline.children) }
                    is MdInline.Link -> span(text, spans, MarkdownStyle.LINK, inline.url) { walk(inline.children) }
                    is MdInline.Image -> span(text, spans, MarkdownStyle.IMAGE, inline.url) { text.append(inline.alt) }
                }
            }
        }
        walk(inlines)
        return StyledText(text.toString(), spans)
    }

    private inline fun span(text: StringBuilder, spans: MutableList<MarkdownSpan>, style: MarkdownStyle, url: String? = null, body: () -> Unit) {
        val start = text.length
        body()
        spans += MarkdownSpan(start, text.length, style, url)
    }
}
