//! The scripted agent: each request is matched against the script's rules and answered with
//! the first matching rule's reply.
//!
//! Which rule a request looks for: an interrupt being answered (`resume` entries) looks for
//! `interruptAnswered` with the interrupt's reason; tool results at the end of the conversation
//! look for `toolResult` with the tool's name; otherwise the latest user message looks for
//! `userSays` / `userMatches`. A request with `Last-Event-ID` continues a run whose reply has a
//! resumable drop.

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use agentui_demo_agent::serving::RunInput;
use serde_json::Value;

use crate::reply::{answer, Answer, ResumableRun};
use crate::script::{Rule, Script};
use crate::server::{serve, AgentServer, Reply, Request, Responder};

/// Runs with a resumable drop kept for their resumption; past it the oldest is forgotten.
const MAX_RESUMABLE_RUNS: usize = 1_000;
/// Interrupts remembered for their answer.
const MAX_INTERRUPTS: usize = 10_000;

/// Starts scripted agents.
#[derive(Debug)]
pub struct ScriptedAgent;

impl ScriptedAgent {
    /// Serves `script` on `addr` (`127.0.0.1:0` for a free port).
    pub async fn start(script: Script, addr: SocketAddr) -> io::Result<AgentServer> {
        serve(Arc::new(ScriptResponder::new(script)), addr).await
    }
}

struct ScriptResponder {
    script: Script,
    memory: Mutex<Memory>,
}

#[derive(Default)]
struct Memory {
    /// By `(threadId, runId)`, in the order they started.
    resumable: Vec<((String, String), ResumableRun)>,
    /// Interrupt id to its reason.
    interrupts: HashMap<String, String>,
}

impl ScriptResponder {
    fn new(script: Script) -> Self {
        ScriptResponder { script, memory: Mutex::new(Memory::default()) }
    }

    fn memory(&self) -> MutexGuard<'_, Memory> {
        self.memory.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn rule_for(&self, input: &RunInput) -> Result<&Rule, String> {
        if let Some(resume) = input.resume.as_ref().filter(|r| !r.is_empty()) {
            let reasons: Vec<String> = {
                let memory = self.memory();
                resume.iter().filter_map(|entry| memory.interrupts.get(&entry.interrupt_id).cloned()).collect()
            };
            return reasons
                .iter()
                .find_map(|reason| self.script.for_interrupt_answer(reason))
                .ok_or_else(|| format!("no interruptAnswered rule for the interrupts answered ({reasons:?})"));
        }
        let results = input.trailing_tool_results();
        if !results.is_empty() {
            let tools: Vec<String> = results
                .iter()
                .filter_map(|result| {
                    let id = result.tool_call_id.as_deref()?;
                    input.tool_calls().find(|call| call.id == id).map(|call| call.function.name.clone())
                })
                .collect();
            return tools
                .iter()
                .find_map(|tool| self.script.for_tool_result(tool))
                .ok_or_else(|| format!("no toolResult rule for the results of {tools:?}"));
        }
        match input.latest_user_text() {
            Some(text) => {
                self.script.for_user_text(&text).ok_or_else(|| format!("no rule matches the user message {text:?}"))
            }
            None => Err("the request has no user message, tool result or interrupt answer".into()),
        }
    }

    fn resume(&self, input: &RunInput, last_event_id: &str) -> Reply {
        let key = (input.thread_id.clone(), input.run_id.clone());
        let mut memory = self.memory();
        let Some((_, run)) = memory.resumable.iter_mut().find(|(k, _)| *k == key) else {
            return Reply::Unmatched(format!(
                "a resumption (Last-Event-ID {last_event_id:?}) of run {:?}, which has no resumable drop",
                input.run_id
            ));
        };
        match last_event_id.trim().parse::<u64>() {
            Ok(after) if run.has_id(after) => Reply::Stream(run.play_after(after)),
            _ => Reply::Unmatched(format!("a resumption after Last-Event-ID {last_event_id:?}, not an id of this run")),
        }
    }
}

impl Responder for ScriptResponder {
    fn reply(&self, request: &Request<'_>) -> Reply {
        let input = match RunInput::from_value(request.body.clone()) {
            Ok(input) => input,
            Err(e) => return Reply::Unmatched(format!("not a RunAgentInput: {}", e.message())),
        };
        if let Some(last) = request.headers.get("last-event-id") {
            return self.resume(&input, last.to_str().unwrap_or_default());
        }
        let rule = match self.rule_for(&input) {
            Ok(rule) => rule,
            Err(reason) => return Reply::Unmatched(reason),
        };
        let (answer, raised) = answer(&input, &rule.reply);
        let mut memory = self.memory();
        for (id, reason) in raised {
            if memory.interrupts.len() < MAX_INTERRUPTS {
                memory.interrupts.insert(id, reason);
            }
        }
        match answer {
            Answer::Stream(wire) => Reply::Stream(wire),
            Answer::Status { status, body } => Reply::Status { status, body },
            Answer::Resumable(mut run) => {
                let wire = run.play_after(0);
                if memory.resumable.len() >= MAX_RESUMABLE_RUNS {
                    memory.resumable.remove(0);
                }
                let key = (input.thread_id.clone(), input.run_id.clone());
                memory.resumable.retain(|(k, _)| *k != key);
                memory.resumable.push((key, run));
                Reply::Stream(wire)
            }
        }
    }
}

/// For the bodies a test reads: the latest user message of a recorded request.
pub fn latest_user_text(request: &Value) -> Option<String> {
    RunInput::from_value(request.clone()).ok()?.latest_user_text()
}
