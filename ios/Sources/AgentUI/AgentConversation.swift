// The Swift layer over the generated `AgentUICore` bindings, the same design as the Kotlin
// `dev.agentui.AgentConversation`: an adapter that applies the core's snapshot and deltas to
// @Published properties on the main actor; client tools as async closures; explicit close().
//
// Over the Swift that uniffi-bindgen 0.32.2 generates from libagentui_ffi (see
// rust/agentui-ffi/API.md), compiled into the module AgentUICore: an implementation detail.
// Every public signature here names the layer's own types (Models.swift) or the few core types
// it publishes under its own name (CoreTypes.swift), so an app imports only AgentUI. Built and
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
    /// An activity message's type (`a2ui-surface`...), nil for others.
    public let activityType: String?
    /// The content when it is more than text (media parts, an activity's object); nil for a
    /// plain text message, whose text is `text`.
    public let content: MessageContent?
    public var localOnly: LocalOnly? = nil
    public var isPending: Bool = false
    /// An assistant or reasoning message's text as the core parsed it (nil for the others): draw
    /// it, never parse `text` again. It may cover less of `text` than there is while a long
    /// block streams (`markdownPendingText` is the rest, shown as plain text after it).
    public var markdown: ChatMarkdown? = nil

    /// Cut short by a cancel: the agent never finished it, and it is not sent back.
    public var isIncomplete: Bool { localOnly == .cancelled }

    /// The text past what `markdown` covers.
    public var markdownPendingText: Substring { markdown?.pendingText(text) ?? "" }

    /// The content's parts in order (a text message is one text part; none when empty).
    public var parts: [MessagePart] { MessagePart.parts(of: content, text: text, messageId: id) }

    /// The media parts (images, audio, video, documents), in order.
    public var media: [MediaItem] {
        parts.compactMap { if case .media(let item) = $0 { return item } else { return nil } }
    }
}

/// A file the user attaches to a message (`AgentConversation.send(_:attachments:)`).
public struct Attachment {
    let native: AgentUICore.Attachment

    public var name: String { native.name }
    public var mimeType: String { native.mimeType }

    /// Bytes in memory (copied once into the core).
    public static func bytes(name: String, mimeType: String, data: Data) -> Attachment {
        Attachment(native: AgentUICore.Attachment(name: name, mimeType: mimeType, data: .bytes(bytes: data)))
    }

    /// A file the core reads, on its own threads, when the message is sent.
    public static func file(_ url: URL, mimeType: String, name: String? = nil) -> Attachment {
        Attachment(native: AgentUICore.Attachment(
            name: name ?? url.lastPathComponent, mimeType: mimeType, data: .file(path: url.path)))
    }
}

public enum MediaKind: Equatable { case image, audio, video, document }

/// One part of a message's content.
public enum MessagePart: Equatable {
    case text(String)
    case media(MediaItem)

    static func parts(of content: MessageContent?, text: String, messageId: String? = nil) -> [MessagePart] {
        guard case .parts(let parts)? = content else { return text.isEmpty ? [] : [.text(text)] }
        return parts.enumerated().map { at, part in
            switch part {
            case .text(let t): return .text(t.text)
            case .image(let m): return .media(MediaItem(kind: .image, part: m, messageId: messageId, partIndex: at))
            case .audio(let m): return .media(MediaItem(kind: .audio, part: m, messageId: messageId, partIndex: at))
            case .video(let m): return .media(MediaItem(kind: .video, part: m, messageId: messageId, partIndex: at))
            case .document(let m): return .media(MediaItem(kind: .document, part: m, messageId: messageId, partIndex: at))
            }
        }
    }
}

/// An image, audio, video or document: inline bytes, a `url` (checked against the media URL
/// policy before a view loads it), or a provider's file handle (`fileId`, never fetched).
/// Inline bytes come as `base64` when small; over 16 KiB the core holds them back and the item
/// has only their length, `heldBytes`: get either with `AgentConversation.mediaBytes(_:)`.
public struct MediaItem: Equatable {
    public let kind: MediaKind
    public let mimeType: String?
    /// `metadata.filename`, when the sender named it.
    public let name: String?
    public let url: String?
    public let base64: String?
    public let fileId: String?
    /// The length of inline bytes the core holds back (fetch them with `mediaBytes(_:)`).
    public let heldBytes: Int?
    /// The message and the part's index in its content: what `mediaBytes(_:)` fetches.
    public let messageId: String?
    public let partIndex: Int?

