// The two screens besides the chat. Each reports that it is visible, which is what the
// `navigate_to` tool waits for.
//
// Type-checked on Linux against the SwiftUI stand-in (ios/Sources/LinuxSwiftUI); built and run by Xcode.

import SwiftUI

@MainActor
struct SettingsView: View {
    @ObservedObject var session: AgentSession
    @ObservedObject var router: Router
    @State private var url = ""

    var body: some View {
        Form {
            Section {
                TextField("Agent URL", text: $url)
                    .textInputAutocapitalization(.never)
                    .disableAutocorrection(true)
                    .keyboardType(.URL)
                Button("Connect") { session.connect(to: url) }
                Button("Use the demo agent on this Mac") { url = AgentSession.defaultAgentURL }
            } header: {
                Text("Agent")
            } footer: {
                Text("Start the demo agent on the Mac with `cargo run -p agentui-cli -- serve-demo`. The simulator reaches the Mac as localhost; a device does not.")
            }
            if let error = session.connectError {
                Section { Text(error).foregroundColor(.red) }
            }
        }
        .navigationTitle("Settings")
        .onAppear {
            url = session.agentURL
            router.didAppear(.settings)
        }
    }
}

@MainActor
struct ProfileView: View {
    @ObservedObject var router: Router

    var body: some View {
        VStack(spacing: 12) {
            Image(systemName: "person.crop.circle")
                .font(.system(size: 64))
                .foregroundColor(.secondary)
            Text("Sample user").font(.title2)
            Text("Ask the agent to \"open settings\" or \"open chat\".")
                .foregroundColor(.secondary)
        }
        .padding()
        .navigationTitle("Profile")
        .onAppear { router.didAppear(.profile) }
    }
}
