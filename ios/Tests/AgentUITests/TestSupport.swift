// Shared helpers of the Swift layer's tests: the demo agent's URL from the environment, waits on
// the conversation's published state, and a thread-safe box for values recorded by tools.
//
// These tests talk to a running demo agent (no in-process agent: the XCFramework is built
// without the `demo-agent` feature). Start one and pass its base URL:
//
//     cargo run -p agentui-cli -- serve-demo --port 8765 &
//     AGENTUI_DEMO_AGENT_URL=http://127.0.0.1:8765 swift test --package-path ios
//
// (scripts/ci/demo-agent.sh start does the first line and waits until the agent answers.)
// Without the variable every test FAILS with a message saying so; none is skipped.

import Foundation
import XCTest
@testable import AgentUI
// The core itself, for what only a test reaches (its test hooks and records).
import AgentUICore

enum DemoAgent {
    static let environmentVariable = "AGENTUI_DEMO_AGENT_URL"

    /// The demo agent's base URL (`http://127.0.0.1:8765`), without a trailing slash.
    static func baseURL() throws -> String {
        guard let value = ProcessInfo.processInfo.environment[environmentVariable]?
            .trimmingCharacters(in: .whitespaces), !value.isEmpty
        else {
            throw TestSetupError(
                "\(environmentVariable) is not set. These tests need a running demo agent: start "
                    + "`cargo run -p agentui-cli -- serve-demo --port 8765` (or scripts/ci/demo-agent.sh start) "
                    + "and run `\(environmentVariable)=http://127.0.0.1:8765 swift test`."
            )
        }
        return value.hasSuffix("/") ? String(value.dropLast()) : value
    }

    /// `POST /agent`: the scenario is picked by a keyword of the message.
    static func agentURL() throws -> String { try baseURL() + "/agent" }
}

struct TestSetupError: Error, CustomStringConvertible, LocalizedError {
    let description: String
    init(_ description: String) { self.description = description }
    var errorDescription: String? { description }
}

struct TimedOut: Error, CustomStringConvertible, LocalizedError {
    let description: String
    var errorDescription: String? { description }
}

/// Fifteen seconds, as the Kotlin host tests' WAIT_MS; the demo agent streams 30 ms apart.
let waitSeconds: TimeInterval = 15

/// Polls `read` on the main actor until it returns a value, yielding between polls so the
/// conversation's update pump (a main-actor task) runs. Throws `TimedOut` with `what`.
@MainActor
func eventually<T>(
    _ what: String,
    timeout: TimeInterval = waitSeconds,
    _ read: () -> T?
) async throws -> T {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if let value = read() { return value }
        if Date() > deadline { throw TimedOut(description: "timed out after \(timeout) s waiting for \(what)") }
        try await Task.sleep(nanoseconds: 10_000_000)
    }
}

/// `eventually` for a condition.
@MainActor
func waitUntil(_ what: String, timeout: TimeInterval = waitSeconds, _ condition: () -> Bool) async throws {
    _ = try await eventually(what, timeout: timeout) { condition() ? true : nil }
}

/// A value shared with a `@Sendable` client tool closure.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); defer { lock.unlock() }; stored = newValue }
    }
}

extension Array where Element == ChatMessage {
    /// The text of the last assistant message with text, or "".
    var lastAssistantText: String {
        last { $0.role == .assistant && !$0.text.isEmpty }?.text ?? ""
    }

    /// Every assistant text, one per line, for assertions that do not care which message said it.
    var assistantTexts: String {
        filter { $0.role == .assistant }.map(\.text).joined(separator: "\n")
    }
}

extension AgentUI.RunPhase {
    var isFinished: Bool { if case .finished = self { return true }; return false }
    var isInterrupted: Bool { if case .interrupted = self { return true }; return false }
    var isCancelled: Bool { if case .cancelled = self { return true }; return false }
    var isFailed: Bool { if case .failed = self { return true }; return false }
    var isAgentError: Bool { if case .agentError = self { return true }; return false }
}

/// One surface's tree as the core holds it now, in the layer's types.
struct SurfaceTree {
    let root: String?
    let nodes: [Node]

    func node(_ id: String) -> Node? { nodes.first { $0.id == id } }

    /// The child nodes of `node` in order (pending children left out).
    func children(of node: Node) -> [Node] {
        node.children.compactMap { self.node($0) }
    }
}

extension AgentConversation {
    /// One surface's tree as the core holds it now (tests read the core; renderers subscribe).
    func surfaceNow(_ surfaceId: String) -> SurfaceTree? {
        native.surface(surfaceId: surfaceId).map { SurfaceTree(root: $0.root, nodes: $0.nodes) }
    }
}

/// Connects to the demo agent (or to `path` under its base URL, e.g. `/fault/http-500`).
@MainActor
func connect(_ runtime: AgentRuntime, path: String = "/agent") throws -> AgentConversation {
    try runtime.connect(url: DemoAgent.baseURL() + path)
}
