package dev.agentui.compose

import java.util.Calendar
import java.util.GregorianCalendar
import java.util.Locale
import java.util.TimeZone

/** The ISO 8601 shape a DateTimeInput writes, from its `enableDate` / `enableTime`. */
internal enum class IsoFormat(val pattern: String, val hasDate: Boolean) {
    Date("YYYY-MM-DD", true),
    Time("HH:MM", false),
    DateTime("YYYY-MM-DDTHH:MM", true),
    ;

    fun accepts(text: String): Boolean = when (this) {
        Date -> IsoDates.isDate(text)
        Time -> IsoDates.isTime(text)
        DateTime -> text.length >= 16 && text[10] == 'T' && IsoDates.isDate(text.take(10)) && IsoDates.isTime(text.drop(11))
    }

    /** [current] with its date part set to [date] (a date-time keeps its time, or gets 00:00). */
    fun withDate(current: String, date: String): String = when (this) {
        Date -> date
        Time -> current
        DateTime -> date + "T" + (if (accepts(current)) current.drop(11) else "00:00")
    }

    companion object {
        // Neither enabled: the catalog defaults both to false; a date is the useful reading.
        fun of(enableDate: Boolean, enableTime: Boolean): IsoFormat = when {
            enableDate && enableTime -> DateTime
            enableTime -> Time
            else -> Date
        }
    }
}

/**
 * ISO 8601 values as a DateTimeInput shows them, and calendar dates as the UTC midnight millis
 * Material's date picker uses. java.util.Calendar rather than java.time: no desugaring needed
 * below Android API 26.
 *
 * The rule (docs/rendering.md, "Dates"; the SwiftUI renderer's IsoDates.swift follows it too,
 * with the cases of tests/renderer-cases/cases.json):
 * - a date alone (`2026-03-05`) is a calendar date: the same day in every zone;
 * - a date-time or time without an offset is a wall-clock time, taken as is;
 * - a date-time with `Z` or `±HH:MM` is an instant, shown in the device's time zone.
 */
internal object IsoDates {
    private val UTC: TimeZone = TimeZone.getTimeZone("UTC")

    fun isDate(text: String): Boolean = text.length == 10 && dateMillis(text) != null

    fun isTime(text: String): Boolean {
        if (text.length != 5 && text.length != 8) return false
        val parts = text.split(':')
        if (parts.any { it.length != 2 || !it.all(::isAsciiDigit) }) return false
        val (hour, minute) = parts[0].toInt() to parts[1].toInt()
        val second = parts.getOrNull(2)?.toInt() ?: 0
        return hour < 24 && minute < 60 && second < 60
    }

    /**
     * [wire] as the wall clock of [zone], in [format]'s shape (`YYYY-MM-DD`, `HH:MM` or
     * `YYYY-MM-DDTHH:MM`; seconds are dropped); null when it is not an ISO date, time or
     * date-time, or has no part [format] needs (a time for a date, say). A date alone in a
     * date-time format is its midnight.
     */
    fun localText(wire: String, format: IsoFormat, zone: TimeZone = TimeZone.getDefault()): String? {
        val (date, time) = wallClock(wire, zone) ?: return null
        return when (format) {
            IsoFormat.Date -> date
            IsoFormat.Time -> time
            IsoFormat.DateTime -> date?.let { it + "T" + (time ?: "00:00") }
        }
    }

    /** The (date, time) [wire] names on [zone]'s wall clock; either may be null, not both. */
    private fun wallClock(wire: String, zone: TimeZone): Pair<String?, String?>? {
        if (wire.length == 10) return if (isDate(wire)) wire to null else null
        if (wire.length < 16 || wire[10] != 'T') return clock(wire)?.let { null to it }
        val date = wire.take(10).takeIf(::isDate) ?: return null
        val rest = wire.drop(11)
        val zoneAt = rest.indexOfFirst { it == 'Z' || it == '+' || it == '-' }
        if (zoneAt < 0) return clock(rest)?.let { date to it }
        val time = clock(rest.take(zoneAt)) ?: return null
        val offsetMinutes = offsetMinutes(rest.drop(zoneAt)) ?: return null
        // An instant: its UTC wall clock minus the offset, read back in [zone].
        val utc = dateMillis(date)!! + (time.take(2).toInt() * 60 + time.drop(3).toInt() - offsetMinutes) * 60_000L
        val local = calendar(zone).apply { timeInMillis = utc }
        return format(local) to "%02d:%02d".format(Locale.ROOT, local.get(Calendar.HOUR_OF_DAY), local.get(Calendar.MINUTE))
    }

    /** `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fff` as `HH:MM`, or null. */
    private fun clock(text: String): String? {
        val dot = text.indexOf('.')
        if (dot >= 0) {
            val fraction = text.substring(dot + 1)
            if (dot != 8 || fraction.isEmpty() || !fraction.all(::isAsciiDigit)) return null
        }
        val base = if (dot >= 0) text.take(dot) else text
        return if (isTime(base)) base.take(5) else null
    }

    /** `Z` is 0; `±HH:MM` its minutes east of UTC; anything else null. */
    private fun offsetMinutes(text: String): Int? {
        if (text == "Z") return 0
        if (text.length != 6 || text[3] != ':') return null
        val sign = when (text[0]) {
            '+' -> 1
            '-' -> -1
            else -> return null
        }
        val digits = text.substring(1, 3) + text.substring(4)
        if (!digits.all(::isAsciiDigit)) return null
        val (hours, minutes) = digits.take(2).toInt() to digits.drop(2).toInt()
        return if (hours < 24 && minutes < 60) sign * (hours * 60 + minutes) else null
    }

    /** UTC midnight of an ISO `YYYY-MM-DD` date, or null when [text] is not a real date. */
    fun dateMillis(text: String): Long? {
        if (text.length < 10) return null
        val date = text.take(10)
        if (date[4] != '-' || date[7] != '-') return null
        // Char.isDigit and toInt accept any Unicode digit; ISO 8601 is ASCII.
        if (!date.filterIndexed { i, _ -> i != 4 && i != 7 }.all(::isAsciiDigit)) return null
        val year = date.take(4).toIntOrNull() ?: return null
        val month = date.substring(5, 7).toIntOrNull() ?: return null
        val day = date.substring(8, 10).toIntOrNull() ?: return null
        val calendar = calendar(UTC).apply {
            isLenient = false
            clear()
            set(year, month - 1, day)
        }
        // Non-lenient: 2026-02-30 throws here instead of rolling over.
        return runCatching { calendar.timeInMillis }.getOrNull()
    }

    fun date(utcMillis: Long): String = format(calendar(UTC).apply { timeInMillis = utcMillis })

    private fun format(calendar: Calendar): String =
        // Locale.ROOT: ISO text has ASCII digits whatever the app's locale (Arabic's are not).
        "%04d-%02d-%02d".format(Locale.ROOT, calendar.get(Calendar.YEAR), calendar.get(Calendar.MONTH) + 1, calendar.get(Calendar.DAY_OF_MONTH))

    // The default Julian switch in 1582 is kept: Foundation's Gregorian calendar has it too.
    private fun calendar(zone: TimeZone) = GregorianCalendar(zone)
}

private fun isAsciiDigit(c: Char): Boolean = c in '0'..'9'
