// How a conversation behaves: the Kotlin layer's `AgentOptions`, field for field, with Swift's
// types (TimeInterval for durations, Int for counts). The layer turns it into the core's
// `ConversationOptions`.

import Foundation
import AgentUICore

/// How a conversation behaves; every field has a default.
///
/// `memoryBudget` bounds what the agent can make the conversation hold (state, data models,
/// message sizes...); the phone defaults (`MemoryBudget()`) when nil. A breach fails the
/// run with `ConversationError.LimitExceeded` and changes nothing.
///
/// TLS trust: `trustStore` (nil = the platform's, i.e. the Security framework with keychain and
/// MDM roots), `extraRootsPem` / `extraRootsDer` and `certificatePins`. A refused certificate
/// throws `ConversationError.Certificate(kind:detail:)`.
///
/// `locale` (a BCP-47 tag) and `timeZone` (an IANA name) are what the A2UI formatting functions
/// follow; the device's at connect time when nil.
///
/// `catalogs` are the app's own A2UI catalogs, as catalog JSON text (or `catalogValues`, as
/// values): advertised to the agent
/// with every run beside the basic catalogs, so its surfaces may use them (at most 16, of
/// 256 KiB each). `functions` implement catalog functions (of `catalogs` or a built-in catalog),
/// each declared by its catalog. A malformed catalog, a known catalog id or an undeclared
/// function makes connect throw `ConversationError.InvalidOptions`.
public struct AgentOptions {
    /// The conversation to open: restored from the runtime's store when it holds it; a fresh
    /// id when nil.
    public var threadId: String?
    /// Bound on TCP + TLS connection setup, in seconds.
    public var connectTimeout: TimeInterval
    /// Longest silence tolerated from the agent while a run streams, in seconds.
    public var idleTimeout: TimeInterval
    /// Bound on one client tool handler, in seconds.
    public var toolTimeout: TimeInterval
    /// Follow-up runs one `send` may start to deliver tool results.
    public var maxFollowUpRuns: Int
    /// Ambient information given to the agent with every run: description to value, sent in
    /// key order (a Swift dictionary has no order of its own).
    public var context: [String: String]
    /// `forwardedProps` sent with every run, as JSON text; or `forwardedProps`, not both.
    public var forwardedPropsJson: String?
    /// `forwardedProps` sent with every run, as values; setting it and `forwardedPropsJson`
    /// makes connect throw `ConversationError.InvalidOptions`.
    public var forwardedProps: [String: NodeValue]?
    public var memoryBudget: MemoryBudget?
    /// Whose roots vouch for the agent's certificate; nil is the platform's.
    public var trustStore: TrustStore?
    /// CA certificates trusted besides the store (PEM; several per entry allowed).
    public var extraRootsPem: [String]
    /// The same, one DER certificate each.
    public var extraRootsDer: [Data]
    /// `sha256/BASE64` (public key) or `cert-sha256/BASE64` (whole certificate) of the leaf.
    public var certificatePins: [String]
    public var locale: String?
    public var timeZone: String?
    /// The MIME types `send(_:attachments:)` takes (`image/jpeg`, or a star for any subtype);
    /// nil: images, audio, video, PDF and plain text.
    public var allowedAttachmentTypes: [String]?
    /// The URL schemes the app allows: what `openUrl` may open (never beyond http and https),
    /// surface media, and the links and images of Markdown, which follow the same two rules;
    /// nil: http and https.
    public var allowedUrlSchemes: [String]?
    /// Whether chat messages carry a Markdown tree (`ChatMessage.markdown`); off: no parse.
    public var chatMarkdown: Bool
    /// Whether Markdown images in chat are shown (through `allowedUrlSchemes`); off: alt text.
    public var markdownImages: Bool
    /// Whether each request tells the agent which A2UI catalogs the app renders (one context
    /// entry, `a2uiClientCapabilities`); off for an app that shows no A2UI.
    public var advertiseA2ui: Bool
    /// The app's own A2UI catalogs (catalog JSON text).
    public var catalogs: [String]
    /// The same catalogs as values, each the catalog's object (`catalogId`, `components`, ...),
    /// for an app that builds them in code; or `catalogs`, not both (connect throws
    /// `ConversationError.InvalidOptions`). The core converts them; the same bounds apply.
    public var catalogValues: [[String: NodeValue]]
    /// The app's implementations of catalog functions, by catalog id and name.
    public var functions: [CatalogFunctionID: CatalogFunction]

