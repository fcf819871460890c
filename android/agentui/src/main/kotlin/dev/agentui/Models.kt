package dev.agentui

import dev.agentui.core.ContentPart
import dev.agentui.core.LocalOnlyReason
import dev.agentui.core.MessageContent
import dev.agentui.core.MessageRecord
import dev.agentui.core.MessageRole
import dev.agentui.core.NodeValue
import dev.agentui.core.ResolvedNodeRecord
import dev.agentui.core.ToolCallRecord

/**
 * One message of the conversation as a UI shows it. [text] is the readable text (the text
 * parts joined); [record] keeps everything the core sent (media parts, activity type...).
 *
 * [localOnly] is set when the message stays on this device and is not sent back to the agent:
 * `CANCELLED` for text cut short by a cancel (show it as [incomplete], never as a finished
 * answer), `ORPHAN_TOOL_RESULT` for a tool result that matched no call.
 */
data class ChatMessage(
    val id: String,
    val role: MessageRole,
    val text: String?,
    val toolCalls: List<ToolCallRecord>,
    val toolCallId: String?,
    val error: String?,
    val record: MessageRecord,
    val localOnly: LocalOnlyReason? = null,
) {
    /** Cut short by a cancel: the agent never finished it, and it is not sent back. */
    val incomplete: Boolean get() = localOnly == LocalOnlyReason.CANCELLED

    companion object {
        fun from(record: MessageRecord, localOnly: LocalOnlyReason? = null): ChatMessage = ChatMessage(
            id = record.id,
            role = record.role,
            text = textOf(record.content),
            toolCalls = record.toolCalls,
            toolCallId = record.toolCallId,
            error = record.error,
            record = record,
            localOnly = localOnly,
        )

        private fun textOf(content: MessageContent): String? = when (content) {
            is MessageContent.Text -> content.text
            is MessageContent.Parts -> content.parts.filterIsInstance<ContentPart.Text>()
                .joinToString("") { it.text }
                .ifEmpty { null }
            is MessageContent.Empty, is MessageContent.Object -> null
        }
    }
}

/**
 * One A2UI surface as resolved nodes, ready to render: the renderer maps each node to a widget
 * and never resolves bindings or parses JSON. [nodes] keeps the core's tree order.
 * [version] grows with every diff applied, so a UI can key recompositions on it.
 */
data class SurfaceState(
    val id: String,
    val catalogId: String,
    val rootId: String?,
    val nodes: Map<String, ResolvedNodeRecord>,
    val version: Long,
) {
    val root: ResolvedNodeRecord? get() = rootId?.let(nodes::get)

    fun node(id: String): ResolvedNodeRecord? = nodes[id]

    /** Children of [node] that have arrived (ids whose component is still pending are skipped). */
    fun children(node: ResolvedNodeRecord): List<ResolvedNodeRecord> = node.children.mapNotNull(nodes::get)
}

/** The resolved value of property [name], or null when the node has none. */
fun ResolvedNodeRecord.prop(name: String): NodeValue? = props.firstOrNull { it.name == name }?.value
