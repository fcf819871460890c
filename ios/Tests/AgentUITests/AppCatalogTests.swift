// The app's own catalog and function through `AgentOptions`: the counterpart of the Kotlin host
// test android/host-jvm/src/test/kotlin/dev/agentui/AppCatalogTest.kt. The demo agent draws its
// loyalty badge (`custom-catalog`) only in a catalog the app advertised, and the badge's points
// text is the app's `formatPoints` closure.
//
// Needs AGENTUI_DEMO_AGENT_URL (see TestSupport.swift).

import XCTest
@testable import AgentUI

final class AppCatalogTests: XCTestCase {
    /// The demo agent's loyalty catalog (`agentui_demo_agent::loyalty_catalog_json`), as an app
    /// would ship it: these tests reach the agent over HTTP only, not its Rust helpers.
    static let loyaltyCatalogId = "https://agentui.dev/demo/catalogs/loyalty/v1/catalog.json"
    static let loyaltyCatalog = """
        {"catalogId": "\(loyaltyCatalogId)",
         "components": {"LoyaltyBadge": {"type": "object", "allOf": [
             {"$ref": "https://a2ui.org/specification/v0_9/common_types.json#/$defs/ComponentCommon"},
             {"type": "object", "properties": {
                 "component": {"const": "LoyaltyBadge"},
                 "tier": {"$ref": "https://a2ui.org/specification/v0_9/common_types.json#/$defs/DynamicString"},
                 "points": {"$ref": "https://a2ui.org/specification/v0_9/common_types.json#/$defs/DynamicString"}},
              "required": ["component", "tier", "points"]}],
             "unevaluatedProperties": false}},
         "functions": [{"name": "formatPoints", "returnType": "string", "parameters": {
             "type": "object", "additionalProperties": false, "required": ["value"],
             "properties": {"value": {"$ref": "https://a2ui.org/specification/v0_9/common_types.json#/$defs/DynamicNumber"}}}}]}
        """
    static let formatPoints = CatalogFunctionID(catalogId: loyaltyCatalogId, name: "formatPoints")

    /// The badge's `points` once the agent drew it and its tier arrived.
    @MainActor
    private func badgePoints(_ conversation: AgentConversation) async throws -> NodeValue? {
        _ = try await conversation.send("show my loyalty card")
        let badge = try await eventually("the loyalty badge") {
            conversation.surfaceNow("loyalty")?.node("root").flatMap { $0.prop("tier")?.textValue == "Gold" ? $0 : nil }
        }
        XCTAssertEqual(badge.componentType, "LoyaltyBadge")
        return badge.prop("points")
    }

    @MainActor
    func testTheAppsFunctionWritesTheBadgeOfItsOwnCatalog() async throws {
        let runtime = try AgentRuntime()
        let seen = Box<[[String: NodeValue]]>([])
        let options = AgentOptions(
            catalogs: [Self.loyaltyCatalog],
            functions: [
                Self.formatPoints: { args in
                    seen.value.append(args)
                    guard case .number(let value) = args["value"] else {
                        throw CatalogFunctionFailure("no balance yet")
                    }
                    return .text(value: "\(Int(value)) points")
                },
            ]
        )
        let conversation = try runtime.connect(url: DemoAgent.agentURL(), options: options)
        defer { conversation.close() }
        let points = try await badgePoints(conversation)
        XCTAssertEqual(points?.textValue, "1250 points")
        XCTAssertEqual(seen.value.last, ["value": .number(value: 1250)])
    }

    @MainActor
    func testAThrowingFunctionLeavesItsPropertyNullAndTheConversationGoesOn() async throws {
        struct Down: Error {}
        let runtime = try AgentRuntime()
        let options = AgentOptions(catalogs: [Self.loyaltyCatalog], functions: [Self.formatPoints: { _ in throw Down() }])
        let conversation = try runtime.connect(url: DemoAgent.agentURL(), options: options)
        defer { conversation.close() }
        let points = try await badgePoints(conversation)
        XCTAssertEqual(points, .null)
        _ = try await conversation.send("hello")
        XCTAssertTrue(conversation.messages.lastAssistantText.contains("demo agent"), conversation.messages.lastAssistantText)
    }

