//! A2UI v1.0 from the app to the agent through the conversation: `callAgentFunction` (the
//! envelope the agent receives, the answer correlated by id, no answer, an error answer, a
//! cancel) and an action's `metadata.extensions`, against a scripted agent.

use crate::tests::support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use agentui_a2ui::catalog::{BASIC_CATALOG_ID, BASIC_V1_CATALOG_ID};
use agentui_runtime::a2ui_bridge::{A2uiBridge, A2UI_CALL_AGENT_FUNCTION_CONTEXT_DESCRIPTION};
use agentui_runtime::session::{ActionResult, ConversationSession, SessionError, SessionOptions};
use agentui_runtime::Conversation;
use serde_json::{json, Map, Value};
use support::*;

const LIMIT: Duration = Duration::from_secs(10);

/// A conversation, and its A2UI bridge to look at what the engine still waits for.
fn conversation(server: &TestServer) -> (Conversation, Arc<Mutex<A2uiBridge>>) {
    let options = SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() };
    let session = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
    let a2ui = session.shared().a2ui.clone();
    (Conversation::start(session, tokio::runtime::Handle::current()), a2ui)
}

fn pending_calls(a2ui: &Mutex<A2uiBridge>) -> usize {
    a2ui.lock().unwrap().group().pending_agent_calls()
}

fn a2ui_event(ops: Value) -> Value {
    json!({"type": "CUSTOM", "name": "a2ui", "value": {"a2ui_operations": ops}})
}

/// A v1.0 surface `s`: a Button `buy` whose event sends the SKU in `/sku`.
fn v10_surface() -> Value {
    a2ui_event(json!([{"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID,
    "dataModel": {"sku": "X-1"},
    "components": [
        {"id": "root", "component": "Button", "child": "label",
         "action": {"event": {"name": "buy", "context": {"sku": {"@path": "/sku"}}}}},
        {"id": "label", "component": "Text", "text": "Buy"}
    ]}}]))
}

/// A v0.9 surface `f` with a Button `send`.
fn v09_surface() -> Value {
    a2ui_event(json!([
        {"version": "v0.9", "createSurface": {"surfaceId": "f", "catalogId": BASIC_CATALOG_ID}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "f", "components": [
            {"id": "root", "component": "Button", "child": "label", "action": {"event": {"name": "submit"}}},
            {"id": "label", "component": "Text", "text": "Send"}
        ]}}
    ]))
}

