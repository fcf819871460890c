// The composer under the conversation: the text field, the attachments picked for the next
// message, attach (the app's picker), send, and Stop while a run is in progress.

import SwiftUI
import AgentUI

/// The app's attachment picker: called by the attach button with `add`, which it calls with
/// each attachment the user picked (at once or later, e.g. from a photo picker's result).
public typealias AttachmentPicker = @MainActor (_ add: @escaping @MainActor (Attachment) -> Void) -> Void

@MainActor
struct ChatComposer: View {
    @ObservedObject var conversation: AgentConversation
    let placeholder: String
    let pickAttachment: AttachmentPicker?
    let report: @MainActor (Error) -> Void
    @State private var draft = ""
    @State private var attachments: [Attachment] = []
    @Environment(\.agentChatTheme) private var theme

    var body: some View {
        let running = !conversation.phase.hasEnded
        VStack(alignment: .leading, spacing: 4) {
            if !attachments.isEmpty {
                ScrollView(.horizontal, showsIndicators: false) {
                    HStack(spacing: 6) {
                        ForEach(attachments.indices, id: \.self) { index in
                            attachmentChip(index)
                        }
                    }
                }
            }
            HStack(spacing: 8) {
                if let pickAttachment {
                    Button {
                        pickAttachment { attachments.append($0) }
                    } label: {
                        Image(systemName: "paperclip")
                    }
                    .accessibilityLabel(Text("Attach"))
                }
                TextField(placeholder, text: $draft)
                    .textFieldStyle(.roundedBorder)
                    .onSubmit(send)
                    .submitLabel(.send)
                if running {
                    Button { conversation.cancel() } label: { Image(systemName: "stop.circle.fill") }
                        .accessibilityLabel(Text("Stop"))
                }
                Button(action: send) { Image(systemName: "paperplane.fill") }
                    .disabled(draft.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && attachments.isEmpty)
                    .accessibilityLabel(Text("Send"))
            }
        }
        .padding(.horizontal)
        .padding(.vertical, 8)
    }

    private func attachmentChip(_ index: Int) -> some View {
        let name = attachments[index].name
        return HStack(spacing: 4) {
            Text(verbatim: name).font(theme.detailFont).lineLimit(1)
            Button {
                if attachments.indices.contains(index) { attachments.remove(at: index) }
            } label: {
                Image(systemName: "xmark.circle.fill")
            }
            .buttonStyle(.borderless)
            .accessibilityLabel(Text("Remove \(name)"))
        }
        .padding(.horizontal, 8)
        .padding(.vertical, 4)
        .background(Capsule().fill(theme.agentBubble))
    }

    /// Sends the draft with the attachments. The run is not tied to this view (the user may
    /// leave the screen); a refusal (an attachment too large...) goes to the error line.
    private func send() {
        let text = draft.trimmingCharacters(in: .whitespacesAndNewlines)
        let files = attachments
        guard !text.isEmpty || !files.isEmpty else { return }
        draft = ""
        attachments = []
        let (conversation, report) = (self.conversation, self.report)
        Task { @MainActor in
            do {
                if files.isEmpty {
                    _ = try await conversation.send(text)
                } else {
                    _ = try await conversation.send(text, attachments: files)
                }
            } catch {
                report(error)
            }
        }
    }
}
