// The renderer parity rules of docs/rendering.md (echo suppression, dates, number input, check
// results, live announcements, Markdown, v1.0 wire messages), one case at a time from
// tests/renderer-cases/cases.json: the file the Compose renderer's host test
// (android/host-jvm/src/test/kotlin/dev/agentui/compose/RendererCasesTest.kt) reads too. Needs
// no demo agent.

import Foundation
import XCTest
import AgentUI
// The core itself, for what only a test reaches (its test hooks and records).
import AgentUICore
import AgentUIRendering

/// A JSON value as the cases file has it. An object member that is absent is not in the
/// dictionary, while `null` is `.null`: the echo cases tell "wrote nothing" from "wrote null".
private enum JSON: Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool before Double: JSONDecoder decodes a Bool only from true/false.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    /// Written back as JSON text: the case's messages go to the core as the file has them.
    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let items): try container.encode(items)
        case .object(let members): try container.encode(members)
        }
    }

    subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The wire value the core would send for this JSON.
    var nodeValue: NodeValue {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value: value)
        case .number(let value): return .number(value: value)
        case .string(let value): return .text(value: value)
        case .array(let items): return .array(items: items.map(\.nodeValue))
        case .object(let members):
            return .object(entries: members.keys.sorted().map { PropEntry(name: $0, value: members[$0]!.nodeValue) })
        }
    }
}

final class RendererCasesTests: XCTestCase {
    /// This file is ios/Tests/AgentUITests/RendererCasesTests.swift: four levels below the root.
    private static let casesURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("tests/renderer-cases/cases.json")

    private func section(_ name: String, atLeast minimum: Int) throws -> [JSON] {
        let data = try Data(contentsOf: Self.casesURL)
        let all = try JSONDecoder().decode(JSON.self, from: data)
        guard case .array(let cases) = all[name]?["cases"] else {
            throw TestSetupError("\(Self.casesURL.path) has no section \"\(name)\" with cases")
        }
        // A truncated or renamed section must not pass by asserting nothing.
        XCTAssertGreaterThanOrEqual(cases.count, minimum, "\(name): too few cases")
        return cases
    }

    func testEchoSuppressionComparesWireValues() throws {
        for testCase in try section("echo", atLeast: 10) {
            let name = testCase["name"]?.string ?? "?"
            let initial = try XCTUnwrap(testCase["initial"], name).nodeValue
            guard case .array(let steps) = testCase["steps"] else {
                XCTFail("\(name): no steps")
                continue
            }
            var bound = BoundValue(shown: initial.displayText ?? "", resolved: initial)
            for (index, step) in steps.enumerated() {
                if let edit = step["edit"]?.string {
                    // An absent "wrote" is an edit that wrote nothing; "wrote": null wrote null.
                    bound.edited(edit, wrote: step["wrote"]?.nodeValue)
                } else {
                    let wire = try XCTUnwrap(step["resolved"], "\(name), step \(index)").nodeValue
                    bound.resolved(wire, shown: wire.displayText ?? "")
                }
                XCTAssertEqual(bound.shown, step["shown"]?.string, "\(name), after step \(index)")
            }
        }
    }

    func testIsoValuesAreShownOnTheZonesWallClock() throws {
        for testCase in try section("dates", atLeast: 30) {
            let value = try XCTUnwrap(testCase["value"]?.string)
            let zoneId = try XCTUnwrap(testCase["zone"]?.string)
            let zone = try XCTUnwrap(TimeZone(identifier: zoneId), "the system knows \(zoneId)")
            let format: IsoFormat
            switch testCase["format"]?.string {
            case "date": format = .date
            case "time": format = .time
            case "dateTime": format = .dateTime
            default:
                XCTFail("\(value): unknown format")
                continue
            }
            let expected = try XCTUnwrap(testCase["shown"], "\(value): no expected value")
            let shown = IsoDates.localText(value, format: format, zone: zone)
            let why = testCase["why"]?.string ?? ""
            XCTAssertEqual(shown, expected.string, "\(value) as \(format) in \(zoneId) (\(why))")
            // What is shown is what the picker starts from and writes back unchanged.
            if let shown {
                let date = try XCTUnwrap(format.parse(shown), "\(shown) parses")
                XCTAssertEqual(format.format(date), shown)
            }
        }
    }

    func testCheckResultsShowTheFirstFailureAsAnErrorOnlyForSeverityError() throws {
        for testCase in try section("checkShown", atLeast: 12) {
            let name = testCase["name"]?.string ?? ""
            guard case .array(let items) = testCase["checks"] else {
                XCTFail("\(name): no checks")
                continue
            }
            let checks: [CheckResult] = try items.map { item in
                guard case .bool(let passed) = item["passed"] else { throw TestSetupError("\(name): passed") }
                let severity: Severity
                switch item["severity"]?.string {
                case "error": severity = .error
                case "warning": severity = .warning
                case "info": severity = .info
                default: throw TestSetupError("\(name): severity")
                }
                return CheckResult(message: try XCTUnwrap(item["message"]?.string), passed: passed, code: item["code"]?.string, severity: severity)
            }
            var expected: CheckShown?
            if case .object = testCase["shown"] {
                guard case .bool(let isError) = testCase["shown"]?["isError"] else { throw TestSetupError("\(name): isError") }
                expected = CheckShown(message: testCase["shown"]?["message"]?.string, isError: isError)
            }
            XCTAssertEqual(checkShown(checks), expected, name)
        }
    }

