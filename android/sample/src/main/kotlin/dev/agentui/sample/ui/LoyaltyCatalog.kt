package dev.agentui.sample.ui

import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.Text
import dev.agentui.CatalogFunction
import dev.agentui.CatalogFunctionFailure
import dev.agentui.CatalogFunctionId
import dev.agentui.compose.ComponentRegistry
import java.util.Locale

/**
 * The sample's own A2UI catalog, the demo agent's loyalty catalog ("show my loyalty card"): the
 * app ships its JSON, implements its `formatPoints` function and draws its `LoyaltyBadge`
 * component. The agent draws the badge only because the conversation advertises this catalog.
 */
object LoyaltyCatalog {
    const val ID = "https://agentui.dev/demo/catalogs/loyalty/v1/catalog.json"

    private const val COMMON = "https://a2ui.org/specification/v0_9/common_types.json#/\$defs"

    /** The catalog as the app ships it (A2UI v0.9 catalog JSON). */
    val json: String = """
        {"catalogId": "$ID", "description": "The demo app's loyalty card.",
         "components": {"LoyaltyBadge": {"type": "object", "allOf": [
             {"${'$'}ref": "$COMMON/ComponentCommon"},
             {"type": "object", "properties": {
                 "component": {"const": "LoyaltyBadge"},
                 "tier": {"${'$'}ref": "$COMMON/DynamicString"},
                 "points": {"${'$'}ref": "$COMMON/DynamicString"}},
              "required": ["component", "tier", "points"]}],
             "unevaluatedProperties": false}},
         "functions": [{"name": "formatPoints", "returnType": "string", "parameters": {
             "type": "object", "additionalProperties": false, "required": ["value"],
             "properties": {"value": {"${'$'}ref": "$COMMON/DynamicNumber"}}}}]}
    """.trimIndent()

    /** `formatPoints {value}`: the balance with grouping, "1,250 points". */
    val functions: Map<CatalogFunctionId, CatalogFunction> = mapOf(
        CatalogFunctionId(ID, "formatPoints") to { args ->
            val value = args["value"] as? Double ?: throw CatalogFunctionFailure("no points balance")
            String.format(Locale.US, "%,d points", value.toLong())
        },
    )

    /** The basic components, and the badge as one line of text. */
    val components: ComponentRegistry = ComponentRegistry.basic().with("LoyaltyBadge") { scope, modifier ->
        Text(
            "${scope.text("tier").orEmpty()} · ${scope.text("points").orEmpty()}",
            modifier,
            style = MaterialTheme.typography.titleMedium,
        )
    }
}
