// The Swift layer over the generated `AgentUICore` bindings, the same design as the Kotlin
// `dev.agentui.AgentConversation`: an adapter that applies the core's snapshot and deltas to
// @Published properties on the main actor; client tools as async closures; explicit close().
//
// Over the Swift that uniffi-bindgen 0.32.2 generates from libagentui_ffi (see
// rust/agentui-ffi/API.md): the objects of agentui-ffi and the core crates' own types (Message,
// Interrupt, RunPhase, ConversationDelta...), all compiled into the module AgentUICore. Built and
// tested on Linux by scripts/swift-linux.sh; SwiftUI and Apple's Combine only on a Mac.

import Foundation
import Combine
import AgentUICore

/// One chat message as a UI shows it.
///
/// `localOnly` is set when the message stays on this device and is not sent back to the agent:
/// `.cancelled` for text cut short by a cancel (show it as `isIncomplete`, never as a finished
/// answer), `.orphanToolResult` for a tool result that matched no call.
///
/// `isPending` is set while a user message waits for the agent: until the agent took its
/// request, and for as long as the agent cannot be reached (see `AgentConversation.pendingSends`).
public struct ChatMessage: Identifiable, Equatable {
    public let id: String
    public let role: Role
    public var text: String
    public var toolCalls: [MessageToolCall]
    public let toolCallId: String?
    public let error: String?
    public var localOnly: LocalOnly? = nil
    public var isPending: Bool = false

    /// Cut short by a cancel: the agent never finished it, and it is not sent back.
    public var isIncomplete: Bool { localOnly == .cancelled }
}

/// A call an assistant message made; `argumentsJson` is the text the model produced (it grows
/// while the arguments stream).
public struct MessageToolCall: Equatable, Identifiable {
    public let id: String
    public let name: String
    public var argumentsJson: String
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

/// A surface the agent created; its nodes are observed one surface at a time
/// (`AgentConversation.surfaceDiffs`, `AgentUISwiftUI.SurfaceModel`).
public struct SurfaceInfo: Equatable, Identifiable {
    public let id: String
    public let catalogId: String
}

/// A client tool: receives the validated arguments (JSON text), returns the result text the
/// agent reads. Throw `ClientToolFailure` for a failure the agent should read.
public typealias ClientTool = @Sendable (_ argumentsJson: String) async throws -> String

public struct ClientToolFailure: Error {
    public let detail: String
    public init(_ detail: String) { self.detail = detail }
}

/// Owns one native runtime (one tokio runtime). Close it when the app no longer talks to agents.
///
/// With a store file (`init(storeURL:)`) every conversation is kept in it (SQLite) and survives
/// the app being terminated: `connect` or `resume` with a thread id the store holds brings the
/// conversation back as it was (messages, state, tool calls, surfaces with the user's unsent
/// input, interrupts), without running a tool or sending anything again; `conversations`, `fork`
/// and `delete` manage what is stored. Without one, conversations live in memory only.
public final class AgentRuntime {
    let native: Runtime
    /// Where conversations are kept; nil: in memory only.
    let store: ConversationStore?

    public init(workerThreads: UInt32 = 2) throws {
        native = try Runtime.withWorkerThreads(workerThreads: workerThreads)
        store = nil
    }

    /// A runtime whose conversations are kept in the SQLite file at `storeURL` (a file URL;
    /// created when missing, its directory must exist). Put it under Application Support and
    /// exclude it from backups. Throws `StoreError` when the file cannot be opened or was written
    /// by a newer library.
    public init(storeURL: URL, workerThreads: UInt32 = 2) throws {
        store = try ConversationStore.open(path: storeURL.path)
        native = try Runtime.withWorkerThreads(workerThreads: workerThreads)
    }

