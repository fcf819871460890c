// Text, Icon and the placeholder for types no renderer is registered for.
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import SwiftUI
import AgentUI

@MainActor
struct TextComponent: View {
    let context: NodeContext

    /// The Markdown tree the core made of the text under its catalog's profile (v0.9: no links
    /// or images; v1.0: headings, links through the URL policy): one paragraph in the variant's
    /// font, more as blocks. Nothing is parsed here.
    var body: some View {
        let font = Self.font(for: context.text("variant"))
        if let blocks = context.node.markdown, blocks.count > 1 {
            MarkdownView(blocks: blocks)
        } else if case .paragraph(let inlines)? = context.node.markdown?.first {
            Text(MarkdownView.attributed(MarkdownLayout.styled(inlines)))
                .font(font)
                .fixedSize(horizontal: false, vertical: true)
        } else {
            Text(verbatim: context.text("text") ?? "")
                .font(font)
                .fixedSize(horizontal: false, vertical: true)
        }
    }

    static func font(for variant: String?) -> Font {
        switch variant {
        case "h1": return .largeTitle
        case "h2": return .title
        case "h3": return .title2
        case "h4": return .title3
        case "h5": return .headline
        case "caption": return .caption
        default: return .body
        }
    }
}

@MainActor
struct IconComponent: View {
    let context: NodeContext

    var body: some View {
        // `name` is a catalog name, or an object ({svgPath}) this renderer does not draw.
        let name = context.prop("name")?.textValue
        let label = context.node.accessibility?.label ?? name ?? "icon"
        if let name, let symbol = SFSymbols.symbol(forCatalogName: name) {
            symbol.image
                .font(.system(size: 20))
                .frame(width: 24, height: 24)
                .accessibilityLabel(Text(label))
        } else {
            // No symbol for this name: show the name, never nothing.
            Text(name ?? "icon")
                .font(.caption2)
                .padding(.horizontal, 4)
                .overlay(RoundedRectangle(cornerRadius: 4).stroke(Color.secondary))
                .accessibilityLabel(Text(label))
        }
    }
}

/// A type the registry does not know: visible, with its children, so nothing the agent sent
/// disappears silently.
let unsupportedComponent: ComponentRenderer = { context in
    AnyView(UnsupportedComponent(context: context))
}

@MainActor
struct UnsupportedComponent: View {
    let context: NodeContext

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text("Unsupported component: \(context.node.componentType)")
                .font(.caption)
                .foregroundColor(.red)
            ForEach(childSlots(context.children)) { slot in
                context.child(slot.nodeId)
            }
        }
        .padding(8)
        .overlay(RoundedRectangle(cornerRadius: 8).stroke(Color.red))
    }
}

/// Children as ForEach items keyed by instance id; an id listed twice gets a second key, so a
/// malformed list cannot make SwiftUI confuse two rows.
struct ChildSlot: Identifiable, Hashable {
    let id: String
    let nodeId: String
}

func childSlots(_ ids: [String]) -> [ChildSlot] {
    var seen: [String: Int] = [:]
    return ids.map { nodeId in
        let count = seen[nodeId, default: 0]
        seen[nodeId] = count + 1
        return ChildSlot(id: count == 0 ? nodeId : "\(nodeId)#\(count)", nodeId: nodeId)
    }
}
