//! The app's own catalogs and functions (`ConversationSession::add_app_catalogs`): advertised
//! to the agent with every run, used for the surfaces it creates with them, and every bad input
//! refused with its typed error before anything changes.

use crate::tests::support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agentui_a2ui::catalog::BASIC_CATALOG_ID;
use agentui_demo_agent::{loyalty_catalog_json, DemoAgent, DemoAgentOptions, LOYALTY_CATALOG_ID};
use agentui_runtime::session::{
    AppCatalogError, AppFunction, ConversationSession, SessionError, SessionOptions, MAX_APP_CATALOGS,
    MAX_APP_CATALOG_BYTES, MAX_APP_FUNCTIONS,
};
use agentui_runtime::{Conversation, Observed, Subscription};
use serde_json::{json, Map, Value};
use support::*;

const LIMIT: Duration = Duration::from_secs(30);

fn points(args: &Map<String, Value>) -> Result<Value, String> {
    let value = args.get("value").and_then(Value::as_f64).ok_or("value is not a number")?;
    Ok(json!(format!("{value} pts")))
}

fn format_points(
    function: impl Fn(&Map<String, Value>) -> Result<Value, String> + Send + Sync + 'static,
) -> AppFunction {
    AppFunction::new(LOYALTY_CATALOG_ID, "formatPoints", Arc::new(function))
}

fn offline_session() -> ConversationSession {
    // Nothing is sent: the checks happen before any run.
    ConversationSession::connect("http://127.0.0.1:9/agent", &[], SessionOptions::default()).unwrap()
}

async fn demo_session() -> (ConversationSession, agentui_demo_agent::DemoAgentHandle) {
    let demo = DemoAgent::new(DemoAgentOptions::for_tests(Duration::from_millis(50)))
        .serve("127.0.0.1:0".parse().unwrap())
        .await
        .expect("demo agent starts");
    let s = ConversationSession::connect(&demo.agent_url(), &[], SessionOptions::default()).unwrap();
    (s, demo)
}

async fn badge_of(s: &mut ConversationSession) -> Option<agentui_a2ui::node::Props> {
    tokio::time::timeout(LIMIT, s.run("show my loyalty card")).await.unwrap().unwrap();
    let a2ui = s.a2ui();
    let surface = a2ui.group().surface("loyalty")?;
    assert_eq!(surface.catalog_id(), LOYALTY_CATALOG_ID);
    Some(surface.node("root").expect("the badge").props.clone())
}

#[tokio::test]
async fn an_app_catalog_renders_the_agents_surface_with_the_apps_function() {
    let (mut s, _demo) = demo_session().await;
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = calls.clone();
    let function = format_points(move |args| {
        counted.fetch_add(1, Ordering::SeqCst);
        points(args)
    });
    s.add_app_catalogs(&[loyalty_catalog_json()], vec![function]).unwrap();
    let badge = badge_of(&mut s).await.expect("the agent drew the badge in the app's catalog");
    assert_eq!(badge["tier"], "Gold");
    assert_eq!(badge["points"], "1250 pts", "the app's formatPoints wrote the text");
    assert!(calls.load(Ordering::SeqCst) >= 1);
}

#[tokio::test]
async fn an_app_catalog_given_as_a_value_renders_like_its_text() {
    let (mut s, _demo) = demo_session().await;
    let catalog: Value = serde_json::from_str(&loyalty_catalog_json()).unwrap();
    s.add_app_catalog_values(&[catalog], vec![format_points(points)]).unwrap();
    let badge = badge_of(&mut s).await.expect("the agent drew the badge in the app's catalog");
    assert_eq!(badge["tier"], "Gold");
    assert_eq!(badge["points"], "1250 pts");
}

