package dev.agentui.sample.ui

import dev.agentui.AgentConversation
import dev.agentui.ClientToolFailure
import kotlinx.coroutines.withContext
import kotlin.coroutines.CoroutineContext

/** The `navigate_to` client tool as the agent sees it. */
object NavigationTool {
    const val NAME = "navigate_to"
    const val DESCRIPTION = "Shows a screen of the app. Returns whether the screen is now visible."
    val PARAMETERS = """
        {"type": "object",
         "properties": {"screen": {"type": "string", "enum": [${Screen.entries.joinToString { "\"${it.name.lowercase()}\"" }}]}},
         "required": ["screen"]}
    """.trimIndent()

    /**
     * Registers the tool on [conversation] (registered during a run, it is declared from the next
     * request on). [ui] is the UI thread's dispatcher (`Dispatchers.Main` on Android):
     * tools run on a background dispatcher, navigation must not.
     */
    fun install(conversation: AgentConversation, navigator: Navigator, ui: CoroutineContext) =
        conversation.registerTool(NAME, DESCRIPTION, PARAMETERS) { arguments -> run(arguments, navigator, ui) }

    /**
     * Runs one call: parses the screen, navigates on [ui] (the main thread) and answers with
     * what happened. An unknown screen or a screen that never appeared is a failure the agent
     * reads, never a success.
     */
    suspend fun run(argumentsJson: String, navigator: Navigator, ui: CoroutineContext): String {
        val name = SCREEN_ARGUMENT.find(argumentsJson)?.groupValues?.get(1)
            ?: throw ClientToolFailure("missing \"screen\" argument")
        val screen = Screen.named(name)
            ?: throw ClientToolFailure("unknown screen '$name'; known: ${Screen.entries.joinToString { it.name.lowercase() }}")
        val shown = withContext(ui) { navigator.navigate(screen) }
        if (!shown) throw ClientToolFailure("the ${screen.name.lowercase()} screen did not appear")
        return """{"navigated": true, "screen": "${screen.name.lowercase()}"}"""
    }

    // The core validated the arguments against PARAMETERS: one string member, no escapes needed
    // for the enum values.
    private val SCREEN_ARGUMENT = Regex(""""screen"\s*:\s*"([^"\\]*)"""")
}
