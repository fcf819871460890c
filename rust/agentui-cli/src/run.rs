//! `agentui run`: one conversation turn with a live agent, with the command line playing the
//! app: client tools declared on the command line, interrupts answered by policy or by asking,
//! and either a readable transcript or one JSON object per conversation delta. It drives the
//! same conversation actor and subscription the apps use.

use std::collections::HashMap;
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Mutex;

use agentui_agui::message::{Interrupt, Role};
use agentui_agui::Message;
use agentui_runtime::session::{
    ClientTool, ConversationSession, PendingSend, PendingSendKind, RunPhase, RunSummary, SessionError, SessionOptions,
    ToolCallPhase, ToolError, ToolInvocation,
};
use agentui_runtime::{Conversation, ConversationDelta, Observed, Subscription};
use serde_json::{json, Value};

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
    /// The thread to continue (a fresh id when absent); a recorded stream answers on its own.
    #[arg(long = "thread", value_name = "ID")]
    pub thread_id: Option<String>,
    /// The state the conversation starts from (a JSON value).
    #[arg(long, value_name = "JSON")]
    pub state: Option<String>,
    /// Extra request header, NAME:VALUE (e.g. authorization); repeatable. Never printed.
    #[arg(long = "header", value_name = "NAME:VALUE")]
    pub headers: Vec<String>,
    /// One JSON object per line for each session update, then `{"final": {...}}`.
    #[arg(long)]
    pub json: bool,
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

fn command_line_tools(args: &RunArgs) -> Result<Vec<ClientTool>, String> {
    let mut tools = Vec::new();
    for spec in &args.tools {
        let (name, answer) = split_pair("--tool", spec)?;
        let answer: Value = serde_json::from_str(answer).map_err(|e| format!("--tool {name}: not JSON: {e}"))?;
        let description = format!("{name} (answered by the agentui command line)");
        let tool = ClientTool::new(name, description, permissive_parameters(), move |_: ToolInvocation| {
            let answer = answer.clone();
            async move { Ok(answer) }
        });
        tools.push(tool.map_err(|e| e.to_string())?);
    }
    for spec in &args.tool_errors {
        let (name, text) = split_pair("--tool-error", spec)?;
        let text = text.to_owned();
        let description = format!("{name} (fails on the agentui command line)");
        let tool = ClientTool::new(name, description, permissive_parameters(), move |_: ToolInvocation| {
            let error = ToolError::new(text.clone());
            async move { Err(error) }
        });
        tools.push(tool.map_err(|e| e.to_string())?);
    }
    Ok(tools)
}

fn parse_headers(headers: &[String]) -> Result<Vec<(String, String)>, String> {
    headers
        .iter()
        .map(|h| h.split_once(':').map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned())))
        .collect::<Option<_>>()
        .ok_or_else(|| "headers are written NAME:VALUE".to_owned())
}

/// Writes a conversation's deltas to stdout: a transcript, or JSON lines.
pub(crate) struct Printer {
    json: bool,
    /// Bytes of each assistant message already printed, so only the new text goes out (also
    /// after a fresh snapshot, when this printer fell behind).
    printed: Mutex<HashMap<String, usize>>,
    /// Roles of the messages seen, to tell assistant text from other streamed text.
    roles: Mutex<HashMap<String, Role>>,
}

impl Printer {
    pub(crate) fn new(json: bool) -> Self {
        Printer { json, printed: Mutex::new(HashMap::new()), roles: Mutex::new(HashMap::new()) }
    }

