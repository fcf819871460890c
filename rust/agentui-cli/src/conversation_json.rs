//! A conversation as JSON: the `{"final": …}` object of `run --json`, of `store show --json`
//! and of each `--trace-store` line. One function builds all three, so what a run ended with,
//! what a store restores and what was about to be written compare as they are.

use agentui_agui::message::Interrupt;
use agentui_agui::Message;
use agentui_runtime::session::{ConsentRequest, PendingSend, PendingSendKind, RunPhase, ToolCallPhase, ToolCallUpdate};
use agentui_runtime::ConversationSnapshot;
use serde_json::{json, Value};

/// The conversation as observers see it at one point: `threadId`, `status` (from the run
/// phase), `run`, `messages`, `state`, `toolCalls`, `pendingInterrupts`, `surfaces`,
/// `consentRequests`, `grantedTools`, `pendingSends`, `keptLocal`.
pub fn conversation_json(snapshot: &ConversationSnapshot) -> Value {
    json!({
        "threadId": snapshot.thread_id,
        "status": status(&snapshot.phase),
        "run": run_phase_json(&snapshot.phase),
        "messages": snapshot.messages.iter().map(Message::to_json).collect::<Vec<_>>(),
        "state": snapshot.state,
        "toolCalls": snapshot.tool_calls.iter().map(tool_call_json).collect::<Vec<_>>(),
        "pendingInterrupts": interrupts_json(&snapshot.pending_interrupts),
        "consentRequests": consent_requests_json(&snapshot.consent_requests),
        "grantedTools": snapshot.consent_grants,
        "surfaces": snapshot.surfaces.iter()
            .map(|s| json!({"surfaceId": s.surface_id, "catalogId": s.catalog_id}))
            .collect::<Vec<_>>(),
        "pendingSends": snapshot.pending_sends.iter().map(pending_send_json).collect::<Vec<_>>(),
        "keptLocal": snapshot.kept_local.iter()
            .map(|k| json!({"messageId": k.message_id, "reason": format!("{:?}", k.reason)}))
            .collect::<Vec<_>>(),
    })
}

/// The calls waiting for the user's consent, oldest first.
pub fn consent_requests_json(requests: &[ConsentRequest]) -> Vec<Value> {
    requests
        .iter()
        .map(|r| {
            json!({
                "toolCallId": r.tool_call_id,
                "toolName": r.tool_name,
                "arguments": r.arguments,
                "askedAtMs": r.asked_at_ms,
            })
        })
        .collect()
}

/// One word for where the conversation stands; `run` says the same with a turn's own words
/// (`completed`, `interrupted`, `failed`) where they agree.
pub fn status(phase: &RunPhase) -> &'static str {
    match phase {
        RunPhase::Idle => "idle",
        RunPhase::Starting { .. } | RunPhase::Running { .. } => "running",
        RunPhase::Finished { .. } => "completed",
        RunPhase::Interrupted { .. } => "interrupted",
        RunPhase::AgentError { .. } | RunPhase::Failed { .. } => "failed",
        RunPhase::Cancelled => "cancelled",
        RunPhase::Abandoned { .. } => "abandoned",
    }
}

/// `{"phase": name, …}` with the phase's details (`runId`, `outcome`, `interrupts`, …).
pub fn run_phase_json(phase: &RunPhase) -> Value {
    match phase {
        RunPhase::Idle => json!({"phase": "idle"}),
        RunPhase::Starting { run_id } => json!({"phase": "starting", "runId": run_id}),
        RunPhase::Running { run_id } => json!({"phase": "running", "runId": run_id}),
        RunPhase::Finished { run_id, outcome } => json!({"phase": "finished", "runId": run_id, "outcome": outcome}),
        RunPhase::Interrupted { run_id, interrupts } => {
            json!({"phase": "interrupted", "runId": run_id, "interrupts": interrupts_json(interrupts)})
        }
        RunPhase::AgentError { message, code } => json!({"phase": "agentError", "message": message, "code": code}),
        RunPhase::Failed { error } => json!({"phase": "failed", "error": error}),
        RunPhase::Cancelled => json!({"phase": "cancelled"}),
        RunPhase::Abandoned { run_id } => json!({"phase": "abandoned", "runId": run_id}),
    }
}

/// `{"toolCallId", "toolName", "phase"}` plus the phase's detail (`result`, `error`, `reason`,
/// `interruptId`).
pub fn tool_call_json(call: &ToolCallUpdate) -> Value {
    let mut line =
        json!({"toolCallId": call.tool_call_id, "toolName": call.tool_name, "phase": tool_phase_name(&call.phase)});
    match &call.phase {
        ToolCallPhase::Succeeded { result } => line["result"] = json!(result),
        ToolCallPhase::Failed { failure } => line["error"] = json!(failure.to_string()),
        ToolCallPhase::Skipped { reason } => line["reason"] = json!(reason),
        ToolCallPhase::AwaitingInterrupt { interrupt_id } => line["interruptId"] = json!(interrupt_id),
        _ => {}
    }
    line
}

pub fn tool_phase_name(phase: &ToolCallPhase) -> &'static str {
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
        ToolCallPhase::AwaitingConsent => "awaitingConsent",
    }
}

/// A message or action waiting for the agent.
pub fn pending_send_json(pending: &PendingSend) -> Value {
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
    line["lastError"] = json!(pending.last_error);
    line
}

pub fn interrupts_json(interrupts: &[Interrupt]) -> Value {
    Value::Array(interrupts.iter().map(|i| serde_json::to_value(i).unwrap_or(Value::Null)).collect())
}