    /// SwiftUI has no live regions: LiveRegion decides the announcements the renderer posts,
    /// and LivePoliteness the region the Compose renderer's test asserts for the same steps.
    func testLiveNodesAnnounceTheirChangesOnly() throws {
        for testCase in try section("live", atLeast: 12) {
            let name = testCase["name"]?.string ?? ""
            guard case .array(let steps) = testCase["steps"] else {
                XCTFail("\(name): no steps")
                continue
            }
            var region = LiveRegion()
            for (index, step) in steps.enumerated() {
                var hidden: Bool?
                if case .bool(let value) = step["hidden"] { hidden = value }
                let state = LiveState(live: step["live"]?.string, hidden: hidden, label: step["label"]?.string, text: step["text"]?.string)
                XCTAssertEqual(
                    LivePoliteness(live: state.live, hidden: state.hidden)?.rawValue,
                    step["region"]?.string,
                    "\(name), region at step \(index)"
                )
                var expected: LiveAnnouncement?
                if case .object = step["announced"] {
                    let politeness = try XCTUnwrap(step["announced"]?["politeness"]?.string.flatMap(LivePoliteness.init(rawValue:)), "\(name): politeness")
                    expected = LiveAnnouncement(text: try XCTUnwrap(step["announced"]?["text"]?.string), politeness: politeness)
                }
                let announced: LiveAnnouncement?
                if case .bool(true) = step["appeared"] {
                    region.appeared(state)
                    announced = nil
                } else {
                    announced = region.changed(to: state)
                }
                XCTAssertEqual(announced, expected, "\(name), announced at step \(index)")
            }
        }
    }

    /// v1.0 wire messages (@path, @call, @index, checks, accessibility) resolved by the core as a
    /// conversation would (`a2uiCaseSurface`), and what the renderer makes of the nodes.
    func testV10WireMessagesReachTheRendererAsTheCasesSay() throws {
        for testCase in try section("v1_0", atLeast: 12) {
            let name = testCase["name"]?.string ?? ""
            let messages = try XCTUnwrap(testCase["messages"], "\(name): no messages")
            let json = String(decoding: try JSONEncoder().encode(messages), as: UTF8.self)
            guard case .reset(_, let nodes) = try a2uiCaseSurface(messagesJson: json) else {
                XCTFail("\(name): not a reset")
                continue
            }
            guard case .array(let wanted) = testCase["nodes"] else {
                XCTFail("\(name): no nodes")
                continue
            }
            var taken: [String: Int] = [:]
            for want in wanted {
                let node: Node
                if let id = want["id"]?.string {
                    node = try XCTUnwrap(nodes.first { $0.id == id }, "\(name): no node \(id)")
                } else {
                    // A template's instances, in the core's order.
                    let component = try XCTUnwrap(want["componentId"]?.string, "\(name): id or componentId")
                    let nth = taken[component, default: 0]
                    taken[component] = nth + 1
                    let instances = nodes.filter { $0.componentId == component }
                    guard nth < instances.count else { throw TestSetupError("\(name): no instance \(nth) of \(component)") }
                    node = instances[nth]
                }
                let at = "\(name): node \(node.id)"
                for property in ["text", "value"] {
                    guard let expected = want[property] else { continue }
                    let shown = node.props.first { $0.name == property }?.value.displayText
                    XCTAssertEqual(shown, expected.string, "\(at): \(property)")
                }
                if let label = want["label"] { XCTAssertEqual(node.accessibility?.label, label.string, "\(at): label") }
                if case .bool(let hidden) = want["hidden"] { XCTAssertEqual(node.accessibility?.hidden, hidden, "\(at): hidden") }
                if let region = want["region"] {
                    let politeness = LivePoliteness(live: node.accessibility?.live, hidden: node.accessibility?.hidden)
                    XCTAssertEqual(politeness?.rawValue, region.string, "\(at): region")
                }
                if case .object(let bindings) = want["bindings"] {
                    let actual = Dictionary(uniqueKeysWithValues: node.bindings.map { ($0.property, $0.path) })
                    XCTAssertEqual(actual, bindings.compactMapValues(\.string), "\(at): bindings")
                }
                if let shown = want["shown"] {
                    var expected: CheckShown?
                    if case .object = shown {
                        guard case .bool(let isError) = shown["isError"] else { throw TestSetupError("\(at): isError") }
                        expected = CheckShown(message: shown["message"]?.string, isError: isError)
                    }
                    XCTAssertEqual(checkShown(node.checks), expected, "\(at): checks \(node.checks)")
                }
            }
        }
    }

