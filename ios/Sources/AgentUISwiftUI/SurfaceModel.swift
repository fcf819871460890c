// A surface's nodes as one ObservableObject per node id, so that a diff which changes node `n`
// re-renders only the view that shows `n` (docs/rendering.md, "Fine-grained updates").
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import Combine
import AgentUI

/// One node of a rendered surface. `record` is nil while the node is pending (listed as a child
/// but not arrived yet) or after it was removed; views render nothing for it then.
@MainActor
public final class NodeModel: ObservableObject, Identifiable {
    public let id: String
    @Published public private(set) var record: Node?

    init(id: String) {
        self.id = id
    }

    /// Publishes only a real change: an equal record (a reset that rebuilt the same node) does
    /// not re-render anything.
    func update(_ new: Node?) {
        if record != new { record = new }
    }
}

/// The nodes of one surface, kept current from its own subscription (`AgentConversation.surfaceDiffs`)
/// or fed by hand with `apply`. A `.patch` touches only the models of the nodes it upserts or
/// removes: O(changed nodes). Only `rootId` and `exists` are published here; node changes are
/// published by each node's own `NodeModel`.
@MainActor
public final class SurfaceModel: ObservableObject {
    public let surfaceId: String
    @Published public private(set) var rootId: String?
    /// False before the first reset, and once the agent deleted the surface (an empty reset).
    @Published public private(set) var exists = false

    private var nodes: [String: NodeModel] = [:]
    private var follow: Task<Void, Never>?

    /// An empty model; feed it with `apply(_:)`.
    public init(surfaceId: String) {
        self.surfaceId = surfaceId
    }

    /// A model that follows surface `surfaceId` of `conversation`: a reset, then each patch, in
    /// order, applied on the main actor. A surface that does not exist stays empty.
    public convenience init(conversation: AgentConversation, surfaceId: String) {
        self.init(surfaceId: surfaceId)
        guard let diffs = try? conversation.surfaceDiffs(surfaceId) else { return }
        follow = Task { @MainActor [weak self] in
            for await diff in diffs {
                guard let self else { return }
                self.apply(diff)
            }
        }
    }

    deinit {
        follow?.cancel()
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
    public func record(_ id: String) -> Node? {
        nodes[id]?.record
    }

    public func apply(_ diff: SurfaceDiff) {
        switch diff {
        case .reset(let root, let records):
            var byId: [String: Node] = [:]
            for record in records { byId[record.id] = record }
            for (id, record) in byId { node(id).update(record) }
            // Nodes that are gone become pending again; their models stay so that views that
            // observe them see the change (and a later upsert of the same id reaches them).
            for (id, model) in nodes where byId[id] == nil { model.update(nil) }
            setRoot(root)
            setExists(root != nil || !records.isEmpty)
        case .patch(let upserted, let removed):
            for id in removed { nodes[id]?.update(nil) }
            for record in upserted { node(record.id).update(record) }
            setExists(true)
        }
    }

    // @Published announces every assignment; assign only real changes.
    private func setRoot(_ root: String?) {
        if rootId != root { rootId = root }
    }

    private func setExists(_ value: Bool) {
        if exists != value { exists = value }
    }
}
