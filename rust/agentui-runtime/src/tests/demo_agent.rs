//! The session end to end over HTTP against the scripted demo agent on loopback.

use agentui_runtime::{Conversation, ConversationDelta};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agentui_agui::transport::TransportError;
use agentui_agui::Message;
use agentui_demo_agent::{DemoAgent, DemoAgentHandle, DemoAgentOptions};
use agentui_runtime::session::{
    ActionResult, ClientTool, ConversationSession, RunPhase, SessionError, SessionOptions, SessionUpdate,
    ToolInvocation,
};
use serde_json::{json, Value};

const LIMIT: Duration = Duration::from_secs(30);

async fn agent() -> DemoAgentHandle {
    DemoAgent::new(DemoAgentOptions::for_tests(Duration::from_millis(50)))
        .serve("127.0.0.1:0".parse().unwrap())
        .await
        .expect("demo agent starts")
}

fn session(url: &str) -> ConversationSession {
    ConversationSession::connect(url, &[], SessionOptions::default()).expect("session")
}

fn last_assistant_text(messages: &[Message]) -> String {
    messages
        .iter()
        .rev()
        .find_map(|m| (m.role.as_str() == "assistant").then(|| m.text().map(str::to_owned)).flatten())
        .unwrap_or_default()
}

fn tool(name: &str, handler: impl Fn(Value) -> Result<Value, String> + Send + Sync + 'static) -> ClientTool {
    let handler = Arc::new(handler);
    ClientTool::new(name, format!("{name} (test)"), json!({"type": "object"}), move |call: ToolInvocation| {
        let handler = handler.clone();
        async move { handler(call.arguments).map_err(agentui_runtime::session::ToolError::new) }
    })
    .expect("valid tool")
}

#[tokio::test]
async fn streamed_chat_text_arrives_as_one_assistant_message() {
    let demo = agent().await;
    let mut s = session(&demo.agent_url());
    let deltas = Arc::new(Mutex::new(0usize));
    let seen = deltas.clone();
    s.add_listener(Arc::new(move |u: &SessionUpdate| {
        if matches!(u, SessionUpdate::Delta(ConversationDelta::TextAppended { .. })) {
            *seen.lock().unwrap() += 1;
        }
    }));
    let summary = tokio::time::timeout(LIMIT, s.run("hello there")).await.unwrap().unwrap();
    assert!(matches!(summary.phase, RunPhase::Finished { .. }));
    let text = last_assistant_text(&s.messages());
    assert!(text.contains("demo agent") && text.contains("café ☕"), "{text}");
    assert!(*deltas.lock().unwrap() > 2, "the listener saw the text stream in pieces");
}

#[tokio::test]
async fn a_client_tool_result_is_quoted_by_the_agent_after_the_follow_up_run() {
    let demo = agent().await;
    let mut s = session(&demo.agent_url());
    let calls = Arc::new(Mutex::new(Vec::new()));
    let seen = calls.clone();
    s.register_tool(tool("get_location", move |args| {
        seen.lock().unwrap().push(args);
        Ok(json!({"city": "Lisbon", "source": "gps"}))
    }))
    .unwrap();
    let summary = tokio::time::timeout(LIMIT, s.run("what is my location?")).await.unwrap().unwrap();
    assert_eq!(calls.lock().unwrap().len(), 1, "executed exactly once");
    assert_eq!(calls.lock().unwrap()[0]["precision"], "city");
    assert_eq!(summary.run_ids.len(), 2, "the follow-up run started by itself");
    let text = last_assistant_text(&s.messages());
    assert!(text.starts_with("Your location according to the app:") && text.contains("Lisbon"), "{text}");
}

#[tokio::test]
async fn a_failing_client_tool_is_reported_honestly_not_as_done() {
    let demo = agent().await;
    let mut s = session(&demo.agent_url());
    s.register_tool(tool("get_location", |_| Err("location permission denied".into()))).unwrap();
    tokio::time::timeout(LIMIT, s.run("location please")).await.unwrap().unwrap();
    let text = last_assistant_text(&s.messages());
    assert!(text.contains("The app reported an error") && text.contains("permission denied"), "{text}");
}

