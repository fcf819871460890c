package dev.agentui

import dev.agentui.core.json.NodeValue
import dev.agentui.core.json.PropEntry

/**
 * Kotlin values to and from [NodeValue], for `setValue` and for reading resolved props.
 * Accepted: null, Boolean, any Number (sent as a Double), String, Iterable / Array (JSON
 * arrays), Map with String keys (JSON objects, in iteration order), and NodeValue itself.
 */
public fun nodeValueOf(value: Any?): NodeValue = when (value) {
    null -> NodeValue.Null
    is NodeValue -> value
    is Boolean -> NodeValue.Bool(value)
    is Number -> NodeValue.Number(value.toDouble())
    is String -> NodeValue.Text(value)
    is Map<*, *> -> NodeValue.Object(
        value.map { (k, v) ->
            require(k is String) { "object keys must be strings, got ${k?.javaClass?.name}" }
            PropEntry(k, nodeValueOf(v))
        },
    )
    is Iterable<*> -> NodeValue.Array(value.map(::nodeValueOf))
    is Array<*> -> NodeValue.Array(value.map(::nodeValueOf))
    else -> throw IllegalArgumentException("no NodeValue for ${value.javaClass.name}")
}

/** The plain Kotlin value: null, Boolean, Double, String, List<Any?> or Map<String, Any?>. */
public fun NodeValue.toKotlin(): Any? = when (this) {
    is NodeValue.Null -> null
    is NodeValue.Bool -> value
    is NodeValue.Number -> value
    is NodeValue.Text -> value
    is NodeValue.Array -> items.map { it.toKotlin() }
    is NodeValue.Object -> entries.associate { it.name to it.value.toKotlin() }
}

/** The text of a Text value, or null for any other kind. */
public val NodeValue.textOrNull: String? get() = (this as? NodeValue.Text)?.value

/** [value] (plain Kotlin values, as [toKotlin] gives them) as compact JSON text. */
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
