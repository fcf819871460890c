package dev.agentui.testing

/** JSON text of a Kotlin value: maps, lists, strings, numbers, booleans, null, or [RawJson]. */
internal fun jsonOf(value: Any?): String = StringBuilder().also { write(it, value) }.toString()

/** JSON written by hand (an A2UI message copied from a spec), inserted as it is. */
public class RawJson(public val text: String)

private fun write(out: StringBuilder, value: Any?) {
    when (value) {
        null -> out.append("null")
        is RawJson -> out.append(value.text)
        is String -> quote(out, value)
        is Boolean -> out.append(value)
        is Int, is Long, is Short, is Byte -> out.append(value.toString())
        is Number -> {
            val d = value.toDouble()
            require(d.isFinite()) { "JSON has no $d" }
            out.append(if (d == Math.floor(d) && Math.abs(d) < 1e15) d.toLong().toString() else d.toString())
        }
        is Map<*, *> -> {
            out.append('{')
            value.entries.forEachIndexed { i, (k, v) ->
                if (i > 0) out.append(',')
                quote(out, k.toString())
                out.append(':')
                write(out, v)
            }
            out.append('}')
        }
        is Iterable<*> -> {
            out.append('[')
            value.forEachIndexed { i, v ->
                if (i > 0) out.append(',')
                write(out, v)
            }
            out.append(']')
        }
        is Array<*> -> write(out, value.toList())
        else -> throw IllegalArgumentException("no JSON form for ${value::class.qualifiedName}")
    }
}

private fun quote(out: StringBuilder, text: String) {
    out.append('"')
    for (c in text) {
        when {
            c == '"' -> out.append("\\\"")
            c == '\\' -> out.append("\\\\")
            c == '\n' -> out.append("\\n")
            c == '\r' -> out.append("\\r")
            c == '\t' -> out.append("\\t")
            c < ' ' -> out.append("\\u%04x".format(c.code))
            else -> out.append(c)
        }
    }
    out.append('"')
}