#[test]
fn catalog_values_are_checked_and_bounded_like_texts() {
    let refused_values = |catalogs: &[Value]| {
        let mut s = offline_session();
        let before = s.a2ui().capabilities();
        let error = s.add_app_catalog_values(catalogs, Vec::new()).unwrap_err();
        assert_eq!(s.a2ui().capabilities(), before, "a refusal registers nothing: {error}");
        error
    };
    let good: Value = serde_json::from_str(&loyalty_catalog_json()).unwrap();
    let error = refused_values(&[good.clone(), json!({"components": {}})]);
    assert!(matches!(&error, AppCatalogError::Malformed { index: 1, .. }), "{error:?}");
    let error = refused_values(&[json!("not an object")]);
    assert!(matches!(&error, AppCatalogError::Malformed { index: 0, .. }), "{error:?}");
    assert_eq!(
        refused_values(&[good.clone(), good.clone()]),
        AppCatalogError::DuplicateCatalog { catalog_id: LOYALTY_CATALOG_ID.to_owned() }
    );
    // The size bound is the text's: the value's compact JSON form.
    let mut padded = good.clone();
    padded["description"] = json!("x".repeat(MAX_APP_CATALOG_BYTES));
    assert!(matches!(
        refused_values(&[padded]),
        AppCatalogError::LimitExceeded { what: "bytes in one catalog", limit: MAX_APP_CATALOG_BYTES, .. }
    ));
    let many: Vec<Value> = (0..=MAX_APP_CATALOGS)
        .map(|i| json!({"catalogId": format!("https://example.com/{i}.json"), "components": {}}))
        .collect();
    assert_eq!(
        refused_values(&many),
        AppCatalogError::LimitExceeded { what: "catalogs", limit: MAX_APP_CATALOGS, actual: MAX_APP_CATALOGS + 1 }
    );
    // Texts and values count together towards the bound.
    let mut s = offline_session();
    let texts: Vec<String> = many[..MAX_APP_CATALOGS].iter().map(Value::to_string).collect();
    s.add_app_catalogs(&texts, Vec::new()).unwrap();
    assert!(matches!(
        s.add_app_catalog_values(&many[MAX_APP_CATALOGS..], Vec::new()).unwrap_err(),
        AppCatalogError::LimitExceeded { what: "catalogs", .. }
    ));
}

#[tokio::test]
async fn without_the_catalog_the_agent_draws_nothing() {
    // The demo agent reads the advertised catalogs, as an agent should: no surface it could
    // not draw.
    let (mut s, _demo) = demo_session().await;
    assert!(badge_of(&mut s).await.is_none());
    let messages = s.messages();
    let text = messages.iter().rev().find_map(|m| m.text().map(str::to_owned)).unwrap_or_default();
    assert!(text.contains("does not render the loyalty catalog"), "{text}");
}

#[tokio::test]
async fn a_failing_app_function_leaves_its_property_null() {
    let (mut s, _demo) = demo_session().await;
    let failing = format_points(|_| Err("the points service is down".to_owned()));
    s.add_app_catalogs(&[loyalty_catalog_json()], vec![failing]).unwrap();
    let badge = badge_of(&mut s).await.expect("the badge is drawn");
    assert_eq!(badge["tier"], "Gold");
    assert_eq!(badge["points"], Value::Null);
}

#[tokio::test(start_paused = true)]
async fn every_run_advertises_the_apps_catalogs_once_in_context() {
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", vec![text("a1", "ok")]))]).await;
    let options = SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() };
    let mut s = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
    s.add_app_catalogs(&[loyalty_catalog_json()], Vec::new()).unwrap();
    tokio::time::timeout(LIMIT, s.run("hi")).await.unwrap().unwrap();

    let body = &server.requests()[0].body;
    // Where AG-UI agents read them (the A2UI middleware and the frameworks' toolkits put context
    // in front of the model): one context entry, and nowhere else.
    let context = body["context"].as_array().unwrap();
    let entries: Vec<&Value> =
        context.iter().filter(|c| c["value"].as_str().unwrap().contains("a2uiClientCapabilities")).collect();
    assert_eq!(entries.len(), 1, "{context:?}");
    let value: Value = serde_json::from_str(entries[0]["value"].as_str().unwrap()).unwrap();
    let ids = value["a2uiClientCapabilities"]["v0.9"]["supportedCatalogIds"].as_array().unwrap();
    assert_eq!(ids[0], BASIC_CATALOG_ID, "the basic catalog stays first");
    assert!(ids.iter().any(|id| id == LOYALTY_CATALOG_ID), "{ids:?}");
    assert!(value["a2uiClientCapabilities"]["v0.9"].get("inlineCatalogs").is_none(), "ids only");
    assert_eq!(body["forwardedProps"].get("a2uiClientCapabilities"), None, "not twice: {}", body["forwardedProps"]);
}

/// An app that shows no A2UI says so, and its requests carry no capabilities at all.
#[tokio::test(start_paused = true)]
async fn an_app_without_a2ui_advertises_no_catalogs() {
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", vec![text("a1", "ok")]))]).await;
    let options = SessionOptions { thread_id: Some("t".into()), advertise_a2ui: false, ..SessionOptions::default() };
    let mut s = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
    tokio::time::timeout(LIMIT, s.run("hi")).await.unwrap().unwrap();

    let body = &server.requests()[0].body;
    assert!(!body.to_string().contains("a2uiClientCapabilities"), "{body}");
    assert_eq!(body["context"], json!([]));
}

