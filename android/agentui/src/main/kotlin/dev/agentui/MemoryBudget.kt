package dev.agentui

import dev.agentui.core.agui.MemoryBudget as CoreMemoryBudget
import dev.agentui.core.defaultMemoryBudget

/**
 * Bounds on what the agent can make one conversation hold ([AgentOptions.memoryBudget]): a
 * hostile agent cannot make it use more than a few tens of megabytes, and no legitimate chat or
 * form comes near the defaults, which are the core's phone defaults. A breach fails the run with
 * `ConversationException.LimitExceeded` and changes nothing; a zero bound makes connect throw
 * `ConversationException.InvalidOptions`.
 *
 * Not a data class, for the same reason as [AgentOptions]: a bound added later is one more
 * builder property. Kotlin writes `MemoryBudget { maxStateBytes = 1_000_000 }`, Java
 * `new MemoryBudget.Builder().maxStateBytes(1_000_000).build()`. Sizes are bytes ([Long]),
 * counts are [Int]; "weight" is the approximate memory a parsed value takes.
 */
public class MemoryBudget private constructor(builder: Builder) {
    /** One SSE event, A2UI message or A2UI payload string, as JSON text. */
    public val maxMessageBytes: Long = builder.maxMessageBytes

    /** The conversation's state, and one activity's content (weight). */
    public val maxStateBytes: Long = builder.maxStateBytes

    /** What one JSON Patch may produce (weight), checked per operation. */
    public val maxPatchResultBytes: Long = builder.maxPatchResultBytes

    /** One surface's data model (weight). */
    public val maxDataModelBytes: Long = builder.maxDataModelBytes

    /** All data models of the conversation together (weight). */
    public val maxTotalDataModelBytes: Long = builder.maxTotalDataModelBytes

    /** Template instances one surface may resolve, checked before a template expands. */
    public val maxTemplateInstances: Int = builder.maxTemplateInstances

    /** Components one surface may define. */
    public val maxComponentsPerSurface: Int = builder.maxComponentsPerSurface

    /** Text, tool arguments and tool results one run may stream. */
    public val maxRunContentBytes: Long = builder.maxRunContentBytes

    /** One attachment the app sends (before encoding). */
    public val maxAttachmentBytes: Long = builder.maxAttachmentBytes

    /** All attachments of one message together (before encoding). */
    public val maxMessageAttachmentBytes: Long = builder.maxMessageAttachmentBytes

    /** The media one conversation holds, every message's together (decoded). */
    public val maxConversationMediaBytes: Long = builder.maxConversationMediaBytes

    /** Media parts one message from the agent may carry. */
    public val maxReceivedMediaParts: Int = builder.maxReceivedMediaParts

    /** Containers inside containers in one text's Markdown tree; deeper content is shown as text. */
    public val maxMarkdownDepth: Int = builder.maxMarkdownDepth

    /** Blocks and inlines in one text's Markdown tree. */
    public val maxMarkdownNodes: Int = builder.maxMarkdownNodes

    /** Cells in one Markdown table, the header's included. */
    public val maxMarkdownTableCells: Int = builder.maxMarkdownTableCells

    /** Markdown parsed at once: a longer block is cut into consecutive blocks. */
    public val maxMarkdownParseBytes: Long = builder.maxMarkdownParseBytes

    /** A builder holding these bounds, to derive others from them. */
    public fun newBuilder(): Builder = Builder(this)