    /// Whether conversations are kept in a store file.
    public var isPersistent: Bool { store != nil }

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
    ///
    /// With a store file, conversation `options.threadId` (a fresh id when nil) is kept in it:
    /// restored as last written when the store holds it, created otherwise. That reads the file
    /// on the calling thread (a few ms for a long conversation); `resume` reads it off the main
    /// actor. A run that was open when the app stopped comes back as `.abandoned`. Throws
    /// `ConversationError.Store` when the store cannot restore it.
    @MainActor
    public func connect(
        url: String,
        headers: [String: String] = [:],
        options: ConversationOptions = ConversationOptions(),
        memoryBudget: MemoryBudget? = nil
    ) throws -> AgentConversation {
        let conversation = try Self.open(
            native, store, url: url, headers: headers, options: withDeviceDefaults(options, memoryBudget)
        )
        return try AgentConversation(native: conversation)
    }

    /// The stored conversation `threadId` with the agent at `url`, read off the main actor: its
    /// properties start with the restored state. A thread id the store does not hold (deleted,
    /// or never written) starts an empty conversation under that id. Needs a store file.
    @MainActor
    public func resume(
        threadId: String,
        url: String,
        headers: [String: String] = [:],
        options: ConversationOptions = ConversationOptions(),
        memoryBudget: MemoryBudget? = nil
    ) async throws -> AgentConversation {
        let store = requireStore()
        var restoring = withDeviceDefaults(options, memoryBudget)
        restoring.threadId = threadId
        let (native, resumed) = (self.native, restoring)
        let conversation = try await Task.detached {
            try Self.open(native, store, url: url, headers: headers, options: resumed)
        }.value
        return try AgentConversation(native: conversation)
    }

    /// Stored conversations, most recently written first, `limit` per page (at least 1); pass the
    /// page's `nextCursor` as `cursor` for the next one. Needs a store file. Throws `StoreError`.
    public func conversations(limit: UInt32 = 20, cursor: String? = nil) async throws -> ConversationPage {
        let store = requireStore()
        return try await Task.detached { try store.list(limit: limit, cursor: cursor) }.value
    }

    /// Copies stored conversation `threadId` to `newThreadId` (a fresh id when nil) and returns
    /// the copy's id; the source is untouched, and what waits for the agent stays with it.
    /// Throws `StoreError.NotFound`, or `StoreError.Exists` when `newThreadId` is taken.
    public func fork(threadId: String, newThreadId: String? = nil) async throws -> String {
        let store = requireStore()
        return try await Task.detached { try store.fork(threadId: threadId, newThreadId: newThreadId) }.value
    }

    /// Deletes stored conversation `threadId`; false when there was none. Close it first if it is open.
    public func delete(threadId: String) async throws -> Bool {
        let store = requireStore()
        return try await Task.detached { try store.delete(threadId: threadId) }.value
    }

    private func requireStore() -> ConversationStore {
        guard let store else {
            preconditionFailure("this AgentRuntime has no store file: create it with AgentRuntime(storeURL:)")
        }
        return store
    }

    private func withDeviceDefaults(_ options: ConversationOptions, _ memoryBudget: MemoryBudget?) -> ConversationOptions {
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
        return effective
    }

