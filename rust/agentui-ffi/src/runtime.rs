//! The one tokio runtime of the library, and the door to conversations.
//!
//! # Android and the JVM
//!
//! Listener and tool callbacks into Kotlin are made from this runtime's threads. JNA attaches a
//! native thread to the JVM on every callback and detaches it afterwards, which is correct but
//! costs an attach per callback. The cheaper arrangement attaches each runtime thread once, in
//! the builder's `on_thread_start` hook below, and detaches it in `on_thread_stop`. That needs
//! the `JavaVM` pointer, which only `JNI_OnLoad` receives, and JNA never calls `JNI_OnLoad`; so
//! the app would also have to load the library with `System.loadLibrary` and the crate would
//! need the `jni` crate. Neither can be exercised on a host JVM, so the hook only names the
//! thread's role in the trace log today, and the per-callback attach by JNA stays in force.

use std::sync::Arc;

use agentui_a2ui::functions::UrlPolicy;
use agentui_a2ui::locale::{DEFAULT_LOCALE, DEFAULT_TIME_ZONE};
use agentui_a2ui::Localization;
use agentui_agui::message::Context;
use agentui_agui::MemoryBudget;
use agentui_json::value::NodeValue;

use agentui_agui::transport::{Connectivity, SharedHeaderProvider, TransportOptions};
use agentui_runtime::attachment::AttachmentPolicy;
use agentui_runtime::session::{ChatMarkdown, ConversationSession, SessionOptions};
use std::time::Duration;
use tokio::runtime::Handle;

use crate::conversation::Conversation;
use crate::error::{ConversationError, RuntimeStartError};
use crate::functions::{A2uiFunction, A2uiFunctionHandler};
use crate::network::{ForeignHeaders, RequestHeaderProvider};
use crate::store::ConversationStore;

/// Worker threads of [`Runtime::new`]: one conversation streams on one task, tool handlers
/// and listener deliveries on others; two workers keep the UI's callbacks flowing while a
/// stream is parsed, without a phone paying for a thread per core.
const DEFAULT_WORKER_THREADS: u32 = 2;
const MAX_WORKER_THREADS: u32 = 64;

/// A request header sent with every request of a conversation (e.g. `Authorization`).
/// Never logged.
#[derive(Clone, PartialEq, Eq, uniffi::Record)]
pub struct Header {
    pub name: String,
    pub value: String,
}

impl std::fmt::Debug for Header {
    // The value may be a credential.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Header").field("name", &self.name).finish_non_exhaustive()
    }
}

