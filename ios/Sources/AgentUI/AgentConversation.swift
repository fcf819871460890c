// The Swift layer over the generated `AgentUICore` bindings, the same shape as the Kotlin
// `dev.agentui.AgentConversation`: observable messages, run status, tool calls and surfaces,
// updated on the main actor; client tools as async closures; explicit close().
//
// NOT COMPILED HERE: this machine has no Swift compiler. Written against the Swift that
// uniffi-bindgen 0.32.2 generates from rust/agentui-ffi (see rust/agentui-ffi/API.md).

import Foundation
import Combine
import AgentUICore

/// One chat message as a UI shows it.
///
/// `localOnly` is set when the message stays on this device and is not sent back to the agent:
/// `.cancelled` for text cut short by a cancel (show it as `isIncomplete`, never as a finished
/// answer), `.orphanToolResult` for a tool result that matched no call.
public struct ChatMessage: Identifiable, Equatable {
    public let id: String
    public let role: MessageRole
    public let text: String
    public let toolCalls: [ToolCallRecord]
    public let error: String?
    public let localOnly: LocalOnlyReason?

    /// Cut short by a cancel: the agent never finished it, and it is not sent back.
    public var isIncomplete: Bool { localOnly == .cancelled }

    func keptLocal(_ reason: LocalOnlyReason?) -> ChatMessage {
        ChatMessage(id: id, role: role, text: text, toolCalls: toolCalls, error: error, localOnly: reason)
    }
}

/// What the agent streams besides conversation state, in stream order: AG-UI `CUSTOM`, `RAW`,
/// `STEP_STARTED` and `STEP_FINISHED` events. Values stay JSON text; decode them with
/// `JSONSerialization` or a `Decodable` of the app's own.
public enum AgentEvent: Equatable, Sendable {
    /// A `CUSTOM` event (an app-specific event, ADK's `PredictState`, LangGraph's
    /// `on_interrupt`); `valueJson` is its value as JSON text. An `on_interrupt` is also a pending
    /// interrupt, answered with `resolveInterrupt` like any other.
    case custom(name: String, valueJson: String)
    /// A `RAW` event: a provider-native event passed through verbatim.
    case raw(eventJson: String, source: String?)
    /// The agent began step `name`.
    case stepStarted(name: String)
    /// Step `name` is done.
    case stepFinished(name: String)
}

/// A surface's resolved nodes, kept in the order the core published them.
public struct SurfaceState: Equatable {
    public let id: String
    public let catalogId: String
    public let root: String?
    public let nodes: [String: ResolvedNodeRecord]
    public let order: [String]

    public func node(_ id: String) -> ResolvedNodeRecord? { nodes[id] }
}

/// A client tool: receives the validated arguments (JSON text), returns the result text the
/// agent reads. Throw `ClientToolFailure` for a failure the agent should read.
public typealias ClientTool = @Sendable (_ argumentsJson: String) async throws -> String

public struct ClientToolFailure: Error {
    public let detail: String
    public init(_ detail: String) { self.detail = detail }
}

/// Owns one native runtime (one tokio runtime). Close it when the app no longer talks to agents.
public final class AgentRuntime {
    let native: Runtime

    public init(workerThreads: UInt32 = 2) throws {
        native = try Runtime.withWorkerThreads(workerThreads: workerThreads)
    }

    /// - Parameter memoryBudget: bounds on what the agent can make this conversation hold
    ///   (state, data models, message sizes...); overrides `options.memoryBudget`. Without
    ///   either, the phone defaults apply (`defaultMemoryBudget()`). A breach fails the run with
    ///   `ConversationError.LimitExceeded` and changes nothing.
    /// `options` also carries TLS trust: `trustStore` (nil = the platform's, i.e. the Security
    /// framework with keychain and MDM roots), `extraRootsPem` / `extraRootsDer` and
    /// `certificatePins` (`sha256/BASE64` of the leaf's SubjectPublicKeyInfo). A refused
    /// certificate throws `ConversationError.Certificate(kind:detail:)`.
    ///
    /// The A2UI formatting functions (`formatNumber`, `formatCurrency`, `formatDate`,
    /// `pluralize`) follow `options.locale` (a BCP-47 tag) and `options.timeZone` (an IANA
    /// name). When they are nil, the device's `Locale.current` (as a BCP-47 tag, see
    /// `bcp47Tag(for:)`) and `TimeZone.current.identifier` at the time of this call are used.
    /// A value the core cannot use throws `ConversationError.InvalidOptions`.
    @MainActor
    public func connect(
        url: String,
        headers: [String: String] = [:],
        options: ConversationOptions = ConversationOptions(),
        memoryBudget: MemoryBudget? = nil
    ) throws -> AgentConversation {
        var effective = options
        if let memoryBudget {
            effective.memoryBudget = memoryBudget
        }
        if effective.locale == nil {
            effective.locale = Self.bcp47Tag(for: .current)
        }
        if effective.timeZone == nil {
            effective.timeZone = TimeZone.current.identifier
        }
        let conversation = try native.connect(
            url: url,
            headers: headers.map { Header(name: $0.key, value: $0.value) },
            options: effective
        )
        return AgentConversation(native: conversation)
    }

