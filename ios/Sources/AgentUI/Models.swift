// The layer's public vocabulary, the Kotlin layer's Models.kt case for case and field for field,
// with Swift's types (Int for counts, TimeInterval for durations, NodeValue for JSON values).
// The generated records stay inside the layer: a change of the core or of its generator is
// absorbed by the mappers at the end of this file, not by the apps.

import Foundation
import AgentUICore

public enum Role: Equatable, Hashable, Sendable { case developer, system, assistant, user, tool, activity, reasoning }

/// Why a message stays on this device and is never sent back to the agent.
public enum LocalOnly: Equatable, Hashable, Sendable {
    /// A tool result that matched no call.
    case orphanToolResult
    /// Text cut short by a cancel: the agent never finished it.
    case cancelled
}

/// A message's text as Markdown blocks, the core's tree as it is (the renderers draw it). While a
/// long block streams the blocks may cover less than the text: `pendingText(_:)` is the rest.
public struct ChatMarkdown: Equatable, Hashable {
    public let blocks: [MdBlock]
    /// How much of the message's text (in UTF-16 code units) the blocks cover.
    public let coveredUtf16: Int

    public init(blocks: [MdBlock], coveredUtf16: Int) {
        self.blocks = blocks
        self.coveredUtf16 = coveredUtf16
    }

    /// The part of `text` past what `blocks` cover, to show as plain text after them.
    public func pendingText(_ text: String) -> Substring {
        let utf16 = text.utf16
        guard coveredUtf16 >= 0, coveredUtf16 < utf16.count,
              let start = utf16.index(utf16.startIndex, offsetBy: coveredUtf16, limitedBy: utf16.endIndex)
        else { return "" }
        return text[start...]
    }
}

/// Something a run needs from the user before it can continue.
public struct Interrupt: Equatable, Hashable {
    public let id: String
    public let reason: String
    public let message: String?
    public let toolCallId: String?
    /// `responseSchema` as compact JSON text with object keys sorted, nil when the agent sent none.
    public let responseSchemaJson: String?
    /// The JSON Schema an answer must satisfy, as values.
    public let responseSchema: [String: NodeValue]?
    /// RFC 3339.
    public let expiresAt: String?
    public let metadata: [String: NodeValue]?
    /// The sub-agent run that raised it, when a sub-agent did.
    public let subagentRunId: String?
}

/// Whether a client tool runs as soon as the agent calls it, or only after the user allowed it.
public enum Consent: Equatable, Hashable, Sendable {
    /// At once, as the agent calls it (the default).
    case runAtOnce
    /// Each call waits in `AgentConversation.consentRequests` until `answerConsent(toolCallId:answer:)`.
    case ask
}

/// The user's answer to a `ConsentRequest`.
public enum ConsentAnswer: Equatable, Hashable, Sendable {
    /// Run this call.
    case allowOnce
    /// Run this call, and later calls of the same tool in this conversation without asking.
    case allowAlways
    /// Run nothing: the agent reads that the user declined the call.
    case decline
}

/// A call of a tool registered with `.ask` that waits for the user: its tool has not run, and
/// runs only after `AgentConversation.answerConsent(toolCallId:answer:)` allowed it. Its
/// `ToolCallUpdate` is `.awaitingConsent` meanwhile (also after a restore).
public struct ConsentRequest: Equatable, Hashable {
    public let toolCallId: String
    public let toolName: String
    /// The call's arguments (an object for a tool whose schema asks one), checked against the
    /// tool's schema.
    public let arguments: NodeValue
    /// When the call was put to the user, in epoch milliseconds (as `ConversationSummary.createdAtMs`).
    public let askedAtMs: Int64
}

public enum RunOutcome: Equatable, Hashable {
    case success(pendingToolCallIds: [String])
    case interrupt(interrupts: [Interrupt])
    case cancelled
}

