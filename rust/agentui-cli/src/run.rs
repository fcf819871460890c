//! `agentui run`: one conversation turn with a live agent, with the command line playing the
//! app: client tools declared on the command line, interrupts answered by policy or by asking,
//! and either a readable transcript or one JSON object per conversation delta. It drives the
//! same conversation actor and subscription the apps use.

use std::collections::HashMap;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agentui_agui::message::{Interrupt, Role};
use agentui_agui::transport::SharedHeaderProvider;
use agentui_agui::{ContentPart, Message, MessageContent, PartSource};
use agentui_runtime::attachment::{Attachment, AttachmentPolicy};
use agentui_runtime::session::ActionResult;
use agentui_runtime::session::{
    ClientTool, Consent, ConsentAnswer, ConsentRequest, ConversationSession, RunPhase, RunSummary, SessionError,
    SessionOptions, ToolCallPhase, ToolError, ToolInvocation,
};
use agentui_runtime::{
    Conversation, ConversationDelta, ConversationSnapshot, ConversationStore, Observed, StoreError, Subscription,
};
use serde_json::{json, Value};

use crate::conversation_json::{
    consent_requests_json, conversation_json, interrupts_json, pending_send_json, run_phase_json, tool_call_json,
    tool_phase_name,
};
use crate::gestures::Gestures;
use crate::store;
use crate::store_trace::{self, StoreTrace};
use crate::tree;

/// How interrupts are answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InterruptPolicy {
    /// Approve every interrupt and continue.
    Approve,
    /// Refuse every interrupt and continue.
    Reject,
    /// Ask on the terminal for each one.
    Ask,
}

/// How the consent requests of the command-line tools are answered (`--consent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ConsentPolicy {
    /// Allow every call (once each).
    Allow,
    /// Decline every call: the agent gets the declined result.
    Deny,
    /// Ask on the terminal for each call: y (once), a (always, for that tool), n (decline).
    Ask,
}

/// What `agentui run` was asked to do.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    pub url: String,
    pub message: String,
    /// Declare client tool NAME whose handler answers JSON; repeatable.
    #[arg(long = "tool", value_name = "NAME=JSON")]
    pub tools: Vec<String>,
    /// Declare client tool NAME whose handler fails with TEXT; repeatable.
    #[arg(long = "tool-error", value_name = "NAME=TEXT")]
    pub tool_errors: Vec<String>,
    /// Answer interrupts: approve, reject, or ask (the default when stdin is a terminal;
    /// otherwise the run stops at the first interrupt, exit 3).
    #[arg(long, value_enum)]
    pub interrupts: Option<InterruptPolicy>,
    /// Register the `--tool` and `--tool-error` tools as asking the user first, and answer each
    /// call: allow, deny, or ask (on the terminal; stdin must be one). Without it they run at once.
    #[arg(long, value_enum)]
    pub consent: Option<ConsentPolicy>,
    /// The thread to continue (a fresh id when absent); a recorded stream answers on its own.
    #[arg(long = "thread", value_name = "ID")]
    pub thread_id: Option<String>,
    /// The state the conversation starts from (a JSON value).
    #[arg(long, value_name = "JSON")]
    pub state: Option<String>,
    /// Extra request header, NAME:VALUE (e.g. authorization); repeatable. Never printed.
    #[arg(long = "header", value_name = "NAME:VALUE")]
    pub headers: Vec<String>,
    /// Run CMD (with `sh -c`) before each request for fresh headers: it prints `NAME: VALUE`
    /// lines; `AGENTUI_HEADER_REASON` is `unauthorized` after a 401 (see docs/cli.md). Its
    /// headers win over `--header`. Never printed.
    #[arg(long = "header-command", value_name = "CMD")]
    pub header_command: Option<String>,
    /// One JSON object per line for each session update, then `{"final": {...}}`.
    #[arg(long)]
    pub json: bool,
    /// Keep the conversation in the store FILE (created if absent): a new thread, or the one
    /// `--thread` names (restored if FILE has it). The thread id is printed.
    #[arg(long, value_name = "FILE")]
    pub store: Option<PathBuf>,
    /// Continue conversation THREAD_ID of the `--store` file, then send MESSAGE. Exit 2 if the
    /// file has no such conversation.
    #[arg(long, value_name = "THREAD_ID", requires = "store", conflicts_with_all = ["thread_id", "state"])]
    pub resume: Option<String>,
    /// After the turn, type JSON into surface SURFACE_ID at data model POINTER (e.g.
    /// `booking:/booking/name="Ada"`); repeatable, applied in order.
    #[arg(long = "set", value_name = "SURFACE_ID:POINTER=JSON")]
    pub sets: Vec<String>,
    /// After the sets, press node NODE_ID of surface SURFACE_ID (e.g. `booking/book`);
    /// repeatable, each run to completion. A URL the action opens is printed, never opened.
    #[arg(long = "action", value_name = "SURFACE_ID/NODE_ID")]
    pub actions: Vec<String>,
    /// Send file PATH with MESSAGE, as MIME (guessed from the extension when absent: png, jpg,
    /// gif, webp, pdf, txt, mp3, wav, ogg, m4a, mp4, mov); repeatable, in order. Checked
    /// against the memory budget's attachment bounds before anything is sent.
    #[arg(long = "attach", value_name = "PATH[:MIME]")]
    pub attachments: Vec<String>,
    /// Command-line tools answer after MS milliseconds (to watch a tool that takes time).
    #[arg(long = "tool-delay", value_name = "MS", default_value_t = 0)]
    pub tool_delay_ms: u64,
    /// Diagnostics for crash tests: one JSON line on stderr per store transaction and per
    /// command-line tool started (see `store_trace`).
    #[arg(long, hide = true, requires = "store")]
    pub trace_store: bool,
    /// Write each request and the raw body that answered it into DIR (a new folder), numbered
    /// in order, follow-ups and resumptions included, for `serve-recording` and the test kits.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
    /// With --record, keep the request headers too (credentials and cookies are never written).
    #[arg(long, requires = "record")]
    pub record_headers: bool,
    #[command(flatten)]
    pub tls: crate::tls::TlsArgs,
    #[command(flatten)]
    pub locale: crate::locale::LocaleArgs,
}

