package dev.agentui.compose

import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** The renderer's pure logic: echo suppression of bound inputs and ISO date handling. */
class RendererLogicTest {
    @Test
    fun `late echoes of our own writes do not roll back what the user typed since`() {
        val written = mutableListOf<String>()
        val bound = BoundValue("")
        bound.edit("A") { written += it; true }
        bound.edit("Ad") { written += it; true }
        bound.edit("Ada") { written += it; true }
        bound.resolved("A") // the core's echo of the first keystroke arrives late
        assertEquals("Ada", bound.value)
        bound.resolved("Ada")
        assertEquals("Ada", bound.value)
        assertEquals(listOf("A", "Ad", "Ada"), written)
    }

    @Test
    fun `a number typed with a trailing point is not replaced by its normalised echo`() {
        val bound = BoundValue("")
        bound.edit("1", echo = formatNumber(1.0)) { true }
        bound.edit("1.", echo = formatNumber(1.0)) { true }
        bound.resolved("1") // echo of the first write
        bound.resolved("1") // unchanged: the second echo is equal, nothing happens
        assertEquals("1.", bound.value, "the user can go on typing decimals")
        bound.edit("1.5", echo = formatNumber(1.5)) { true }
        bound.resolved("1.5")
        assertEquals("1.5", bound.value)
    }

    @Test
    fun `a value set elsewhere replaces what is shown`() {
        val bound = BoundValue("")
        bound.edit("Ada") { true }
        bound.resolved("Ada")
        bound.resolved("Grace") // the agent changed it
        assertEquals("Grace", bound.value)
        // Echoes queued before the agent's change are forgotten: "Ada" again is a real change.
        bound.resolved("Ada")
        assertEquals("Ada", bound.value)
    }

    @Test
    fun `an unwritten edit (no binding) stays local and expects no echo`() {
        val bound = BoundValue(3.0)
        bound.edit(7.0) { false }
        assertEquals(7.0, bound.value)
        bound.resolved(5.0)
        assertEquals(5.0, bound.value, "with nothing in flight, a new resolved value always shows")
    }

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
