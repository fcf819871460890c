//! Every step kind of a script, played to the real client: a conversation of agentui-runtime
//! against the scripted agent on loopback.

use std::time::{Duration, Instant};

use agentui_agui::Message;
use agentui_runtime::session::RunPhase;
use agentui_runtime::session::{
    ClientTool, ConversationSession, SessionError, SessionOptions, SessionWarningKind, ToolInvocation,
};
use agentui_runtime::Conversation;
use agentui_testing::{latest_user_text, AgentServer, Script, ScriptedAgent, UNMATCHED_STATUS};
use serde_json::{json, Value};

const LIMIT: Duration = Duration::from_secs(30);
const CATALOG: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

async fn agent(script: Value) -> AgentServer {
    let script = Script::from_json(&script.to_string()).expect("the script loads");
    ScriptedAgent::start(script, "127.0.0.1:0".parse().unwrap()).await.expect("the agent starts")
}

fn conversation(agent: &AgentServer) -> Conversation {
    let session = ConversationSession::connect(&agent.url(), &[], SessionOptions::default()).expect("session");
    Conversation::start(session, tokio::runtime::Handle::current())
}

fn last_assistant_text(messages: &[Message]) -> String {
    messages
        .iter()
        .rev()
        .find_map(|m| (m.role.as_str() == "assistant").then(|| m.text().map(str::to_owned)).flatten())
        .unwrap_or_default()
}

fn rule(says: &str, reply: Value) -> Value {
    json!({"when": {"userSays": says}, "reply": reply})
}

#[tokio::test]
async fn text_is_streamed_in_chunks_and_the_request_is_recorded() {
    let agent = agent(
        json!({"rules": [rule("hello", json!([{"type": "text", "text": "Hi there, café ☕!", "chunkChars": 4}]))]}),
    )
    .await;
    let conv = conversation(&agent);
    let summary = tokio::time::timeout(LIMIT, conv.send_message("hello".into())).await.unwrap().unwrap();
    assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
    assert_eq!(last_assistant_text(&conv.snapshot().unwrap().messages), "Hi there, café ☕!");
    let requests = agent.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(latest_user_text(&requests[0]).as_deref(), Some("hello"));
    assert_eq!(requests[0]["runId"], json!(summary.run_ids[0]));
    agent.assert_all_matched().unwrap();
}

#[tokio::test]
async fn a_pattern_rule_matches_and_the_first_matching_rule_wins() {
    let agent = agent(json!({"rules": [
        {"when": {"userMatches": "(?i)book .* table"}, "reply": [{"type": "text", "text": "pattern"}]},
        rule("book a table", json!([{"type": "text", "text": "exact"}])),
    ]}))
    .await;
    let conv = conversation(&agent);
    tokio::time::timeout(LIMIT, conv.send_message("Please BOOK a big table".into())).await.unwrap().unwrap();
    assert_eq!(last_assistant_text(&conv.snapshot().unwrap().messages), "pattern");
}

#[tokio::test]
async fn a_client_tool_call_ends_the_run_and_its_result_finds_the_tool_result_rule() {
    let agent = agent(json!({"rules": [
        rule("where am I", json!([
            {"type": "text", "text": "Let me ask the app."},
            {"type": "toolCall", "name": "get_location", "arguments": {"precision": "city"}},
        ])),
        {"when": {"toolResult": "get_location"}, "reply": [{"type": "text", "text": "You are in Lisbon."}]},
    ]}))
    .await;
    let conv = conversation(&agent);
    let tool = ClientTool::new(
        "get_location",
        "where the user is",
        json!({"type": "object"}),
        |call: ToolInvocation| async move {
            assert_eq!(call.arguments, json!({"precision": "city"}));
            Ok(json!({"city": "Lisbon"}))
        },
    )
    .unwrap();
    conv.register_tool(tool).unwrap();
    let summary = tokio::time::timeout(LIMIT, conv.send_message("where am I".into())).await.unwrap().unwrap();
    assert_eq!(summary.run_ids.len(), 2, "the result went back in a follow-up run");
    assert_eq!(last_assistant_text(&conv.snapshot().unwrap().messages), "You are in Lisbon.");
    let requests = agent.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0]["tools"][0]["name"], "get_location", "the test can see the tools the app declared");
    let last = requests[1]["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["role"], "tool");
    assert!(last["content"].as_str().unwrap().contains("Lisbon"), "{last}");
    agent.assert_all_matched().unwrap();
}

