package dev.agentui

import dev.agentui.core.ConversationException
import dev.agentui.core.json.NodeValue
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.Timeout
import java.util.Collections
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import kotlin.coroutines.EmptyCoroutineContext
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertIs
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** The Kotlin layer against the in-process demo agent, through the real bindings and JNA. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AgentConversationTest {
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    private fun connect(url: String = Fixtures.agent.agentUrl(), options: AgentOptions = AgentOptions()) =
        Fixtures.runtime.connect(url, options = options, dispatcher = main.dispatcher)

    @Test
    fun `streamed text updates the messages flow several times`(): Unit = runBlocking {
        connect(Fixtures.pacedAgent.agentUrl()).use { conversation ->
            val seen = Collections.synchronizedList(mutableListOf<String>())
            // Unconfined: the collector runs on whichever thread set the value, so it sees
            // every publication instead of only the latest one.
            val collector = launch(Dispatchers.Unconfined) {
                conversation.messages.collect { messages -> seen += messages.lastAssistantText() }
            }
            val summary = conversation.send("hello")
            assertIs<RunPhase.Finished>(summary.phase)
            // send() returns once the flows show the run's end: no waiting needed.
            val final = conversation.messages.value
            assertTrue(final.lastAssistantText().endsWith("emoji 🎉."), final.lastAssistantText())
            assertIs<RunPhase.Finished>(conversation.phase.value)
            collector.cancel()

            val assistantValues = seen.filter { it.isNotEmpty() }.distinct()
            assertTrue(
                assistantValues.size >= 3,
                "expected the text to grow in steps, saw $assistantValues (whole-state batches: ${conversation.snapshotsApplied})",
            )
            assertTrue(assistantValues.zipWithNext().all { (a, b) -> b.startsWith(a) }, "text only grows: $assistantValues")
            assertTrue(final.lastAssistantText().startsWith("Hello! I am the demo agent"))
            assertTrue(final.lastAssistantText().contains("日本語"), "non-ASCII survives the bindings")
            assertEquals(listOf(Role.USER, Role.ASSISTANT), final.map { it.role })
            assertIs<RunPhase.Finished>(conversation.phase.awaitValue { it is RunPhase.Finished })
        }
    }

    @Test
    fun `a Kotlin client tool's result is quoted back by the agent`(): Unit = runBlocking {
        connect().use { conversation ->
            val arguments = CompletableDeferred<String>()
            conversation.registerTool(
                "get_location",
                "The user's current city",
                """{"type":"object","properties":{"precision":{"type":"string"}}}""",
            ) { argumentsJson ->
                arguments.complete(argumentsJson)
                delay(20) // a real suspend point inside the tool
                "Lisbon, Portugal"
            }
            val summary = conversation.send("where am I? use my location")

            assertTrue(arguments.await().contains("\"precision\""), "arguments reach Kotlin: ${arguments.await()}")
            assertEquals(1, summary.toolCalls.size)
            val report = summary.toolCalls.single()
            assertEquals("get_location", report.toolName)
            assertEquals(ToolCallPhase.Succeeded("Lisbon, Portugal"), report.phase)

            val messages = conversation.messages.awaitValue { it.assistantTexts().contains("Your location according to the app: Lisbon, Portugal") }
            assertTrue(
                messages.assistantTexts().contains("Your location according to the app: Lisbon, Portugal"),
                messages.assistantTexts(),
            )
            val calls = conversation.toolCalls.awaitValue { calls -> calls.any { it.phase is ToolCallPhase.Succeeded } }
            assertEquals(listOf("get_location"), calls.map { it.toolName })
            assertEquals(report, conversation.toolCall(report.toolCallId), "toolCall(id) finds the call the summary reports")
            assertNull(conversation.toolCall("no-such-call"))
            // The result went back as a tool message (lesson 1: the run continued from it).
            assertTrue(messages.any { it.role == Role.TOOL && it.toolCallId == report.toolCallId })
        }
    }

    @Test
    fun `a failing Kotlin tool reports its failure to the agent`(): Unit = runBlocking {
        connect().use { conversation ->
            conversation.registerTool("get_location", "The user's current city", """{"type":"object"}""") {
                throw ClientToolFailure("location permission denied")
            }
            val summary = conversation.send("my location please")
            val status = summary.toolCalls.single().phase
            assertIs<ToolCallPhase.Failed>(status)
            // The core's failure, as Swift sees it too, and the text the agent read.
            assertEquals(ToolFailure.Failed("location permission denied"), status.failure)
            assertEquals("the tool failed: location permission denied", status.detail)
            val messages = conversation.messages.awaitValue { it.assistantTexts().contains("location permission denied") }
            assertTrue(messages.assistantTexts().contains("location permission denied"), messages.assistantTexts())
        }
    }

    @Test
    fun `parallel client tools are paired by call id`(): Unit = runBlocking {
        connect().use { conversation ->
            conversation.registerTool(
                "lookup_price",
                "Price of an item",
                """{"type":"object","properties":{"item":{"type":"string"}},"required":["item"]}""",
            ) { argumentsJson ->
                val item = Regex("\"item\"\\s*:\\s*\"(\\w+)\"").find(argumentsJson)!!.groupValues[1]
                // A answers last, so completion order differs from call order.
                if (item == "A") delay(150)
                "price of $item is ${if (item == "A") "3.50" else "4.20"} EUR"
            }
            val summary = conversation.send("compare prices")
            assertEquals(2, summary.toolCalls.size)
            val messages = conversation.messages.awaitValue { it.assistantTexts().contains("B -> price of B") }
            assertTrue(
                messages.assistantTexts().contains(
                    "A -> price of A is 3.50 EUR; B -> price of B is 4.20 EUR",
                ),
                messages.assistantTexts(),
            )
        }
    }

    @Test
    fun `the booking surface arrives as resolved nodes and the book action is answered`(): Unit = runBlocking {
        connect().use { conversation ->
            conversation.send("book a table")
            assertEquals(listOf("booking"), conversation.surfaces.value.map { it.id })
            assertEquals(conversation.surfaces.value.single(), conversation.surface("booking"))
            conversation.probe("booking", main.dispatcher).use { surface ->
                surface.await { it.root != null }
                assertEquals("Card", surface.root!!.componentType)
                assertEquals("TextField", surface.node("name")!!.componentType)
                assertEquals("DateTimeInput", surface.node("date")!!.componentType)
                assertEquals("ChoicePicker", surface.node("guests")!!.componentType)
                val book = surface.node("book")!!
                assertEquals("Button", book.componentType)
                assertFalse(book.enabled, "Book is disabled until a name and a date are set")
                assertEquals(
                    listOf("title", "name", "date", "guests", "book"),
                    surface.children(surface.node("form")!!).map { it.id },
                )
                assertEquals("Book a table", surface.node("title")!!.prop("text")?.textOrNull)

                // A subscriber gets a full Reset first.
                val first = withTimeout(WAIT_MS) { conversation.surfaceDiffs("booking").first() }
                assertIs<SurfaceDiff.Reset>(first)
                assertEquals("root", first.root)

                val before = surface.nodes.version
                val title = surface.node("title")
                conversation.setValue("booking", "/booking/name", "Ada")
                conversation.setValue("booking", "/booking/date", NodeValue.Text("2026-12-24"))
                conversation.setValue("booking", "/booking/guests", listOf("4"))

                surface.await { it.node("book")?.enabled == true }
                assertEquals("Ada", surface.node("name")!!.prop("value")?.textOrNull)
                assertTrue(surface.nodes.version > before)
                // Patches touch only the nodes they change: the title keeps its instance.
                assertTrue(title === surface.node("title"), "an untouched node is not replaced")

                val result = conversation.dispatchAction("booking", "book")
                assertIs<ActionResult.Ran>(result)
                assertTrue(
                    conversation.messages.value.assistantTexts().contains("Booked a table for 4 on 2026-12-24 under the name Ada."),
                    conversation.messages.value.assistantTexts(),
                )
                // The agent removes the form once the table is booked: gone from the list, empty Reset.
                assertNull(conversation.surface("booking"))
                surface.await { it.root == null && it.nodes.size == 0 }
            }
        }
    }

    @Test
    fun `a v1_0 surface calls an agent function and sends action metadata`(): Unit = runBlocking {
        connect().use { conversation ->
            conversation.send("I want to sign up")
            assertNotNull(conversation.surface("signup"))

            val answer = conversation.callAgentFunction(
                "signup",
                mapOf("call" to "checkEmail", "args" to mapOf("email" to "zoe@example.com")),
            )
            assertEquals(mapOf("email" to "zoe@example.com", "available" to true), answer)
            val failed = runCatching { conversation.callAgentFunction("signup", mapOf("call" to "nope")) }.exceptionOrNull()
            assertIs<ConversationException.AgentFunctionFailed>(failed, "got $failed")
            assertEquals("UNKNOWN_FUNCTION", failed.code)
            val silent = runCatching { conversation.callAgentFunction("signup", mapOf("call" to "silent")) }.exceptionOrNull()
            assertIs<ConversationException.AgentFunctionUnanswered>(silent, "got $silent")

            conversation.setValue("signup", "/email", "zoe@example.com")
            val result = conversation.dispatchAction("signup", "join", metadata = mapOf("client_audit" to mapOf("signature" to "abc")))
            assertIs<ActionResult.Ran>(result)
            assertEquals(
                "Signed up zoe@example.com for 2 newsletters a month. Metadata: {\"client_audit\":{\"signature\":\"abc\"}}",
                conversation.messages.value.lastAssistantText(),
            )

            // A v0.9 surface refuses both: the call and the metadata.
            conversation.send("book a table")
            val refused = runCatching { conversation.callAgentFunction("booking", mapOf("call" to "checkEmail")) }.exceptionOrNull()
            assertIs<ConversationException.A2ui>(refused, "got $refused")
            assertEquals("ACTION_REFUSED", refused.code)
        }
    }

    @Test
    fun `a disabled button refuses the action`(): Unit = runBlocking {
        connect().use { conversation ->
            conversation.send("book a table")
            assertNotNull(conversation.surface("booking"))
            val error = runCatching { conversation.dispatchAction("booking", "book") }.exceptionOrNull()
            assertIs<ConversationException.A2ui>(error, "got $error")
        }
    }

    @Test
    fun `an interrupt is resolved from Kotlin and the run continues`(): Unit = runBlocking {
        connect().use { conversation ->
            val summary = conversation.send("delete the report")
            assertIs<RunPhase.Interrupted>(summary.phase)
            val status = conversation.phase.awaitValue { it is RunPhase.Interrupted }
            assertIs<RunPhase.Interrupted>(status)
            val interrupt = conversation.interrupts.value.single()
            assertEquals("confirm_delete", interrupt.reason)
            assertEquals(interrupt.id, summary.pendingInterrupts.single().id)
            assertTrue(interrupt.responseSchemaJson.orEmpty().contains("\"approved\""), interrupt.responseSchemaJson)
            assertNull(interrupt.subagentRunId)
            assertTrue(status.hasEnded, "an interrupted run has ended")
            assertFalse(RunPhase.Running(summary.runIds.last()).hasEnded)

            conversation.resolveInterrupt(interrupt.id, """{"approved": true}""")
            val next = conversation.continueRun()
            assertIs<RunPhase.Finished>(next.phase)
            val messages = conversation.messages.awaitValue { it.assistantTexts().contains("Deleted report.pdf.") }
            assertTrue(messages.lastAssistantText().contains("Deleted report.pdf."), messages.assistantTexts())
            assertTrue(conversation.interrupts.value.isEmpty())
        }
    }

    @Test
    fun `cancel stops a slow run`(): Unit = runBlocking {
        connect().use { conversation ->
            val run = async { runCatching { conversation.send("slow please") } }
            conversation.messages.awaitValue { it.lastAssistantText().contains("Slow token 1.") }
            delay(300)
            val started = System.nanoTime()
            conversation.cancel()
            val outcome = withTimeout(5_000) { run.await() }
            val stopMs = (System.nanoTime() - started) / 1_000_000
            val error = outcome.exceptionOrNull()
            assertIs<ConversationException.Cancelled>(error, "got $outcome")
            assertIs<RunPhase.Cancelled>(conversation.phase.awaitValue { it is RunPhase.Cancelled })
            assertTrue(stopMs < 2_000, "cancel took $stopMs ms")
            val text = conversation.messages.value.lastAssistantText()
            assertFalse(text.contains("Slow token 50."), "the stream stopped early: $text")
        }
    }

    @Test
    fun `input typed during a run applies at once`(): Unit = runBlocking {
        connect().use { conversation ->
            conversation.send("book a table")
            conversation.probe("booking", main.dispatcher).use { surface ->
                surface.await { it.node("name") != null }
                val run = async { runCatching { conversation.send("slow please") } }
                conversation.messages.awaitValue { it.lastAssistantText().contains("Slow token 1.") }
                // Answered at once from the "UI thread", and applied although a run streams.
                conversation.setValue("booking", "/booking/name", "Ada")
                surface.await { it.node("name")?.prop("value")?.textOrNull == "Ada" }
                assertIs<RunPhase.Running>(conversation.phase.value, "the run still streams")
                // A write the engine refuses is an exception at once, never a later warning.
                assertTrue(runCatching { conversation.setValue("booking", "no-slash", "bad") }.isFailure)
                conversation.cancel()
                run.await()
            }
        }
    }

    @Test
    fun `cancelling the calling coroutine cancels the run`(): Unit = runBlocking {
        connect().use { conversation ->
            val job = launch { conversation.send("slow please") }
            conversation.messages.awaitValue { it.lastAssistantText().contains("Slow token 2.") }
            job.cancel()
            assertIs<RunPhase.Cancelled>(conversation.phase.awaitValue { it is RunPhase.Cancelled })
        }
    }

    @Test
    fun `an HTTP 500 from the agent is a Kotlin exception`(): Unit = runBlocking {
        connect("${Fixtures.agent.url()}/fault/http-500").use { conversation ->
            val error = runCatching { conversation.send("hello") }.exceptionOrNull()
            assertIs<ConversationException.HttpStatus>(error, "got $error")
            assertEquals(500.toUShort(), error.status)
            assertIs<RunPhase.Failed>(conversation.phase.awaitValue { it is RunPhase.Failed })
        }
    }

    @Test
    fun `a configured memory budget is applied - a small state budget fails the run with a typed error`(): Unit =
        runBlocking {
            // The demo's counter scenario sends {"counter": 0, "items": []}: about 330 bytes once
            // parsed, over a 200-byte state budget.
            val budget = MemoryBudget { maxStateBytes = 200 }
            connect(options = AgentOptions { memoryBudget = budget })
                .use { conversation ->
                    val error = runCatching { conversation.send("counter") }.exceptionOrNull()
                    assertIs<ConversationException.LimitExceeded>(error, "got $error")
                    assertTrue(error.detail.contains("state size"), error.detail)
                    assertIs<RunPhase.Failed>(conversation.phase.awaitValue { it is RunPhase.Failed })
                    assertEquals("{}", conversation.stateJson.value, "the refused snapshot changed nothing")
                }
            // The same scenario within the default budget (the phone defaults) applies the state.
            assertEquals(4_194_304L, MemoryBudget().maxStateBytes, "the core's default")
            connect(options = AgentOptions { memoryBudget = MemoryBudget() }).use { conversation ->
                conversation.send("counter")
                assertTrue(conversation.stateJson.value.contains("\"counter\":3"), conversation.stateJson.value)
                assertEquals(3.0, (conversation.state.value as Map<*, *>)["counter"])
            }
        }

    @Test
    fun `the app's options turn chat Markdown off and bound it through the memory budget`(): Unit = runBlocking {
        suspend fun answer(options: AgentOptions) = connect(options = options).use { conversation ->
            conversation.send("hello")
            conversation.messages.value.last { it.role == Role.ASSISTANT }
        }
        assertTrue(answer(AgentOptions()).markdown != null, "on by default")
        assertEquals(null, answer(AgentOptions { chatMarkdown = false }).markdown, "off: no tree")
        val bounded = answer(AgentOptions { memoryBudget = MemoryBudget { maxMarkdownNodes = 0 } }).markdown!!
        val block = bounded.blocks.single()
        assertIs<dev.agentui.core.markdown.MdBlock.PlainText>(block)
        assertEquals(dev.agentui.core.markdown.PlainReason.TOO_MANY_NODES, block.reason)
    }

    @Test
    fun `an agent error is a Kotlin exception`(): Unit = runBlocking {
        connect().use { conversation ->
            val error = runCatching { conversation.send("please fail") }.exceptionOrNull()
            assertIs<ConversationException.Agent>(error, "got $error")
            assertIs<RunPhase.AgentError>(conversation.phase.awaitValue { it is RunPhase.AgentError })
        }
    }

    @Test
    fun `native callbacks on Rust threads reach the collector on the injected dispatcher`(): Unit = runBlocking {
        val testThread = Thread.currentThread().name.substringBefore(" @")
        connect(Fixtures.pacedAgent.agentUrl()).use { conversation ->
            val nativeThreads = Collections.synchronizedSet(mutableSetOf<String>())
            // A view of our own on the generated object, pulled unconfined: each pull resumes on
            // the Rust thread that completed it, which it records.
            val view = conversation.native.subscribeView()
            val puller = launch(Dispatchers.Unconfined) {
                while (view.nextBatch() != null) nativeThreads += Thread.currentThread().name
            }
            val collectorThreads = Collections.synchronizedSet(mutableSetOf<String>())
            val collector = launch(Dispatchers.Unconfined) {
                conversation.messages.collect { collectorThreads += Thread.currentThread().name }
            }
            val statusThreads = Collections.synchronizedSet(mutableSetOf<String>())
            val statusCollector = launch(Dispatchers.Unconfined) {
                conversation.phase.collect { statusThreads += Thread.currentThread().name }
            }
            conversation.send("hello")
            // What is queued is still read, then the pull ends.
            view.unsubscribe()
            puller.join()
            collector.cancel(); statusCollector.cancel()
            view.close()

            // A pull that found a batch ready returns at once, on the caller (the test thread);
            // the others resumed where Rust completed them. (Coroutine debug mode, on under -ea,
            // appends " @coroutine#n" to thread names.)
            val resumedByRust = nativeThreads.map { it.substringBefore(" @") }.toSet() - testThread
            assertTrue(resumedByRust.isNotEmpty(), "$nativeThreads")
            assertFalse(main.name in resumedByRust, "Rust calls on its own threads: $nativeThreads")
            // Tokio workers stay attached to the JVM under one name (NativeThreads), instead of
            // a fresh java.lang.Thread per callback.
            assertEquals(setOf(NativeThreads.THREAD_NAME), resumedByRust)
            // The first value is replayed on the test thread at subscription; every later one
            // was published on the injected main thread. (Coroutine debug mode, on under -ea,
            // appends " @coroutine#n" to thread names.)
            fun Set<String>.threads() = map { it.substringBefore(" @") }.toSet() - testThread
            assertEquals(setOf(main.name), collectorThreads.threads(), "messages published on: $collectorThreads")
            assertEquals(setOf(main.name), statusThreads.threads(), "status published on: $statusThreads")
        }
    }

    @Test
    fun `a test dispatcher holds every update until it runs, and send waits for it`(): Unit = runBlocking {
        val scheduler = kotlinx.coroutines.test.TestCoroutineScheduler()
        val testMain = kotlinx.coroutines.test.StandardTestDispatcher(scheduler, "test-main")
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), dispatcher = testMain).use { conversation ->
            val sent = async(Dispatchers.Default) { conversation.send("hello") }
            // The run goes on on the Rust side, but nothing is applied while the "main thread"
            // does not run, and send() does not return before its end is applied.
            delay(300)
            assertEquals(emptyList(), conversation.messages.value)
            assertEquals(RunPhase.Idle, conversation.phase.value)
            assertFalse(sent.isCompleted)
            val deadline = System.nanoTime() + WAIT_MS * 1_000_000
            while (!sent.isCompleted) {
                assertTrue(System.nanoTime() < deadline, "updates never applied")
                Thread.sleep(5)
                scheduler.advanceUntilIdle()
            }
            sent.await()
            assertTrue(conversation.messages.value.lastAssistantText().endsWith("🎉."))
            assertIs<RunPhase.Finished>(conversation.phase.value)
        }
    }

    @Test
    fun `a main thread that falls behind is resynced with a snapshot, not queued without bound`(): Unit = runBlocking {
        // Two updates or more per message (added, text), more than the Kotlin channel (64 batches
        // of at most 1,024) and the core's inbox (8,192) hold together.
        val count = 50_000
        SseServer.manyMessages(count).use { server ->
            connect(server.url, AgentOptions { threadId = "t" }).use { conversation ->
                val release = CountDownLatch(1)
                // The "main thread" is busy: nothing is applied while the core streams.
                main.dispatcher.dispatch(EmptyCoroutineContext, Runnable { release.await() })
                val sent = async(Dispatchers.Default) { conversation.send("go") }
                withTimeout(WAIT_MS) {
                    while (conversation.native.snapshot().phase !is dev.agentui.core.runtime.RunPhase.Finished) delay(20)
                }
                assertFalse(sent.isCompleted, "send waits for the flows")
                release.countDown()
                sent.await()
                // The listener thread waited on the bounded queue, the core's inbox overflowed, and
                // a fresh snapshot replaced what did not fit: nothing lost, memory bounded.
                assertEquals(count + 1, conversation.messages.value.size)
                assertEquals("x", conversation.messages.value.last().text)
                assertIs<RunPhase.Finished>(conversation.phase.value)
                assertTrue(conversation.snapshotsApplied >= 2, "resynced: ${conversation.snapshotsApplied} snapshots")
            }
        }
    }

    @Test
    fun `close stops updates and frees the native conversation`(): Unit = runBlocking {
        val conversation = connect()
        conversation.send("hello")
        conversation.messages.awaitValue { it.isNotEmpty() }
        conversation.close()
        conversation.close() // idempotent
        val error = runCatching { conversation.native.threadId() }.exceptionOrNull()
        assertIs<IllegalStateException>(error, "the native object is destroyed: $error")
        // The flows keep their last values.
        assertTrue(conversation.messages.value.isNotEmpty())
    }

    @Test
    fun `the generated view gives the whole state, then streamed text as appends in order`(): Unit = runBlocking {
        // Paced (50 ms between events), so a view pulled as fast as it can be gets each piece on
        // its own: pieces still queued when it asks again are joined.
        connect(Fixtures.pacedAgent.agentUrl()).use { conversation ->
            val view = conversation.native.subscribeView()
            val received = Collections.synchronizedList(mutableListOf<dev.agentui.core.runtime.ViewBatch>())
            val puller = launch(Dispatchers.Unconfined) {
                while (true) received += view.nextBatch() ?: break
            }
            conversation.send("hello")
            val barrier = view.barrier()
            withTimeout(WAIT_MS) { while (received.none { it.settled >= barrier }) kotlinx.coroutines.delay(5) }
            view.unsubscribe()
            puller.join()
            view.close()
            assertTrue(received.first().reset)
            val phases = received.mapNotNull { it.phase?.let { phase -> phase::class.simpleName } }
            assertTrue("Running" in phases, "$phases")
            assertEquals("Finished", phases.last())
            // Streamed text arrives as pieces, not as the whole message each time.
            val pieces = received.flatMap { it.messages }.filterIsInstance<dev.agentui.core.runtime.MessageDiff.AppendText>()
            val text = conversation.messages.value.lastAssistantText()
            assertTrue(pieces.size >= 2, "text streamed in pieces: ${pieces.size}")
            assertTrue(pieces.all { it.text.length < text.length }, "no piece is the whole message")
            assertTrue(text.endsWith(pieces.joinToString("") { it.text }), "the pieces, in order, end the text")
        }
    }

    @Test
    fun `node values convert both ways`() {
        val value = nodeValueOf(mapOf("a" to listOf(1, "x", true, null), "b" to 2.5))
        assertEquals(mapOf("a" to listOf(1.0, "x", true, null), "b" to 2.5), value.toKotlin())
        assertNull(NodeValue.Null.toKotlin())
        assertNotNull(nodeValueOf(arrayOf("4")) as? NodeValue.Array)
    }
}