    init(kind: MediaKind, part: MediaPart, messageId: String? = nil, partIndex: Int? = nil) {
        self.kind = kind
        self.messageId = messageId
        self.partIndex = partIndex
        var held: Int? = nil
        if case .object(let entries)? = part.metadata {
            if case .text(let value)? = entries.first(where: { $0.name == "filename" })?.value {
                name = value
            } else {
                name = nil
            }
            // The core's mark on inline data it holds back.
            if case .number(let n)? = entries.first(where: { $0.name == "agentuiHeldBytes" })?.value {
                held = Int(exactly: n)
            }
        } else {
            name = nil
        }
        // Only an emptied data part is held back (an agent may write any metadata key).
        if case .data(let value, _) = part.source, value.isEmpty {} else { held = nil }
        heldBytes = held
        switch part.source {
        case .data(let value, let mimeType):
            (self.mimeType, url, base64, fileId) = (mimeType, nil, held == nil ? value : nil, nil)
        case .url(let value, let mimeType):
            (self.mimeType, url, base64, fileId) = (mimeType, value.isEmpty ? nil : value, nil, nil)
        case .file(let value, _, let mimeType):
            (self.mimeType, url, base64, fileId) = (mimeType, nil, nil, value)
        }
    }

    /// Inline bytes the item carries itself (`base64`), decoded; nil for held-back ones.
    public func data() -> Data? { base64.flatMap { Data(base64Encoded: $0) } }

    /// Inline bytes, carried or held back by the core.
    public var isInline: Bool { base64 != nil || heldBytes != nil }
}

/// A call an assistant message made; `argumentsJson` is the text the model produced (it grows
/// while the arguments stream).
public struct MessageToolCall: Equatable, Identifiable {
    public let id: String
    public let name: String
    public var argumentsJson: String
}

/// What the agent streams besides conversation state, in stream order: AG-UI `CUSTOM`, `RAW`,
/// `STEP_STARTED` and `STEP_FINISHED` events. Values arrive as the core's `NodeValue`, with
/// their JSON text as a convenience (`valueJson`, `eventJson`).
public enum AgentEvent: Equatable, Sendable {
    /// A `CUSTOM` event (an app-specific event, ADK's `PredictState`, LangGraph's
    /// `on_interrupt`) and its value. An `on_interrupt` is also a pending interrupt, answered
    /// with `resolveInterrupt` like any other.
    case custom(name: String, value: NodeValue)
    /// A `RAW` event: a provider-native event passed through verbatim.
    case raw(event: NodeValue, source: String?)
    /// The agent began step `name`.
    case stepStarted(name: String)
    /// Step `name` is done.
    case stepFinished(name: String)
}

extension AgentEvent {
    /// A `.custom` event's value as compact JSON text (keys sorted); nil for other events.
    public var valueJson: String? {
        if case .custom(_, let value) = self { return JSONText.text(JSONText.foundation(value)) }
        return nil
    }

    /// A `.raw` event's event as compact JSON text (keys sorted); nil for other events.
    public var eventJson: String? {
        if case .raw(let event, _) = self { return JSONText.text(JSONText.foundation(event)) }
        return nil
    }
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

/// A client tool taking and returning values: the validated arguments (an object's members),
/// and a result the agent reads (`.text` as plain text, anything else as JSON). Throw
/// `ClientToolFailure` for a failure the agent should read.
public typealias TypedClientTool = @Sendable (_ arguments: [String: NodeValue]) async throws -> NodeValue

public struct ClientToolFailure: Error {
    public let detail: String
    public init(_ detail: String) { self.detail = detail }
}

/// A call an `AgentRuntime` cannot make as it was created (Kotlin's layer throws an
/// `IllegalStateException` for the same calls).
public enum AgentRuntimeError: Error, Equatable, CustomStringConvertible {
    /// The call needs a store file: create the runtime with `AgentRuntime(storeURL:)`.
    case noStoreFile

    public var description: String {
        switch self {
        case .noStoreFile: return "this AgentRuntime has no store file: create it with AgentRuntime(storeURL:)"
        }
    }
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
    #if canImport(Network)
    /// The device's network, as NWPathMonitor reports it, for as long as this runtime lives.
    private var connectivity: ConnectivityWatcher?
    #endif

    public init(workerThreads: Int = 2) throws {
        native = try Runtime.withWorkerThreads(workerThreads: UInt32(clamping: workerThreads))
        store = nil
        watchConnectivity()
    }

    /// A runtime whose conversations are kept in the SQLite file at `storeURL` (a file URL;
    /// created when missing, its directory must exist). Put it under Application Support and
    /// exclude it from backups. Throws `StoreError` when the file cannot be opened or was written
    /// by a newer library.
    public init(storeURL: URL, workerThreads: Int = 2) throws {
        store = try ConversationStore.open(path: storeURL.path)
        native = try Runtime.withWorkerThreads(workerThreads: UInt32(clamping: workerThreads))
        watchConnectivity()
    }

