// The chat: the library's AgentChatView (the timeline, the cards, the composer) plus what is
// this app's own: the system photo picker behind the attach button.

import SwiftUI
import PhotosUI
import AgentUI
import AgentUISwiftUI

@MainActor
struct ChatView: View {
    @ObservedObject var conversation: AgentConversation
    /// The photo picker is up; `add` takes what it picked to the composer.
    @State private var picking = false
    @State private var pickedItem: PhotosPickerItem?
    @State private var add: (@MainActor (Attachment) -> Void)?
    @State private var pickError: String?

    var body: some View {
        VStack(spacing: 0) {
            if let pickError {
                Text(pickError)
                    .font(.caption)
                    .foregroundColor(.red)
                    .padding(.horizontal)
            }
            AgentChatView(
                conversation: conversation,
                placeholder: "Message (try \"book a table\", \"sign up\" or \"open settings\")",
                pickAttachment: { add in
                    self.add = add
                    picking = true
                }
            )
        }
        // The system photo picker (no photo library permission needed).
        .photosPicker(isPresented: $picking, selection: $pickedItem, matching: .images)
        .onChange(of: pickedItem) { item in
            guard let item else { return }
            pickedItem = nil
            load(item)
        }
    }

    /// Loaded off the main actor by PhotosUI; the core checks its size and type when it is sent.
    private func load(_ item: PhotosPickerItem) {
        let add = self.add
        Task {
            do {
                guard let data = try await item.loadTransferable(type: Data.self) else { return }
                let type = item.supportedContentTypes.first
                let mime = type?.preferredMIMEType ?? "image/jpeg"
                let name = "photo.\(type?.preferredFilenameExtension ?? "jpg")"
                pickError = nil
                add?(.bytes(name: name, mimeType: mime, data: data))
            } catch {
                pickError = "Cannot attach the photo: \(error.localizedDescription)"
            }
        }
    }
}
