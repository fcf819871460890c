package dev.agentui.sample.ui

import androidx.compose.runtime.Composable
import androidx.compose.runtime.CompositionLocalProvider
import androidx.compose.runtime.LaunchedEffect
import dev.agentui.AgentConversation
import dev.agentui.compose.A2uiImageLoader
import dev.agentui.compose.LocalA2uiImageLoader
import dev.agentui.compose.PlaceholderImageLoader

/**
 * The sample: a chat with the agent, A2UI surfaces inline, and two more screens the agent can
 * open through the `navigate_to` client tool ([NavigationTool.install], done once where the
 * conversation and [navigator] are made, e.g. in a ViewModel, so a rotation neither drops nor
 * doubles it). Platform-neutral (no android.* imports): the same code is compiled and
 * UI-tested on the host JVM.
 */
@Composable
fun SampleApp(
    conversation: AgentConversation,
    navigator: Navigator,
    imageLoader: A2uiImageLoader? = null,
    photoPicker: PhotoPicker? = null,
) {
    CompositionLocalProvider(LocalA2uiImageLoader provides (imageLoader ?: PlaceholderImageLoader)) {
        val screen = navigator.current
        when (screen) {
            Screen.Chat -> ChatScreen(conversation, photoPicker)
            Screen.Settings -> SettingsScreen(onBack = navigator::back)
            Screen.Profile -> ProfileScreen(onBack = navigator::back)
        }
        LaunchedEffect(screen) { navigator.arrived(screen) }
    }
}
