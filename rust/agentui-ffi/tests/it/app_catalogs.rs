//! The app's own catalogs and functions through the options: the demo agent's loyalty badge is
//! drawn with a function written against the foreign trait, as Kotlin or Swift would; every
//! way a handler can fail is the call's failure (a `null` property), never a crash; bad options
//! are `InvalidOptions`.

use crate::common;

use std::sync::{Arc, Mutex};

use agentui_ffi::demo::{demo_loyalty_catalog_id, demo_loyalty_catalog_json};
use agentui_ffi::{
    A2uiFunction, A2uiFunctionError, A2uiFunctionHandler, Conversation, ConversationError, ConversationOptions,
    NodeValue, PropEntry,
};
use common::*;
use serde_json::{json, Value};

/// What the handler answers for every call.
enum Answer {
    Value(NodeValue),
    Throws(A2uiFunctionError),
    Panics,
}

struct Handler {
    answer: Answer,
    calls: Mutex<Vec<(String, String, Vec<PropEntry>)>>,
}

impl Handler {
    fn new(answer: Answer) -> Arc<Self> {
        Arc::new(Handler { answer, calls: Mutex::new(Vec::new()) })
    }
}

impl A2uiFunctionHandler for Handler {
    fn call(&self, catalog_id: String, name: String, args: Vec<PropEntry>) -> Result<NodeValue, A2uiFunctionError> {
        self.calls.lock().unwrap().push((catalog_id, name, args));
        match &self.answer {
            Answer::Value(value) => Ok(value.clone()),
            Answer::Throws(error) => Err(error.clone()),
            Answer::Panics => panic!("the app's function panicked"),
        }
    }
}

fn options(handler: Option<Arc<Handler>>, functions: &[&str]) -> ConversationOptions {
    ConversationOptions {
        catalogs_json: vec![demo_loyalty_catalog_json()],
        a2ui_functions: functions
            .iter()
            .map(|name| A2uiFunction { catalog_id: demo_loyalty_catalog_id(), name: (*name).to_owned() })
            .collect(),
        a2ui_function_handler: handler.map(|h| h as Arc<dyn A2uiFunctionHandler>),
        ..ConversationOptions::default()
    }
}