    private func watchConnectivity() {
        #if canImport(Network)
        let native = self.native
        connectivity = ConnectivityWatcher { online in native.setOnline(online: online) }
        #endif
    }

    /// Whether the device has a network. On Apple platforms the runtime watches NWPathMonitor and
    /// calls this itself; call it to drive the state yourself (tests, another source). While
    /// offline, messages waiting for the agent and a dropped stream's resumption hold their
    /// attempts; when online again they go at once. Online until told otherwise.
    public func setOnline(_ online: Bool) {
        native.setOnline(online: online)
    }

    /// Whether conversations are kept in a store file.
    public var isPersistent: Bool { store != nil }

    /// A conversation with the agent at `url`. No I/O happens here: the first request is made by
    /// `AgentConversation.send`. `options` (`AgentOptions`) carries the timeouts, the memory
    /// budget, TLS trust, the locale and the thread id.
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
    ///
    /// `headerProvider`, when given, is asked for headers before every request and again on a
    /// 401 with its `AuthChallenge` (see `HeaderProvider`); its headers go over `headers`.
    @MainActor
    public func connect(
        url: String,
        headers: [String: String] = [:],
        options: AgentOptions = AgentOptions(),
        headerProvider: HeaderProvider? = nil
    ) throws -> AgentConversation {
        let conversation = try Self.open(
            native, store, url: url, headers: headers, provider: headerProvider, options: options.toNative())
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
        options: AgentOptions = AgentOptions(),
        headerProvider: HeaderProvider? = nil
    ) async throws -> AgentConversation {
        let store = try requireStore()
        var restoring = options
        restoring.threadId = threadId
        let (native, resumed) = (self.native, restoring.toNative())
        let conversation = try await Task.detached {
            try Self.open(native, store, url: url, headers: headers, provider: headerProvider, options: resumed)
        }.value
        return try AgentConversation(native: conversation)
    }

    /// Stored conversations, most recently written first, `limit` per page (at least 1); pass the
    /// page's `nextCursor` as `cursor` for the next one. Needs a store file. Throws `StoreError`.
    public func conversations(limit: Int = 20, cursor: String? = nil) async throws -> ConversationPage {
        let store = try requireStore()
        let limit = UInt32(clamping: limit)
        return ConversationPage(try await Task.detached { try store.list(limit: limit, cursor: cursor) }.value)
    }

    /// Copies stored conversation `threadId` to `newThreadId` (a fresh id when nil) and returns
    /// the copy's id; the source is untouched, and what waits for the agent stays with it.
    /// Throws `StoreError.NotFound`, or `StoreError.Exists` when `newThreadId` is taken.
    public func fork(threadId: String, newThreadId: String? = nil) async throws -> String {
        let store = try requireStore()
        return try await Task.detached { try store.fork(threadId: threadId, newThreadId: newThreadId) }.value
    }

    /// Deletes stored conversation `threadId`; false when there was none. Close it first if it is open.
    public func delete(threadId: String) async throws -> Bool {
        let store = try requireStore()
        return try await Task.detached { try store.delete(threadId: threadId) }.value
    }

    private func requireStore() throws -> ConversationStore {
        guard let store else { throw AgentRuntimeError.noStoreFile }
        return store
    }

