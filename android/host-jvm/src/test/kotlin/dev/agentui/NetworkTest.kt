package dev.agentui

import dev.agentui.core.ConversationException
import dev.agentui.core.demo.demoDpopNonce
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.Timeout
import java.net.ServerSocket
import java.util.Collections
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertIs
import kotlin.test.assertTrue

/**
 * Issue 26 through the Kotlin layer: a `suspend` header provider asked before each request,
 * its failure typed, and `setOnline` holding the outbox's retries while offline.
 */
@Timeout(60, unit = TimeUnit.SECONDS)
class NetworkTest {
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    @Test
    fun `the header provider is asked off the main thread before each request`(): Unit = runBlocking {
        val asked = Collections.synchronizedList(mutableListOf<Pair<Boolean, String>>())
        val provider = HeaderProvider { challenge ->
            asked.add((challenge != null) to Thread.currentThread().name)
            delay(10) // a suspending token refresh
            mapOf("Authorization" to "Bearer s3cret")
        }
        AgentRuntime().use { runtime ->
            runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher, headerProvider = provider).use { conversation ->
                for (text in listOf("hello", "again")) {
                    val summary = withTimeout(WAIT_MS) { conversation.send(text) }
                    assertIs<RunPhase.Finished>(summary.phase)
                }
            }
        }
        assertEquals(listOf(false, false), asked.map { it.first })
        assertTrue(asked.none { it.second == main.name }, "never on the main thread: $asked")
    }

    @Test
    fun `after a 401 the provider is given its challenge and its fresh headers are sent`(): Unit = runBlocking {
        val asked = Collections.synchronizedList(mutableListOf<AuthChallenge?>())
        // A stand-in DPoP proof: the nonce the agent asked for, when the provider was given one.
        val signer = HeaderProvider { challenge ->
            asked.add(challenge)
            mapOf("DPoP" to "proof-for-${challenge?.dpopNonce}")
        }
        val url = Fixtures.agent.url() + "/dpop/agent"
        AgentRuntime().use { runtime ->
            runtime.connect(url, dispatcher = main.dispatcher, headerProvider = signer).use { conversation ->
                val summary = withTimeout(WAIT_MS) { conversation.send("hello") }
                assertIs<RunPhase.Finished>(summary.phase)
            }
        }
        val challenge = """DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""""
        assertEquals(listOf(null, AuthChallenge(listOf(challenge), demoDpopNonce())), asked.toList())
    }

    @Test
    fun `a provider that fails fails the send with HeaderProvider`(): Unit = runBlocking {
        val signedOut = HeaderProvider { throw HeaderProviderFailure("signed out") }
        AgentRuntime().use { runtime ->
            runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher, headerProvider = signedOut).use { conversation ->
                val error = assertFailsWith<ConversationException.HeaderProvider> { conversation.send("hello") }
                assertEquals("signed out", error.detail)
            }
        }
        val crashing = HeaderProvider { error("token store corrupted at /data/secret") }
        AgentRuntime().use { runtime ->
            runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher, headerProvider = crashing).use { conversation ->
                val error = assertFailsWith<ConversationException.HeaderProvider> { conversation.send("hello") }
                assertTrue("/data/secret" !in error.detail, "an unexpected exception's text stays out: ${error.detail}")
            }
        }
    }

    @Test
    fun `offline the waiting message holds its retries and goes at once when back online`(): Unit = runBlocking {
        val unreachable = ServerSocket(0).use { "http://127.0.0.1:${it.localPort}/agent" }
        AgentRuntime().use { runtime ->
            runtime.connect(unreachable, dispatcher = main.dispatcher).use { conversation ->
                runtime.setOnline(false)
                assertFailsWith<ConversationException.Network> { conversation.send("from the tunnel") }
                conversation.pendingSends.awaitValue { it.singleOrNull()?.attempts == 1 }
                // Online, the conversation would have tried again after 1 s and 3 s.
                delay(3_500)
                assertEquals(1, conversation.pendingSends.value.single().attempts, "no attempt spent offline")
                val back = System.nanoTime()
                runtime.setOnline(true)
                conversation.pendingSends.awaitValue { it.singleOrNull()?.attempts == 2 }
                val ms = (System.nanoTime() - back) / 1_000_000
                assertTrue(ms < 900, "at once, not at the next retry: $ms ms")
            }
        }
    }
}