/// Exit code: the agent stopped at an interrupt nobody answered.
const EXIT_INTERRUPTED: u8 = 3;
/// Rounds of answering interrupts before giving up on an agent that keeps asking.
const MAX_INTERRUPT_ROUNDS: usize = 16;

/// The parameters schema of a command-line tool: any arguments are accepted.
fn permissive_parameters() -> Value {
    json!({"type": "object", "additionalProperties": true})
}

fn split_pair<'a>(flag: &str, spec: &'a str) -> Result<(&'a str, &'a str), String> {
    match spec.split_once('=') {
        Some((name, rest)) if !name.is_empty() => Ok((name, rest)),
        _ => Err(format!("{flag} is written NAME=VALUE, got {spec:?}")),
    }
}

/// What every command-line tool handler does besides answering (copied into each handler).
#[derive(Debug, Clone, Copy)]
struct HandlerOptions {
    /// `--trace-store`: say that the handler started.
    trace: bool,
    /// `--tool-delay`.
    delay: Duration,
}

/// A command-line tool's handler starts; returns how long it waits before answering.
fn started(call: &ToolInvocation, options: HandlerOptions) -> Duration {
    if options.trace {
        store_trace::tool_ran(&call.tool_call_id);
    }
    options.delay
}

fn command_line_tools(args: &RunArgs) -> Result<Vec<ClientTool>, String> {
    let consent = if args.consent.is_some() { Consent::Ask } else { Consent::RunAtOnce };
    Ok(declared_tools(args)?.into_iter().map(|tool| tool.with_consent(consent)).collect())
}

fn declared_tools(args: &RunArgs) -> Result<Vec<ClientTool>, String> {
    let handler = HandlerOptions { trace: args.trace_store, delay: Duration::from_millis(args.tool_delay_ms) };
    let mut tools = Vec::new();
    for spec in &args.tools {
        let (name, answer) = split_pair("--tool", spec)?;
        let answer: Value = serde_json::from_str(answer).map_err(|e| format!("--tool {name}: not JSON: {e}"))?;
        let description = format!("{name} (answered by the agentui command line)");
        let tool = ClientTool::new(name, description, permissive_parameters(), move |call: ToolInvocation| {
            let answer = answer.clone();
            let delay = started(&call, handler);
            async move {
                tokio::time::sleep(delay).await;
                Ok(answer)
            }
        });
        tools.push(tool.map_err(|e| e.to_string())?);
    }
    for spec in &args.tool_errors {
        let (name, text) = split_pair("--tool-error", spec)?;
        let text = text.to_owned();
        let description = format!("{name} (fails on the agentui command line)");
        let tool = ClientTool::new(name, description, permissive_parameters(), move |call: ToolInvocation| {
            let error = ToolError::new(text.clone());
            let delay = started(&call, handler);
            async move {
                tokio::time::sleep(delay).await;
                Err(error)
            }
        });
        tools.push(tool.map_err(|e| e.to_string())?);
    }
    Ok(tools)
}

fn text_of(value: &Value) -> String {
    value.as_str().map(str::to_owned).unwrap_or_else(|| value.to_string())
}

fn parse_headers(headers: &[String]) -> Result<Vec<(String, String)>, String> {
    headers
        .iter()
        .map(|h| h.split_once(':').map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned())))
        .collect::<Option<_>>()
        .ok_or_else(|| "headers are written NAME:VALUE".to_owned())
}

/// Where a [`Printer`] writes: stdout, or a buffer a test reads.
type Output = Box<dyn Write + Send>;

/// Writes a conversation's deltas to stdout: a transcript, or JSON lines.
pub(crate) struct Printer {
    json: bool,
    out: Mutex<Output>,
    /// Bytes of each assistant message already printed, so only the new text goes out (also
    /// after a fresh snapshot, when this printer fell behind).
    printed: Mutex<HashMap<String, usize>>,
    /// Roles of the messages seen, to tell assistant text from other streamed text.
    roles: Mutex<HashMap<String, Role>>,
    /// Messages whose media parts were listed already.
    media_listed: Mutex<std::collections::HashSet<String>>,
}

impl Printer {
    pub(crate) fn new(json: bool) -> Self {
        Self::with_output(json, Box::new(std::io::stdout()))
    }

    fn with_output(json: bool, out: Output) -> Self {
        Printer {
            json,
            out: Mutex::new(out),
            printed: Mutex::new(HashMap::new()),
            roles: Mutex::new(HashMap::new()),
            media_listed: Mutex::new(Default::default()),
        }
    }

    /// Writes `text` and flushes: each piece shows as it streams.
    fn write(&self, text: std::fmt::Arguments<'_>) {
        let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(e) = out.write_fmt(text).and_then(|()| out.flush()) {
            crate::output::failed(&e);
        }
    }

    fn emit(&self, line: Value) {
        self.write(format_args!("{line}\n"));
    }

    /// A line of the transcript that is no conversation delta (a note of the command line's own).
    fn note_line(&self, text: &str) {
        if !self.json {
            self.write(format_args!("\n  [{text}]\n"));
        }
    }

    /// What the command line did on a surface: the JSON line as it is, or a transcript line.
    fn gesture(&self, line: Value) {
        if self.json {
            return self.emit(line);
        }
        let target = format!("{}/{}", text_of(&line["surfaceId"]), text_of(&line["nodeId"]));
        match line["type"].as_str() {
            Some("set") => self.write(format_args!(
                "\n  [you set {} {} = {}]\n",
                text_of(&line["surfaceId"]),
                text_of(&line["path"]),
                line["value"]
            )),
            Some("action") => self.write(format_args!("\n  [you press {target}]\n")),
            Some("openUrl") => self.write(format_args!(
                "\n  [{target} opens {} (not opened by the command line)]\n",
                text_of(&line["url"])
            )),
            _ => self.write(format_args!("\n  [{line}]\n")),
        }
    }