    /// On `store` when there is one (restore or create), in memory otherwise. Static, so a
    /// detached task can call it without capturing the runtime.
    private static func open(
        _ native: Runtime,
        _ store: ConversationStore?,
        url: String,
        headers: [String: String],
        options: ConversationOptions
    ) throws -> Conversation {
        let headers = headers.map { Header(name: $0.key, value: $0.value) }
        if let store {
            return try native.open(store: store, url: url, headers: headers, options: options)
        }
        return try native.connect(url: url, headers: headers, options: options)
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

/// A conversation with one agent: an adapter. The Rust runtime owns the state and sends a
/// snapshot, then deltas; this class applies them to its published properties on the main
/// actor, in one place (`apply`). `send`, `continueRun` and `dispatchAction` return once the
/// properties show the run's end: the core returns after publishing it, then the call waits for
/// a marker queued behind every batch delivered so far.
@MainActor
public final class AgentConversation: ObservableObject {
    let native: Conversation
    public let threadId: String

    @Published public private(set) var messages: [ChatMessage] = []
    @Published public private(set) var phase: RunPhase = .idle
    /// The last phase of every tool call by id.
    @Published public private(set) var toolCalls: [String: ToolCallUpdate] = [:]
    @Published public private(set) var interrupts: [Interrupt] = []
    /// The agent's live surfaces, in creation order.
    @Published public private(set) var surfaces: [SurfaceInfo] = []
    /// The shared state (`nil` before the agent sent any), as Foundation JSON values.
    @Published public private(set) var state: Any? = nil
    /// The shared state as compact JSON text with object keys sorted, so equal states read the
    /// same (a Swift dictionary has no order of its own).
    @Published public private(set) var stateJson: String = "{}"
    /// The steps of the current run that started and have not finished, outermost first.
    @Published public private(set) var activeSteps: [String] = []
    /// Messages and actions the agent has not received yet, in call order: each one while its
    /// request is under way, and those the agent could not be reached for (`send` threw) until
    /// they are delivered, once, automatically or by `retryPending`. A waiting message also
    /// shows as `ChatMessage.isPending`. A runtime with a store file keeps them across restarts.
    @Published public private(set) var pendingSends: [PendingSend] = []

    enum QueueItem: Sendable {
        case batch([Observed])
        case marker(CheckedContinuation<Void, Never>)
    }

    private var subscription: TaskHandle?
    private let queue: AsyncStream<QueueItem>.Continuation
    /// Bounds the batches waiting for the main actor (see `DeliveryGate`).
    private let gate = DeliveryGate(capacity: 64)
    private var pump: Task<Void, Never>?
    private let eventSubject = PassthroughSubject<AgentEvent, Never>()
    private let warningSubject = PassthroughSubject<SessionWarning, Never>()
    private var messageIndex: [String: Int] = [:]
    /// The core's kept-local marks, so a message rebuilt from its record keeps its mark.
    private var localOnlyMarks: [String: LocalOnly] = [:]
    /// Ids of the user messages waiting for the agent, so a rebuilt message keeps its mark.
    private var pendingMessageIds: Set<String> = []
    private var stateTree = StateTree()
    private var closed = false

    /// The agent's CUSTOM, RAW and STEP events in stream order, on the main actor, each sent
    /// after every earlier delta was applied. Not replayed: subscribe before `send`.
    public var events: AnyPublisher<AgentEvent, Never> { eventSubject.eraseToAnyPublisher() }

    /// Non-fatal observations (a dropped event, a tool result kept local...), as they happen.
    public var warnings: AnyPublisher<SessionWarning, Never> { warningSubject.eraseToAnyPublisher() }

    init(native: Conversation) throws {
        self.native = native
        self.threadId = native.threadId()
        // One FIFO queue and one consumer on the main actor: batches and markers in one order.
        var continuation: AsyncStream<QueueItem>.Continuation!
        let stream = AsyncStream<QueueItem>(bufferingPolicy: .unbounded) { continuation = $0 }
        self.queue = continuation
        let gate = self.gate
        // Throws `ConversationError.Internal` if the system refuses the listener a thread.
        self.subscription = try native.addListener(listener: Forwarder(continuation, gate: gate))
        self.pump = Task { @MainActor [weak self] in
            for await item in stream {
                guard let self else { return }
                switch item {
                case .batch(let updates):
                    gate.leave()
                    updates.forEach(self.handle)
                case .marker(let done): done.resume()
                }
            }
        }
    }

    public func send(_ text: String) async throws -> RunSummary {
        try await settled { try await self.native.sendMessage(text: text) }
    }

    public func continueRun() async throws -> RunSummary {
        try await settled { try await self.native.continueRun() }
    }

    /// Delivers the messages and actions waiting for the agent (`pendingSends`) now, e.g. when
    /// the network is back; nil when nothing waited. The conversation also retries on its own,
    /// less often each time an attempt fails.
    public func retryPending() async throws -> RunSummary? {
        try await settled { try await self.native.retryPending() }
    }

    public func dispatchAction(surfaceId: String, nodeId: String) async throws -> ActionResult {
        try await settled { try await self.native.dispatchAction(surfaceId: surfaceId, nodeId: nodeId) }
    }

    /// Writes the data model of `surfaceId` at JSON Pointer `path`, at once (during a run too).
    /// Throws `SurfaceError` (`unknownSurface`, `unknownNode`, `rejected`).
    public func setValue(surfaceId: String, path: String, value: NodeValue) throws {
        try native.setValue(write: ValueWrite(surfaceId: surfaceId, path: path, value: value))
    }

    public func setValue<Value: NodeValueConvertible>(surfaceId: String, path: String, value: Value) throws {
        try setValue(surfaceId: surfaceId, path: path, value: value.nodeValue)
    }

    public func cancel() { native.cancel() }

    public func resolveInterrupt(id: String, payloadJson: String?) throws {
        try native.resolveInterrupt(id: id, payloadJson: payloadJson)
    }

    public func cancelInterrupt(id: String) throws { try native.cancelInterrupt(id: id) }

    /// The registry that executes tools is the one the agent sees in `RunAgentInput.tools`; a
    /// run in flight keeps its tools, the next request has this one.
    public func registerTool(name: String, description: String, parametersJsonSchema: String, tool: @escaping ClientTool) throws {
        try native.registerTool(
            name: name,
            description: description,
            parametersJsonSchema: parametersJsonSchema,
            handler: ToolAdapter(tool: tool)
        )
    }

    public func unregisterTool(name: String) -> Bool {
        native.unregisterTool(name: name)
    }

    /// One surface's diffs: a `.reset` first (empty once the agent deleted the surface), then
    /// `.patch`es, in order. Ending the iteration ends the native subscription.
    public func surfaceDiffs(_ surfaceId: String) throws -> SurfaceDiffs {
        var continuation: AsyncStream<SurfaceDiff>.Continuation!
        let stream = AsyncStream<SurfaceDiff>(bufferingPolicy: .unbounded) { continuation = $0 }
        let gate = DeliveryGate(capacity: 1024)
        let handle = try native.addSurfaceListener(surfaceId: surfaceId, listener: SurfaceForwarder(continuation, gate: gate))
        continuation.onTermination = { @Sendable _ in
            handle.cancel()
            gate.close()
        }
        return SurfaceDiffs(stream: stream, gate: gate)
    }

    public func close() {
        guard !closed else { return }
        closed = true
        native.cancel()
        subscription?.cancel()
        subscription = nil
        gate.close()
        queue.finish()
        pump?.cancel()
        pump = nil
    }

    /// Runs `call`, then waits until everything the core published before it returned is applied.
    private func settled<T>(_ call: () async throws -> T) async throws -> T {
        let result = try await call()
        if let subscription {
            await subscription.flush()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                if case .terminated = queue.yield(.marker(done)) { done.resume() }
            }
        }
        return result
    }

    private func handle(_ update: Observed) {
        guard !closed else { return }
        switch update {
        case .snapshot(let snapshot): reset(snapshot)
        case .delta(let delta): apply(delta)
        }
    }

    private func reset(_ snapshot: ConversationSnapshot) {
        localOnlyMarks = Dictionary(snapshot.keptLocal.map { ($0.messageId, $0.reason) }, uniquingKeysWith: { $1 })
        setPending(snapshot.pendingSends)
        messages = snapshot.messages.map { marked($0) }
        reindex()
        phase = snapshot.phase
        toolCalls = Dictionary(snapshot.toolCalls.map { ($0.toolCallId, $0) }, uniquingKeysWith: { $1 })
        interrupts = snapshot.pendingInterrupts
        surfaces = snapshot.surfaces.map { SurfaceInfo(id: $0.surfaceId, catalogId: $0.catalogId) }
        stateTree.replace(snapshot.state)
        publishState()
    }

    /// The one place a delta changes what the properties show.
    private func apply(_ delta: ConversationDelta) {
        switch delta {
        case .messageAdded(let message), .messageReplaced(let message):
            let chat = marked(message)
            if let index = messageIndex[chat.id] {
                messages[index] = chat
            } else {
                messageIndex[chat.id] = messages.count
                messages.append(chat)
            }
        case .textAppended(let messageId, let piece):
            if let index = messageIndex[messageId] { messages[index].text += piece }
        case .toolCallArgsAppended(let messageId, let toolCallId, let piece):
            if let index = messageIndex[messageId],
               let call = messages[index].toolCalls.firstIndex(where: { $0.id == toolCallId }) {
                messages[index].toolCalls[call].argumentsJson += piece
            }
        case .messagesReset(let all):
            // A reset clears the marks; the core re-sends the ones that still hold.
            localOnlyMarks = [:]
            messages = all.map { marked($0) }
            reindex()
        case .messageKeptLocal(let messageId, let reason):
            localOnlyMarks[messageId] = reason
            if let index = messageIndex[messageId] { messages[index].localOnly = reason }
        case .statePatched(let operations):
            // The core applied this patch; if it does not replay here, re-read the state whole.
            if !stateTree.apply(operations) { stateTree.replace(native.snapshot().state) }
            publishState()
        case .stateReplaced(let value):
            stateTree.replace(value)
            publishState()
        case .stateResyncNeeded:
            break
        case .runPhase(let phase):
            // Steps belong to one run: none is open before it streams or after it ended.
            if case .running = phase {} else if !activeSteps.isEmpty { activeSteps = [] }
            self.phase = phase
        case .toolCall(let update):
            toolCalls[update.toolCallId] = update
        case .interrupts(let pending):
            interrupts = pending
        case .surfaceAdded(let surface):
            surfaces.removeAll { $0.id == surface.surfaceId }
            surfaces.append(SurfaceInfo(id: surface.surfaceId, catalogId: surface.catalogId))
        case .surfaceRemoved(let surfaceId):
            surfaces.removeAll { $0.id == surfaceId }
        case .warning(let warning):
            // Delivered, never dropped (the old layer ignored `.warning`).
            warningSubject.send(warning)
        case .custom(let name, let value):
            eventSubject.send(.custom(name: name, valueJson: StateTree.jsonText(value)))
        case .raw(let event, let source):
            eventSubject.send(.raw(eventJson: StateTree.jsonText(event), source: source))
        case .pendingSends(let pending):
            let before = pendingMessageIds
            setPending(pending)
            for id in before.symmetricDifference(pendingMessageIds) {
                if let index = messageIndex[id] { messages[index].isPending = pendingMessageIds.contains(id) }
            }
        case .step(let name, let started):
            if started {
                activeSteps.append(name)
                eventSubject.send(.stepStarted(name: name))
            } else {
                if let index = activeSteps.lastIndex(of: name) { activeSteps.remove(at: index) }
                eventSubject.send(.stepFinished(name: name))
            }
        }
    }

    private func setPending(_ pending: [PendingSend]) {
        pendingSends = pending
        pendingMessageIds = Set(pending.compactMap { entry -> String? in
            if case .message(let messageId, _) = entry.kind { return messageId }
            return nil
        })
    }

    /// A core message as a chat message, with this conversation's kept-local and pending marks.
    private func marked(_ record: Message) -> ChatMessage {
        var chat = Self.chatMessage(record, localOnly: localOnlyMarks[record.id])
        chat.isPending = pendingMessageIds.contains(record.id)
        return chat
    }

    private func reindex() {
        messageIndex = Dictionary(messages.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { $1 })
    }

    private func publishState() {
        state = stateTree.root
        stateJson = stateTree.json()
    }

    static func chatMessage(_ m: Message, localOnly: LocalOnly? = nil) -> ChatMessage {
        let text: String
        switch m.content {
        case .text(let t)?: text = t
        case .parts(let parts)?:
            text = parts.compactMap { part -> String? in
                if case .text(let t) = part { return t.text }
                return nil
            }.joined()
        default: text = ""
        }
        let toolCalls = (m.toolCalls ?? []).map {
            MessageToolCall(id: $0.id, name: $0.function.name, argumentsJson: $0.function.arguments)
        }
        return ChatMessage(id: m.id, role: m.role, text: text, toolCalls: toolCalls, toolCallId: m.toolCallId, error: m.error,
                           localOnly: localOnly)
    }
}

/// The shared state as Foundation JSON values, with the core's applied JSON Patches replayed on it.
/// The core sends `add`, `replace` and `remove` only (`move` and `copy` spelled out with their
/// values, `test` dropped); anything else means the two disagree and the caller re-reads the state.
struct StateTree {
    private(set) var root: Any? = nil

