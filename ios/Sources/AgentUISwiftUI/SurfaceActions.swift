// What a rendered surface sends back to the core, the same seam as the Compose renderer's
// SurfaceActions: A2UISurfaceView builds one over an AgentConversation; previews, tests and apps
// with their own plumbing pass their own.
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import AgentUI

@MainActor
public protocol SurfaceActions: AnyObject {
    /// Writes user input at JSON Pointer `path` of the surface's data model. Throws on refusal.
    func setValue(path: String, value: NodeValue) throws

    /// Runs the action of node `nodeId` (a user gesture).
    func dispatchAction(nodeId: String) async throws -> ActionResult
}

/// The actions of surface `surfaceId` of an `AgentConversation`.
@MainActor
final class ConversationSurfaceActions: SurfaceActions {
    private let conversation: AgentConversation
    private let surfaceId: String

    init(conversation: AgentConversation, surfaceId: String) {
        self.conversation = conversation
        self.surfaceId = surfaceId
    }

    func setValue(path: String, value: NodeValue) throws {
        try conversation.setValue(surfaceId: surfaceId, path: path, value: value)
    }

    func dispatchAction(nodeId: String) async throws -> ActionResult {
        try await conversation.dispatchAction(surfaceId: surfaceId, nodeId: nodeId)
    }
}
