// Renders one node by instance id: observes that node's model only, picks the component
// renderer by type, and applies what every node gets (accessibility, weight, stretch).
//
// NOT COMPILED HERE: SwiftUI is Apple-only; scripts/swift-linux.sh builds the rest of ios/.

import SwiftUI
import AgentUI
import AgentUICore
import AgentUIRendering
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
                // A2UI v1.0: `hidden` takes the node and its children out of VoiceOver; `live`
                // announces the node's text when it changes (SwiftUI has no live regions).
                .accessibilityHidden(record.accessibility?.hidden == true)
                .modifier(LiveAnnouncement(live: record.accessibility?.live, text: record.prop("text")?.displayText))
                .modifier(StackSlotModifier(slot: slot, weight: record.weight))
        }
    }
}

/// v1.0 accessibility `live`: "polite" or "assertive" posts the node's new text as an
/// announcement when it changes (assertive at high priority where the platform has priorities);
/// "off" or none announces nothing.
struct LiveAnnouncement: ViewModifier {
    let live: String?
    let text: String?

    func body(content: Content) -> some View {
        if let live, live == "polite" || live == "assertive", let text {
            content.onChange(of: text) { new in
                announce(new, assertive: live == "assertive")
            }
        } else {
            content
        }
    }

    private func announce(_ text: String, assertive: Bool) {
        #if canImport(UIKit)
        if #available(iOS 17.0, *) {
            var announcement = AttributedString(text)
            announcement.accessibilitySpeechAnnouncementPriority = assertive ? .high : .default
            AccessibilityNotification.Announcement(announcement).post()
        } else {
            UIAccessibility.post(notification: .announcement, argument: text)
        }
        #elseif canImport(AppKit)
        NSAccessibility.post(
            element: NSApp as Any,
            notification: .announcementRequested,
            userInfo: [.announcement: text, .priority: assertive ? NSAccessibilityPriorityLevel.high.rawValue : NSAccessibilityPriorityLevel.medium.rawValue]
        )
        #endif
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