    fn emit(&self, line: Value) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
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
        let mut out = std::io::stdout().lock();
        let _ = write!(out, "{}{delta}", if first { "\nagent: " } else { "" });
        let _ = out.flush();
    }

    pub(crate) fn on_observed(&self, item: &Observed) {
        match item {
            Observed::Delta(delta) => self.on_delta(delta),
            // First, or after falling behind: what was not printed yet of each message.
            Observed::Snapshot(snapshot) => {
                for message in &snapshot.messages {
                    self.note(message);
                    if message.role == Role::Assistant && message.tool_calls.is_none() {
                        if let Some((delta, first)) = self.new_text(message) {
                            if self.json {
                                self.emit(json!({"type": "text", "messageId": message.id, "delta": delta}));
                            } else {
                                self.print_text(&delta, first);
                            }
                        }
                    }
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
            ConversationDelta::MessageAdded(_)
            | ConversationDelta::MessageReplaced(_)
            | ConversationDelta::ToolCallArgsAppended { .. }
            | ConversationDelta::MessagesReset(_)
            | ConversationDelta::RunPhase(_)
            | ConversationDelta::Interrupts(_) => {}
            ConversationDelta::ToolCall(call) => match &call.phase {
                ToolCallPhase::Streaming => {}
                phase => println!("\n  [tool {} {}: {}]", call.tool_name, call.tool_call_id, phase_label(phase)),
            },
            other => println!("\n  [{other}]"),
        }
    }

    fn json_line(&self, delta: &ConversationDelta) -> Option<Value> {
        Some(match delta {
            ConversationDelta::MessageAdded(m) | ConversationDelta::MessageReplaced(m)
                if m.role == Role::Assistant && m.tool_calls.is_none() =>
            {
                json!({"type": "text", "messageId": m.id, "delta": self.new_text(m)?.0})
            }
            ConversationDelta::MessageAdded(m) | ConversationDelta::MessageReplaced(m) => {
                json!({"type": "message", "message": m.to_json()})
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
            ConversationDelta::MessagesReset(ms) => json!({"type": "messagesReset", "count": ms.len()}),
            ConversationDelta::MessageKeptLocal { message_id, reason } => {
                json!({"type": "keptLocal", "messageId": message_id, "reason": format!("{reason:?}")})
            }
            ConversationDelta::RunPhase(phase) => phase_json(phase),
            ConversationDelta::ToolCall(t) => {
                let mut line = json!({"type": "toolCall", "toolCallId": t.tool_call_id, "toolName": t.tool_name,
                    "phase": phase_name(&t.phase)});
                match &t.phase {
                    ToolCallPhase::Succeeded { result } => line["result"] = json!(result),
                    ToolCallPhase::Failed { failure } => line["error"] = json!(failure.to_string()),
                    ToolCallPhase::Skipped { reason } => line["reason"] = json!(reason),
                    ToolCallPhase::AwaitingInterrupt { interrupt_id } => line["interruptId"] = json!(interrupt_id),
                    _ => {}
                }
                line
            }
            ConversationDelta::StateReplaced(state) => json!({"type": "state", "state": state}),
            ConversationDelta::StatePatched(ops) => json!({"type": "statePatch", "patch": ops}),
            ConversationDelta::StateResyncNeeded { reason } => json!({"type": "stateResyncNeeded", "reason": reason}),
            ConversationDelta::Interrupts(pending) => {
                json!({"type": "interrupts", "pending": interrupts_json(pending)})
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
            Some(item) = subscription.recv() => printer.on_observed(&item),
        }
    };
    while let Some(item) = subscription.try_recv() {
        printer.on_observed(&item);
    }
    out
}

fn phase_name(phase: &ToolCallPhase) -> &'static str {
    match phase {
        ToolCallPhase::Streaming => "streaming",
        ToolCallPhase::Requested => "requested",
        ToolCallPhase::Running => "running",
        ToolCallPhase::Succeeded { .. } => "succeeded",
        ToolCallPhase::Failed { .. } => "failed",
        ToolCallPhase::CompletedByServer => "completedByServer",
        ToolCallPhase::Skipped { .. } => "skipped",
        ToolCallPhase::OwnedByServer => "ownedByServer",
        ToolCallPhase::AwaitingInterrupt { .. } => "awaitingInterrupt",
    }
}

fn phase_label(phase: &ToolCallPhase) -> String {
    match phase {
        ToolCallPhase::Succeeded { result } => format!("succeeded -> {result}"),
        ToolCallPhase::Failed { failure } => format!("failed: {failure}"),
        ToolCallPhase::AwaitingInterrupt { interrupt_id } => format!("awaiting interrupt {interrupt_id}"),
        other => phase_name(other).to_owned(),
    }
}

/// A message or action waiting for the agent, in the CLI's camelCase JSON.
fn pending_send_json(pending: &PendingSend) -> Value {
    let mut line = match &pending.kind {
        PendingSendKind::Message { message_id, text } => {
            json!({"kind": "message", "messageId": message_id, "text": text})
        }
        PendingSendKind::Action { surface_id, action_name } => {
            json!({"kind": "action", "surfaceId": surface_id, "actionName": action_name})
        }
    };
    line["key"] = json!(pending.key);
    line["attempts"] = json!(pending.attempts);
    if let Some(error) = &pending.last_error {
        line["lastError"] = json!(error);
    }
    line
}

fn interrupts_json(interrupts: &[Interrupt]) -> Value {
    Value::Array(interrupts.iter().map(|i| serde_json::to_value(i).unwrap_or(Value::Null)).collect())
}

fn phase_json(phase: &RunPhase) -> Value {
    match phase {
        RunPhase::Idle => json!({"type": "run", "phase": "idle"}),
        RunPhase::Starting { run_id } => json!({"type": "run", "phase": "starting", "runId": run_id}),
        RunPhase::Running { run_id } => json!({"type": "run", "phase": "running", "runId": run_id}),
        RunPhase::Finished { run_id, outcome } => {
            json!({"type": "run", "phase": "finished", "runId": run_id, "outcome": outcome})
        }
        RunPhase::Interrupted { run_id, interrupts } => {
            json!({"type": "interrupt", "runId": run_id, "interrupts": interrupts_json(interrupts)})
        }
        RunPhase::AgentError { message, code } => {
            json!({"type": "run", "phase": "agentError", "message": message, "code": code})
        }
        RunPhase::Failed { error } => json!({"type": "run", "phase": "failed", "error": error}),
        RunPhase::Cancelled => json!({"type": "run", "phase": "cancelled"}),
        RunPhase::Abandoned { run_id } => json!({"type": "run", "phase": "abandoned", "runId": run_id}),
    }
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

async fn play_turn(
    conversation: &Conversation,
    subscription: &mut Subscription,
    printer: &Printer,
    message: &str,
    policy: Option<InterruptPolicy>,
) -> Result<TurnEnd, String> {
    let mut result = printing(subscription, printer, conversation.send_message(message.to_owned())).await;
    for _ in 0..MAX_INTERRUPT_ROUNDS {
        match result {
            Ok(summary) if matches!(summary.phase, RunPhase::Interrupted { .. }) => {
                if !answer_interrupts(conversation, &summary.pending_interrupts, policy)? {
                    return Ok(TurnEnd::Interrupted(summary));
                }
                result = printing(subscription, printer, conversation.continue_run()).await;
            }
            Ok(summary) => return Ok(TurnEnd::Completed(summary)),
            Err(e) => return Ok(TurnEnd::Failed(e)),
        }
    }
    match result {
        Ok(summary) => Ok(TurnEnd::Interrupted(summary)),
        Err(e) => Ok(TurnEnd::Failed(e)),
    }
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
    let policy = args.interrupts.or_else(|| std::io::stdin().is_terminal().then_some(InterruptPolicy::Ask));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let mut session = ConversationSession::connect(&args.url, &headers, options).map_err(|e| e.to_string())?;
        if let Some(state) = state {
            session.set_state(state);
        }
        // The same runtime the apps use: the conversation actor and its subscription.
        let conversation = Conversation::start(session, tokio::runtime::Handle::current());
        for tool in tools {
            conversation.register_tool(tool).map_err(|e| e.to_string())?;
        }
        let printer = Printer::new(args.json);
        let mut subscription = conversation.subscribe();
        if !args.json {
            println!("you: {}", args.message);
        }
        let end = play_turn(&conversation, &mut subscription, &printer, &args.message, policy).await?;
        let (status, code, detail) = match &end {
            TurnEnd::Completed(_) => ("completed", ExitCode::SUCCESS, None),
            TurnEnd::Interrupted(_) => ("interrupted", ExitCode::from(EXIT_INTERRUPTED), None),
            TurnEnd::Failed(e) => ("failed", ExitCode::from(1), Some(e.to_string())),
        };
        let snapshot = conversation.snapshot();
        if args.json {
            let mut last = json!({
                "status": status,
                "messages": snapshot.messages.iter().map(Message::to_json).collect::<Vec<_>>(),
                "state": snapshot.state,
            });
            if let Some(detail) = detail {
                last["error"] = json!(detail);
            }
            if let TurnEnd::Interrupted(summary) = &end {
                last["pendingInterrupts"] = interrupts_json(&summary.pending_interrupts);
            }
            printer.emit(json!({"final": last}));
        } else {
            println!();
            for entry in &snapshot.surfaces {
                if let Some(surface) = conversation.surface(&entry.surface_id) {
                    print!("{}", tree::render_snapshot(&surface));
                }
            }
            match &end {
                TurnEnd::Completed(summary) => {
                    println!("run finished: {:?} ({} run(s))", summary.phase, summary.run_ids.len())
                }
                TurnEnd::Interrupted(summary) => println!(
                    "run stopped at {} unanswered interrupt(s); pass --interrupts approve|reject|ask to answer",
                    summary.pending_interrupts.len()
                ),
                TurnEnd::Failed(e) => println!("run failed: {e}"),
            }
        }
        Ok(code)
    })
}

/// The session options of `run`: the defaults with the `--ca-cert` / `--pin` / `--trust-store`
/// trust and the `--locale` / `--time-zone` localization.
fn session_options(args: &RunArgs) -> Result<SessionOptions, String> {
    let mut options = SessionOptions { thread_id: args.thread_id.clone(), ..SessionOptions::default() };
    options.transport.tls = args.tls.options()?;
    options.localization = args.locale.localization()?;
    Ok(options)
}
