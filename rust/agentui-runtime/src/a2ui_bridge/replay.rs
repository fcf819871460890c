//! Replays and rewrites: what each carrier already applied, so that nothing is applied twice.
//!
//! Each tracked activity remembers a fingerprint of every operation it applied. A later snapshot
//! or delta applies only the operations after the longest common prefix with what was applied:
//! a repeated snapshot applies nothing, a cumulative one only its new tail. When a snapshot
//! rewrites earlier operations (different content at some index), everything from the first
//! difference on is applied again (A2UI updates are idempotent replacements), except a
//! `createSurface` / `beginRendering` for a surface this activity already created and that still
//! exists: the surface cannot be re-created in place, so that one operation is skipped, as
//! CopilotKit's renderer does. A snapshot with *fewer* operations undoes nothing: A2UI has no undo,
//! and surfaces keep their state. `replace: false` on a known activity is ignored, as AG-UI says.
//!
//! When the middleware turns a tool result into an activity, the same operations arrive twice
//! (the result, then the snapshot). The operations of recent tool results are remembered by
//! `toolCallId`, and a new activity whose message id ends in `-<toolCallId>` starts from them, so
//! nothing is applied twice. A tool result repeated for the same `toolCallId` is not re-applied.
//!
//! This bookkeeping lives in memory only. After process death a conversation's surfaces come
//! back from their exports ([`agentui_a2ui::Surface::export`]), and
//! [`A2uiBridge::adopt_history`] rebuilds the bookkeeping from the restored messages without
//! applying anything, so the agent's next `MESSAGES_SNAPSHOT` finds its operations applied.

use std::collections::hash_map::DefaultHasher;
use std::hash::Hasher;

use agentui_a2ui::SurfaceEvent;
use agentui_agui::message::Message;
use serde_json::Value;

use super::carriers::{created_surface_ids, first_surface_hint, operation_surface_id, operations_in_content};
use super::{A2uiBridge, BridgeError, BridgeOutcome};

/// One `a2ui-surface` activity message as the bridge last saw it.
#[derive(Debug)]
pub(super) struct TrackedActivity {
    message_id: String,
    /// The content, kept to apply deltas to. `None` until the first snapshot.
    content: Option<Value>,
    /// Fingerprints of the operations applied, by index.
    applied: Vec<u64>,
    /// Surfaces this activity created.
    surfaces: Vec<String>,
}

/// Operations applied from one tool result, for de-duplication.
#[derive(Debug)]
pub(super) struct ToolResultRecord {
    tool_call_id: String,
    /// Fingerprint and surface id of each operation.
    operations: Vec<(u64, Option<String>)>,
    surfaces: Vec<String>,
}

/// What becomes of the operations found in an event or in history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Feed {
    /// Applied to the group.
    Apply,
    /// Only recorded as applied: the group already shows them (restored surfaces).
    Adopt,
}

impl A2uiBridge {
    /// Records a restored conversation's history as applied, without touching the group.
    ///
    /// After process death the surfaces come back from their exports
    /// ([`SurfaceGroup::restore_surface`]), not by applying the history again. But the agent may
    /// then send a `MESSAGES_SNAPSHOT` or repeat an `ACTIVITY_SNAPSHOT`, and operations this
    /// bridge does not know as applied would be applied twice (a `createSurface` for a restored
    /// surface goes back to the agent as an error). So, on a fresh bridge whose surfaces are
    /// restored: `a2ui-surface` activities and A2UI tool results in `messages` are tracked as a
    /// `MESSAGES_SNAPSHOT` of them would have left them, owning only surfaces that exist in the
    /// group. Nothing is reported to the agent: it heard about any problem the first time.
    ///
    /// [`SurfaceGroup::restore_surface`]: agentui_a2ui::SurfaceGroup::restore_surface
    pub fn adopt_history(&mut self, messages: &[Message]) {
        self.messages_snapshot(messages, &mut BridgeOutcome::default(), Feed::Adopt);
    }

    pub(super) fn activity_index(&self, message_id: &str) -> Option<usize> {
        self.activities.iter().position(|a| a.message_id == message_id)
    }

    /// The content an activity's next delta applies to: `None` for one not tracked.
    pub(super) fn activity_content(&self, message_id: &str) -> Option<&Value> {
        self.activity_index(message_id).and_then(|i| self.activities[i].content.as_ref())
    }

    pub(super) fn forget_activity(&mut self, message_id: &str) {
        if let Some(index) = self.activity_index(message_id) {
            self.activities.remove(index);
        }
    }

