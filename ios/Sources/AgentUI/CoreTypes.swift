// The core's types an app reads under the layer's name, so that `import AgentUI` is all it
// needs. Only two kinds (docs/platforms.md): the value trees the renderer walks on every diff
// (re-declaring them would copy every node of every diff, and they are data, not behaviour),
// and the errors the calls throw (the generated code throws them itself).

import AgentUICore

// JSON values.
public typealias NodeValue = AgentUICore.NodeValue
public typealias PropEntry = AgentUICore.PropEntry
public typealias JsonObject = AgentUICore.JsonObject

// A resolved A2UI node and what its fields hold.
/// A resolved A2UI node, field for field what the core resolved (the renderer's input).
public typealias Node = AgentUICore.ResolvedNode
public typealias Props = AgentUICore.Props
public typealias Accessibility = AgentUICore.Accessibility
public typealias CheckResult = AgentUICore.CheckResult
public typealias Severity = AgentUICore.Severity
public typealias ActionKind = AgentUICore.ActionKind
// Not the core's `Binding`: it would clash with SwiftUI's in every SwiftUI file; a node's
// bindings are read through `Node.bindings` and `bindingPath(for:)`.

// A message's content (`ChatMessage.content`) and its parts.
public typealias MessageContent = AgentUICore.MessageContent
public typealias ContentPart = AgentUICore.ContentPart
public typealias TextPart = AgentUICore.TextPart
public typealias MediaPart = AgentUICore.MediaPart
public typealias PartSource = AgentUICore.PartSource

// Markdown trees (`ChatMarkdown.blocks`, `Node.markdown`).
public typealias MdBlock = AgentUICore.MdBlock
public typealias MdInline = AgentUICore.MdInline
public typealias MdListItem = AgentUICore.MdListItem
public typealias MdCell = AgentUICore.MdCell
public typealias MdAlignment = AgentUICore.MdAlignment
public typealias PlainReason = AgentUICore.PlainReason

// The errors the calls throw.
public typealias ConversationError = AgentUICore.ConversationError
public typealias StoreError = AgentUICore.StoreError
public typealias SurfaceError = AgentUICore.SurfaceError
public typealias RuntimeStartError = AgentUICore.RuntimeStartError
// What the errors' cases carry.
public typealias AttachmentRefusal = AgentUICore.AttachmentRefusal
public typealias CertificateRejection = AgentUICore.CertificateRejection
