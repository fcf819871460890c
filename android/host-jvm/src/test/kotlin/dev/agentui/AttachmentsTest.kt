package dev.agentui

import dev.agentui.core.ConversationException
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.io.TempDir
import java.io.File
import java.net.ServerSocket
import java.util.concurrent.TimeUnit
import kotlin.test.assertContentEquals
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertNotNull
import kotlin.test.assertTrue

/**
 * Attachments through the real bindings and the demo agent, which answers a message with
 * attachments with each part's decoded length and FNV-1a hash: the bytes the app attached are
 * the bytes the agent decoded. And the image the demo agent's "picture" scenario returns is a
 * media part of the chat, after a restart too.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AttachmentsTest {
    @TempDir
    lateinit var dir: File
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()
    private val storeFile get() = File(dir, "conversations.db")

    private fun photo(size: Int) = ByteArray(size) { (it * 31 % 256).toByte() }

    @Test
    fun `the agent decodes the bytes attached from memory and from a file`(): Unit = runBlocking {
        val photo = photo(1_000_003)
        val pdf = File(dir, "report.pdf").apply { writeBytes(photo(70_001)) }
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
            conversation.send(
                "what are these?",
                listOf(Attachment.bytes("photo.png", "image/png", photo), Attachment.file(pdf, "application/pdf")),
            )
            val answer = conversation.messages.value.lastAssistantText()
            assertTrue(answer.contains("image image/png photo.png bytes=1000003 fnv=${Fixtures.fnv1a64(photo)}"), answer)
            assertTrue(answer.contains("document application/pdf report.pdf bytes=70001 fnv=${Fixtures.fnv1a64(pdf.readBytes())}"), answer)
            val user = conversation.messages.value.first { it.role == Role.USER }
            assertEquals("what are these?", user.text)
            assertEquals(listOf(MediaKind.IMAGE, MediaKind.DOCUMENT), user.media.map { it.kind })
            assertEquals(listOf("photo.png", "report.pdf"), user.media.map { it.name })
            // The core holds the photo; the chat item has its length, and the bytes come on demand.
            assertEquals(1_000_003L, user.media[0].heldBytes)
            assertEquals(null, user.media[0].base64)
            assertContentEquals(photo, conversation.mediaBytes(user.media[0]))
        }
    }

    @Test
    fun `a refused attachment is named and nothing is sent`(): Unit = runBlocking {
        val options = AgentOptions { memoryBudget = MemoryBudget { maxAttachmentBytes = 1000 } }
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), options = options, dispatcher = main.dispatcher).use { conversation ->
            val tooLarge = assertFailsWith<ConversationException.AttachmentRefused> {
                conversation.send("x", listOf(Attachment.bytes("ok.png", "image/png", photo(10)), Attachment.bytes("big.png", "image/png", photo(1001))))
            }
            assertEquals("big.png", tooLarge.name)
            assertEquals(AttachmentRefusal.TOO_LARGE, tooLarge.reason)
            val type = assertFailsWith<ConversationException.AttachmentRefused> {
                conversation.send("x", listOf(Attachment.bytes("a.zip", "application/zip", photo(10))))
            }
            assertEquals(AttachmentRefusal.TYPE_NOT_ALLOWED, type.reason)
            val missing = assertFailsWith<ConversationException.AttachmentRefused> {
                conversation.send("x", listOf(Attachment.file(File(dir, "gone.png"), "image/png")))
            }
            assertEquals(AttachmentRefusal.UNREADABLE, missing.reason)
            assertEquals("gone.png", missing.name)
            assertTrue(conversation.messages.value.isEmpty(), "nothing joined the conversation")
            assertTrue(conversation.pendingSends.value.isEmpty(), "nothing waits")
        }
    }

    @Test
    fun `an image the agent returns is in the chat and comes back after a restart`(): Unit = runBlocking {
        val url = Fixtures.agent.agentUrl() + "/picture"
        val png = byteArrayOf(0x89.toByte(), 'P'.code.toByte(), 'N'.code.toByte(), 'G'.code.toByte())
        fun imageOf(messages: List<ChatMessage>) = messages.flatMap { it.media }.single { it.kind == MediaKind.IMAGE }
        val before = AgentRuntime(storeFile).use { runtime ->
            runtime.connect(url, options = AgentOptions { threadId = "picture" }, dispatcher = main.dispatcher).use { conversation ->
                conversation.send("draw")
                val messages = conversation.messages.value
                val image = imageOf(messages)
                assertEquals("image/png", image.mimeType)
                assertEquals("gradient.png", image.name)
                assertContentEquals(png, image.bytes()!!.copyOfRange(0, 4))
                assertEquals(Role.TOOL, messages.single { it.media.isNotEmpty() }.role)
                messages
            }
        }
        AgentRuntime(storeFile).use { runtime ->
            runtime.resume("picture", url, dispatcher = main.dispatcher).use { conversation ->
                val messages = conversation.messages.awaitValue { it.size == before.size }
                assertEquals(before, messages)
                assertEquals(166, imageOf(messages).bytes()!!.size)
            }
        }
    }

    @Test
    fun `a photo sent offline waits across runtimes and is delivered once, intact`(): Unit = runBlocking {
        val unreachable = ServerSocket(0).use { "http://127.0.0.1:${it.localPort}/agent" }
        val photo = photo(300_001)
        AgentRuntime(storeFile).use { runtime ->
            runtime.connect(unreachable, options = AgentOptions { threadId = "offline" }, dispatcher = main.dispatcher).use { conversation ->
                assertFailsWith<ConversationException.Network> {
                    conversation.send("from the train", listOf(Attachment.bytes("train.png", "image/png", photo)))
                }
                conversation.pendingSends.awaitValue { it.size == 1 }
            }
        }
        AgentRuntime(storeFile).use { runtime ->
            runtime.resume("offline", Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
                conversation.pendingSends.awaitValue { it.size == 1 }
                assertNotNull(conversation.retryPending())
                val messages = conversation.messages.value
                assertEquals(listOf(Role.USER, Role.ASSISTANT), messages.map { it.role }, "delivered once")
                assertContentEquals(photo, conversation.mediaBytes(messages[0].media.single()))
                val answer = messages.lastAssistantText()
                assertTrue(answer.contains("image image/png train.png bytes=300001 fnv=${Fixtures.fnv1a64(photo)}"), answer)
            }
        }
    }
}
