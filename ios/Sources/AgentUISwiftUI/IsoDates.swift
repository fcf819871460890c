// The ISO 8601 text a DateTimeInput reads and writes: `YYYY-MM-DD`, `HH:MM` or
// `YYYY-MM-DDTHH:MM`, as its enableDate / enableTime say (docs/rendering.md).
//
// NOT COMPILED HERE: this machine has no Swift compiler.

import Foundation
import SwiftUI

enum IsoFormat: Equatable {
    case date, time, dateTime

    /// Neither enabled: the catalog defaults both to false; a date is the useful reading (as the
    /// Compose renderer reads it).
    init(enableDate: Bool, enableTime: Bool) {
        switch (enableDate, enableTime) {
        case (true, true): self = .dateTime
        case (false, true): self = .time
        default: self = .date
        }
    }

    var components: DatePickerComponents {
        switch self {
        case .date: return [.date]
        case .time: return [.hourAndMinute]
        case .dateTime: return [.date, .hourAndMinute]
        }
    }

    /// Dates are wall-clock values without a zone: read and written in the device's calendar
    /// and zone, so the picker shows the day the text names. A zone suffix is ignored.
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar
    }

    /// The date `text` names, nil when it is not a real ISO date, time or date-time. A date
    /// alone is read at 00:00; a time alone on today's date.
    func parse(_ text: String) -> Date? {
        let calendar = Self.calendar
        let chars = Array(text.trimmingCharacters(in: .whitespaces))
        var components = DateComponents()
        if let day = Self.calendarDay(chars) {
            components.year = day.year
            components.month = day.month
            components.day = day.day
            let rest = chars.count > 11 && (chars[10] == "T" || chars[10] == " ") ? Array(chars[11...]) : []
            let (hour, minute) = Self.clock(rest) ?? (0, 0)
            components.hour = hour
            components.minute = minute
        } else if let time = Self.clock(chars) {
            let today = calendar.dateComponents([.year, .month, .day], from: Date())
            components.year = today.year
            components.month = today.month
            components.day = today.day
            components.hour = time.hour
            components.minute = time.minute
        } else {
            return nil
        }
        guard let date = calendar.date(from: components) else { return nil }
        // Calendar rolls 2026-02-30 over to March: refuse instead.
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        guard back.year == components.year, back.month == components.month, back.day == components.day else {
            return nil
        }
        return date
    }

    func format(_ date: Date) -> String {
        let parts = Self.calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 1, parts.day ?? 1)
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        switch self {
        case .date: return day
        case .time: return time
        case .dateTime: return day + "T" + time
        }
    }

    /// `YYYY-MM-DD` at the start of `chars`.
    private static func calendarDay(_ chars: [Character]) -> (year: Int, month: Int, day: Int)? {
        guard chars.count >= 10, chars[4] == "-", chars[7] == "-",
              let year = digits(chars[0..<4]), let month = digits(chars[5..<7]), let day = digits(chars[8..<10]),
              (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return (year, month, day)
    }

    /// `HH:MM` at the start of `chars` (seconds and a zone may follow).
    private static func clock(_ chars: [Character]) -> (hour: Int, minute: Int)? {
        guard chars.count >= 5, chars[2] == ":",
              let hour = digits(chars[0..<2]), let minute = digits(chars[3..<5]),
              hour < 24, minute < 60
        else { return nil }
        return (hour, minute)
    }

    private static func digits(_ chars: ArraySlice<Character>) -> Int? {
        guard chars.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(String(chars))
    }
}
