package dev.agentui.sample

import android.app.Application
import android.security.NetworkSecurityPolicy
import androidx.lifecycle.AndroidViewModel
import dev.agentui.AgentConversation
import dev.agentui.AgentRuntime
import dev.agentui.core.LogLevel
import dev.agentui.core.setLogLevel
import dev.agentui.sample.ui.NavigationTool
import dev.agentui.sample.ui.Navigator
import kotlinx.coroutines.Dispatchers
import java.net.URI

/**
 * Owns the native runtime, the one conversation of the sample and the screen navigator. A
 * ViewModel outlives configuration changes, so rotating the device keeps the conversation, its
 * messages and surfaces, the current screen, and the `navigate_to` tool registered exactly once;
 * [onCleared] frees both native objects when the activity finishes for good.
 */
class SampleViewModel(application: Application) : AndroidViewModel(application) {
    // Creating the runtime first also installs NativeThreads before anything else loads the bindings.
    // With the Context, https agents are verified by Android (Network Security Config, user CAs).
    private val runtime = AgentRuntime(application)

    /** Which screen is shown; the agent moves it through the `navigate_to` client tool. */
    val navigator = Navigator()

    /** The conversation with [BuildConfig.AGENT_URL]; its state flows are updated on the main thread. */
    val conversation: AgentConversation = connect(runtime, BuildConfig.AGENT_URL, navigator)

    override fun onCleared() {
        // Cancels a run in flight, stops the listener, frees the native conversation.
        conversation.close()
        runtime.close()
    }

    private companion object {
        fun connect(runtime: AgentRuntime, url: String, navigator: Navigator): AgentConversation =
            try {
                // Logcat output of the Rust core (tracing-android, tag "agentui").
                setLogLevel(if (BuildConfig.DEBUG) LogLevel.DEBUG else LogLevel.WARN)
                checkCleartextPolicy(url)
                runtime.connect(url).also { conversation ->
                    try {
                        // Before the first run (registration during a run is refused). Navigation
                        // itself runs on the main thread.
                        NavigationTool.install(conversation, navigator, Dispatchers.Main)
                    } catch (e: Throwable) {
                        conversation.close()
                        throw e
                    }
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