    /**
     * The bounds under construction, each starting at the core's default. Kotlin sets the
     * properties (in `MemoryBudget { ... }`); Java chains the same-named methods. [build]
     * throws [IllegalArgumentException] for a negative bound.
     */
    public class Builder() {
        private val defaults = coreDefaults
        public var maxMessageBytes: Long = defaults.maxMessageBytes.toLong()
        public var maxStateBytes: Long = defaults.maxStateBytes.toLong()
        public var maxPatchResultBytes: Long = defaults.maxPatchResultBytes.toLong()
        public var maxDataModelBytes: Long = defaults.maxDataModelBytes.toLong()
        public var maxTotalDataModelBytes: Long = defaults.maxTotalDataModelBytes.toLong()
        public var maxTemplateInstances: Int = defaults.maxTemplateInstances.toCount()
        public var maxComponentsPerSurface: Int = defaults.maxComponentsPerSurface.toCount()
        public var maxRunContentBytes: Long = defaults.maxRunContentBytes.toLong()
        public var maxAttachmentBytes: Long = defaults.maxAttachmentBytes.toLong()
        public var maxMessageAttachmentBytes: Long = defaults.maxMessageAttachmentBytes.toLong()
        public var maxConversationMediaBytes: Long = defaults.maxConversationMediaBytes.toLong()
        public var maxReceivedMediaParts: Int = defaults.maxReceivedMediaParts.toCount()
        public var maxMarkdownDepth: Int = defaults.maxMarkdownDepth.toCount()
        public var maxMarkdownNodes: Int = defaults.maxMarkdownNodes.toCount()
        public var maxMarkdownTableCells: Int = defaults.maxMarkdownTableCells.toCount()
        public var maxMarkdownParseBytes: Long = defaults.maxMarkdownParseBytes.toLong()

        internal constructor(budget: MemoryBudget) : this() {
            maxMessageBytes = budget.maxMessageBytes
            maxStateBytes = budget.maxStateBytes
            maxPatchResultBytes = budget.maxPatchResultBytes
            maxDataModelBytes = budget.maxDataModelBytes
            maxTotalDataModelBytes = budget.maxTotalDataModelBytes
            maxTemplateInstances = budget.maxTemplateInstances
            maxComponentsPerSurface = budget.maxComponentsPerSurface
            maxRunContentBytes = budget.maxRunContentBytes
            maxAttachmentBytes = budget.maxAttachmentBytes
            maxMessageAttachmentBytes = budget.maxMessageAttachmentBytes
            maxConversationMediaBytes = budget.maxConversationMediaBytes
            maxReceivedMediaParts = budget.maxReceivedMediaParts
            maxMarkdownDepth = budget.maxMarkdownDepth
            maxMarkdownNodes = budget.maxMarkdownNodes
            maxMarkdownTableCells = budget.maxMarkdownTableCells
            maxMarkdownParseBytes = budget.maxMarkdownParseBytes
        }

        // Chained setters for Java (and Kotlin call chains); each sets its property.
        public fun maxMessageBytes(value: Long): Builder = apply { maxMessageBytes = value }
        public fun maxStateBytes(value: Long): Builder = apply { maxStateBytes = value }
        public fun maxPatchResultBytes(value: Long): Builder = apply { maxPatchResultBytes = value }
        public fun maxDataModelBytes(value: Long): Builder = apply { maxDataModelBytes = value }
        public fun maxTotalDataModelBytes(value: Long): Builder = apply { maxTotalDataModelBytes = value }
        public fun maxTemplateInstances(value: Int): Builder = apply { maxTemplateInstances = value }
        public fun maxComponentsPerSurface(value: Int): Builder = apply { maxComponentsPerSurface = value }
        public fun maxRunContentBytes(value: Long): Builder = apply { maxRunContentBytes = value }
        public fun maxAttachmentBytes(value: Long): Builder = apply { maxAttachmentBytes = value }
        public fun maxMessageAttachmentBytes(value: Long): Builder = apply { maxMessageAttachmentBytes = value }
        public fun maxConversationMediaBytes(value: Long): Builder = apply { maxConversationMediaBytes = value }
        public fun maxReceivedMediaParts(value: Int): Builder = apply { maxReceivedMediaParts = value }
        public fun maxMarkdownDepth(value: Int): Builder = apply { maxMarkdownDepth = value }
        public fun maxMarkdownNodes(value: Int): Builder = apply { maxMarkdownNodes = value }
        public fun maxMarkdownTableCells(value: Int): Builder = apply { maxMarkdownTableCells = value }
        public fun maxMarkdownParseBytes(value: Long): Builder = apply { maxMarkdownParseBytes = value }