/// Where the conversation's current (or last) run stands.
public enum RunPhase: Equatable, Hashable {
    case idle
    case starting(runId: String)
    case running(runId: String)
    case finished(runId: String, outcome: RunOutcome?)
    /// Answer the interrupts, then `AgentConversation.continueRun()`.
    case interrupted(runId: String, interrupts: [Interrupt])
    /// The agent ended the run with RUN_ERROR: its `message` and `code`.
    case agentError(message: String, code: String?)
    /// The run failed on this side (transport, protocol, budget): `error` says why.
    case failed(error: String)
    case cancelled
    /// The app stopped while this run was open; the conversation was restored from its store.
    case abandoned(runId: String?)

    /// The run has ended (or none ran): nothing is streaming.
    public var hasEnded: Bool {
        switch self {
        case .starting, .running: return false
        case .idle, .finished, .interrupted, .agentError, .failed, .cancelled, .abandoned: return true
        }
    }
}

/// Why a client tool call failed.
public enum ToolFailure: Equatable, Hashable {
    /// No tool of that name is registered here and no server result answered the call.
    case notRegistered(name: String)
    /// The app's tool policy refused the call.
    case denied(reason: String)
    /// The arguments were not JSON or did not satisfy the parameters schema.
    case invalidArguments(detail: String)
    /// The handler failed (`ClientToolFailure`'s detail, or a generic text for another error).
    case failed(message: String)
    /// The handler did not finish within the conversation's tool timeout (seconds).
    case timedOut(after: TimeInterval)
    /// The handler crashed.
    case crashed
    /// The run was cancelled before the call completed.
    case cancelled
    /// The run ended before the call's arguments were complete.
    case incomplete
    /// The user declined the call when asked for consent (`ConsentAnswer.decline`); nothing ran.
    case declined
}

/// How far one tool call has got; "requested" and "succeeded" are different states.
public enum ToolCallPhase: Equatable, Hashable {
    case streaming
    case requested
    case running
    case succeeded(result: String)
    /// `detail` is the text the agent read.
    case failed(failure: ToolFailure, detail: String)
    case completedByServer
    case skipped(reason: String)
    /// A call to a tool this client did not declare: shown, never answered here.
    case ownedByServer
    case awaitingInterrupt(interruptId: String)
    /// A call of a tool registered with `consent: .ask` waits for the user's answer
    /// (`AgentConversation.consentRequests`); nothing has run yet.
    case awaitingConsent
}

/// The last update of one tool call: its phase.
public struct ToolCallUpdate: Equatable, Hashable {
    public let toolCallId: String
    public let toolName: String
    public let phase: ToolCallPhase
}

/// What a `SessionWarning` is about: one flat enum, the protocol's kinds beside the session's own.
public enum SessionWarningKind: Equatable, Hashable, Sendable {
    case droppedEvent, stripped, compatibility, version, patchNotApplied, skipped, unresolvedToolCall
    case unmatchedToolResult, duplicateToolCall, serverAnsweredClientTool, followUpLimit
    case ignoredAfterRunEnd, unansweredInterrupt, inputDowngrade, a2ui, keptLocal, answeredByInterrupt
    /// The conversation store could not write; the conversation goes on in memory.
    case store
    /// A message or action waiting for the agent was refused by it and dropped.
    case undelivered
    /// The run's stream broke and was resumed from its last event id; nothing was lost.
    case streamResumed
    /// The conversation's properties stopped on an internal error of this library: they keep
    /// their last values, `phase` shows `.failed`. Open the conversation again.
    case viewFailed
}

/// A non-fatal observation.
public struct SessionWarning: Equatable, Hashable, Sendable {
    public let kind: SessionWarningKind
    public let message: String

    public init(kind: SessionWarningKind, message: String) {
        self.kind = kind
        self.message = message
    }
}

