package dev.agentui

import dev.agentui.core.Header
import dev.agentui.core.HeaderProviderException
import dev.agentui.core.RequestHeaderProvider
import dev.agentui.core.agui.HeaderReason
import kotlin.coroutines.cancellation.CancellationException

/**
 * Gives the headers of each request to the agent: credentials that expire while a
 * conversation lives. Called off the main thread before every request (a message, a retry of
 * a waiting one, a resumed stream), with [challenge] null. When the agent answered 401 to the
 * headers given last it is called again with that 401's [AuthChallenge]: return fresh headers
 * (the request is sent once more) or throw. A second 401 fails the call with
 * `ConversationException.Unauthorized` (sign the user in again).
 *
 * Throw [HeaderProviderFailure] when there are no headers to give (signed out): the call fails
 * with `ConversationException.HeaderProvider` carrying its message. Any other exception fails
 * it too, without its text. An answer later than 10 s fails the call and cancels this
 * coroutine. Its headers go over the fixed ones given to `connect`; values are never logged.
 */
public fun interface HeaderProvider {
    public suspend fun headers(challenge: AuthChallenge?): Map<String, String>
}

/**
 * What the agent said with its 401: the values of its `WWW-Authenticate` headers in order (at
 * most 8, each at most 2 KiB; longer ones are left out), e.g. `DPoP error="use_dpop_nonce"` or
 * `Bearer error="insufficient_scope", scope="..."`, and its `DPoP-Nonce` (RFC 9449) when it
 * sent a well-formed one. The agent's text: parse it as untrusted input.
 */
public data class AuthChallenge(val wwwAuthenticate: List<String>, val dpopNonce: String?)

/**
 * A header provider failure whose [message] reaches the app in
 * `ConversationException.HeaderProvider`; it must not hold a credential.
 */
public class HeaderProviderFailure(message: String) : Exception(message)

/** The layer's [HeaderProvider] as the core's foreign interface. */
/** The core's provider asking [provider]; a private class, so the core's interface stays out of the API. */
internal fun nativeHeaderProvider(provider: HeaderProvider): RequestHeaderProvider = NativeHeaderProvider(provider)

private class NativeHeaderProvider(private val provider: HeaderProvider) : RequestHeaderProvider {
    override suspend fun headers(reason: HeaderReason): List<Header> {
        val challenge = when (reason) {
            is HeaderReason.Request -> null
            is HeaderReason.Unauthorized -> AuthChallenge(reason.challenges, reason.dpopNonce)
        }
        val headers = try {
            provider.headers(challenge)
        } catch (e: CancellationException) {
            throw e
        } catch (e: HeaderProviderFailure) {
            throw HeaderProviderException.Failed(e.message ?: "the header provider failed")
        } catch (e: HeaderProviderException) {
            throw e
        } catch (e: Exception) {
            // The core reports a generic text: the exception may hold app internals.
            throw HeaderProviderException.Unexpected(e.toString())
        }
        return headers.map { (name, value) -> Header(name, value) }
    }
}
