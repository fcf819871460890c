//! A2UI surfaces through the exported API: a pulled feed (reset, then patches), input, actions.

use crate::common;

use std::sync::Arc;

use agentui_ffi::{
    ActionKind, ActionResult, ConversationError, NodeValue, ResolvedNode, RunPhase, SurfaceDiff, SurfaceEntry,
    SurfaceError, ValueWrite,
};
use common::*;

fn node<'a>(nodes: &'a [Arc<ResolvedNode>], id: &str) -> &'a ResolvedNode {
    nodes.iter().find(|n| &*n.id == id).unwrap_or_else(|| panic!("node {id} missing"))
}

fn write(surface_id: &str, path: &str, value: NodeValue) -> ValueWrite {
    ValueWrite { surface_id: surface_id.into(), path: path.into(), value }
}

fn text(value: &str) -> NodeValue {
    NodeValue::Text { value: value.into() }
}

/// One pull: at least one diff, with everything else queued.
async fn next_diffs(feed: &agentui_ffi::SurfaceFeed) -> Vec<SurfaceDiff> {
    tokio::time::timeout(LIMIT, feed.next_diffs()).await.unwrap().unwrap().expect("the feed is open")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn booking_form_round_trip() {
    let f = fixture();
    tokio::time::timeout(LIMIT, f.conversation.send_message("book a table".into())).await.unwrap().unwrap();
    let entries = f.conversation.snapshot().unwrap().surfaces;
    assert_eq!(entries.iter().map(|e: &SurfaceEntry| e.surface_id.as_str()).collect::<Vec<_>>(), vec!["booking"]);
    let surface = f.conversation.surface("booking".into()).expect("the agent's surface");
    assert!(f.conversation.surface("nope".into()).is_none());
    assert_eq!(surface.root.as_deref(), Some("root"));

    // The first diff is a full reset of what is there now.
    let feed = f.conversation.surface_feed("booking".into()).unwrap();
    let mut diffs = next_diffs(&feed).await;
    let SurfaceDiff::Reset { root, nodes } = diffs.remove(0) else { panic!("first diff must be a reset") };
    assert_eq!(root.as_deref(), Some("root"));
    assert_eq!(nodes.len(), surface.nodes.len());
    let book = node(&nodes, "book");
    assert_eq!(&*book.component_type, "Button");
    assert!(!book.enabled, "Book is disabled until the checks pass");
    assert_eq!(book.action, Some(ActionKind::Event { name: "book".into() }));
    assert_eq!(book.children, vec![Arc::<str>::from("book-label")]);
    let title = node(&nodes, "title");
    assert_eq!(title.props.get("text"), Some(&serde_json::json!("Book a table")));
    let name = node(&nodes, "name");
    assert_eq!(&*name.bindings[0].path, "/booking/name");
    assert_eq!(name.validation_message.as_deref(), Some("Please enter a name"));

    // A refused action is a typed error.
    let refused = tokio::time::timeout(LIMIT, f.conversation.dispatch_action("booking".into(), "book".into(), None))
        .await
        .unwrap();
    assert!(matches!(&refused, Err(ConversationError::A2ui { code, .. }) if code == "ACTION_REFUSED"), "{refused:?}");

    // Input applies at once and arrives as patches of just the affected nodes.
    f.conversation.set_value(write("booking", "/booking/name", text("Ada"))).unwrap();
    f.conversation.set_value(write("booking", "/booking/date", text("2026-12-24"))).unwrap();
    f.conversation.set_value(write("booking", "/booking/guests", NodeValue::Array { items: vec![text("4")] })).unwrap();
    assert!(surface_node(&f.conversation, "booking", "book").unwrap().enabled, "the checks pass now");
    // Published before the pull, so one pull takes them all.
    let patches = next_diffs(&feed).await;
    assert!(!patches.is_empty() && patches.iter().all(|d| matches!(d, SurfaceDiff::Patch { .. })), "{patches:?}");
    assert!(patches.iter().any(
        |d| matches!(d, SurfaceDiff::Patch { upserted, .. } if upserted.iter().any(|n| &*n.id == "book" && n.enabled))
    ));
    assert!(patches.iter().all(|d| matches!(d, SurfaceDiff::Patch { upserted, .. } if upserted.len() < nodes.len())));

    // The action goes to the agent, which answers and deletes the form.
    let result = tokio::time::timeout(LIMIT, f.conversation.dispatch_action("booking".into(), "book".into(), None))
        .await
        .unwrap()
        .unwrap();
    let ActionResult::Ran(summary) = result else { panic!("an event action runs the agent") };
    assert_eq!(summary.run_ids.len(), 1);
    assert_eq!(last_assistant_text(&f.conversation), "Booked a table for 4 on 2026-12-24 under the name Ada.");
    assert!(f.conversation.snapshot().unwrap().surfaces.is_empty(), "the agent deleted the form");
    assert!(f.conversation.surface("booking".into()).is_none());
    let mut last = next_diffs(&feed).await;
    // The diffs the answer made before it deleted the form, if any, come first.
    while !matches!(last.last(), Some(SurfaceDiff::Reset { .. })) {
        last = next_diffs(&feed).await;
    }
    assert!(
        matches!(last.last(), Some(SurfaceDiff::Reset { root: None, nodes }) if nodes.is_empty()),
        "the deletion is an empty reset"
    );
    let gone = f.conversation.surface_feed("booking".into());
    assert!(matches!(gone, Err(SurfaceError::UnknownSurface { .. })));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn surface_input_errors_are_typed() {
    let f = fixture();
    tokio::time::timeout(LIMIT, f.conversation.send_message("book a table".into())).await.unwrap().unwrap();
    let unknown = f.conversation.set_value(write("nope", "/x", NodeValue::Null));
    assert_eq!(unknown, Err(SurfaceError::UnknownSurface { surface_id: "nope".into() }));
    let nan = f.conversation.set_value(write(
        "booking",
        "/booking/name",
        NodeValue::Object {
            entries: vec![agentui_ffi::PropEntry { name: "n".into(), value: NodeValue::Number { value: f64::NAN } }],
        },
    ));
    assert!(
        matches!(&nan, Err(SurfaceError::Rejected { code, detail }) if code == "INVALID_VALUE" && detail.contains("/n")),
        "{nan:?}"
    );
    let no_node = tokio::time::timeout(LIMIT, f.conversation.dispatch_action("booking".into(), "ghost".into(), None))
        .await
        .unwrap();
    assert!(
        matches!(&no_node, Err(ConversationError::A2ui { code, .. }) if code == "COMPONENT_NOT_FOUND"),
        "{no_node:?}"
    );
    let bad_path = f.conversation.set_value(write("booking", "no-slash", NodeValue::Null));
    assert!(matches!(bad_path, Err(SurfaceError::Rejected { .. })), "{bad_path:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_during_a_run_applies_at_once() {
    let f = fixture();
    tokio::time::timeout(LIMIT, f.conversation.send_message("book a table".into())).await.unwrap().unwrap();
    let conversation = f.conversation.clone();
    let run = tokio::spawn(async move { conversation.send_message("slow".into()).await });
    wait_until("the slow run", || matches!(phase(&f.conversation), RunPhase::Running { .. })).await;

    // Nothing waits for the run: each write is in the model when the call returns.
    let value = |id: &str| {
        surface_node(&f.conversation, "booking", id).and_then(|n| n.props.get("value").cloned()).map(NodeValue::from)
    };
    f.conversation.set_value(write("booking", "/booking/name", text("Ad"))).unwrap();
    assert_eq!(value("name"), Some(text("Ad")));
    f.conversation.set_value(write("booking", "/booking/name", text("Ada"))).unwrap();
    f.conversation.set_value(write("booking", "/booking/date", text("2026-12-24"))).unwrap();
    assert_eq!(value("name"), Some(text("Ada")));
    assert!(surface_node(&f.conversation, "booking", "book").unwrap().enabled, "name and date both arrived");
    assert!(matches!(phase(&f.conversation), RunPhase::Running { .. }), "the run still streams");
    assert_eq!(
        f.conversation.set_value(write("nope", "/x", NodeValue::Null)),
        Err(SurfaceError::UnknownSurface { surface_id: "nope".into() }),
    );

    f.conversation.cancel();
    let _ = tokio::time::timeout(LIMIT, run).await.unwrap().unwrap();
    let booked = tokio::time::timeout(LIMIT, f.conversation.dispatch_action("booking".into(), "book".into(), None))
        .await
        .unwrap()
        .unwrap();
    assert!(matches!(booked, ActionResult::Ran(_)), "{booked:?}");
    let said: String = messages(&f.conversation).iter().map(|m| format!("{:?}", m.content)).collect();
    assert!(said.contains("Booked a table for 2 on 2026-12-24 under the name Ada."), "{said}");
}

fn object(entries: &[(&str, NodeValue)]) -> NodeValue {
    NodeValue::Object {
        entries: entries
            .iter()
            .map(|(name, value)| agentui_ffi::PropEntry { name: (*name).into(), value: value.clone() })
            .collect(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v10_agent_function_calls_and_action_metadata_through_the_api() {
    let f = fixture();
    tokio::time::timeout(LIMIT, f.conversation.send_message("I want to sign up".into())).await.unwrap().unwrap();

    let call = object(&[("call", text("checkEmail")), ("args", object(&[("email", text("taken@example.com"))]))]);
    let answer =
        tokio::time::timeout(LIMIT, f.conversation.call_agent_function("signup".into(), call)).await.unwrap().unwrap();
    assert_eq!(answer, serde_json::json!({"email": "taken@example.com", "available": false}));
    let failed = f.conversation.call_agent_function("signup".into(), object(&[("call", text("nope"))])).await;
    assert!(
        matches!(&failed, Err(ConversationError::AgentFunctionFailed { code, .. }) if code == "UNKNOWN_FUNCTION"),
        "{failed:?}"
    );
    let silent = f.conversation.call_agent_function("signup".into(), object(&[("call", text("silent"))])).await;
    assert!(matches!(silent, Err(ConversationError::AgentFunctionUnanswered { .. })), "{silent:?}");
    let nan = object(&[("call", text("checkEmail")), ("args", NodeValue::Number { value: f64::NAN })]);
    let nan = f.conversation.call_agent_function("signup".into(), nan).await;
    assert!(matches!(nan, Err(ConversationError::InvalidJson { .. })), "{nan:?}");

    // Metadata must be an object; a v1.0 action carries it to the agent, which quotes it.
    f.conversation.set_value(write("signup", "/email", text("zoe@example.com"))).unwrap();
    let not_object = f.conversation.dispatch_action("signup".into(), "join".into(), Some(text("x"))).await;
    assert!(matches!(not_object, Err(ConversationError::InvalidJson { .. })), "{not_object:?}");
    let metadata = object(&[("client_audit", text("abc"))]);
    let result = tokio::time::timeout(
        LIMIT,
        f.conversation.dispatch_action("signup".into(), "join".into(), Some(metadata.clone())),
    )
    .await
    .unwrap()
    .unwrap();
    assert!(matches!(result, ActionResult::Ran(_)), "{result:?}");
    assert_eq!(
        last_assistant_text(&f.conversation),
        "Signed up zoe@example.com for 2 newsletters a month. Metadata: {\"client_audit\":\"abc\"}"
    );

    // The v0.9 booking form refuses metadata and calls.
    tokio::time::timeout(LIMIT, f.conversation.send_message("book a table".into())).await.unwrap().unwrap();
    f.conversation.set_value(write("booking", "/booking/name", text("Ada"))).unwrap();
    f.conversation.set_value(write("booking", "/booking/date", text("2026-12-24"))).unwrap();
    assert!(surface_node(&f.conversation, "booking", "book").unwrap().enabled);
    let refused = f.conversation.dispatch_action("booking".into(), "book".into(), Some(metadata)).await;
    assert!(
        matches!(&refused, Err(ConversationError::A2ui { code, detail }) if code == "ACTION_REFUSED" && detail.contains("v1.0 only")),
        "{refused:?}"
    );
    let refused = f.conversation.call_agent_function("booking".into(), object(&[("call", text("checkEmail"))])).await;
    assert!(matches!(&refused, Err(ConversationError::A2ui { code, .. }) if code == "ACTION_REFUSED"), "{refused:?}");
}
