// The chat: messages, tool-call states and A2UI surfaces inline (each where it appeared),
// an input field and send / stop.
//
// NOT COMPILED HERE: this machine has no Swift compiler.

import SwiftUI
import PhotosUI
import AgentUI
import AgentUISwiftUI

@MainActor
struct ChatView: View {
    @ObservedObject var conversation: AgentConversation
    @State private var draft = ""
    @State private var sendError: String?
    /// Where each surface sits: the number of messages there were when it first appeared.
    @State private var surfaceAnchors: [String: Int] = [:]
    /// The photo picker's selection, and the photos read from it for the next message.
    @State private var pickedItem: PhotosPickerItem?
    @State private var attached: [Attachment] = []

    var body: some View {
        VStack(spacing: 0) {
            ScrollViewReader { proxy in
                ScrollView {
                    LazyVStack(alignment: .leading, spacing: 12) {
                        ForEach(timeline) { item in
                            row(item).id(item.id)
                        }
                    }
                    .padding()
                }
                .onChange(of: timeline.last?.id) { last in
                    if let last { withAnimation { proxy.scrollTo(last, anchor: .bottom) } }
                }
            }
            Divider()
            ForEach(conversation.consentRequests, id: \.toolCallId) { request in
                consentCard(request)
            }
            if case .abandoned = conversation.phase {
                // Restored after the app was terminated mid-answer: nothing is replayed on its own.
                notice("The answer was cut off when the app closed. Send again to continue.")
            }
            if isUndelivered {
                HStack {
                    notice("Not delivered yet: the agent cannot be reached.")
                    Spacer()
                    // The conversation retries on its own too; this is "now". A failure leaves it waiting.
                    Button("Retry") { Task { _ = try? await conversation.retryPending() } }
                        .font(.caption)
                        .padding(.horizontal)
                }
            }
            if let sendError {
                Text(sendError)
                    .font(.caption)
                    .foregroundColor(.red)
                    .padding(.horizontal)
                    .padding(.top, 4)
            }
            inputBar
        }
        .onReceive(conversation.$surfaces) { surfaces in
            for id in surfaces.map(\.id) where surfaceAnchors[id] == nil {
                surfaceAnchors[id] = conversation.messages.count
            }
        }
    }

    // MARK: Timeline

    private enum ChatItem: Identifiable {
        case message(ChatMessage)
        case surface(String)

        var id: String {
            switch self {
            case .message(let message): return "message:\(message.id)"
            case .surface(let surfaceId): return "surface:\(surfaceId)"
            }
        }
    }

    /// Messages a person reads, with each live surface after the message it came with.
    /// Activity messages are not shown: their surfaces are.
    private var timeline: [ChatItem] {
        let live = conversation.surfaces
            .map { (id: $0.id, anchor: surfaceAnchors[$0.id] ?? conversation.messages.count) }
            .sorted { ($0.anchor, $0.id) < ($1.anchor, $1.id) }
        var items: [ChatItem] = []
        var next = 0
        for (index, message) in conversation.messages.enumerated() {
            while next < live.count, live[next].anchor <= index {
                items.append(.surface(live[next].id))
                next += 1
            }
            // A tool result is shown when it carries media (an image the agent returned).
            if message.role == .user || message.role == .assistant || !message.media.isEmpty {
                items.append(.message(message))
            }
        }
        items += live[next...].map { ChatItem.surface($0.id) }
        return items
    }

    @ViewBuilder
    private func row(_ item: ChatItem) -> some View {
        switch item {
        case .message(let message):
            MessageRow(
                message: message, toolCalls: conversation.toolCalls, waiting: message.isPending && isUndelivered,
                mediaBytes: conversation.mediaBytes)
        case .surface(let surfaceId):
            A2UISurfaceView(conversation: conversation, surfaceId: surfaceId)
                .frame(maxWidth: .infinity, alignment: .leading)
        }
    }

    /// Something waits because the agent could not be reached (not merely under way).
    private var isUndelivered: Bool {
        conversation.pendingSends.contains { $0.attempts > 0 }
    }

    private func notice(_ text: String) -> some View {
        Text(text)
            .font(.caption)
            .foregroundColor(.red)
            .padding(.horizontal)
            .padding(.top, 4)
    }

    // MARK: Consent

    /// A call of a tool registered with `consent: .ask`: it runs only after the user allows it.
    private func consentCard(_ request: ConsentRequest) -> some View {
        VStack(alignment: .leading, spacing: 6) {
            Text("The agent wants to use \(request.toolName).")
                .font(.callout)
            HStack {
                Button("Allow once") { answer(request, .allowOnce) }
                Button("Always allow") { answer(request, .allowAlways) }
                Button("Decline", role: .destructive) { answer(request, .decline) }
            }
            .buttonStyle(.bordered)
            .font(.caption)
        }
        .padding(.horizontal)
        .padding(.top, 6)
        .accessibilityElement(children: .contain)
    }

    private func answer(_ request: ConsentRequest, _ answer: ConsentAnswer) {
        // The follow-up run goes on while the user looks at another screen, as a send does.
        Task {
            do {
                _ = try await conversation.answerConsent(toolCallId: request.toolCallId, answer: answer)
            } catch {
                sendError = error.localizedDescription
            }
        }
    }

