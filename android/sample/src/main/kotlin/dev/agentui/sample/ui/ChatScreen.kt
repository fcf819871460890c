package dev.agentui.sample.ui

import androidx.compose.foundation.layout.fillMaxSize
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.imePadding
import androidx.compose.foundation.layout.safeDrawingPadding
import androidx.compose.runtime.Composable
import androidx.compose.runtime.remember
import androidx.compose.ui.Modifier
import androidx.compose.ui.platform.testTag
import dev.agentui.AgentConversation
import dev.agentui.Attachment
import dev.agentui.compose.A2uiSurface
import dev.agentui.compose.AgentChat
import dev.agentui.compose.AgentChatSlots

/**
 * Lets the user pick a photo to attach: on Android the system photo picker (MainActivity), in
 * tests a fake. Null when the user picked nothing; a photo that cannot be read throws.
 */
fun interface PhotoPicker {
    suspend fun pick(): Attachment?
}

/**
 * The library's conversation screen; the app adds only its own parts: surfaces drawn with its
 * loyalty catalog, and its photo picker behind the attach button. (The navigation tool is
 * registered where the conversation is opened, SampleConversation.)
 */
@Composable
fun ChatScreen(conversation: AgentConversation, photoPicker: PhotoPicker? = null) {
    val slots = remember {
        AgentChatSlots(
            surface = { item, chat ->
                A2uiSurface(
                    chat.conversation,
                    item.surfaceId,
                    Modifier.fillMaxWidth().testTag("surface:${item.surfaceId}"),
                    components = LoyaltyCatalog.components,
                )
            },
        )
    }
    AgentChat(
        conversation,
        Modifier.fillMaxSize().safeDrawingPadding().imePadding(),
        slots = slots,
        onAttach = photoPicker?.let { picker -> { picker.pick() } },
        placeholder = "Try: hello, book a table, sign up, open settings",
    )
}
