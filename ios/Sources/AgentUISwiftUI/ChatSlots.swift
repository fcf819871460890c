// What each row of `AgentChatView` receives, and the slots that draw them: one per timeline
// item kind, each with a default (ChatRows.swift) that an app replaces without touching the
// others. The rows' order is the core's (`AgentConversation.timeline`); a slot draws, it never
// places.

import SwiftUI
import AgentUI

/// A message the user sent: its text, attachments and how far it got.
public struct ChatUserMessage {
    public let key: String
    public let messageId: String
    public let text: String
    public let media: [MediaItem]
    public let delivery: Delivery
}

/// An answer of the agent. `markdown` is the core's parsed tree of `text` (nil before the core
/// parsed any), `pendingText` what it does not cover yet while a long block streams.
public struct ChatAgentMessage {
    public let key: String
    public let messageId: String
    public let text: String
    public let markdown: ChatMarkdown?
    public let pendingText: Substring
    public let media: [MediaItem]
    public let streaming: Bool
    public let cutShort: Bool
    public let error: String?
}

/// A tool call of either side, with its last phase (nil before the first).
public struct ChatToolActivity {
    public let key: String
    public let toolCallId: String
    public let name: String
    public let side: ToolSide
    public let phase: ToolCallPhase?
}

/// An A2UI surface, drawn where the core placed it.
public struct ChatSurface {
    public let key: String
    public let surfaceId: String
    public let catalogId: String
}

/// The run ended with an error; `retry` says what `ChatActions.retry` would do.
public struct ChatRunError {
    public let key: String
    public let kind: RunErrorKind
    public let message: String
    public let code: String?
    public let retry: RetryAction
}

/// The calls a row makes back into the conversation. Each runs in a task of its own that
/// outlives the row (a scrolled-away row must not cancel a run); a failure goes to the chat's
/// error line (or the app's `onError`), never nowhere.
@MainActor
public struct ChatActions {
    public let conversation: AgentConversation
    let signIn: (@MainActor () async -> Bool)?
    let report: @MainActor (Error) -> Void

    /// Does what `action` says: resend what waits, sign in first (the app's `signIn`; nothing is
    /// sent when it returns false or there is none), or ask the agent to go on.
    public func retry(_ action: RetryAction) {
        let (conversation, signIn) = (self.conversation, self.signIn)
        run {
            switch action {
            case .resendPending:
                _ = try await conversation.retryPending()
            case .signInThenResend:
                guard let signIn, await signIn() else { return }
                _ = try await conversation.retryPending()
            case .continueRun:
                _ = try await conversation.continueRun()
            }
        }
    }

    /// The user's answer to a consent request: the tool runs (once, or for the rest of the
    /// conversation) or the agent reads that the user declined.
    public func answerConsent(_ request: ConsentRequest, _ answer: ConsentAnswer) {
        let conversation = self.conversation
        run { _ = try await conversation.answerConsent(toolCallId: request.toolCallId, answer: answer) }
    }

    /// Answers `interrupt`; when no other interrupt waits, the run goes on with the answers.
    public func resolveInterrupt(_ interrupt: Interrupt, answer: NodeValue?) {
        let conversation = self.conversation
        run {
            try conversation.resolveInterrupt(id: interrupt.id, answer: answer)
            if conversation.interrupts.allSatisfy({ $0.id == interrupt.id }) {
                _ = try await conversation.continueRun()
            }
        }
    }

    /// Withdraws `interrupt` without an answer.
    public func cancelInterrupt(_ interrupt: Interrupt) {
        let conversation = self.conversation
        run { try conversation.cancelInterrupt(id: interrupt.id) }
    }

    /// Stops the run in progress.
    public func stop() { conversation.cancel() }

    /// A media item's bytes, for `MessageMediaView`.
    public func mediaBytes(_ item: MediaItem) async throws -> Data? {
        try await conversation.mediaBytes(item)
    }

    private func run(_ body: @escaping @MainActor () async throws -> Void) {
        let report = self.report
        Task { @MainActor in
            do { try await body() } catch { report(error) }
        }
    }
}

/// How each kind of row is drawn. Start from `AgentChatSlots()` (every default) and replace any:
///
///     AgentChatView(conversation: conversation, slots: AgentChatSlots()
///         .toolActivity { call, _ in MyToolRow(call) })
///
/// or assign a closure returning `AnyView` to the property of that kind.
public struct AgentChatSlots {
    public var userMessage: @MainActor (ChatUserMessage, ChatActions) -> AnyView
    public var agentMessage: @MainActor (ChatAgentMessage, ChatActions) -> AnyView
    public var toolActivity: @MainActor (ChatToolActivity, ChatActions) -> AnyView
    public var surface: @MainActor (ChatSurface, ChatActions) -> AnyView
    public var interrupt: @MainActor (Interrupt, ChatActions) -> AnyView
    public var consentRequest: @MainActor (ConsentRequest, ChatActions) -> AnyView
    public var runError: @MainActor (ChatRunError, ChatActions) -> AnyView
    public var runInProgress: @MainActor (_ runId: String?, ChatActions) -> AnyView
    /// Shown instead of the list while the timeline is empty.
    public var emptyState: @MainActor () -> AnyView

