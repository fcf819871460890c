// Names the Kotlin layer has on its own types, added to the core's generated types that the
// Swift layer shows as they are, so an app reads the same words on both platforms
// (docs/platforms.md lists what still differs, and why).

import AgentUICore

extension RunPhase {
    /// The run has ended (or none ran): nothing is streaming. Kotlin: `RunPhase.hasEnded`.
    public var hasEnded: Bool {
        switch self {
        case .starting, .running: return false
        case .idle, .finished, .interrupted, .agentError, .failed, .cancelled, .abandoned: return true
        }
    }
}

extension Interrupt {
    /// `responseSchema` as compact JSON text with object keys sorted, nil when the agent sent
    /// none. Kotlin: `Interrupt.responseSchemaJson`.
    public var responseSchemaJson: String? {
        responseSchema.map { JSONText.text(JSONText.foundation(.object(entries: $0))) }
    }
}