/// The `functionCallId` a request's `callAgentFunction` carries.
fn call_id(request: &Recorded) -> String {
    request.body["forwardedProps"]["a2uiCallAgentFunction"]["callAgentFunction"]["functionCallId"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn answer(id: &str, result: Value) -> Value {
    let mut body = json!({"functionCallId": id});
    body.as_object_mut().unwrap().extend(result.as_object().unwrap().clone());
    a2ui_event(json!([{"version": "v1.0", "agentFunctionResponse": body}]))
}

/// An agent whose first run creates `surface`, and whose later runs answer a
/// `callAgentFunction` with what `respond` makes of its id (nothing: a run without an answer).
async fn agent(surface: Value, respond: impl Fn(&str) -> Vec<Value> + Send + Sync + 'static) -> TestServer {
    let first = Reply::sse(&run_of("r0", vec![vec![surface]]));
    TestServer::with_handler(vec![first], move |request| {
        let id = call_id(request);
        let body = if id.is_empty() { Vec::new() } else { respond(&id) };
        Reply::sse(&run_of("r1", vec![body]))
    })
    .await
}

fn refused_code(error: &SessionError) -> &str {
    match error {
        SessionError::A2ui(e) => e.code(),
        _ => "",
    }
}

#[tokio::test]
async fn the_agent_gets_the_envelope_and_the_call_gets_the_answer_with_its_id() {
    // A stray answer (another id) comes first: only the call's own id counts.
    let server = agent(v10_surface(), |id| {
        vec![answer("someone-else", json!({"value": 0})), answer(id, json!({"value": {"inStock": 3}}))]
    })
    .await;
    let (conv, a2ui) = conversation(&server);
    conv.send_message("show".into()).await.unwrap();

    let call = json!({"call": "queryInventory", "args": {"sku": "X-1"}});
    let value = tokio::time::timeout(LIMIT, conv.call_agent_function("s", call.clone())).await.unwrap().unwrap();
    assert_eq!(value, json!({"inStock": 3}));

    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let id = call_id(&requests[1]);
    assert!(!id.is_empty());
    let envelope =
        json!({"version": "v1.0", "callAgentFunction": {"surfaceId": "s", "functionCallId": id, "callFunction": call}});
    let props = &requests[1].body["forwardedProps"];
    assert_eq!(props["a2uiCallAgentFunction"], envelope);
    assert!(props.get("a2uiAction").is_none() && props.get("agentuiIdempotencyKey").is_none(), "{props}");
    let context: Vec<&Value> = requests[1].body["context"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["description"] == A2UI_CALL_AGENT_FUNCTION_CONTEXT_DESCRIPTION)
        .collect();
    assert_eq!(context.len(), 1, "one context entry for the model");
    let value: Value = serde_json::from_str(context[0]["value"].as_str().unwrap()).unwrap();
    assert_eq!(value, json!({"a2uiCallAgentFunction": envelope}));
    assert_eq!(pending_calls(&a2ui), 0, "answered: nothing waits");

    // The call rides on its own run only; a second call gets another id.
    conv.call_agent_function("s", json!({"call": "queryInventory"})).await.unwrap();
    let requests = server.requests();
    assert_ne!(call_id(&requests[2]), id);
    assert!(requests[0].body["forwardedProps"].get("a2uiCallAgentFunction").is_none());
    let entries = requests[0].body["context"].as_array().unwrap();
    assert!(entries.iter().all(|c| c["description"] != A2UI_CALL_AGENT_FUNCTION_CONTEXT_DESCRIPTION));
}

#[tokio::test]
async fn a_run_without_the_answer_fails_the_call_and_frees_its_id() {
    let server = agent(v10_surface(), |_| Vec::new()).await;
    let (conv, a2ui) = conversation(&server);
    conv.send_message("show".into()).await.unwrap();

    let error = conv.call_agent_function("s", json!({"call": "slow"})).await.unwrap_err();
    let id = call_id(&server.requests()[1]);
    assert_eq!(error, SessionError::AgentFunctionUnanswered { function_call_id: id.clone() });
    assert_eq!(pending_calls(&a2ui), 0, "the engine stopped waiting");

    // A late answer, in a later run, changes nothing and goes to nobody.
    server.push(Reply::sse(&run_of("r2", vec![vec![answer(&id, json!({"value": 1}))]])));
    conv.send_message("later".into()).await.unwrap();
    assert_eq!(pending_calls(&a2ui), 0);
    assert_eq!(a2ui.lock().unwrap().finish_agent_function(&id), None, "the late answer was not kept");
}

#[tokio::test]
async fn an_error_answer_is_a_typed_error_with_its_code_and_message() {
    let server =
        agent(v10_surface(), |id| vec![answer(id, json!({"error": {"code": "NOT_FOUND", "message": "no such SKU"}}))])
            .await;
    let (conv, a2ui) = conversation(&server);
    conv.send_message("show".into()).await.unwrap();

    let error = conv.call_agent_function("s", json!({"call": "queryInventory"})).await.unwrap_err();
    let id = call_id(&server.requests()[1]);
    assert_eq!(
        error,
        SessionError::AgentFunction { function_call_id: id, code: "NOT_FOUND".into(), message: "no such SKU".into() }
    );
    assert_eq!(pending_calls(&a2ui), 0);
}

#[tokio::test(start_paused = true)]
async fn a_cancelled_call_is_cancelled_and_freed() {
    let first = Reply::sse(&run_of("r0", vec![vec![v10_surface()]]));
    // The call's run holds its stream open until it is cancelled.
    let held = Reply::sse_steps(vec![Step::Send(frame(&started("r1"))), Step::Sleep(Duration::from_secs(30))]);
    let server = TestServer::start(vec![first, held]).await;
    let (conv, a2ui) = conversation(&server);
    conv.send_message("show".into()).await.unwrap();

    let call = tokio::spawn({
        let conv = conv.clone();
        async move { conv.call_agent_function("s", json!({"call": "slow"})).await }
    });
    while server.requests().len() < 2 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(pending_calls(&a2ui), 1, "the call waits for its answer");
    conv.cancel();
    assert_eq!(call.await.unwrap(), Err(SessionError::Cancelled));
    assert_eq!(pending_calls(&a2ui), 0);
}

#[tokio::test]
async fn a_call_whose_future_is_dropped_is_freed() {
    let first = Reply::sse(&run_of("r0", vec![vec![v10_surface()]]));
    let held = Reply::sse_steps(vec![Step::Send(frame(&started("r1"))), Step::Hang]);
    let server = TestServer::start(vec![first, held]).await;
    let (conv, a2ui) = conversation(&server);
    conv.send_message("show".into()).await.unwrap();

    let waited = tokio::time::timeout(Duration::from_millis(300), conv.call_agent_function("s", json!({"call": "f"})));
    assert!(waited.await.is_err(), "no answer within the wait");
    assert_eq!(pending_calls(&a2ui), 0, "dropping the call's future forgets it");
}

#[tokio::test]
async fn a_v09_surface_refuses_calls_and_action_metadata_before_anything_is_sent() {
    let server = agent(v09_surface(), |_| Vec::new()).await;
    let (conv, a2ui) = conversation(&server);
    conv.send_message("show".into()).await.unwrap();

    let error = conv.call_agent_function("f", json!({"call": "queryInventory"})).await.unwrap_err();
    assert_eq!(refused_code(&error), "ACTION_REFUSED", "{error}");
    assert!(error.to_string().contains("not v1.0"), "{error}");
    let mut extensions = Map::new();
    extensions.insert("client_audit".into(), json!({"signature": "abc"}));
    let error = conv.dispatch_action_with_metadata("f", "root", extensions).await.unwrap_err();
    assert_eq!(refused_code(&error), "ACTION_REFUSED", "{error}");
    assert!(error.to_string().contains("v1.0 only"), "{error}");
    let error = conv.call_agent_function("nowhere", json!({"call": "x"})).await.unwrap_err();
    assert_eq!(refused_code(&error), "SURFACE_NOT_FOUND", "{error}");
    assert_eq!(server.requests().len(), 1, "nothing went to the agent");
    assert_eq!(pending_calls(&a2ui), 0);

    // Without metadata the v0.9 action goes as before: the v0.8 shape only.
    assert!(matches!(conv.dispatch_action("f", "root").await.unwrap(), ActionResult::Ran(_)));
    let props = &server.requests()[1].body["forwardedProps"];
    assert!(props["a2uiAction"]["userAction"].get("metadata").is_none(), "{props}");
    assert!(props.get("a2uiActionMessage").is_none(), "{props}");
}

#[tokio::test]
async fn v10_action_metadata_reaches_the_agent_in_both_shapes() {
    let server = agent(v10_surface(), |_| Vec::new()).await;
    let (conv, _) = conversation(&server);
    conv.send_message("show".into()).await.unwrap();

    let mut extensions = Map::new();
    extensions.insert("client_audit".into(), json!({"signature": "abc123token"}));
    let result = conv.dispatch_action_with_metadata("s", "root", extensions).await.unwrap();
    assert!(matches!(result, ActionResult::Ran(_)));
    let props = server.requests()[1].body["forwardedProps"].clone();
    let timestamp = props["a2uiAction"]["userAction"]["timestamp"].clone();
    assert!(timestamp.is_string());
    let metadata = json!({"extensions": {"client_audit": {"signature": "abc123token"}}});
    assert_eq!(
        props["a2uiAction"],
        json!({"userAction": {"name": "buy", "surfaceId": "s", "sourceComponentId": "root", "timestamp": timestamp,
                              "context": {"sku": "X-1"}, "metadata": metadata}})
    );
    assert_eq!(
        props["a2uiActionMessage"],
        json!({"version": "v1.0", "action": {"name": "buy", "surfaceId": "s", "sourceComponentId": "root",
                                             "timestamp": timestamp, "context": {"sku": "X-1"}, "metadata": metadata}})
    );

    // No metadata: none in either shape, the v1.0 envelope still sent.
    conv.dispatch_action("s", "root").await.unwrap();
    let props = &server.requests()[2].body["forwardedProps"];
    assert!(props["a2uiAction"]["userAction"].get("metadata").is_none(), "{props}");
    assert_eq!(props["a2uiActionMessage"]["version"], "v1.0");
    assert!(props["a2uiActionMessage"]["action"].get("metadata").is_none(), "{props}");

    // A key that is no Unicode identifier is refused, and nothing is sent.
    let mut bad = Map::new();
    bad.insert("invalid.key".into(), json!(1));
    let error = conv.dispatch_action_with_metadata("s", "root", bad).await.unwrap_err();
    assert_eq!(refused_code(&error), "ACTION_REFUSED", "{error}");
    assert_eq!(server.requests().len(), 3);
}