    mutating func replace(_ value: NodeValue) {
        root = Self.foundation(value)
    }

    /// False when an operation does not resolve (the tree is then unspecified).
    mutating func apply(_ operations: [PatchOperation]) -> Bool {
        for op in operations {
            let value = op.value.map(Self.foundation) ?? NSNull()
            switch op.op {
            case .add: guard put(op.path, value, insert: true) else { return false }
            case .replace: guard put(op.path, value, insert: false) else { return false }
            case .remove: guard remove(op.path) != nil else { return false }
            case .move, .copy, .test: return false
            }
        }
        return true
    }

    /// `value` as compact JSON text (a CUSTOM or RAW event's payload).
    static func jsonText(_ value: NodeValue) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: foundation(value), options: [.fragmentsAllowed, .sortedKeys]) else {
            return "null"
        }
        return String(decoding: data, as: UTF8.self)
    }

    func json() -> String {
        guard let root, !(root is NSNull),
              let data = try? JSONSerialization.data(withJSONObject: root, options: [.fragmentsAllowed, .sortedKeys])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func tokens(_ path: String) -> [String] {
        guard !path.isEmpty else { return [] }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// Rebuilds the containers along `tokens` with `edit` applied at the last one (values are
    /// copied on write, so this is O(depth x width), which state patches stay well within).
    private static func edit(_ node: Any?, _ tokens: ArraySlice<String>, _ change: (inout Any?) -> Bool) -> (Any?, Bool) {
        guard let token = tokens.first else {
            var value = node
            let ok = change(&value)
            return (value, ok)
        }
        if var object = node as? [String: Any] {
            if tokens.count == 1 {
                var slot: Any? = object[token]
                let ok = change(&slot)
                object[token] = slot
                return (object, ok)
            }
            let (updated, ok) = edit(object[token], tokens.dropFirst(), change)
            object[token] = updated
            return (object, ok)
        }
        if var array = node as? [Any], let i = Int(token), array.indices.contains(i) {
            let (updated, ok) = edit(array[i], tokens.dropFirst(), change)
            array[i] = updated ?? NSNull()
            return (array, ok)
        }
        return (node, false)
    }

    private mutating func put(_ path: String, _ value: Any, insert: Bool) -> Bool {
        var tokens = Self.tokens(path)
        guard let last = tokens.popLast() else {
            root = value
            return true
        }
        let (updated, ok) = Self.edit(root, tokens[...]) { parent in
            if var object = parent as? [String: Any] {
                object[last] = value
                parent = object
                return true
            }
            if var array = parent as? [Any] {
                if last == "-" {
                    array.append(value)
                } else if let i = Int(last), insert, i <= array.count {
                    array.insert(value, at: i)
                } else if let i = Int(last), !insert, array.indices.contains(i) {
                    array[i] = value
                } else {
                    return false
                }
                parent = array
                return true
            }
            return false
        }
        root = updated
        return ok
    }

    private mutating func remove(_ path: String) -> Any? {
        var tokens = Self.tokens(path)
        guard let last = tokens.popLast() else {
            defer { root = nil }
            return root ?? NSNull()
        }
        var removed: Any?
        let (updated, ok) = Self.edit(root, tokens[...]) { parent in
            if var object = parent as? [String: Any], let value = object.removeValue(forKey: last) {
                removed = value
                parent = object
                return true
            }
            if var array = parent as? [Any], let i = Int(last), array.indices.contains(i) {
                removed = array.remove(at: i)
                parent = array
                return true
            }
            return false
        }
        guard ok else { return nil }
        root = updated
        return removed
    }

    private static func foundation(_ value: NodeValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .bool(let b): return b
        case .number(let n): return n
        case .text(let t): return t
        case .array(let items): return items.map(foundation)
        case .object(let entries):
            var object: [String: Any] = [:]
            for entry in entries { object[entry.name] = foundation(entry.value) }
            return object
        }
    }
}

/// Bounds what waits for a consumer. The core calls a listener on that listener's own thread,
/// which may block: `enter` waits there while `capacity` items are queued, the core's inbox for
/// the subscription then fills, and the core sends a fresh `Reset`. A main actor that falls
/// behind costs a resync, never unbounded memory.
final class DeliveryGate: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var queued = 0
    private var closed = false

