// An AG-UI agent on 127.0.0.1 for a test: a script (`start`) or a recording made with
// `agentui run --record` (`replay`). The server is the core's (the kit's own native library,
// agentui_testing), so Swift and Kotlin tests get the same behaviour.

import AgentUITestingCore

public final class ScriptedAgent: @unchecked Sendable {
    // KitServer is thread-safe (the core locks its logs); this wrapper holds no state of its own.
    private let server: KitServer

    /// The endpoint to connect the app's conversation to (`http://127.0.0.1:<port>/agent`).
    public let url: String

    private init(_ server: KitServer) {
        self.server = server
        url = server.url()
    }

    deinit { server.stop() }

    /// Serves `script` on `port` (0: a free one). A script the core refuses throws `ScriptLoadError`.
    public static func start(_ script: AgentScript, port: UInt16 = 0) throws -> ScriptedAgent {
        try start(json: script.json, port: port)
    }

    /// Serves a script written as JSON text (a file shared with Kotlin tests).
    public static func start(json: String, port: UInt16 = 0) throws -> ScriptedAgent {
        ScriptedAgent(try wrap { try startScriptedAgent(scriptJson: json, port: port) })
    }

    /// Serves the recording in `directory`: the N-th request gets the N-th recorded answer.
    public static func replay(directory: String, port: UInt16 = 0) throws -> ScriptedAgent {
        ScriptedAgent(try wrap { try startRecordingServer(dir: directory, port: port) })
    }

    /// Checks a script without serving it; throws `ScriptLoadError` where it does not load.
    public static func check(_ script: AgentScript) throws {
        try wrap { try checkScript(scriptJson: script.json) }
    }

    /// Every request the agent received (`RunAgentInput` JSON), in order.
    public var requests: [String] { server.requests() }

    /// The requests the agent could not answer, each with why and the request.
    public var unmatched: [String] { server.unmatched() }

    /// Throws `ScriptedAgentError.unmatched` with every request the agent could not answer.
    public func assertAllMatched() throws {
        let left = unmatched
        if !left.isEmpty { throw ScriptedAgentError.unmatched(left) }
    }

    /// Stops the server (the logs read empty afterwards). Also done when the agent is released.
    public func stop() { server.stop() }

    private static func wrap<T>(_ start: () throws -> T) throws -> T {
        do {
            return try start()
        } catch KitError.Script(let detail, let path, let line, let column) {
            throw ScriptLoadError(detail: detail, path: path, line: Int(line), column: Int(column))
        } catch KitError.Recording(let detail) {
            throw ScriptedAgentError.recording(detail)
        } catch KitError.Server(let detail) {
            throw ScriptedAgentError.server(detail)
        }
    }
}

/// A script that does not load: `path` is a JSON pointer into it (e.g. `/rules/0/reply/1`);
/// `line` and `column` are 0 when unknown.
public struct ScriptLoadError: Error, Equatable, CustomStringConvertible {
    public let detail: String
    public let path: String
    public let line: Int
    public let column: Int

    public var description: String { "the script does not load at \(path) (line \(line), column \(column)): \(detail)" }
}

public enum ScriptedAgentError: Error, Equatable, CustomStringConvertible {
    /// The recording folder does not load.
    case recording(String)
    /// The server did not start (the port is taken...).
    case server(String)
    /// Requests no rule (or no recorded exchange) answered, each with why and the request.
    case unmatched([String])

    public var description: String {
        switch self {
        case .recording(let detail): return "the recording does not load: \(detail)"
        case .server(let detail): return "the agent did not start: \(detail)"
        case .unmatched(let requests):
            return "\(requests.count) request(s) had no answer:\n" + requests.joined(separator: "\n---\n")
        }
    }
}
