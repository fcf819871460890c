// One node as a component renderer sees it: the resolved record, typed prop readers, its
// children, and the two ways back to the core (`write` and `activate`). The counterpart of the
// Compose renderer's NodeScope.
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import Foundation
import SwiftUI
import AgentUI
import AgentUIRendering

@MainActor
public struct NodeContext {
    /// The resolved node: the core already evaluated bindings, templates, checks and functions.
    public let node: Node
    let surface: SurfaceRenderContext
    let openURL: (URL) -> Void
    let modalOpener: ModalOpener?

    public var surfaceId: String { surface.surfaceId }

    /// False when a check failed on an actionable component: render it disabled.
    public var enabled: Bool { node.enabled }

    /// The first failing check's message, for inputs to show under themselves.
    public var validationMessage: String? { node.validationMessage }

    /// The first failing check as an input shows it (v1.0: only severity error is an error); a
    /// node that carries only a validation message shows it as an error.
    var checkShown: CheckShown? {
        AgentUIRendering.checkShown(node.checks) ?? node.validationMessage.map { CheckShown(message: $0, isError: true) }
    }

    /// Instance ids of the children in order; pending ones render nothing.
    public var children: [String] { node.children }

    public func prop(_ name: String) -> NodeValue? { node.prop(name) }

    /// A prop as display text: text as is, whole numbers without `.0`, booleans as true/false.
    public func text(_ name: String) -> String? { prop(name)?.displayText }

    /// A number, or text that parses as one.
    public func number(_ name: String) -> Double? { prop(name)?.numberValue }

    /// A boolean, or the text "true" / "false".
    public func bool(_ name: String) -> Bool? { prop(name)?.boolValue }

    public func list(_ name: String) -> [NodeValue] {
        if case .array(let items) = prop(name) { return items }
        return []
    }

    /// The view of child `id` (an instance id from `children` or from a prop such as a Tab's
    /// `child`); it observes that node alone and renders nothing while it is pending.
    public func child(_ id: String) -> NodeView {
        NodeView(id: id, surface: surface)
    }

    /// The single child of Button and Card. The core lists it in `children`; a `child` text
    /// prop, if a core ever sends one, names the same instance.
    public var singleChild: String? {
        prop("child")?.textValue ?? children.first
    }

    /// The current record of another node of this surface, without observing it.
    public func peek(_ id: String) -> Node? {
        surface.model.record(id)
    }

    /// The data-model path `property` is bound to, nil for a literal value.
    public func bindingPath(_ property: String = "value") -> String? {
        node.bindingPath(for: property)
    }

    /// Writes `value` through the binding of `property`. False when the property is not bound
    /// (a literal: the input keeps the value locally) or the core refused the write (reported
    /// through the surface's error handler).
    @discardableResult
    public func write<Value: NodeValueConvertible>(_ value: Value, property: String = "value") -> Bool {
        guard let path = bindingPath(property) else { return false }
        return surface.write(path: path, value: value.nodeValue)
    }

    /// Whether activating this node does something of its own.
    public var isActionable: Bool { node.action != nil }

    /// The name of this node's action, for labels and logs.
    public var actionName: String? {
        switch node.action {
        case .event(let name)?, .functionCall(let name)?: return name
        case nil: return nil
        }
    }

    /// The user activated this node (a tap): opens the enclosing Modal when this node is (in)
    /// its trigger, and sends the node's action to the core. An `openUrl` result is handed to
    /// the app's URL handler now, on this gesture.
    public func activate() {
        modalOpener?.open()
        if node.action != nil {
            surface.dispatch(nodeId: node.id, openURL: openURL)
        }
    }

    /// Hands a media URL (already checked by the core's URL policy) to the app's URL handler;
    /// call it from a tap only.
    public func openMedia(_ text: String) {
        guard let url = URL(string: text) else {
            surface.report(InvalidActionURL(text: text))
            return
        }
        openURL(url)
    }
}