/// How a conversation behaves. Every field has a default.
#[derive(Debug, Clone, uniffi::Record)]
pub struct ConversationOptions {
    /// The thread to continue; a fresh id when absent.
    #[uniffi(default = None)]
    pub thread_id: Option<String>,
    /// Bound on TCP + TLS connection setup.
    #[uniffi(default = 10000)]
    pub connect_timeout_ms: u64,
    /// Longest silence tolerated from the agent while a run streams.
    #[uniffi(default = 60000)]
    pub idle_timeout_ms: u64,
    /// Bound on one client tool handler.
    #[uniffi(default = 30000)]
    pub tool_timeout_ms: u64,
    /// Follow-up runs one `send_message` may start to deliver tool results.
    #[uniffi(default = 5)]
    pub max_follow_up_runs: u32,
    #[uniffi(default)]
    /// Ambient information given to the agent with every run.
    pub context: Vec<Context>,
    /// `forwardedProps` sent with every run, as JSON text.
    #[uniffi(default = None)]
    pub forwarded_props_json: Option<String>,
    /// `forwardedProps` sent with every run, as a value; set this or `forwarded_props_json`,
    /// not both (`InvalidOptions`).
    #[uniffi(default = None)]
    pub forwarded_props: Option<NodeValue>,
    /// Bounds on what the agent can make this conversation hold; the phone defaults
    /// ([`default_memory_budget`]) when absent. A zero bound is `InvalidOptions`.
    #[uniffi(default = None)]
    pub memory_budget: Option<MemoryBudget>,
    /// Whose roots vouch for the agent's certificate; `None` is the platform's.
    #[uniffi(default = None)]
    pub trust_store: Option<agentui_agui::transport::TrustStore>,
    /// Roots trusted besides the store, as PEM text (each entry may hold several certificates).
    #[uniffi(default)]
    pub extra_roots_pem: Vec<String>,
    /// Roots trusted besides the store, one DER certificate each.
    #[uniffi(default)]
    pub extra_roots_der: Vec<Vec<u8>>,
    /// When not empty the leaf certificate must match one: `sha256/BASE64` (its public key) or
    /// `cert-sha256/BASE64` (the whole certificate). Checked after the chain, never instead.
    #[uniffi(default)]
    pub certificate_pins: Vec<String>,
    /// The user's locale as a BCP-47 language tag (`de-DE`, `ko-KR`, `sr-Latn-RS`), which the
    /// A2UI formatting functions follow; `en-US` when absent. The Kotlin and Swift layers fill
    /// it from the device's locale. A malformed tag is `InvalidOptions`.
    #[uniffi(default = None)]
    pub locale: Option<String>,
    /// The user's IANA time zone (`Europe/Berlin`); instants are shown in it. `UTC` when
    /// absent; the Kotlin and Swift layers fill it from the device. An unknown zone is
    /// `InvalidOptions`.
    #[uniffi(default = None)]
    pub time_zone: Option<String>,
    /// The MIME types the app sends as attachments: `type/subtype`, or a star for any subtype
    /// or any type (as in an Accept header). Images, audio, video, PDF and plain text when
    /// absent.
    #[uniffi(default = None)]
    pub allowed_attachment_types: Option<Vec<String>>,
    /// The URL schemes the app allows (no colon, any case): what `openUrl` may open (and
    /// never more than http and https, whatever else is listed), surface media, and the links
    /// and images of Markdown, which follow the same two rules. http and https when absent.
    #[uniffi(default = None)]
    pub allowed_url_schemes: Option<Vec<String>>,
    /// Whether chat messages carry a Markdown tree (`ChatItem.markdown`). Off for an app that
    /// draws message text itself: no parse is done.
    #[uniffi(default = true)]
    pub chat_markdown: bool,
    /// Whether Markdown images in chat messages are shown (their URLs through the media rule of
    /// `allowed_url_schemes`); off, their alt text is.
    #[uniffi(default = false)]
    pub markdown_images: bool,
    /// Whether each request tells the agent which A2UI catalogs this app renders (one context
    /// entry, `a2uiClientCapabilities`). Off for an app that shows no A2UI.
    #[uniffi(default = true)]
    pub advertise_a2ui: bool,
    /// The app's own A2UI catalogs, as catalog JSON text (`catalogId`, `components`,
    /// `functions`). They are advertised to the agent with every run, beside the basic
    /// catalogs, and the agent's surfaces may use them. At most 16, of 256 KiB each; a
    /// malformed catalog or an id already known is `InvalidOptions`.
    #[uniffi(default)]
    pub catalogs_json: Vec<String>,
    /// The app's own A2UI catalogs as values (each a JSON object, as in `catalogs_json`), for a
    /// layer that builds them as typed values: the core converts them, no side writes JSON text.
    /// The same checks and bounds (at most 16, each at most 256 KiB as compact JSON text); set
    /// this or `catalogs_json`, not both (`InvalidOptions`).
    #[uniffi(default)]
    pub catalogs: Vec<NodeValue>,
    /// The catalog functions the app implements (of `catalogs_json` or of a built-in
    /// catalog), each declared by its catalog, at most 256; `a2ui_function_handler` runs them.
    #[uniffi(default)]
    pub a2ui_functions: Vec<A2uiFunction>,
    /// Runs the calls of `a2ui_functions`; required when that list is not empty.
    #[uniffi(default = None)]
    pub a2ui_function_handler: Option<Arc<dyn A2uiFunctionHandler>>,
    /// Asked for headers before every request (over the fixed `headers` of `connect`/`open`:
    /// a name both give is the provider's), and again once on a 401, with its challenge.
    #[uniffi(default = None)]
    pub header_provider: Option<Arc<dyn RequestHeaderProvider>>,
}

