// The ISO 8601 text a DateTimeInput reads and writes: `YYYY-MM-DD`, `HH:MM` or
// `YYYY-MM-DDTHH:MM`, as its enableDate / enableTime say (docs/rendering.md).

import Foundation

package enum IsoFormat: Equatable {
    case date, time, dateTime

    /// Neither enabled: the catalog defaults both to false; a date is the useful reading (as the
    /// Compose renderer reads it).
    package init(enableDate: Bool, enableTime: Bool) {
        switch (enableDate, enableTime) {
        case (true, true): self = .dateTime
        case (false, true): self = .time
        default: self = .date
        }
    }

    /// The device's calendar and zone: the picker works on the wall clock `IsoDates.localText`
    /// gives, so a date alone shows the day it names and an instant shows the zone's time.
    package static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar
    }

    /// The date `text` names on the device's wall clock (docs/rendering.md, "Dates"), nil when it
    /// is not an ISO value this format can show. A date alone is read at 00:00; a time alone on
    /// today's date.
    package func parse(_ text: String) -> Date? {
        let calendar = Self.calendar
        guard let local = IsoDates.localText(text, format: self, zone: calendar.timeZone) else { return nil }
        // `local` is `YYYY-MM-DD`, `HH:MM` or `YYYY-MM-DDTHH:MM`, already checked.
        let chars = Array(local)
        var components = DateComponents()
        if self == .time {
            let today = calendar.dateComponents([.year, .month, .day], from: Date())
            components.year = today.year
            components.month = today.month
            components.day = today.day
        } else {
            components.year = Int(String(chars[0..<4]))
            components.month = Int(String(chars[5..<7]))
            components.day = Int(String(chars[8..<10]))
        }
        if self == .date {
            components.hour = 0
            components.minute = 0
        } else {
            let clock = Array(chars.suffix(5))
            components.hour = Int(String(clock[0..<2]))
            components.minute = Int(String(clock[3..<5]))
        }
        return calendar.date(from: components)
    }

    package func format(_ date: Date) -> String {
        let parts = Self.calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 1, parts.day ?? 1)
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        switch self {
        case .date: return day
        case .time: return time
        case .dateTime: return day + "T" + time
        }
    }
}

/// ISO 8601 values as a DateTimeInput shows them (docs/rendering.md, "Dates"; the Compose
/// renderer's IsoDates.kt follows the same rule, with the cases of
/// tests/renderer-cases/cases.json):
/// - a date alone (`2026-03-05`) is a calendar date: the same day in every zone;
/// - a date-time or time without an offset is a wall-clock time, taken as is;
/// - a date-time with `Z` or `±HH:MM` is an instant, shown in the device's time zone.
package enum IsoDates {
    /// `wire` as the wall clock of `zone`, in `format`'s shape (`YYYY-MM-DD`, `HH:MM` or
    /// `YYYY-MM-DDTHH:MM`; seconds are dropped); nil when it is not an ISO date, time or
    /// date-time, or has no part `format` needs (a time for a date, say). A date alone in a
    /// date-time format is its midnight.
    package static func localText(_ wire: String, format: IsoFormat, zone: TimeZone) -> String? {
        guard let clock = wallClock(Array(wire), zone: zone) else { return nil }
        switch format {
        case .date: return clock.date
        case .time: return clock.time
        case .dateTime: return clock.date.map { $0 + "T" + (clock.time ?? "00:00") }
        }
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The (date, time) `chars` names on `zone`'s wall clock; either may be nil, not both.
    private static func wallClock(_ chars: [Character], zone: TimeZone) -> (date: String?, time: String?)? {
        if chars.count == 10 {
            guard let date = calendarDay(chars) else { return nil }
            return (date: date, time: nil)
        }
        guard chars.count >= 16, chars[10] == "T" else {
            guard let time = clock(chars) else { return nil }
            return (date: nil, time: time)
        }
        guard let date = calendarDay(Array(chars[0..<10])) else { return nil }
        let rest = Array(chars[11...])
        guard let zoneAt = rest.firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) else {
            guard let time = clock(rest) else { return nil }
            return (date: date, time: time)
        }
        guard let time = clock(Array(rest[..<zoneAt])), let offset = offsetMinutes(Array(rest[zoneAt...])) else {
            return nil
        }
        // An instant: its UTC wall clock minus the offset, read back in `zone`.
        let utcParts = DateComponents(
            year: Int(String(date.prefix(4))), month: Int(String(date.dropFirst(5).prefix(2))),
            day: Int(String(date.suffix(2))), hour: Int(String(time.prefix(2))), minute: Int(String(time.suffix(2)))
        )
        guard let wallInUTC = utc.date(from: utcParts) else { return nil }
        let instant = wallInUTC.addingTimeInterval(-Double(offset) * 60)
        var local = Calendar(identifier: .gregorian)
        local.timeZone = zone
        let parts = local.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        guard let year = parts.year, let month = parts.month, let day = parts.day,
              let hour = parts.hour, let minute = parts.minute
        else { return nil }
        return (
            date: String(format: "%04d-%02d-%02d", year, month, day),
            time: String(format: "%02d:%02d", hour, minute)
        )
    }

    /// `YYYY-MM-DD`, a real day (no 2026-02-30), or nil.
    private static func calendarDay(_ chars: [Character]) -> String? {
        guard chars.count == 10, chars[4] == "-", chars[7] == "-",
              let year = digits(chars[0..<4]), let month = digits(chars[5..<7]), let day = digits(chars[8..<10]),
              (1...12).contains(month), (1...31).contains(day),
              let date = utc.date(from: DateComponents(year: year, month: month, day: day))
        else { return nil }
        // Calendar rolls 2026-02-30 over to March: refuse instead.
        let back = utc.dateComponents([.year, .month, .day], from: date)
        guard back.year == year, back.month == month, back.day == day else { return nil }
        return String(chars)
    }

    /// `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fff` as `HH:MM`, or nil.
    private static func clock(_ chars: [Character]) -> String? {
        var base = chars
        if let dot = chars.firstIndex(of: ".") {
            let fraction = chars[(dot + 1)...]
            guard dot == 8, !fraction.isEmpty, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            base = Array(chars[..<dot])
        }
        guard base.count == 5 || base.count == 8, base[2] == ":",
              let hour = digits(base[0..<2]), let minute = digits(base[3..<5]), hour < 24, minute < 60
        else { return nil }
        if base.count == 8 {
            guard base[5] == ":", let second = digits(base[6..<8]), second < 60 else { return nil }
        }
        return String(base[0..<5])
    }

    /// `Z` is 0; `±HH:MM` its minutes east of UTC; anything else nil.
    private static func offsetMinutes(_ chars: [Character]) -> Int? {
        if chars == ["Z"] { return 0 }
        guard chars.count == 6, chars[0] == "+" || chars[0] == "-", chars[3] == ":",
              let hours = digits(chars[1..<3]), let minutes = digits(chars[4..<6]), hours < 24, minutes < 60
        else { return nil }
        return (chars[0] == "-" ? -1 : 1) * (hours * 60 + minutes)
    }

    /// ASCII digits only: `Character.isNumber` also takes "２" and "٣".
    private static func digits(_ chars: ArraySlice<Character>) -> Int? {
        guard !chars.isEmpty, chars.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(String(chars))
    }
}