    @MainActor
    func testWithoutTheCatalogTheAgentAnswersInWords() async throws {
        let runtime = try AgentRuntime()
        let conversation = try runtime.connect(url: DemoAgent.agentURL())
        defer { conversation.close() }
        _ = try await conversation.send("show my loyalty card")
        XCTAssertNil(conversation.surfaceNow("loyalty"))
        XCTAssertTrue(
            conversation.messages.lastAssistantText.contains("does not render the loyalty catalog"),
            conversation.messages.lastAssistantText
        )
    }

    @MainActor
    func testAnAppThatAdvertisesNoA2uiSendsNoCatalogsEvenItsOwn() async throws {
        // The demo agent draws the badge only when the request's capabilities entry lists the
        // loyalty catalog: with the option off there is no entry, so it answers in words.
        let runtime = try AgentRuntime()
        let options = AgentOptions(advertiseA2ui: false, catalogs: [Self.loyaltyCatalog])
        let conversation = try runtime.connect(url: DemoAgent.agentURL(), options: options)
        defer { conversation.close() }
        _ = try await conversation.send("show my loyalty card")
        XCTAssertNil(conversation.surfaceNow("loyalty"))
        XCTAssertTrue(
            conversation.messages.lastAssistantText.contains("does not render the loyalty catalog"),
            conversation.messages.lastAssistantText
        )
    }

    @MainActor
    func testABadCatalogOrAnUndeclaredFunctionIsInvalidOptionsAtConnect() async throws {
        let runtime = try AgentRuntime()
        XCTAssertThrowsError(try runtime.connect(url: DemoAgent.agentURL(), options: AgentOptions(catalogs: ["{"]))) {
            error in
            guard case ConversationError.InvalidOptions(let detail) = error else {
                return XCTFail("expected InvalidOptions, got \(error)")
            }
            XCTAssertTrue(detail.contains("not JSON"), detail)
        }
        let undeclared = AgentOptions(
            catalogs: [Self.loyaltyCatalog],
            functions: [CatalogFunctionID(catalogId: Self.loyaltyCatalogId, name: "formatStars"): { _ in .null }]
        )
        XCTAssertThrowsError(try runtime.connect(url: DemoAgent.agentURL(), options: undeclared)) { error in
            guard case ConversationError.InvalidOptions(let detail) = error else {
                return XCTFail("expected InvalidOptions, got \(error)")
            }
            XCTAssertTrue(detail.contains("formatStars"), detail)
        }
    }

    /// The loyalty catalog as values, as an app that builds its catalog in code would give it.
    private static func loyaltyCatalogValue() throws -> [String: NodeValue] {
        let value = try JSONDecoder().decode(NodeValue.self, from: Data(loyaltyCatalog.utf8))
        guard case .object(let entries) = value else { throw CatalogFunctionFailure("not an object") }
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0.value) })
    }

    @MainActor
    func testACatalogGivenAsValuesRendersTheAgentsSurfaceWithTheAppsFunction() async throws {
        let runtime = try AgentRuntime()
        let options = AgentOptions(
            catalogValues: [try Self.loyaltyCatalogValue()],
            functions: [
                Self.formatPoints: { args in
                    guard case .number(let value) = args["value"] else {
                        throw CatalogFunctionFailure("no balance yet")
                    }
                    return .text(value: "\(Int(value)) pts")
                },
            ]
        )
        let conversation = try runtime.connect(url: DemoAgent.agentURL(), options: options)
        defer { conversation.close() }
        let points = try await badgePoints(conversation)
        XCTAssertEqual(points?.textValue, "1250 pts")
    }

    @MainActor
    func testCatalogValuesAreCheckedLikeTheTextAndNeverGivenBesideIt() async throws {
        let runtime = try AgentRuntime()
        let both = AgentOptions(catalogs: [Self.loyaltyCatalog], catalogValues: [try Self.loyaltyCatalogValue()])
        XCTAssertThrowsError(try runtime.connect(url: DemoAgent.agentURL(), options: both)) { error in
            guard case ConversationError.InvalidOptions(let detail) = error else {
                return XCTFail("expected InvalidOptions, got \(error)")
            }
            XCTAssertTrue(detail.contains("not both"), detail)
        }
        let malformed = AgentOptions(catalogValues: [["components": .object(entries: [])]])
        XCTAssertThrowsError(try runtime.connect(url: DemoAgent.agentURL(), options: malformed)) { error in
            guard case ConversationError.InvalidOptions(let detail) = error else {
                return XCTFail("expected InvalidOptions, got \(error)")
            }
            XCTAssertTrue(detail.contains("not a valid A2UI catalog"), detail)
        }
    }
}