/// What one `send` / `continueRun` and its follow-up runs came to (one or more runs, `runIds`).
public struct RunSummary: Equatable, Hashable {
    public let threadId: String
    public let runIds: [String]
    /// `.finished` or `.interrupted`.
    public let phase: RunPhase
    /// Every call the client answered, `.succeeded` or `.failed`.
    public let toolCalls: [ToolCallUpdate]
    public let pendingInterrupts: [Interrupt]
    /// Tool results wait for `continueRun()`.
    public let followUpLimitReached: Bool
    public let needsResync: Bool
    public let warnings: [SessionWarning]
}

public enum ActionResult: Equatable, Hashable {
    case ran(summary: RunSummary)
    /// Open this URL (already checked against the URL policy).
    case openUrl(url: String)
    /// A local function ran; nothing went to the agent.
    case handled
}

/// What a waiting `PendingSend` delivers.
public enum PendingSendKind: Equatable, Hashable {
    /// A user message, in `messages` once first attempted; `text` is empty for media.
    case message(messageId: String, text: String)
    /// A user action (its event name `actionName`) on a node of surface `surfaceId`.
    case action(surfaceId: String, actionName: String)
}

/// Why a `PendingSend` waits.
public enum PendingReason: Equatable, Hashable {
    /// Not tried yet, or the agent could not be reached: sent again automatically.
    case unreached
    /// The agent refused the credentials (HTTP 401): not sent again automatically; it goes with
    /// `retryPending()` (after the user signed in again) or the next message sent.
    case unauthorized
}

/// A message or action the agent has not received yet. `attempts` counts the attempts that
/// could not reach the agent (0 while the first is under way). `key` goes with every attempt as
/// `forwardedProps.agentuiIdempotencyKey`.
public struct PendingSend: Equatable, Hashable {
    public let key: String
    public let kind: PendingSendKind
    public let attempts: Int
    public let lastError: String?
    public let reason: PendingReason
}

/// One stored conversation, as `AgentRuntime.conversations` lists it. Times are epoch milliseconds.
public struct ConversationSummary: Equatable, Hashable {
    public let threadId: String
    /// The start of the first user message; empty before there is one.
    public let title: String
    public let agentUrl: String
    public let messageCount: Int
    public let createdAtMs: Int64
    public let updatedAtMs: Int64
    /// As last written: a run open when the app stopped still reads `.starting`/`.running`
    /// here, and comes back `.abandoned` when resumed.
    public let phase: RunPhase
    /// Messages and actions waiting for the agent.
    public let pendingSends: Int
}

/// One page of stored conversations, most recently written first; `nextCursor` is nil on the last page.
public struct ConversationPage: Equatable, Hashable {
    public let conversations: [ConversationSummary]
    public let nextCursor: String?
}

/// A change to one surface's nodes: a `.reset` first (empty when the agent deleted it), then `.patch`es.
public enum SurfaceDiff: Equatable, Hashable {
    case reset(root: String?, nodes: [Node])
    case patch(upserted: [Node], removed: [String])
}

/// Where the roots that vouch for an agent's certificate come from.
public enum TrustStore: Equatable, Hashable, Sendable {
    /// The operating system's verifier and store.
    case platform
    /// Only the Mozilla roots compiled into the library (`webpki-roots`).
    case webpkiRoots
}

// Conversions from the generated core types, used only inside the layer. Exhaustive switches,
// never by name: a case the core adds breaks this build, not an app.

extension Role {
    init(_ core: AgentUICore.Role) {
        switch core {
        case .developer: self = .developer
        case .system: self = .system
        case .assistant: self = .assistant
        case .user: self = .user
        case .tool: self = .tool
        case .activity: self = .activity
        case .reasoning: self = .reasoning
        }
    }
}

extension LocalOnly {
    init(_ core: AgentUICore.LocalOnly) {
        switch core {
        case .orphanToolResult: self = .orphanToolResult
        case .cancelled: self = .cancelled
        }
    }
}

extension ChatMarkdown {
    init(_ core: MarkdownText) {
        self.init(blocks: core.blocks, coveredUtf16: Int(clamping: core.coveredUtf16))
    }
}

