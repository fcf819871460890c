//! The booking form through the project's own A2UI engine: every delivery is accepted by the
//! basic catalog, the Book button stays disabled until the required fields are filled, and the
//! action it produces is answered by the agent with the values the user entered.

use crate::common;

use agentui_a2ui::catalog::CatalogRegistry;
use agentui_a2ui::wire::v08;
use agentui_a2ui::wire::v09::ClientMessage;
use agentui_a2ui::{Limits, SurfaceGroup};
use common::*;
use serde_json::{json, Value};

fn engine() -> SurfaceGroup {
    SurfaceGroup::new(CatalogRegistry::with_basic(), Limits::default())
}

fn apply_all(group: &mut SurfaceGroup, operations: &[Value]) {
    for op in operations {
        let outcome = group.process_value(op);
        assert!(outcome.emitted.is_empty(), "engine rejected {op}: {:?}", outcome.emitted);
    }
    assert_eq!(group.pending_count(), 0, "every operation reached its surface");
}

/// Fills the form, presses Book, and returns the action the engine produced.
fn fill_and_book(group: &mut SurfaceGroup) -> agentui_a2ui::wire::v09::ActionMessage {
    assert!(group.dispatch_action("booking", "book").is_err(), "Book is disabled while the form is empty");
    group.set_value("booking", "/booking/name", json!("Zoë Martin")).unwrap();
    group.set_value("booking", "/booking/date", json!("2030-05-01")).unwrap();
    group.set_value("booking", "/booking/guests", json!(["4"])).unwrap();
    let outcome = group.dispatch_action("booking", "book").expect("Book is enabled");
    match outcome.message {
        Some(ClientMessage::Action(action)) => action,
        other => panic!("expected an action, got {other:?}"),
    }
}

async fn answer(agent: &agentui_demo_agent::DemoAgentHandle, forwarded: Value) -> Vec<Value> {
    let mut body = input("r2", json!([user("book a table")]), &[]);
    body["forwardedProps"] = json!({"a2uiAction": forwarded});
    run(agent, "/agent", &body).await
}

#[tokio::test]
async fn v09_activity_form_round_trips_through_the_engine() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent/a2ui", &input("r1", json!([user("book")]), &[])).await;
        let operations = of_type(&events, "ACTIVITY_SNAPSHOT")[0]["content"]["a2ui_operations"].clone();
        let mut group = engine();
        apply_all(&mut group, operations.as_array().unwrap());

        let action = fill_and_book(&mut group);
        assert_eq!(action.name, "book");
        let user_action = v08::user_action(&action)["userAction"].clone();
        let reply = answer(&agent, json!({"userAction": user_action})).await;
        assert_eq!(last_text(&reply), "Booked a table for 4 on 2030-05-01 under the name Zoë Martin.");

        let delete = of_type(&reply, "ACTIVITY_SNAPSHOT")[0]["content"]["a2ui_operations"].clone();
        apply_all(&mut group, delete.as_array().unwrap());
        assert!(group.surface("booking").is_none(), "the form is gone");
    })
    .await;
}

#[tokio::test]
async fn tool_result_form_is_the_same_form() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent/a2ui-tool-result", &input("r1", json!([]), &[])).await;
        let content: Value =
            serde_json::from_str(of_type(&events, "TOOL_CALL_RESULT")[0]["content"].as_str().unwrap()).unwrap();
        let mut group = engine();
        apply_all(&mut group, content["a2ui_operations"].as_array().unwrap());
        let action = fill_and_book(&mut group);
        // The v0.9 wire form of the action is accepted too.
        let reply = answer(&agent, json!({"action": ClientMessage::Action(action).to_wire()["action"]})).await;
        assert_eq!(last_text(&reply), "Booked a table for 4 on 2030-05-01 under the name Zoë Martin.");
    })
    .await;
}

#[tokio::test]
async fn v08_form_built_from_activity_deltas_works_in_the_engine() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent/a2ui-v08", &input("r1", json!([]), &[])).await;
        let mut operations: Vec<Value> =
            of_type(&events, "ACTIVITY_SNAPSHOT")[0]["content"]["a2ui_operations"].as_array().unwrap().clone();
        for delta in of_type(&events, "ACTIVITY_DELTA") {
            operations.push(delta["patch"][0]["value"].clone());
        }
        let mut group = engine();
        apply_all(&mut group, &operations);
        // v0.8 has no checks, so fill the form before pressing Book there too.
        group.set_value("booking", "/booking/name", json!("Zoë Martin")).unwrap();
        group.set_value("booking", "/booking/date", json!("2030-05-01")).unwrap();
        group.set_value("booking", "/booking/guests", json!(["4"])).unwrap();
        let Some(ClientMessage::Action(action)) = group.dispatch_action("booking", "book").unwrap().message else {
            panic!("expected an action")
        };
        let reply = answer(&agent, v08::user_action(&action)).await;
        assert_eq!(last_text(&reply), "Booked a table for 4 on 2030-05-01 under the name Zoë Martin.");
    })
    .await;
}

#[tokio::test]
async fn v10_signup_card_round_trips_through_the_engine() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent", &input("r1", json!([user("I want to sign up")]), &[])).await;
        let operations = of_type(&events, "ACTIVITY_SNAPSHOT")[0]["content"]["a2ui_operations"].clone();
        assert_eq!(operations[0]["version"], "1.0");
        let mut group = engine();
        apply_all(&mut group, operations.as_array().unwrap());
        let surface = group.surface("signup").unwrap();
        // What v1.0 adds reaches the nodes.
        assert_eq!(surface.node("email").unwrap().props.get("placeholder"), Some(&json!("you@example.com")));
        assert_eq!(surface.node("level").unwrap().props.get("steps"), Some(&json!(4)));
        assert_eq!(
            surface.node("intro").unwrap().props.get("posterUrl"),
            Some(&json!("https://example.com/beta-tour.jpg"))
        );
        assert_eq!(surface.node("status").unwrap().accessibility.as_ref().unwrap().live.as_deref(), Some("polite"));
        assert_eq!(surface.node("rule").unwrap().accessibility.as_ref().unwrap().hidden, Some(true));
        let check = &surface.node("email").unwrap().checks[0];
        assert_eq!((check.passed, check.code.as_deref()), (false, Some("INVALID_EMAIL")));
        assert!(group.dispatch_action("signup", "join").is_err(), "Sign up is disabled until the email is valid");

        group.set_value("signup", "/email", json!("zoe@example.com")).unwrap();
        group.set_value("signup", "/newsletter", json!(3)).unwrap();
        let message = group.dispatch_action("signup", "join").expect("enabled").message.expect("an action");
        let wire = message.to_wire();
        assert_eq!(wire["version"], "v1.0");
        assert_eq!(wire["action"]["userMessage"], "Sign me up as zoe@example.com");

        let reply = answer(&agent, json!({"action": wire["action"]})).await;
        assert_eq!(last_text(&reply), "Signed up zoe@example.com for 3 newsletters a month.");
        let update = of_type(&reply, "ACTIVITY_SNAPSHOT")[0]["content"]["a2ui_operations"].clone();
        apply_all(&mut group, update.as_array().unwrap());
        let status = group.surface("signup").unwrap().node("status").unwrap().props.get("text").cloned();
        assert_eq!(status, Some(json!("Welcome aboard, zoe@example.com!")));
    })
    .await;
}