impl Default for ConversationOptions {
    fn default() -> Self {
        ConversationOptions {
            thread_id: None,
            connect_timeout_ms: 10_000,
            idle_timeout_ms: 60_000,
            tool_timeout_ms: 30_000,
            max_follow_up_runs: 5,
            context: Vec::new(),
            forwarded_props_json: None,
            forwarded_props: None,
            memory_budget: None,
            trust_store: None,
            extra_roots_pem: Vec::new(),
            extra_roots_der: Vec::new(),
            certificate_pins: Vec::new(),
            locale: None,
            time_zone: None,
            allowed_attachment_types: None,
            allowed_url_schemes: None,
            chat_markdown: true,
            markdown_images: false,
            advertise_a2ui: true,
            catalogs_json: Vec::new(),
            catalogs: Vec::new(),
            a2ui_functions: Vec::new(),
            a2ui_function_handler: None,
            header_provider: None,
        }
    }
}

impl ConversationOptions {
    fn to_session_options(&self) -> Result<SessionOptions, ConversationError> {
        let positive = |name: &str, ms: u64| {
            if ms == 0 {
                Err(ConversationError::InvalidOptions { detail: format!("{name} must be greater than 0") })
            } else {
                Ok(Duration::from_millis(ms))
            }
        };
        let forwarded_props = match (&self.forwarded_props_json, &self.forwarded_props) {
            (None, None) => None,
            (Some(_), Some(_)) => {
                let detail = "set forwarded_props or forwarded_props_json, not both".to_owned();
                return Err(ConversationError::InvalidOptions { detail });
            }
            (Some(text), None) => Some(
                serde_json::from_str(text)
                    .map_err(|e| ConversationError::InvalidJson { detail: format!("forwarded_props_json: {e}") })?,
            ),
            (None, Some(value)) => Some(value.to_json().map_err(|e| ConversationError::InvalidJson {
                detail: format!("forwarded_props: not JSON at '{}': {}", e.path, e.reason()),
            })?),
        };
        Ok(SessionOptions {
            thread_id: self.thread_id.clone(),
            transport: TransportOptions {
                connect_timeout: positive("connect_timeout_ms", self.connect_timeout_ms)?,
                idle_timeout: positive("idle_timeout_ms", self.idle_timeout_ms)?,
                tls: crate::tls::tls_options(self)?,
                header_provider: self
                    .header_provider
                    .clone()
                    .map(|p| SharedHeaderProvider(Arc::new(ForeignHeaders(p)))),
                ..TransportOptions::default()
            },
            tool_timeout: positive("tool_timeout_ms", self.tool_timeout_ms)?,
            max_follow_up_runs: self.max_follow_up_runs as usize,
            context: self.context.clone(),
            forwarded_props,
            budget: self.budget()?,
            localization: self.localization()?,
            attachments: match &self.allowed_attachment_types {
                Some(types) => AttachmentPolicy { allowed_mime_types: types.clone() },
                None => AttachmentPolicy::default(),
            },
            url_policy: match &self.allowed_url_schemes {
                Some(schemes) => UrlPolicy { allowed_schemes: schemes.clone() },
                None => UrlPolicy::default(),
            },
            chat_markdown: ChatMarkdown { enabled: self.chat_markdown, images: self.markdown_images },
            advertise_a2ui: self.advertise_a2ui,
            ..SessionOptions::default()
        })
    }
}

