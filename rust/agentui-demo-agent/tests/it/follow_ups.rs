//! Runs that continue from what the client sent back: tool results, interrupt answers, A2UI
//! actions.

use crate::common;

use common::*;
use serde_json::{json, Value};

fn tool_message(call_id: &Value, content: &str) -> Value {
    json!({"id": format!("tool-{}", call_id.as_str().unwrap()), "role": "tool", "toolCallId": call_id, "content": content})
}

#[tokio::test]
async fn location_result_is_quoted_verbatim() {
    bounded(async {
        let agent = start().await;
        let first = run(&agent, "/agent", &input("r1", json!([user("my location?")]), &["get_location"])).await;
        let call_id = of_type(&first, "TOOL_CALL_START")[0]["toolCallId"].clone();
        let messages =
            json!([user("my location?"), assistant_with_calls(&first), tool_message(&call_id, "Lyon, France (±5 km)")]);
        let second = run(&agent, "/agent", &input("r2", messages, &["get_location"])).await;
        assert_eq!(last_text(&second), "Your location according to the app: Lyon, France (±5 km)");
        assert!(of_type(&second, "TOOL_CALL_START").is_empty(), "no second call");
        assert_eq!(second.last().unwrap()["runId"], "r2");
        assert_eq!(second[1]["messageId"], "msg-r2-1");
    })
    .await;
}

#[tokio::test]
async fn location_failure_is_reported_never_as_done() {
    bounded(async {
        let agent = start().await;
        let first = run(&agent, "/agent/client-tool", &input("r1", json!([user("hi")]), &["get_location"])).await;
        let call_id = of_type(&first, "TOOL_CALL_START")[0]["toolCallId"].clone();
        let mut failed = tool_message(&call_id, "");
        failed["error"] = json!("permission denied by the user");
        let messages = json!([user("hi"), assistant_with_calls(&first), failed]);
        let text = last_text(&run(&agent, "/agent", &input("r2", messages, &["get_location"])).await);
        assert!(text.starts_with("The app reported an error: permission denied by the user"), "{text}");
        assert!(!text.contains("Your location according to the app"));
        assert!(!text.to_lowercase().contains("done"));

        let in_content = tool_message(&call_id, "Error: GPS unavailable");
        let messages = json!([user("hi"), assistant_with_calls(&first), in_content]);
        let text = last_text(&run(&agent, "/agent", &input("r3", messages, &["get_location"])).await);
        assert!(text.starts_with("The app reported an error: Error: GPS unavailable"), "{text}");
    })
    .await;
}

#[tokio::test]
async fn parallel_results_are_paired_by_tool_call_id() {
    bounded(async {
        let agent = start().await;
        let first = run(&agent, "/agent", &input("r1", json!([user("compare")]), &["lookup_price"])).await;
        let assistant = assistant_with_calls(&first);
        let calls = assistant["toolCalls"].as_array().unwrap().clone();
        let id_of = |item: &str| {
            calls.iter().find(|c| c["function"]["arguments"].as_str().unwrap().contains(item)).unwrap()["id"].clone()
        };
        // Results arrive in the opposite order of the calls; only the ids tie them together.
        let messages = json!([
            user("compare"),
            assistant,
            tool_message(&id_of("\"B\""), "12.50 EUR for B"),
            tool_message(&id_of("\"A\""), "9.99 EUR for A"),
        ]);
        let text = last_text(&run(&agent, "/agent", &input("r2", messages, &["lookup_price"])).await);
        assert_eq!(text, "Prices according to the app: A -> 9.99 EUR for A; B -> 12.50 EUR for B");
    })
    .await;
}

#[tokio::test]
async fn a_missing_parallel_result_is_visible() {
    bounded(async {
        let agent = start().await;
        let first = run(&agent, "/agent", &input("r1", json!([user("compare")]), &["lookup_price"])).await;
        let assistant = assistant_with_calls(&first);
        let b = assistant["toolCalls"][1]["id"].clone();
        let messages = json!([user("compare"), assistant, tool_message(&b, "12 EUR")]);
        let text = last_text(&run(&agent, "/agent", &input("r2", messages, &["lookup_price"])).await);
        assert_eq!(text, "Prices according to the app: A -> (no result); B -> 12 EUR");
    })
    .await;
}