    /// On `store` when there is one (restore or create), in memory otherwise. Static, so a
    /// detached task can call it without capturing the runtime.
    private static func open(
        _ native: Runtime,
        _ store: ConversationStore?,
        url: String,
        headers: [String: String],
        provider: HeaderProvider?,
        options: ConversationOptions
    ) throws -> Conversation {
        let headers = headers.map { Header(name: $0.key, value: $0.value) }
        var options = options
        options.headerProvider = provider.map { HeaderProviderAdapter($0) }
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

/// A conversation with one agent: an adapter with nothing to interpret. The Rust core builds what
/// a UI shows (chat items, tool calls in order, the open steps...) and hands it over as batches of
/// index-based list diffs; this class applies each batch to its published properties on the main
/// actor, in one place (`apply`), and publishes once per batch.
///
/// One main-actor task pulls the next batch when it is ready for one: no listener thread, no
/// queue here. What the core published meanwhile arrives joined in that batch, so while the agent
/// streams the properties change at most once a frame; a batch that carries an event ends there,
/// and the event is sent after the properties show the state of its moment. The core's bounded
/// inbox is the only back-pressure: a main actor that falls far behind gets the whole state again.
/// `send`, `continueRun`, `answerConsent`, `dispatchAction` and `callAgentFunction` return once the properties
/// show the run's end, and throw once they show the state the failure left (its phase, what waits
/// in `pendingSends`).
///
/// An internal error of the core while the properties are updated (a defect of this library)
/// ends nothing else: the properties stop where they are, `phase` becomes `.failed` and a
/// `.viewFailed` warning is sent; calls waiting for their run's end return.
@MainActor
public final class AgentConversation: ObservableObject {
    let native: Conversation
    public let threadId: String

    @Published public private(set) var messages: [ChatMessage] = []
    @Published public private(set) var phase: RunPhase = .idle
    /// The last phase of every tool call, in the order the calls started (`toolCall(_:)` finds one).
    @Published public private(set) var toolCalls: [ToolCallUpdate] = []
    @Published public private(set) var interrupts: [Interrupt] = []
    /// The calls of `.ask` tools waiting for the user's answer (`answerConsent(toolCallId:answer:)`),
    /// in the order the agent made them. A conversation restored from the store shows its waiting
    /// requests again: none of them ran.
    @Published public private(set) var consentRequests: [ConsentRequest] = []
    /// The tools the user allowed for the rest of this conversation (`ConsentAnswer.allowAlways`):
    /// their calls run without asking. Kept in the store with the conversation.
    @Published public private(set) var consentGrants: [String] = []
    /// The agent's live surfaces, in creation order (`surface(_:)` finds one).
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
    /// The conversation screen's rows in order, as the core places them (docs/architecture.md,
    /// "The timeline"): messages with their delivery, tool activity, surfaces where they arrived,
    /// interrupts, consent requests, a run's error or progress. Keyed by `TimelineItem.key`;
    /// `AgentChatView` lays it out.
    @Published public private(set) var timeline: [TimelineItem] = []

    private let view: ViewSubscription
    private var pump: Task<Void, Never>?
    private let eventSubject = PassthroughSubject<AgentEvent, Never>()
    private let warningSubject = PassthroughSubject<SessionWarning, Never>()
    /// The highest barrier the applied batches settled, and who waits for which (see `settled`).
    private var settledUpTo: UInt64 = 0
    private var waiters: [(barrier: UInt64, done: CheckedContinuation<Void, Never>)] = []
    private var closed = false
    /// Set when the pump has ended (closed, or stopped by an error): no barrier settles any more.
    private var viewEnded = false
    /// Whole-state batches applied: the first, then one per resync after falling behind (for tests).
    private(set) var snapshotsApplied = 0

    /// The agent's CUSTOM, RAW and STEP events in stream order, on the main actor, each sent
    /// after the properties show the state of its moment. Not replayed: subscribe before `send`.
    public var events: AnyPublisher<AgentEvent, Never> { eventSubject.eraseToAnyPublisher() }

    /// Non-fatal observations (a dropped event, a tool result kept local...), as they happen.
    public var warnings: AnyPublisher<SessionWarning, Never> { warningSubject.eraseToAnyPublisher() }

    /// Ask again at most this often while the agent streams: a UI shows no more, and each batch
    /// copies the published arrays once.
    private static let frameNanoseconds: UInt64 = 16_000_000

    init(native: Conversation) throws {
        self.native = native
        self.threadId = native.threadId()
        self.view = native.subscribeTimelineView()
        let view = self.view
        self.pump = Task { @MainActor [weak self] in
            var lastBatch = DispatchTime.now().uptimeNanoseconds
            // Whatever ends the pump, nothing will show a caller's run end any more: release them.
            defer { self?.pumpEnded() }
            while !Task.isCancelled {
                // A suspend call into the core: nothing waits on a thread while nothing changes.
                let next: ViewBatch?
                do {
                    next = try await view.nextBatch()
                } catch {
                    // An internal error of the core: said, never swallowed (the UI would freeze).
                    self?.viewFailed(error)
                    return
                }
                guard let batch = next, let self else { return }
                self.apply(batch)
                let now = DispatchTime.now().uptimeNanoseconds
                let since = now - min(lastBatch, now)
                lastBatch = now
                if since < Self.frameNanoseconds, batch.event == nil {
                    await self.waitOutFrame(nanoseconds: Self.frameNanoseconds - since)
                }
            }
        }
    }

    /// How a failed phase and warning of a stopped view begin (the same text as Kotlin's).
    static let viewFailedPrefix = "the view stopped on an internal error: "

    /// The properties stop where they are and say why: a failed phase (final) and a warning.
    private func viewFailed(_ error: Error) {
        guard !closed else { return }
        let detail: String
        if let failure = error as? ConversationError, case .Internal(let text) = failure {
            detail = text
        } else {
            detail = String(describing: error)
        }
        let message = Self.viewFailedPrefix + detail
        phase = .failed(error: message)
        warningSubject.send(SessionWarning(kind: .viewFailed, message: message))
    }

    private func pumpEnded() {
        viewEnded = true
        releaseWaiters()
    }

    private func releaseWaiters() {
        let waiting = waiters
        waiters = []
        waiting.forEach { $0.done.resume() }
    }

    /// The pump's wait for the rest of a frame; `endFrameWait` cuts it short.
    private var frameWait: CheckedContinuation<Void, Never>?

    private func waitOutFrame(nanoseconds: UInt64) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            frameWait = done
            Task { @MainActor [weak self] in
                try? await Task.sleep(nanoseconds: nanoseconds)
                self?.endFrameWait()
            }
        }
    }