#[tokio::test]
async fn parallel_client_calls_are_answered_by_id() {
    let demo = agent().await;
    let mut s = session(&demo.agent_url());
    s.register_tool(tool("lookup_price", |args| {
        let item = args["item"].as_str().unwrap_or("?").to_owned();
        Ok(Value::String(format!("price of {item}")))
    }))
    .unwrap();
    tokio::time::timeout(LIMIT, s.run("compare prices")).await.unwrap().unwrap();
    let text = last_assistant_text(&s.messages());
    assert!(text.contains("A -> price of A") && text.contains("B -> price of B"), "{text}");
}

#[tokio::test]
async fn an_a2ui_form_renders_and_its_submitted_values_come_back_from_the_agent() {
    // Through the conversation, the one public face: a user's form is input and an action.
    let demo = agent().await;
    let conv = Conversation::start(session(&demo.agent_url()), tokio::runtime::Handle::current());
    tokio::time::timeout(LIMIT, conv.send_message("book a table".into())).await.unwrap().unwrap();
    let surface = conv.surface("booking").expect("the agent's surface exists");
    let node = |id: &str| surface.nodes.iter().find(|n| &*n.id == id).cloned().unwrap();
    assert_eq!(&*node("root").component_type, "Card");
    assert!(!node("book").enabled, "Book is disabled until the checks pass");
    let refused = conv.dispatch_action("booking", "book").await.unwrap_err();
    assert!(matches!(refused, SessionError::A2ui(_)), "{refused:?}");

    conv.set_value("booking", "/booking/name", json!("Ada")).unwrap();
    conv.set_value("booking", "/booking/date", json!("2026-12-24")).unwrap();
    conv.set_value("booking", "/booking/guests", json!(["4"])).unwrap();
    let result = tokio::time::timeout(LIMIT, conv.dispatch_action("booking", "book")).await.unwrap().unwrap();
    assert!(matches!(result, ActionResult::Ran(_)));
    let text = last_assistant_text(&conv.snapshot().unwrap().messages);
    assert!(text.contains("Ada") && text.contains("2026-12-24") && text.contains('4'), "{text}");
}

#[tokio::test]
async fn a2ui_is_formatted_in_the_session_locale_and_time_zone() {
    let demo = agent().await;
    let texts = |s: &ConversationSession| {
        let a2ui = s.a2ui();
        let surface = a2ui.group().surface("receipt").expect("the receipt surface");
        ["total", "paid", "delivery"].map(|id| surface.node(id).unwrap().props["text"].as_str().unwrap().to_owned())
    };
    let mut default = session(&demo.agent_url());
    tokio::time::timeout(LIMIT, default.run("my receipt")).await.unwrap().unwrap();
    assert_eq!(texts(&default), ["€1,234.50", "Sunday 1 March 2026 10:00", "Mon 2 Mar 2026"]);

    let options = SessionOptions {
        localization: agentui_a2ui::Localization::new("de-DE", "Europe/Berlin").unwrap(),
        ..SessionOptions::default()
    };
    let mut german = ConversationSession::connect(&demo.agent_url(), &[], options).unwrap();
    tokio::time::timeout(LIMIT, german.run("my receipt")).await.unwrap().unwrap();
    assert_eq!(texts(&german), ["EUR 1.234,50", "Sonntag 1 März 2026 11:00", "Mo. 2 März 2026"]);
}

#[tokio::test]
async fn an_interrupt_is_resolved_and_the_next_run_resumes() {
    let demo = agent().await;
    let mut s = session(&demo.agent_url());
    let summary = tokio::time::timeout(LIMIT, s.run("delete the report")).await.unwrap().unwrap();
    assert!(matches!(summary.phase, RunPhase::Interrupted { .. }), "{:?}", summary.phase);
    let id = s.pending_interrupts()[0].id.clone();
    s.resolve_interrupt(&id, Some(json!({"approved": true}))).unwrap();
    tokio::time::timeout(LIMIT, s.continue_run()).await.unwrap().unwrap();
    assert_eq!(last_assistant_text(&s.messages()), "Deleted report.pdf.");
}

