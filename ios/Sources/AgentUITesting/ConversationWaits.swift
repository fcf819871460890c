// What a test does to a conversation the way a user would, without a screen: wait for the run
// to end or a surface to show, find a node of a surface's resolved tree, type into it, press it.
// They read the conversation's published state and the core's surface tree, as the renderer does.

import Foundation
import AgentUI

/// How long the waits wait unless told (as the Kotlin kit's DEFAULT_WAIT_MS).
public let defaultWaitSeconds: TimeInterval = 10

public enum ConversationWaitError: Error, Equatable, CustomStringConvertible {
    /// `what` did not happen within `seconds`.
    case timedOut(what: String, seconds: TimeInterval)
    /// The surface has no node `nodeId` (now: the tree as it was when the wait ended).
    case noNode(surfaceId: String, nodeId: String)
    /// The node's `value` is a literal, not bound to the data model: typing cannot reach the agent.
    case notBound(surfaceId: String, nodeId: String)

    public var description: String {
        switch self {
        case .timedOut(let what, let seconds): return "timed out after \(seconds) s waiting for \(what)"
        case .noNode(let surfaceId, let nodeId): return "surface \(surfaceId) has no node \(nodeId)"
        case .notBound(let surfaceId, let nodeId):
            return "node \(nodeId) of surface \(surfaceId) has no data binding for its value"
        }
    }
}

extension AgentConversation {
    /// Waits until no run is in flight (finished, interrupted, failed...) and returns the phase.
    @discardableResult
    public func awaitIdle(timeout: TimeInterval = defaultWaitSeconds) async throws -> RunPhase {
        try await poll("the run to end", timeout: timeout) { phase.hasEnded ? phase : nil }
    }

    /// Waits until the agent created surface `surfaceId`.
    @discardableResult
    public func awaitSurface(_ surfaceId: String, timeout: TimeInterval = defaultWaitSeconds) async throws -> SurfaceInfo {
        try await poll("surface \(surfaceId)", timeout: timeout) { surface(surfaceId) }
    }

    /// Node `nodeId` of surface `surfaceId`'s resolved tree as the core holds it now.
    public func a2uiNode(_ nodeId: String, in surfaceId: String) async throws -> Node {
        guard let node = try await resolvedNodes(surfaceId).first(where: { $0.id == nodeId }) else {
            throw ConversationWaitError.noNode(surfaceId: surfaceId, nodeId: nodeId)
        }
        return node
    }

    /// Waits until surface `surfaceId` has node `nodeId` for which `condition` holds (e.g.
    /// `{ $0.enabled }`), and returns it.
    @discardableResult
    public func awaitA2uiNode(
        _ nodeId: String, in surfaceId: String, timeout: TimeInterval = defaultWaitSeconds,
        where condition: (Node) -> Bool = { _ in true }
    ) async throws -> Node {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let node = try await resolvedNodes(surfaceId).first(where: { $0.id == nodeId }), condition(node) {
                return node
            }
            if Date() > deadline {
                throw ConversationWaitError.timedOut(what: "node \(nodeId) of surface \(surfaceId)", seconds: timeout)
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    /// Types `text` into node `nodeId` (a TextField...): writes it where the node's `value` is
    /// bound, as the renderer's input does.
    public func typeIntoA2uiNode(_ nodeId: String, in surfaceId: String, text: String) async throws {
        let node = try await a2uiNode(nodeId, in: surfaceId)
        guard let path = node.bindingPath(for: "value") else {
            throw ConversationWaitError.notBound(surfaceId: surfaceId, nodeId: nodeId)
        }
        try setValue(surfaceId: surfaceId, path: path, value: NodeValue.text(value: text))
    }

    /// Presses node `nodeId` (a Button...): dispatches its action, as a tap does.
    @discardableResult
    public func pressA2uiNode(_ nodeId: String, in surfaceId: String) async throws -> ActionResult {
        _ = try await a2uiNode(nodeId, in: surfaceId)
        return try await dispatchAction(surfaceId: surfaceId, nodeId: nodeId)
    }

    /// The surface's nodes now: the first diff of a fresh subscription is the whole tree.
    private func resolvedNodes(_ surfaceId: String) async throws -> [Node] {
        var diffs = try surfaceDiffs(surfaceId).makeAsyncIterator()
        guard case .reset(_, let nodes)? = await diffs.next() else { return [] }
        return nodes
    }

    /// Polls `read` until it returns a value, sleeping between polls so the conversation's
    /// update pump (a main-actor task) runs.
    private func poll<T>(_ what: String, timeout: TimeInterval, _ read: () -> T?) async throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let value = read() { return value }
            if Date() > deadline { throw ConversationWaitError.timedOut(what: what, seconds: timeout) }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }
}
