// The entry point of the renderer: one A2UI surface of a conversation as native SwiftUI.
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import SwiftUI
import AgentUI

/// Renders A2UI surface `surfaceId` of `conversation` from the core's resolved nodes
/// (docs/rendering.md).
///
/// Each node is its own `ObservableObject`, so a diff re-renders only the nodes it changed.
/// Inputs write through `setValue`; a tap on an actionable node dispatches its action, which
/// keeps running if this view leaves the screen. An `openUrl` result is handed to `onOpenURL`
/// (default: the environment's `openURL`) on that tap, never otherwise.
///
/// The surface takes its content's height. A vertical `List` scrolls with its host: put a
/// full-screen surface in a `ScrollView`; a chat list already scrolls.
///
/// - Parameters:
///   - components: the component renderers; replace or add types with `ComponentRegistry.with`.
///     Pass the same registry on every render.
///   - onOpenURL: where `openUrl` action results and media taps go.
///   - onError: refused writes and failed actions; by default the last one is shown under the
///     surface, so nothing fails silently.
@MainActor
public struct A2UISurfaceView: View {
    private let key: SurfaceKey
    private let makeContext: () -> SurfaceRenderContext
    private let components: ComponentRegistry
    private let onOpenURL: ((URL) -> Void)?
    private let onError: ((Error) -> Void)?

    public init(
        conversation: AgentConversation,
        surfaceId: String,
        components: ComponentRegistry = .basic,
        onOpenURL: ((URL) -> Void)? = nil,
        onError: ((Error) -> Void)? = nil
    ) {
        self.key = SurfaceKey(owner: ObjectIdentifier(conversation), surfaceId: surfaceId)
        self.makeContext = {
            SurfaceRenderContext(
                model: SurfaceModel(conversation: conversation, surfaceId: surfaceId),
                actions: ConversationSurfaceActions(conversation: conversation, surfaceId: surfaceId)
            )
        }
        self.components = components
        self.onOpenURL = onOpenURL
        self.onError = onError
    }

    /// Renders `model` (kept current by the caller) and sends input and actions to `actions`:
    /// for previews, tests, and apps with their own plumbing.
    public init(
        model: SurfaceModel,
        actions: SurfaceActions,
        components: ComponentRegistry = .basic,
        onOpenURL: ((URL) -> Void)? = nil,
        onError: ((Error) -> Void)? = nil
    ) {
        self.key = SurfaceKey(owner: ObjectIdentifier(model), surfaceId: model.surfaceId)
        self.makeContext = { SurfaceRenderContext(model: model, actions: actions) }
        self.components = components
        self.onOpenURL = onOpenURL
        self.onError = onError
    }

    public var body: some View {
        SurfaceHost(
            makeContext: makeContext,
            components: components,
            onOpenURL: onOpenURL,
            onError: onError
        )
        // Another conversation or surface is another view, with its own state.
        .id(key)
    }
}

private struct SurfaceKey: Hashable {
    let owner: ObjectIdentifier
    let surfaceId: String
}

@MainActor
private struct SurfaceHost: View {
    @StateObject private var context: SurfaceRenderContext
    private let components: ComponentRegistry
    private let onOpenURL: ((URL) -> Void)?
    private let onError: ((Error) -> Void)?

    init(
        makeContext: @escaping () -> SurfaceRenderContext,
        components: ComponentRegistry,
        onOpenURL: ((URL) -> Void)?,
        onError: ((Error) -> Void)?
    ) {
        // Made once per view identity; later renders reuse it.
        _context = StateObject(wrappedValue: makeContext())
        self.components = components
        self.onOpenURL = onOpenURL
        self.onError = onError
    }

    var body: some View {
        // Plain properties of the context: no node re-renders because of this assignment.
        context.registry = components
        context.onOpenURL = onOpenURL
        context.onError = onError
        return VStack(alignment: .leading, spacing: 4) {
            SurfaceRoot(model: context.model, surface: context)
            SurfaceErrorLine(context: context)
        }
    }
}

/// Observes only the root id: node changes re-render their own nodes, not this.
@MainActor
private struct SurfaceRoot: View {
    @ObservedObject var model: SurfaceModel
    let surface: SurfaceRenderContext

    var body: some View {
        if let root = model.rootId {
            NodeView(id: root, surface: surface)
        }
    }
}

@MainActor
private struct SurfaceErrorLine: View {
    @ObservedObject var context: SurfaceRenderContext

    var body: some View {
        if let message = context.lastError {
            Text(message)
                .font(.caption)
                .foregroundColor(.red)
                .fixedSize(horizontal: false, vertical: true)
        }
    }
}
