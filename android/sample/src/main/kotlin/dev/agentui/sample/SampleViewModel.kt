package dev.agentui.sample

import android.app.Application
import android.security.NetworkSecurityPolicy
import androidx.lifecycle.AndroidViewModel
import androidx.lifecycle.SavedStateHandle
import dev.agentui.AgentConversation
import dev.agentui.AgentRuntime
import dev.agentui.LogLevel
import dev.agentui.setLogLevel
import dev.agentui.sample.ui.Navigator
import dev.agentui.sample.ui.SampleConversation
import kotlinx.coroutines.Dispatchers
import java.io.File
import java.net.URI

/**
 * Owns the native runtime, the one conversation of the sample and the screen navigator. A
 * ViewModel outlives configuration changes, so rotating the device keeps the conversation, its
 * messages and surfaces, the current screen, and the `navigate_to` tool registered exactly once;
 * [onCleared] frees both native objects when the activity finishes for good.
 *
 * It also outlives process death, which a ViewModel alone does not: the runtime keeps the
 * conversation in a store file, and [savedState] keeps its thread id, which Android hands back
 * when it recreates a task it killed in the background (see [SampleConversation]).
 */
class SampleViewModel(application: Application, savedState: SavedStateHandle) : AndroidViewModel(application) {
    // Creating the runtime first also installs NativeThreads before anything else loads the bindings.
    // With the Context, https agents are verified by Android (Network Security Config, user CAs).
    // noBackupFilesDir, not filesDir: the store holds this device's open runs and messages still
    // waiting for the agent, which must not be restored onto another device by Auto Backup or
    // device transfer (they would be delivered from there too), nor from a stale backup.
    private val runtime = AgentRuntime(application, storeFile = File(application.noBackupFilesDir, STORE_FILE))

    /** Which screen is shown; the agent moves it through the `navigate_to` client tool. */
    val navigator = Navigator()

    /**
     * The conversation with [BuildConfig.AGENT_URL]; its state flows are updated on the main
     * thread. Restoring reads the store on the main thread (a few ms); an app with long histories
     * would open it with `AgentRuntime.resume` in `viewModelScope` instead.
     */
    val conversation: AgentConversation = connect(runtime, BuildConfig.AGENT_URL, navigator, savedState)

    override fun onCleared() {
        // Cancels a run in flight, stops the listener, frees the native conversation.
        conversation.close()
        runtime.close()
    }

    private companion object {
        const val STORE_FILE = "agentui-conversations.db"

        fun connect(runtime: AgentRuntime, url: String, navigator: Navigator, savedState: SavedStateHandle): AgentConversation =
            try {
                // Logcat output of the Rust core (tracing-android, tag "agentui").
                setLogLevel(if (BuildConfig.DEBUG) LogLevel.DEBUG else LogLevel.WARN)
                checkCleartextPolicy(url)
                val saved = savedState.get<String>(SampleConversation.THREAD_ID_KEY)
                SampleConversation.open(runtime, url, navigator, saved, Dispatchers.Main).also {
                    savedState[SampleConversation.THREAD_ID_KEY] = it.threadId
                }
            } catch (e: Throwable) {
                runtime.close()
                throw e
            }

        /**
         * The Rust transport does its own HTTP and never asks Android's network security config,
         * so the sample applies the app's policy (res/xml/network_security_config.xml) to the
         * agent URL itself: plain HTTP only where that policy permits cleartext.
         */
        fun checkCleartextPolicy(url: String) {
            val uri = URI(url)
            val scheme = uri.scheme?.lowercase()
            val host = uri.host
            require((scheme == "https" || scheme == "http") && host != null) {
                "agent URL must be an absolute http(s) URL: $url"
            }
            check(scheme == "https" || NetworkSecurityPolicy.getInstance().isCleartextTrafficPermitted(host)) {
                "Cleartext HTTP to $host is not permitted by network_security_config.xml; " +
                    "use https or build with -Pagentui.agentUrl=http://10.0.2.2:<port>/agent"
            }
        }
    }
}
