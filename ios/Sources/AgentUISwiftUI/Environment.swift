// Environment values the renderer passes down the view tree.
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import SwiftUI

/// How a direct child of a Row or Column sits in its parent: its main axis, whether the parent
/// stretches children across the cross axis, and whether the parent measures weights itself
/// (the iOS 16+ `FlexLayout`) or relies on flexible frames (the iOS 15 stacks).
struct StackSlot: Equatable {
    var axis: Axis
    var stretchCross: Bool
    var measuresWeights: Bool
}

private struct StackSlotKey: EnvironmentKey {
    static var defaultValue: StackSlot? { nil }
}

/// Opens the enclosing Modal; set around a Modal's trigger only.
struct ModalOpener {
    let open: () -> Void
}

private struct ModalOpenerKey: EnvironmentKey {
    static var defaultValue: ModalOpener? { nil }
}

private struct ImageLoaderKey: EnvironmentKey {
    static var defaultValue: any ImageLoader { AsyncImageLoader() }
}

extension EnvironmentValues {
    var a2uiStackSlot: StackSlot? {
        get { self[StackSlotKey.self] }
        set { self[StackSlotKey.self] = newValue }
    }

    var a2uiModalOpener: ModalOpener? {
        get { self[ModalOpenerKey.self] }
        set { self[ModalOpenerKey.self] = newValue }
    }

    /// The loader A2UI Image components draw with (default: `AsyncImageLoader`).
    public var a2uiImageLoader: any ImageLoader {
        get { self[ImageLoaderKey.self] }
        set { self[ImageLoaderKey.self] = newValue }
    }
}

extension View {
    /// Draws the images of the A2UI surfaces below this view with `loader` (Kingfisher, Nuke,
    /// an app cache...). The default is `AsyncImageLoader` (SwiftUI's `AsyncImage`).
    public func a2uiImageLoader(_ loader: any ImageLoader) -> some View {
        environment(\.a2uiImageLoader, loader)
    }
}
