// The conversation screen's rows, as the core orders them (docs/architecture.md, "The
// timeline"): the layer's own types, the Kotlin layer's Timeline.kt case for case, and the one
// place that applies the core's changes to them. No placement rule is decided here.

import Foundation
import AgentUICore

/// What trying again would do, for a retry button.
public enum RetryAction: Equatable, Hashable, Sendable {
    /// Deliver what waits for the agent now (`AgentConversation.retryPending()`).
    case resendPending
    /// The agent refused the credentials: sign in again, then `retryPending()`.
    case signInThenResend
    /// Ask the agent to go on without a new message (`AgentConversation.continueRun()`).
    case continueRun
}

/// Where a user message stands on its way to the agent.
public enum Delivery: Equatable, Hashable {
    /// Queued; no attempt has failed yet.
    case sending
    /// Attempts could not reach the agent; it is sent again on its own when the network is back.
    case waitingForNetwork(attempts: Int, lastError: String?)
    /// It is not sent again on its own; `retry` says what would send it.
    case failed(error: String?, retry: RetryAction)
    /// The agent has it.
    case delivered
}

/// Who runs a tool call, as far as its phase tells.
public enum ToolSide: Equatable, Hashable, Sendable {
    /// A tool of this app: its handler runs (or ran, or waits for the user's consent) here.
    case client
    /// The agent's side answers it.
    case server
    /// Not known yet (the arguments stream, or the call waits for the end of the run).
    case undecided
}

/// Why a run ended with an error row.
public enum RunErrorKind: Equatable, Hashable, Sendable {
    /// The agent reported `RUN_ERROR`.
    case agent
    /// The exchange failed on this side (network, protocol).
    case client
    /// The app stopped while the run was open (restored from a store).
    case abandoned
}

/// What one row of the conversation screen shows.
public enum TimelineItemKind: Equatable {
    /// The user's message: its text, its attachments and how far it got.
    case userMessage(messageId: String, text: String, media: [MediaItem], delivery: Delivery)
    /// The agent's answer. `text` is Markdown (its parsed tree is `AgentConversation.messages`'
    /// message of the same id); `streaming`: text may still arrive; `cutShort`: a cancel ended it.
    case agentMessage(
        messageId: String, text: String, media: [MediaItem], streaming: Bool, cutShort: Bool, error: String?)
    /// A tool call of either side; `phase` is nil until its first phase is known.
    case toolActivity(toolCallId: String, name: String, side: ToolSide, phase: ToolCallPhase?)
    /// An A2UI surface, drawn where it is (`A2UISurfaceView`).
    case surface(surfaceId: String, catalogId: String)
    /// The agent's question; an answer satisfies `interrupt.responseSchema`.
    case interrupt(Interrupt)
    /// A client tool's call waiting for the user (`AgentConversation.answerConsent`).
    case consentRequest(ConsentRequest)
    /// The run ended with an error; `retry` says what a retry button does.
    case runError(kind: RunErrorKind, message: String, code: String?, retry: RetryAction)
    /// A run is starting or streaming.
    case runInProgress(runId: String?)
}

/// A row and the key a lazy list keeps it by: stable for as long as the row exists.
public struct TimelineItem: Equatable, Identifiable {
    public let key: String
    public var kind: TimelineItemKind

    public var id: String { key }

    public init(key: String, kind: TimelineItemKind) {
        self.key = key
        self.kind = kind
    }
}

/// A change to `AgentConversation.timeline`, as the core sends it; applied in order.
public enum TimelineChange: Equatable {
    case reset(items: [TimelineItem])
    case inserted(index: Int, item: TimelineItem)
    case updated(index: Int, item: TimelineItem)
    case removed(index: Int, key: String)
    /// Streamed text: `text` goes at the end of the message row at `index` (key `key`).
    case textAppended(index: Int, key: String, text: String)
}

extension TimelineChange {
    /// Applies the change to `items`; false, and `items` unchanged, when it names a position or
    /// a key `items` does not have (a core defect: the caller asks for the whole list again).
    func apply(to items: inout [TimelineItem]) -> Bool {
        switch self {
        case .reset(let all):
            items = all
        case .inserted(let index, let item):
            guard (0...items.count).contains(index) else { return false }
            items.insert(item, at: index)
        case .updated(let index, let item):
            guard items.indices.contains(index), items[index].key == item.key else { return false }
            items[index] = item
        case .removed(let index, let key):
            guard items.indices.contains(index), items[index].key == key else { return false }
            items.remove(at: index)
        case .textAppended(let index, let key, let text):
            guard items.indices.contains(index), items[index].key == key else { return false }
            switch items[index].kind {
            case .userMessage(let id, let old, let media, let delivery):
                items[index].kind = .userMessage(messageId: id, text: old + text, media: media, delivery: delivery)
            case .agentMessage(let id, let old, let media, let streaming, let cutShort, let error):
                items[index].kind = .agentMessage(
                    messageId: id, text: old + text, media: media, streaming: streaming, cutShort: cutShort, error: error)
            default:
                return false
            }
        }
        return true
    }

