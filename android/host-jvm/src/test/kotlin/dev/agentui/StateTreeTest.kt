package dev.agentui

import dev.agentui.core.NodeValue
import dev.agentui.core.PatchOp
import dev.agentui.core.PatchOperationRecord
import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/** The adapter replays the core's applied JSON Patches on its copy of the state. */
class StateTreeTest {
    private fun op(op: PatchOp, path: String, value: Any? = null, from: String? = null) =
        PatchOperationRecord(op, path, from, if (op == PatchOp.REMOVE || op == PatchOp.MOVE || op == PatchOp.COPY) null else nodeValueOf(value))

    @Test
    fun `every RFC 6902 operation replays on the tree`() {
        val tree = StateTree()
        tree.replace(nodeValueOf(mapOf("a" to 1, "list" to listOf("x", "z"), "o" to mapOf("k~/" to true))))
        assertTrue(
            tree.apply(
                listOf(
                    op(PatchOp.ADD, "/list/1", "y"),
                    op(PatchOp.ADD, "/list/-", "w"),
                    op(PatchOp.REPLACE, "/a", 2),
                    op(PatchOp.REMOVE, "/o/k~0~1"),
                    op(PatchOp.COPY, "/b", from = "/list"),
                    op(PatchOp.MOVE, "/c", from = "/a"),
                    op(PatchOp.TEST, "/c", 2),
                ),
            ),
        )
        assertEquals(
            mapOf("list" to listOf("x", "y", "z", "w"), "o" to emptyMap<String, Any?>(), "b" to listOf("x", "y", "z", "w"), "c" to 2.0),
            tree.snapshot(),
        )
        assertEquals("""{"list":["x","y","z","w"],"o":{},"b":["x","y","z","w"],"c":2}""", toJson(tree.snapshot()))
        // A copy is its own value: changing it leaves the source alone.
        assertTrue(tree.apply(listOf(op(PatchOp.ADD, "/b/0", "new"))))
        assertEquals(listOf("x", "y", "z", "w"), (tree.snapshot() as Map<*, *>)["list"])
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
