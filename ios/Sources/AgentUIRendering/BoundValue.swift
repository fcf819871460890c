// The value an input shows, for two-way binding without lost keystrokes (same rule as the
// Compose renderer's BoundValue).

import AgentUICore

/// The user's edit shows at once and is written to the core; the core's echo (the re-resolved
/// node) arrives later, possibly after further edits. Echoes are recognised by their **wire
/// value** (docs/rendering.md, "Echo suppression"): a resolved value equal to one this input
/// wrote is not applied (it would roll back what was typed since); any other resolved value is
/// a change from elsewhere (the agent) and replaces what is shown. The cases are in
/// tests/renderer-cases/cases.json (RendererCasesTests). Kept in `@State`.
package struct BoundValue<Shown: Equatable> {
    package private(set) var shown: Shown
    private var written: [NodeValue] = []
    private var lastResolved: NodeValue

    private static var maxUnechoed: Int { 64 }

    package init(shown: Shown, resolved: NodeValue) {
        self.shown = shown
        self.lastResolved = resolved
    }

    /// The core sent the node again with `wire` as its value (`shown` is its display form).
    package mutating func resolved(_ wire: NodeValue, shown resolvedShown: Shown) {
        guard wire != lastResolved else { return }
        lastResolved = wire
        if let echo = written.firstIndex(of: wire) {
            written.removeFirst(echo + 1)
        } else {
            written.removeAll()
            shown = resolvedShown
        }
    }

    /// The user edited the input; `wrote` is the value written to the core, nil when nothing was
    /// written (no binding: the input keeps its value locally; or the core refused it).
    package mutating func edited(_ edited: Shown, wrote: NodeValue?) {
        shown = edited
        guard let wrote else { return }
        written.append(wrote)
        if written.count > Self.maxUnechoed { written.removeFirst() }
    }
}
