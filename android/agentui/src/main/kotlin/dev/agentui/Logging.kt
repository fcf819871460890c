package dev.agentui

import dev.agentui.core.LogLevel as CoreLogLevel
import dev.agentui.core.setLogLevel as setCoreLogLevel

/** How much the library logs (Android: logcat, tag `agentui`; elsewhere: standard error). */
public enum class LogLevel { OFF, ERROR, WARN, INFO, DEBUG, TRACE }

/**
 * Sets the library's log level for the whole process; the first call installs the log output.
 * When the process already has a Rust log subscriber, the app's own logging wins and this does
 * nothing.
 */
public fun setLogLevel(level: LogLevel) {
    NativeThreads.install()
    setCoreLogLevel(
        when (level) {
            LogLevel.OFF -> CoreLogLevel.OFF
            LogLevel.ERROR -> CoreLogLevel.ERROR
            LogLevel.WARN -> CoreLogLevel.WARN
            LogLevel.INFO -> CoreLogLevel.INFO
            LogLevel.DEBUG -> CoreLogLevel.DEBUG
            LogLevel.TRACE -> CoreLogLevel.TRACE
        },
    )
}
