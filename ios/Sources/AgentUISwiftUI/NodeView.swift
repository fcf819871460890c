// Renders one node by instance id: observes that node's model only, picks the component
// renderer by type, and applies what every node gets (accessibility, weight, stretch).
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import SwiftUI
import AgentUI
import AgentUIRendering
#if canImport(Accessibility)
import Accessibility
#endif
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// The view of one node of a surface; made by `NodeContext.child(_:)`.
@MainActor
public struct NodeView: View {
    let id: String
    let surface: SurfaceRenderContext

    init(id: String, surface: SurfaceRenderContext) {
        self.id = id
        self.surface = surface
    }

    public var body: some View {
        NodeContent(node: surface.model.node(id), surface: surface)
            // Identity by instance id: a Card, Tab or Modal that shows another child at the
            // same place gets a fresh view, not the previous child's local state.
            .id(id)
    }
}

/// Types that group other nodes: their accessibility label names the group instead of being
/// copied onto every element inside.
private let containerTypes: Set<String> = ["Row", "Column", "List", "Card", "Tabs", "Modal"]

@MainActor
struct NodeContent: View {
    // The only observation of this node: a diff that changes it re-renders from here.
    @ObservedObject var node: NodeModel
    let surface: SurfaceRenderContext

    @Environment(\.openURL) private var openURL
    @Environment(\.a2uiModalOpener) private var modalOpener
    @Environment(\.a2uiStackSlot) private var slot

    var body: some View {
        if let record = node.record {
            let renderer = surface.registry.renderer(for: record.componentType) ?? unsupportedComponent
            let context = NodeContext(
                node: record,
                surface: surface,
                openURL: surface.onOpenURL ?? { openURL($0) },
                modalOpener: modalOpener
            )
            renderer(context)
                // The Row/Column slot is for this node only, not for what it contains.
                .environment(\.a2uiStackSlot, nil)
                // A new type under the same id is a new widget (fresh local state).
                .id(record.componentType)
                .modifier(NodeAccessibility(
                    label: record.accessibility?.label,
                    hint: record.accessibility?.description,
                    isContainer: containerTypes.contains(record.componentType)
                        || surface.registry.renderer(for: record.componentType) == nil
                ))
                // A2UI v1.0: `hidden` takes the node and its children out of VoiceOver, and
                // follows its binding (this view re-renders when the node is resolved again).
                .accessibilityHidden(record.accessibility?.hidden == true)
                .modifier(LiveAnnouncements(state: liveState(record)))
                .modifier(StackSlotModifier(slot: slot, weight: record.weight))
        }
    }

    /// The node as the live announcer sees it; nil when it has no `live` at all (most nodes:
    /// they get no announcer). `live` is a literal of the component, so a node keeps or lacks
    /// the announcer for as long as the agent does not redefine it.
    private func liveState(_ record: Node) -> LiveState? {
        guard let accessibility = record.accessibility, accessibility.live != nil else { return nil }
        return LiveState(
            live: accessibility.live,
            hidden: accessibility.hidden,
            label: accessibility.label,
            // A Text's Markdown is announced as the text it shows, not its source.
            text: record.markdown.map(MarkdownLayout.plainText) ?? record.prop("text")?.displayText
        )
    }
}

/// v1.0 accessibility `live`: SwiftUI has no live regions, so the node's new text is posted as
/// an announcement when the core resolves it with another text. LiveRegion (AgentUIRendering,
/// tested on Linux) decides what, when and how urgently: never on appearance, never for `off`
/// or a hidden node. This only posts. For a node with `live` set to any value, `off` included,
/// the view's structure does not depend on the value, so a change of `live` keeps its state.
/// Main actor: the posting APIs are (UIAccessibility.post is @MainActor).
@MainActor
struct LiveAnnouncements: ViewModifier {
    let state: LiveState?
    @State private var region = LiveRegion()