    // MARK: Input

    private var isRunning: Bool {
        switch conversation.phase {
        case .starting, .running: return true
        default: return false
        }
    }

    private var inputBar: some View {
        VStack(alignment: .leading, spacing: 4) {
            if !attached.isEmpty {
                Text(attached.map { "📎 \($0.name)" }.joined(separator: "  "))
                    .font(.caption)
                    .padding(.horizontal)
            }
            inputRow
        }
    }

    private var inputRow: some View {
        HStack(spacing: 8) {
            // The system photo picker (no photo library permission needed).
            PhotosPicker(selection: $pickedItem, matching: .images) {
                Image(systemName: "photo")
            }
            .disabled(isRunning)
            .accessibilityLabel(Text("Attach a photo"))
            .onChange(of: pickedItem) { item in
                guard let item else { return }
                pickedItem = nil
                // Loaded off the main actor by PhotosUI; the core checks its size and type.
                Task {
                    do {
                        guard let data = try await item.loadTransferable(type: Data.self) else { return }
                        let type = item.supportedContentTypes.first
                        let mime = type?.preferredMIMEType ?? "image/jpeg"
                        let name = "photo.\(type?.preferredFilenameExtension ?? "jpg")"
                        attached.append(.bytes(name: name, mimeType: mime, data: data))
                    } catch {
                        sendError = "Cannot attach the photo: \(error.localizedDescription)"
                    }
                }
            }
            TextField("Message (try \"book a table\", \"sign up\" or \"open settings\")", text: $draft)
                .textFieldStyle(.roundedBorder)
                .onSubmit(send)
                .submitLabel(.send)
            if isRunning {
                Button { conversation.cancel() } label: { Image(systemName: "stop.circle.fill") }
                    .accessibilityLabel(Text("Stop"))
            }
            Button(action: send) { Image(systemName: "paperplane.fill") }
                .disabled(draft.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && attached.isEmpty)
                .accessibilityLabel(Text("Send"))
        }
        .padding()
    }

    private func send() {
        let text = draft.trimmingCharacters(in: .whitespacesAndNewlines)
        let photos = attached
        guard !text.isEmpty || !photos.isEmpty else { return }
        draft = ""
        attached = []
        sendError = nil
        // Not tied to this view: the run goes on while the user looks at another screen.
        Task {
            do {
                if photos.isEmpty {
                    _ = try await conversation.send(text)
                } else {
                    _ = try await conversation.send(text, attachments: photos)
                }
            } catch {
                sendError = error.localizedDescription
            }
        }
    }
}

/// One message bubble, with the state of the tool calls it made ("requested" is not "done").
@MainActor
private struct MessageRow: View {
    let message: ChatMessage
    /// The conversation's tool calls in order (`AgentConversation.toolCalls`).
    let toolCalls: [ToolCallUpdate]
    /// A user message the agent has not received because it could not be reached.
    let waiting: Bool
    /// Fetches a photo's bytes from the core when it is shown (`AgentConversation.mediaBytes`).
    let mediaBytes: (MediaItem) async throws -> Data?

    var body: some View {
        let mine = message.role == .user
        VStack(alignment: mine ? .trailing : .leading, spacing: 4) {
            if let markdown = message.markdown, !message.text.isEmpty {
                // The assistant's Markdown as the core parsed it; a link opens only when tapped.
                MarkdownView(blocks: markdown.blocks, pending: message.markdownPendingText)
                    .padding(10)
                    .background(RoundedRectangle(cornerRadius: 12).fill(Color.secondary.opacity(0.12)))
            } else if !message.text.isEmpty {
                Text(waiting ? message.text + "  ⏳" : message.text)
                    .padding(10)
                    .background(
                        RoundedRectangle(cornerRadius: 12)
                            .fill(mine ? Color.accentColor.opacity(0.2) : Color.secondary.opacity(0.12))
                    )
            }
            if !message.media.isEmpty {
                // Images through the host's image loader, a chip for the rest.
                MessageMediaView(media: message.media, bytes: mediaBytes)
            }
            ForEach(message.toolCalls, id: \.id) { call in
                Label("\(call.name): \(describe(toolCalls.first { $0.toolCallId == call.id }?.phase))", systemImage: "wrench.and.screwdriver")
                    .font(.caption)
                    .foregroundColor(.secondary)
            }
            if let error = message.error {
                Text(error).font(.caption).foregroundColor(.red)
            }
        }
        .frame(maxWidth: .infinity, alignment: mine ? .trailing : .leading)
    }

    private func describe(_ status: ToolCallPhase?) -> String {
        switch status {
        case .streaming?: return "arguments streaming"
        case .requested?: return "requested"
        case .running?: return "running"
        case .succeeded?: return "done"
        // The text the agent read.
        case .failed(_, let detail)?: return "failed: \(detail)"
        case .completedByServer?: return "done by the agent"
        case .skipped(let reason)?: return "skipped: \(reason)"
        case .ownedByServer?: return "run by the agent"
        case .awaitingInterrupt?: return "waiting for your answer"
        case nil: return "requested"
        }
    }
}
