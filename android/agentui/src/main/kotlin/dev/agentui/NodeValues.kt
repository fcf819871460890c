package dev.agentui

import dev.agentui.core.json.NodeValue
import dev.agentui.core.json.PropEntry

/**
 * Kotlin values to and from [NodeValue], for `setValue` and for reading resolved props.
 * Accepted: null, Boolean, any Number (sent as a Double), String, Iterable / Array (JSON
 * arrays), Map with String keys (JSON objects, in iteration order), and NodeValue itself.
 */
fun nodeValueOf(value: Any?): NodeValue = when (value) {
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
fun NodeValue.toKotlin(): Any? = when (this) {
    is NodeValue.Null -> null
    is NodeValue.Bool -> value
    is NodeValue.Number -> value
    is NodeValue.Text -> value
    is NodeValue.Array -> items.map { it.toKotlin() }
    is NodeValue.Object -> entries.associate { it.name to it.value.toKotlin() }
}

/** The text of a Text value, or null for any other kind. */
val NodeValue.textOrNull: String? get() = (this as? NodeValue.Text)?.value
