// The locale and time zone reach the core's A2UI formatting (issue 12): the counterpart of the
// Kotlin host test android/host-jvm/src/test/kotlin/dev/agentui/LocaleTest.kt. The demo agent's
// receipt carries raw values (1234.5 EUR, 2026-03-01T10:00:00Z, the date 2026-03-02, 12345.678,
// 3 items) that the core formats in the conversation's locale and zone.
//
// Needs AGENTUI_DEMO_AGENT_URL (see TestSupport.swift).

import XCTest
@testable import AgentUI

final class LocaleTests: XCTestCase {
    /// The receipt's texts in display order, from a conversation made with `options`.
    @MainActor
    private func receipt(_ runtime: AgentRuntime, _ options: AgentOptions = AgentOptions()) async throws
        -> [String?]
    {
        let conversation = try runtime.connect(url: DemoAgent.agentURL(), options: options)
        defer { conversation.close() }
        _ = try await conversation.send("show my receipt")
        // The components arrive before the data model: wait for the formatted values.
        let surface = try await eventually("the receipt's formatted values") {
            conversation.surfaceNow("receipt").flatMap { surface in
                (surface.node("total")?.prop("text")?.textValue ?? "").isEmpty ? nil : surface
            }
        }
        return ["total", "paid", "delivery", "points", "items"].map { surface.node($0)?.prop("text")?.textValue }
    }

    @MainActor
    func testOptionsLocaleAndTimeZoneReachTheFormattingFunctions() async throws {
        let runtime = try AgentRuntime()
        var german = AgentOptions()
        german.locale = "de-DE"
        german.timeZone = "Europe/Berlin"
        let germanTexts = try await receipt(runtime, german)
        XCTAssertEqual(
            germanTexts,
            ["EUR 1.234,50", "Sonntag 1 März 2026 11:00", "Mo. 2 März 2026", "12.345,678", "several items"]
        )
        var korean = AgentOptions()
        korean.locale = "ko-KR"
        korean.timeZone = "Asia/Seoul"
        let koreanTexts = try await receipt(runtime, korean)
        XCTAssertEqual(
            koreanTexts,
            ["EUR 1,234.50", "일요일 1 3월 2026 19:00", "월 2 3월 2026", "12,345.678", "several items"]
        )
    }

    /// Without options the device's `Locale.current` and `TimeZone.current` are used: the same
    /// texts as naming them explicitly. (The test cannot change `Locale.current`, so it compares
    /// with the explicit form instead of fixed strings.)
    @MainActor
    func testTheDeviceLocaleAndTimeZoneAreTheDefaults() async throws {
        let runtime = try AgentRuntime()
        var explicit = AgentOptions()
        explicit.locale = AgentRuntime.bcp47Tag(for: .current)
        explicit.timeZone = TimeZone.current.identifier
        let byDefault = try await receipt(runtime)
        let named = try await receipt(runtime, explicit)
        XCTAssertEqual(byDefault, named)
        XCTAssertFalse(byDefault.contains(nil), "\(byDefault)")
    }

    func testFoundationIdentifiersBecomeBcp47Tags() {
        XCTAssertEqual(AgentRuntime.bcp47Tag(for: Locale(identifier: "de_DE")), "de-DE")
        XCTAssertEqual(AgentRuntime.bcp47Tag(for: Locale(identifier: "ko_KR")), "ko-KR")
        XCTAssertEqual(AgentRuntime.bcp47Tag(for: Locale(identifier: "sr_Latn_RS")), "sr-Latn-RS")
        // A keyword becomes a -u- extension (iOS 16 / macOS 13) or is dropped (before): either
        // way the tag starts with the language and region and has no ICU syntax left.
        let buddhist = AgentRuntime.bcp47Tag(for: Locale(identifier: "th_TH@calendar=buddhist"))
        XCTAssertTrue(buddhist.hasPrefix("th-TH"), buddhist)
        XCTAssertFalse(buddhist.contains("@") || buddhist.contains("_") || buddhist.contains("="), buddhist)
    }

    // Async, not a synchronous @MainActor method: Linux XCTest's generated test list calls each
    // synchronous test from a nonisolated context, which does not compile for a main-actor one.
    @MainActor
    func testAnInvalidLocaleOrTimeZoneIsInvalidOptionsAtConnect() async throws {
        let runtime = try AgentRuntime()
        var badLocale = AgentOptions()
        badLocale.locale = "en_US"
        XCTAssertThrowsError(try runtime.connect(url: DemoAgent.agentURL(), options: badLocale)) { error in
            guard case ConversationError.InvalidOptions(let detail) = error else {
                return XCTFail("expected InvalidOptions, got \(error)")
            }
            XCTAssertTrue(detail.contains("locale"), detail)
        }
        var badZone = AgentOptions()
        badZone.timeZone = "Mars/Olympus"
        XCTAssertThrowsError(try runtime.connect(url: DemoAgent.agentURL(), options: badZone)) { error in
            guard case ConversationError.InvalidOptions(let detail) = error else {
                return XCTFail("expected InvalidOptions, got \(error)")
            }
            XCTAssertTrue(detail.contains("time zone"), detail)
        }
    }
}
