package dev.agentui

import android.content.Context
import android.net.ConnectivityManager
import dev.agentui.core.demo.startDemoAgent
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertThrows
import org.junit.Assert.assertTrue
import org.junit.Before
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import org.robolectric.Shadows
import org.robolectric.shadows.ShadowNetwork
import java.io.File
import java.lang.reflect.InvocationTargetException
import java.util.Collections
import java.util.concurrent.Executors

/**
 * What takes an Android `Context`, on Robolectric's Android 14 with the host build of the
 * library: the Android-only source set (`AgentRuntime(context)`, [AndroidTls]) compiled against
 * the real framework API, its JNI entry point bound and called, and the store where an app puts it.
 *
 * The host library's entry point (feature `host-jni`) checks the Context and initialises no
 * verifier: Android's own verifier runs on a device only.
 */
@RunWith(RobolectricTestRunner::class)
class AndroidRuntimeTest {
    private val context: Context get() = RuntimeEnvironment.getApplication()
    private val executor = Executors.newSingleThreadExecutor { r -> Thread(r, "test-main").apply { isDaemon = true } }
    private val main = executor.asCoroutineDispatcher()

    @Before
    fun setUp() {
        // Each Robolectric test has a fresh application, and its own files under a temporary root.
        assertTrue(context.noBackupFilesDir.isDirectory)
    }

    @After
    fun tearDown() = main.close()

    @Test
    fun `a runtime made with the app's Context talks to an agent`(): Unit = runBlocking {
        AgentRuntime(context).use { runtime ->
            assertFalse(runtime.isPersistent)
            runtime.connect(agent.agentUrl(), dispatcher = main).use { conversation ->
                val result = withTimeout(WAIT_MS) { conversation.send("hello") }
                assertTrue("the run finished: ${result.phase}", result.phase is RunPhase.Finished)
                val texts = conversation.messages.value.filter { it.role == Role.ASSISTANT }.joinToString { it.text }
                assertTrue("an assistant answer arrived: $texts", texts.isNotBlank())
            }
        }
    }

    @Test
    fun `the store sits where the app puts it and a new runtime restores from it`(): Unit = runBlocking {
        val storeFile = File(context.noBackupFilesDir, "conversations.db")
        assertFalse(storeFile.exists())
        val before = AgentRuntime(context, storeFile = storeFile).use { runtime ->
            assertTrue(runtime.isPersistent)
            runtime.connect(agent.agentUrl(), options = AgentOptions { threadId = "kept" }, dispatcher = main).use { conversation ->
                withTimeout(WAIT_MS) { conversation.send("hello") }
                conversation.messages.value
            }
        }
        assertTrue("the store file is in noBackupFilesDir", storeFile.isFile && storeFile.length() > 0)

        AgentRuntime(context, workerThreads = 1, storeFile = storeFile).use { runtime ->
            assertEquals(listOf("kept"), runtime.conversations().conversations.map { it.threadId })
            runtime.connect(agent.agentUrl(), options = AgentOptions { threadId = "kept" }, dispatcher = main).use { conversation ->
                // The restored messages arrive with the conversation's first update, on `main`.
                val restored = withTimeout(WAIT_MS) { conversation.messages.first { it.isNotEmpty() } }
                assertEquals(before.map { it.id to it.text }, restored.map { it.id to it.text })
            }
        }
    }

    @Test
    fun `the JNI entry point is bound, idempotent through init, and throws instead of crashing`() {
        AndroidTls.init(context)
        AndroidTls.init(context)
        // The private native method itself, given no Context: a RuntimeException in the JVM.
        val initPlatformVerifier = AndroidTls::class.java.getDeclaredMethod("initPlatformVerifier", Context::class.java)
        initPlatformVerifier.isAccessible = true
        val failure = assertThrows(InvocationTargetException::class.java) { initPlatformVerifier.invoke(null, null) }
        assertTrue("thrown as a RuntimeException: ${failure.cause}", failure.cause is RuntimeException)
    }

    @Test
    fun `the connectivity watcher reports the default network and stops when closed`() {
        val manager = context.getSystemService(ConnectivityManager::class.java)
        val shadow = Shadows.shadowOf(manager)
        val reported = Collections.synchronizedList(mutableListOf<Boolean>())
        val watcher = ConnectivityWatcher(context) { reported.add(it) }
        assertEquals(listOf(manager.activeNetwork != null), reported.toList())
        assertEquals(1, shadow.networkCallbacks.size)
        val callback = shadow.networkCallbacks.single()
        val network = ShadowNetwork.newInstance(7)
        callback.onLost(network)
        callback.onAvailable(network)
        assertEquals(listOf(false, true), reported.drop(1))
        watcher.close()
        assertTrue("unregistered", shadow.networkCallbacks.isEmpty())
    }

    @Test
    fun `a runtime made with the app's Context watches connectivity until closed`(): Unit = runBlocking {
        val shadow = Shadows.shadowOf(context.getSystemService(ConnectivityManager::class.java))
        val before = shadow.networkCallbacks.size
        AgentRuntime(context).use { runtime ->
            assertEquals(before + 1, shadow.networkCallbacks.size)
            // Offline and back: the runtime still answers (the report reached the core).
            shadow.networkCallbacks.last().onLost(ShadowNetwork.newInstance(8))
            shadow.networkCallbacks.last().onAvailable(ShadowNetwork.newInstance(8))
            runtime.connect(agent.agentUrl(), dispatcher = main).use { conversation ->
                val result = withTimeout(WAIT_MS) { conversation.send("hello") }
                assertTrue("the run finished: ${result.phase}", result.phase is RunPhase.Finished)
            }
        }
        assertEquals(before, shadow.networkCallbacks.size)
    }

    private companion object {
        const val WAIT_MS = 15_000L

        init {
            // Before anything loads the bindings (see NativeThreads).
            NativeThreads.install()
        }

        val agent by lazy { startDemoAgent() }
    }
}
