//! The typed forms of the calls that also take JSON text: interrupt answers, client tools and
//! forwarded props cross as `NodeValue`s and reach the demo agent as the JSON they stand for.

use crate::common;

use std::sync::{Arc, Mutex};

use agentui_ffi::{
    ConversationError, ConversationOptions, NodeValue, PropEntry, Runtime, ToolFailure, ToolHandlerError,
    TypedClientToolHandler, TypedToolResult,
};
use common::*;
use serde_json::json;

/// A typed tool that records its arguments and answers with a fixed value.
struct TypedTool {
    answer: NodeValue,
    calls: Mutex<Vec<NodeValue>>,
}

#[async_trait::async_trait]
impl TypedClientToolHandler for TypedTool {
    async fn call(&self, _tool_call_id: String, arguments: NodeValue) -> Result<TypedToolResult, ToolHandlerError> {
        self.calls.lock().unwrap().push(arguments);
        Ok(TypedToolResult { value: self.answer.clone() })
    }
}

fn typed_tool(answer: NodeValue) -> Arc<TypedTool> {
    Arc::new(TypedTool { answer, calls: Mutex::new(Vec::new()) })
}

fn location_schema() -> NodeValue {
    NodeValue::from(serde_json::from_str::<serde_json::Value>(LOCATION_SCHEMA).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_interrupt_answer_reaches_the_agent_as_json() {
    let f = fixture();
    tokio::time::timeout(LIMIT, f.conversation.send_message("delete the report".into())).await.unwrap().unwrap();
    let id = f.conversation.snapshot().unwrap().pending_interrupts[0].id.clone();

    let nan = NodeValue::Object {
        entries: vec![PropEntry { name: "approved".into(), value: NodeValue::Number { value: f64::NAN } }],
    };
    let not_json = f.conversation.resolve_interrupt_value(id.clone(), Some(nan));
    assert!(matches!(not_json, Err(ConversationError::InvalidJson { .. })), "{not_json:?}");
    let wrong = f.conversation.resolve_interrupt_value(id.clone(), Some(NodeValue::from(json!({"approved": "yes"}))));
    assert!(matches!(wrong, Err(ConversationError::InvalidInterruptPayload { .. })), "{wrong:?}");

    // `false` keeps the file: the agent read the answer's member, not just that one came.
    f.conversation.resolve_interrupt_value(id, Some(NodeValue::from(json!({"approved": false})))).unwrap();
    tokio::time::timeout(LIMIT, f.conversation.continue_run()).await.unwrap().unwrap();
    assert_eq!(last_assistant_text(&f.conversation), "Kept report.pdf.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_tool_gets_typed_arguments_and_its_value_goes_back_as_json() {
    let f = fixture();
    let tool = typed_tool(NodeValue::from(json!({"city": "Lisbon", "confidence": 0.9})));
    f.conversation
        .register_typed_tool("get_location".into(), "".into(), location_schema(), tool.clone(), None)
        .unwrap();

    let summary =
        tokio::time::timeout(LIMIT, f.conversation.send_message("what is my location?".into())).await.unwrap().unwrap();

    assert_eq!(*tool.calls.lock().unwrap(), vec![NodeValue::from(json!({"precision": "city"}))]);
    assert_eq!(summary.tool_calls[0].outcome, Ok(json!({"city": "Lisbon", "confidence": 0.9})));
    let text = last_assistant_text(&f.conversation);
    assert!(text.contains(r#"{"city":"Lisbon","confidence":0.9}"#), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_tool_whose_value_is_not_json_fails_the_call_and_bad_schemas_are_refused() {
    let f = fixture();
    let tool = typed_tool(NodeValue::Number { value: f64::INFINITY });
    f.conversation
        .register_typed_tool("get_location".into(), "".into(), location_schema(), tool.clone(), None)
        .unwrap();
    let summary =
        tokio::time::timeout(LIMIT, f.conversation.send_message("what is my location?".into())).await.unwrap().unwrap();
    match &summary.tool_calls[0].outcome {
        Err(failure @ ToolFailure::Failed { .. }) => assert!(failure.to_string().contains("not JSON"), "{failure}"),
        other => panic!("expected a failure, got {other:?}"),
    }

    let array =
        f.conversation.register_typed_tool("t".into(), "".into(), NodeValue::from(json!([1])), tool.clone(), None);
    assert!(matches!(array, Err(ConversationError::InvalidJson { .. })), "{array:?}");
    let nan = NodeValue::Object {
        entries: vec![PropEntry { name: "x".into(), value: NodeValue::Number { value: f64::NAN } }],
    };
    let not_json = f.conversation.register_typed_tool("t".into(), "".into(), nan, tool, None);
    assert!(matches!(not_json, Err(ConversationError::InvalidJson { .. })), "{not_json:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_forwarded_props_arrive_in_the_run_input() {
    let agent = agentui_ffi::demo::start_demo_agent().expect("demo agent starts");
    let runtime = Runtime::new().expect("runtime starts");
    // The demo agent quotes `forwardedProps.command.resume` back (LangGraph's legacy channel).
    let props = NodeValue::from(json!({"command": {"resume": {"ok": true}}}));
    let options = ConversationOptions { forwarded_props: Some(props.clone()), ..Default::default() };
    let conversation = runtime.connect(agent.agent_url(), Vec::new(), options).expect("connect");
    tokio::time::timeout(LIMIT, conversation.send_message("hello".into())).await.unwrap().unwrap();
    assert_eq!(last_assistant_text(&conversation), r#"Approved: {"ok":true}"#);

    let both = ConversationOptions {
        forwarded_props: Some(props),
        forwarded_props_json: Some("{}".into()),
        ..Default::default()
    };
    let refused = runtime.connect(agent.agent_url(), Vec::new(), both);
    assert!(matches!(refused, Err(ConversationError::InvalidOptions { .. })), "{refused:?}");
    agent.stop().unwrap();
}
