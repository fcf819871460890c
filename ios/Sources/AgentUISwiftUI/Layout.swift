// Row, Column, List, Card, Tabs, Divider and Modal.
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import SwiftUI
import AgentUI
import AgentUIRendering

/// Space between the children of Row, Column and List (the Compose renderer uses 8 dp).
let childSpacing: CGFloat = 8

/// Row (`axis: .horizontal`) and Column (`.vertical`).
@MainActor
struct StackComponent: View {
    let context: NodeContext
    let axis: Axis

    var body: some View {
        let justify = Justify(catalogValue: context.text("justify"))
        let align = CrossAlign(catalogValue: context.text("align"))
        let slots = childSlots(context.children)
        if #available(iOS 16.0, macOS 13.0, *) {
            FlexLayout(axis: axis, justify: justify, align: align, spacing: childSpacing) {
                ForEach(slots) { slot in
                    context.child(slot.nodeId)
                        .environment(\.a2uiStackSlot, StackSlot(axis: axis, stretchCross: align == .stretch, measuresWeights: true))
                }
            }
        } else {
            FallbackStack(context: context, axis: axis, justify: justify, align: align, slots: slots)
        }
    }
}

/// iOS 15: HStack/VStack with spacers for `justify`; weighted children get flexible frames and
/// share the free space equally (proportional weights need the iOS 16 layout), and the stack's
/// spacing also sits beside each spacer.
@MainActor
private struct FallbackStack: View {
    let context: NodeContext
    let axis: Axis
    let justify: Justify
    let align: CrossAlign
    let slots: [ChildSlot]

    var body: some View {
        let slot = StackSlot(axis: axis, stretchCross: align == .stretch, measuresWeights: false)
        let items = arranged(slots, justify: justify)
        if axis == .horizontal {
            HStack(alignment: verticalAlignment, spacing: childSpacing) {
                ForEach(items) { item in cell(item, slot: slot) }
            }
            // With `stretch`, children fill the row's height: the tallest child's.
            .fixedSize(horizontal: false, vertical: align == .stretch)
        } else {
            VStack(alignment: horizontalAlignment, spacing: childSpacing) {
                ForEach(items) { item in cell(item, slot: slot) }
            }
        }
    }

    @ViewBuilder
    private func cell(_ item: StackItem, slot: StackSlot) -> some View {
        if let nodeId = item.nodeId {
            if justify == .stretch {
                // Every child takes an equal share of the main axis (weight 1 each).
                context.child(nodeId)
                    .environment(\.a2uiStackSlot, slot)
                    .frame(maxWidth: axis == .horizontal ? .infinity : nil, maxHeight: axis == .vertical ? .infinity : nil)
            } else {
                context.child(nodeId).environment(\.a2uiStackSlot, slot)
            }
        } else {
            Spacer(minLength: 0)
        }
    }

    private var verticalAlignment: VerticalAlignment {
        switch align {
        case .center: return .center
        case .end: return .bottom
        case .start, .stretch: return .top
        }
    }

    private var horizontalAlignment: HorizontalAlignment {
        switch align {
        case .center: return .center
        case .end: return .trailing
        case .start, .stretch: return .leading
        }
    }
}

/// A child or a flexible spacer of a fallback stack.
struct StackItem: Identifiable {
    let id: String
    let nodeId: String?
}

/// `justify` with spacers: flexible spacers share the free space equally, so two spacers
/// between children and one at each end is `spaceAround`, one everywhere `spaceEvenly`.
func arranged(_ slots: [ChildSlot], justify: Justify) -> [StackItem] {
    let counts = spacerCounts(justify)
    var items: [StackItem] = []
    func spacers(_ count: Int, _ key: String) {
        for n in 0..<count { items.append(StackItem(id: "spacer:\(key):\(n)", nodeId: nil)) }
    }
    spacers(counts.leading, "leading")
    for (index, slot) in slots.enumerated() {
        if index > 0 { spacers(counts.between, slot.id) }
        items.append(StackItem(id: slot.id, nodeId: slot.nodeId))
    }
    spacers(counts.trailing, "trailing")
    return items
}

private func spacerCounts(_ justify: Justify) -> (leading: Int, between: Int, trailing: Int) {
    switch justify {
    case .start, .stretch: return (0, 0, 0)
    case .center: return (1, 0, 1)
    case .end: return (1, 0, 0)
    case .spaceBetween: return (0, 1, 0)
    case .spaceAround: return (1, 2, 1)
    case .spaceEvenly: return (1, 1, 1)
    }
}

/// A lazy stack keyed by instance id. A vertical List scrolls with its host (a chat list, or
/// a surface placed in a ScrollView): a vertical ScrollView nested in a scrolling host has no
/// height of its own. A horizontal List scrolls by itself.
@MainActor
struct ListComponent: View {
    let context: NodeContext

