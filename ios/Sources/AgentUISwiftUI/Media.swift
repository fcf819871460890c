// Image, Video and AudioPlayer. URLs come already filtered by the core's media policy: a
// blocked URL resolves to null and renders a placeholder.
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import SwiftUI
import AgentUI

@MainActor
struct ImageComponent: View {
    let context: NodeContext
    @Environment(\.a2uiImageLoader) private var loader

    var body: some View {
        // The accessibility label replaces `description`.
        let description = context.node.accessibility?.label ?? context.text("description")
        let url = context.text("url").flatMap(URL.init(string:))
        sized(
            Group {
                if let url {
                    loader.image(url: url, fit: ImageFit(catalogValue: context.text("fit")))
                } else {
                    ImagePlaceholder(systemName: "photo")
                }
            },
            variant: context.text("variant")
        )
        .clipped()
        .accessibilityElement(children: .ignore)
        .accessibilityLabel(Text(description ?? "Image"))
        .accessibilityAddTraits(.isImage)
    }

    /// Sizes by variant, as the Compose renderer: icon 24, avatar 40 (circle), small 80,
    /// medium 160 (the default), large 240, header full width × 200.
    @ViewBuilder
    private func sized<Content: View>(_ content: Content, variant: String?) -> some View {
        switch variant {
        case "icon": content.frame(width: 24, height: 24)
        case "avatar": content.frame(width: 40, height: 40).clipShape(Circle())
        case "smallFeature": content.frame(width: 80, height: 80)
        case "largeFeature": content.frame(width: 240, height: 240)
        case "header": content.frame(maxWidth: .infinity).frame(height: 200)
        default: content.frame(width: 160, height: 160)
        }
    }
}

/// Video and AudioPlayer: a play button whose tap hands the URL to the app's URL handler.
/// Register your own renderer for inline playback (AVKit's `VideoPlayer`).
@MainActor
struct MediaComponent: View {
    enum Kind {
        case video, audio
    }

    let context: NodeContext
    let kind: Kind

    @Environment(\.a2uiImageLoader) private var loader

    var body: some View {
        let url = context.text("url")
        let name = context.node.accessibility?.label ?? context.text("description")
            ?? (kind == .video ? "Video" : "Audio")
        // A v1.0 Video's `posterUrl` (policy-checked by the core like `url`), above the button.
        let poster = kind == .video ? context.text("posterUrl").flatMap(URL.init(string:)) : nil
        VStack(alignment: .leading, spacing: 4) {
            if let poster {
                loader.image(url: poster, fit: .cover)
                    .frame(maxWidth: .infinity)
                    .frame(height: 160)
                    .clipped()
                    .accessibilityLabel(Text("\(name) poster"))
            }
            controls(url: url, name: name)
        }
    }

    private func controls(url: String?, name: String) -> some View {
        HStack(spacing: 8) {
            Button {
                if let url { context.openMedia(url) }
            } label: {
                Image(systemName: kind == .video ? "play.rectangle.fill" : "play.circle.fill")
                    .font(.title2)
            }
            .buttonStyle(.borderless)
            .disabled(url == nil)
            .accessibilityLabel(Text("Play \(name)"))
            Text(url == nil ? "\(name) (unavailable)" : name)
                .font(.callout)
                .fixedSize(horizontal: false, vertical: true)
        }
        .padding(.horizontal, 8)
        .padding(.vertical, 4)
        .overlay(RoundedRectangle(cornerRadius: 8).stroke(Color.secondary.opacity(0.5)))
    }
}
