// The client tool `navigate_to`: the agent asks the app to show a screen; the result says
// what the app really did.
//
// Type-checked on Linux against the SwiftUI stand-in (ios/Sources/LinuxSwiftUI); built and run by Xcode.

import Foundation
import AgentUI

enum NavigateTool {
    static let name = "navigate_to"

    static let description =
        "Shows a screen of the app: chat, settings or profile. "
        + "Answers {\"navigated\": true, \"screen\": ...} once the screen is visible."

    // No `enum` here on purpose: the app itself refuses unknown screens with a message the
    // agent can read (the client decides what it executes).
    static let parametersJsonSchema = """
        {"type": "object",
         "properties": {"screen": {"type": "string", "description": "The screen to show: chat, settings or profile."}},
         "required": ["screen"],
         "additionalProperties": false}
        """

    private struct Arguments: Decodable {
        let screen: String
    }

    private struct Outcome: Encodable {
        let navigated: Bool
        let screen: String
    }

    /// Runs on a background task of the core; hops to the main actor to change the screen.
    static func run(argumentsJson: String, router: Router) async throws -> String {
        let arguments: Arguments
        do {
            arguments = try JSONDecoder().decode(Arguments.self, from: Data(argumentsJson.utf8))
        } catch {
            throw ClientToolFailure("arguments must be {\"screen\": \"chat\" | \"settings\" | \"profile\"}")
        }
        guard let screen = Screen(rawValue: arguments.screen) else {
            throw ClientToolFailure("unknown screen \"\(arguments.screen)\": this app has chat, settings and profile")
        }
        try await router.navigate(to: screen)
        let data = try JSONEncoder().encode(Outcome(navigated: true, screen: screen.rawValue))
        return String(decoding: data, as: UTF8.self)
    }
}

/// `get_location` for the demo agent's "location" scenario: a fixed city, so the sample needs
/// no location permission. A real app would ask CoreLocation here.
enum LocationTool {
    static let name = "get_location"
    static let description = "The device's current location (city and country)."
    static let parametersJsonSchema = """
        {"type": "object", "properties": {"precision": {"type": "string", "enum": ["city", "exact"]}}}
        """

    static func run(argumentsJson: String) async throws -> String {
        #"{"city": "Lisbon", "country": "PT", "source": "sample app (fixed)"}"#
    }
}
