// The default view of a chat message's media parts (`ChatMessage.media`): an image through the
// host's image loader (`\.a2uiImageLoader`, the one A2UI Image nodes use), given its URL (which
// passed the core's media URL policy) or a `data:` URL for bytes the message carries inline;
// anything else, and an image with neither, as a labelled chip. Nothing is fetched here.
//
// NOT COMPILED HERE: SwiftUI is Apple-only; scripts/swift-linux.sh builds the rest of ios/.

import SwiftUI
import AgentUI

public struct MessageMediaView: View {
    let media: [MediaItem]
    @Environment(\.a2uiImageLoader) private var loader

    public init(media: [MediaItem]) {
        self.media = media
    }

    public var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            ForEach(Array(media.enumerated()), id: \.offset) { _, item in
                let label = item.name ?? item.mimeType ?? "\(item.kind)"
                if item.kind == .image, let url = Self.url(of: item) {
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
