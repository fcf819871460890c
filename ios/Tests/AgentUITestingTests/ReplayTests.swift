// A recording replayed through the kit: made in the setup with `agentui run --record` against
// the demo agent the Swift lane starts (AGENTUI_DEMO_AGENT_URL), with the CLI the lane names
// (AGENTUI_CLI); then served back offline by ScriptedAgent.replay and driven like a real agent.

import Foundation
import XCTest
import AgentUI
import AgentUITesting

final class ReplayTests: XCTestCase {
    private var recording: URL!

    override func setUpWithError() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let cli = environment["AGENTUI_CLI"], !cli.isEmpty,
            let demo = environment["AGENTUI_DEMO_AGENT_URL"], !demo.isEmpty
        else {
            // Failed, never skipped: a lane that forgets them must not pass without replaying.
            throw SetupError(
                "AGENTUI_CLI (the agentui binary) and AGENTUI_DEMO_AGENT_URL (a running demo agent) "
                    + "must be set; scripts/swift-linux.sh sets both")
        }
        recording = FileManager.default.temporaryDirectory.appendingPathComponent("agentui-replay-\(UUID().uuidString)")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("agentui-record-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw SetupError("cannot write \(log.path)") }
        defer { try? FileManager.default.removeItem(at: log) }
        let record = Process()
        record.executableURL = URL(fileURLWithPath: cli)
        let agentURL = (demo.hasSuffix("/") ? String(demo.dropLast()) : demo) + "/agent"
        record.arguments = ["run", "--record", recording.path, agentURL, "book a table"]
        record.standardInput = FileHandle.nullDevice
        record.standardOutput = try FileHandle(forWritingTo: log)
        record.standardError = record.standardOutput
        try record.run()
        let deadline = Date().addingTimeInterval(60)
        while record.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if record.isRunning {
            record.terminate()
            throw SetupError("agentui run --record did not end within 60 s")
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard record.terminationStatus == 0 else {
            throw SetupError("agentui run --record exited \(record.terminationStatus):\n\(output)")
        }
    }

    override func tearDownWithError() throws {
        if let recording { try? FileManager.default.removeItem(at: recording) }
    }

    @MainActor
    func testARecordedRunReplaysOfflineThroughTheConversation() async throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: recording.path).sorted()
        XCTAssertTrue(files.contains("0001-request.json") && files.contains("0001-response.sse"), "\(files)")

        let agent = try ScriptedAgent.replay(directory: recording.path)
        let conversation = try AgentRuntime().connect(url: agent.url)
        defer { conversation.close() }
        _ = try await conversation.send("book a table")
        guard case .finished = try await conversation.awaitIdle() else {
            return XCTFail("the replayed run finished: \(conversation.phase)")
        }
        // The demo agent's booking form, as it was recorded.
        try await conversation.awaitSurface("booking")
        let book = try await conversation.a2uiNode("book", in: "booking")
        XCTAssertEqual(book.componentType, "Button")
        XCTAssertEqual(agent.requests.count, 1)
        try agent.assertAllMatched()

        // A request beyond the recording fails the run and is kept, never hangs.
        _ = try? await conversation.send("book a table")
        guard case .failed = try await conversation.awaitIdle() else {
            return XCTFail("a request beyond the recording fails: \(conversation.phase)")
        }
        XCTAssertThrowsError(try agent.assertAllMatched()) { error in
            XCTAssertTrue("\(error)".contains("beyond the recording"), "\(error)")
        }
    }
}

struct SetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
