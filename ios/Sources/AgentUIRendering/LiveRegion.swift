// A2UI v1.0 accessibility `live` for the SwiftUI renderer. The Compose renderer maps `live` to a
// live region and Android announces the node's changes itself; SwiftUI has no live regions, so
// the renderer announces them. What to announce, when, and how urgently is decided here, without
// SwiftUI, so that it is built and tested on Linux; NodeView.swift only posts the announcement.
// The shared cases are in tests/renderer-cases/cases.json (`live`, RendererCasesTests): the
// Compose renderer's host test asserts the same `region` for every step.

import Foundation

/// How a live node's changes are announced: `polite` after the speech in progress, `assertive`
/// at once, interrupting it.
package enum LivePoliteness: String, Equatable, Sendable {
    case polite
    case assertive

    /// The live region a node's accessibility makes: nil for `off`, none, any other value, and
    /// for a node hidden from assistive technologies (Compose clears a hidden node's semantics,
    /// its live region with them).
    package init?(live: String?, hidden: Bool?) {
        guard hidden != true, let live, let politeness = LivePoliteness(rawValue: live) else { return nil }
        self = politeness
    }
}

/// A node as the announcer sees it, each time the core resolves it.
package struct LiveState: Equatable, Sendable {
    /// Accessibility `live`, as the agent wrote it.
    package var live: String?
    /// Accessibility `hidden`.
    package var hidden: Bool?
    /// Accessibility `label`: VoiceOver reads it instead of the text.
    package var label: String?
    /// The text the node shows (a Text's text; Markdown as its plain text).
    package var text: String?

    package init(live: String?, hidden: Bool?, label: String?, text: String?) {
        self.live = live
        self.hidden = hidden
        self.label = label
        self.text = text
    }

    /// What VoiceOver reads for the node: its label when it has one, else its text.
    package var spoken: String? { label ?? text }
}

/// One announcement to post.
package struct LiveAnnouncement: Equatable, Sendable {
    package let text: String
    package let politeness: LivePoliteness

    package init(text: String, politeness: LivePoliteness) {
        self.text = text
        self.politeness = politeness
    }
}

/// The announcements of one live node over its resolutions. Never announces on appearance (a
/// screen that opens is not news), never for `off` or a hidden node, never the same text twice
/// in a row, and never empty text. Changes made while the node was not live are not announced
/// later: the text is remembered either way.
package struct LiveRegion: Sendable {
    private var seen = false
    private var spoken: String?

    package init() {}

    /// The node appeared (or appeared again): its text is the baseline; nothing is announced.
    package mutating func appeared(_ state: LiveState) {
        seen = true
        spoken = state.spoken
    }

    /// The core resolved the node again: what to announce, if anything. A first call is the
    /// node's appearance.
    package mutating func changed(to state: LiveState) -> LiveAnnouncement? {
        guard seen else {
            appeared(state)
            return nil
        }
        let previous = spoken
        spoken = state.spoken
        guard let politeness = LivePoliteness(live: state.live, hidden: state.hidden),
              let text = state.spoken,
              text != previous,
              !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        else { return nil }
        return LiveAnnouncement(text: text, politeness: politeness)
    }
}