    func testNumberInputWritesANumberNullOrTheText() throws {
        for testCase in try section("numberInput", atLeast: 25) {
            let text = try XCTUnwrap(testCase["text"]?.string)
            let wire = try XCTUnwrap(testCase["wire"], "\(text): no expected wire value").nodeValue
            XCTAssertEqual(numberInputValue(text), wire, "typed \"\(text)\" (\(testCase["why"]?.string ?? ""))")
        }
    }

    func testNumbersPrintTheSameTextOnBothPlatforms() throws {
        for testCase in try section("numberFormat", atLeast: 15) {
            guard case .number(let number) = testCase["number"], let text = testCase["text"]?.string else {
                XCTFail("a numberFormat case without number or text")
                continue
            }
            XCTAssertEqual(formatNumber(number), text, "\(number)")
        }
    }

    // MARK: Markdown

    /// A line as the cases write it: absent keys are 0, nil or empty.
    private struct Line: Equatable, CustomStringConvertible {
        var kind = ""
        var text = ""
        var level = 0
        var marker: String?
        var indent = 0
        var quote = 0
        var plain = false
        var spans: [[String]] = []
        var language: String?
        var header: [String] = []
        var rows: [[String]] = []
        var description: String { "\(kind) \"\(text)\" level \(level) marker \(marker ?? "-") indent \(indent) quote \(quote) plain \(plain) spans \(spans) language \(language ?? "-") header \(header) rows \(rows)" }
    }

    private func expectedLine(_ json: JSON) -> Line {
        func int(_ key: String) -> Int {
            if case .number(let n)? = json[key] { return Int(n) }
            return 0
        }
        func strings(_ value: JSON?) -> [String] {
            if case .array(let items)? = value { return items.compactMap(\.string) }
            return []
        }
        var line = Line()
        line.kind = json["kind"]?.string ?? ""
        line.text = json["text"]?.string ?? ""
        line.level = int("level")
        line.marker = json["marker"]?.string
        line.indent = int("indent")
        line.quote = int("quote")
        if case .bool(let plain)? = json["plain"] { line.plain = plain }
        if case .array(let spans)? = json["spans"] { line.spans = spans.map { strings($0) } }
        line.language = json["language"]?.string
        line.header = strings(json["header"])
        if case .array(let rows)? = json["rows"] { line.rows = rows.map { strings($0) } }
        return line
    }

    private func spans(_ styled: StyledText) -> [[String]] {
        styled.spans.map { span in
            let style: String
            switch span.style {
            case .emphasis: style = "emphasis"
            case .strong: style = "strong"
            case .strikethrough: style = "strikethrough"
            case .code: style = "code"
            case .link(let url): style = "link \(url)"
            case .image(let url): style = "image \(url)"
            }
            return [style, styled.covered(span)]
        }
    }

    private func describe(_ line: MarkdownLine) -> Line {
        var out = Line()
        switch line {
        case .text(let styled, let quote, let indent, let level, let marker, let plain):
            (out.kind, out.text, out.quote, out.indent, out.level, out.marker, out.plain) = ("text", styled.text, quote, indent, level, marker, plain)
            out.spans = spans(styled)
        case .code(let language, let text, let quote, let indent):
            (out.kind, out.language, out.text, out.quote, out.indent) = ("code", language, text, quote, indent)
        case .rule(let quote):
            (out.kind, out.quote) = ("rule", quote)
        case .table(_, let header, let rows, let quote, let indent):
            (out.kind, out.quote, out.indent) = ("table", quote, indent)
            out.header = header.map(\.text)
            out.rows = rows.map { $0.map(\.text) }
        }
        return out
    }

    func testMarkdownFromTheCoreIsLaidOutTheSameOnBothPlatforms() throws {
        for testCase in try section("markdown", atLeast: 8) {
            let name = testCase["name"]?.string ?? "?"
            let tree = markdownText(text: testCase["markdown"]?.string ?? "")
            let lines = MarkdownLayout.lines(tree.blocks).map(describe)
            guard case .array(let expected)? = testCase["lines"] else { return XCTFail("\(name): no lines") }
            XCTAssertEqual(lines, expected.map(expectedLine), name)
        }
    }

    func testTextTheTreeDoesNotCoverYetIsShownAfterTheLastBlock() {
        let lines = MarkdownLayout.lines(markdownText(text: "# Title\n\nsome **bold").blocks, pending: " and more")
        guard case .text(let styled, _, _, _, _, _)? = lines.last else { return XCTFail("\(lines)") }
        XCTAssertEqual(styled.text, "some **bold and more")
        let code = MarkdownLayout.lines(markdownText(text: "```\nfn").blocks, pending: " main")
        guard case .code(_, let text, _, _)? = code.last else { return XCTFail("\(code)") }
        XCTAssertEqual(text, "fn main")
    }
}