    /// A conversation restored from a store: its history is shown once, as history, and the
    /// subscription's first snapshot then prints nothing of it again.
    fn restored(&self, snapshot: &ConversationSnapshot, path: &Path) {
        self.mark_media_listed(&snapshot.messages);
        for message in &snapshot.messages {
            self.note(message);
            if let Some(text) = message.text() {
                self.printed.lock().unwrap_or_else(|p| p.into_inner()).insert(message.id.clone(), text.len());
            }
        }
        if self.json {
            self.emit(json!({"type": "restored", "store": path, "conversation": conversation_json(snapshot)}));
        } else {
            self.write(format_args!(
                "thread {}, restored from {} ({} messages):\n",
                snapshot.thread_id,
                path.display(),
                snapshot.messages.len()
            ));
            store::print_transcript(snapshot);
            self.write(format_args!("run: {}\n", crate::conversation_json::status(&snapshot.phase)));
        }
    }

    fn role(&self, message_id: &str) -> Option<Role> {
        self.roles.lock().unwrap_or_else(|p| p.into_inner()).get(message_id).copied()
    }

    fn note(&self, message: &Message) {
        self.roles.lock().unwrap_or_else(|p| p.into_inner()).insert(message.id.clone(), message.role);
    }

    /// Counts `piece` as printed for `message_id`; true if it is the message's first text.
    fn mark_printed(&self, message_id: &str, piece: &str) -> bool {
        let mut printed = self.printed.lock().unwrap_or_else(|p| p.into_inner());
        let done = printed.entry(message_id.to_owned()).or_insert(0);
        let first = *done == 0;
        *done += piece.len();
        first
    }

    /// The part of a whole assistant message's text not printed yet, and whether it is the first.
    fn new_text(&self, message: &Message) -> Option<(String, bool)> {
        let text = message.text()?;
        let mut printed = self.printed.lock().unwrap_or_else(|p| p.into_inner());
        let done = printed.entry(message.id.clone()).or_insert(0);
        let first = *done == 0;
        let delta = text.get(*done..).unwrap_or_default().to_owned();
        *done = text.len();
        (!delta.is_empty()).then_some((delta, first))
    }

    fn print_text(&self, delta: &str, first: bool) {
        self.write(format_args!("{}{delta}", if first { "\nagent: " } else { "" }));
    }

    pub(crate) fn on_observed(&self, item: &Observed) {
        match item {
            Observed::Delta(delta) => self.on_delta(delta),
            // First, or after falling behind: what was not printed yet of each message.
            Observed::Snapshot(snapshot) => {
                snapshot.messages.iter().for_each(|m| self.note(m));
                self.mark_media_listed(&snapshot.messages);
                self.print_unprinted(&snapshot.messages);
            }
        }
    }

    /// The text of each assistant message in `messages` not printed yet. (In JSON lines, a
    /// message with tool calls goes out whole as a `message` line, its text included.)
    fn print_unprinted(&self, messages: &[Message]) {
        for message in messages {
            if message.role != Role::Assistant || (self.json && message.tool_calls.is_some()) {
                continue;
            }
            if let Some((delta, first)) = self.new_text(message) {
                if self.json {
                    self.emit(json!({"type": "text", "messageId": message.id, "delta": delta}));
                } else {
                    self.print_text(&delta, first);
                }
            }
        }
    }

    fn on_delta(&self, delta: &ConversationDelta) {
        if let ConversationDelta::MessageAdded(m) | ConversationDelta::MessageReplaced(m) = delta {
            self.note(m);
        }
        if let ConversationDelta::MessagesReset(ms) = delta {
            ms.iter().for_each(|m| self.note(m));
        }
        if self.json {
            if let Some(line) = self.json_line(delta) {
                self.emit(line);
            }
        }
        // A reset read late holds the messages as they are then, and the text streamed onto
        // them meanwhile is not delivered again (see `ConversationDelta::MessagesReset`): the
        // reset is where that text is read.
        if let ConversationDelta::MessagesReset(messages) = delta {
            self.print_unprinted(messages);
        }
        if self.json {
            return;
        }
        match delta {
            ConversationDelta::MessageAdded(m) | ConversationDelta::MessageReplaced(m) if m.role == Role::Assistant => {
                if let Some((delta, first)) = self.new_text(m) {
                    self.print_text(&delta, first);
                }
            }
            ConversationDelta::TextAppended { message_id, delta } => {
                if self.role(message_id) == Some(Role::Assistant) {
                    let first = self.mark_printed(message_id, delta);
                    self.print_text(delta, first);
                }
            }
            ConversationDelta::MessageAdded(m) | ConversationDelta::MessageReplaced(m) => self.list_media(m),
            // A message may arrive only inside a reset (an agent's MESSAGES_SNAPSHOT).
            ConversationDelta::MessagesReset(messages) => messages.iter().for_each(|m| self.list_media(m)),
            ConversationDelta::ToolCallArgsAppended { .. }
            | ConversationDelta::RunPhase(_)
            | ConversationDelta::Interrupts(_) => {}
            ConversationDelta::Consent { requests, .. } => {
                for request in requests {
                    outln!(
                        "\n  [tool {} {} waits for your consent, arguments {}]",
                        request.tool_name,
                        request.tool_call_id,
                        request.arguments
                    );
                }
            }
            ConversationDelta::ToolCall(call) => match &call.phase {
                ToolCallPhase::Streaming => {}
                phase => self.write(format_args!(
                    "\n  [tool {} {}: {}]\n",
                    call.tool_name,
                    call.tool_call_id,
                    phase_label(phase)
                )),
            },
            // Every message and action waits here until the agent takes it: worth a line only
            // when an attempt failed.
            ConversationDelta::PendingSends(pending) => {
                if let Some(failed) = pending.iter().find(|p| p.attempts > 0) {
                    let error = failed.last_error.as_deref().unwrap_or("not reached");
                    self.write(format_args!("\n  [{} waiting for the agent; last attempt: {error}]\n", pending.len()));
                }
            }
            other => self.write(format_args!("\n  [{other}]\n")),
        }
    }

    /// Messages from before the turn: a reset that carries them again lists no media of theirs.
    fn mark_media_listed(&self, messages: &[Message]) {
        let mut listed = self.media_listed.lock().unwrap_or_else(|p| p.into_inner());
        listed.extend(messages.iter().map(|m| m.id.clone()));
    }

