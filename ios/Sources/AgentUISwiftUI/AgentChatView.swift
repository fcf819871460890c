// The conversation screen in one view: the core's timeline (`AgentConversation.timeline`) as a
// lazy list keyed by item key, each row drawn by its kind's slot (ChatSlots.swift), and the
// composer (ChatComposer.swift). No placement is decided here: the order is the core's.

import SwiftUI
import AgentUI
import AgentUIRendering
#if canImport(Accessibility)
import Accessibility
#endif
#if canImport(UIKit)
import UIKit
#endif

/// A complete, accessible conversation with the agent of `conversation`.
///
/// It stays at the bottom while the agent writes, unless the user scrolled up to read; a
/// finished answer is announced to VoiceOver. Replace any kind of row with `slots`, the look
/// with `.agentChatTheme(_:)`.
///
/// - Parameters:
///   - slots: how each kind of row is drawn (default: every default row).
///   - placeholder: the text field's hint.
///   - pickAttachment: the app's picker, called by the attach button; no button without it.
///   - signIn: asked before a send the agent refused the credentials for is retried; it
///     returns whether the user signed in.
///   - onError: failed sends and answers; by default the last one is shown above the composer.
@MainActor
public struct AgentChatView: View {
    @ObservedObject private var conversation: AgentConversation
    private let slots: AgentChatSlots
    private let placeholder: String
    private let pickAttachment: AttachmentPicker?
    private let signIn: (@MainActor () async -> Bool)?
    private let onError: (@MainActor (Error) -> Void)?

    @State private var lastError: String?
    /// The bottom of the list is on screen: new text keeps it there.
    @State private var atBottom = true
    /// The last answer announced, so that an answer is announced once, and the history never.
    @State private var announced: String?
    @Environment(\.agentChatTheme) private var theme

    public init(
        conversation: AgentConversation,
        slots: AgentChatSlots = AgentChatSlots(),
        placeholder: String = "Message",
        pickAttachment: AttachmentPicker? = nil,
        signIn: (@MainActor () async -> Bool)? = nil,
        onError: (@MainActor (Error) -> Void)? = nil
    ) {
        self.conversation = conversation
        self.slots = slots
        self.placeholder = placeholder
        self.pickAttachment = pickAttachment
        self.signIn = signIn
        self.onError = onError
    }

    private static let bottomId = "agentui.chat.bottom"

    public var body: some View {
        let timeline = conversation.timeline
        let actions = ChatActions(conversation: conversation, signIn: signIn, report: report)
        VStack(spacing: 0) {
            if timeline.isEmpty {
                slots.emptyState()
            } else {
                list(timeline, actions: actions)
            }
            if let lastError {
                Text(verbatim: lastError)
                    .font(theme.detailFont)
                    .foregroundColor(theme.error)
                    .padding(.horizontal)
                    .padding(.top, 4)
                    .accessibilityLabel(Text("Error: \(lastError)"))
            }
            Divider()
            ChatComposer(conversation: conversation, placeholder: placeholder, pickAttachment: pickAttachment, report: report)
        }
        .onAppear { announced = Self.finishedAnswer(timeline)?.key }
        .onChange(of: Self.finishedAnswer(timeline)?.key) { _ in announceFinishedAnswer() }
    }

    private func list(_ timeline: [TimelineItem], actions: ChatActions) -> some View {
        // One lookup table per render for the agent messages' parsed Markdown.
        let messages = Dictionary(conversation.messages.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        return ScrollViewReader { proxy in
            ScrollView {
                LazyVStack(alignment: .leading, spacing: theme.rowSpacing) {
                    ForEach(timeline) { item in
                        slots.row(item, messages: messages, actions: actions)
                    }
                    // On screen exactly when the user is at the bottom (a lazy stack makes it
                    // only then): the user scrolling up is what lets the list go.
                    Color.clear
                        .frame(height: 1)
                        .id(Self.bottomId)
                        .onAppear { atBottom = true }
                        .onDisappear { atBottom = false }
                        .accessibilityHidden(true)
                }
                .padding()
            }
            .onAppear { proxy.scrollTo(Self.bottomId, anchor: .bottom) }
            // A new row, or the last one grown (streamed text): follow it without animation, so
            // the text does not jump while it streams.
            .onChange(of: Self.growth(timeline)) { _ in
                if atBottom { proxy.scrollTo(Self.bottomId, anchor: .bottom) }
            }
        }
    }

    private func report(_ error: Error) {
        if let onError {
            onError(error)
        } else {
            lastError = error.localizedDescription
        }
    }

    /// What changes when the list grows at its end: its length and the last row's text length.
    static func growth(_ timeline: [TimelineItem]) -> [Int] {
        guard let last = timeline.last else { return [0, 0] }
        switch last.kind {
        case .userMessage(_, let text, _, _), .agentMessage(_, let text, _, _, _, _):
            return [timeline.count, text.utf8.count]
        default:
            return [timeline.count, 0]
        }
    }

    /// The last agent message that is done streaming, with its text.
    static func finishedAnswer(_ timeline: [TimelineItem]) -> (key: String, text: String)? {
        for item in timeline.reversed() {
            if case .agentMessage(_, let text, _, let streaming, _, _) = item.kind {
                return streaming ? nil : (item.key, text)
            }
        }
        return nil
    }

    /// A newly finished answer is read out (once); one restored from the store is not.
    private func announceFinishedAnswer() {
        guard let answer = Self.finishedAnswer(conversation.timeline), answer.key != announced else { return }
        announced = answer.key
        guard !answer.text.isEmpty else { return }
        let text = "The agent answered: \(answer.text.prefix(Self.announcedCharacters))"
        if #available(iOS 17.0, macOS 14.0, *) {
            AccessibilityNotification.Announcement(text).post()
        } else {
            #if canImport(UIKit)
            UIAccessibility.post(notification: .announcement, argument: text)
            #endif
        }
    }

    /// An announcement reads the start of an answer; the rest is read in the list.
    private static let announcedCharacters = 300
}