#[tokio::test]
async fn state_snapshot_then_deltas() {
    let demo = agent().await;
    let mut s = session(&demo.agent_url());
    tokio::time::timeout(LIMIT, s.run("counter")).await.unwrap().unwrap();
    assert!(s.state()["counter"].as_i64().unwrap() > 0, "{}", s.state());
    assert!(!s.needs_resync());
}

#[tokio::test]
async fn an_error_mid_stream_is_the_agents_error() {
    let demo = agent().await;
    let mut s = session(&demo.agent_url());
    let err = tokio::time::timeout(LIMIT, s.run("please fail")).await.unwrap().unwrap_err();
    assert!(matches!(err, SessionError::Agent { .. }), "{err:?}");
}

// On the paused clock: the agent's pauses between pieces and the cancel's delay are virtual
// time, so the bound below measures the session, not how busy the machine is.
#[tokio::test(start_paused = true)]
async fn a_slow_stream_is_cancelled_promptly() {
    let demo = agent().await;
    let mut s = session(&demo.agent_url());
    let canceller = s.canceller();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        canceller.cancel();
    });
    let started = tokio::time::Instant::now();
    let err = tokio::time::timeout(LIMIT, s.run("slow please")).await.unwrap().unwrap_err();
    assert_eq!(err, SessionError::Cancelled);
    assert!(started.elapsed() < Duration::from_secs(2), "cancelled after {:?}", started.elapsed());
    assert_eq!(*s.phase(), RunPhase::Cancelled);
}

#[tokio::test]
async fn a_server_error_surfaces_with_status_and_body() {
    let demo = agent().await;
    let mut s = session(&demo.fault_url("http-500"));
    let err = tokio::time::timeout(LIMIT, s.run("hi")).await.unwrap().unwrap_err();
    match err {
        SessionError::Transport(TransportError::Status { status, body_excerpt }) => {
            assert_eq!(status, 500);
            assert!(!body_excerpt.is_empty());
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn the_v10_card_answers_agent_function_calls_and_quotes_action_metadata() {
    let demo = agent().await;
    let conv = Conversation::start(session(&demo.agent_url()), tokio::runtime::Handle::current());
    tokio::time::timeout(LIMIT, conv.send_message("I want to sign up".into())).await.unwrap().unwrap();

    let call = json!({"call": "checkEmail", "args": {"email": "zoe@example.com"}});
    let value = tokio::time::timeout(LIMIT, conv.call_agent_function("signup", call)).await.unwrap().unwrap();
    assert_eq!(value, json!({"email": "zoe@example.com", "available": true}));
    let error = conv.call_agent_function("signup", json!({"call": "nope"})).await.unwrap_err();
    assert!(
        matches!(&error, SessionError::AgentFunction { code, message, .. }
            if code == "UNKNOWN_FUNCTION" && message == "no agent function \"nope\""),
        "{error:?}"
    );
    let error = conv.call_agent_function("signup", json!({"call": "silent"})).await.unwrap_err();
    assert!(matches!(error, SessionError::AgentFunctionUnanswered { .. }), "{error:?}");

    conv.set_value("signup", "/email", json!("zoe@example.com")).unwrap();
    let mut extensions = serde_json::Map::new();
    extensions.insert("client_audit".into(), json!({"signature": "abc123token"}));
    let result = tokio::time::timeout(LIMIT, conv.dispatch_action_with_metadata("signup", "join", extensions))
        .await
        .unwrap()
        .unwrap();
    assert!(matches!(result, ActionResult::Ran(_)));
    let text = last_assistant_text(&conv.snapshot().unwrap().messages);
    assert_eq!(
        text,
        "Signed up zoe@example.com for 2 newsletters a month. Metadata: {\"client_audit\":{\"signature\":\"abc123token\"}}"
    );
}