    /// The media parts of `message` on a line each, the first time the message shows them.
    fn list_media(&self, message: &Message) {
        let media = media_parts(message);
        if !media.is_empty() && self.media_listed.lock().unwrap_or_else(|p| p.into_inner()).insert(message.id.clone()) {
            for part in media {
                self.write(format_args!("\n  [{} {}]\n", message.role.as_str(), media_label(&part)));
            }
        }
    }

    /// The media parts of `message` not listed yet, each naming its message and role (for a
    /// reset's JSON line); marks them listed.
    fn unlisted_media(&self, message: &Message) -> Vec<Value> {
        let media = media_parts(message);
        if media.is_empty() || !self.media_listed.lock().unwrap_or_else(|p| p.into_inner()).insert(message.id.clone()) {
            return Vec::new();
        }
        media
            .into_iter()
            .map(|mut part| {
                part["messageId"] = json!(message.id);
                part["role"] = json!(message.role.as_str());
                part
            })
            .collect()
    }

    fn json_line(&self, delta: &ConversationDelta) -> Option<Value> {
        Some(match delta {
            ConversationDelta::MessageAdded(m) | ConversationDelta::MessageReplaced(m)
                if m.role == Role::Assistant && m.tool_calls.is_none() =>
            {
                json!({"type": "text", "messageId": m.id, "delta": self.new_text(m)?.0})
            }
            ConversationDelta::MessageAdded(m) | ConversationDelta::MessageReplaced(m) => {
                let mut line = json!({"type": "message", "message": m.to_json()});
                let media = media_parts(m);
                if !media.is_empty() {
                    self.media_listed.lock().unwrap_or_else(|p| p.into_inner()).insert(m.id.clone());
                    line["media"] = Value::Array(media);
                }
                line
            }
            ConversationDelta::TextAppended { message_id, delta } => {
                let role = self.role(message_id);
                if role == Some(Role::Assistant) {
                    self.mark_printed(message_id, delta);
                }
                let mut line = json!({"type": "text", "messageId": message_id, "delta": delta});
                if let Some(role) = role.filter(|r| *r != Role::Assistant) {
                    line["role"] = json!(role.as_str());
                }
                line
            }
            ConversationDelta::ToolCallArgsAppended { message_id, tool_call_id, delta } => {
                json!({"type": "toolCallArgs", "messageId": message_id, "toolCallId": tool_call_id, "delta": delta})
            }
            ConversationDelta::MessagesReset(ms) => {
                let mut line = json!({"type": "messagesReset", "count": ms.len()});
                // A message may arrive only inside a reset (an agent's MESSAGES_SNAPSHOT): its
                // media go out here, once, as the transcript lists them.
                let media: Vec<Value> = ms.iter().flat_map(|m| self.unlisted_media(m)).collect();
                if !media.is_empty() {
                    line["media"] = Value::Array(media);
                }
                line
            }
            ConversationDelta::MessageKeptLocal { message_id, reason } => {
                json!({"type": "keptLocal", "messageId": message_id, "reason": format!("{reason:?}")})
            }
            ConversationDelta::RunPhase(phase) => phase_json(phase),
            ConversationDelta::ToolCall(t) => {
                let mut line = tool_call_json(t);
                line["type"] = json!("toolCall");
                line
            }
            ConversationDelta::StateReplaced(state) => json!({"type": "state", "state": state}),
            ConversationDelta::StatePatched(ops) => json!({"type": "statePatch", "patch": ops}),
            ConversationDelta::StateResyncNeeded { reason } => json!({"type": "stateResyncNeeded", "reason": reason}),
            ConversationDelta::Interrupts(pending) => {
                json!({"type": "interrupts", "pending": interrupts_json(pending)})
            }
            ConversationDelta::Consent { requests, granted_tools } => {
                json!({"type": "consent", "requests": consent_requests_json(requests), "grantedTools": granted_tools})
            }
            ConversationDelta::Warning(w) => {
                json!({"type": "warning", "kind": format!("{:?}", w.kind), "message": w.message})
            }
            ConversationDelta::Custom { name, value } => json!({"type": "custom", "name": name, "value": value}),
            ConversationDelta::PendingSends(pending) => {
                json!({"type": "pendingSends", "pending": pending.iter().map(pending_send_json).collect::<Vec<_>>()})
            }
            ConversationDelta::Raw { event, source } => json!({"type": "raw", "event": event, "source": source}),
            ConversationDelta::Step { name, started } => json!({"type": "step", "name": name, "started": started}),
            ConversationDelta::SurfaceAdded(entry) => {
                json!({"type": "surface", "event": delta.to_string(), "surfaceId": entry.surface_id})
            }
            ConversationDelta::SurfaceRemoved { surface_id } => {
                json!({"type": "surface", "event": delta.to_string(), "surfaceId": surface_id})
            }
        })
    }
}

/// Awaits `call` while printing what the conversation streams; once it returns, prints what is
/// left (the call returns after its run's last delta was queued for every subscriber).
pub(crate) async fn printing<T>(
    subscription: &mut Subscription,
    printer: &Printer,
    call: impl std::future::Future<Output = T>,
) -> T {
    tokio::pin!(call);
    let out = loop {
        tokio::select! {
            biased;
            out = &mut call => break out,
            Ok(Some(item)) = subscription.recv() => printer.on_observed(&item),
        }
    };
    while let Some(item) = subscription.try_recv() {
        printer.on_observed(&item);
    }
    out
}

fn phase_label(phase: &ToolCallPhase) -> String {
    match phase {
        ToolCallPhase::Succeeded { result } => format!("succeeded -> {result}"),
        ToolCallPhase::Failed { failure } => format!("failed: {failure}"),
        ToolCallPhase::AwaitingInterrupt { interrupt_id } => format!("awaiting interrupt {interrupt_id}"),
        other => tool_phase_name(other).to_owned(),
    }
}

