package dev.agentui.compose

import dev.agentui.CheckResult
import dev.agentui.Severity

/**
 * What an input shows for its checks: [message] (null when the failing check has none) and
 * whether it is an error. tests/renderer-cases/cases.json `checkShown` holds the cases both
 * renderers assert.
 */
public data class CheckShown(val message: String?, val isError: Boolean)

/**
 * The first failing check, shown as an error only when its severity is error: an A2UI v1.0
 * warning or info is advice, shown plainly (and it does not disable a button either). Null when
 * every check passes.
 */
public fun checkShown(checks: List<CheckResult>): CheckShown? =
    checks.firstOrNull { !it.passed }?.let { CheckShown(it.message.ifEmpty { null }, it.severity == Severity.ERROR) }
