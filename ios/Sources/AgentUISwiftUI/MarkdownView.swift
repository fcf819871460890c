// The core's Markdown tree drawn in SwiftUI: a VStack of the lines MarkdownLayout
// (AgentUIRendering, tested on Linux against the shared renderer cases) makes of it.
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import SwiftUI
import AgentUI
import AgentUIRendering

/// Markdown as the core parsed it, with the app's SwiftUI styles (the agent chooses none):
/// headings marked `.isHeader` for VoiceOver, links as `AttributedString` links that open only
/// on the user's tap through `openURL` (the core kept only the links the app's URL policy
/// allows), code in monospace with horizontal scroll, tables as a grid. `pending` is text the
/// tree does not cover yet while a long block streams (`ChatMessage.markdownPendingText`).
public struct MarkdownView: View {
    let lines: [MarkdownLine]

    public init(blocks: [MdBlock], pending: Substring = "") {
        lines = MarkdownLayout.lines(blocks, pending: pending)
    }

    public var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            ForEach(Array(lines.enumerated()), id: \.offset) { _, line in
                MarkdownLineView(line: line)
            }
        }
    }
}

private struct MarkdownLineView: View {
    let line: MarkdownLine
    @Environment(\.a2uiImageLoader) private var imageLoader

    var body: some View {
        switch line {
        case .text(let styled, let quote, let indent, let level, let marker, let plain):
            VStack(alignment: .leading, spacing: 4) {
                HStack(alignment: .firstTextBaseline, spacing: 4) {
                    if let marker { Text(marker).frame(width: 20, alignment: .leading) }
                    let text = Text(attributed(styled)).font(level > 0 ? headingFont(level) : (plain ? .body.monospaced() : .body))
                    if level > 0 {
                        text.accessibilityAddTraits(.isHeader)
                    } else {
                        text
                    }
                }
                // Images the app turned on (the core kept only addresses the media policy
                // allows): under their line, through the loader A2UI `Image` uses; the alt text
                // stays in the line and labels the picture.
                ForEach(Array(images(styled).enumerated()), id: \.offset) { _, image in
                    imageLoader.image(url: image.url, fit: .contain)
                        .frame(maxWidth: .infinity, maxHeight: 240)
                        .accessibilityLabel(image.alt)
                }
            }
            .padding(.leading, CGFloat(16 * indent))
            .modifier(QuoteBars(depth: quote))
        case .code(_, let text, let quote, let indent):
            ScrollView(.horizontal) {
                Text(verbatim: text).font(.callout.monospaced()).fixedSize().padding(8)
            }
            .background(RoundedRectangle(cornerRadius: 6).fill(Color.secondary.opacity(0.12)))
            .padding(.leading, CGFloat(16 * indent))
            .modifier(QuoteBars(depth: quote))
        case .rule(let quote):
            Divider().modifier(QuoteBars(depth: quote))
        case .table(let alignments, let header, let rows, let quote, let indent):
            ScrollView(.horizontal) {
                if #available(iOS 16.0, macOS 13.0, *) {
                    Grid(alignment: .leading, horizontalSpacing: 12, verticalSpacing: 6) {
                        GridRow { cells(header, alignments).fontWeight(.semibold) }
                        Divider()
                        ForEach(Array(rows.enumerated()), id: \.offset) { _, row in
                            GridRow { cells(row, alignments) }
                        }
                    }
                    .padding(8)
                } else {
                    // iOS 15 has no Grid: rows of cells, columns not aligned across rows.
                    VStack(alignment: .leading, spacing: 6) {
                        plainRow(header).font(.body.weight(.semibold))
                        Divider()
                        ForEach(Array(rows.enumerated()), id: \.offset) { _, row in
                            plainRow(row)
                        }
                    }
                    .padding(8)
                }
            }
            .padding(.leading, CGFloat(16 * indent))
            .modifier(QuoteBars(depth: quote))
        }
    }

    private func plainRow(_ row: [StyledText]) -> some View {
        HStack(spacing: 12) {
            ForEach(Array(row.enumerated()), id: \.offset) { _, cell in
                Text(attributed(cell))
            }
        }
    }

    private func images(_ styled: StyledText) -> [(url: URL, alt: String)] {
        styled.spans.compactMap { span in
            guard case .image(let address) = span.style, let url = URL(string: address) else { return nil }
            return (url: url, alt: styled.covered(span))
        }
    }

    @available(iOS 16.0, macOS 13.0, *)
    private func cells(_ row: [StyledText], _ alignments: [MdAlignment]) -> some View {
        ForEach(Array(row.enumerated()), id: \.offset) { i, cell in
            Text(attributed(cell)).gridColumnAlignment(i < alignments.count ? alignment(alignments[i]) : .leading)
        }
    }

    private func alignment(_ a: MdAlignment) -> HorizontalAlignment {
        switch a {
        case .center: return .center
        case .right: return .trailing
        case .none, .left: return .leading
        }
    }

    private func headingFont(_ level: Int) -> Font {
        switch level {
        case 1: return .title
        case 2: return .title2
        case 3: return .title3
        default: return .headline
        }
    }

    private func attributed(_ styled: StyledText) -> AttributedString { MarkdownView.attributed(styled) }
}

extension MarkdownView {
    /// The styled text as an `AttributedString`: spans are `Character` ranges.
    static func attributed(_ styled: StyledText) -> AttributedString {
        var out = AttributedString(styled.text)
        let characters = out.characters
        for span in styled.spans {
            guard span.range.upperBound <= characters.count else { continue }
            let start = characters.index(characters.startIndex, offsetBy: span.range.lowerBound)
            let end = characters.index(characters.startIndex, offsetBy: span.range.upperBound)
            let range = start..<end
            switch span.style {
            case .emphasis: out[range].inlinePresentationIntent = (out[range].inlinePresentationIntent ?? []).union(.emphasized)
            case .strong: out[range].inlinePresentationIntent = (out[range].inlinePresentationIntent ?? []).union(.stronglyEmphasized)
            case .strikethrough: out[range].strikethroughStyle = .single
            case .code: out[range].inlinePresentationIntent = (out[range].inlinePresentationIntent ?? []).union(.code)
            // A link VoiceOver announces as one; SwiftUI opens it through openURL on a tap only.
            case .link(let url): out[range].link = URL(string: url)
            case .image: out[range].inlinePresentationIntent = (out[range].inlinePresentationIntent ?? []).union(.emphasized)
            }
        }
        return out
    }
}

/// One bar per quote level before the content.
private struct QuoteBars: ViewModifier {
    let depth: Int

    func body(content: Content) -> some View {
        HStack(spacing: 8) {
            ForEach(0..<depth, id: \.self) { _ in
                Rectangle().fill(Color.secondary.opacity(0.4)).frame(width: 3)
            }
            content
        }
        .fixedSize(horizontal: false, vertical: true)
    }
}
