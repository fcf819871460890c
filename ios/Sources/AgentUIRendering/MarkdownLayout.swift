// The core's Markdown tree laid out as lines to draw: the twin of the Compose renderer's
// MarkdownLayout.kt, checked against the same shared cases (tests/renderer-cases/cases.json,
// section "markdown"). Pure Swift, so it builds and is tested on Linux too; the SwiftUI view that
// draws the lines is AgentUISwiftUI/MarkdownView.swift.

import AgentUICore

public enum MarkdownStyle: Equatable, Sendable {
    case emphasis, strong, strikethrough, code
    case link(url: String)
    /// An image the app turned on: its alt text, with its address (checked by the media policy).
    case image(url: String)
}

/// A style over a range of a line's text, in `Character` offsets.
public struct MarkdownSpan: Equatable, Sendable {
    public let range: Range<Int>
    public let style: MarkdownStyle
}

/// Text with its styles: what one `AttributedString` is built from.
public struct StyledText: Equatable, Sendable {
    public var text: String
    public var spans: [MarkdownSpan]

    /// The text each span covers.
    public func covered(_ span: MarkdownSpan) -> String {
        let characters = Array(text)
        return String(characters[span.range.clamped(to: 0..<characters.count)])
    }
}

public enum MarkdownLine: Equatable, Sendable {
    /// A paragraph, a heading (`level` 1–6, 0 otherwise), a list item's first paragraph (with its
    /// `marker`), or source text shown as it is (`plain`: raw HTML, or what went over a bound).
    case text(StyledText, quote: Int, indent: Int, level: Int, marker: String?, plain: Bool)
    case code(language: String?, text: String, quote: Int, indent: Int)
    case rule(quote: Int)
    case table(alignments: [MdAlignment], header: [StyledText], rows: [[StyledText]], quote: Int, indent: Int)
}

public enum MarkdownLayout {
    /// `blocks` as lines; `pending` (text the tree does not cover yet while a long block
    /// streams) goes after them as plain text.
    public static func lines(_ blocks: [MdBlock], pending: Substring = "") -> [MarkdownLine] {
        var out: [MarkdownLine] = []
        layout(blocks, quote: 0, indent: 0, marker: nil, into: &out)
        if !pending.isEmpty {
            switch out.last {
            case .text(var styled, let quote, let indent, let level, let marker, let plain)?:
                styled.text += pending
                out[out.count - 1] = .text(styled, quote: quote, indent: indent, level: level, marker: marker, plain: plain)
            case .code(let language, let text, let quote, let indent)?:
                out[out.count - 1] = .code(language: language, text: text + pending, quote: quote, indent: indent)
            default:
                out.append(.text(StyledText(text: String(pending), spans: []), quote: 0, indent: 0, level: 0, marker: nil, plain: false))
            }
        }
        return out
    }

    /// `blocks` as the plain text a screen reader speaks (a live Text's announcement): each
    /// line's text without its styles or list markers, a table's cells joined by ", ", rules left
    /// out; lines joined by a line break.
    public static func plainText(_ blocks: [MdBlock]) -> String {
        lines(blocks).compactMap { line -> String? in
            switch line {
            case .text(let styled, _, _, _, _, _): return styled.text.isEmpty ? nil : styled.text
            case .code(_, let text, _, _): return text
            case .rule: return nil
            case .table(_, let header, let rows, _, _):
                return ([header] + rows).map { $0.map(\.text).joined(separator: ", ") }.joined(separator: "\n")
            }
        }.joined(separator: "\n")
    }

    private static func empty(_ quote: Int, _ indent: Int, _ marker: String) -> MarkdownLine {
        .text(StyledText(text: "", spans: []), quote: quote, indent: indent, level: 0, marker: marker, plain: false)
    }

    private static func layout(_ blocks: [MdBlock], quote: Int, indent: Int, marker: String?, into out: inout [MarkdownLine]) {
        var pendingMarker = marker
        for block in blocks {
            let mark = pendingMarker
            pendingMarker = nil
            switch block {
            case .paragraph(let inlines):
                out.append(.text(styled(inlines), quote: quote, indent: indent, level: 0, marker: mark, plain: false))
            case .heading(let level, let inlines):
                out.append(.text(styled(inlines), quote: quote, indent: indent, level: Int(level), marker: mark, plain: false))
            case .quote(let inner):
                layout(inner, quote: quote + 1, indent: indent, marker: mark, into: &out)
            case .itemList(let start, _, let items):
                if let mark { out.append(empty(quote, indent, mark)) }
                for (i, item) in items.enumerated() {
                    let itemMarker: String
                    switch (item.task, start) {
                    case (true?, _): itemMarker = "☑"
                    case (false?, _): itemMarker = "☐"
                    case (nil, let first?): itemMarker = "\(first + UInt64(i))."
                    case (nil, nil): itemMarker = "•"
                    }
                    if item.blocks.isEmpty {
                        out.append(empty(quote, indent + 1, itemMarker))
                    } else {
                        layout(item.blocks, quote: quote, indent: indent + 1, marker: itemMarker, into: &out)
                    }
                }
            case .code(let language, let text):
                if let mark { out.append(empty(quote, indent, mark)) }
                let trimmed = text.hasSuffix("\n") ? String(text.dropLast()) : text
                out.append(.code(language: language, text: trimmed, quote: quote, indent: indent))
            case .rule:
                out.append(.rule(quote: quote))
            case .table(let alignments, let header, let rows):
                if let mark { out.append(empty(quote, indent, mark)) }
                out.append(.table(
                    alignments: alignments,
                    header: header.map { styled($0.inlines) },
                    rows: rows.map { $0.map { styled($0.inlines) } },
                    quote: quote,
                    indent: indent
                ))
            case .plainText(let text, _):
                let trimmed = text.hasSuffix("\n") ? String(text.dropLast()) : text
                out.append(.text(StyledText(text: trimmed, spans: []), quote: quote, indent: indent, level: 0, marker: mark, plain: true))
            }
        }
    }

    /// Inlines as one text with its styles: a soft break is a space, a hard break a line break.
    public static func styled(_ inlines: [MdInline]) -> StyledText {
        var text = ""
        var count = 0
        var spans: [MarkdownSpan] = []
        func append(_ s: String) {
            text += s
            count += s.count
        }
        func walk(_ inlines: [MdInline]) {
            for inline in inlines {
                let start = count
                switch inline {
                case .text(let s), .rawHtml(let s): append(s)
                case .softBreak: append(" ")
                case .hardBreak: append("\n")
                case .code(let s):
                    append(s)
                    spans.append(MarkdownSpan(range: start..<count, style: .code))
                case .emphasis(let children):
                    walk(children)
                    spans.append(MarkdownSpan(range: start..<count, style: .emphasis))
                case .strong(let children):
                    walk(children)
                    spans.append(MarkdownSpan(range: start..<count, style: .strong))
                case .strikethrough(let children):
                    walk(children)
                    spans.append(MarkdownSpan(range: start..<count, style: .strikethrough))
                case .link(let url, _, let children):
                    walk(children)
                    spans.append(MarkdownSpan(range: start..<count, style: .link(url: url)))
                case .image(let url, _, let alt):
                    append(alt)
                    spans.append(MarkdownSpan(range: start..<count, style: .image(url: url)))
                }
            }
        }
        walk(inlines)
        return StyledText(text: text, spans: spans)
    }
}
