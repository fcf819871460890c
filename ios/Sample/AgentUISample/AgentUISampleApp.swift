// The sample app: a chat with an AG-UI agent whose A2UI surfaces render inline, and a client
// tool `navigate_to` that changes the app's screen. See ios/README.md for the Xcode steps.
//
// Type-checked on Linux against the SwiftUI stand-in (ios/Sources/LinuxSwiftUI); built and run by Xcode.

import SwiftUI
import AgentUI

@main
@MainActor
struct AgentUISampleApp: App {
    @StateObject private var router: Router
    @StateObject private var session: AgentSession

    init() {
        let router = Router()
        _router = StateObject(wrappedValue: router)
        _session = StateObject(wrappedValue: AgentSession(router: router))
    }

    var body: some Scene {
        WindowGroup {
            RootView(session: session, router: router)
        }
    }
}