impl ConversationOptions {
    fn budget(&self) -> Result<MemoryBudget, ConversationError> {
        let budget = self.memory_budget.unwrap_or_default();
        match budget.zero_bound() {
            Some(name) => Err(ConversationError::InvalidOptions {
                detail: format!("memory_budget.{name} must be greater than 0"),
            }),
            None => Ok(budget),
        }
    }

    /// The app's catalogs and functions, added to `session` (the runtime checks them).
    fn add_app_catalogs(&self, session: &mut ConversationSession) -> Result<(), ConversationError> {
        let functions = match (&self.a2ui_function_handler, self.a2ui_functions.is_empty()) {
            (_, true) => Vec::new(),
            (Some(handler), false) => crate::functions::app_functions(&self.a2ui_functions, handler),
            (None, false) => {
                return Err(ConversationError::InvalidOptions {
                    detail: "a2ui_functions are given without an a2ui_function_handler".to_owned(),
                })
            }
        };
        let added = match (self.catalogs_json.is_empty(), self.catalogs.is_empty()) {
            (false, false) => {
                let detail = "set catalogs or catalogs_json, not both".to_owned();
                return Err(ConversationError::InvalidOptions { detail });
            }
            (_, true) => session.add_app_catalogs(&self.catalogs_json, functions),
            (true, false) => {
                let values = catalog_values(&self.catalogs)?;
                session.add_app_catalog_values(&values, functions)
            }
        };
        added.map_err(|e| ConversationError::InvalidOptions { detail: e.to_string() })
    }

    fn localization(&self) -> Result<Localization, ConversationError> {
        let locale = self.locale.as_deref().unwrap_or(DEFAULT_LOCALE);
        let time_zone = self.time_zone.as_deref().unwrap_or(DEFAULT_TIME_ZONE);
        Localization::new(locale, time_zone).map_err(|e| ConversationError::InvalidOptions { detail: e.to_string() })
    }
}

/// The typed catalogs as JSON values; one with no JSON form (a NaN, too deep) is refused by its
/// place in the list. (The app's own values, already in memory: the runtime bounds the count.)
fn catalog_values(catalogs: &[NodeValue]) -> Result<Vec<serde_json::Value>, ConversationError> {
    let mut values = Vec::with_capacity(catalogs.len());
    for (index, catalog) in catalogs.iter().enumerate() {
        let value = catalog.to_json().map_err(|e| ConversationError::InvalidOptions {
            detail: format!("catalog {index} is not JSON at '{}': {}", e.path, e.reason()),
        })?;
        values.push(value);
    }
    Ok(values)
}

/// The memory budget a conversation gets when its options name none (the phone defaults).
#[uniffi::export]
pub fn default_memory_budget() -> MemoryBudget {
    MemoryBudget::default()
}

/// Owns the tokio runtime. Shared by the `Runtime` object and every conversation made from it,
/// so the runtime lives until the last of them is gone.
pub(crate) struct RuntimeCore {
    runtime: Option<tokio::runtime::Runtime>,
    handle: Handle,
}

impl RuntimeCore {
    pub(crate) fn handle(&self) -> &Handle {
        &self.handle
    }
}

impl Drop for RuntimeCore {
    fn drop(&mut self) {
        // The last owner may be a task on this very runtime (a run holding its conversation);
        // a blocking shutdown there would panic, so do not wait for the workers.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

fn on_runtime_thread_start() {
    // See the module notes: this is where a JVM attach would go on Android.
    tracing::trace!("agentui runtime thread started");
}

/// One multi-thread tokio runtime. Create one per app and share it.
#[derive(uniffi::Object)]
pub struct Runtime {
    core: Arc<RuntimeCore>,
    /// The device's network as the app says (`set_online`), shared by every conversation.
    connectivity: Connectivity,
}

impl std::fmt::Debug for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime").finish_non_exhaustive()
    }
}