    /// Applies (or adopts) what `content` lists beyond what this activity already applied.
    pub(super) fn feed_activity(&mut self, message_id: &str, content: Value, out: &mut BridgeOutcome, feed: Feed) {
        let mut tracked = match self.activity_index(message_id).and_then(|i| self.activities.remove(i)) {
            Some(tracked) => tracked,
            None => TrackedActivity {
                message_id: message_id.to_owned(),
                content: None,
                applied: Vec::new(),
                surfaces: Vec::new(),
            },
        };
        match operations_in_content(&content) {
            Err(error) => out.fail("", error),
            Ok(ops) if ops.len() > self.limits.max_operations_per_activity => {
                let error = BridgeError::LimitExceeded {
                    what: "operations in one activity",
                    limit: self.limits.max_operations_per_activity,
                    actual: ops.len(),
                };
                out.fail(&first_surface_hint(ops), error);
            }
            Ok(ops) => {
                if tracked.content.is_none() {
                    self.inherit_tool_result(&mut tracked, ops);
                }
                let fingerprints: Vec<u64> = ops.iter().map(fingerprint).collect();
                let start = common_prefix(&tracked.applied, &fingerprints);
                let rewritten = tracked.applied.len().saturating_sub(start);
                self.feed_operations(&ops[start..], rewritten, &mut tracked.surfaces, out, feed);
                tracked.applied = fingerprints;
            }
        }
        tracked.content = Some(content);
        if self.activities.len() >= self.limits.max_activities {
            self.activities.pop_front();
        }
        if self.limits.max_activities > 0 {
            self.activities.push_back(tracked);
        }
    }

    /// A new activity the middleware made from a tool result starts from that result's
    /// operations (for the surfaces the activity names), so they are not applied twice.
    fn inherit_tool_result(&self, tracked: &mut TrackedActivity, ops: &[Value]) {
        let Some(record) = self.tool_results.iter().rev().find(|r| {
            tracked.message_id.len() > r.tool_call_id.len()
                && tracked.message_id.ends_with(&r.tool_call_id)
                && tracked.message_id[..tracked.message_id.len() - r.tool_call_id.len()].ends_with('-')
        }) else {
            return;
        };
        let named: Vec<Option<String>> = ops.iter().map(operation_surface_id).collect();
        tracked.applied =
            record.operations.iter().filter(|(_, surface)| named.contains(surface)).map(|(fp, _)| *fp).collect();
        tracked.surfaces = record
            .surfaces
            .iter()
            .filter(|s| named.iter().any(|n| n.as_deref() == Some(s.as_str())))
            .cloned()
            .collect();
    }

    /// Whether a result for this tool call was fed already: a repeated one is not applied again.
    pub(super) fn knows_tool_result(&self, tool_call_id: &str) -> bool {
        self.tool_results.iter().any(|r| r.tool_call_id == tool_call_id)
    }

    /// Applies (or adopts) a tool result's operations and remembers them, so that an activity
    /// the middleware makes from the same result starts from them.
    pub(super) fn feed_tool_result(&mut self, tool_call_id: &str, ops: &[Value], out: &mut BridgeOutcome, feed: Feed) {
        let mut record =
            ToolResultRecord { tool_call_id: tool_call_id.to_owned(), operations: Vec::new(), surfaces: Vec::new() };
        if ops.len() <= self.limits.max_operations_per_event {
            record.operations = ops.iter().map(|op| (fingerprint(op), operation_surface_id(op))).collect();
        }
        self.feed_operations(ops, 0, &mut record.surfaces, out, feed);
        if self.tool_results.len() >= self.limits.max_tool_results {
            self.tool_results.pop_front();
        }
        if self.limits.max_tool_results > 0 {
            self.tool_results.push_back(record);
        }
    }

    fn feed_operations(
        &mut self,
        ops: &[Value],
        rewritten: usize,
        owned: &mut Vec<String>,
        out: &mut BridgeOutcome,
        feed: Feed,
    ) {
        match feed {
            Feed::Apply => self.apply_operations(ops, rewritten, owned, out),
            Feed::Adopt => self.adopt_operations(ops, owned),
        }
    }

    /// What [`Self::apply_operations`] records in `owned`, without applying anything: the
    /// surfaces `ops` create that exist in the group. One that another carrier created first is
    /// owned here too (applying would have refused its creation); that only spares a rewrite of
    /// this carrier a `SURFACE_EXISTS`.
    fn adopt_operations(&self, ops: &[Value], owned: &mut Vec<String>) {
        owned.retain(|s| self.group.surface(s).is_some());
        // Applying them would have applied none.
        if ops.len() > self.limits.max_operations_per_event {
            return;
        }
        for id in ops.iter().flat_map(created_surface_ids) {
            if self.group.surface(id).is_some() && !owned.iter().any(|s| s == id) {
                owned.push(id.to_owned());
            }
        }
    }

