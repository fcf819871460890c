package dev.agentui

import dev.agentui.core.json.NodeValue
import dev.agentui.core.agui.PatchOp
import dev.agentui.core.agui.PatchOperation

/**
 * The shared state as the adapter keeps it: a mutable tree of plain Kotlin values (LinkedHashMap,
 * ArrayList, String, Double, Boolean, null) that the core's applied JSON Patches are replayed on.
 * The core already applied and validated each patch and sends it as `add`, `replace` and
 * `remove` only (it spells `move` and `copy` out with their values and drops `test`). Anything
 * else, or a path that does not resolve here, means the two disagree, and the caller falls
 * back to a fresh snapshot.
 */
internal class StateTree {
    var root: Any? = null
        private set

    fun replace(value: NodeValue) {
        root = value.toMutable()
    }

    /** Replays [ops]; false when one does not apply (the tree is then unspecified). */
    fun apply(ops: List<PatchOperation>): Boolean = ops.all { op ->
        runCatching {
            when (op.op) {
                PatchOp.ADD -> put(op.path, op.value?.toMutable(), insert = true)
                PatchOp.REPLACE -> put(op.path, op.value?.toMutable(), insert = false)
                PatchOp.REMOVE -> remove(op.path)
                PatchOp.MOVE, PatchOp.COPY, PatchOp.TEST -> error("the core spells ${op.op} out")
            }
        }.isSuccess
    }

    /** An immutable copy for publishing. */
    fun snapshot(): Any? = freeze(root)

    private fun tokens(path: String): List<String> =
        if (path.isEmpty()) emptyList() else path.substring(1).split('/').map { it.replace("~1", "/").replace("~0", "~") }

    private fun child(node: Any?, token: String): Any? = when (node) {
        is Map<*, *> -> node[token]
        is List<*> -> node[token.toInt()]
        else -> error("no container at $token")
    }

    @Suppress("UNCHECKED_CAST")
    private fun put(path: String, value: Any?, insert: Boolean) {
        val parts = tokens(path)
        if (parts.isEmpty()) {
            root = value
            return
        }
        when (val parent = parts.dropLast(1).fold(root) { node, token -> child(node, token) }) {
            is MutableMap<*, *> -> (parent as MutableMap<String, Any?>)[parts.last()] = value
            is MutableList<*> -> {
                val list = parent as MutableList<Any?>
                val last = parts.last()
                if (last == "-") list.add(value)
                else if (insert) list.add(last.toInt(), value)
                else list[last.toInt()] = value
            }
            else -> error("no container at $path")
        }
    }

    private fun remove(path: String) {
        val parts = tokens(path)
        if (parts.isEmpty()) {
            root = null
            return
        }
        when (val parent = parts.dropLast(1).fold(root) { node, token -> child(node, token) }) {
            is MutableMap<*, *> -> parent.remove(parts.last())
            is MutableList<*> -> parent.removeAt(parts.last().toInt())
            else -> error("no container at $path")
        }
    }

    private fun freeze(value: Any?): Any? = when (value) {
        is Map<*, *> -> value.entries.associate { (k, v) -> k as String to freeze(v) }
        is List<*> -> value.map { freeze(it) }
        else -> value
    }

    private fun NodeValue.toMutable(): Any? = when (this) {
        is NodeValue.Null -> null
        is NodeValue.Bool -> value
        is NodeValue.Number -> value
        is NodeValue.Text -> value
        is NodeValue.Array -> items.mapTo(ArrayList()) { it.toMutable() }
        is NodeValue.Object -> entries.associateTo(LinkedHashMap<String, Any?>()) { it.name to it.value.toMutable() }
    }
}

/** [value] (plain Kotlin values as [StateTree] holds them) as compact JSON text. */
internal fun toJson(value: Any?): String = StringBuilder().also { writeJson(it, value) }.toString()

private fun writeJson(out: StringBuilder, value: Any?) {
    when (value) {
        null -> out.append("null")
        is Boolean -> out.append(value)
        is Double -> if (value % 1.0 == 0.0 && kotlin.math.abs(value) < 9.007199254740992E15) out.append(value.toLong()) else out.append(value)
        is Number -> out.append(value)
        is String -> {
            out.append('"')
            for (c in value) when {
                c == '"' -> out.append("\\\"")
                c == '\\' -> out.append("\\\\")
                c == '\n' -> out.append("\\n")
                c == '\r' -> out.append("\\r")
                c == '\t' -> out.append("\\t")
                c < ' ' -> out.append("\\u%04x".format(c.code))
                else -> out.append(c)
            }
            out.append('"')
        }
        is Map<*, *> -> {
            out.append('{')
            value.entries.forEachIndexed { i, (k, v) ->
                if (i > 0) out.append(',')
                writeJson(out, k as String)
                out.append(':')
                writeJson(out, v)
            }
            out.append('}')
        }
        is List<*> -> {
            out.append('[')
            value.forEachIndexed { i, v ->
                if (i > 0) out.append(',')
                writeJson(out, v)
            }
            out.append(']')
        }
        else -> writeJson(out, value.toString())
    }
}