impl Runtime {
    fn build(worker_threads: u32) -> Result<Self, RuntimeStartError> {
        if !(1..=MAX_WORKER_THREADS).contains(&worker_threads) {
            return Err(RuntimeStartError::Failed {
                detail: format!("worker_threads must be between 1 and {MAX_WORKER_THREADS}, not {worker_threads}"),
            });
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(worker_threads as usize)
            .thread_name("agentui-runtime")
            .on_thread_start(on_runtime_thread_start)
            .enable_all()
            .build()
            .map_err(|e| RuntimeStartError::Failed { detail: e.to_string() })?;
        let handle = runtime.handle().clone();
        let core = Arc::new(RuntimeCore { runtime: Some(runtime), handle });
        Ok(Runtime { core, connectivity: Connectivity::new() })
    }

    /// The runtime handle, for Rust callers (tests, embedding crates).
    pub fn handle(&self) -> &Handle {
        self.core.handle()
    }
}

#[uniffi::export]
impl Runtime {
    /// A runtime with two worker threads.
    #[uniffi::constructor]
    pub fn new() -> Result<Arc<Self>, RuntimeStartError> {
        Self::build(DEFAULT_WORKER_THREADS).map(Arc::new)
    }

    #[uniffi::constructor]
    pub fn with_worker_threads(worker_threads: u32) -> Result<Arc<Self>, RuntimeStartError> {
        Self::build(worker_threads).map(Arc::new)
    }

    /// A conversation with the AG-UI agent at `url`, kept in memory only. No I/O happens here:
    /// the first request is made by `send_message`. `headers` go with every request;
    /// `options.header_provider` gives per-request ones over them.
    pub fn connect(
        &self,
        url: String,
        headers: Vec<Header>,
        options: ConversationOptions,
    ) -> Result<Arc<Conversation>, ConversationError> {
        let session = self.session(&url, headers, options)?;
        let conversation = agentui_runtime::Conversation::start(session, self.core.handle().clone());
        Ok(Conversation::new(self.core.clone(), conversation))
    }

    /// Conversation `options.thread_id` (a fresh id when absent) with the agent at `url`, kept in
    /// `store`: restored as last written when the store holds it, created otherwise; every change
    /// is then written. Restoring re-runs nothing: no tool runs again, nothing is re-sent but
    /// what never reached the agent, a run open when the app stopped is `Abandoned`. Blocks on
    /// disk I/O (a restore reads the whole conversation). Headers as for [`connect`](Self::connect).
    pub fn open(
        &self,
        store: Arc<ConversationStore>,
        url: String,
        headers: Vec<Header>,
        options: ConversationOptions,
    ) -> Result<Arc<Conversation>, ConversationError> {
        let session = self.session(&url, headers, options)?;
        let handle = self.core.handle().clone();
        let conversation = agentui_runtime::Conversation::open(session, store.core(), &url, handle)?;
        Ok(Conversation::new(self.core.clone(), conversation))
    }

    /// Whether the device has a network, as the platform says (Android's ConnectivityManager,
    /// Apple's NWPathMonitor; the Kotlin and Swift layers call it). While offline, messages
    /// waiting for the agent and a broken stream's resumption wait instead of spending their
    /// attempts; when online again they go at once. Online until told otherwise.
    pub fn set_online(&self, online: bool) {
        self.connectivity.set_online(online);
    }
}

impl Runtime {
    fn session(
        &self,
        url: &str,
        headers: Vec<Header>,
        options: ConversationOptions,
    ) -> Result<ConversationSession, ConversationError> {
        let app_options = options;
        let mut options = app_options.to_session_options()?;
        options.transport.connectivity = self.connectivity.clone();
        let headers: Vec<(String, String)> = headers.into_iter().map(|h| (h.name, h.value)).collect();
        // The HTTP client may register with the reactor while it is built.
        let _context = self.core.handle().enter();
        let mut session = ConversationSession::connect(url, &headers, options)?;
        // Before anything runs or is restored: a stored surface may be in one of these catalogs.
        app_options.add_app_catalogs(&mut session)?;
        tracing::debug!(headers = headers.len(), "conversation connected");
        Ok(session)
    }
}
