package dev.agentui

import dev.agentui.core.ConversationException
import dev.agentui.core.demo.TlsDemoAgentHandle
import dev.agentui.core.demo.startTlsDemoAgent
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.api.Timeout
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertIs

/**
 * TLS trust through the Kotlin layer: the demo agent behind HTTPS with a certificate from a CA
 * made for the test, which no trust store knows. On the host the platform verifier is the
 * system store (no Context needed); AndroidTls is Android-only and not compiled here.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsTrustTest {
    // Fixtures first: it installs NativeThreads before anything loads the bindings.
    private val agent: TlsDemoAgentHandle by lazy { Fixtures.runtime; startTlsDemoAgent() }
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    @AfterAll
    fun stopAgent() {
        agent.stop()
    }

    private fun connect(options: AgentOptions) =
        Fixtures.runtime.connect(agent.agentUrl(), options = options, dispatcher = main.dispatcher)

    @Test
    fun `the test CA given as an extra root is trusted`(): Unit = runBlocking {
        connect(AgentOptions { extraRootsPem = listOf(agent.caPem()) }).use { conversation ->
            val summary = conversation.send("hello")
            assertIs<RunPhase.Finished>(summary.phase)
            // send() returns before the flow's last hop to the main dispatcher: wait for it.
            // (awaitValue fails the test if the greeting never arrives.)
            conversation.messages.awaitValue { it.lastAssistantText().startsWith("Hello!") }
        }
    }

    @Test
    fun `without the extra root the certificate is refused with a typed exception`(): Unit = runBlocking {
        for (store in listOf(null, TrustStore.PLATFORM, TrustStore.WEBPKI_ROOTS)) {
            connect(AgentOptions { trustStore = store }).use { conversation ->
                val error = assertFailsWith<ConversationException.Certificate> { conversation.send("hello") }
                assertEquals(CertificateRejection.UNKNOWN_ISSUER, error.kind, "store $store: $error")
                assertIs<RunPhase.Failed>(conversation.phase.awaitValue { it is RunPhase.Failed })
            }
        }
    }

    @Test
    fun `a pin that does not match is refused and a malformed one is invalid options`(): Unit = runBlocking {
        val wrongPin = "sha256/" + "A".repeat(43) + "="
        connect(AgentOptions { extraRootsPem = listOf(agent.caPem()); certificatePins = listOf(wrongPin) }).use {
            val error = assertFailsWith<ConversationException.Certificate> { it.send("hello") }
            assertEquals(CertificateRejection.PIN_MISMATCH, error.kind)
        }
        assertFailsWith<ConversationException.InvalidOptions> {
            connect(AgentOptions { certificatePins = listOf("md5/nope") })
        }
    }
}