/// A run phase as a `--json` line. An interrupted run keeps its own line type.
fn phase_json(phase: &RunPhase) -> Value {
    if let RunPhase::Interrupted { run_id, interrupts } = phase {
        return json!({"type": "interrupt", "runId": run_id, "interrupts": interrupts_json(interrupts)});
    }
    let mut line = run_phase_json(phase);
    line["type"] = json!("run");
    line
}

/// The payloads tried for an approval (or refusal), most general first; the first one the
/// interrupt's `responseSchema` accepts is sent. A bare boolean is what ADK's confirmation and
/// most LangGraph graphs read; `approved`/`confirmed` objects cover schemas that want one.
fn decision_payloads(approve: bool) -> [Value; 3] {
    [json!(approve), json!({"approved": approve}), json!({"confirmed": approve})]
}

fn ask(interrupt: &Interrupt) -> Result<bool, String> {
    let what = interrupt.message.as_deref().unwrap_or(&interrupt.reason);
    eprint!("agent asks: {what}\napprove interrupt {}? [y/n] ", interrupt.id);
    let _ = std::io::stderr().flush();
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).map_err(|e| format!("cannot read the answer: {e}"))?;
    Ok(matches!(line.trim().to_ascii_lowercase().as_str(), "y" | "yes"))
}

/// The user's answer to `request`, read from the terminal: y, a or n.
fn ask_consent(request: &ConsentRequest) -> Result<ConsentAnswer, String> {
    eprint!(
        "the agent calls tool {} with {}\nrun it? [y = once / a = always / n = no] ",
        request.tool_name, request.arguments
    );
    let _ = std::io::stderr().flush();
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).map_err(|e| format!("cannot read the answer: {e}"))?;
    Ok(match line.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => ConsentAnswer::AllowOnce,
        "a" | "always" => ConsentAnswer::AllowAlways,
        _ => ConsentAnswer::Decline,
    })
}

/// Answers every consent request waiting by `policy`; the follow-up run of the last answer
/// (`None` when nothing waited or there is no policy).
async fn answer_consent(
    conversation: &Conversation,
    subscription: &mut Subscription,
    printer: &Printer,
    policy: Option<ConsentPolicy>,
) -> Result<Option<Result<RunSummary, SessionError>>, String> {
    let Some(policy) = policy else { return Ok(None) };
    let waiting = conversation.snapshot().map_err(|e| e.to_string())?.consent_requests;
    let mut last = None;
    for request in waiting {
        let answer = match policy {
            ConsentPolicy::Allow => ConsentAnswer::AllowOnce,
            ConsentPolicy::Deny => ConsentAnswer::Decline,
            ConsentPolicy::Ask => ask_consent(&request)?,
        };
        match printing(subscription, printer, conversation.answer_consent(&request.tool_call_id, answer)).await {
            Ok(Some(summary)) => last = Some(Ok(summary)),
            Ok(None) => {}
            // A request answered meanwhile (by the app's other handle) is not the turn's error.
            Err(SessionError::UnknownConsentRequest { .. }) => {}
            Err(e) => return Ok(Some(Err(e))),
        }
    }
    Ok(last)
}

/// Answers every pending interrupt by `policy`; false when there is none to answer it.
fn answer_interrupts(
    conversation: &Conversation,
    pending: &[Interrupt],
    policy: Option<InterruptPolicy>,
) -> Result<bool, String> {
    let Some(policy) = policy else { return Ok(false) };
    for interrupt in pending {
        let approve = match policy {
            InterruptPolicy::Approve => true,
            InterruptPolicy::Reject => false,
            InterruptPolicy::Ask => ask(interrupt)?,
        };
        let mut last_error = None;
        let answered = decision_payloads(approve).into_iter().any(|payload| {
            match conversation.resolve_interrupt(&interrupt.id, Some(payload)) {
                Ok(()) => true,
                Err(e) => {
                    last_error = Some(e.to_string());
                    false
                }
            }
        });
        if !answered {
            return Err(format!(
                "cannot answer interrupt {}: {}",
                interrupt.id,
                last_error.unwrap_or_else(|| "refused".to_owned())
            ));
        }
    }
    Ok(true)
}

/// How the turn ended, for the exit code and the final line.
enum TurnEnd {
    Completed(RunSummary),
    Interrupted(RunSummary),
    Failed(SessionError),
}

/// How the command line answers what the agent waits for.
#[derive(Debug, Clone, Copy)]
struct Answers {
    interrupts: Option<InterruptPolicy>,
    consent: Option<ConsentPolicy>,
}

/// Plays a turn from its first run's result: answers interrupts and consent requests by policy
/// and continues until the agent is done or stops at an interrupt nobody answers.
async fn finish_turn(
    conversation: &Conversation,
    subscription: &mut Subscription,
    printer: &Printer,
    mut result: Result<RunSummary, SessionError>,
    answers: Answers,
) -> Result<TurnEnd, String> {
    // Every request of the turn counts: the runs before an interrupt's resume or a consent's
    // follow-up are in the summaries before the last.
    let mut earlier_runs = Vec::new();
    for _ in 0..MAX_INTERRUPT_ROUNDS {
        match result {
            Ok(summary) if matches!(summary.phase, RunPhase::Interrupted { .. }) => {
                if !answer_interrupts(conversation, &summary.pending_interrupts, answers.interrupts)? {
                    return Ok(TurnEnd::Interrupted(with_runs_before(earlier_runs, summary)));
                }
                earlier_runs.extend(summary.run_ids);
                result = printing(subscription, printer, conversation.continue_run()).await;
            }
            Ok(summary) => match answer_consent(conversation, subscription, printer, answers.consent).await? {
                Some(follow_up) => {
                    earlier_runs.extend(summary.run_ids);
                    result = follow_up;
                }
                None => return Ok(TurnEnd::Completed(with_runs_before(earlier_runs, summary))),
            },
            Err(e) => return Ok(TurnEnd::Failed(e)),
        }
    }
    match result {
        Ok(summary) => Ok(TurnEnd::Interrupted(with_runs_before(earlier_runs, summary))),
        Err(e) => Ok(TurnEnd::Failed(e)),
    }
}

/// `summary` with the run ids of the turn's earlier requests first.
fn with_runs_before(mut earlier_runs: Vec<String>, mut summary: RunSummary) -> RunSummary {
    earlier_runs.append(&mut summary.run_ids);
    summary.run_ids = earlier_runs;
    summary
}

