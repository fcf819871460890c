// Navigation: NavigationStack on iOS 16+, NavigationView with programmatic links on iOS 15.
// Both are driven by `Router.path`, which the `navigate_to` tool changes.
//
// Type-checked on Linux against the SwiftUI stand-in (ios/Sources/LinuxSwiftUI); built and run by Xcode.

import SwiftUI
import AgentUI

@MainActor
struct RootView: View {
    @ObservedObject var session: AgentSession
    @ObservedObject var router: Router

    var body: some View {
        if #available(iOS 16.0, *) {
            NavigationStack(path: $router.path) {
                chat
                    .navigationDestination(for: Screen.self) { screen in
                        destination(screen)
                    }
            }
        } else {
            NavigationView {
                chat.background(legacyLinks)
            }
            .navigationViewStyle(.stack)
        }
    }

    private var chat: some View {
        Group {
            if let conversation = session.conversation {
                ChatView(conversation: conversation)
            } else {
                VStack(spacing: 12) {
                    Text(session.connectError ?? "Connecting…")
                    Button("Settings") { router.show(.settings) }
                }
                .padding()
            }
        }
        .navigationTitle("Agent")
        .toolbar {
            ToolbarItemGroup(placement: .primaryAction) {
                Button { router.show(.profile) } label: { Image(systemName: "person.crop.circle") }
                    .accessibilityLabel(Text("Profile"))
                Button { router.show(.settings) } label: { Image(systemName: "gearshape") }
                    .accessibilityLabel(Text("Settings"))
            }
        }
        .onAppear { router.didAppear(.chat) }
    }

    @ViewBuilder
    private func destination(_ screen: Screen) -> some View {
        switch screen {
        case .settings: SettingsView(session: session, router: router)
        case .profile: ProfileView(router: router)
        case .chat: EmptyView() // the root, never pushed
        }
    }

    /// iOS 15: one hidden link per pushed screen, active while the router shows it.
    private var legacyLinks: some View {
        VStack {
            NavigationLink(isActive: router.isShowing(.settings)) {
                SettingsView(session: session, router: router)
            } label: {
                EmptyView()
            }
            NavigationLink(isActive: router.isShowing(.profile)) {
                ProfileView(router: router)
            } label: {
                EmptyView()
            }
        }
    }
}
