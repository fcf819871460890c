package dev.agentui.compose

import java.util.Calendar
import java.util.GregorianCalendar
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
 * Calendar dates as ISO text and as the UTC midnight millis Material's date picker uses.
 * java.util.Calendar rather than java.time: no desugaring needed below Android API 26.
 */
internal object IsoDates {
    private val UTC: TimeZone = TimeZone.getTimeZone("UTC")

    fun isDate(text: String): Boolean = dateMillis(text) != null

    fun isTime(text: String): Boolean {
        if (text.length != 5 && text.length != 8) return false
        val parts = text.split(':')
        if (parts.any { it.length != 2 || !it.all(::isAsciiDigit) }) return false
        val (hour, minute) = parts[0].toInt() to parts[1].toInt()
        val second = parts.getOrNull(2)?.toInt() ?: 0
        return hour < 24 && minute < 60 && second < 60
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
        val calendar = GregorianCalendar(UTC).apply {
            isLenient = false
            clear()
            set(year, month - 1, day)
        }
        // Non-lenient: 2026-02-30 throws here instead of rolling over.
        return runCatching { calendar.timeInMillis }.getOrNull()
    }

    fun date(utcMillis: Long): String {
        val calendar = GregorianCalendar(UTC).apply { timeInMillis = utcMillis }
        val year = calendar.get(Calendar.YEAR)
        val month = calendar.get(Calendar.MONTH) + 1
        val day = calendar.get(Calendar.DAY_OF_MONTH)
        return "%04d-%02d-%02d".format(year, month, day)
    }
}

private fun isAsciiDigit(c: Char): Boolean = c in '0'..'9'