#[tokio::test]
async fn a_result_for_an_unknown_call_is_called_out() {
    bounded(async {
        let agent = start().await;
        let messages = json!([user("hi"), tool_message(&json!("call-nobody-1"), "42")]);
        let text = last_text(&run(&agent, "/agent", &input("r2", messages, &[])).await);
        assert!(text.contains("\"call-nobody-1\", which I never made"), "{text}");
    })
    .await;
}

#[tokio::test]
async fn an_unregistered_tool_error_is_reported() {
    bounded(async {
        let agent = start().await;
        let first = run(&agent, "/agent/unregistered-tool", &input("r1", json!([user("hi")]), &[])).await;
        let call_id = of_type(&first, "TOOL_CALL_START")[0]["toolCallId"].clone();
        let mut failed = tool_message(&call_id, "");
        failed["error"] = json!("no tool named teleport is registered");
        let messages = json!([user("hi"), assistant_with_calls(&first), failed]);
        let text = last_text(&run(&agent, "/agent", &input("r2", messages, &[])).await);
        assert_eq!(text, "The app reported an error for teleport: no tool named teleport is registered");
    })
    .await;
}

fn resume_input(run_id: &str, interrupt_id: &str, status: &str, payload: Option<Value>) -> Value {
    let mut body = input(run_id, json!([user("delete report.pdf")]), &[]);
    let mut entry = json!({"interruptId": interrupt_id, "status": status});
    if let Some(payload) = payload {
        entry["payload"] = payload;
    }
    body["resume"] = json!([entry]);
    body
}

#[tokio::test]
async fn interrupt_resolved_deletes_and_cancelled_keeps() {
    bounded(async {
        let agent = start().await;
        let first = run(&agent, "/agent", &input("r1", json!([user("delete report.pdf")]), &[])).await;
        let id = first.last().unwrap()["outcome"]["interrupts"][0]["id"].as_str().unwrap().to_owned();

        let approved =
            run(&agent, "/agent", &resume_input("r2", &id, "resolved", Some(json!({"approved": true})))).await;
        assert_eq!(last_text(&approved), "Deleted report.pdf.");
        assert_eq!(approved.last().unwrap()["outcome"]["type"], "success");

        let no_payload = run(&agent, "/agent", &resume_input("r3", &id, "resolved", None)).await;
        assert_eq!(last_text(&no_payload), "Deleted report.pdf.");

        let cancelled = run(&agent, "/agent", &resume_input("r4", &id, "cancelled", None)).await;
        assert_eq!(last_text(&cancelled), "Kept report.pdf.");

        let declined =
            run(&agent, "/agent", &resume_input("r5", &id, "resolved", Some(json!({"approved": false})))).await;
        assert_eq!(last_text(&declined), "Kept report.pdf.");
    })
    .await;
}

