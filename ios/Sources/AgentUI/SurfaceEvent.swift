// Surface changes as the Swift layer publishes them, for renderers that keep per-node state.
//
// NOT COMPILED HERE: this machine has no Swift compiler.

import AgentUICore

/// One change of one A2UI surface, published by `AgentConversation.surfaceEvents` on the main
/// actor after `AgentConversation.surfaces` was updated with it.
public enum SurfaceEvent: Equatable {
    /// The agent created the surface; its nodes follow as a `diff`.
    case created(surfaceId: String, catalogId: String)
    /// Nodes changed: a `reset` (everything) or a `patch` (upserted nodes and removed ids).
    case diff(surfaceId: String, diff: SurfaceDiffRecord)
    /// The agent deleted the surface.
    case deleted(surfaceId: String)

    public var surfaceId: String {
        switch self {
        case .created(let id, _), .diff(let id, _), .deleted(let id):
            return id
        }
    }
}
