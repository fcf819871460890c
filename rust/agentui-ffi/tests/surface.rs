//! A2UI surfaces through the exported API: subscription (reset, then patches), input, actions.

mod common;

use std::sync::Arc;

use agentui_ffi::{
    ActionKindRecord, ActionResultRecord, ConversationError, ConversationUpdate, NodeValue, ResolvedNodeRecord,
    SurfaceDiffRecord, SurfaceError, WarningKind,
};
use common::*;

fn node<'a>(nodes: &'a [ResolvedNodeRecord], id: &str) -> &'a ResolvedNodeRecord {
    nodes.iter().find(|n| n.id == id).unwrap_or_else(|| panic!("node {id} missing"))
}

fn text(value: &str) -> NodeValue {
    NodeValue::Text { value: value.into() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn booking_form_round_trip() {
    let f = fixture();
    tokio::time::timeout(LIMIT, f.conversation.send_message("book a table".into())).await.unwrap().unwrap();
    assert_eq!(f.conversation.surface_ids(), vec!["booking".to_owned()]);
    let surface = f.conversation.surface("booking".into()).expect("the agent's surface");
    assert!(f.conversation.surface("nope".into()).is_none());
    assert_eq!(surface.root_id().as_deref(), Some("root"));

    // The first notification is a full reset of what is there now.
    let diffs = Arc::new(Recorder::<SurfaceDiffRecord>::default());
    let subscription = surface.subscribe(diffs.clone()).unwrap();
    wait_until("the initial reset", || diffs.len() == 1).await;
    let SurfaceDiffRecord::Reset { root, nodes } = diffs.snapshot().remove(0) else {
        panic!("first diff must be a reset")
    };
    assert_eq!(root.as_deref(), Some("root"));
    assert_eq!(nodes.len(), surface.nodes().len());
    let book = node(&nodes, "book");
    assert_eq!(book.component_type, "Button");
    assert!(!book.enabled, "Book is disabled until the checks pass");
    assert_eq!(book.action, Some(ActionKindRecord::Event { name: "book".into() }));
    assert_eq!(book.children, vec!["book-label".to_owned()]);
    let title = node(&nodes, "title");
    assert!(title.props.iter().any(|p| p.name == "text" && p.value == text("Book a table")));
    let name = node(&nodes, "name");
    assert_eq!(name.bindings[0].path, "/booking/name");
    assert_eq!(name.validation_message.as_deref(), Some("Please enter a name"));

    // A refused action is a typed error.
    let refused = tokio::time::timeout(LIMIT, surface.dispatch_action("book".into())).await.unwrap();
    assert!(matches!(&refused, Err(ConversationError::A2ui { code, .. }) if code == "ACTION_REFUSED"), "{refused:?}");

    // Input arrives as patches of just the affected nodes.
    surface.set_value("/booking/name".into(), text("Ada")).unwrap();
    f.conversation.set_value("booking".into(), "/booking/date".into(), text("2026-12-24")).unwrap();
    surface.set_value("/booking/guests".into(), NodeValue::Array { items: vec![text("4")] }).unwrap();
    wait_until("patches for the inputs", || diffs.len() >= 4).await;
    let patches = diffs.snapshot();
    assert!(patches[1..].iter().all(|d| matches!(d, SurfaceDiffRecord::Patch { .. })), "{patches:?}");
    assert!(surface.node("book".into()).unwrap().enabled, "the checks pass now");
    assert!(patches.iter().any(|d| matches!(d, SurfaceDiffRecord::Patch { upserted, .. } if upserted.iter().any(|n| n.id == "book" && n.enabled))));

    // The action goes to the agent, which answers and deletes the form.
    let result = tokio::time::timeout(LIMIT, f.conversation.dispatch_action("booking".into(), "book".into()))
        .await
        .unwrap()
        .unwrap();
    let ActionResultRecord::Ran { summary } = result else { panic!("an event action runs the agent") };
    assert_eq!(summary.run_ids.len(), 1);
    let reply = f.conversation.messages().iter().rev().find_map(|m| match &m.content {
        agentui_ffi::MessageContent::Text { text } if m.role == agentui_ffi::MessageRole::Assistant => {
            Some(text.clone())
        }
        _ => None,
    });
    assert_eq!(reply.as_deref(), Some("Booked a table for 4 on 2026-12-24 under the name Ada."));
    assert!(f.conversation.surface_ids().is_empty(), "the agent deleted the form");
    assert!(!surface.exists());
    assert!(surface.nodes().is_empty());
    wait_until(
        "the deletion reset",
        || matches!(diffs.snapshot().last(), Some(SurfaceDiffRecord::Reset { root: None, nodes }) if nodes.is_empty()),
    )
    .await;
    assert!(subscription.is_active());
    assert!(matches!(surface.subscribe(diffs.clone()), Err(SurfaceError::UnknownSurface { .. })));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn surface_input_errors_are_typed() {
    let f = fixture();
    tokio::time::timeout(LIMIT, f.conversation.send_message("book a table".into())).await.unwrap().unwrap();
    let unknown = f.conversation.set_value("nope".into(), "/x".into(), NodeValue::Null);
    assert_eq!(unknown, Err(SurfaceError::UnknownSurface { surface_id: "nope".into() }));
    let nan = f.conversation.set_value(
        "booking".into(),
        "/booking/name".into(),
        NodeValue::Object {
            entries: vec![agentui_ffi::PropEntry { name: "n".into(), value: NodeValue::Number { value: f64::NAN } }],
        },
    );
    assert!(
        matches!(&nan, Err(SurfaceError::Rejected { code, detail }) if code == "INVALID_VALUE" && detail.contains("/n")),
        "{nan:?}"
    );
    let no_node =
        tokio::time::timeout(LIMIT, f.conversation.dispatch_action("booking".into(), "ghost".into())).await.unwrap();
    assert!(
        matches!(&no_node, Err(ConversationError::A2ui { code, .. }) if code == "COMPONENT_NOT_FOUND"),
        "{no_node:?}"
    );
    let bad_path = f.conversation.set_value("booking".into(), "no-slash".into(), NodeValue::Null);
    assert!(matches!(bad_path, Err(SurfaceError::Rejected { .. })), "{bad_path:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_during_a_run_is_queued_applied_in_order_and_never_lost() {
    let f = fixture();
    tokio::time::timeout(LIMIT, f.conversation.send_message("book a table".into())).await.unwrap().unwrap();
    let updates = Arc::new(Recorder::<ConversationUpdate>::default());
    let _subscription = f.conversation.add_listener(updates.clone());
    let conversation = f.conversation.clone();
    let run = tokio::spawn(async move { conversation.send_message("slow".into()).await });
    wait_until("the slow run", || matches!(f.conversation.status(), agentui_ffi::RunStatus::Running { .. })).await;
    let surface = f.conversation.surface("booking".into()).unwrap();

    // The UI thread is answered at once; nothing is applied under the running agent.
    surface.set_value("/booking/name".into(), text("Ad")).unwrap();
    surface.set_value("/booking/name".into(), text("Ada")).unwrap();
    surface.set_value("/booking/date".into(), text("2026-12-24")).unwrap();
    surface.set_value("/booking/guests/x/y".into(), NodeValue::Null).unwrap();
    assert_eq!(
        f.conversation.set_value("nope".into(), "/x".into(), NodeValue::Null),
        Err(SurfaceError::UnknownSurface { surface_id: "nope".into() }),
        "an unknown surface is refused at once, run or not"
    );
    let name_now = || node(&surface.nodes(), "name").props.iter().find(|p| p.name == "value").map(|p| p.value.clone());
    assert_eq!(name_now(), Some(text("")), "not applied while the run holds the session");

    f.conversation.cancel();
    let _ = tokio::time::timeout(LIMIT, run).await.unwrap().unwrap();
    wait_until("the queued input", || name_now() == Some(text("Ada"))).await;
    assert!(node(&surface.nodes(), "book").enabled, "name and date both arrived");
    wait_until("the refusal report", || {
        updates.snapshot().iter().any(|u| {
            matches!(u, ConversationUpdate::Warning { kind: WarningKind::InputNotApplied, message }
                if message.contains("/booking/guests/x/y"))
        })
    })
    .await;

    // Queued input is in the model before the next run: the action sends what the user typed.
    let booked = tokio::time::timeout(LIMIT, f.conversation.dispatch_action("booking".into(), "book".into()))
        .await
        .unwrap()
        .unwrap();
    assert!(matches!(booked, ActionResultRecord::Ran { .. }), "{booked:?}");
    let said: String = f.conversation.messages().iter().map(|m| format!("{:?}", m.content)).collect();
    assert!(said.contains("Booked a table for 2 on 2026-12-24 under the name Ada."), "{said}");
}