/// The `--set`s, then each `--action` run to completion; stops at the first turn that does not
/// complete. `end` is the message's turn; returns the last turn's end.
async fn play_gestures(
    conversation: &Conversation,
    subscription: &mut Subscription,
    printer: &Printer,
    gestures: &Gestures,
    answers: Answers,
    mut end: TurnEnd,
) -> Result<TurnEnd, String> {
    if !matches!(end, TurnEnd::Completed(_)) {
        if !gestures.is_empty() {
            printer.note_line("--set and --action were skipped: the turn did not complete");
        }
        return Ok(end);
    }
    for set in &gestures.sets {
        conversation
            .set_value(&set.surface_id, &set.pointer, set.value.clone())
            .map_err(|e| format!("--set {}:{}: {e}", set.surface_id, set.pointer))?;
        printer.gesture(json!({"type": "set", "surfaceId": set.surface_id, "path": set.pointer, "value": set.value}));
    }
    for press in &gestures.presses {
        printer.gesture(json!({"type": "action", "surfaceId": press.surface_id, "nodeId": press.node_id}));
        let dispatched = conversation.dispatch_action(&press.surface_id, &press.node_id);
        end = match printing(subscription, printer, dispatched).await {
            Ok(ActionResult::Ran(summary)) => {
                finish_turn(conversation, subscription, printer, Ok(*summary), answers).await?
            }
            Ok(ActionResult::OpenUrl(url)) => {
                printer.gesture(
                    json!({"type": "openUrl", "surfaceId": press.surface_id, "nodeId": press.node_id, "url": url}),
                );
                continue;
            }
            Ok(ActionResult::Handled) => continue,
            Err(SessionError::A2ui(e)) => return Err(format!("--action {press}: {e}")),
            Err(e) => TurnEnd::Failed(e),
        };
        if !matches!(end, TurnEnd::Completed(_)) {
            break;
        }
    }
    Ok(end)
}

/// The conversation `run` plays: in memory, or opened on the `--store` file (returned too, to be
/// flushed before the process exits).
fn start_conversation(
    args: &RunArgs,
    session: ConversationSession,
    printer: &Printer,
) -> Result<(Conversation, Option<ConversationStore>), String> {
    let runtime = tokio::runtime::Handle::current();
    let Some(path) = &args.store else {
        return Ok((Conversation::start(session, runtime), None));
    };
    let store = store::open(path)?;
    let flushed = store.clone();
    crate::output::before_exit(move || flushed.flush());
    if args.trace_store {
        store.set_write_observer(Some(Arc::new(StoreTrace)));
    }
    let thread_id = session.thread_id().to_owned();
    let stored = store.load(&thread_id).map_err(|e| store::store_error(path, e))?.is_some();
    if args.resume.is_some() && !stored {
        return Err(store::store_error(path, StoreError::NotFound { thread_id }));
    }
    let conversation =
        Conversation::open(session, &store, &args.url, runtime).map_err(|e| store::store_error(path, e))?;
    if stored {
        printer.restored(&conversation.snapshot().map_err(|e| e.to_string())?, path);
    } else if !args.json {
        outln!("thread {thread_id}, stored in {}", path.display());
    }
    Ok((conversation, Some(store)))
}

/// `agentui run URL MESSAGE [options]`.
pub fn run(args: &RunArgs) -> Result<ExitCode, String> {
    let headers = parse_headers(&args.headers)?;
    let options = session_options(args)?;
    let tools = command_line_tools(args)?;
    let state = match &args.state {
        Some(text) => Some(serde_json::from_str::<Value>(text).map_err(|e| format!("--state: not JSON: {e}"))?),
        None => None,
    };
    let gestures = Gestures::parse(&args.sets, &args.actions)?;
    let attachments = args.attachments.iter().map(|a| parse_attachment(a)).collect::<Result<Vec<_>, _>>()?;
    let interrupts = args.interrupts.or_else(|| std::io::stdin().is_terminal().then_some(InterruptPolicy::Ask));
    if args.consent == Some(ConsentPolicy::Ask) && !std::io::stdin().is_terminal() {
        // Reading answers from a pipe would wait for ever or decide by accident.
        return Err("--consent ask reads the answers from a terminal, and stdin is not one".to_owned());
    }
    let answers = Answers { interrupts, consent: args.consent };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        // Recording: the run talks to the proxy, which passes everything on to the agent.
        let recorder = match &args.record {
            Some(dir) => {
                Some(crate::record::start_recording(&args.url, dir, args.record_headers, &options.transport.tls).await?)
            }
            None => None,
        };
        let url = recorder.as_ref().map_or_else(|| args.url.clone(), |r| r.url());
        let mut session = ConversationSession::connect(&url, &headers, options).map_err(|e| e.to_string())?;
        if let Some(state) = state {
            session.set_state(state);
        }
        let printer = Printer::new(args.json);
        // The same runtime the apps use: the conversation actor and its subscription.
        let (conversation, store) = start_conversation(args, session, &printer)?;
        for tool in tools {
            conversation.register_tool(tool).map_err(|e| e.to_string())?;
        }
        let mut subscription = conversation.subscribe();
        if !args.json {
            outln!("you: {}", args.message);
        }
        let first = if attachments.is_empty() {
            printing(&mut subscription, &printer, conversation.send_message(args.message.clone())).await
        } else {
            printing(&mut subscription, &printer, conversation.send(args.message.clone(), attachments)).await
        };
        let end = finish_turn(&conversation, &mut subscription, &printer, first, answers).await?;
        let end = play_gestures(&conversation, &mut subscription, &printer, &gestures, answers, end).await?;
        if let Some(store) = &store {
            // Everything the turn applied is on disk before the final word.
            store.flush();
        }
        let (status, code, detail) = match &end {
            TurnEnd::Completed(_) => ("completed", ExitCode::SUCCESS, None),
            TurnEnd::Interrupted(_) => ("interrupted", ExitCode::from(EXIT_INTERRUPTED), None),
            TurnEnd::Failed(e) => ("failed", ExitCode::from(1), Some(e.to_string())),
        };
        let snapshot = conversation.snapshot().map_err(|e| e.to_string())?;
        if args.json {
            // The turn's own word for how it ended, on the shape `store show --json` prints.
            let mut last = conversation_json(&snapshot);
            last["status"] = json!(status);
            if let Some(detail) = detail {
                last["error"] = json!(detail);
            }
            printer.emit(json!({"final": last}));
        } else {
            outln!();
            for entry in &snapshot.surfaces {
                if let Some(surface) = conversation.surface(&entry.surface_id) {
                    out!("{}", tree::render_snapshot(&surface));
                }
            }
            match &end {
                TurnEnd::Completed(summary) => {
                    outln!("run finished: {:?} ({} run(s))", summary.phase, summary.run_ids.len())
                }
                TurnEnd::Interrupted(summary) => outln!(
                    "run stopped at {} unanswered interrupt(s); pass --interrupts approve|reject|ask to answer",
                    summary.pending_interrupts.len()
                ),
                TurnEnd::Failed(e) => outln!("run failed: {e}"),
            }
        }
        if let Some(recorder) = recorder {
            // Every body has ended by now; stopping waits for the last answer to be written.
            recorder.shutdown().await.map_err(|e| e.to_string())?;
        }
        Ok(code)
    })
}

