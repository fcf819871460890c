package dev.agentui.compose

import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNull
import kotlin.test.assertTrue

/**
 * The renderer's pure logic beyond the shared parity cases (RendererCasesTest): ISO date checks
 * and the date picker's millis.
 */
class RendererLogicTest {
    @Test
    fun `ISO dates are real calendar dates in UTC`() {
        assertTrue(IsoDates.isDate("2024-02-29"))
        assertFalse(IsoDates.isDate("2026-02-29"), "not a leap year")
        assertFalse(IsoDates.isDate("2026-13-01"))
        assertFalse(IsoDates.isDate("2026-1-01"))
        assertFalse(IsoDates.isDate("２０２６-01-01"), "ASCII digits only")
        assertNull(IsoDates.dateMillis("tomorrow"))
        val millis = IsoDates.dateMillis("2026-12-24")!!
        assertEquals(0L, millis % 86_400_000L, "UTC midnight, as Material's date picker expects")
        assertEquals("2026-12-24", IsoDates.date(millis))
        assertTrue(IsoDates.isTime("23:59") && IsoDates.isTime("07:05:09"))
        assertFalse(IsoDates.isTime("24:00") || IsoDates.isTime("7:05") || IsoDates.isTime("12:60"))
    }

    @Test
    fun `each enabled combination has its own format, and picking a date keeps the time`() {
        assertEquals(IsoFormat.Date, IsoFormat.of(enableDate = false, enableTime = false))
        assertEquals(IsoFormat.Time, IsoFormat.of(enableDate = false, enableTime = true))
        val dateTime = IsoFormat.of(enableDate = true, enableTime = true)
        assertTrue(dateTime.accepts("2026-12-24T19:30"))
        assertFalse(dateTime.accepts("2026-12-24 19:30"))
        assertEquals("2027-01-02T19:30", dateTime.withDate("2026-12-24T19:30", "2027-01-02"))
        assertEquals("2027-01-02T00:00", dateTime.withDate("", "2027-01-02"))
    }
}
