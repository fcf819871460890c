// A surface's nodes as one ObservableObject per node id, so that a diff which changes node `n`
// re-renders only the view that shows `n` (docs/rendering.md, "Fine-grained updates").
//
// NOT COMPILED HERE: this machine has no Swift compiler.

import Combine
import AgentUI
import AgentUICore

/// One node of a rendered surface. `record` is nil while the node is pending (listed as a child
/// but not arrived yet) or after it was removed; views render nothing for it then.
@MainActor
public final class NodeModel: ObservableObject, Identifiable {
    public let id: String
    @Published public private(set) var record: ResolvedNodeRecord?

    init(id: String) {
        self.id = id
    }

    /// Publishes only a real change: an equal record (a reset that rebuilt the same node) does
    /// not re-render anything.
    func update(_ new: ResolvedNodeRecord?) {
        if record != new { record = new }
    }
}

/// The nodes of one surface, kept current from the conversation's surface events (or fed by
/// hand with `apply`). Only `rootId` and `exists` are published here; node changes are
/// published by each node's own `NodeModel`.
@MainActor
public final class SurfaceModel: ObservableObject {
    public let surfaceId: String
    @Published public private(set) var rootId: String?
    /// False before the surface was created and after the agent deleted it.
    @Published public private(set) var exists = false

    private var nodes: [String: NodeModel] = [:]
    private var subscription: AnyCancellable?

    /// An empty model; feed it with `reset(to:)` and `apply(_:)`.
    public init(surfaceId: String) {
        self.surfaceId = surfaceId
    }

    /// A model that follows surface `surfaceId` of `conversation`: it starts from the surface's
    /// current state and then applies each of its events, in order, on the main actor. Both
    /// happen on the main actor, so no event can fall between the two.
    public convenience init(conversation: AgentConversation, surfaceId: String) {
        self.init(surfaceId: surfaceId)
        reset(to: conversation.surfaces[surfaceId])
        subscription = conversation.surfaceEvents
            .filter { $0.surfaceId == surfaceId }
            .sink { [weak self] event in self?.apply(event) }
    }

    /// The observable node for instance id `id`, made (pending) on first use, so a view can
    /// observe a child before it arrives.
    public func node(_ id: String) -> NodeModel {
        if let model = nodes[id] { return model }
        let model = NodeModel(id: id)
        nodes[id] = model
        return model
    }

    /// The current record of `id` without observing it.
    public func record(_ id: String) -> ResolvedNodeRecord? {
        nodes[id]?.record
    }

    /// Replaces everything with `state` (nil: the surface does not exist).
    public func reset(to state: SurfaceState?) {
        guard let state else {
            clear()
            setExists(false)
            return
        }
        setExists(true)
        replaceAll(root: state.root, with: state.nodes)
    }

    public func apply(_ event: SurfaceEvent) {
        guard event.surfaceId == surfaceId else { return }
        switch event {
        case .created:
            clear()
            setExists(true)
        case .diff(_, let diff):
            setExists(true)
            apply(diff)
        case .deleted:
            clear()
            setExists(false)
        }
    }

    public func apply(_ diff: SurfaceDiffRecord) {
        switch diff {
        case .reset(let root, let records):
            var byId: [String: ResolvedNodeRecord] = [:]
            for record in records { byId[record.id] = record }
            replaceAll(root: root, with: byId)
        case .patch(let upserted, let removed):
            for id in removed { nodes[id]?.update(nil) }
            for record in upserted { node(record.id).update(record) }
        }
    }

    private func replaceAll(root: String?, with records: [String: ResolvedNodeRecord]) {
        for (id, record) in records { node(id).update(record) }
        // Nodes that are gone become pending again; their models stay so that views that
        // observe them see the change (and a later upsert of the same id reaches them).
        for (id, model) in nodes where records[id] == nil { model.update(nil) }
        setRoot(root)
    }

    private func clear() {
        for model in nodes.values { model.update(nil) }
        setRoot(nil)
    }

    // @Published announces every assignment; assign only real changes.
    private func setRoot(_ root: String?) {
        if rootId != root { rootId = root }
    }

    private func setExists(_ value: Bool) {
        if exists != value { exists = value }
    }
}
