// Bounds on what one conversation holds: the core's `MemoryBudget`, every bound an `Int` (as in
// the Kotlin layer), mapped to the core's record when a conversation is opened.

import AgentUICore

/// Bounds on what one conversation holds (bytes, or counts where the name says so). `MemoryBudget()`
/// is the phone defaults: a hostile agent cannot make a conversation use more than a few tens of
/// megabytes, and no legitimate chat or form comes near them. A breach fails the run with
/// `ConversationError.LimitExceeded` and changes nothing.
public struct MemoryBudget: Equatable, Hashable, Sendable {
    public var maxMessageBytes: Int
    public var maxStateBytes: Int
    public var maxPatchResultBytes: Int
    public var maxDataModelBytes: Int
    public var maxTotalDataModelBytes: Int
    public var maxTemplateInstances: Int
    public var maxComponentsPerSurface: Int
    public var maxRunContentBytes: Int
    public var maxAttachmentBytes: Int
    public var maxMessageAttachmentBytes: Int
    public var maxConversationMediaBytes: Int
    public var maxReceivedMediaParts: Int
    public var maxMarkdownDepth: Int
    public var maxMarkdownNodes: Int
    public var maxMarkdownTableCells: Int
    public var maxMarkdownParseBytes: Int

    /// Each bound the core's default unless given; negative is 0.
    public init(
        maxMessageBytes: Int = MemoryBudget.phone.maxMessageBytes,
        maxStateBytes: Int = MemoryBudget.phone.maxStateBytes,
        maxPatchResultBytes: Int = MemoryBudget.phone.maxPatchResultBytes,
        maxDataModelBytes: Int = MemoryBudget.phone.maxDataModelBytes,
        maxTotalDataModelBytes: Int = MemoryBudget.phone.maxTotalDataModelBytes,
        maxTemplateInstances: Int = MemoryBudget.phone.maxTemplateInstances,
        maxComponentsPerSurface: Int = MemoryBudget.phone.maxComponentsPerSurface,
        maxRunContentBytes: Int = MemoryBudget.phone.maxRunContentBytes,
        maxAttachmentBytes: Int = MemoryBudget.phone.maxAttachmentBytes,
        maxMessageAttachmentBytes: Int = MemoryBudget.phone.maxMessageAttachmentBytes,
        maxConversationMediaBytes: Int = MemoryBudget.phone.maxConversationMediaBytes,
        maxReceivedMediaParts: Int = MemoryBudget.phone.maxReceivedMediaParts,
        maxMarkdownDepth: Int = MemoryBudget.phone.maxMarkdownDepth,
        maxMarkdownNodes: Int = MemoryBudget.phone.maxMarkdownNodes,
        maxMarkdownTableCells: Int = MemoryBudget.phone.maxMarkdownTableCells,
        maxMarkdownParseBytes: Int = MemoryBudget.phone.maxMarkdownParseBytes
    ) {
        self.maxMessageBytes = maxMessageBytes
        self.maxStateBytes = maxStateBytes
        self.maxPatchResultBytes = maxPatchResultBytes
        self.maxDataModelBytes = maxDataModelBytes
        self.maxTotalDataModelBytes = maxTotalDataModelBytes
        self.maxTemplateInstances = maxTemplateInstances
        self.maxComponentsPerSurface = maxComponentsPerSurface
        self.maxRunContentBytes = maxRunContentBytes
        self.maxAttachmentBytes = maxAttachmentBytes
        self.maxMessageAttachmentBytes = maxMessageAttachmentBytes
        self.maxConversationMediaBytes = maxConversationMediaBytes
        self.maxReceivedMediaParts = maxReceivedMediaParts
        self.maxMarkdownDepth = maxMarkdownDepth
        self.maxMarkdownNodes = maxMarkdownNodes
        self.maxMarkdownTableCells = maxMarkdownTableCells
        self.maxMarkdownParseBytes = maxMarkdownParseBytes
    }

    /// The core's defaults, read once.
    @usableFromInline static let phone = MemoryBudget(AgentUICore.defaultMemoryBudget())

    init(_ core: AgentUICore.MemoryBudget) {
        maxMessageBytes = Int(clamping: core.maxMessageBytes)
        maxStateBytes = Int(clamping: core.maxStateBytes)
        maxPatchResultBytes = Int(clamping: core.maxPatchResultBytes)
        maxDataModelBytes = Int(clamping: core.maxDataModelBytes)
        maxTotalDataModelBytes = Int(clamping: core.maxTotalDataModelBytes)
        maxTemplateInstances = Int(clamping: core.maxTemplateInstances)
        maxComponentsPerSurface = Int(clamping: core.maxComponentsPerSurface)
        maxRunContentBytes = Int(clamping: core.maxRunContentBytes)
        maxAttachmentBytes = Int(clamping: core.maxAttachmentBytes)
        maxMessageAttachmentBytes = Int(clamping: core.maxMessageAttachmentBytes)
        maxConversationMediaBytes = Int(clamping: core.maxConversationMediaBytes)
        maxReceivedMediaParts = Int(clamping: core.maxReceivedMediaParts)
        maxMarkdownDepth = Int(clamping: core.maxMarkdownDepth)
        maxMarkdownNodes = Int(clamping: core.maxMarkdownNodes)
        maxMarkdownTableCells = Int(clamping: core.maxMarkdownTableCells)
        maxMarkdownParseBytes = Int(clamping: core.maxMarkdownParseBytes)
    }

    var native: AgentUICore.MemoryBudget {
        AgentUICore.MemoryBudget(
            maxMessageBytes: UInt64(clamping: maxMessageBytes),
            maxStateBytes: UInt64(clamping: maxStateBytes),
            maxPatchResultBytes: UInt64(clamping: maxPatchResultBytes),
            maxDataModelBytes: UInt64(clamping: maxDataModelBytes),
            maxTotalDataModelBytes: UInt64(clamping: maxTotalDataModelBytes),
            maxTemplateInstances: UInt64(clamping: maxTemplateInstances),
            maxComponentsPerSurface: UInt64(clamping: maxComponentsPerSurface),
            maxRunContentBytes: UInt64(clamping: maxRunContentBytes),
            maxAttachmentBytes: UInt64(clamping: maxAttachmentBytes),
            maxMessageAttachmentBytes: UInt64(clamping: maxMessageAttachmentBytes),
            maxConversationMediaBytes: UInt64(clamping: maxConversationMediaBytes),
            maxReceivedMediaParts: UInt64(clamping: maxReceivedMediaParts),
            maxMarkdownDepth: UInt64(clamping: maxMarkdownDepth),
            maxMarkdownNodes: UInt64(clamping: maxMarkdownNodes),
            maxMarkdownTableCells: UInt64(clamping: maxMarkdownTableCells),
            maxMarkdownParseBytes: UInt64(clamping: maxMarkdownParseBytes)
        )
    }
}