    func body(content: Content) -> some View {
        if let state {
            content
                .onAppear { region.appeared(state) }
                .onChange(of: state) { new in
                    if let announcement = region.changed(to: new) {
                        post(announcement)
                    }
                }
        } else {
            content
        }
    }

    /// Polite waits for the speech in progress; assertive interrupts it and is not interrupted.
    private func post(_ announcement: LiveAnnouncement) {
        let assertive = announcement.politeness == .assertive
        if #available(iOS 17.0, macOS 14.0, tvOS 17.0, *) {
            var text = AttributedString(announcement.text)
            text.accessibilitySpeechAnnouncementPriority = assertive ? .high : .low
            AccessibilityNotification.Announcement(text).post()
        } else {
            #if canImport(UIKit)
            // No priorities before iOS 17: polite is queued behind the speech in progress,
            // assertive interrupts it (the default).
            let text = NSAttributedString(
                string: announcement.text,
                attributes: [.accessibilitySpeechQueueAnnouncement: !assertive]
            )
            UIAccessibility.post(notification: .announcement, argument: text)
            #elseif canImport(AppKit)
            if let app = NSApp {
                let priority: NSAccessibilityPriorityLevel = assertive ? .high : .medium
                NSAccessibility.post(
                    element: app,
                    notification: .announcementRequested,
                    userInfo: [.announcement: announcement.text, .priority: priority.rawValue]
                )
            }
            #endif
        }
    }
}

/// `accessibilityLabel` → label, `accessibilityDescription` → hint; each only when sent, so a
/// widget keeps its own label otherwise.
struct NodeAccessibility: ViewModifier {
    let label: String?
    let hint: String?
    let isContainer: Bool

    func body(content: Content) -> some View {
        if label == nil && hint == nil {
            content
        } else if isContainer {
            content
                .accessibilityElement(children: .contain)
                .modifier(OptionalLabel(label: label))
                .modifier(OptionalHint(hint: hint))
        } else {
            content
                .modifier(OptionalLabel(label: label))
                .modifier(OptionalHint(hint: hint))
        }
    }
}

private struct OptionalLabel: ViewModifier {
    let label: String?

    func body(content: Content) -> some View {
        if let label {
            content.accessibilityLabel(Text(label))
        } else {
            content
        }
    }
}

private struct OptionalHint: ViewModifier {
    let hint: String?

    func body(content: Content) -> some View {
        if let hint {
            content.accessibilityHint(Text(hint))
        } else {
            content
        }
    }
}

/// A direct child of a Row or Column: `weight` takes its share of the free main-axis space,
/// and `align: stretch` fills the cross axis.
struct StackSlotModifier: ViewModifier {
    let slot: StackSlot?
    let weight: Double?

    func body(content: Content) -> some View {
        if let slot {
            // The weight outermost: FlexLayout reads it from the subview it places.
            content
                .modifier(StretchModifier(axis: slot.axis, stretch: slot.stretchCross))
                .modifier(WeightModifier(slot: slot, weight: weight.flatMap { $0 > 0 ? $0 : nil }))
        } else {
            content
        }
    }
}

private struct WeightModifier: ViewModifier {
    let slot: StackSlot
    let weight: Double?

    func body(content: Content) -> some View {
        if let weight {
            if slot.measuresWeights {
                if #available(iOS 16.0, macOS 13.0, *) {
                    // FlexLayout reads the weight and proposes the exact share.
                    content.layoutValue(key: FlexWeight.self, value: weight)
                } else {
                    content
                }
            } else if slot.axis == .horizontal {
                // iOS 15 stacks: flexible children share the free space equally.
                content.frame(maxWidth: .infinity)
            } else {
                content.frame(maxHeight: .infinity)
            }
        } else {
            content
        }
    }
}

private struct StretchModifier: ViewModifier {
    let axis: Axis
    let stretch: Bool

    func body(content: Content) -> some View {
        if !stretch {
            content
        } else if axis == .horizontal {
            content.frame(maxHeight: .infinity, alignment: .top)
        } else {
            content.frame(maxWidth: .infinity, alignment: .leading)
        }
    }
}
