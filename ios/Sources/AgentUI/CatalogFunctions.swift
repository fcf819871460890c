// The app's implementations of A2UI catalog functions: the Kotlin layer's CatalogFunctions.kt,
// with Swift's types. The layer adapts them to the core's `A2uiFunctionHandler`.

import AgentUICore

/// The app's implementation of a function its catalog declares: the call's evaluated arguments
/// in (an argument whose data has not arrived yet is `.null`), the value out. It runs while a
/// surface resolves, each time a value it reads changes, on the thread that resolves it: a
/// runtime thread while the agent streams, or the thread that called `setValue` or
/// `dispatchAction` (the main thread when the UI calls them). Keep it quick and pure, and off
/// the main actor's state. It runs while the conversation's surfaces are locked: a call back into
/// the conversation from it (`setValue`, an action) is refused with `SurfaceError.Reentrant` /
/// `ConversationError.Reentrant` instead of waiting.
///
/// Throw `CatalogFunctionFailure` for a failure an agent's `callRendererFunction` may read as
/// is; any other error fails the call too, with a generic text. A failed call's property is
/// null.
public typealias CatalogFunction = @Sendable (_ args: [String: NodeValue]) throws -> NodeValue

/// Function `name` of the catalog `catalogId`.
public struct CatalogFunctionID: Hashable, Sendable {
    public let catalogId: String
    public let name: String
    public init(catalogId: String, name: String) {
        self.catalogId = catalogId
        self.name = name
    }
}

/// A catalog function's failure whose `detail` the agent reads.
public struct CatalogFunctionFailure: Error {
    public let detail: String
    public init(_ detail: String) { self.detail = detail }
}

/// Runs the app's functions for the native engine, by catalog id and name.
final class CatalogFunctionsAdapter: A2uiFunctionHandler, @unchecked Sendable {
    private let functions: [CatalogFunctionID: CatalogFunction]
    init(_ functions: [CatalogFunctionID: CatalogFunction]) { self.functions = functions }

    func call(catalogId: String, name: String, args: [PropEntry]) throws -> NodeValue {
        guard let function = functions[CatalogFunctionID(catalogId: catalogId, name: name)] else {
            throw A2uiFunctionError.Failed(detail: "no function \(name) for catalog \(catalogId)")
        }
        // A JSON object's members are unique; the last wins should one repeat.
        let arguments = Dictionary(args.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        do {
            return try function(arguments)
        } catch let failure as CatalogFunctionFailure {
            throw A2uiFunctionError.Failed(detail: failure.detail)
        } catch let error as A2uiFunctionError {
            throw error
        } catch {
            // As for client tools: the agent reads only a generic text.
            throw A2uiFunctionError.Unexpected(detail: String(describing: error))
        }
    }
}
