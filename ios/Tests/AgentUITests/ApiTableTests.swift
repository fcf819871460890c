// The Swift side of the shared API table (api/public-api.tsv): every Swift cell names a public
// symbol of module AgentUI, and every public type, enum case and member of AgentRuntime,
// AgentConversation and AgentOptions (its stored properties) has a row. The Kotlin layer's test
// checks its own column against the same file, so an operation added on one platform fails that
// platform's test until the table says why the other has none.
//
// The symbol graph is AgentUI.symbols.json, written by `swift package dump-symbol-graph`
// (scripts/swift-linux.sh copies it to ios/build/linux/symbolgraph/ before the tests run);
// AGENTUI_SYMBOL_GRAPH names another file.
//
// This file imports AgentUI only, as an app does: the last test checks that the core's types
// the layer publishes (values, nodes, errors) are usable without `import AgentUICore`.

import Foundation
import XCTest
import AgentUI

/// One row of api/public-api.tsv.
struct ApiRow: Equatable {
    enum Kind: String { case type, `case`, member }
    let kind: Kind
    let kotlin: String
    let swift: String
    let note: String
    let line: Int
}

/// What the symbol graph says module AgentUI makes public, as the table names it.
struct SwiftApi: Equatable {
    var types: Set<String> = []
    /// `Type.case`, without the associated values' labels.
    var cases: Set<String> = []
    /// `Type.selector` of every public member of the table's three types (`AgentOptions`: its
    /// properties only).
    var members: Set<String> = []
    /// Every other member path, so that a row may name one too.
    var otherMembers: Set<String> = []
    /// Declarations that name a type of AgentUICore other than through the layer's typealiases:
    /// the generated bindings would be part of the layer's API.
    var coreTypeUses: [String] = []
}

enum ApiTable {
    static let memberTypes: Set<String> = ["AgentRuntime", "AgentConversation", "AgentOptions"]

    /// The rows of the table's text; a malformed row is a problem, not skipped.
    static func rows(_ text: String) -> (rows: [ApiRow], problems: [String]) {
        var rows: [ApiRow] = []
        var problems: [String] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            if raw.trimmingCharacters(in: .whitespaces).isEmpty || raw.hasPrefix("#") { continue }
            let cells = raw.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard (3...4).contains(cells.count), let kind = ApiRow.Kind(rawValue: cells[0]) else {
                problems.append("line \(line): not `kind<TAB>kotlin<TAB>swift[<TAB>note]` with kind type, case or member: \(raw)")
                continue
            }
            let row = ApiRow(kind: kind, kotlin: cells[1], swift: cells[2], note: cells.count > 3 ? cells[3] : "", line: line)
            if row.kotlin.isEmpty || row.swift.isEmpty || (row.kotlin == "-" && row.swift == "-") {
                problems.append("line \(line): a cell is empty, or both are `-`")
            }
            if (row.kotlin == "-" || row.swift == "-") && row.note.trimmingCharacters(in: .whitespaces).isEmpty {
                problems.append("line \(line): `-` needs a note saying why the platform has none")
            }
            rows.append(row)
        }
        return (rows, problems)
    }

    /// The public API of a symbol graph file's `symbols`.
    static func api(symbolGraph: Data) throws -> SwiftApi {
        struct Graph: Decodable {
            struct Symbol: Decodable {
                struct Kind: Decodable { let identifier: String }
                struct Fragment: Decodable {
                    let kind: String
                    let spelling: String
                    let preciseIdentifier: String?
                }
                let kind: Kind
                let pathComponents: [String]
                let accessLevel: String
                let declarationFragments: [Fragment]?
            }
            let symbols: [Symbol]
        }
        var api = SwiftApi()
        let typeKinds: Set<String> = ["swift.struct", "swift.enum", "swift.class", "swift.protocol", "swift.typealias"]
        for symbol in try JSONDecoder().decode(Graph.self, from: symbolGraph).symbols
        where symbol.accessLevel == "public" || symbol.accessLevel == "open" {
            let path = symbol.pathComponents
            let kind = symbol.kind.identifier
            // Mangled names of module AgentUICore begin so (the module name's length, then it).
            let core = (symbol.declarationFragments ?? []).filter { $0.preciseIdentifier?.hasPrefix("s:11AgentUICore") ?? false }
            if kind != "swift.typealias", !core.isEmpty {
                api.coreTypeUses.append("\(path.joined(separator: ".")) names AgentUICore's \(core.map(\.spelling))")
            }
            if typeKinds.contains(kind) {
                api.types.insert(path.joined(separator: "."))
            } else if kind == "swift.enum.case", path.count >= 2 {
                let name = path[path.count - 1].prefix { $0 != "(" }
                api.cases.insert((path.dropLast() + [String(name)]).joined(separator: "."))
            } else if path.count == 2, memberTypes.contains(path[0]),
                      path[0] != "AgentOptions" || kind == "swift.property" {
                api.members.insert(path.joined(separator: "."))
            } else {
                api.otherMembers.insert(path.joined(separator: "."))
            }
        }
        return api
    }

    /// What is wrong between the rows and the API: a Swift cell naming nothing, a public
    /// symbol without a row.
    static func problems(rows: [ApiRow], api: SwiftApi) -> [String] {
        var problems: [String] = []
        var listed: [ApiRow.Kind: Set<String>] = [:]
        for row in rows where row.swift != "-" {
            listed[row.kind, default: []].insert(row.swift)
            let exists: Bool
            switch row.kind {
            case .type: exists = api.types.contains(row.swift)
            case .case: exists = api.cases.contains(row.swift)
            case .member: exists = api.members.contains(row.swift) || api.otherMembers.contains(row.swift)
            }
            if !exists { problems.append("line \(row.line): Swift has no public \(row.kind) \(row.swift)") }
        }
        for (kind, symbols) in [(ApiRow.Kind.type, api.types), (.case, api.cases), (.member, api.members)] {
            for symbol in symbols.sorted() where !(listed[kind]?.contains(symbol) ?? false) {
                problems.append("no row for public \(kind) \(symbol)")
            }
        }
        return problems
    }
}