    var body: some View {
        let align = CrossAlign(catalogValue: context.text("align"))
        let slots = childSlots(context.children)
        if context.text("direction") == "horizontal" {
            let slot = StackSlot(axis: .horizontal, stretchCross: false, measuresWeights: false)
            ScrollView(.horizontal, showsIndicators: false) {
                LazyHStack(alignment: verticalAlignment(align), spacing: childSpacing) {
                    ForEach(slots) { item in
                        context.child(item.nodeId).environment(\.a2uiStackSlot, slot)
                    }
                }
            }
        } else {
            let slot = StackSlot(axis: .vertical, stretchCross: align == .stretch, measuresWeights: false)
            LazyVStack(alignment: horizontalAlignment(align), spacing: childSpacing) {
                ForEach(slots) { item in
                    context.child(item.nodeId).environment(\.a2uiStackSlot, slot)
                }
            }
        }
    }

    private func verticalAlignment(_ align: CrossAlign) -> VerticalAlignment {
        switch align {
        case .center: return .center
        case .end: return .bottom
        case .start, .stretch: return .top
        }
    }

    private func horizontalAlignment(_ align: CrossAlign) -> HorizontalAlignment {
        switch align {
        case .center: return .center
        case .end: return .trailing
        case .start, .stretch: return .leading
        }
    }
}

/// A rounded background with a shadow and 16 points of padding.
@MainActor
struct CardComponent: View {
    let context: NodeContext

    var body: some View {
        VStack(alignment: .leading, spacing: 0) {
            if let child = context.singleChild {
                context.child(child)
            }
        }
        .padding(16)
        .background(
            RoundedRectangle(cornerRadius: 12, style: .continuous)
                .fill(PlatformColors.cardBackground)
                .shadow(color: Color.black.opacity(0.15), radius: 4, x: 0, y: 2)
        )
    }
}

/// A segmented picker of the tab titles, and the selected tab's child.
@MainActor
struct TabsComponent: View {
    let context: NodeContext
    @State private var selected = 0

    private struct Tab {
        let title: String
        let child: String
    }

    var body: some View {
        let tabs: [Tab] = context.list("tabs").compactMap { tab in
            guard let child = tab[member: "child"]?.textValue else { return nil }
            return Tab(title: tab[member: "title"]?.displayText ?? "", child: child)
        }
        if !tabs.isEmpty {
            let index = min(max(selected, 0), tabs.count - 1)
            VStack(alignment: .leading, spacing: childSpacing) {
                Picker("", selection: Binding(get: { index }, set: { selected = $0 })) {
                    ForEach(tabs.indices, id: \.self) { position in
                        Text(tabs[position].title).tag(position)
                    }
                }
                .pickerStyle(.segmented)
                .labelsHidden()
                context.child(tabs[index].child)
            }
        }
    }
}

@MainActor
struct DividerComponent: View {
    let context: NodeContext

    var body: some View {
        // A Divider takes the orientation of the stack around it.
        if context.text("axis") == "vertical" {
            HStack { Divider() }.frame(minHeight: 24, maxHeight: .infinity)
        } else {
            VStack { Divider() }.frame(maxWidth: .infinity)
        }
    }
}

/// The trigger; activating it opens a sheet with `content`. A Button trigger opens it from its
/// own tap and still runs its action; any other trigger is made tappable here.
@MainActor
struct ModalComponent: View {
    let context: NodeContext
    @State private var presented = false
    @Environment(\.a2uiImageLoader) private var imageLoader

    var body: some View {
        if let trigger = context.prop("trigger")?.textValue {
            let opener = ModalOpener { presented = true }
            // A Button trigger (the usual case) calls the opener from its own tap.
            let triggerIsButton = context.peek(trigger)?.componentType == "Button"
            context.child(trigger)
                .environment(\.a2uiModalOpener, opener)
                .modifier(TapToOpen(enabled: !triggerIsButton, open: { presented = true }))
                .sheet(isPresented: $presented) {
                    ModalSheet(isPresented: $presented) {
                        if let content = context.prop("content")?.textValue {
                            context.child(content)
                        }
                    }
                    // Explicit: a sheet is a new presentation; the opener must not leak into it.
                    .environment(\.a2uiModalOpener, nil)
                    .environment(\.a2uiImageLoader, imageLoader)
                }
        }
    }
}

/// A trigger that is not a Button: a tap anywhere on it opens the sheet, and it reads as a
/// button to VoiceOver.
private struct TapToOpen: ViewModifier {
    let enabled: Bool
    let open: () -> Void

    func body(content: Content) -> some View {
        if enabled {
            content
                .contentShape(Rectangle())
                .onTapGesture(perform: open)
                .accessibilityAddTraits(.isButton)
                .accessibilityAction(.default, open)
        } else {
            content
        }
    }
}

@MainActor
private struct ModalSheet<Content: View>: View {
    @Binding var isPresented: Bool
    @ViewBuilder let content: () -> Content

    var body: some View {
        VStack(alignment: .leading, spacing: 0) {
            HStack {
                Spacer()
                Button("Close") { isPresented = false }
            }
            .padding()
            ScrollView {
                content()
                    .padding()
                    .frame(maxWidth: .infinity, alignment: .leading)
            }
        }
    }
}