    /// A caller of send() waiting for its run's end does not wait for the frame, as in Kotlin.
    private func endFrameWait() {
        frameWait?.resume()
        frameWait = nil
    }

    /// The last phase of tool call `id`, nil if there is none.
    public func toolCall(_ id: String) -> ToolCallUpdate? {
        toolCalls.first { $0.toolCallId == id }
    }

    /// Live surface `id`, nil when the agent has not created it or has deleted it.
    public func surface(_ id: String) -> SurfaceInfo? {
        surfaces.first { $0.id == id }
    }

    public func send(_ text: String) async throws -> RunSummary {
        RunSummary(try await settled { try await self.native.sendMessage(text: text) })
    }

    /// Sends `text` with `attachments` as one user message. The core checks each attachment
    /// (size against the memory budget, MIME type against `AgentOptions.allowedAttachmentTypes`,
    /// that a file can be read), then reads and encodes it on its own threads. A refused one
    /// throws `ConversationError.AttachmentRefused` naming it, and nothing is sent or queued; an
    /// agent that refuses the message (HTTP 413 or 415) throws `.MessageRejected`.
    public func send(_ text: String, attachments: [Attachment]) async throws -> RunSummary {
        let native = attachments.map(\.native)
        return RunSummary(try await settled { try await self.native.send(text: text, attachments: native) })
    }

    /// The decoded bytes of `media`, off the main actor: bytes the item carries itself (small
    /// inline data) are decoded on a detached task; an item whose bytes the core holds back
    /// (`MediaItem.heldBytes`, inline data over 16 KiB, so a photo is held once, by the core) is
    /// fetched from it, decoded on its threads. Nil for a URL or a provider file, and when the
    /// message is gone.
    public func mediaBytes(_ media: MediaItem) async throws -> Data? {
        if media.heldBytes != nil, let messageId = media.messageId, let at = media.partIndex {
            return try await native.mediaBytes(messageId: messageId, part: UInt32(at))
        }
        guard media.base64 != nil else { return nil }
        return await Task.detached { media.data() }.value
    }

    public func continueRun() async throws -> RunSummary {
        RunSummary(try await settled { try await self.native.continueRun() })
    }

    /// Delivers the messages and actions waiting for the agent (`pendingSends`) now, e.g. when
    /// the network is back or the user signed in again; nil when nothing waited. The
    /// conversation also retries on its own, less often each time an attempt fails, except a
    /// send the agent refused the credentials of (`PendingReason.unauthorized`).
    public func retryPending() async throws -> RunSummary? {
        try await settled { try await self.native.retryPending() }.map(RunSummary.init)
    }

    /// Drops the message or action waiting for the agent under `key` (a `PendingSend.key`) and
    /// its stored row: it is never sent, and `pendingSends` updates. A message that had not
    /// joined `messages` yet is gone with it; one that had (a send was attempted) stays there.
    /// False when nothing waits under `key`: it was delivered (or discarded) meanwhile, or never
    /// queued.
    public func discardPending(key: String) async throws -> Bool {
        try await settled { try await self.native.discardPending(key: key) }
    }

    /// The user acted on node `nodeId` of surface `surfaceId` (a Button's action...).
    ///
    /// `metadata`: renderer-side data for the agent (an audit token...), sent as the A2UI v1.0
    /// action's `metadata.extensions`; keys must be identifiers. `nil` or empty: none. Metadata
    /// for a surface that is not v1.0 throws `ConversationError.A2ui` (`ACTION_REFUSED`): it is
    /// refused, never dropped.
    public func dispatchAction(
        surfaceId: String, nodeId: String, metadata: [String: NodeValue]? = nil
    ) async throws -> ActionResult {
        let metadata = metadata.map { $0.nodeValue }
        return ActionResult(try await settled {
            try await self.native.dispatchAction(surfaceId: surfaceId, nodeId: nodeId, metadata: metadata)
        })
    }

