// The app's screens and the navigation state the `navigate_to` tool drives.
//
// Type-checked on Linux against the SwiftUI stand-in (ios/Sources/LinuxSwiftUI); built and run by Xcode.

import SwiftUI
import AgentUI

enum Screen: String, CaseIterable, Hashable, Identifiable {
    case chat, settings, profile

    var id: String { rawValue }
    var title: String { rawValue.capitalized }
}

/// Chat is the root; settings and profile are pushed on top of it.
@MainActor
final class Router: ObservableObject {
    /// The pushed screens (NavigationStack's path on iOS 16, the active link on iOS 15).
    @Published var path: [Screen] = []

    /// The screen that is on screen now, as reported by the screens themselves (`onAppear`).
    /// The tool confirms a navigation from this, never from having asked for it.
    @Published private(set) var visible: Screen = .chat

    func show(_ screen: Screen) {
        let target: [Screen] = screen == .chat ? [] : [screen]
        if path != target { path = target }
    }

    func didAppear(_ screen: Screen) {
        if visible != screen { visible = screen }
    }

    /// Shows `screen` and returns once it is visible; throws if it did not appear in 2 s (the
    /// app in the background, say), so a failed navigation is never reported as done.
    func navigate(to screen: Screen) async throws {
        show(screen)
        for _ in 0..<40 {
            if visible == screen { return }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        throw ClientToolFailure("the app did not show the \(screen.rawValue) screen within 2 seconds")
    }

    /// iOS 15: whether `screen` is pushed, as a NavigationLink's `isActive`.
    func isShowing(_ screen: Screen) -> Binding<Bool> {
        Binding(
            get: { self.path.last == screen },
            set: { active in
                if active {
                    self.show(screen)
                } else if self.path.last == screen {
                    self.path.removeLast()
                }
            }
        )
    }
}
