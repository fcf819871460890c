// The app's side of the network (issue 26): request headers given per request, and the
// device's connectivity. Thin: the core asks, retries and waits.

import Foundation
import AgentUICore
#if canImport(Network)
import Network
#endif

/// Gives the headers of each request to the agent: credentials that expire while a conversation
/// lives. Called off the main actor before every request (a message, a retry of a waiting one, a
/// resumed stream), with `challenge` nil. When the agent answered 401 to the headers given last
/// it is called again with that 401's `AuthChallenge`: return fresh headers (the request is sent
/// once more) or throw. A second 401 fails the call with `ConversationError.Unauthorized` (sign
/// the user in again).
///
/// Throw `HeaderProviderFailure(detail)` when there are no headers to give (signed out): the
/// call fails with `ConversationError.HeaderProvider(detail)`. Any other error fails it too,
/// without its text. An answer later than 10 s fails the call and cancels this task. Its headers
/// go over the fixed ones given to `connect`; values are never logged.
public typealias HeaderProvider = @Sendable (_ challenge: AuthChallenge?) async throws -> [String: String]

/// What the agent said with its 401: the values of its `WWW-Authenticate` headers in order (at
/// most 8, each at most 2 KiB; longer ones are left out), e.g. `DPoP error="use_dpop_nonce"` or
/// `Bearer error="insufficient_scope", scope="..."`, and its `DPoP-Nonce` (RFC 9449) when it
/// sent a well-formed one. The agent's text: parse it as untrusted input.
public struct AuthChallenge: Sendable, Equatable {
    public let wwwAuthenticate: [String]
    public let dpopNonce: String?

    public init(wwwAuthenticate: [String], dpopNonce: String?) {
        self.wwwAuthenticate = wwwAuthenticate
        self.dpopNonce = dpopNonce
    }
}

/// What a `HeaderProvider` throws when it has no headers to give; `detail` reaches the app's
/// error and must not hold a credential.
public struct HeaderProviderFailure: Error {
    public let detail: String
    public init(_ detail: String) { self.detail = detail }
}

/// The layer's `HeaderProvider` as the core's foreign interface.
final class HeaderProviderAdapter: RequestHeaderProvider {
    private let provider: HeaderProvider
    init(_ provider: @escaping HeaderProvider) { self.provider = provider }

    func headers(reason: HeaderReason) async throws -> [Header] {
        var challenge: AuthChallenge?
        if case let .unauthorized(challenges, dpopNonce) = reason {
            challenge = AuthChallenge(wwwAuthenticate: challenges, dpopNonce: dpopNonce)
        }
        do {
            return try await provider(challenge).map { Header(name: $0.key, value: $0.value) }
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
