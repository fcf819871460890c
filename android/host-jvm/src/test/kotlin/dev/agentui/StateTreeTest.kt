package dev.agentui

import dev.agentui.core.json.NodeValue
import dev.agentui.core.agui.PatchOp
import dev.agentui.core.agui.PatchOperation
import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/** The adapter replays the core's applied JSON Patches on its copy of the state. */
class StateTreeTest {
    private fun op(op: PatchOp, path: String, value: Any? = null, from: String? = null) =
        PatchOperation(op, path, from, if (op == PatchOp.REMOVE || op == PatchOp.MOVE || op == PatchOp.COPY) null else nodeValueOf(value), emptyList())

    @Test
    fun `add, replace and remove replay on the tree`() {
        val tree = StateTree()
        tree.replace(nodeValueOf(mapOf("a" to 1, "list" to listOf("x", "z"), "o" to mapOf("k~/" to true))))
        assertTrue(
            tree.apply(
                listOf(
                    op(PatchOp.ADD, "/list/1", "y"),
                    op(PatchOp.ADD, "/list/-", "w"),
                    op(PatchOp.REPLACE, "/a", 2),
                    op(PatchOp.REMOVE, "/o/k~0~1"),
                    op(PatchOp.ADD, "/b", listOf("x", "y")),
                ),
            ),
        )
        assertEquals(mapOf("a" to 2.0, "list" to listOf("x", "y", "z", "w"), "o" to emptyMap<String, Any?>(), "b" to listOf("x", "y")), tree.snapshot())
        assertEquals("""{"a":2,"list":["x","y","z","w"],"o":{},"b":["x","y"]}""", toJson(tree.snapshot()))
    }

    @Test
    fun `move, copy and test are refused - the core spells them out`() {
        for (kind in listOf(PatchOp.MOVE, PatchOp.COPY, PatchOp.TEST)) {
            val tree = StateTree()
            tree.replace(nodeValueOf(mapOf("a" to 1)))
            assertFalse(tree.apply(listOf(op(kind, "/b", 1, from = "/a"))), "$kind")
        }
    }

    @Test
    fun `a path that does not resolve is reported, not thrown`() {
        val tree = StateTree()
        tree.replace(NodeValue.Object(emptyList()))
        assertFalse(tree.apply(listOf(op(PatchOp.REPLACE, "/missing/deep", 1))))
    }

    @Test
    fun `JSON text escapes what JSON requires`() {
        assertEquals("""{"s":"a\"b\\c\nd\u0001","n":null,"f":1.5}""", toJson(mapOf("s" to "a\"b\\c\nd\u0001", "n" to null, "f" to 1.5)))
    }
}
