// The default row of each timeline item kind (ChatSlots.swift), public so that an app can wrap
// one in its own slot. Every row is one accessibility element or a labelled container, and
// every card's buttons are reachable by VoiceOver, Full Keyboard Access and Switch Control.

import SwiftUI
import AgentUI
import AgentUIRendering

/// The user's message, right-aligned, with its attachments and, until the agent has it, its
/// delivery: sending, waiting for the network (Retry now), or not delivered (Retry).
@MainActor
public struct ChatUserMessageRow: View {
    let message: ChatUserMessage
    let actions: ChatActions
    @Environment(\.agentChatTheme) private var theme

    public init(message: ChatUserMessage, actions: ChatActions) {
        self.message = message
        self.actions = actions
    }

    public var body: some View {
        VStack(alignment: .trailing, spacing: 4) {
            if !message.text.isEmpty {
                Text(verbatim: message.text)
                    .font(theme.bodyFont)
                    .padding(10)
                    .background(RoundedRectangle(cornerRadius: theme.bubbleCornerRadius).fill(theme.userBubble))
                    .accessibilityLabel(Text("You said: \(message.text)"))
            }
            if !message.media.isEmpty {
                MessageMediaView(media: message.media, bytes: actions.mediaBytes)
            }
            delivery
        }
        .frame(maxWidth: .infinity, alignment: .trailing)
        .accessibilityElement(children: .contain)
    }

    @ViewBuilder
    private var delivery: some View {
        switch message.delivery {
        case .delivered:
            EmptyView()
        case .sending:
            Text("Sending…")
                .font(theme.detailFont)
                .foregroundColor(theme.secondaryText)
        case .waitingForNetwork(let attempts, _):
            HStack(spacing: 8) {
                Text(attempts > 1 ? "Waiting for the network (\(attempts) attempts)" : "Waiting for the network")
                    .font(theme.detailFont)
                    .foregroundColor(theme.secondaryText)
                // The conversation retries on its own when the network is back; this is "now".
                Button("Retry now") { actions.retry(.resendPending) }
                    .font(theme.detailFont)
            }
        case .failed(let error, let retry):
            HStack(spacing: 8) {
                Text(error.map { "Not delivered: \($0)" } ?? "Not delivered")
                    .font(theme.detailFont)
                    .foregroundColor(theme.error)
                Button(retry == .signInThenResend ? "Sign in and retry" : "Retry") { actions.retry(retry) }
                    .font(theme.detailFont)
            }
        }
    }
}

/// The agent's answer as the core parsed its Markdown, drawn as it streams: the parsed blocks,
/// then the text they do not cover yet as plain text, so a growing block never re-flows the
/// lines above it. Media under it; cut short and errors said in words.
@MainActor
public struct ChatAgentMessageRow: View {
    let message: ChatAgentMessage
    let actions: ChatActions
    @Environment(\.agentChatTheme) private var theme

    public init(message: ChatAgentMessage, actions: ChatActions) {
        self.message = message
        self.actions = actions
    }

    public var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            if !message.text.isEmpty {
                Group {
                    if let markdown = message.markdown {
                        MarkdownView(blocks: markdown.blocks, pending: message.pendingText)
                    } else {
                        Text(verbatim: message.text).font(theme.bodyFont)
                    }
                }
                .padding(10)
                .background(RoundedRectangle(cornerRadius: theme.bubbleCornerRadius).fill(theme.agentBubble))
            }
            if !message.media.isEmpty {
                MessageMediaView(media: message.media, bytes: actions.mediaBytes)
            }
            if message.cutShort {
                Text("Stopped before the end")
                    .font(theme.detailFont)
                    .foregroundColor(theme.secondaryText)
            }
            if let error = message.error {
                Text(error).font(theme.detailFont).foregroundColor(theme.error)
            }
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        // A container: its links stay reachable one by one.
        .accessibilityElement(children: .contain)
        .accessibilityLabel(Text(message.streaming ? "The agent is answering" : "The agent said"))
    }
}

/// A compact line per tool call: its name and what became of it.
@MainActor
public struct ChatToolActivityRow: View {
    let call: ChatToolActivity
    @Environment(\.agentChatTheme) private var theme

