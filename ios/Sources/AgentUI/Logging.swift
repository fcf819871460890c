// The library's log level, as Kotlin's `setLogLevel(LogLevel)`: the layer's own enum over the
// core's, so an app needs only `import AgentUI`.

import AgentUICore

/// How much the library logs (standard error; on Apple platforms also the unified log's
/// standard-error capture).
public enum LogLevel: Equatable, Hashable, Sendable {
    case off, error, warn, info, debug, trace

    var native: AgentUICore.LogLevel {
        switch self {
        case .off: return .off
        case .error: return .error
        case .warn: return .warn
        case .info: return .info
        case .debug: return .debug
        case .trace: return .trace
        }
    }
}

/// Sets the library's log level for the whole process; the first call installs the log output.
/// When the process already has a Rust log subscriber, the app's own logging wins and this does
/// nothing.
public func setLogLevel(_ level: LogLevel) {
    AgentUICore.setLogLevel(level: level.native)
}