    /// Applies `changes` in order to a copy of `items`; nil when one does not fit it.
    static func applying(_ changes: [TimelineChange], to items: [TimelineItem]) -> [TimelineItem]? {
        var rows = items
        for change in changes where !change.apply(to: &rows) { return nil }
        return rows
    }
}

// Conversions from the generated core types, used only inside the layer.

extension TimelineChange {
    /// `messages`: the conversation's messages, where a message row's media find their place in
    /// their message's content (what `AgentConversation.mediaBytes(_:)` fetches by).
    init(_ core: AgentUICore.TimelineChange, messages: [ChatMessage]) {
        switch core {
        case .reset(let items): self = .reset(items: items.map { TimelineItem($0, messages: messages) })
        case .inserted(let index, let item):
            self = .inserted(index: Int(index), item: TimelineItem(item, messages: messages))
        case .updated(let index, let item):
            self = .updated(index: Int(index), item: TimelineItem(item, messages: messages))
        case .removed(let index, let key): self = .removed(index: Int(index), key: key)
        case .textAppended(let index, let key, let text): self = .textAppended(index: Int(index), key: key, text: text)
        }
    }
}

extension TimelineItem {
    init(_ core: AgentUICore.TimelineItem, messages: [ChatMessage]) {
        self.init(key: core.key, kind: TimelineItemKind(core.kind, messages: messages))
    }
}

extension TimelineItemKind {
    init(_ core: AgentUICore.TimelineItemKind, messages: [ChatMessage]) {
        switch core {
        case .userMessage(let messageId, let text, let media, let delivery):
            self = .userMessage(
                messageId: messageId, text: text, media: Self.media(media, of: messageId, in: messages),
                delivery: Delivery(delivery))
        case .agentMessage(let messageId, let text, let media, let streaming, let cutShort, let error):
            self = .agentMessage(
                messageId: messageId, text: text, media: Self.media(media, of: messageId, in: messages),
                streaming: streaming, cutShort: cutShort, error: error)
        case .toolActivity(let toolCallId, let name, let side, let phase):
            self = .toolActivity(toolCallId: toolCallId, name: name, side: ToolSide(side), phase: phase.map(ToolCallPhase.init))
        case .surface(let surfaceId, let catalogId): self = .surface(surfaceId: surfaceId, catalogId: catalogId)
        case .interrupt(let interrupt): self = .interrupt(Interrupt(interrupt))
        case .consentRequest(let request): self = .consentRequest(ConsentRequest(request))
        case .runError(let kind, let message, let code, let retry):
            self = .runError(kind: RunErrorKind(kind), message: message, code: code, retry: RetryAction(retry))
        case .runInProgress(let runId): self = .runInProgress(runId: runId)
        }
    }

    /// The row's media parts as `MediaItem`s. The row carries only the media parts of its
    /// message; the message's own items (same parts, same order) also know each part's index in
    /// the content, which fetching held-back bytes needs. Without the message, no index.
    private static func media(_ parts: [ContentPart], of messageId: String, in messages: [ChatMessage]) -> [MediaItem] {
        // Most rows have none: no search through the messages for them.
        guard !parts.isEmpty else { return [] }
        let own = MessagePart.parts(of: .parts(parts), text: "").compactMap { part -> MediaItem? in
            if case .media(let item) = part { return item } else { return nil }
        }
        if let message = messages.last(where: { $0.id == messageId }) {
            let indexed = message.media
            if indexed.count == own.count, zip(indexed, own).allSatisfy({ $0.kind == $1.kind && $0.url == $1.url }) {
                return indexed
            }
        }
        return own
    }
}

extension Delivery {
    init(_ core: AgentUICore.Delivery) {
        switch core {
        case .sending: self = .sending
        case .waitingForNetwork(let attempts, let lastError):
            self = .waitingForNetwork(attempts: Int(clamping: attempts), lastError: lastError)
        case .failed(let error, let retry): self = .failed(error: error, retry: RetryAction(retry))
        case .delivered: self = .delivered
        }
    }
}

extension RetryAction {
    init(_ core: AgentUICore.RetryAction) {
        switch core {
        case .resendPending: self = .resendPending
        case .signInThenResend: self = .signInThenResend
        case .continueRun: self = .continueRun
        }
    }
}

extension ToolSide {
    init(_ core: AgentUICore.ToolSide) {
        switch core {
        case .client: self = .client
        case .server: self = .server
        case .undecided: self = .undecided
        }
    }
}

extension RunErrorKind {
    init(_ core: AgentUICore.RunErrorKind) {
        switch core {
        case .agent: self = .agent
        case .client: self = .client
        case .abandoned: self = .abandoned
        }
    }
}
