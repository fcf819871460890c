package dev.agentui.sample.ui

import dev.agentui.AgentConversation
import dev.agentui.AgentOptions
import dev.agentui.AgentRuntime
import kotlinx.coroutines.CoroutineDispatcher

/**
 * The sample's one conversation, brought back after process death. Android restores a killed
 * app's saved state (the ViewModel's `SavedStateHandle`) but not its memory: the saved state
 * keeps only the thread id, under [THREAD_ID_KEY]; the runtime's store file keeps the rest.
 * Platform-neutral, so the host-JVM tests open it exactly as the ViewModel does.
 */
object SampleConversation {
    const val THREAD_ID_KEY = "agentui.threadId"

    /**
     * The conversation [savedThreadId] names, restored from [runtime]'s store as it was last
     * written (messages, surfaces with what the user typed, messages still waiting for the
     * agent; a run cut off by the kill shows as abandoned), or a new one when it is null. Save
     * the result's `threadId`. Registers `navigate_to` before any run; navigation runs on [ui].
     * The conversation renders the app's own [LoyaltyCatalog] besides the basic catalogs.
     */
    fun open(
        runtime: AgentRuntime,
        url: String,
        navigator: Navigator,
        savedThreadId: String?,
        ui: CoroutineDispatcher,
    ): AgentConversation {
        val options = AgentOptions {
            threadId = savedThreadId
            catalogs = listOf(LoyaltyCatalog.json)
            functions = LoyaltyCatalog.functions
        }
        val conversation = runtime.connect(url, options = options, dispatcher = ui)
        try {
            NavigationTool.install(conversation, navigator, ui)
        } catch (e: Throwable) {
            conversation.close()
            throw e
        }
        return conversation
    }
}