        public fun build(): MemoryBudget = MemoryBudget(this).also { budget ->
            budget.fields().firstOrNull { (_, value) -> (value as Number).toLong() < 0 }?.let { (name, value) ->
                throw IllegalArgumentException("$name must not be negative, got $value")
            }
        }
    }

    public companion object {
        /** The core's defaults with the changes of [configure]: `MemoryBudget { maxStateBytes = 1_000_000 }`. */
        public operator fun invoke(configure: Builder.() -> Unit = {}): MemoryBudget = Builder().apply(configure).build()

        // Read once from the core, so the defaults are written down in one place (the Rust budget).
        private val coreDefaults: CoreMemoryBudget by lazy {
            NativeThreads.install()
            defaultMemoryBudget()
        }

        // A core count past Int.MAX_VALUE (none is) would mean no bound here.
        private fun ULong.toCount(): Int = if (this > Int.MAX_VALUE.toULong()) Int.MAX_VALUE else toInt()
    }

    // Value equality and text as a data class has them; this list is every bound.
    private fun fields(): List<Pair<String, Any>> = listOf(
        "maxMessageBytes" to maxMessageBytes,
        "maxStateBytes" to maxStateBytes,
        "maxPatchResultBytes" to maxPatchResultBytes,
        "maxDataModelBytes" to maxDataModelBytes,
        "maxTotalDataModelBytes" to maxTotalDataModelBytes,
        "maxTemplateInstances" to maxTemplateInstances,
        "maxComponentsPerSurface" to maxComponentsPerSurface,
        "maxRunContentBytes" to maxRunContentBytes,
        "maxAttachmentBytes" to maxAttachmentBytes,
        "maxMessageAttachmentBytes" to maxMessageAttachmentBytes,
        "maxConversationMediaBytes" to maxConversationMediaBytes,
        "maxReceivedMediaParts" to maxReceivedMediaParts,
        "maxMarkdownDepth" to maxMarkdownDepth,
        "maxMarkdownNodes" to maxMarkdownNodes,
        "maxMarkdownTableCells" to maxMarkdownTableCells,
        "maxMarkdownParseBytes" to maxMarkdownParseBytes,
    )

    override fun equals(other: Any?): Boolean = other is MemoryBudget && fields() == other.fields()

    override fun hashCode(): Int = fields().hashCode()

    override fun toString(): String =
        fields().joinToString(prefix = "MemoryBudget(", postfix = ")") { (name, value) -> "$name=$value" }

    /** The core's record; the layer checked every bound is not negative. */
    internal fun toNative(): CoreMemoryBudget = CoreMemoryBudget(
        maxMessageBytes = maxMessageBytes.toULong(),
        maxStateBytes = maxStateBytes.toULong(),
        maxPatchResultBytes = maxPatchResultBytes.toULong(),
        maxDataModelBytes = maxDataModelBytes.toULong(),
        maxTotalDataModelBytes = maxTotalDataModelBytes.toULong(),
        maxTemplateInstances = maxTemplateInstances.toULong(),
        maxComponentsPerSurface = maxComponentsPerSurface.toULong(),
        maxRunContentBytes = maxRunContentBytes.toULong(),
        maxAttachmentBytes = maxAttachmentBytes.toULong(),
        maxMessageAttachmentBytes = maxMessageAttachmentBytes.toULong(),
        maxConversationMediaBytes = maxConversationMediaBytes.toULong(),
        maxReceivedMediaParts = maxReceivedMediaParts.toULong(),
        maxMarkdownDepth = maxMarkdownDepth.toULong(),
        maxMarkdownNodes = maxMarkdownNodes.toULong(),
        maxMarkdownTableCells = maxMarkdownTableCells.toULong(),
        maxMarkdownParseBytes = maxMarkdownParseBytes.toULong(),
    )
}