    /// `locale` as the BCP-47 language tag the core expects (`de-DE`, `sr-Latn-RS`). Foundation
    /// identifiers are ICU ones (`de_DE`, `zh-Hans_CN`, `th_TH@calendar=buddhist`): iOS 16 and
    /// macOS 13 convert them (keywords become `-u-` extensions); before that the keywords are
    /// dropped and `_` becomes `-`.
    public static func bcp47Tag(for locale: Locale) -> String {
        if #available(iOS 16, macOS 13, *) {
            return locale.identifier(.bcp47)
        }
        let base = locale.identifier.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ""
        return base.replacingOccurrences(of: "_", with: "-")
    }
}

/// A conversation with one agent. Listener callbacks arrive on Rust worker threads; they are
/// applied to the published properties on the main actor, in order.
@MainActor
public final class AgentConversation: ObservableObject {
    public let native: Conversation
    public let threadId: String

    @Published public private(set) var messages: [ChatMessage] = []
    @Published public private(set) var status: RunStatus = .idle
    @Published public private(set) var toolCalls: [String: ToolCallStatus] = [:]
    @Published public private(set) var surfaces: [String: SurfaceState] = [:]
    @Published public private(set) var stateJson: String = "{}"
    /// The steps of the current run that started and have not finished, outermost first.
    /// Emptied when a run starts or ends (a cancelled run may leave steps open).
    @Published public private(set) var activeSteps: [String] = []

    private var subscription: SubscriptionHandle?
    private let updates: AsyncStream<ConversationUpdate>.Continuation
    private var pump: Task<Void, Never>?
    private let surfaceEventSubject = PassthroughSubject<SurfaceEvent, Never>()
    private let eventSubject = PassthroughSubject<AgentEvent, Never>()
    /// Why messages stay on this device, by message id (marks arrive after the message).
    private var localOnlyMarks: [String: LocalOnlyReason] = [:]
    private var closed = false

    /// Every surface change, sent on the main actor right after it was applied to `surfaces`.
    /// A renderer that keeps one observable object per node follows these instead of comparing
    /// whole `surfaces` snapshots (see `AgentUISwiftUI.SurfaceModel`).
    public var surfaceEvents: AnyPublisher<SurfaceEvent, Never> { surfaceEventSubject.eraseToAnyPublisher() }

    /// The agent's CUSTOM, RAW and STEP events in the order it sent them, on the main actor,
    /// each sent after every earlier update was applied to the published properties. Not
    /// replayed: subscribe before `send` to see a run's events. As an async sequence:
    /// `for await event in conversation.events.values { ... }` (iOS 15+).
    public var events: AnyPublisher<AgentEvent, Never> { eventSubject.eraseToAnyPublisher() }

    init(native: Conversation) {
        self.native = native
        self.threadId = native.threadId()
        // One FIFO queue and one consumer on the main actor, as the Kotlin layer's channel:
        // a Task per callback would not guarantee that updates are applied in order.
        var continuation: AsyncStream<ConversationUpdate>.Continuation!
        let stream = AsyncStream<ConversationUpdate>(bufferingPolicy: .unbounded) { continuation = $0 }
        self.updates = continuation
        // Subscribe before reading the current state: what happens in between is queued and
        // applied on top (upserts by id and full resets, so nothing is lost or doubled).
        self.subscription = native.addListener(listener: Forwarder(continuation))
        seed()
        self.pump = Task { @MainActor [weak self] in
            for await update in stream {
                guard let self else { return }
                self.apply(update)
            }
        }
    }

    public func send(_ text: String) async throws -> RunSummary {
        try await native.sendMessage(text: text)
    }