    public init(
        threadId: String? = nil,
        connectTimeout: TimeInterval = 10,
        idleTimeout: TimeInterval = 60,
        toolTimeout: TimeInterval = 30,
        maxFollowUpRuns: Int = 5,
        context: [String: String] = [:],
        forwardedPropsJson: String? = nil,
        forwardedProps: [String: NodeValue]? = nil,
        memoryBudget: MemoryBudget? = nil,
        trustStore: TrustStore? = nil,
        extraRootsPem: [String] = [],
        extraRootsDer: [Data] = [],
        certificatePins: [String] = [],
        locale: String? = nil,
        timeZone: String? = nil,
        allowedAttachmentTypes: [String]? = nil,
        allowedUrlSchemes: [String]? = nil,
        chatMarkdown: Bool = true,
        markdownImages: Bool = false,
        advertiseA2ui: Bool = true,
        catalogs: [String] = [],
        catalogValues: [[String: NodeValue]] = [],
        functions: [CatalogFunctionID: CatalogFunction] = [:]
    ) {
        self.threadId = threadId
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.toolTimeout = toolTimeout
        self.maxFollowUpRuns = maxFollowUpRuns
        self.context = context
        self.forwardedPropsJson = forwardedPropsJson
        self.forwardedProps = forwardedProps
        self.memoryBudget = memoryBudget
        self.trustStore = trustStore
        self.extraRootsPem = extraRootsPem
        self.extraRootsDer = extraRootsDer
        self.certificatePins = certificatePins
        self.locale = locale
        self.timeZone = timeZone
        self.allowedAttachmentTypes = allowedAttachmentTypes
        self.allowedUrlSchemes = allowedUrlSchemes
        self.chatMarkdown = chatMarkdown
        self.markdownImages = markdownImages
        self.advertiseA2ui = advertiseA2ui
        self.catalogs = catalogs
        self.catalogValues = catalogValues
        self.functions = functions
    }

    /// The core's options; a nil locale or time zone becomes the device's.
    func toNative() -> ConversationOptions {
        ConversationOptions(
            threadId: threadId,
            connectTimeoutMs: Self.milliseconds(connectTimeout),
            idleTimeoutMs: Self.milliseconds(idleTimeout),
            toolTimeoutMs: Self.milliseconds(toolTimeout),
            maxFollowUpRuns: UInt32(clamping: maxFollowUpRuns),
            context: context.keys.sorted().map { Context(description: $0, value: context[$0]!) },
            forwardedPropsJson: forwardedPropsJson,
            forwardedProps: forwardedProps?.nodeValue,
            memoryBudget: memoryBudget?.native,
            trustStore: trustStore?.native,
            extraRootsPem: extraRootsPem,
            extraRootsDer: extraRootsDer,
            certificatePins: certificatePins,
            locale: locale ?? AgentRuntime.bcp47Tag(for: .current),
            timeZone: timeZone ?? TimeZone.current.identifier,
            allowedAttachmentTypes: allowedAttachmentTypes,
            allowedUrlSchemes: allowedUrlSchemes,
            chatMarkdown: chatMarkdown,
            markdownImages: markdownImages,
            advertiseA2ui: advertiseA2ui,
            catalogsJson: catalogs,
            catalogs: catalogValues.map { $0.nodeValue },
            a2uiFunctions: functions.keys
                .sorted { ($0.catalogId, $0.name) < ($1.catalogId, $1.name) }
                .map { A2uiFunction(catalogId: $0.catalogId, name: $0.name) },
            a2uiFunctionHandler: functions.isEmpty ? nil : CatalogFunctionsAdapter(functions)
        )
    }

    /// Whole milliseconds, as Kotlin's `inWholeMilliseconds.coerceAtLeast(0)`: negative (and
    /// NaN) is 0, too large or infinite is the largest.
    static func milliseconds(_ seconds: TimeInterval) -> UInt64 {
        let millis = (seconds * 1000).rounded(.towardZero)
        guard millis > 0 else { return 0 }
        return millis < Double(UInt64.max) ? UInt64(millis) : UInt64.max
    }
}