    /// Asks the agent to run a function for v1.0 surface `surfaceId` (A2UI v1.0
    /// `callAgentFunction`): `call` is the `FunctionCall` object, e.g.
    /// `["call": .text(value: "checkEmail"), "args": ["email": email].nodeValue]`. It goes in a
    /// run of its own, queued like an action, and this returns the value of the agent's answer
    /// once the properties show that run's end. Throws `ConversationError.AgentFunctionFailed`
    /// (the agent's error code and message), `.AgentFunctionUnanswered` (the run ended without
    /// an answer), `.A2ui` (`ACTION_REFUSED`: not a v1.0 surface, no function named, too many
    /// calls waiting).
    public func callAgentFunction(surfaceId: String, call: [String: NodeValue]) async throws -> NodeValue {
        let call = call.nodeValue
        return try await settled { try await self.native.callAgentFunction(surfaceId: surfaceId, call: call) }
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

    /// Answers interrupt `id` with a value: the agent reads it as the JSON it stands for. `nil`
    /// sends no payload (`.null` sends a JSON null). Throws as the JSON-text form does.
    public func resolveInterrupt(id: String, answer: NodeValue?) throws {
        try native.resolveInterruptValue(id: id, answer: answer)
    }

    /// Answers interrupt `id` with any `Encodable` value (a struct of the answer's fields, a
    /// `[String: Bool]`...), encoded as NodeValueCoding.swift says (dates as RFC 3339 text).
    /// Throws `EncodingError` for what JSON cannot hold, and as the JSON-text form does.
    public func resolveInterrupt<Answer: Encodable>(id: String, answer: Answer) throws {
        // Straight to the core: `resolveInterrupt(id:answer:)` here would pick this generic
        // overload again (a NodeValue is Encodable) and recurse.
        try native.resolveInterruptValue(id: id, answer: try NodeValue(encoding: answer))
    }

    public func cancelInterrupt(id: String) throws { try native.cancelInterrupt(id: id) }

    /// The user's `answer` to consent request `toolCallId` (one of `consentRequests`):
    /// `.allowOnce` runs the tool now, `.allowAlways` too and lets later calls of that tool in
    /// this conversation run at once, `.decline` runs nothing and tells the agent the user
    /// declined. Then the agent goes on with the results: returns that follow-up run once the
    /// properties show its end, or nil while other requests still wait (their answers go with
    /// the last one). Throws `ConversationError.UnknownConsentRequest` when no request waits
    /// under `toolCallId` (unknown, or answered already): nothing runs.
    public func answerConsent(toolCallId: String, answer: ConsentAnswer) async throws -> RunSummary? {
        let answer = answer.native
        return try await settled {
            try await self.native.answerConsent(toolCallId: toolCallId, answer: answer)
        }.map(RunSummary.init)
    }

    /// The registry that executes tools is the one the agent sees in `RunAgentInput.tools`; a
    /// run in flight keeps its tools, the next request has this one. `consent: .ask`: each call
    /// waits in `consentRequests` for the user's answer.
    public func registerTool(
        name: String,
        description: String,
        parametersJsonSchema: String,
        consent: Consent = .runAtOnce,
        tool: @escaping ClientTool
    ) throws {
        try native.registerTool(
            name: name,
            description: description,
            parametersJsonSchema: parametersJsonSchema,
            handler: ToolAdapter(tool: tool),
            consent: consent.native
        )
    }

    /// `registerTool` with values: `parameters` is the JSON Schema object, and the tool takes
    /// its arguments and returns its result as `NodeValue`s, not text. `consent` as for the
    /// JSON-text tool.
    public func registerTool(
        name: String,
        description: String,
        parameters: [String: NodeValue],
        consent: Consent = .runAtOnce,
        tool: @escaping TypedClientTool
    ) throws {
        try native.registerTypedTool(
            name: name,
            description: description,
            parameters: parameters.nodeValue,
            handler: TypedToolAdapter(tool: tool),
            consent: consent.native
        )
    }

    /// `registerTool` with Codable types: the arguments are decoded into `Arguments` (a failure
    /// is the tool's failure, with the path that did not fit, for the agent to read) and the
    /// result is encoded from `Result`, as NodeValueCoding.swift says. `parameters` is the JSON
    /// Schema object the arguments satisfy.
    public func registerTool<Arguments: Decodable, Result: Encodable>(
        name: String,
        description: String,
        parameters: [String: NodeValue],
        consent: Consent = .runAtOnce,
        tool: @escaping @Sendable (_ arguments: Arguments) async throws -> Result
    ) throws {
        try registerTool(name: name, description: description, parameters: parameters, consent: consent) { members in
            let arguments: Arguments
            do {
                arguments = try members.nodeValue.decode(as: Arguments.self)
            } catch let error as DecodingError {
                throw ClientToolFailure("the arguments do not fit the tool: \(CodingFailure.describe(error))")
            }
            return try NodeValue(encoding: try await tool(arguments))
        }
    }

    public func unregisterTool(name: String) -> Bool {
        native.unregisterTool(name: name)
    }

    /// One surface's diffs: a `.reset` first (empty once the agent deleted the surface), then
    /// `.patch`es, in order, pulled from the core as they are iterated (diffs queued meanwhile
    /// come together). Ending the iteration ends the native subscription.
    public func surfaceDiffs(_ surfaceId: String) throws -> SurfaceDiffs {
        SurfaceDiffs(feed: try native.surfaceFeed(surfaceId: surfaceId))
    }

    public func close() {
        guard !closed else { return }
        closed = true
        native.cancel()
        view.unsubscribe()
        pump?.cancel()
        pump = nil
        endFrameWait()
        // Releases callers of send() that wait for their run's end to show.
        releaseWaiters()
    }

    /// Runs `call`, then waits until the properties show everything the core published before
    /// it returned or threw: a caller that catches the error reads the phase and the pending
    /// sends the failure left, not older ones.
    private func settled<T>(_ call: () async throws -> T) async throws -> T {
        let result: T
        do {
            result = try await call()
        } catch let cancelled as CancellationError {
            throw cancelled
        } catch {
            await awaitShown()
            throw error
        }
        await awaitShown()
        return result
    }

    /// Waits until the properties show everything the core published before this call: a
    /// barrier queued behind it, settled by a later batch.
    private func awaitShown() async {
        guard !closed, !viewEnded else { return }
        let barrier = view.barrier()
        endFrameWait()
        if settledUpTo < barrier {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                waiters.append((barrier, done))
            }
        }
    }