#[tokio::test]
async fn a_legacy_command_resume_is_quoted_back() {
    bounded(async {
        let agent = start().await;
        let mut body = input("r2", json!([user("legacy approval please")]), &[]);
        body["forwardedProps"] = json!({"command": {"resume": {"approved": true}}, "other": 1});
        let events = run(&agent, "/agent", &body).await;
        assert_eq!(last_text(&events), r#"Approved: {"approved":true}"#);
        assert!(of_type(&events, "CUSTOM").is_empty(), "answered, not asked again: {events:#?}");
        assert_eq!(events.last().unwrap()["type"], "RUN_FINISHED");

        // Without command.resume the same message asks again.
        body["forwardedProps"] = json!({"command": {}});
        let asked = run(&agent, "/agent", &body).await;
        assert_eq!(of_type(&asked, "CUSTOM")[0]["name"], "on_interrupt");
    })
    .await;
}

#[tokio::test]
async fn resuming_an_expired_interrupt_deletes_nothing() {
    bounded(async {
        let agent = start().await;
        let first = run(&agent, "/agent/expired-interrupt", &input("r1", json!([]), &[])).await;
        let id = first.last().unwrap()["outcome"]["interrupts"][0]["id"].as_str().unwrap().to_owned();
        let events = run(&agent, "/agent", &resume_input("r2", &id, "resolved", Some(json!({"approved": true})))).await;
        let text = last_text(&events);
        assert!(text.contains("expired") && text.contains("kept report.pdf"), "{text}");
    })
    .await;
}

fn action_input(run_id: &str, name: &str, context: Value) -> Value {
    let mut body = input(run_id, json!([user("book a table")]), &[]);
    body["forwardedProps"] = json!({"a2uiAction": {"userAction": {
        "name": name, "surfaceId": "booking", "sourceComponentId": "book",
        "timestamp": "2030-01-01T00:00:00Z", "context": context,
    }}});
    body
}

#[tokio::test]
async fn booking_action_is_answered_with_the_submitted_values_and_the_form_is_deleted() {
    bounded(async {
        let agent = start().await;
        let context = json!({"name": "Zoë", "date": "2030-05-01", "guests": ["3"]});
        let events = run(&agent, "/agent", &action_input("r2", "book", context)).await;
        assert_eq!(last_text(&events), "Booked a table for 3 on 2030-05-01 under the name Zoë.");
        let snapshot = &of_type(&events, "ACTIVITY_SNAPSHOT")[0];
        assert_eq!(snapshot["activityType"], "a2ui-surface");
        assert_eq!(
            snapshot["content"]["a2ui_operations"],
            json!([{"version": "v0.9", "deleteSurface": {"surfaceId": "booking"}}])
        );
    })
    .await;
}

#[tokio::test]
async fn incomplete_or_unknown_actions_book_nothing() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent", &action_input("r2", "book", json!({"name": "Ada", "date": ""}))).await;
        assert_eq!(last_text(&events), "The booking form arrived without date, guests; nothing was booked.");
        assert!(of_type(&events, "ACTIVITY_SNAPSHOT").is_empty(), "the form stays");

        let events = run(&agent, "/agent", &action_input("r3", "cancel", json!({}))).await;
        assert!(last_text(&events).contains("do not know the action \"cancel\""));
    })
    .await;
}

#[tokio::test]
async fn navigation_asks_for_the_named_screen_and_reports_only_what_the_app_confirmed() {
    bounded(async {
        let agent = start().await;
        let first =
            run(&agent, "/agent", &input("r1", json!([user("Open my profile please")]), &["navigate_to"])).await;
        let start = &of_type(&first, "TOOL_CALL_START")[0];
        assert_eq!(start["toolCallName"], "navigate_to");
        let args: String = of_type(&first, "TOOL_CALL_ARGS").iter().map(|e| e["delta"].as_str().unwrap()).collect();
        assert_eq!(serde_json::from_str::<Value>(&args).unwrap(), json!({"screen": "profile"}));
        let call_id = start["toolCallId"].clone();
        let answer = |content: &str, error: Option<&str>| {
            let mut result = tool_message(&call_id, content);
            if let Some(error) = error {
                result["error"] = json!(error);
            }
            json!([user("Open my profile please"), assistant_with_calls(&first), result])
        };

        let navigated = answer(r#"{"navigated":true,"screen":"profile"}"#, None);
        let done = run(&agent, "/agent", &input("r2", navigated, &["navigate_to"])).await;
        assert_eq!(last_text(&done), "Done: the app now shows profile.");
        let unconfirmed =
            run(&agent, "/agent", &input("r3", answer(r#"{"navigated":false}"#, None), &["navigate_to"])).await;
        let text = last_text(&unconfirmed);
        assert!(text.starts_with("The app did not confirm the navigation"), "{text}");
        let refused = answer("", Some("unknown screen 'profile'"));
        let failed = run(&agent, "/agent", &input("r4", refused, &["navigate_to"])).await;
        assert_eq!(last_text(&failed), "The app could not navigate: unknown screen 'profile'");

        let undeclared = run(&agent, "/agent", &input("r5", json!([user("open settings")]), &["other"])).await;
        assert!(of_type(&undeclared, "TOOL_CALL_START").is_empty());
        assert!(last_text(&undeclared).contains("no navigate_to tool"));
    })
    .await;
}