fn refused(catalogs: &[String], functions: Vec<AppFunction>) -> AppCatalogError {
    let mut s = offline_session();
    let before = s.a2ui().capabilities();
    let error = s.add_app_catalogs(catalogs, functions).unwrap_err();
    assert_eq!(s.a2ui().capabilities(), before, "a refusal registers nothing: {error}");
    error
}

#[test]
fn bad_catalogs_are_typed_errors_and_change_nothing() {
    let good = loyalty_catalog_json();

    let error = refused(&[good.clone(), "{\"catalogId\": ".to_owned()], Vec::new());
    assert!(matches!(&error, AppCatalogError::NotJson { index: 1, .. }), "{error:?}");

    let error = refused(&[r#"{"components": {}}"#.to_owned()], Vec::new());
    assert!(matches!(&error, AppCatalogError::Malformed { index: 0, .. }), "{error:?}");
    assert!(error.to_string().contains("catalogId"), "{error}");

    // A schema that cannot compile is located.
    let mut bad_schema: Value = serde_json::from_str(&good).unwrap();
    bad_schema["components"]["LoyaltyBadge"]["allOf"][1]["properties"]["tier"] = json!({"type": 5});
    let error = refused(&[bad_schema.to_string()], Vec::new());
    match &error {
        AppCatalogError::Malformed { index: 0, pointer: Some(pointer), .. } => {
            assert!(pointer.contains("tier"), "{pointer}")
        }
        other => panic!("{other:?}"),
    }

    let basic = json!({"catalogId": BASIC_CATALOG_ID, "components": {}}).to_string();
    let error = refused(&[basic], Vec::new());
    assert_eq!(error, AppCatalogError::DuplicateCatalog { catalog_id: BASIC_CATALOG_ID.to_owned() });
    let error = refused(&[good.clone(), good.clone()], Vec::new());
    assert_eq!(error, AppCatalogError::DuplicateCatalog { catalog_id: LOYALTY_CATALOG_ID.to_owned() });
}

#[test]
fn bad_functions_are_typed_errors_and_change_nothing() {
    let good = loyalty_catalog_json();
    let error =
        refused(std::slice::from_ref(&good), vec![AppFunction::new(LOYALTY_CATALOG_ID, "nope", Arc::new(points))]);
    assert_eq!(
        error,
        AppCatalogError::UndeclaredFunction { catalog_id: LOYALTY_CATALOG_ID.to_owned(), name: "nope".to_owned() }
    );
    let error = refused(&[], vec![format_points(points)]);
    assert!(matches!(error, AppCatalogError::UnknownCatalog { .. }), "{error:?}");
    let error = refused(std::slice::from_ref(&good), vec![format_points(points), format_points(points)]);
    assert!(matches!(error, AppCatalogError::DuplicateFunction { .. }), "{error:?}");

    // A later call is checked against what the first added.
    let mut s = offline_session();
    s.add_app_catalogs(std::slice::from_ref(&good), vec![format_points(points)]).unwrap();
    assert!(matches!(
        s.add_app_catalogs(std::slice::from_ref(&good), Vec::new()).unwrap_err(),
        AppCatalogError::DuplicateCatalog { .. }
    ));
    assert!(matches!(
        s.add_app_catalogs(&[], vec![format_points(points)]).unwrap_err(),
        AppCatalogError::DuplicateFunction { .. }
    ));
}

#[test]
fn catalogs_are_bounded_in_count_and_size() {
    let many: Vec<String> = (0..=MAX_APP_CATALOGS)
        .map(|i| json!({"catalogId": format!("https://example.com/{i}.json"), "components": {}}).to_string())
        .collect();
    assert_eq!(
        refused(&many, Vec::new()),
        AppCatalogError::LimitExceeded { what: "catalogs", limit: MAX_APP_CATALOGS, actual: MAX_APP_CATALOGS + 1 }
    );
    let mut s = offline_session();
    s.add_app_catalogs(&many[..MAX_APP_CATALOGS], Vec::new()).unwrap();
    assert!(matches!(
        s.add_app_catalogs(&many[MAX_APP_CATALOGS..], Vec::new()).unwrap_err(),
        AppCatalogError::LimitExceeded { what: "catalogs", .. }
    ));

    let padded = format!("{}{}", loyalty_catalog_json(), " ".repeat(MAX_APP_CATALOG_BYTES));
    assert!(matches!(
        refused(&[padded], Vec::new()),
        AppCatalogError::LimitExceeded { what: "bytes in one catalog", .. }
    ));
}

#[test]
fn functions_are_bounded_with_those_registered_on_the_engine() {
    const MANY: &str = "https://example.com/many.json";
    let names: Vec<String> = (0..=MAX_APP_FUNCTIONS).map(|i| format!("f{i}")).collect();
    let declared: Vec<Value> =
        names.iter().map(|n| json!({"name": n, "parameters": {"type": "object"}, "returnType": "string"})).collect();
    let catalog = json!({"catalogId": MANY, "components": {}, "functions": declared}).to_string();
    let all = |names: &[String]| -> Vec<AppFunction> {
        names.iter().map(|n| AppFunction::new(MANY, n.clone(), Arc::new(points))).collect()
    };
    assert_eq!(
        refused(std::slice::from_ref(&catalog), all(&names)),
        AppCatalogError::LimitExceeded { what: "functions", limit: MAX_APP_FUNCTIONS, actual: MAX_APP_FUNCTIONS + 1 }
    );
    // A function a Rust caller registered on the engine itself counts too.
    let mut s = offline_session();
    s.add_app_catalogs(&[catalog], Vec::new()).unwrap();
    s.a2ui_mut().group_mut().register_host_function(MANY, "f0", Arc::new(points)).unwrap();
    assert!(matches!(
        s.add_app_catalogs(&[], all(&names[1..])).unwrap_err(),
        AppCatalogError::LimitExceeded { what: "functions", .. }
    ));
    s.add_app_catalogs(&[], all(&names[1..MAX_APP_FUNCTIONS])).unwrap();
    assert_eq!(s.a2ui().group().host_function_count(), MAX_APP_FUNCTIONS);
}

/// Runs `work` on a thread and a multi-threaded runtime of its own and returns what it gives;
/// panics, naming `what`, if it has not returned within [`LIMIT`] (a deadlock).
fn on_own_runtime<T: Send + 'static>(what: &str, work: impl std::future::Future<Output = T> + Send + 'static) -> T {
    let (done, outcome) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let _ = done.send(runtime.block_on(work));
    });
    outcome.recv_timeout(LIMIT).unwrap_or_else(|e| panic!("deadlocked: {what} never returned: {e}"))
}

