// Attachments through the Swift layer and the demo agent, which answers a message with
// attachments with each part's decoded length and FNV-1a hash; its "picture" scenario answers
// with an inline PNG in a tool result.

import Foundation
import XCTest
@testable import AgentUI

final class AttachmentsTests: XCTestCase {
    private func fnv1a64(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0100_0000_01b3
        }
        return String(format: "%016llx", hash)
    }

    @MainActor
    func testTheAgentDecodesTheBytesAttached() async throws {
        let conversation = try AgentRuntime().connect(url: try DemoAgent.agentURL())
        defer { conversation.close() }
        let photo = Data((0..<100_003).map { UInt8(truncatingIfNeeded: $0 * 31) })
        _ = try await conversation.send("look", attachments: [.bytes(name: "photo.png", mimeType: "image/png", data: photo)])
        let answer = conversation.messages.lastAssistantText
        XCTAssertTrue(answer.contains("image image/png photo.png bytes=100003 fnv=\(fnv1a64(photo))"), answer)
        let user = try XCTUnwrap(conversation.messages.first { $0.role == .user })
        XCTAssertEqual(user.media.map(\.name), ["photo.png"])
        // The core holds the photo; the chat item has its length, and the bytes come on demand.
        let item = try XCTUnwrap(user.media.first)
        XCTAssertEqual(item.heldBytes, 100_003)
        XCTAssertNil(item.base64)
        let fetched = try await conversation.mediaBytes(item)
        XCTAssertEqual(fetched, photo)
    }

    @MainActor
    func testARefusedAttachmentIsNamedAndNothingIsSent() async throws {
        let conversation = try AgentRuntime().connect(url: try DemoAgent.agentURL())
        defer { conversation.close() }
        do {
            _ = try await conversation.send("x", attachments: [.bytes(name: "a.zip", mimeType: "application/zip", data: Data([1]))])
            XCTFail("a type the app does not send must throw")
        } catch ConversationError.AttachmentRefused(let name, let reason, _) {
            XCTAssertEqual(name, "a.zip")
            XCTAssertEqual(reason, .typeNotAllowed)
        }
        XCTAssertTrue(conversation.messages.isEmpty)
    }

    @MainActor
    func testAnImageTheAgentReturnsIsAMediaPartOfTheChat() async throws {
        let conversation = try AgentRuntime().connect(url: try DemoAgent.agentURL() + "/picture")
        defer { conversation.close() }
        _ = try await conversation.send("draw")
        let image = try XCTUnwrap(conversation.messages.flatMap(\.media).first { $0.kind == .image })
        XCTAssertEqual(image.mimeType, "image/png")
        XCTAssertEqual(image.name, "gradient.png")
        XCTAssertEqual(image.data()?.count, 166)
    }
}