    public func continueRun() async throws -> RunSummary {
        try await native.continueRun()
    }

    public func dispatchAction(surfaceId: String, nodeId: String) async throws -> ActionResultRecord {
        try await native.dispatchAction(surfaceId: surfaceId, nodeId: nodeId)
    }

    /// Writes the data model of `surfaceId` at JSON Pointer `path`; the bound nodes come back
    /// re-resolved through `surfaces` / `surfaceEvents`. During a run the core queues the write
    /// and applies it when the run ends (a refusal then arrives as an `inputNotApplied`
    /// warning). Throws `SurfaceError` (`unknownSurface`, `rejected` when the engine refuses the
    /// value, `busy` only past 1,024 queued writes).
    public func setValue(surfaceId: String, path: String, value: NodeValue) throws {
        try native.setValue(surfaceId: surfaceId, path: path, value: value)
    }

    /// `setValue` with a plain Swift value (`Bool`, numbers, `String`, arrays, `[String: ...]`,
    /// optionals; see `NodeValueConvertible`).
    public func setValue<Value: NodeValueConvertible>(surfaceId: String, path: String, value: Value) throws {
        try setValue(surfaceId: surfaceId, path: path, value: value.nodeValue)
    }

    public func cancel() { native.cancel() }

    public func resolveInterrupt(id: String, payloadJson: String?) throws {
        try native.resolveInterrupt(id: id, payloadJson: payloadJson)
    }

    public func cancelInterrupt(id: String) throws { try native.cancelInterrupt(id: id) }

    /// The registry that executes tools is the one the agent sees in `RunAgentInput.tools`.
    public func registerTool(name: String, description: String, parametersJsonSchema: String, tool: @escaping ClientTool) throws {
        try native.registerTool(
            name: name,
            description: description,
            parametersJsonSchema: parametersJsonSchema,
            handler: ToolAdapter(tool: tool)
        )
    }

    public func unregisterTool(name: String) throws -> Bool {
        try native.unregisterTool(name: name)
    }

    public func pendingInterrupts() -> [InterruptRecord] { native.pendingInterrupts() }

    /// The native live surface, for a renderer that subscribes to it itself.
    public func surface(_ surfaceId: String) -> Surface? { native.surface(surfaceId: surfaceId) }

    public func close() {
        guard !closed else { return }
        closed = true
        native.cancel()
        subscription?.cancel()
        subscription = nil
        updates.finish()
        pump?.cancel()
        pump = nil
    }

    private func seed() {
        messages = native.messages().map(Self.chatMessage)
        status = native.status()
        stateJson = native.stateJson()
        var seeded: [String: SurfaceState] = [:]
        for id in native.surfaceIds() {
            guard let surface = native.surface(surfaceId: id) else { continue }
            let empty = SurfaceState(id: id, catalogId: surface.catalogId(), root: nil, nodes: [:], order: [])
            seeded[id] = Self.applying(surface.snapshot(), to: empty)
        }
        surfaces = seeded
    }