#[tokio::test]
async fn a_server_tool_shows_its_call_and_result() {
    let agent = agent(json!({"rules": [rule("weather", json!([
        {"type": "serverTool", "name": "get_weather", "arguments": {"city": "Paris"}, "result": {"temperatureC": 18}},
        {"type": "text", "text": "18 °C"},
    ]))]}))
    .await;
    let conv = conversation(&agent);
    tokio::time::timeout(LIMIT, conv.send_message("weather".into())).await.unwrap().unwrap();
    let snapshot = conv.snapshot().unwrap();
    assert!(snapshot.tool_calls.iter().any(|c| c.tool_name == "get_weather"), "{:?}", snapshot.tool_calls);
    let arguments =
        snapshot.messages.iter().flat_map(|m| m.tool_calls.iter().flatten()).find(|c| c.function.name == "get_weather");
    assert_eq!(arguments.map(|c| c.function.arguments.as_str()), Some(r#"{"city":"Paris"}"#));
    let result = snapshot.messages.iter().find(|m| m.role.as_str() == "tool").expect("the result message");
    assert!(result.text().unwrap_or_default().contains("18"), "{result:?}");
    assert_eq!(last_assistant_text(&snapshot.messages), "18 °C");
}

#[tokio::test]
async fn a_surface_of_each_supported_version_renders() {
    let v09 = json!([
        {"version": "v0.9", "createSurface": {"surfaceId": "card", "catalogId": CATALOG}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "card", "components": [
            {"id": "root", "component": "Text", "text": "Hello from v0.9"}
        ]}},
    ]);
    let v08 = json!([
        {"surfaceUpdate": {"surfaceId": "old", "components": [
            {"id": "root", "component": {"Text": {"text": {"literalString": "Hello from v0.8"}}}}
        ]}},
        {"beginRendering": {"surfaceId": "old", "root": "root"}},
    ]);
    let agent = agent(json!({"rules": [rule("show", json!([
        {"type": "surface", "messages": v09},
        {"type": "surface", "messages": v08},
    ]))]}))
    .await;
    let conv = conversation(&agent);
    tokio::time::timeout(LIMIT, conv.send_message("show".into())).await.unwrap().unwrap();
    for (surface, text) in [("card", "Hello from v0.9"), ("old", "Hello from v0.8")] {
        let snapshot = conv.surface(surface).unwrap_or_else(|| panic!("surface {surface}"));
        let root = snapshot.nodes.iter().find(|n| &*n.id == "root").unwrap();
        assert_eq!(root.props["text"], text);
    }
}

#[tokio::test]
async fn state_snapshots_and_deltas_reach_the_conversation_state() {
    let agent = agent(json!({"rules": [rule("count", json!([
        {"type": "stateSnapshot", "snapshot": {"count": 1}},
        {"type": "stateDelta", "delta": [{"op": "replace", "path": "/count", "value": 2}]},
    ]))]}))
    .await;
    let conv = conversation(&agent);
    tokio::time::timeout(LIMIT, conv.send_message("count".into())).await.unwrap().unwrap();
    assert_eq!(conv.snapshot().unwrap().state, json!({"count": 2}));
}

#[tokio::test]
async fn an_interrupt_waits_for_the_user_and_its_answer_finds_its_rule() {
    let agent = agent(json!({"rules": [
        rule("delete it", json!([{"type": "interrupt", "reason": "confirm_delete", "message": "Delete?"}])),
        {"when": {"interruptAnswered": "confirm_delete"}, "reply": [{"type": "text", "text": "Deleted."}]},
    ]}))
    .await;
    let conv = conversation(&agent);
    let summary = tokio::time::timeout(LIMIT, conv.send_message("delete it".into())).await.unwrap().unwrap();
    let RunPhase::Interrupted { interrupts, .. } = summary.phase else { panic!("{:?}", summary.phase) };
    assert_eq!(interrupts[0].reason, "confirm_delete");
    conv.resolve_interrupt(&interrupts[0].id, Some(json!({"approved": true}))).unwrap();
    tokio::time::timeout(LIMIT, conv.continue_run()).await.unwrap().unwrap();
    assert_eq!(last_assistant_text(&conv.snapshot().unwrap().messages), "Deleted.");
    let resume = &agent.requests()[1]["resume"][0];
    assert_eq!(resume["payload"], json!({"approved": true}), "the test can see the resume value");
}

#[tokio::test]
async fn a_run_error_is_the_agent_s_error() {
    let agent = agent(json!({"rules": [rule("fail", json!([
        {"type": "text", "text": "Trying"},
        {"type": "runError", "message": "quota exceeded", "code": "quota"},
    ]))]}))
    .await;
    let conv = conversation(&agent);
    let error = tokio::time::timeout(LIMIT, conv.send_message("fail".into())).await.unwrap().unwrap_err();
    assert!(
        matches!(&error, SessionError::Agent { message, code } if message == "quota exceeded" && code.as_deref() == Some("quota")),
        "{error:?}"
    );
}

#[tokio::test]
async fn an_http_error_is_answered_instead_of_a_stream() {
    let agent =
        agent(json!({"rules": [rule("hi", json!([{"type": "httpError", "status": 403, "body": "forbidden here"}]))]}))
            .await;
    let conv = conversation(&agent);
    let error = tokio::time::timeout(LIMIT, conv.send_message("hi".into())).await.unwrap().unwrap_err();
    let text = format!("{error:?}");
    assert!(text.contains("403") && text.contains("forbidden here"), "{text}");
    agent.assert_all_matched().unwrap();
}

#[tokio::test]
async fn a_dropped_stream_that_cannot_be_resumed_fails_the_run() {
    let agent = agent(json!({"rules": [rule("hi", json!([
        {"type": "text", "text": "Half an answer"},
        {"type": "dropStream"},
        {"type": "text", "text": "never sent"},
    ]))]}))
    .await;
    let conv = conversation(&agent);
    let error = tokio::time::timeout(LIMIT, conv.send_message("hi".into())).await.unwrap().unwrap_err();
    assert!(matches!(error, SessionError::Transport(_)), "{error:?}");
    assert_eq!(agent.requests().len(), 1, "no ids, so no resumption");
    assert!(!last_assistant_text(&conv.snapshot().unwrap().messages).contains("never sent"));
}

#[tokio::test]
async fn a_resumable_drop_is_resumed_and_every_word_arrives_once() {
    let agent = agent(json!({"rules": [rule("hi", json!([
        {"type": "text", "text": "The answer ", "chunkChars": 4},
        {"type": "dropStream", "resumable": true},
        {"type": "text", "text": "is 42.", "chunkChars": 3},
        {"type": "dropStream", "resumable": true},
        {"type": "stateSnapshot", "snapshot": {"done": true}},
    ]))]}))
    .await;
    let conv = conversation(&agent);
    let summary = tokio::time::timeout(LIMIT, conv.send_message("hi".into())).await.unwrap().unwrap();
    assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
    assert!(summary.warnings.iter().any(|w| w.kind == SessionWarningKind::StreamResumed), "{:?}", summary.warnings);
    let snapshot = conv.snapshot().unwrap();
    let texts: Vec<String> = snapshot
        .messages
        .iter()
        .filter(|m| m.role.as_str() == "assistant")
        .filter_map(|m| m.text().map(str::to_owned))
        .collect();
    assert_eq!(texts, ["The answer ", "is 42."]);
    assert_eq!(snapshot.state, json!({"done": true}));
    let requests = agent.requests();
    assert_eq!(requests.len(), 3, "the first request and two resumptions");
    assert_eq!(requests[1], requests[0], "a resumption is the same request");
    agent.assert_all_matched().unwrap();
}

#[tokio::test]
async fn a_delay_holds_the_stream() {
    let agent = agent(json!({"rules": [rule("hi", json!([
        {"type": "text", "text": "a"},
        {"type": "delay", "ms": 300},
        {"type": "text", "text": "b"},
    ]))]}))
    .await;
    let conv = conversation(&agent);
    let started = Instant::now();
    tokio::time::timeout(LIMIT, conv.send_message("hi".into())).await.unwrap().unwrap();
    assert!(started.elapsed() >= Duration::from_millis(300), "{:?}", started.elapsed());
}

#[tokio::test]
async fn a_raw_event_is_sent_as_it_is() {
    let agent = agent(json!({"rules": [rule("hi", json!([
        {"type": "event", "event": {"type": "STATE_SNAPSHOT", "snapshot": {"raw": true}}},
    ]))]}))
    .await;
    let conv = conversation(&agent);
    tokio::time::timeout(LIMIT, conv.send_message("hi".into())).await.unwrap().unwrap();
    assert_eq!(conv.snapshot().unwrap().state, json!({"raw": true}));
}

#[tokio::test]
async fn a_request_no_rule_matches_fails_at_once_and_shows_the_request() {
    let agent = agent(json!({"rules": [rule("hello", json!([{"type": "text", "text": "Hi"}]))]})).await;
    let conv = conversation(&agent);
    let error = tokio::time::timeout(LIMIT, conv.send_message("something else".into()))
        .await
        .expect("never hangs")
        .unwrap_err();
    let shown = format!("{error:?}");
    assert!(shown.contains(&UNMATCHED_STATUS.to_string()) && shown.contains("no rule matches"), "{shown}");
    let unmatched = agent.assert_all_matched().unwrap_err();
    assert_eq!(unmatched.0.len(), 1);
    assert_eq!(latest_user_text(&unmatched.0[0].request).as_deref(), Some("something else"));
    let message = unmatched.to_string();
    assert!(message.contains("something else") && message.contains("threadId"), "{message}");
}

#[tokio::test]
async fn a_tool_result_without_its_rule_is_unmatched() {
    let agent = agent(json!({"rules": [rule("go", json!([{"type": "toolCall", "name": "navigate"}]))]})).await;
    let conv = conversation(&agent);
    let tool =
        ClientTool::new("navigate", "opens a screen", json!({"type": "object"}), |_call: ToolInvocation| async {
            Ok(json!("opened"))
        })
        .unwrap();
    conv.register_tool(tool).unwrap();
    let error = tokio::time::timeout(LIMIT, conv.send_message("go".into())).await.unwrap().unwrap_err();
    assert!(format!("{error:?}").contains("no toolResult rule"), "{error:?}");
    assert!(agent.unmatched()[0].reason.contains("navigate"));
}

#[tokio::test]
async fn two_agents_do_not_share_their_logs() {
    let script = json!({"rules": [rule("hello", json!([{"type": "text", "text": "Hi"}]))]});
    let (a, b) = (agent(script.clone()).await, agent(script).await);
    tokio::time::timeout(LIMIT, conversation(&a).send_message("hello".into())).await.unwrap().unwrap();
    assert_eq!((a.requests().len(), b.requests().len()), (1, 0));
}
