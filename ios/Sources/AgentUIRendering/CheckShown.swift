// What an input shows for its checks (A2UI v1.0 structured validation results), by the rule the
// Compose renderer's CheckShown.kt follows too; the shared cases are in
// tests/renderer-cases/cases.json (`checkShown`, RendererCasesTests).

import AgentUICore

/// The first failing check as an input shows it: its message (nil when it has none) and
/// whether it is an error.
package struct CheckShown: Equatable {
    package let message: String?
    package let isError: Bool

    package init(message: String?, isError: Bool) {
        self.message = message
        self.isError = isError
    }

    /// What VoiceOver reads for the shown message: "Error: " before an error's message, which
    /// colour alone would not tell; a warning's or info's message as it is. nil without a message
    /// (nothing is shown).
    package var spoken: String? {
        guard let message else { return nil }
        return isError ? "Error: \(message)" : message
    }
}

/// The first failing check, shown as an error only when its severity is error: a v1.0 warning
/// or info is advice, shown plainly (and it does not disable a button either). nil when every
/// check passes.
package func checkShown(_ checks: [CheckResult]) -> CheckShown? {
    guard let failing = checks.first(where: { !$0.passed }) else { return nil }
    return CheckShown(message: failing.message.isEmpty ? nil : failing.message, isError: failing.severity == .error)
}