final class ApiTableTests: XCTestCase {
    /// This file is ios/Tests/AgentUITests/ApiTableTests.swift: four levels below the root.
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static var symbolGraphURL: URL {
        if let path = ProcessInfo.processInfo.environment["AGENTUI_SYMBOL_GRAPH"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return root.appendingPathComponent("ios/build/linux/symbolgraph/AgentUI.symbols.json")
    }

    func testEverySwiftCellExistsAndEveryPublicSymbolHasARow() throws {
        let table = Self.root.appendingPathComponent("api/public-api.tsv")
        let (rows, malformed) = ApiTable.rows(try String(contentsOf: table, encoding: .utf8))
        XCTAssertEqual(malformed, [], table.path)
        guard let graph = try? Data(contentsOf: Self.symbolGraphURL) else {
            return XCTFail("""
                no symbol graph at \(Self.symbolGraphURL.path): run scripts/swift-linux.sh, or \
                `swift package dump-symbol-graph` and name its AgentUI.symbols.json in AGENTUI_SYMBOL_GRAPH
                """)
        }
        let api = try ApiTable.api(symbolGraph: graph)
        XCTAssertTrue(api.types.contains("AgentConversation") && api.members.contains("AgentConversation.send(_:)"),
                      "the symbol graph is not AgentUI's")
        XCTAssertEqual(api.coreTypeUses, [], "public declarations name the generated bindings' types")
        let problems = ApiTable.problems(rows: rows, api: api)
        XCTAssertEqual(problems, [], "api/public-api.tsv and module AgentUI differ:\n" + problems.joined(separator: "\n"))
    }

    /// The checker itself: a missing row, a cell naming nothing and an unexplained `-` are found.
    func testTheCheckFindsAMissingRowAStaleCellAndAnUnexplainedAbsence() {
        var api = SwiftApi()
        api.types = ["RunPhase", "AgentConversation"]
        api.cases = ["RunPhase.idle", "RunPhase.running"]
        api.members = ["AgentConversation.send(_:)", "AgentConversation.close()"]
        let text = """
            # kind\tkotlin\tswift\tnote
            type\tRunPhase\tRunPhase
            type\tAgentConversation\tAgentConversation
            case\tRunPhase.Idle\tRunPhase.idle
            case\tRunPhase.Gone\tRunPhase.gone
            member\tAgentConversation.send\tAgentConversation.send(_:)
            member\tAgentConversation.sendAsync\t-
            """
        let (rows, malformed) = ApiTable.rows(text)
        XCTAssertEqual(malformed, ["line 7: `-` needs a note saying why the platform has none"])
        XCTAssertEqual(ApiTable.problems(rows: rows, api: api), [
            "line 5: Swift has no public case RunPhase.gone",
            "no row for public case RunPhase.running",
            "no row for public member AgentConversation.close()",
        ])
        let complete = ApiTable.rows(text + "\ncase\tRunPhase.Running\tRunPhase.running\nmember\tAgentConversation.close\tAgentConversation.close()")
        XCTAssertEqual(ApiTable.problems(rows: complete.rows.filter { $0.swift != "RunPhase.gone" }, api: api), [])
    }

    /// An app that imports AgentUI only names the core's values, nodes and errors through it.
    func testTheCoresPublishedTypesNeedNoImportOfTheCore() {
        let value: NodeValue = .object(entries: [PropEntry(name: "n", value: .number(value: 1))])
        XCTAssertEqual(value[member: "n"], .number(value: 1))
        let object: JsonObject = [PropEntry(name: "ok", value: .bool(value: true))]
        XCTAssertEqual(object.first?.value, .bool(value: true))
        let block: MdBlock = .paragraph(inlines: [.text(text: "hi")])
        if case .paragraph(let inlines) = block { XCTAssertEqual(inlines, [MdInline.text(text: "hi")]) }
        let content: MessageContent = .text("hello")
        XCTAssertEqual(content, .text("hello"))
        let errors: [Error] = [
            ConversationError.InvalidUrl(detail: "x"), StoreError.NotFound(threadId: "t"),
            SurfaceError.UnknownSurface(surfaceId: "s"),
        ]
        XCTAssertTrue(errors[0] is ConversationError && errors[1] is StoreError && errors[2] is SurfaceError)
        if case ConversationError.InvalidUrl(let detail) = errors[0] { XCTAssertEqual(detail, "x") } else { XCTFail() }
    }
}
