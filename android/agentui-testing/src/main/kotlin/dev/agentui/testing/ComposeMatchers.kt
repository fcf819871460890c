package dev.agentui.testing

import androidx.compose.ui.semantics.SemanticsProperties
import androidx.compose.ui.semantics.getOrNull
import androidx.compose.ui.test.SemanticsMatcher
import androidx.compose.ui.test.SemanticsNodeInteraction
import androidx.compose.ui.test.SemanticsNodeInteractionCollection
import androidx.compose.ui.test.hasContentDescription
import androidx.compose.ui.test.SemanticsNodeInteractionsProvider
import androidx.compose.ui.test.onNodeWithTag
import androidx.compose.ui.test.performClick
import androidx.compose.ui.test.performTextInput
import dev.agentui.compose.a2uiNodeTag

/** The Compose node the renderer drew for A2UI node [nodeId] (its `a2ui:<id>` test tag). */
public fun SemanticsNodeInteractionsProvider.onA2uiNode(nodeId: String, useUnmergedTree: Boolean = false): SemanticsNodeInteraction =
    onNodeWithTag(a2uiNodeTag(nodeId), useUnmergedTree)

/** Types [text] into the A2UI text field [nodeId]. */
public fun SemanticsNodeInteractionsProvider.typeIntoA2uiNode(nodeId: String, text: String): SemanticsNodeInteraction =
    onA2uiNode(nodeId).performTextInput(text).let { onA2uiNode(nodeId) }

/** Presses the A2UI node [nodeId] (a button, a checkbox). */
public fun SemanticsNodeInteractionsProvider.pressA2uiNode(nodeId: String): SemanticsNodeInteraction =
    onA2uiNode(nodeId).performClick()

// AgentChat's rows, found by the semantics AgentChat itself sets (its test tags and the
// descriptions TalkBack reads), so a test does not depend on how a row is laid out.

/** A node whose test tag starts with [prefix]: AgentChat tags a row `<kind>:<key>`. */
public fun hasTestTagPrefix(prefix: String): SemanticsMatcher =
    SemanticsMatcher("TestTag starts with '$prefix'") { node ->
        node.config.getOrNull(SemanticsProperties.TestTag)?.startsWith(prefix) == true
    }

/** A node whose content description starts with [prefix]. */
private fun hasDescriptionPrefix(prefix: String): SemanticsMatcher =
    SemanticsMatcher("ContentDescription starts with '$prefix'") { node ->
        node.config.getOrNull(SemanticsProperties.ContentDescription)?.any { it.startsWith(prefix) } == true
    }

/** AgentChat's row of kind [kind] (`tool`, `consent`, `surface`, `markdown`, ...) for [key] (a tool call, surface or message id). */
public fun SemanticsNodeInteractionsProvider.onChatRow(kind: String, key: String, useUnmergedTree: Boolean = false): SemanticsNodeInteraction =
    onNodeWithTag("$kind:$key", useUnmergedTree)

/** The agent's message whose whole text is [text] (its bubble, `Agent: <text>`). */
public fun SemanticsNodeInteractionsProvider.onAgentMessage(text: String): SemanticsNodeInteraction =
    onNode(hasContentDescription("Agent: $text"))

/** The user's message whose text is [text], whatever its delivery (`You: <text>[, status]`). */
public fun SemanticsNodeInteractionsProvider.onUserMessage(text: String): SemanticsNodeInteraction =
    onNode(hasDescriptionPrefix("You: $text").and(hasDescriptionPrefix("You: $text,").or(hasContentDescription("You: $text"))))

/** The row of a call of tool [tool] (`Tool <name>, <phase>`); [onAllToolRows] when it was called more than once. */
public fun SemanticsNodeInteractionsProvider.onToolRow(tool: String): SemanticsNodeInteraction =
    onNode(hasTestTagPrefix("tool:").and(hasDescriptionPrefix("Tool $tool,")))

/** Every row of a call of tool [tool], in the chat's order. */
public fun SemanticsNodeInteractionsProvider.onAllToolRows(tool: String): SemanticsNodeInteractionCollection =
    onAllNodes(hasTestTagPrefix("tool:").and(hasDescriptionPrefix("Tool $tool,")))

/** The card asking whether tool [tool] may act; press its buttons with [allowOnce], [allowAlways], [decline]. */
public fun SemanticsNodeInteractionsProvider.onConsentCard(tool: String): SemanticsNodeInteraction =
    onNode(hasTestTagPrefix("consent:").and(hasContentDescription("The agent wants to use $tool")))

/** The surface [surfaceId] drawn inline in the chat. */
public fun SemanticsNodeInteractionsProvider.onChatSurface(surfaceId: String): SemanticsNodeInteraction =
    onChatRow("surface", surfaceId)

/** Presses "Allow once" on the consent card of tool [tool]. */
public fun SemanticsNodeInteractionsProvider.allowOnce(tool: String): SemanticsNodeInteraction = pressConsent("allow-once", tool)

/** Presses "Allow for this conversation" on the consent card of tool [tool]. */
public fun SemanticsNodeInteractionsProvider.allowAlways(tool: String): SemanticsNodeInteraction = pressConsent("allow-always", tool)

/** Presses "Decline" on the consent card of tool [tool]. */
public fun SemanticsNodeInteractionsProvider.decline(tool: String): SemanticsNodeInteraction = pressConsent("decline", tool)

// The buttons are tagged with the card's tool call id, which the card's own tag carries.
private fun SemanticsNodeInteractionsProvider.pressConsent(button: String, tool: String): SemanticsNodeInteraction {
    val cardTag = onConsentCard(tool).fetchSemanticsNode().config[SemanticsProperties.TestTag]
    return onNodeWithTag("$button:" + cardTag.removePrefix("consent:")).performClick()
}
