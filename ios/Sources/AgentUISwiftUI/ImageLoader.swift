// How A2UI images are loaded and drawn. The renderer sizes and clips; the loader fetches and
// fits the image into that frame. Apps swap it with `.a2uiImageLoader(_:)`.
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import SwiftUI

/// The catalog's `fit` values (CSS `object-fit`).
public enum ImageFit: String, CaseIterable {
    case contain, cover, fill, none, scaleDown

    init(catalogValue: String?) {
        self = catalogValue.flatMap(ImageFit.init(rawValue:)) ?? .fill
    }
}

/// Loads the image at `url` and draws it fitted as `fit` into the frame the renderer gives it
/// (the renderer clips). `url` already passed the core's media URL policy.
public protocol ImageLoader {
    @MainActor func image(url: URL, fit: ImageFit) -> AnyView
}

/// The default loader: SwiftUI's `AsyncImage` (URLSession, no disk cache beyond URLCache).
public struct AsyncImageLoader: ImageLoader {
    public init() {}

    @MainActor
    public func image(url: URL, fit: ImageFit) -> AnyView {
        AnyView(
            AsyncImage(url: url) { phase in
                switch phase {
                case .success(let image):
                    image.a2uiFitted(fit)
                case .failure:
                    ImagePlaceholder(systemName: "exclamationmark.triangle")
                case .empty:
                    ProgressView()
                @unknown default:
                    ImagePlaceholder(systemName: "photo")
                }
            }
        )
    }
}

extension Image {
    /// `fit` as SwiftUI sizing. `scaleDown` is drawn like `contain` (SwiftUI cannot tell here
    /// whether the image is smaller than its frame); `none` keeps the image's own size.
    @MainActor @ViewBuilder
    public func a2uiFitted(_ fit: ImageFit) -> some View {
        switch fit {
        case .contain, .scaleDown:
            resizable().aspectRatio(contentMode: .fit)
        case .cover:
            resizable().aspectRatio(contentMode: .fill)
        case .fill:
            resizable()
        case .none:
            self
        }
    }
}

/// Drawn where there is no image: none sent, blocked by the URL policy, or failed to load.
@MainActor
struct ImagePlaceholder: View {
    let systemName: String

    var body: some View {
        ZStack {
            Rectangle().fill(Color.secondary.opacity(0.15))
            Image(systemName: systemName).foregroundColor(.secondary)
        }
    }
}
