// Owns the runtime and the conversation with the agent at the configured URL, and registers
// the app's client tools on it.
//
// NOT COMPILED HERE: this machine has no Swift compiler.

import Foundation
import SwiftUI
import AgentUI

@MainActor
final class AgentSession: ObservableObject {
    /// The iOS simulator shares the Mac's loopback: the demo agent started on the Mac with
    /// `cargo run -p agentui-cli -- serve-demo` is reachable here.
    static let defaultAgentURL = "http://localhost:8765/agent"
    static let agentURLKey = "agentURL"

    @Published private(set) var conversation: AgentConversation?
    @Published private(set) var connectError: String?
    @Published private(set) var agentURL: String

    private let router: Router
    private var runtime: AgentRuntime?

    init(router: Router) {
        self.router = router
        self.agentURL = UserDefaults.standard.string(forKey: Self.agentURLKey) ?? Self.defaultAgentURL
        connect()
    }

    /// Connects to `url` (no I/O yet: the first request is made by the first message) and
    /// remembers it. The previous conversation is closed.
    func connect(to url: String? = nil) {
        if let url {
            agentURL = url
            UserDefaults.standard.set(url, forKey: Self.agentURLKey)
        }
        conversation?.close()
        conversation = nil
        do {
            let runtime = try self.runtime ?? AgentRuntime()
            self.runtime = runtime
            let conversation = try runtime.connect(url: agentURL)
            try registerTools(on: conversation)
            self.conversation = conversation
            connectError = nil
        } catch {
            connectError = "Cannot connect to \(agentURL): \(error.localizedDescription)"
        }
    }

    /// The registry that executes the tools is the one that declares them to the agent.
    private func registerTools(on conversation: AgentConversation) throws {
        let router = self.router
        try conversation.registerTool(
            name: NavigateTool.name,
            description: NavigateTool.description,
            parametersJsonSchema: NavigateTool.parametersJsonSchema
        ) { argumentsJson in
            try await NavigateTool.run(argumentsJson: argumentsJson, router: router)
        }
        try conversation.registerTool(
            name: LocationTool.name,
            description: LocationTool.description,
            parametersJsonSchema: LocationTool.parametersJsonSchema
        ) { argumentsJson in
            try await LocationTool.run(argumentsJson: argumentsJson)
        }
    }
}
