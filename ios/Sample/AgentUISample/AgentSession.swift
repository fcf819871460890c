// Owns the runtime and the conversation with the agent at the configured URL, and registers
// the app's client tools on it. The conversation comes back after the app is terminated: the
// runtime keeps it in a store file, UserDefaults keeps its thread id.
//
// Type-checked on Linux against the SwiftUI stand-in (ios/Sources/LinuxSwiftUI); built and run by Xcode.

import Foundation
import SwiftUI
import AgentUI

@MainActor
final class AgentSession: ObservableObject {
    /// The iOS simulator shares the Mac's loopback: the demo agent started on the Mac with
    /// `cargo run -p agentui-cli -- serve-demo` is reachable here.
    static let defaultAgentURL = "http://localhost:8765/agent"
    static let agentURLKey = "agentURL"
    /// The conversation to reopen at launch. UserDefaults rather than @SceneStorage: the session
    /// is made with the app, before any scene, and the sample has one conversation.
    static let threadIdKey = "threadId"

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

    /// Connects to `url` (no request yet: the first is made by the first message) and
    /// remembers it. The previous conversation is closed. Without a new URL the saved
    /// conversation is restored from the store (messages, surfaces with what the user typed,
    /// messages still waiting for the agent; an answer cut off by the termination shows as
    /// abandoned); another agent starts a new one.
    func connect(to url: String? = nil) {
        let defaults = UserDefaults.standard
        if let url {
            agentURL = url
            defaults.set(url, forKey: Self.agentURLKey)
            defaults.removeObject(forKey: Self.threadIdKey)
        }
        conversation?.close()
        conversation = nil
        do {
            let runtime = try self.runtime ?? AgentRuntime(storeURL: Self.storeURL())
            self.runtime = runtime
            // Reads the store on the main actor (a few ms); a long history would use `resume`.
            let conversation = try runtime.connect(
                url: agentURL,
                options: AgentOptions(threadId: defaults.string(forKey: Self.threadIdKey))
            )
            defaults.set(conversation.threadId, forKey: Self.threadIdKey)
            try registerTools(on: conversation)
            self.conversation = conversation
            connectError = nil
        } catch {
            connectError = "Cannot connect to \(agentURL): \(error.localizedDescription)"
        }
    }

    /// The store file, in Application Support (kept by iOS, unlike Caches; not shown in Files,
    /// unlike Documents) and excluded from backups: it holds this device's open runs and
    /// messages waiting for the agent, which a restore onto another device must not bring along.
    static func storeURL() throws -> URL {
        var directory = try FileManager.default.url(
            for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true
        ).appendingPathComponent("AgentUI", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        try directory.setResourceValues(values)
        return directory.appendingPathComponent("conversations.db")
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
        // The location is private: each call waits for the user's answer (AgentChatView's consent card).
        try conversation.registerTool(
            name: LocationTool.name,
            description: LocationTool.description,
            parametersJsonSchema: LocationTool.parametersJsonSchema,
            consent: .ask
        ) { argumentsJson in
            try await LocationTool.run(argumentsJson: argumentsJson)
        }
    }
}
