//! `agentui run`: one conversation turn with a live agent, with the command line playing the
//! app: client tools declared on the command line, interrupts answered by policy or by asking,
//! and either a readable transcript or one JSON object per session update.

use std::collections::HashMap;
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use agentui_agui::message::Interrupt;
use agentui_agui::Message;
use agentui_runtime::session::{
    ClientTool, ConversationSession, RunPhase, RunSummary, SessionError, SessionOptions, SessionUpdate, ToolCallPhase,
    ToolError, ToolInvocation,
};
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

/// Writes session updates to stdout: a transcript, or JSON lines.
pub(crate) struct Printer {
    json: bool,
    /// Bytes of each assistant message already printed, so only the new text goes out.
    printed: Mutex<HashMap<String, usize>>,
}

impl Printer {
    pub(crate) fn new(json: bool) -> Self {
        Printer { json, printed: Mutex::new(HashMap::new()) }
    }

    fn emit(&self, line: Value) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    /// The part of an assistant message's text not printed yet, and whether it is the first.
    fn new_text(&self, message: &Message) -> Option<(String, bool)> {
        let text = message.text()?;
        let mut printed = self.printed.lock().unwrap_or_else(|p| p.into_inner());
        let done = printed.entry(message.id.clone()).or_insert(0);
        let first = *done == 0;
        let delta = text.get(*done..).unwrap_or_default().to_owned();
        *done = text.len();
        (!delta.is_empty()).then_some((delta, first))
    }

    pub(crate) fn on_update(&self, update: &SessionUpdate) {
        if self.json {
            if let Some(line) = self.json_line(update) {
                self.emit(line);
            }
            return;
        }
        match update {
            SessionUpdate::MessageUpserted(message) if message.role.as_str() == "assistant" => {
                if let Some((delta, first)) = self.new_text(message) {
                    let mut out = std::io::stdout().lock();
                    let _ = write!(out, "{}{delta}", if first { "\nagent: " } else { "" });
                    let _ = out.flush();
                }
            }
            SessionUpdate::MessageUpserted(_) | SessionUpdate::MessagesReset(_) | SessionUpdate::RunPhase(_) => {}
            SessionUpdate::ToolCall(call) => match &call.phase {
                ToolCallPhase::Streaming => {}
                phase => println!("\n  [tool {} {}: {}]", call.tool_name, call.tool_call_id, phase_label(phase)),
            },
            other => println!("\n  [{other}]"),
        }
    }

    fn json_line(&self, update: &SessionUpdate) -> Option<Value> {
        Some(match update {
            SessionUpdate::MessageUpserted(m) if m.role.as_str() == "assistant" && m.tool_calls.is_none() => {
                json!({"type": "text", "messageId": m.id, "delta": self.new_text(m)?.0})
            }
            SessionUpdate::MessageUpserted(m) => json!({"type": "message", "message": m.to_json()}),
            SessionUpdate::MessagesReset(ms) => json!({"type": "messagesReset", "count": ms.len()}),
            SessionUpdate::RunPhase(phase) => phase_json(phase),
            SessionUpdate::ToolCall(t) => {
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
            SessionUpdate::StateChanged(state) => json!({"type": "state", "state": state}),
            SessionUpdate::StateResyncNeeded { reason } => json!({"type": "stateResyncNeeded", "reason": reason}),
            SessionUpdate::Warning(w) => {
                json!({"type": "warning", "kind": format!("{:?}", w.kind), "message": w.message})
            }
            SessionUpdate::Custom { name, value } => json!({"type": "custom", "name": name, "value": value}),
            SessionUpdate::Raw { event, source } => json!({"type": "raw", "event": event, "source": source}),
            SessionUpdate::Step { name, started } => json!({"type": "step", "name": name, "started": started}),
            SessionUpdate::MessageKeptLocal { message_id, reason } => {
                json!({"type": "keptLocal", "messageId": message_id, "reason": format!("{reason:?}")})
            }
            SessionUpdate::Surface(event) => {
                json!({"type": "surface", "event": update.to_string(), "surfaceId": match event {
                    agentui_a2ui::SurfaceEvent::Created { surface_id, .. }
                    | agentui_a2ui::SurfaceEvent::Changed { surface_id, .. }
                    | agentui_a2ui::SurfaceEvent::Deleted { surface_id } => surface_id,
                }})
            }
        })
    }
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
fn answer_interrupts(session: &mut ConversationSession, policy: Option<InterruptPolicy>) -> Result<bool, String> {
    let Some(policy) = policy else { return Ok(false) };
    for interrupt in session.pending_interrupts().to_vec() {
        let approve = match policy {
            InterruptPolicy::Approve => true,
            InterruptPolicy::Reject => false,
            InterruptPolicy::Ask => ask(&interrupt)?,
        };
        let mut last_error = None;
        let answered = decision_payloads(approve).into_iter().any(|payload| {
            match session.resolve_interrupt(&interrupt.id, Some(payload)) {
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
    session: &mut ConversationSession,
    message: &str,
    policy: Option<InterruptPolicy>,
) -> Result<TurnEnd, String> {
    let mut result = session.run(message).await;
    for _ in 0..MAX_INTERRUPT_ROUNDS {
        match result {
            Ok(summary) if matches!(summary.phase, RunPhase::Interrupted { .. }) => {
                if !answer_interrupts(session, policy)? {
                    return Ok(TurnEnd::Interrupted(summary));
                }
                result = session.continue_run().await;
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
        for tool in tools {
            session.register_tool(tool).map_err(|e| e.to_string())?;
        }
        if let Some(state) = state {
            session.set_state(state);
        }
        let printer = Arc::new(Printer::new(args.json));
        let listener = printer.clone();
        session.add_listener(Arc::new(move |u: &SessionUpdate| listener.on_update(u)));
        if !args.json {
            println!("you: {}", args.message);
        }
        let end = play_turn(&mut session, &args.message, policy).await?;
        let (status, code, detail) = match &end {
            TurnEnd::Completed(_) => ("completed", ExitCode::SUCCESS, None),
            TurnEnd::Interrupted(_) => ("interrupted", ExitCode::from(EXIT_INTERRUPTED), None),
            TurnEnd::Failed(e) => ("failed", ExitCode::from(1), Some(e.to_string())),
        };
        if args.json {
            let mut last = json!({
                "status": status,
                "messages": session.messages().iter().map(Message::to_json).collect::<Vec<_>>(),
                "state": session.state(),
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
            for surface in session.a2ui().group().surfaces() {
                print!("{}", tree::render(surface));
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
    let mut options = SessionOptions::default();
    options.transport.tls = args.tls.options()?;
    options.localization = args.locale.localization()?;
    Ok(options)
}