    /// Every slot with its default row.
    public init() {
        userMessage = { AnyView(ChatUserMessageRow(message: $0, actions: $1)) }
        agentMessage = { AnyView(ChatAgentMessageRow(message: $0, actions: $1)) }
        toolActivity = { call, _ in AnyView(ChatToolActivityRow(call: call)) }
        surface = { AnyView(A2UISurfaceView(conversation: $1.conversation, surfaceId: $0.surfaceId)) }
        interrupt = { AnyView(ChatInterruptCard(interrupt: $0, actions: $1)) }
        consentRequest = { AnyView(ChatConsentCard(request: $0, actions: $1)) }
        runError = { AnyView(ChatRunErrorRow(error: $0, actions: $1)) }
        runInProgress = { _, actions in AnyView(ChatRunInProgressRow(actions: actions)) }
        emptyState = { AnyView(ChatEmptyState()) }
    }

    public func userMessage<Row: View>(@ViewBuilder _ row: @escaping @MainActor (ChatUserMessage, ChatActions) -> Row) -> Self {
        var copy = self
        copy.userMessage = { AnyView(row($0, $1)) }
        return copy
    }

    public func agentMessage<Row: View>(@ViewBuilder _ row: @escaping @MainActor (ChatAgentMessage, ChatActions) -> Row) -> Self {
        var copy = self
        copy.agentMessage = { AnyView(row($0, $1)) }
        return copy
    }

    public func toolActivity<Row: View>(@ViewBuilder _ row: @escaping @MainActor (ChatToolActivity, ChatActions) -> Row) -> Self {
        var copy = self
        copy.toolActivity = { AnyView(row($0, $1)) }
        return copy
    }

    public func surface<Row: View>(@ViewBuilder _ row: @escaping @MainActor (ChatSurface, ChatActions) -> Row) -> Self {
        var copy = self
        copy.surface = { AnyView(row($0, $1)) }
        return copy
    }

    public func interrupt<Row: View>(@ViewBuilder _ row: @escaping @MainActor (Interrupt, ChatActions) -> Row) -> Self {
        var copy = self
        copy.interrupt = { AnyView(row($0, $1)) }
        return copy
    }

    public func consentRequest<Row: View>(@ViewBuilder _ row: @escaping @MainActor (ConsentRequest, ChatActions) -> Row) -> Self {
        var copy = self
        copy.consentRequest = { AnyView(row($0, $1)) }
        return copy
    }

    public func runError<Row: View>(@ViewBuilder _ row: @escaping @MainActor (ChatRunError, ChatActions) -> Row) -> Self {
        var copy = self
        copy.runError = { AnyView(row($0, $1)) }
        return copy
    }

    public func runInProgress<Row: View>(@ViewBuilder _ row: @escaping @MainActor (String?, ChatActions) -> Row) -> Self {
        var copy = self
        copy.runInProgress = { AnyView(row($0, $1)) }
        return copy
    }

    public func emptyState<Content: View>(@ViewBuilder _ content: @escaping @MainActor () -> Content) -> Self {
        var copy = self
        copy.emptyState = { AnyView(content()) }
        return copy
    }

    /// The view of `item`, by its kind's slot. `messages` finds an agent message's parsed tree.
    @MainActor
    func row(_ item: TimelineItem, messages: [String: ChatMessage], actions: ChatActions) -> AnyView {
        switch item.kind {
        case .userMessage(let messageId, let text, let media, let delivery):
            return userMessage(
                ChatUserMessage(key: item.key, messageId: messageId, text: text, media: media, delivery: delivery), actions)
        case .agentMessage(let messageId, let text, let media, let streaming, let cutShort, let error):
            let markdown = messages[messageId]?.markdown
            return agentMessage(
                ChatAgentMessage(
                    key: item.key, messageId: messageId, text: text, markdown: markdown,
                    pendingText: markdown?.pendingText(text) ?? Substring(text), media: media,
                    streaming: streaming, cutShort: cutShort, error: error),
                actions)
        case .toolActivity(let toolCallId, let name, let side, let phase):
            return toolActivity(
                ChatToolActivity(key: item.key, toolCallId: toolCallId, name: name, side: side, phase: phase), actions)
        case .surface(let surfaceId, let catalogId):
            return surface(ChatSurface(key: item.key, surfaceId: surfaceId, catalogId: catalogId), actions)
        case .interrupt(let pending):
            return interrupt(pending, actions)
        case .consentRequest(let request):
            return consentRequest(request, actions)
        case .runError(let kind, let message, let code, let retry):
            return runError(ChatRunError(key: item.key, kind: kind, message: message, code: code, retry: retry), actions)
        case .runInProgress(let runId):
            return runInProgress(runId, actions)
        }
    }
}