    private func apply(_ update: ConversationUpdate) {
        guard !closed else { return }
        switch update {
        case .runStatusChanged(let status):
            self.status = status
            // Steps belong to one run: none is open before it streams or after it ended.
            if !activeSteps.isEmpty, !Self.isRunning(status) { activeSteps = [] }
        case .messageUpserted(let message):
            let chat = Self.chatMessage(message).keptLocal(localOnlyMarks[message.id])
            if let index = messages.firstIndex(where: { $0.id == chat.id }) {
                messages[index] = chat
            } else {
                messages.append(chat)
            }
        case .messagesReset(let all):
            // As the core does: the agent holds what its snapshot carries, so only messages of
            // client-only roles (which a snapshot leaves in place) keep their mark.
            let kept = Set(all.filter { $0.role == .activity || $0.role == .reasoning }.map(\.id))
            localOnlyMarks = localOnlyMarks.filter { kept.contains($0.key) }
            messages = all.map { Self.chatMessage($0).keptLocal(localOnlyMarks[$0.id]) }
        case .messageKeptLocal(let messageId, let reason):
            localOnlyMarks[messageId] = reason
            if let index = messages.firstIndex(where: { $0.id == messageId }) {
                messages[index] = messages[index].keptLocal(reason)
            }
        case .custom(let name, let valueJson):
            eventSubject.send(.custom(name: name, valueJson: valueJson))
        case .raw(let eventJson, let source):
            eventSubject.send(.raw(eventJson: eventJson, source: source))
        case .step(let name, let started):
            if started {
                activeSteps.append(name)
                eventSubject.send(.stepStarted(name: name))
            } else {
                if let index = activeSteps.lastIndex(of: name) { activeSteps.remove(at: index) }
                eventSubject.send(.stepFinished(name: name))
            }
        case .toolCall(let toolCallId, _, let status):
            toolCalls[toolCallId] = status
        case .stateChanged(let json):
            stateJson = json
        case .stateResyncNeeded, .warning:
            break
        case .surfaceCreated(let surfaceId, let catalogId):
            surfaces[surfaceId] = SurfaceState(id: surfaceId, catalogId: catalogId, root: nil, nodes: [:], order: [])
            surfaceEventSubject.send(.created(surfaceId: surfaceId, catalogId: catalogId))
        case .surfaceDiff(let surfaceId, let diff):
            // A diff for a surface created before this object existed and not seeded: take the
            // catalog from the native side once.
            let current = surfaces[surfaceId] ?? SurfaceState(
                id: surfaceId,
                catalogId: native.surface(surfaceId: surfaceId)?.catalogId() ?? "",
                root: nil, nodes: [:], order: []
            )
            surfaces[surfaceId] = Self.applying(diff, to: current)
            surfaceEventSubject.send(.diff(surfaceId: surfaceId, diff: diff))
        case .surfaceDeleted(let surfaceId):
            surfaces[surfaceId] = nil
            surfaceEventSubject.send(.deleted(surfaceId: surfaceId))
        }
    }

    private static func isRunning(_ status: RunStatus) -> Bool {
        if case .running = status { return true }
        return false
    }

    /// A reset replaces everything; a patch replaces the upserted nodes and drops the removed.
    static func applying(_ diff: SurfaceDiffRecord, to state: SurfaceState) -> SurfaceState {
        switch diff {
        case .reset(let root, let nodes):
            var byId: [String: ResolvedNodeRecord] = [:]
            for node in nodes { byId[node.id] = node }
            return SurfaceState(id: state.id, catalogId: state.catalogId, root: root, nodes: byId, order: nodes.map(\.id))
        case .patch(let upserted, let removed):
            var byId = state.nodes
            var order = state.order
            for node in upserted {
                if byId[node.id] == nil { order.append(node.id) }
                byId[node.id] = node
            }
            let gone = Set(removed)
            for id in removed { byId[id] = nil }
            order.removeAll { gone.contains($0) }
            return SurfaceState(id: state.id, catalogId: state.catalogId, root: state.root, nodes: byId, order: order)
        }
    }

    static func chatMessage(_ m: MessageRecord) -> ChatMessage {
        let text: String
        switch m.content {
        case .text(let t): text = t
        case .parts(let parts):
            text = parts.compactMap { part -> String? in
                if case .text(let t) = part { return t }
                return nil
            }.joined()
        default: text = ""
        }
        return ChatMessage(id: m.id, role: m.role, text: text, toolCalls: m.toolCalls, error: m.error, localOnly: nil)
    }
}

/// Receives updates on a Rust worker thread and only enqueues them; never blocks that thread.
private final class Forwarder: ConversationListener, @unchecked Sendable {
    // AsyncStream.Continuation is safe to use from any thread.
    private let queue: AsyncStream<ConversationUpdate>.Continuation
    init(_ queue: AsyncStream<ConversationUpdate>.Continuation) { self.queue = queue }
    func onUpdate(update: ConversationUpdate) throws { queue.yield(update) }
    // The core drops the listener when the subscription ends: end the consumer loop too.
    deinit { queue.finish() }
}

/// A Swift closure as the core's client tool handler.
private final class ToolAdapter: ClientToolHandler {
    private let tool: ClientTool
    init(tool: @escaping ClientTool) { self.tool = tool }
    func call(toolCallId: String, argumentsJson: String) async throws -> String {
        do {
            return try await tool(argumentsJson)
        } catch let failure as ClientToolFailure {
            throw ToolHandlerError.Failed(detail: failure.detail)
        } catch let error as ToolHandlerError {
            throw error
        } catch {
            // Fails the call; the agent reads only a generic text (the details may hold app
            // internals), as in the Kotlin layer.
            throw ToolHandlerError.Unexpected(detail: String(describing: error))
        }
    }
}