/// Issue 43: an app's function that calls back into its conversation (`set_value`) deadlocked
/// the thread resolving the surface: a runtime worker during a run, the caller's own thread (the
/// UI's) on a write. The call gets a typed error instead, and the resolution goes on.
#[test]
fn an_app_function_calling_back_into_its_conversation_gets_a_typed_error_not_a_deadlock() {
    // On a thread and a runtime of their own: a regression deadlocks them, and the test fails
    // after LIMIT instead of hanging.
    let (during_run, outer, inner, tier) = on_own_runtime("the app function's set_value", async {
        let (mut s, _demo) = demo_session().await;
        let slot: Arc<std::sync::OnceLock<Conversation>> = Arc::default();
        let inner: Arc<Mutex<Vec<Result<(), SessionError>>>> = Arc::default();
        let function = {
            let (slot, inner) = (slot.clone(), inner.clone());
            format_points(move |args| {
                if let Some(conv) = slot.get() {
                    let answer = conv.set_value("loyalty", "/tier", json!("Platinum"));
                    inner.lock().unwrap().push(answer);
                }
                points(args)
            })
        };
        s.add_app_catalogs(&[loyalty_catalog_json()], vec![function]).unwrap();
        let conv = Conversation::start(s, tokio::runtime::Handle::current());
        slot.set(conv.clone()).unwrap();
        tokio::time::timeout(LIMIT, conv.send_message("show my loyalty card".into())).await.unwrap().unwrap();
        let during_run = inner.lock().unwrap().len();
        // On this (the caller's) thread: a write the badge's points read.
        let outer = conv.set_value("loyalty", "/points", json!(2000));
        let tier = conv.surface("loyalty").map(|s| format!("{:?}", s.nodes));
        let answers = inner.lock().unwrap().clone();
        (during_run, outer, answers, tier)
    });
    assert!(during_run >= 1, "the function called back during the run");
    assert_eq!(outer, Ok(()), "the outer write went through");
    assert!(inner.len() > during_run, "and called back on the caller's thread: {inner:?}");
    for answer in &inner {
        assert_eq!(answer, &Err(SessionError::Reentrant { call: "set_value" }));
    }
    assert!(!tier.unwrap_or_default().contains("Platinum"), "the refused write changed nothing");
}

