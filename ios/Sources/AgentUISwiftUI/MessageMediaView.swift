// The default view of a chat message's media parts (`ChatMessage.media`): an image through the
// host's image loader (`\.a2uiImageLoader`, the one A2UI Image nodes use), given its URL (which
// passed the core's media URL policy) or a `data:` URL for inline bytes; anything else, and an
// image with neither, as a labelled chip. Inline bytes over 16 KiB stay in the core
// (`MediaItem.heldBytes`) and are fetched with `bytes` (pass `conversation.mediaBytes`) when the
// image is shown, off the main actor; without it such an image is a chip. Nothing is fetched from
// the network here.
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import SwiftUI
import AgentUI

public struct MessageMediaView: View {
    let media: [MediaItem]
    let bytes: ((MediaItem) async throws -> Data?)?
    @Environment(\.a2uiImageLoader) private var loader
    /// `data:` URLs of the held-back images fetched so far, by part.
    @State private var fetched: [Int: URL] = [:]

    public init(media: [MediaItem], bytes: ((MediaItem) async throws -> Data?)? = nil) {
        self.media = media
        self.bytes = bytes
    }

    public var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            ForEach(Array(media.enumerated()), id: \.offset) { at, item in
                let label = item.name ?? item.mimeType ?? "\(item.kind)"
                if item.kind == .image, let url = Self.url(of: item) ?? fetched[at] {
                    loader.image(url: url, fit: .contain)
                        .frame(maxWidth: 240, maxHeight: 240)
                        .clipped()
                        .accessibilityLabel(label)
                } else {
                    Text("\(String(describing: item.kind)) · \(label)")
                        .font(.caption)
                        .padding(.horizontal, 8)
                        .padding(.vertical, 4)
                        .background(Capsule().fill(Color.secondary.opacity(0.15)))
                        .task(id: item.partIndex) {
                            guard item.kind == .image, item.heldBytes != nil, let bytes,
                                  let data = try? await bytes(item) else { return }
                            let mime = item.mimeType ?? "application/octet-stream"
                            let url = await Task.detached { URL(string: "data:\(mime);base64,\(data.base64EncodedString())") }.value
                            if let url { fetched[at] = url }
                        }
                }
            }
        }
    }

    static func url(of item: MediaItem) -> URL? {
        if let url = item.url { return URL(string: url) }
        if let base64 = item.base64 { return URL(string: "data:\(item.mimeType ?? "application/octet-stream");base64,\(base64)") }
        return nil
    }
}
