//! `agentui store …`: the conversations in a store file (`agentui run --store FILE` writes them),
//! listed, shown as a restore would bring them back, forked and deleted.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use agentui_agui::message::Role;
use agentui_agui::{ContentPart, Message, MessageContent};
use agentui_runtime::session::{ConversationSession, SessionOptions};
use agentui_runtime::{Conversation, ConversationSnapshot, ConversationStore, StoreError};
use serde_json::json;

use crate::conversation_json::{self, conversation_json};
use crate::tree;

#[derive(clap::Subcommand)]
pub enum StoreCommand {
    /// The conversations in FILE, most recently written first.
    List {
        file: PathBuf,
        /// Conversations per page.
        #[arg(long, default_value_t = 20)]
        limit: usize,
        /// Start after this point: the `next` cursor a previous page printed.
        #[arg(long, value_name = "C")]
        cursor: Option<String>,
        /// `{"conversations": [...], "nextCursor": ...}` instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// One conversation as a restore brings it back (an open run shows as abandoned).
    Show {
        file: PathBuf,
        thread_id: String,
        /// `{"final": {...}}`, the same object `run --json` ends with.
        #[arg(long)]
        json: bool,
    },
    /// Copy a conversation; prints the copy's thread id. The source is untouched, and what it
    /// still has to send to the agent stays with it.
    Fork {
        file: PathBuf,
        thread_id: String,
        /// The copy's thread id (a fresh one when absent).
        #[arg(long = "as", value_name = "NEW_ID")]
        new_id: Option<String>,
    },
    /// Delete a conversation. Deleting one that is not there is not an error (says so).
    Delete { file: PathBuf, thread_id: String },
}

pub fn run(command: StoreCommand) -> Result<ExitCode, String> {
    match command {
        StoreCommand::List { file, limit, cursor, json } => list(&file, limit, cursor.as_deref(), json),
        StoreCommand::Show { file, thread_id, json } => show(&file, &thread_id, json),
        StoreCommand::Fork { file, thread_id, new_id } => {
            let store = open_existing(&file)?;
            let new_id = store.fork(&thread_id, new_id.as_deref()).map_err(|e| store_error(&file, e))?;
            outln!("{new_id}");
            Ok(ExitCode::SUCCESS)
        }
        StoreCommand::Delete { file, thread_id } => {
            let store = open_existing(&file)?;
            if store.delete(&thread_id).map_err(|e| store_error(&file, e))? {
                outln!("deleted {thread_id}");
            } else {
                outln!("no conversation {thread_id} in {} (nothing to delete)", file.display());
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Opens (or creates) the store `agentui run --store FILE` writes to.
pub fn open(path: &Path) -> Result<ConversationStore, String> {
    ConversationStore::open(path).map_err(|e| store_error(path, e))
}

/// Reading commands never create a file: a mistyped path is an error, not an empty store.
fn open_existing(path: &Path) -> Result<ConversationStore, String> {
    if !path.exists() {
        return Err(format!("{}: no such store file", path.display()));
    }
    open(path)
}

/// A store error, with the file it is about.
pub fn store_error(path: &Path, error: StoreError) -> String {
    match error {
        StoreError::NotFound { thread_id } => format!("{}: no stored conversation '{thread_id}'", path.display()),
        other => format!("{}: {other}", path.display()),
    }
}

fn list(file: &Path, limit: usize, cursor: Option<&str>, as_json: bool) -> Result<ExitCode, String> {
    let store = open_existing(file)?;
    let page = store.list(limit, cursor).map_err(|e| store_error(file, e))?;
    if as_json {
        let conversations: Vec<_> = page
            .conversations
            .iter()
            .map(|c| {
                json!({
                    "threadId": c.thread_id,
                    "title": c.title,
                    "agentUrl": c.agent_url,
                    "messageCount": c.message_count,
                    "createdAtMs": c.created_at_ms,
                    "updatedAtMs": c.updated_at_ms,
                    "status": conversation_json::status(&c.phase),
                    "run": conversation_json::run_phase_json(&c.phase),
                    "pendingSends": c.pending_sends,
                })
            })
            .collect();
        outln!("{}", json!({"conversations": conversations, "nextCursor": page.next_cursor}));
        return Ok(ExitCode::SUCCESS);
    }
    if page.conversations.is_empty() {
        outln!("no conversations");
    } else {
        outln!("{:<24} {:<19} {:>8} {:<11} {:>7}  TITLE", "THREAD", "UPDATED (UTC)", "MESSAGES", "STATUS", "PENDING");
        for c in &page.conversations {
            outln!(
                "{:<24} {:<19} {:>8} {:<11} {:>7}  {}",
                c.thread_id,
                utc(c.updated_at_ms),
                c.message_count,
                conversation_json::status(&c.phase),
                c.pending_sends,
                c.title
            );
        }
    }
    if let Some(next) = &page.next_cursor {
        outln!("more: agentui store list {} --limit {limit} --cursor {next}", file.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn show(file: &Path, thread_id: &str, as_json: bool) -> Result<ExitCode, String> {
    let store = open_existing(file)?;
    let stored = store
        .load(thread_id)
        .map_err(|e| store_error(file, e))?
        .ok_or_else(|| store_error(file, StoreError::NotFound { thread_id: thread_id.to_owned() }))?;
    let agent_url = stored.agent_url.clone();
    // Restored exactly as `run --resume` restores it, with no store attached (nothing is written)
    // and no run started (nothing is sent): what the app would show.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let options = SessionOptions { thread_id: Some(thread_id.to_owned()), ..SessionOptions::default() };
        let mut session = ConversationSession::connect(&agent_url, &[], options)
            .map_err(|e| format!("{}: conversation '{thread_id}': {e}", file.display()))?;
        session.restore_stored(stored).map_err(|e| store_error(file, e))?;
        let conversation = Conversation::start(session, tokio::runtime::Handle::current());
        let snapshot = conversation.snapshot().map_err(|e| e.to_string())?;
        if as_json {
            outln!("{}", json!({"final": conversation_json(&snapshot)}));
        } else {
            outln!("thread {thread_id} with {agent_url} ({} messages)", snapshot.messages.len());
            print_transcript(&snapshot);
            for entry in &snapshot.surfaces {
                if let Some(surface) = conversation.surface(&entry.surface_id) {
                    out!("{}", tree::render_snapshot(&surface));
                }
            }
            print_standing(&snapshot);
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// A message's text: its text, or its text parts joined (a placeholder for a lost media part
/// is listed with the media instead).
fn shown_text(message: &Message) -> String {
    match &message.content {
        Some(MessageContent::Text(text)) => text.clone(),
        Some(MessageContent::Parts(parts)) => parts
            .iter()
            .filter_map(|p| match p {
                ContentPart::Text(t) if !is_placeholder(t) => Some(t.text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    }
}

fn is_placeholder(part: &agentui_agui::TextPart) -> bool {
    part.metadata.as_ref().is_some_and(|m| m.get(agentui_runtime::store::UNAVAILABLE_KEY).is_some())
}

/// One line per media part of `message`, and per part the store lost.
fn print_parts(message: &Message) {
    for part in crate::run::media_parts(message) {
        outln!("  [{} {}]", message.role.as_str(), crate::run::media_label(&part));
    }
    let Some(MessageContent::Parts(parts)) = &message.content else { return };
    for part in parts {
        if let ContentPart::Text(t) = part {
            if is_placeholder(t) {
                outln!("  {}", t.text);
            }
        }
    }
}

/// The messages of a restored conversation as a transcript, as `run` would have printed them.
pub fn print_transcript(snapshot: &ConversationSnapshot) {
    for message in &snapshot.messages {
        print_message(message);
    }
}

fn print_message(message: &Message) {
    let text = shown_text(message);
    match message.role {
        Role::User => {
            outln!("you: {text}");
            print_parts(message);
        }
        Role::Assistant => {
            if !text.is_empty() {
                outln!("agent: {text}");
            }
            for call in message.tool_calls.iter().flatten() {
                outln!("  [agent calls {} {}]", call.function.name, call.id);
            }
        }
        Role::Tool => outln!("  [tool result: {text}]"),
        other => {
            if !text.is_empty() {
                outln!("  [{}: {text}]", other.as_str());
            }
        }
    }
}

/// Where the conversation stands: its run, what waits for the agent, what waits for the user.
fn print_standing(snapshot: &ConversationSnapshot) {
    for call in &snapshot.tool_calls {
        let line = conversation_json::tool_call_json(call);
        outln!("tool {} {}: {}", call.tool_name, call.tool_call_id, line["phase"].as_str().unwrap_or_default());
    }
    for pending in &snapshot.pending_sends {
        outln!("waiting for the agent: {}", conversation_json::pending_send_json(pending));
    }
    for interrupt in &snapshot.pending_interrupts {
        outln!("unanswered interrupt {}: {}", interrupt.id, interrupt.message.as_deref().unwrap_or(&interrupt.reason));
    }
    outln!("run: {}", conversation_json::status(&snapshot.phase));
}

/// `YYYY-MM-DD HH:MM:SS` in UTC (civil-from-days, so no date library is needed for one column).
fn utc(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_formats_civil_dates() {
        assert_eq!(super::utc(0), "1970-01-01 00:00:00");
        assert_eq!(super::utc(951_827_696_000), "2000-02-29 12:34:56");
        assert_eq!(super::utc(1_767_225_599_000), "2025-12-31 23:59:59");
    }
}