    public init(call: ChatToolActivity) {
        self.call = call
    }

    public var body: some View {
        let status = Self.describe(call.phase)
        Label("\(call.name): \(status)", systemImage: "wrench.and.screwdriver")
            .font(theme.detailFont)
            .foregroundColor(theme.secondaryText)
            .accessibilityElement(children: .ignore)
            .accessibilityLabel(Text("Tool \(call.name), \(status)"))
    }

    /// A phase in words ("requested" is not "done").
    public static func describe(_ phase: ToolCallPhase?) -> String {
        switch phase {
        case nil, .requested?: return "requested"
        case .streaming?: return "preparing"
        case .running?: return "running"
        case .succeeded?: return "done"
        case .failed(.declined, _)?: return "you declined it"
        // The text the agent read.
        case .failed(_, let detail)?: return "failed: \(detail)"
        case .completedByServer?: return "done by the agent"
        case .skipped(let reason)?: return "skipped: \(reason)"
        case .ownedByServer?: return "run by the agent"
        case .awaitingInterrupt?: return "waiting for your answer"
        case .awaitingConsent?: return "waiting for your permission"
        }
    }
}

/// The frame of the interrupt and consent cards: a titled box whose buttons are the card's
/// only accessibility children besides its text.
@MainActor
struct ChatCard<Content: View>: View {
    let title: String
    @ViewBuilder let content: () -> Content
    @Environment(\.agentChatTheme) private var theme

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text(title)
                .font(theme.bodyFont)
                .fontWeight(.semibold)
                .accessibilityAddTraits(.isHeader)
            content()
        }
        .padding(12)
        .frame(maxWidth: .infinity, alignment: .leading)
        .background(RoundedRectangle(cornerRadius: theme.bubbleCornerRadius).fill(theme.cardBackground))
        .overlay(RoundedRectangle(cornerRadius: theme.bubbleCornerRadius).stroke(theme.cardBorder))
        .accessibilityElement(children: .contain)
    }
}

/// The agent's question. An answer schema that is one boolean (`{"approved": boolean}`) gets
/// Approve and Reject; any other gets a text answer sent as the schema's one string property,
/// or as plain text. Cancel withdraws it.
@MainActor
public struct ChatInterruptCard: View {
    let interrupt: Interrupt
    let actions: ChatActions
    @State private var answer = ""
    @Environment(\.agentChatTheme) private var theme

    public init(interrupt: Interrupt, actions: ChatActions) {
        self.interrupt = interrupt
        self.actions = actions
    }

    public var body: some View {
        ChatCard(title: interrupt.message ?? interrupt.reason) {
            if let flag = Self.onlyProperty(of: interrupt, type: "boolean") {
                HStack(spacing: 8) {
                    Button("Approve") { actions.resolveInterrupt(interrupt, answer: [flag: true].nodeValue) }
                        .buttonStyle(.borderedProminent)
                    Button("Reject", role: .destructive) {
                        actions.resolveInterrupt(interrupt, answer: [flag: false].nodeValue)
                    }
                    .buttonStyle(.bordered)
                    Button("Cancel") { actions.cancelInterrupt(interrupt) }
                        .buttonStyle(.borderless)
                }
            } else {
                TextField("Your answer", text: $answer)
                    .textFieldStyle(.roundedBorder)
                HStack(spacing: 8) {
                    Button("Send answer") {
                        let text = answer.nodeValue
                        let field = Self.onlyProperty(of: interrupt, type: "string")
                        actions.resolveInterrupt(interrupt, answer: field.map { [$0: text].nodeValue } ?? text)
                    }
                    .buttonStyle(.borderedProminent)
                    .disabled(answer.isEmpty)
                    Button("Cancel") { actions.cancelInterrupt(interrupt) }
                        .buttonStyle(.borderless)
                }
            }
        }
    }

    /// The name of the schema's only property when it has exactly one, of JSON type `type`.
    static func onlyProperty(of interrupt: Interrupt, type: String) -> String? {
        guard case .object(let properties)? = interrupt.responseSchema?["properties"], properties.count == 1,
              properties[0].value[member: "type"]?.textValue == type
        else { return nil }
        return properties[0].name
    }
}