/// The badge's `points` after the agent drew it.
async fn points(conversation: &Conversation) -> Value {
    tokio::time::timeout(LIMIT, conversation.send_message("show my loyalty card".into())).await.unwrap().unwrap();
    let badge = surface_node(conversation, "loyalty", "root").expect("the agent drew the badge");
    assert_eq!(&*badge.component_type, "LoyaltyBadge");
    assert_eq!(badge.props.get("tier"), Some(&json!("Gold")));
    badge.props.get("points").cloned().expect("points")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_apps_function_writes_the_badge_of_its_catalog() {
    let f = fixture();
    let handler = Handler::new(Answer::Value(NodeValue::Text { value: "1,250 points".into() }));
    let conversation =
        f.runtime.connect(f.agent.agent_url(), Vec::new(), options(Some(handler.clone()), &["formatPoints"])).unwrap();
    assert_eq!(points(&conversation).await, json!("1,250 points"));
    let calls = handler.calls.lock().unwrap().clone();
    // Called again when the data it reads arrives (the components came first): the last call
    // had the balance.
    let (catalog_id, name, args) = calls.last().expect("the handler was called").clone();
    assert_eq!((catalog_id.as_str(), name.as_str()), (demo_loyalty_catalog_id().as_str(), "formatPoints"));
    assert_eq!(args, [PropEntry { name: "value".into(), value: NodeValue::Number { value: 1250.0 } }]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_catalog_draws_the_badge_like_its_text() {
    let f = fixture();
    let handler = Handler::new(Answer::Value(NodeValue::Text { value: "1,250 points".into() }));
    let catalog: Value = serde_json::from_str(&demo_loyalty_catalog_json()).unwrap();
    let options = ConversationOptions {
        catalogs_json: Vec::new(),
        catalogs: vec![NodeValue::from(catalog)],
        ..options(Some(handler.clone()), &["formatPoints"])
    };
    let conversation = f.runtime.connect(f.agent.agent_url(), Vec::new(), options).unwrap();
    assert_eq!(points(&conversation).await, json!("1,250 points"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_handler_is_the_calls_failure_never_a_crash() {
    let f = fixture();
    for answer in [
        Answer::Throws(A2uiFunctionError::Failed { detail: "no points service".into() }),
        Answer::Throws(A2uiFunctionError::Unexpected { detail: "IllegalStateException".into() }),
        Answer::Value(NodeValue::Number { value: f64::NAN }),
        Answer::Panics,
    ] {
        let handler = Handler::new(answer);
        let options = options(Some(handler.clone()), &["formatPoints"]);
        let conversation = f.runtime.connect(f.agent.agent_url(), Vec::new(), options).unwrap();
        assert_eq!(points(&conversation).await, Value::Null);
        assert!(!handler.calls.lock().unwrap().is_empty());
        // The conversation goes on.
        tokio::time::timeout(LIMIT, conversation.send_message("hello".into())).await.unwrap().unwrap();
        assert!(last_assistant_text(&conversation).contains("demo agent"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_catalog_in_the_options_the_agent_answers_in_words() {
    let f = fixture();
    tokio::time::timeout(LIMIT, f.conversation.send_message("show my loyalty card".into())).await.unwrap().unwrap();
    assert!(f.conversation.surface("loyalty".into()).is_none());
    assert!(last_assistant_text(&f.conversation).contains("does not render the loyalty catalog"));
}

#[test]
fn bad_catalogs_and_functions_are_invalid_options() {
    let f = fixture();
    let refused = |options: ConversationOptions| match f.runtime.connect(f.agent.agent_url(), Vec::new(), options) {
        Err(ConversationError::InvalidOptions { detail }) => detail,
        other => panic!("{other:?}"),
    };
    let detail = refused(ConversationOptions { catalogs_json: vec!["{".into()], ..ConversationOptions::default() });
    assert!(detail.contains("catalog 0 is not JSON"), "{detail}");
    let detail = refused(ConversationOptions {
        catalogs_json: vec![r#"{"components": {}}"#.into()],
        ..ConversationOptions::default()
    });
    assert!(detail.contains("not a valid A2UI catalog"), "{detail}");
    let detail = refused(options(None, &["formatPoints"]));
    assert!(detail.contains("a2ui_function_handler"), "{detail}");
    let detail = refused(options(Some(Handler::new(Answer::Value(NodeValue::Null))), &["formatStars"]));
    assert!(detail.contains("declares no function \"formatStars\""), "{detail}");
    let mut twice = options(None, &[]);
    twice.catalogs_json.push(demo_loyalty_catalog_json());
    assert!(refused(twice).contains("already registered"));

    // Typed catalogs: checked as the text is, and never beside it.
    let typed = |catalogs: Vec<NodeValue>| ConversationOptions { catalogs, ..ConversationOptions::default() };
    let loyalty = NodeValue::from(serde_json::from_str::<Value>(&demo_loyalty_catalog_json()).unwrap());
    let detail = refused(ConversationOptions { catalogs: vec![loyalty.clone()], ..options(None, &[]) });
    assert!(detail.contains("not both"), "{detail}");
    let detail = refused(typed(vec![NodeValue::from(json!({"components": {}}))]));
    assert!(detail.contains("not a valid A2UI catalog"), "{detail}");
    let nan = NodeValue::Object {
        entries: vec![PropEntry { name: "catalogId".into(), value: NodeValue::Number { value: f64::NAN } }],
    };
    let detail = refused(typed(vec![loyalty.clone(), nan]));
    assert!(detail.contains("catalog 1 is not JSON at '/catalogId'"), "{detail}");
    let padded = NodeValue::from(json!({"catalogId": "https://example.com/big.json", "components": {},
        "description": "x".repeat(256 * 1024)}));
    let detail = refused(typed(vec![padded]));
    assert!(detail.contains("too many bytes in one catalog"), "{detail}");
    let detail = refused(typed(vec![loyalty; 17]));
    assert!(detail.contains("too many catalogs: 17 (at most 16)"), "{detail}");
}
