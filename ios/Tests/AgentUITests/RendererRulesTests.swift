// The SwiftUI renderer's rules that have no Compose counterpart to share cases with (the Compose
// renderer leaves them to Material and the system): what VoiceOver reads for a check's message,
// and the plain text a live Text announces. Needs no demo agent.

import XCTest
import AgentUI
// The core itself, for what only a test reaches (its test hooks and records).
import AgentUICore
import AgentUIRendering

final class RendererRulesTests: XCTestCase {
    func testOnlyAnErrorIsReadAsAnError() {
        XCTAssertEqual(CheckShown(message: "Pick a date", isError: true).spoken, "Error: Pick a date")
        // Colour alone marks a warning or info; VoiceOver reads it as it is.
        XCTAssertEqual(CheckShown(message: "Consider a work address", isError: false).spoken, "Consider a work address")
        // Nothing is shown, so nothing is read.
        XCTAssertNil(CheckShown(message: nil, isError: true).spoken)
    }

    func testTheSpokenTextOfAFailingWarningCheck() {
        let checks = [
            CheckResult(message: "Required", passed: true, code: nil, severity: .error),
            CheckResult(message: "This password is weak", passed: false, code: "WEAK_PASSWORD", severity: .warning),
        ]
        XCTAssertEqual(checkShown(checks)?.spoken, "This password is weak")
    }

    func testMarkdownIsAnnouncedAsTheTextItShows() {
        XCTAssertEqual(MarkdownLayout.plainText(markdownText(text: "**Saved** to _Drafts_").blocks), "Saved to Drafts")
        XCTAssertEqual(
            MarkdownLayout.plainText(markdownText(text: "# Done\n\n- one\n- `two`\n\n---\n\n| a | b |\n|---|---|\n| 1 | 2 |").blocks),
            "Done\none\ntwo\na, b\n1, 2"
        )
        XCTAssertEqual(MarkdownLayout.plainText([]), "")
    }
}