    /// The one place the properties change: one batch, applied and published, then its event.
    /// (Internal for the shared adapter cases' test.)
    func apply(_ batch: ViewBatch) {
        guard !closed else { return }
        if batch.reset { snapshotsApplied += 1 }
        // A diff for a position these lists do not have would be a core defect: Swift would
        // trap on it, so it is checked, and the whole state is asked for instead.
        if !batch.messages.isEmpty {
            var items = messages
            for diff in batch.messages where !Self.apply(diff, to: &items) {
                view.resync()
                return
            }
            messages = items
        }
        if !batch.toolCalls.isEmpty {
            var calls = toolCalls
            for diff in batch.toolCalls {
                switch diff {
                case .reset(let all): calls = all.map(ToolCallUpdate.init)
                case .insert(let index, let call) where Int(index) <= calls.count:
                    calls.insert(ToolCallUpdate(call), at: Int(index))
                case .set(let index, let call) where calls.indices.contains(Int(index)): calls[Int(index)] = ToolCallUpdate(call)
                case .insert, .set:
                    view.resync()
                    return
                }
            }
            toolCalls = calls
        }
        if !batch.timeline.isEmpty {
            // After the messages: a message row's media find their parts' places in them.
            let changes = batch.timeline.map { TimelineChange($0, messages: messages) }
            guard let rows = TimelineChange.applying(changes, to: timeline) else {
                view.resync()
                return
            }
            timeline = rows
        }
        if let value = batch.state {
            let foundation = JSONText.foundation(value)
            state = foundation
            stateJson = JSONText.text(foundation, empty: "{}")
        }
        if let entries = batch.surfaces {
            surfaces = entries.map { SurfaceInfo(id: $0.surfaceId, catalogId: $0.catalogId) }
        }
        if let pending = batch.interrupts { interrupts = pending.map(Interrupt.init) }
        if let pending = batch.consentRequests { consentRequests = pending.map(ConsentRequest.init) }
        if let granted = batch.consentGrants { consentGrants = granted }
        if let steps = batch.activeSteps { activeSteps = steps }
        // After the messages, so an observer of this property finds a waiting message in them.
        if let pending = batch.pendingSends { pendingSends = pending.map(PendingSend.init) }
        // The phase last: an observer that sees a run's end finds everything of the run published.
        if let phase = batch.phase { self.phase = RunPhase(phase) }
        switch batch.event {
        case nil: break
        case .custom(let name, let value)?:
            eventSubject.send(.custom(name: name, value: value))
        case .raw(let event, let source)?:
            eventSubject.send(.raw(event: event, source: source))
        case .stepStarted(let name)?: eventSubject.send(.stepStarted(name: name))
        case .stepFinished(let name)?: eventSubject.send(.stepFinished(name: name))
        case .warning(let warning)?: warningSubject.send(SessionWarning(warning))
        }
        if batch.settled > settledUpTo {
            settledUpTo = batch.settled
            let ready = waiters.filter { $0.barrier <= settledUpTo }
            waiters.removeAll { $0.barrier <= settledUpTo }
            ready.forEach { $0.done.resume() }
        }
    }