    /// Applies `ops` in order. The first `rewritten` of them replace operations applied before:
    /// among those, a create for a surface `owned` already holds is skipped.
    pub(super) fn apply_operations(
        &mut self,
        ops: &[Value],
        rewritten: usize,
        owned: &mut Vec<String>,
        out: &mut BridgeOutcome,
    ) {
        if ops.len() > self.limits.max_operations_per_event {
            let error = BridgeError::LimitExceeded {
                what: "A2UI operations in one event",
                limit: self.limits.max_operations_per_event,
                actual: ops.len(),
            };
            out.fail(&first_surface_hint(ops), error);
            return;
        }
        for (i, op) in ops.iter().enumerate() {
            if i < rewritten && self.recreates_owned_surface(op, owned) {
                continue;
            }
            let outcome = self.group.process_value(op);
            for event in &outcome.events {
                if let SurfaceEvent::Created { surface_id, .. } = event {
                    owned.retain(|s| self.group.surface(s).is_some());
                    if !owned.contains(surface_id) {
                        owned.push(surface_id.clone());
                    }
                }
            }
            out.absorb(outcome);
        }
    }

    fn recreates_owned_surface(&self, op: &Value, owned: &[String]) -> bool {
        created_surface_ids(op).any(|id| owned.iter().any(|s| s == id) && self.group.surface(id).is_some())
    }
}

/// A 64-bit fingerprint of an operation's serialized form. Same process only (`DefaultHasher`
/// may change between builds), so never persisted: [`A2uiBridge::adopt_history`] recomputes
/// them for a restored conversation.
fn fingerprint(op: &Value) -> u64 {
    struct HashWriter<'a>(&'a mut DefaultHasher);
    impl std::io::Write for HashWriter<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.write(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut hasher = DefaultHasher::new();
    // Serializing a `Value` into a writer that never fails cannot fail.
    let _ = serde_json::to_writer(HashWriter(&mut hasher), op);
    hasher.finish()
}

fn common_prefix(a: &[u64], b: &[u64]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use agentui_agui::message::{MessageContent, Role};
    use serde_json::json;

    use super::*;
    use crate::a2ui_bridge::A2UI_ACTIVITY_TYPE;

    #[test]
    fn fingerprints_follow_content() {
        let a = json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}});
        let b = json!({"version": "v0.9", "deleteSurface": {"surfaceId": "t"}});
        assert_eq!(fingerprint(&a), fingerprint(&a.clone()));
        assert_ne!(fingerprint(&a), fingerprint(&b));
        assert_eq!(common_prefix(&[1, 2, 3], &[1, 2, 4, 5]), 2);
        assert_eq!(common_prefix(&[1, 2], &[1, 2, 3]), 2);
        assert_eq!(common_prefix(&[], &[1]), 0);
    }

    /// Adoption records what applying would have (content, fingerprints, tool-result
    /// operations) but owns only surfaces the group has, and applies and reports nothing.
    #[test]
    fn adopted_history_owns_only_surfaces_that_exist() {
        let catalog = agentui_a2ui::catalog::BASIC_CATALOG_ID;
        let create = |id: &str| json!({"version": "v0.9", "createSurface": {"surfaceId": id, "catalogId": catalog}});
        let mut bridge = A2uiBridge::default();
        assert!(bridge.group_mut().restore_surface(vec![create("kept")]).unwrap().emitted.is_empty());
        let ops = json!({"a2ui_operations": [create("kept"), create("gone")]});
        let mut activity = Message::new("a2ui-surface-a", Role::Activity);
        activity.activity_type = Some(A2UI_ACTIVITY_TYPE.to_owned());
        activity.content = Some(MessageContent::Object(ops.as_object().unwrap().clone()));
        let mut tool = Message::new("t", Role::Tool);
        tool.tool_call_id = Some("call".to_owned());
        tool.content = Some(MessageContent::Text(ops.to_string()));

        bridge.adopt_history(&[activity, tool]);
        assert_eq!(bridge.group().surfaces().map(|s| s.id()).collect::<Vec<_>>(), ["kept"]);
        let tracked = &bridge.activities[0];
        assert_eq!((tracked.content.as_ref(), tracked.applied.len()), (Some(&ops), 2));
        assert_eq!(tracked.surfaces, ["kept"]);
        assert_eq!(bridge.tool_results[0].operations.len(), 2);
        assert_eq!(bridge.tool_results[0].surfaces, ["kept"]);
        assert!(bridge.take_pending_for_agent().is_empty());
    }
}
