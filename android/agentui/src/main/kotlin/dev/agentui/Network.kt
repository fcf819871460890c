package dev.agentui

import dev.agentui.core.Header
import dev.agentui.core.RequestHeaderProvider
import dev.agentui.core.agui.HeaderReason

/**
 * Gives the headers of each request to the agent: credentials that expire while a
 * conversation lives. Called off the main thread before every request (a message, a retry of
 * a waiting one, a resumed stream). [unauthorized] is true when the agent answered 401 to the
 * headers given last: return fresh ones (the request is sent once more) or throw. A second
 * 401 fails the call with `ConversationException.Unauthorized` (sign the user in again).
 *
 * Throw `HeaderProviderException.Failed(detail)` when there are no headers to give (signed
 * out): the call fails with `ConversationException.HeaderProvider(detail)`. Any other exception
 * fails it too, without its text. An answer later than 10 s fails the call and cancels this
 * coroutine. Its headers go over the fixed ones given to `connect`; values are never logged.
 */
fun interface HeaderProvider {
    suspend fun headers(unauthorized: Boolean): Map<String, String>
}

/** The layer's [HeaderProvider] as the core's foreign interface. */
internal class NativeHeaderProvider(private val provider: HeaderProvider) : RequestHeaderProvider {
    override suspend fun headers(reason: HeaderReason): List<Header> =
        provider.headers(unauthorized = reason is HeaderReason.Unauthorized).map { (name, value) -> Header(name, value) }
}