    /// False when the diff names a position `items` does not have.
    private static func apply(_ diff: MessageDiff, to items: inout [ChatMessage]) -> Bool {
        switch diff {
        case .reset(let all): items = all.map(chatMessage)
        case .insert(let index, let item):
            guard Int(index) <= items.count else { return false }
            items.insert(chatMessage(item), at: Int(index))
        case .set(let index, let item):
            guard items.indices.contains(Int(index)) else { return false }
            items[Int(index)] = chatMessage(item)
        case .appendText(let index, let text):
            guard items.indices.contains(Int(index)) else { return false }
            items[Int(index)].text += text
        case .appendArguments(let index, let call, let text):
            guard items.indices.contains(Int(index)), items[Int(index)].toolCalls.indices.contains(Int(call)) else {
                return false
            }
            items[Int(index)].toolCalls[Int(call)].argumentsJson += text
        case .marks(let index, let localOnly, let pending):
            guard items.indices.contains(Int(index)) else { return false }
            items[Int(index)].localOnly = localOnly.map(LocalOnly.init)
            items[Int(index)].isPending = pending
        case .markdown(let index, let from, let blocks, _, let coveredUtf16):
            // "The blocks from `from` on are now …": the ones before were sent once and stay.
            guard items.indices.contains(Int(index)), let tree = items[Int(index)].markdown,
                Int(from) <= tree.blocks.count
            else { return false }
            items[Int(index)].markdown = ChatMarkdown(
                blocks: Array(tree.blocks.prefix(Int(from))) + blocks, coveredUtf16: Int(clamping: coveredUtf16))
        }
        return true
    }

    /// The core's chat item as a `ChatMessage`, field for field.
    static func chatMessage(_ item: ChatItem) -> ChatMessage {
        ChatMessage(
            id: item.id,
            role: Role(item.role),
            text: item.text,
            toolCalls: item.toolCalls.map { MessageToolCall(id: $0.id, name: $0.name, argumentsJson: $0.argumentsJson) },
            toolCallId: item.toolCallId,
            error: item.error,
            activityType: item.activityType,
            content: item.content,
            localOnly: item.localOnly.map(LocalOnly.init),
            isPending: item.pending,
            markdown: item.markdown.map(ChatMarkdown.init)
        )
    }
}

/// JSON values from the core as Foundation values and as text.
enum JSONText {
    static func foundation(_ value: NodeValue) -> Any {
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

    /// Compact JSON text with object keys sorted; `empty` for null or what cannot be written.
    static func text(_ value: Any, empty: String = "null") -> String {
        guard !(value is NSNull),
              let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
        else { return empty }
        return String(decoding: data, as: UTF8.self)
    }
}

/// One surface's diffs as `surfaceDiffs` delivers them, pulled from the core a batch at a time.
public struct SurfaceDiffs: AsyncSequence {
    public typealias Element = SurfaceDiff
    let feed: SurfaceFeed

    public struct AsyncIterator: AsyncIteratorProtocol {
        let feed: SurfaceFeed
        var buffered: [SurfaceDiff] = []

        public mutating func next() async -> SurfaceDiff? {
            if buffered.isEmpty {
                guard let diffs = (try? await feed.nextDiffs()) ?? nil, !diffs.isEmpty else {
                    feed.unsubscribe()
                    return nil
                }
                buffered = diffs.reversed().map(SurfaceDiff.init)
            }
            return buffered.popLast()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(feed: feed)
    }
}

/// A Swift closure as the core's client tool handler.
private final class ToolAdapter: ClientToolHandler {
    private let tool: ClientTool
    init(tool: @escaping ClientTool) { self.tool = tool }
    func call(toolCallId: String, argumentsJson: String) async throws -> String {
        try await toolErrors { try await tool(argumentsJson) }
    }
}

/// A Swift closure taking and returning values as the core's typed tool handler.
private final class TypedToolAdapter: TypedClientToolHandler {
    private let tool: TypedClientTool
    init(tool: @escaping TypedClientTool) { self.tool = tool }
    func call(toolCallId: String, arguments: NodeValue) async throws -> TypedToolResult {
        try await toolErrors {
            // The core sends the object the agent produced; the schema may let another kind through.
            guard case .object(let entries) = arguments else {
                throw ToolHandlerError.Failed(detail: "the tool's arguments are not a JSON object")
            }
            var members: [String: NodeValue] = [:]
            for entry in entries { members[entry.name] = entry.value }
            return TypedToolResult(value: try await tool(members))
        }
    }
}

/// `body`'s result, its errors as the core's: `ClientToolFailure` as is, others generic.
private func toolErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
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