/// A client tool's call waiting for the user (a tool registered with `consent: .ask`): its name
/// and arguments, and the three answers.
@MainActor
public struct ChatConsentCard: View {
    let request: ConsentRequest
    let actions: ChatActions
    @Environment(\.agentChatTheme) private var theme

    public init(request: ConsentRequest, actions: ChatActions) {
        self.request = request
        self.actions = actions
    }

    public var body: some View {
        ChatCard(title: "The agent wants to use \(request.toolName)") {
            let arguments = Self.arguments(request.arguments)
            if !arguments.isEmpty {
                Text(verbatim: arguments)
                    .font(theme.detailFont)
                    .foregroundColor(theme.secondaryText)
            }
            HStack(spacing: 8) {
                Button("Allow once") { actions.answerConsent(request, .allowOnce) }
                    .buttonStyle(.borderedProminent)
                Button("Allow for this conversation") { actions.answerConsent(request, .allowAlways) }
                    .buttonStyle(.bordered)
                Button("Decline", role: .destructive) { actions.answerConsent(request, .decline) }
                    .buttonStyle(.bordered)
            }
        }
    }

    /// The arguments' top-level members as `name: value` lines.
    static func arguments(_ value: NodeValue) -> String {
        guard case .object(let entries) = value else { return value.displayText ?? "" }
        return entries.map { "\($0.name): \($0.value.displayText ?? "…")" }.joined(separator: "\n")
    }
}

/// How the run ended, in words, with the button that does what a retry would.
@MainActor
public struct ChatRunErrorRow: View {
    let error: ChatRunError
    let actions: ChatActions
    @Environment(\.agentChatTheme) private var theme

    public init(error: ChatRunError, actions: ChatActions) {
        self.error = error
        self.actions = actions
    }

    public var body: some View {
        HStack(alignment: .firstTextBaseline, spacing: 8) {
            Image(systemName: "exclamationmark.triangle")
                .foregroundColor(theme.error)
                .accessibilityHidden(true)
            Text(verbatim: Self.headline(error))
                .font(theme.detailFont)
                .foregroundColor(theme.error)
                .fixedSize(horizontal: false, vertical: true)
            Spacer(minLength: 0)
            Button(Self.retryTitle(error.retry)) { actions.retry(error.retry) }
                .font(theme.detailFont)
        }
        .accessibilityElement(children: .contain)
    }

    static func headline(_ error: ChatRunError) -> String {
        switch error.kind {
        case .agent: return "The agent stopped with an error: \(error.message)"
        case .client: return "The agent could not be reached: \(error.message)"
        case .abandoned: return "The answer was cut off when the app closed."
        }
    }

    static func retryTitle(_ action: RetryAction) -> String {
        switch action {
        case .resendPending: return "Retry"
        case .signInThenResend: return "Sign in and retry"
        case .continueRun: return "Continue"
        }
    }
}

/// The agent is working: a spinner and Stop.
@MainActor
public struct ChatRunInProgressRow: View {
    let actions: ChatActions
    @Environment(\.agentChatTheme) private var theme

    public init(actions: ChatActions) {
        self.actions = actions
    }

    public var body: some View {
        HStack(spacing: 8) {
            ProgressView()
            Text("The agent is working…")
                .font(theme.detailFont)
                .foregroundColor(theme.secondaryText)
        }
        .accessibilityElement(children: .combine)
        .accessibilityAddTraits(.updatesFrequently)
    }
}

/// Before the first message.
@MainActor
public struct ChatEmptyState: View {
    @Environment(\.agentChatTheme) private var theme

    public init() {}

    public var body: some View {
        VStack(spacing: 8) {
            Image(systemName: "bubble.left.and.bubble.right")
                .font(.largeTitle)
                .foregroundColor(theme.secondaryText)
                .accessibilityHidden(true)
            Text("Ask the agent anything.")
                .font(theme.bodyFont)
                .foregroundColor(theme.secondaryText)
        }
        .frame(maxWidth: .infinity, maxHeight: .infinity)
    }
}
