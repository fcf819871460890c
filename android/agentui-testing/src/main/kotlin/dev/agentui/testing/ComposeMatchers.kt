package dev.agentui.testing

import androidx.compose.ui.test.SemanticsNodeInteraction
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
