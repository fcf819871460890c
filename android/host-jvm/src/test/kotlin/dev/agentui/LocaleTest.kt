package dev.agentui

import dev.agentui.core.ConversationException
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.Timeout
import java.util.Locale
import java.util.TimeZone
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertTrue

/**
 * The device's locale and time zone reach the core's A2UI formatting (issue 12): the demo
 * agent's receipt carries raw values (1234.5 EUR, 2026-03-01T10:00:00Z, the date 2026-03-02,
 * 12345.678, 3 items) that the core formats in the conversation's locale and zone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocaleTest {
    @JvmField
    @RegisterExtension
    val main = MainThreadExtension()
    private lateinit var savedLocale: Locale
    private lateinit var savedZone: TimeZone

    @BeforeEach
    fun setUp() {
        savedLocale = Locale.getDefault()
        savedZone = TimeZone.getDefault()
    }

    @AfterEach
    fun tearDown() {
        Locale.setDefault(savedLocale)
        TimeZone.setDefault(savedZone)
    }

    private fun connect(options: AgentOptions = AgentOptions()) =
        Fixtures.runtime.connect(Fixtures.agent.agentUrl(), options = options, dispatcher = main.dispatcher)

    /** The receipt's texts, in display order. */
    private fun receipt(conversation: AgentConversation): List<String?> = runBlocking {
        conversation.send("show my receipt")
        // The components arrive before the data model: wait for the formatted values.
        conversation.probe("receipt", main.dispatcher).use { surface ->
            surface.await { it.node("total")?.prop("text")?.textOrNull?.isNotEmpty() == true }
            listOf("total", "paid", "delivery", "points", "items").map { surface.node(it)?.prop("text")?.textOrNull }
        }
    }

    @Test
    fun `the default locale and time zone of the JVM flow into the core`() {
        Locale.setDefault(Locale.GERMANY)
        TimeZone.setDefault(TimeZone.getTimeZone("Europe/Berlin"))
        connect().use { conversation ->
            assertEquals(
                listOf("EUR 1.234,50", "Sonntag 1 März 2026 11:00", "Mo. 2 März 2026", "12.345,678", "several items"),
                receipt(conversation),
            )
        }
        Locale.setDefault(Locale.KOREA)
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Seoul"))
        connect().use { conversation ->
            assertEquals(
                listOf("EUR 1,234.50", "일요일 1 3월 2026 19:00", "월 2 3월 2026", "12,345.678", "several items"),
                receipt(conversation),
            )
        }
    }

    @Test
    fun `options name a locale and zone other than the device's`() {
        Locale.setDefault(Locale.GERMANY)
        TimeZone.setDefault(TimeZone.getTimeZone("Europe/Berlin"))
        connect(AgentOptions { locale = "en-US"; timeZone = "UTC" }).use { conversation ->
            assertEquals(
                listOf("€1,234.50", "Sunday 1 March 2026 10:00", "Mon 2 Mar 2026", "12,345.678", "several items"),
                receipt(conversation),
            )
        }
        // Polish plural rules: 3 is "few"; the zone still comes from the device.
        connect(AgentOptions { locale = "pl-PL" }).use { conversation ->
            val texts = receipt(conversation)
            assertEquals("a few items", texts[4])
            assertEquals("niedziela 1 marca 2026 11:00", texts[1])
        }
    }

    @Test
    fun `an invalid locale or time zone is InvalidOptions at connect`() {
        val badLocale = assertFailsWith<ConversationException.InvalidOptions> {
            connect(AgentOptions { locale = "en_US" })
        }
        assertTrue(badLocale.detail.contains("locale"), badLocale.detail)
        val badZone = assertFailsWith<ConversationException.InvalidOptions> {
            connect(AgentOptions { timeZone = "Mars/Olympus" })
        }
        assertTrue(badZone.detail.contains("time zone"), badZone.detail)
    }
}