    init(capacity: Int) { self.capacity = capacity }

    /// On the listener's thread, before enqueueing one item: false once closed.
    func enter() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queued >= capacity && !closed { condition.wait() }
        if closed { return false }
        queued += 1
        return true
    }

    /// On the consumer, for each item taken.
    func leave() {
        condition.lock()
        queued = max(0, queued - 1)
        condition.signal()
        condition.unlock()
    }

    /// Releases a waiting listener thread for good.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}

/// One surface's diffs as `surfaceDiffs` delivers them; each one taken frees room in its gate.
public struct SurfaceDiffs: AsyncSequence {
    public typealias Element = SurfaceDiff
    let stream: AsyncStream<SurfaceDiff>
    let gate: DeliveryGate

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<SurfaceDiff>.AsyncIterator
        let gate: DeliveryGate

        public mutating func next() async -> SurfaceDiff? {
            let diff = await base.next()
            if diff != nil { gate.leave() }
            return diff
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), gate: gate)
    }
}

/// Receives update batches on the listener's Rust thread and enqueues them, waiting while the
/// gate is full.
private final class Forwarder: ConversationListener, @unchecked Sendable {
    // AsyncStream.Continuation is safe to use from any thread.
    private let queue: AsyncStream<AgentConversation.QueueItem>.Continuation
    private let gate: DeliveryGate
    init(_ queue: AsyncStream<AgentConversation.QueueItem>.Continuation, gate: DeliveryGate) {
        self.queue = queue
        self.gate = gate
    }
    func onUpdates(updates: [Observed]) throws {
        if gate.enter() { queue.yield(.batch(updates)) }
    }
}

/// Receives one surface's diffs on the listener's Rust thread and enqueues them, like `Forwarder`.
private final class SurfaceForwarder: SurfaceListener, @unchecked Sendable {
    private let queue: AsyncStream<SurfaceDiff>.Continuation
    private let gate: DeliveryGate
    init(_ queue: AsyncStream<SurfaceDiff>.Continuation, gate: DeliveryGate) {
        self.queue = queue
        self.gate = gate
    }
    func onDiffs(diffs: [SurfaceDiff]) throws {
        for diff in diffs {
            guard gate.enter() else { return }
            queue.yield(diff)
        }
    }
    // The core drops the listener when the subscription ends: end the stream too.
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
