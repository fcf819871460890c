// The chat: the library's AgentChatView (the timeline, the cards, the composer) plus what is
// this app's own: the system photo picker behind the attach button.
//
// Type-checked on Linux against the SwiftUI stand-in (ios/Sources/LinuxSwiftUI); built and run by Xcode.

import SwiftUI
import PhotosUI
import AgentUI
import AgentUISwiftUI

@MainActor
struct ChatView: View {
    @ObservedObject var conversation: AgentConversation
    /// The photo picker is up; `add` takes what it picked to the composer.
    @State private var picking = false
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
                pickAttachment: photoPicker
            )
        }
        .modifier(PhotoPicking(isPresented: $picking, add: add, failed: { pickError = $0 }))
    }

    /// The attach button opens the photo picker; iOS 15 has none, so no attach button there.
    private var photoPicker: AttachmentPicker? {
        guard #available(iOS 16.0, *) else { return nil }
        return { add in
            self.add = add
            pickError = nil
            picking = true
        }
    }
}

/// The system photo picker where there is one (iOS 16).
private struct PhotoPicking: ViewModifier {
    @Binding var isPresented: Bool
    let add: (@MainActor (Attachment) -> Void)?
    let failed: @MainActor (String) -> Void

    func body(content: Content) -> some View {
        if #available(iOS 16.0, *) {
            content.modifier(SystemPhotoPicker(isPresented: $isPresented, add: add, failed: failed))
        } else {
            content
        }
    }
}

/// PhotosUI's picker (no photo library permission needed): the picked photo is loaded off the
/// main actor by PhotosUI and handed to the composer; the core checks its size and type when it
/// is sent.
@available(iOS 16.0, *)
private struct SystemPhotoPicker: ViewModifier {
    @Binding var isPresented: Bool
    let add: (@MainActor (Attachment) -> Void)?
    let failed: @MainActor (String) -> Void
    @State private var picked: PhotosPickerItem?

    func body(content: Content) -> some View {
        content
            .photosPicker(isPresented: $isPresented, selection: $picked, matching: .images)
            .onChange(of: picked) { item in
                guard let item else { return }
                picked = nil
                load(item)
            }
    }

    private func load(_ item: PhotosPickerItem) {
        let (add, failed) = (self.add, self.failed)
        Task { @MainActor in
            do {
                guard let data = try await item.loadTransferable(type: Data.self) else { return }
                let type = item.supportedContentTypes.first
                let mime = type?.preferredMIMEType ?? "image/jpeg"
                let name = "photo.\(type?.preferredFilenameExtension ?? "jpg")"
                add?(.bytes(name: name, mimeType: mime, data: data))
            } catch {
                failed("Cannot attach the photo: \(error.localizedDescription)")
            }
        }
    }
}
