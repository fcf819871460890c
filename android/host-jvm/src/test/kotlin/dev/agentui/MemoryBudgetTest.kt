package dev.agentui

import dev.agentui.core.agui.MemoryBudget as CoreMemoryBudget
import dev.agentui.core.defaultMemoryBudget
import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertTrue

/**
 * The layer's own `MemoryBudget` (issue 44): it starts from the core's defaults, grows like
 * `AgentOptions` (no public constructor listing the bounds), and reaches the core field for
 * field. This test pokes the generated record on purpose: it checks the mapping to it.
 */
class MemoryBudgetTest {
    @Test
    fun `the defaults are the core's`() {
        assertEquals(MemoryBudget(), MemoryBudget().newBuilder().build())
        assertEquals(defaultMemoryBudget(), MemoryBudget().toNative())
    }

    @Test
    fun `every bound reaches the core's record in its own field`() {
        // Distinct values, so a bound mapped to a neighbour's field cannot pass.
        val budget = MemoryBudget {
            maxMessageBytes = 101
            maxStateBytes = 102
            maxPatchResultBytes = 103
            maxDataModelBytes = 104
            maxTotalDataModelBytes = 105
            maxTemplateInstances = 106
            maxComponentsPerSurface = 107
            maxRunContentBytes = 108
            maxAttachmentBytes = 109
            maxMessageAttachmentBytes = 110
            maxConversationMediaBytes = 111
            maxReceivedMediaParts = 112
            maxMarkdownDepth = 113
            maxMarkdownNodes = 114
            maxMarkdownTableCells = 115
            maxMarkdownParseBytes = 116
        }
        val expected = CoreMemoryBudget(
            maxMessageBytes = 101uL,
            maxStateBytes = 102uL,
            maxPatchResultBytes = 103uL,
            maxDataModelBytes = 104uL,
            maxTotalDataModelBytes = 105uL,
            maxTemplateInstances = 106uL,
            maxComponentsPerSurface = 107uL,
            maxRunContentBytes = 108uL,
            maxAttachmentBytes = 109uL,
            maxMessageAttachmentBytes = 110uL,
            maxConversationMediaBytes = 111uL,
            maxReceivedMediaParts = 112uL,
            maxMarkdownDepth = 113uL,
            maxMarkdownNodes = 114uL,
            maxMarkdownTableCells = 115uL,
            maxMarkdownParseBytes = 116uL,
        )
        assertEquals(expected, budget.toNative())
        val chained = MemoryBudget.Builder().maxStateBytes(102).maxMarkdownNodes(114).build()
        assertEquals(102L, chained.maxStateBytes)
        assertEquals(chained, chained.newBuilder().build())
    }

    @Test
    fun `a negative bound is refused when built, naming it`() {
        val error = assertFailsWith<IllegalArgumentException> { MemoryBudget { maxMarkdownDepth = -1 } }
        assertTrue(error.message!!.contains("maxMarkdownDepth"), error.message)
    }

    @Test
    fun `no public signature lists the bounds, so adding one keeps compiled code linking`() {
        val type = MemoryBudget::class.java
        assertTrue(type.constructors.filterNot { it.isSynthetic }.isEmpty(), "public constructors")
        val positional = type.methods.filter { it.name.startsWith("copy") || it.name.matches(Regex("component\\d+")) }
        assertTrue(positional.isEmpty(), "data-class members: $positional")
    }
}
