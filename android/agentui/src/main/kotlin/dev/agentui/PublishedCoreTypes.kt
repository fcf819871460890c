package dev.agentui

// The generated types this layer publishes under its own names, so that an app imports only
// `dev.agentui` (docs/platforms.md, "Which types the layers publish"). Two kinds only, the same
// on Swift:
//
// 1. The value trees a renderer walks on every diff: JSON values, resolved nodes (`Node`, in
//    Models.kt) and what their fields hold, a message's content and its parts, the Markdown
//    tree. They are data, not behaviour; a copy into layer types would cost a copy of every
//    node of every diff.
// 2. The errors the calls throw: the generated code throws them itself.
//
// Every other type in a public signature is the layer's own, mapped from the core's.
//
// Kotlin reaches no nested class through a typealias: the cases of the sealed types below
// (`NodeValue.Text`, `ConversationException.InvalidOptions`) need the generated type's import.

/** A JSON value as the core carries it; [nodeValueOf] and [toKotlin] convert plain values. */
public typealias NodeValue = dev.agentui.core.json.NodeValue

/** One member of a [NodeValue.Object] (and one resolved property of a [Node]). */
public typealias PropEntry = dev.agentui.core.json.PropEntry

/** A JSON object's members in order, as [NodeValue.Object] holds them. */
public typealias JsonObject = dev.agentui.core.json.JsonObject

/** A resolved node's properties, in order ([Node.props]). */
public typealias Props = dev.agentui.core.a2ui.Props

/** A resolved node's accessibility label and description. */
public typealias Accessibility = dev.agentui.core.a2ui.Accessibility

/** The outcome of one of a node's checks. */
public typealias CheckResult = dev.agentui.core.a2ui.CheckResult

/** What a node's action does: an event sent to the agent, or a local function. */
public typealias ActionKind = dev.agentui.core.a2ui.ActionKind

/** A node property bound to a data-model path. */
public typealias Binding = dev.agentui.core.a2ui.Binding

/** A block of a Markdown tree ([ChatMarkdown.blocks], a `Text` node's `markdown`). */
public typealias MdBlock = dev.agentui.core.markdown.MdBlock

/** An inline of a Markdown block. */
public typealias MdInline = dev.agentui.core.markdown.MdInline

/** An item of a Markdown list. */
public typealias MdListItem = dev.agentui.core.markdown.MdListItem

/** A cell of a Markdown table. */
public typealias MdCell = dev.agentui.core.markdown.MdCell

/** A Markdown table column's alignment. */
public typealias MdAlignment = dev.agentui.core.markdown.MdAlignment

/** Why a piece of Markdown is shown as its source text. */
public typealias PlainReason = dev.agentui.core.markdown.PlainReason

/** A message's content as the agent sent it ([ChatMessage.content]); [ChatMessage.parts] reads it. */
public typealias MessageContent = dev.agentui.core.agui.MessageContent

/** One part of a [MessageContent]. */
public typealias ContentPart = dev.agentui.core.agui.ContentPart

/** A text part of a [MessageContent]. */
public typealias TextPart = dev.agentui.core.agui.TextPart

/** An image, audio, video or document part of a [MessageContent]. */
public typealias MediaPart = dev.agentui.core.agui.MediaPart

/** Where a [MediaPart]'s bytes are: inline data, a URL or a provider's file id. */
public typealias PartSource = dev.agentui.core.agui.PartSource

/** What the conversation's calls throw. */
public typealias ConversationException = dev.agentui.core.ConversationException

/** Why an attachment was refused (`ConversationException.AttachmentRefused`). */
public typealias AttachmentRefusal = dev.agentui.core.AttachmentRefusal

/** Why the agent's certificate was refused (`ConversationException.Certificate`). */
public typealias CertificateRejection = dev.agentui.core.agui.CertificateRejection

/** What [AgentConversation.setValue] throws. */
public typealias SurfaceException = dev.agentui.core.SurfaceException

/** What the store's calls throw ([AgentRuntime] with a store file). */
public typealias StoreException = dev.agentui.core.runtime.StoreException

/** What starting the native runtime throws. */
public typealias RuntimeStartException = dev.agentui.core.RuntimeStartException

/** How a [CheckResult] that failed is shown. */
public typealias Severity = dev.agentui.core.a2ui.Severity
