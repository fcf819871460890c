package dev.agentui

import dev.agentui.core.ConversationException
import dev.agentui.core.runtime.StoreException
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.io.TempDir
import java.io.File
import java.net.ServerSocket
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertFalse
import kotlin.test.assertIs
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

/**
 * Conversations kept in a store file, through the real bindings: each "process" is a new
 * [AgentRuntime] on the same file, as after process death (a real SIGKILL is in
 * [ProcessDeathTest]).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConversationStoreTest {
    @TempDir
    lateinit var dir: File
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()
    private val storeFile get() = File(dir, "conversations.db")

    @Test
    fun `a conversation written through one runtime comes back through a new one with its surface input`(): Unit = runBlocking {
        val url = Fixtures.agent.agentUrl()
        val before = AgentRuntime(storeFile).use { runtime ->
            runtime.connect(url, options = AgentOptions { threadId = "restore" }, dispatcher = main.dispatcher).use { conversation ->
                conversation.send("counter")
                conversation.send("book a table")
                conversation.probe("booking", main.dispatcher).use { surface ->
                    // Typed, never sent: the store keeps the user's unsent input.
                    conversation.setValue("booking", "/booking/name", "Ada")
                    surface.await { it.node("name")?.prop("value")?.textOrNull == "Ada" }
                }
                Triple(conversation.messages.value, conversation.stateJson.value, conversation.toolCalls.value)
            }
        }

        AgentRuntime(storeFile).use { runtime ->
            assertTrue(runtime.isPersistent)
            runtime.resume("restore", url, dispatcher = main.dispatcher).use { conversation ->
                val messages = conversation.messages.awaitValue { it.size == before.first.size }
                assertEquals(before.first, messages)
                assertEquals(before.second, conversation.stateJson.awaitValue { it == before.second })
                assertTrue(before.second.contains("\"counter\":3"), before.second)
                assertEquals(before.third, conversation.toolCalls.value)
                // Published after the messages, on the main thread: awaited like the state above.
                assertEquals(listOf("booking"), conversation.surfaces.awaitValue { it.isNotEmpty() }.map { it.id })
                assertIs<RunPhase.Finished>(conversation.phase.value)
                assertTrue(conversation.pendingSends.value.isEmpty())
                conversation.probe("booking", main.dispatcher).use { surface ->
                    surface.await { it.node("name")?.prop("value")?.textOrNull == "Ada" }
                }
                // It goes on where it stopped.
                conversation.send("hello")
                assertEquals(before.first.size + 2, conversation.messages.value.size)
            }
        }
    }

    @Test
    fun `a run open when its runtime stopped comes back abandoned and the user can send again`(): Unit = runBlocking {
        val url = Fixtures.agent.agentUrl()
        AgentRuntime(storeFile).use { first ->
            first.connect(url, options = AgentOptions { threadId = "open-run" }, dispatcher = main.dispatcher).use { streaming ->
                streaming.sendAsync("slow")
                streaming.messages.awaitValue { it.lastAssistantText().contains("Slow token 2.") }
                // A second runtime reads the file while the first is mid-run, as a new process
                // would after a kill.
                AgentRuntime(storeFile).use { second ->
                    second.resume("open-run", url, dispatcher = main.dispatcher).use { restored ->
                        val phase = restored.phase.awaitValue { it !is RunPhase.Idle }
                        assertIs<RunPhase.Abandoned>(phase)
                        assertNotNull(phase.runId)
                        assertTrue(phase.hasEnded)
                        val messages = restored.messages.value
                        assertEquals(listOf(Role.USER, Role.ASSISTANT), messages.map { it.role })
                        assertTrue(messages.lastAssistantText().startsWith("Slow token 1."), messages.lastAssistantText())
                        streaming.close()
                        assertIs<RunPhase.Finished>(restored.send("hello").phase)
                        assertTrue(restored.messages.value.lastAssistantText().startsWith("Hello!"))
                    }
                }
            }
        }
    }

    @Test
    fun `conversations page newest first, fork copies, delete is idempotent`(): Unit = runBlocking {
        val url = Fixtures.agent.agentUrl()
        AgentRuntime(storeFile).use { runtime ->
            for (thread in listOf("a", "b", "c")) {
                runtime.connect(url, options = AgentOptions { threadId = thread }, dispatcher = main.dispatcher).use {
                    it.send("hello $thread")
                }
                delay(5) // distinct write times: the order is the writing order
            }
            val first = runtime.conversations(limit = 2)
            assertEquals(listOf("c", "b"), first.conversations.map { it.threadId })
            val c = first.conversations[0]
            assertEquals("hello c", c.title)
            assertEquals(2L, c.messageCount)
            assertEquals(url, c.agentUrl)
            assertEquals(0, c.pendingSends)
            assertIs<RunPhase.Finished>(c.phase)
            assertTrue(c.updatedAtMs >= c.createdAtMs && c.createdAtMs > 0)
            val rest = runtime.conversations(limit = 2, cursor = assertNotNull(first.nextCursor))
            assertEquals(listOf("a"), rest.conversations.map { it.threadId })
            assertNull(rest.nextCursor)

            val copy = runtime.fork("a")
            assertTrue(copy != "a")
            assertEquals("a-copy", runtime.fork("a", "a-copy"))
            assertFailsWith<StoreException.Exists> { runtime.fork("a", "b") }
            assertFailsWith<StoreException.NotFound> { runtime.fork("nope") }
            runtime.resume(copy, url, dispatcher = main.dispatcher).use { forked ->
                val texts = forked.messages.awaitValue { it.size == 2 }.map { it.text }
                assertEquals("hello a", texts[0])
                // The copy goes its own way; the source is untouched.
                forked.send("hello again")
            }
            val listed = runtime.conversations(limit = 10).conversations.associateBy { it.threadId }
            assertEquals(4L, listed.getValue(copy).messageCount)
            assertEquals(2L, listed.getValue("a").messageCount)

            assertTrue(runtime.delete("a"))
            assertFalse(runtime.delete("a"), "deleting twice is fine")
            assertEquals(setOf("b", "c", copy, "a-copy"), runtime.conversations(limit = 10).conversations.map { it.threadId }.toSet())
        }
        AgentRuntime().use { memory ->
            assertFalse(memory.isPersistent)
            assertFailsWith<IllegalStateException> { memory.conversations() }
        }
        assertFailsWith<StoreException.Sqlite> { AgentRuntime(File(dir, "missing/dir/x.db")) }
    }

    @Test
    fun `a message the agent could not receive waits across runtimes and retryPending delivers it once`(): Unit = runBlocking {
        val unreachable = ServerSocket(0).use { "http://127.0.0.1:${it.localPort}/agent" }
        AgentRuntime(storeFile).use { runtime ->
            runtime.connect(unreachable, options = AgentOptions { threadId = "offline" }, dispatcher = main.dispatcher).use { conversation ->
                assertFailsWith<ConversationException.Network> { conversation.send("hello, anyone?") }
                // Every message waits here while its request is under way (attempts 0); this one stays.
                val pending = conversation.pendingSends.awaitValue { (it.singleOrNull()?.attempts ?: 0) >= 1 }.single()
                assertEquals("hello, anyone?", (pending.kind as PendingSendKind.Message).text)
                assertNotNull(pending.lastError)
                val message = conversation.messages.value.single()
                assertTrue(message.isPending, "the bubble shows it as waiting (published before pendingSends)")
                assertEquals((pending.kind as PendingSendKind.Message).messageId, message.id)
            }
            assertEquals(1, runtime.conversations().conversations.single().pendingSends)
        }

        // The app comes back and the agent is reachable.
        AgentRuntime(storeFile).use { runtime ->
            runtime.resume("offline", Fixtures.agent.agentUrl(), dispatcher = main.dispatcher).use { conversation ->
                conversation.pendingSends.awaitValue { it.size == 1 }
                assertTrue(conversation.messages.value.single().isPending)
                val result = assertNotNull(conversation.retryPending(), "delivered by this call")
                assertIs<RunPhase.Finished>(result.phase)
                assertTrue(conversation.pendingSends.value.isEmpty())
                val messages = conversation.messages.value
                assertEquals(listOf(Role.USER, Role.ASSISTANT), messages.map { it.role }, "the message is in the conversation once")
                assertFalse(messages[0].isPending)
                assertTrue(messages.lastAssistantText().startsWith("Hello!"), messages.lastAssistantText())
                assertNull(conversation.retryPending(), "nothing waits any more")
            }
            assertEquals(0, runtime.conversations().conversations.single().pendingSends)
        }
    }

    @Test
    fun `discardPending drops a waiting message and its stored row`(): Unit = runBlocking {
        val unreachable = ServerSocket(0).use { "http://127.0.0.1:${it.localPort}/agent" }
        AgentRuntime(storeFile).use { runtime ->
            runtime.connect(unreachable, options = AgentOptions { threadId = "discard" }, dispatcher = main.dispatcher).use { conversation ->
                assertFailsWith<ConversationException.Network> { conversation.send("never mind") }
                val pending = conversation.pendingSends.awaitValue { (it.singleOrNull()?.attempts ?: 0) >= 1 }.single()
                assertEquals(PendingReason.UNREACHED, pending.reason, "unreachable: retried on its own")
                assertEquals(1, runtime.conversations().conversations.single().pendingSends)

                assertTrue(conversation.discardPending(pending.key))
                conversation.pendingSends.awaitValue { it.isEmpty() }
                assertFalse(conversation.discardPending(pending.key), "nothing waits under it any more")
                assertFalse(conversation.discardPending("no-such-key"))
                val message = conversation.messages.value.single()
                assertEquals("never mind", message.text, "a message already in the conversation stays")
                assertFalse(message.isPending)
            }
            assertEquals(0, runtime.conversations().conversations.single().pendingSends, "the stored row is gone")
        }
    }
}