/// A JSON object's members as a dictionary; the last wins should a name repeat.
func members(_ object: JsonObject) -> [String: NodeValue] {
    Dictionary(object.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
}

extension Interrupt {
    init(_ core: AgentUICore.Interrupt) {
        id = core.id
        reason = core.reason
        message = core.message
        toolCallId = core.toolCallId
        responseSchemaJson = core.responseSchema.map { JSONText.text(JSONText.foundation(.object(entries: $0))) }
        responseSchema = core.responseSchema.map(members)
        expiresAt = core.expiresAt
        metadata = core.metadata.map(members)
        subagentRunId = core.subagentRunId
    }
}

extension ConsentRequest {
    init(_ core: AgentUICore.ConsentRequest) {
        toolCallId = core.toolCallId
        toolName = core.toolName
        arguments = core.arguments
        askedAtMs = Int64(clamping: core.askedAtMs)
    }
}

extension Consent {
    var native: AgentUICore.Consent {
        switch self {
        case .runAtOnce: return .runAtOnce
        case .ask: return .ask
        }
    }
}

extension ConsentAnswer {
    var native: AgentUICore.ConsentAnswer {
        switch self {
        case .allowOnce: return .allowOnce
        case .allowAlways: return .allowAlways
        case .decline: return .decline
        }
    }
}

extension RunOutcome {
    init(_ core: AgentUICore.RunOutcome) {
        switch core {
        case .success(let ids): self = .success(pendingToolCallIds: ids ?? [])
        case .interrupt(let interrupts): self = .interrupt(interrupts: interrupts.map(Interrupt.init))
        case .cancelled: self = .cancelled
        }
    }
}

extension RunPhase {
    init(_ core: AgentUICore.RunPhase) {
        switch core {
        case .idle: self = .idle
        case .starting(let runId): self = .starting(runId: runId)
        case .running(let runId): self = .running(runId: runId)
        case .finished(let runId, let outcome): self = .finished(runId: runId, outcome: outcome.map(RunOutcome.init))
        case .interrupted(let runId, let interrupts):
            self = .interrupted(runId: runId, interrupts: interrupts.map(Interrupt.init))
        case .agentError(let message, let code): self = .agentError(message: message, code: code)
        case .failed(let error): self = .failed(error: error)
        case .cancelled: self = .cancelled
        case .abandoned(let runId): self = .abandoned(runId: runId)
        }
    }
}

extension ToolFailure {
    init(_ core: AgentUICore.ToolFailure) {
        switch core {
        case .notRegistered(let name): self = .notRegistered(name: name)
        case .denied(let reason): self = .denied(reason: reason)
        case .invalidArguments(let detail): self = .invalidArguments(detail: detail)
        case .failed(let message): self = .failed(message: message)
        case .timedOut(let after): self = .timedOut(after: after)
        case .crashed: self = .crashed
        case .cancelled: self = .cancelled
        case .incomplete: self = .incomplete
        case .declined: self = .declined
        }
    }
}

extension ToolCallPhase {
    init(_ core: AgentUICore.ToolCallPhase) {
        switch core {
        case .streaming: self = .streaming
        case .requested: self = .requested
        case .running: self = .running
        case .succeeded(let result): self = .succeeded(result: result)
        // The core's failure prints as the text the agent read.
        case .failed(let failure): self = .failed(failure: ToolFailure(failure), detail: String(describing: failure))
        case .completedByServer: self = .completedByServer
        case .skipped(let reason): self = .skipped(reason: reason)
        case .ownedByServer: self = .ownedByServer
        case .awaitingInterrupt(let interruptId): self = .awaitingInterrupt(interruptId: interruptId)
        case .awaitingConsent: self = .awaitingConsent
        }
    }
}

extension ToolCallUpdate {
    init(_ core: AgentUICore.ToolCallUpdate) {
        self.init(toolCallId: core.toolCallId, toolName: core.toolName, phase: ToolCallPhase(core.phase))
    }
}

extension SessionWarningKind {
    init(_ core: AgentUICore.SessionWarningKind) {
        switch core {
        case .protocol(let kind):
            switch kind {
            case .droppedEvent: self = .droppedEvent
            case .stripped: self = .stripped
            case .compatibility: self = .compatibility
            case .version: self = .version
            case .patchNotApplied: self = .patchNotApplied
            case .skipped: self = .skipped
            }
        case .unresolvedToolCall: self = .unresolvedToolCall
        case .unmatchedToolResult: self = .unmatchedToolResult
        case .duplicateToolCall: self = .duplicateToolCall
        case .serverAnsweredClientTool: self = .serverAnsweredClientTool
        case .followUpLimit: self = .followUpLimit
        case .ignoredAfterRunEnd: self = .ignoredAfterRunEnd
        case .unansweredInterrupt: self = .unansweredInterrupt
        case .inputDowngrade: self = .inputDowngrade
        case .a2ui: self = .a2ui
        case .keptLocal: self = .keptLocal
        case .answeredByInterrupt: self = .answeredByInterrupt
        case .store: self = .store
        case .undelivered: self = .undelivered
        case .streamResumed: self = .streamResumed
        case .viewFailed: self = .viewFailed
        }
    }
}

extension SessionWarning {
    init(_ core: AgentUICore.SessionWarning) {
        self.init(kind: SessionWarningKind(core.kind), message: core.message)
    }
}

extension RunSummary {
    init(_ core: AgentUICore.RunSummary) {
        threadId = core.threadId
        runIds = core.runIds
        phase = RunPhase(core.phase)
        toolCalls = core.toolCalls.map(ToolCallUpdate.init)
        pendingInterrupts = core.pendingInterrupts.map(Interrupt.init)
        followUpLimitReached = core.followUpLimitReached
        needsResync = core.needsResync
        warnings = core.warnings.map(SessionWarning.init)
    }
}

extension ActionResult {
    init(_ core: AgentUICore.ActionResult) {
        switch core {
        case .ran(let summary): self = .ran(summary: RunSummary(summary))
        case .openUrl(let url): self = .openUrl(url: url)
        case .handled: self = .handled
        }
    }
}

extension PendingSend {
    init(_ core: AgentUICore.PendingSend) {
        key = core.key
        switch core.kind {
        case .message(let messageId, let text): kind = .message(messageId: messageId, text: text)
        case .action(let surfaceId, let actionName): kind = .action(surfaceId: surfaceId, actionName: actionName)
        }
        attempts = Int(clamping: core.attempts)
        lastError = core.lastError
        switch core.reason {
        case .unreached: reason = .unreached
        case .unauthorized: reason = .unauthorized
        }
    }
}

extension ConversationSummary {
    init(_ core: AgentUICore.ConversationSummary) {
        threadId = core.threadId
        title = core.title
        agentUrl = core.agentUrl
        messageCount = Int(clamping: core.messageCount)
        createdAtMs = core.createdAtMs
        updatedAtMs = core.updatedAtMs
        phase = RunPhase(core.phase)
        pendingSends = Int(clamping: core.pendingSends)
    }
}

extension ConversationPage {
    init(_ core: AgentUICore.ConversationPage) {
        self.init(conversations: core.conversations.map(ConversationSummary.init), nextCursor: core.nextCursor)
    }
}

extension SurfaceDiff {
    init(_ core: AgentUICore.SurfaceDiff) {
        switch core {
        case .reset(let root, let nodes): self = .reset(root: root, nodes: nodes)
        case .patch(let upserted, let removed): self = .patch(upserted: upserted, removed: removed)
        }
    }
}

extension TrustStore {
    var native: AgentUICore.TrustStore {
        switch self {
        case .platform: return .platform
        case .webpkiRoots: return .webpkiRoots
        }
    }
}
