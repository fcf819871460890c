package dev.agentui

import dev.agentui.core.ConversationException
import dev.agentui.core.demo.demoLoyaltyCatalogId
import dev.agentui.core.demo.demoLoyaltyCatalogJson
import dev.agentui.core.json.NodeValue
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.Timeout
import java.util.Collections
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertTrue

/**
 * The app's own catalog and function through [AgentOptions]: the demo agent draws its loyalty
 * badge (`custom-catalog`) in the catalog the app registered, and the badge's points text is
 * the app's `formatPoints` lambda; a throwing lambda leaves it null; a bad catalog fails at
 * connect.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AppCatalogTest {
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()

    private val formatPoints = CatalogFunctionId(demoLoyaltyCatalogId(), "formatPoints")

    private fun connect(options: AgentOptions) =
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), options = options, dispatcher = main.dispatcher)

    /** The badge once the agent drew it and its tier arrived: `points` as the surface shows it. */
    private fun badgePoints(conversation: AgentConversation): NodeValue? = runBlocking {
        conversation.send("show my loyalty card")
        conversation.probe("loyalty", main.dispatcher).use { surface ->
            surface.await { it.node("root")?.prop("tier")?.textOrNull == "Gold" }
            assertEquals("LoyaltyBadge", surface.node("root")?.componentType)
            surface.node("root")?.prop("points")
        }
    }

    @Test
    fun `the app's function writes the badge of its own catalog`() {
        val seen = Collections.synchronizedList(mutableListOf<Map<String, Any?>>())
        val options = AgentOptions {
            catalogs = listOf(demoLoyaltyCatalogJson())
            functions = mapOf(
                formatPoints to { args ->
                    seen.add(args)
                    val value = args["value"] as? Double ?: throw CatalogFunctionFailure("no balance yet")
                    "${value.toInt()} points"
                },
            )
        }
        connect(options).use { conversation ->
            assertEquals("1250 points", badgePoints(conversation)?.textOrNull)
        }
        assertEquals(mapOf("value" to 1250.0), seen.last())
    }

    @Test
    fun `a throwing function leaves its property null and the conversation goes on`() {
        val options = AgentOptions {
            catalogs = listOf(demoLoyaltyCatalogJson())
            functions = mapOf(formatPoints to { _ -> error("the points service is down") })
        }
        connect(options).use { conversation ->
            assertEquals(NodeValue.Null, badgePoints(conversation))
            runBlocking { conversation.send("hello") }
            assertTrue(conversation.messages.value.lastAssistantText().contains("demo agent"))
        }
    }

    /** The demo's loyalty catalog written as an app builds it in code: plain values, no JSON text. */
    private fun loyaltyCatalogValue(): Map<String, Any?> {
        val common = "https://a2ui.org/specification/v0_9/common_types.json#/\$defs"
        val badge = mapOf(
            "type" to "object",
            "description" to "A member's tier and points balance.",
            "allOf" to listOf(
                mapOf("\$ref" to "$common/ComponentCommon"),
                mapOf(
                    "type" to "object",
                    "properties" to mapOf(
                        "component" to mapOf("const" to "LoyaltyBadge"),
                        "tier" to mapOf("\$ref" to "$common/DynamicString"),
                        "points" to mapOf("\$ref" to "$common/DynamicString"),
                    ),
                    "required" to listOf("component", "tier", "points"),
                ),
            ),
            "unevaluatedProperties" to false,
        )
        val formatPointsDeclaration = mapOf(
            "name" to "formatPoints",
            "parameters" to mapOf(
                "type" to "object",
                "properties" to mapOf("value" to mapOf("\$ref" to "$common/DynamicNumber")),
                "required" to listOf("value"),
                "additionalProperties" to false,
            ),
            "returnType" to "string",
        )
        return mapOf(
            "catalogId" to demoLoyaltyCatalogId(),
            "components" to mapOf("LoyaltyBadge" to badge),
            "functions" to listOf(formatPointsDeclaration),
        )
    }

    @Test
    fun `a catalog given as values renders the agent's surface with the app's function`() {
        val options = AgentOptions {
            catalogValues = listOf(loyaltyCatalogValue())
            functions = mapOf(formatPoints to { args -> "${(args["value"] as Double).toInt()} pts" })
        }
        connect(options).use { conversation ->
            assertEquals("1250 pts", badgePoints(conversation)?.textOrNull)
        }
    }

    @Test
    fun `catalog values are checked like the text and never given beside it`() {
        val both = assertFailsWith<ConversationException.InvalidOptions> {
            connect(
                AgentOptions {
                    catalogs = listOf(demoLoyaltyCatalogJson())
                    catalogValues = listOf(loyaltyCatalogValue())
                },
            )
        }
        assertTrue(both.detail.contains("not both"), both.detail)
        val malformed = assertFailsWith<ConversationException.InvalidOptions> {
            connect(AgentOptions { catalogValues = listOf(mapOf("components" to emptyMap<String, Any?>())) })
        }
        assertTrue(malformed.detail.contains("not a valid A2UI catalog"), malformed.detail)
        val nan = assertFailsWith<ConversationException.InvalidOptions> {
            connect(AgentOptions { catalogValues = listOf(loyaltyCatalogValue() + ("version" to Double.NaN)) })
        }
        assertTrue(nan.detail.contains("catalog 0 is not JSON at '/version'"), nan.detail)
    }

    @Test
    fun `without the catalog the agent answers in words`() {
        connect(AgentOptions()).use { conversation ->
            runBlocking { conversation.send("show my loyalty card") }
            assertTrue(conversation.surfaces.value.none { it.id == "loyalty" })
            assertTrue(conversation.messages.value.lastAssistantText().contains("does not render the loyalty catalog"))
        }
    }

    @Test
    fun `an app that advertises no A2UI sends no catalogs, even its own`() {
        // The demo agent draws the badge only when the request's capabilities entry lists the
        // loyalty catalog: with the option off there is no entry, so it answers in words.
        val options = AgentOptions {
            catalogs = listOf(demoLoyaltyCatalogJson())
            advertiseA2ui = false
        }
        assertEquals(false, options.newBuilder().build().advertiseA2ui)
        connect(options).use { conversation ->
            runBlocking { conversation.send("show my loyalty card") }
            assertTrue(conversation.surfaces.value.none { it.id == "loyalty" })
            assertTrue(conversation.messages.value.lastAssistantText().contains("does not render the loyalty catalog"))
        }
    }

    @Test
    fun `a bad catalog or an undeclared function is InvalidOptions at connect`() {
        val notJson = assertFailsWith<ConversationException.InvalidOptions> {
            connect(AgentOptions { catalogs = listOf("{") })
        }
        assertTrue(notJson.detail.contains("not JSON"), notJson.detail)
        val undeclared = assertFailsWith<ConversationException.InvalidOptions> {
            connect(
                AgentOptions {
                    catalogs = listOf(demoLoyaltyCatalogJson())
                    functions = mapOf(CatalogFunctionId(demoLoyaltyCatalogId(), "formatStars") to { _ -> null })
                },
            )
        }
        assertTrue(undeclared.detail.contains("formatStars"), undeclared.detail)
    }
}