/// What an app function got from every call into its conversation it tried, by call.
type Answers = Arc<Mutex<Vec<(&'static str, String)>>>;

/// Every call of `conv` that locks the conversation or its surfaces, made from inside an app
/// function, with what it answered.
/// What is not refused (a subscription) is kept in `made`, to read outside.
fn call_back_into(conv: &Conversation, answers: &Answers, made: &Mutex<Vec<Subscription>>) {
    use futures_util::FutureExt as _;
    let note = |call: &'static str, answer: String| answers.lock().unwrap().push((call, answer));
    note("snapshot", format!("{:?}", conv.snapshot().map(|s| s.messages.len())));
    // A call that waits is polled once: it must answer at once, not queue a run or wait.
    note("send_message", format!("{:?}", conv.send_message("again".into()).now_or_never()));
    note("send", format!("{:?}", conv.send("again".into(), Vec::new()).now_or_never()));
    note("continue_run", format!("{:?}", conv.continue_run().now_or_never()));
    note("retry_pending", format!("{:?}", conv.retry_pending().now_or_never()));
    note("dispatch_action", format!("{:?}", conv.dispatch_action("loyalty", "root").now_or_never()));
    note("media_bytes", format!("{:?}", conv.media_bytes("m", 0).now_or_never()));
    let mut subscription = conv.subscribe();
    note("Subscription::try_recv", format!("{:?}", subscription.try_recv()));
    note("Subscription::recv", format!("{:?}", subscription.recv().now_or_never()));
    let view = conv.subscribe_view();
    note("ViewSubscription::try_next_batch", format!("{:?}", view.try_next_batch()));
    note("ViewSubscription::next_batch", format!("{:?}", view.next_batch().now_or_never()));
    made.lock().unwrap().push(subscription);
}

/// Issue 43: only the input calls were refused; any other call that locks the conversation
/// (a snapshot, a view's read, a send) from inside an app function waited for its own thread
/// during a run, or took the locks out of order on a write. Each gets a typed error (or, for a
/// read that does not wait, nothing now) instead, during a run and on the caller's thread.
#[test]
fn every_call_back_into_the_conversation_from_an_app_function_gets_a_typed_error_not_a_deadlock() {
    // On a thread and a runtime of their own: a regression deadlocks them, and the test fails
    // after LIMIT instead of hanging.
    let (during_run, outer, answers, messages) = on_own_runtime("a call from the app function", async {
        let (mut s, _demo) = demo_session().await;
        let slot: Arc<std::sync::OnceLock<Conversation>> = Arc::default();
        let answers: Answers = Arc::default();
        let made: Arc<Mutex<Vec<Subscription>>> = Arc::default();
        let function = {
            let (slot, answers, made) = (slot.clone(), answers.clone(), made.clone());
            format_points(move |args| {
                if let Some(conv) = slot.get() {
                    call_back_into(conv, &answers, &made);
                }
                points(args)
            })
        };
        s.add_app_catalogs(&[loyalty_catalog_json()], vec![function]).unwrap();
        let conv = Conversation::start(s, tokio::runtime::Handle::current());
        slot.set(conv.clone()).unwrap();
        tokio::time::timeout(LIMIT, conv.send_message("show my loyalty card".into())).await.unwrap().unwrap();
        let during_run = answers.lock().unwrap().len();
        // On this (the caller's) thread, under the surfaces' lock.
        let outer = conv.set_value("loyalty", "/points", json!(2000));
        let answers = answers.lock().unwrap().clone();
        // Nothing the refused calls asked for was sent or queued.
        let messages = format!(
            "{:?}",
            conv.snapshot().map(|s| (s.messages.iter().any(|m| m.text() == Some("again")), s.pending_sends.len()))
        );
        // A subscription made inside starts, read outside, from the whole state.
        let first = made.lock().unwrap().first_mut().and_then(Subscription::try_recv);
        assert!(matches!(first, Some(Observed::Snapshot(_))), "{first:?}");
        (during_run, outer, answers, messages)
    });
    assert!(during_run >= 1, "the function called back during the run");
    assert_eq!(outer, Ok(()), "the outer write went through");
    assert!(answers.len() > during_run, "and called back on the caller's thread: {answers:?}");
    for (call, answer) in &answers {
        assert!(answer.contains("Reentrant") || answer == "None", "{call}: {answer}");
    }
    assert_eq!(messages, "Ok((false, 0))", "the conversation goes on, and the refused sends sent nothing");
}
