// The app's side of the network (issue 26): request headers given per request, and the
// device's connectivity. Thin: the core asks, retries and waits.

import Foundation
import AgentUICore
#if canImport(Network)
import Network
#endif

/// Gives the headers of each request to the agent: credentials that expire while a conversation
/// lives. Called off the main actor before every request (a message, a retry of a waiting one, a
/// resumed stream). `unauthorized` is true when the agent answered 401 to the headers given
/// last: return fresh ones (the request is sent once more) or throw. A second 401 fails the call
/// with `ConversationError.Unauthorized` (sign the user in again).
///
/// Throw `HeaderProviderFailure(detail)` when there are no headers to give (signed out): the
/// call fails with `ConversationError.HeaderProvider(detail)`. Any other error fails it too,
/// without its text. An answer later than 10 s fails the call and cancels this task. Its headers
/// go over the fixed ones given to `connect`; values are never logged.
public typealias HeaderProvider = @Sendable (_ unauthorized: Bool) async throws -> [String: String]

/// What a `HeaderProvider` throws when it has no headers to give; `detail` reaches the app's error.
public struct HeaderProviderFailure: Error {
    public let detail: String
    public init(_ detail: String) { self.detail = detail }
}

/// The layer's `HeaderProvider` as the core's foreign interface.
final class HeaderProviderAdapter: RequestHeaderProvider {
    private let provider: HeaderProvider
    init(_ provider: @escaping HeaderProvider) { self.provider = provider }

    func headers(reason: HeaderReason) async throws -> [Header] {
        var unauthorized = false
        if case .unauthorized = reason { unauthorized = true }
        do {
            return try await provider(unauthorized).map { Header(name: $0.key, value: $0.value) }
        } catch let failure as HeaderProviderFailure {
            throw HeaderProviderError.Failed(detail: failure.detail)
        } catch let error as HeaderProviderError {
            throw error
        } catch {
            // The core reports a generic text: the error may hold app internals.
            throw HeaderProviderError.Unexpected(detail: String(describing: error))
        }
    }
}

#if canImport(Network)
/// Tells the core whether the device has a network, from NWPathMonitor (satisfied: online).
/// While offline, messages waiting for the agent and a dropped stream's resumption hold their
/// attempts; when a path is back they go at once. Stops when released.
final class ConnectivityWatcher {
    private let monitor = NWPathMonitor()

    init(report: @escaping @Sendable (Bool) -> Void) {
        monitor.pathUpdateHandler = { path in report(path.status == .satisfied) }
        monitor.start(queue: DispatchQueue(label: "dev.agentui.connectivity"))
    }

    deinit {
        monitor.cancel()
    }
}
#endif
