// What every node of one rendered surface shares: the node models, the component registry and
// the two ways back to the core (writes and actions), with their error reporting.
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import Foundation
import SwiftUI
import AgentUI

@MainActor
final class SurfaceRenderContext: ObservableObject {
    let model: SurfaceModel
    let actions: SurfaceActions

    // Set by A2UISurfaceView on every render. Plain properties, not published: nodes read them
    // when they render, so changing them does not re-render the whole surface.
    var registry: ComponentRegistry = .basic
    var onOpenURL: ((URL) -> Void)?
    var onError: ((Error) -> Void)?

    /// The last refused write or failed action, shown under the surface when the app passed no
    /// `onError`, so that nothing fails silently.
    @Published private(set) var lastError: String?

    init(model: SurfaceModel, actions: SurfaceActions) {
        self.model = model
        self.actions = actions
    }

    var surfaceId: String { model.surfaceId }

    /// Writes through the core; false when the core refused it (the error is reported).
    func write(path: String, value: NodeValue) -> Bool {
        do {
            try actions.setValue(path: path, value: value)
            clearError()
            return true
        } catch {
            report(error)
            return false
        }
    }

    /// Dispatches the action of `nodeId`. The task is not tied to the view: a chat list that
    /// scrolls the surface away must not cancel the run. `openURL` receives an `openUrl` result:
    /// the URL passed the core's scheme policy, and this tap is the user gesture that opens it.
    func dispatch(nodeId: String, openURL: @escaping (URL) -> Void) {
        let actions = self.actions
        Task { @MainActor [weak self] in
            do {
                let result = try await actions.dispatchAction(nodeId: nodeId)
                self?.clearError()
                switch result {
                case .openUrl(let text):
                    guard let url = URL(string: text) else {
                        self?.report(InvalidActionURL(text: text))
                        return
                    }
                    openURL(url)
                case .ran, .handled:
                    break
                }
            } catch {
                self?.report(error)
            }
        }
    }

    func report(_ error: Error) {
        if let onError {
            onError(error)
        } else {
            lastError = error.localizedDescription
        }
    }

    private func clearError() {
        if lastError != nil { lastError = nil }
    }
}

/// The core returned an `openUrl` text that Foundation cannot parse as a URL.
struct InvalidActionURL: LocalizedError {
    let text: String
    var errorDescription: String? { "Cannot open \(text): not a valid URL" }
}