/// The session options of `run`: the defaults with the `--ca-cert` / `--pin` / `--trust-store`
/// trust and the `--locale` / `--time-zone` localization.
fn session_options(args: &RunArgs) -> Result<SessionOptions, String> {
    let thread_id = args.resume.clone().or_else(|| args.thread_id.clone());
    let mut options = SessionOptions { thread_id, ..SessionOptions::default() };
    options.transport.tls = args.tls.options()?;
    if let Some(command) = &args.header_command {
        let provider = crate::header_command::HeaderCommand::new(command.clone());
        options.transport.header_provider = Some(SharedHeaderProvider::new(provider));
    }
    options.localization = args.locale.localization()?;
    // The files are the user's own choice: any type goes (the sizes are still bounded).
    options.attachments = AttachmentPolicy { allowed_mime_types: vec!["*/*".to_owned()] };
    Ok(options)
}

/// `PATH[:MIME]` of `--attach`: the MIME type after the last colon when it looks like one,
/// guessed from the extension otherwise.
pub(crate) fn parse_attachment(spec: &str) -> Result<Attachment, String> {
    let (path, mime) = match spec.rsplit_once(':') {
        Some((path, mime)) if mime.contains('/') && !path.is_empty() => (path, Some(mime.to_owned())),
        _ => (spec, None),
    };
    let path = std::path::Path::new(path);
    let mime = match mime {
        Some(mime) => mime,
        None => {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default().to_ascii_lowercase();
            let guessed = match ext.as_str() {
                "png" => "image/png",
                "jpg" | "jpeg" => "image/jpeg",
                "gif" => "image/gif",
                "webp" => "image/webp",
                "pdf" => "application/pdf",
                "txt" => "text/plain",
                "mp3" => "audio/mpeg",
                "wav" => "audio/wav",
                "ogg" => "audio/ogg",
                "m4a" => "audio/mp4",
                "mp4" => "video/mp4",
                "mov" => "video/quicktime",
                _ => return Err(format!("--attach {spec}: no MIME type; write it as PATH:TYPE/SUBTYPE")),
            };
            guessed.to_owned()
        }
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| path.display().to_string());
    Ok(Attachment::file(name, mime, path))
}

/// What a listing shows of each media part of `message`: kind, MIME type, name, and the decoded
/// length of inline data or the URL (never the data itself).
pub(crate) fn media_parts(message: &Message) -> Vec<Value> {
    let Some(MessageContent::Parts(parts)) = &message.content else { return Vec::new() };
    parts
        .iter()
        .filter_map(|part| {
            let media = match part {
                ContentPart::Image(p) | ContentPart::Audio(p) | ContentPart::Video(p) | ContentPart::Document(p) => p,
                ContentPart::Text(_) => return None,
            };
            let mut line = json!({"kind": part.kind()});
            if let Some(name) = media.metadata.as_ref().and_then(|m| m.get("filename")).and_then(Value::as_str) {
                line["name"] = json!(name);
            }
            match &media.source {
                PartSource::Data { value, mime_type } => {
                    line["mimeType"] = json!(mime_type);
                    let padding = value.bytes().rev().take_while(|b| *b == b'=').count();
                    // A part the store holds in its file says how long it is.
                    let stored = media.metadata.as_ref().and_then(|m| m.get(agentui_runtime::store::STORED_KEY));
                    line["bytes"] = match stored.and_then(|s| s.get("bytes")) {
                        Some(bytes) => bytes.clone(),
                        None => json!((value.len() / 4 * 3).saturating_sub(padding)),
                    };
                }
                PartSource::Url { value, mime_type } => {
                    line["mimeType"] = json!(mime_type);
                    line["url"] = json!(value);
                }
                PartSource::File { value, mime_type, .. } => {
                    line["mimeType"] = json!(mime_type);
                    line["fileId"] = json!(value);
                }
            }
            Some(line)
        })
        .collect()
}

/// One media part on one line: `image image/png gradient.png, 166 bytes`.
pub(crate) fn media_label(part: &Value) -> String {
    let text = |key: &str| part[key].as_str().unwrap_or("-").to_owned();
    let what = match (&part["bytes"], &part["url"], &part["fileId"]) {
        (Value::Number(n), _, _) => format!("{n} bytes"),
        (_, Value::String(url), _) => url.clone(),
        (_, _, Value::String(id)) => format!("file {id}"),
        _ => String::new(),
    };
    format!("{} {} {}, {what}", text("kind"), text("mimeType"), text("name"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a printer wrote, read back by the test.
    #[derive(Clone, Default)]
    struct Written(Arc<Mutex<Vec<u8>>>);

    impl Write for Written {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Written {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    fn printer(json: bool) -> (Printer, Written) {
        let written = Written::default();
        (Printer::with_output(json, Box::new(written.clone())), written)
    }

    fn message(value: Value) -> Message {
        serde_json::from_value(value).unwrap()
    }

    fn user() -> Message {
        message(json!({"id": "u1", "role": "user", "content": "delete the report"}))
    }

    /// The thread of ADK's confirmation flow once the follow-up run answered: the result of
    /// the first call lands before the confirmation call, so observers get the whole list.
    fn after_the_confirmation(answer: &str) -> Vec<Message> {
        vec![
            user(),
            message(json!({"id": "a1", "role": "assistant", "toolCalls": [
                {"id": "c1", "type": "function", "function": {"name": "delete_file", "arguments": "{}"}}]})),
            message(
                json!({"id": "r1", "role": "tool", "toolCallId": "c1", "content": "{\"deleted\": \"/tmp/report.txt\"}"}),
            ),
            message(json!({"id": "a2", "role": "assistant", "toolCalls": [
                {"id": "c2", "type": "function", "function": {"name": "adk_request_confirmation", "arguments": "{}"}}]})),
            message(json!({"id": "r2", "role": "tool", "toolCallId": "c2", "content": "{\"confirmed\":true}"})),
            message(json!({"id": "t1", "role": "assistant", "content": answer})),
        ]
    }

    fn first_snapshot() -> Observed {
        Observed::Snapshot(Box::new(ConversationSnapshot { messages: vec![user()], ..Default::default() }))
    }

    /// A reset read after the agent's answer streamed holds the answer, and the streamed pieces
    /// are not delivered again (`ConversationDelta::MessagesReset`): the transcript prints it
    /// from the reset.
    #[test]
    fn the_transcript_prints_an_answer_that_arrives_inside_a_messages_reset() {
        let (printer, written) = printer(false);
        printer.on_observed(&first_snapshot());
        printer.on_observed(&Observed::Delta(ConversationDelta::MessagesReset(after_the_confirmation(
            "Deleted /tmp/report.txt",
        ))));
        assert_eq!(written.text(), "\nagent: Deleted /tmp/report.txt");
    }

    #[test]
    fn json_lines_carry_an_answer_that_arrives_inside_a_messages_reset() {
        let (printer, written) = printer(true);
        printer.on_observed(&first_snapshot());
        printer.on_observed(&Observed::Delta(ConversationDelta::MessagesReset(after_the_confirmation(
            "Deleted /tmp/report.txt",
        ))));
        let lines: Vec<Value> = written.text().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(
            lines,
            [
                json!({"type": "messagesReset", "count": 6}),
                json!({"type": "text", "messageId": "t1", "delta": "Deleted /tmp/report.txt"}),
            ]
        );
    }

    /// What streamed before the reset is not printed twice: only the rest of the message.
    #[test]
    fn a_reset_prints_only_the_text_not_printed_yet() {
        let (printer, written) = printer(false);
        printer.on_observed(&first_snapshot());
        let streaming = message(json!({"id": "t1", "role": "assistant", "content": ""}));
        printer.on_observed(&Observed::Delta(ConversationDelta::MessageAdded(streaming)));
        printer.on_observed(&Observed::Delta(ConversationDelta::TextAppended {
            message_id: "t1".into(),
            delta: "Deleted ".into(),
        }));
        let answered =
            Observed::Delta(ConversationDelta::MessagesReset(after_the_confirmation("Deleted /tmp/report.txt")));
        printer.on_observed(&answered);
        // A later reset with nothing new prints nothing.
        printer.on_observed(&answered);
        assert_eq!(written.text(), "\nagent: Deleted /tmp/report.txt");
    }

    /// A message that arrives only inside a reset (a `MESSAGES_SNAPSHOT` with a tool's image)
    /// has its media listed like one added on its own, once.
    #[test]
    fn the_transcript_lists_the_media_of_messages_that_arrive_inside_a_reset() {
        let (printer, written) = printer(false);
        printer.on_observed(&first_snapshot());
        let chart = message(json!({"id": "r9", "role": "tool", "toolCallId": "c9", "content": [
            {"type": "image", "source": {"type": "data", "value": "iVBORw0KGgo=", "mimeType": "image/png"},
             "metadata": {"filename": "chart.png"}}]}));
        let reset = Observed::Delta(ConversationDelta::MessagesReset(vec![user(), chart]));
        printer.on_observed(&reset);
        printer.on_observed(&reset);
        assert_eq!(written.text(), "\n  [tool image image/png chart.png, 8 bytes]\n");
    }

    /// JSON lines carry the media of messages that arrive inside a reset as the transcript
    /// lists them: once, on the reset's line, each part naming its message and role. A message
    /// whose media went out on its own `message` line is not listed again.
    #[test]
    fn json_lines_carry_the_media_of_messages_that_arrive_inside_a_reset() {
        let (printer, written) = printer(true);
        printer.on_observed(&first_snapshot());
        let photo = message(json!({"id": "u2", "role": "user", "content": [
            {"type": "text", "text": "what is this?"},
            {"type": "image", "source": {"type": "data", "value": "AAAA", "mimeType": "image/jpeg"}}]}));
        printer.on_observed(&Observed::Delta(ConversationDelta::MessageAdded(photo.clone())));
        let chart = message(json!({"id": "r9", "role": "tool", "toolCallId": "c9", "content": [
            {"type": "image", "source": {"type": "data", "value": "iVBORw0KGgo=", "mimeType": "image/png"},
             "metadata": {"filename": "chart.png"}}]}));
        let reset = Observed::Delta(ConversationDelta::MessagesReset(vec![user(), photo, chart]));
        printer.on_observed(&reset);
        printer.on_observed(&reset);
        let lines: Vec<Value> = written.text().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert_eq!(lines[0]["type"], "message");
        assert_eq!(lines[0]["media"], json!([{"kind": "image", "mimeType": "image/jpeg", "bytes": 3}]));
        assert_eq!(
            lines[1],
            json!({"type": "messagesReset", "count": 3, "media": [
                {"messageId": "r9", "role": "tool", "kind": "image", "mimeType": "image/png", "name": "chart.png", "bytes": 8}]})
        );
        assert_eq!(lines[2], json!({"type": "messagesReset", "count": 3}), "listed once");
    }
}
