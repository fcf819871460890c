//! The Rust runtime against Pydantic AI's built-in AG-UI adapter (pydantic-ai-slim 2.78.0,
//! ag-ui-protocol 1.0.0) with a scripted `FunctionModel`: streamed text, server and client
//! tools, state, the user's attachment across two turns, tool approval, a second turn from the
//! store, and the empty text message the adapter sends before each tool call.

use agentui_interop::*;
use serde_json::{json, Value};

use crate::interop_test;
use crate::servers::{
    approval_through_the_outcome, attachment_on_the_second_turn, attachments_arrive_intact, bounded,
    client_tool_round_trip, failing_client_tool, observed_counters, parallel_client_calls, second_turn_from_the_store,
    server_tool, streamed_text, Approval,
};

const PATH: &str = "/pydantic-ai";

interop_test!(pydantic_ai_streamed_text, streamed_text(pydantic_ai(), PATH, "Hello from Pydantic AI!"));

interop_test!(pydantic_ai_server_tool, server_tool(pydantic_ai(), PATH));

interop_test!(pydantic_ai_client_tool_round_trip, client_tool_round_trip(pydantic_ai(), PATH));

interop_test!(pydantic_ai_parallel_client_calls, parallel_client_calls(pydantic_ai(), PATH));

interop_test!(pydantic_ai_failing_client_tool, failing_client_tool(pydantic_ai(), PATH));

// The adapter hands the model each part as a `BinaryContent` (kind "binary").
interop_test!(
    pydantic_ai_attachments_arrive_intact,
    attachments_arrive_intact(pydantic_ai(), PATH, ["binary", "binary"])
);

interop_test!(pydantic_ai_attachment_on_the_second_turn, attachment_on_the_second_turn(pydantic_ai(), PATH, "binary"));

/// A tool's `ToolReturn` metadata carries a STATE_SNAPSHOT after each result: 1, then 2, the
/// app's own state (`StateDeps`) merged in.
#[tokio::test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
async fn pydantic_ai_state_snapshots() {
    let server = pydantic_ai();
    bounded(async {
        let (c, rec, thread) = conversation_with(&server.url(PATH), "state", |s| s.set_state(json!({"theme": "dark"})));
        c.send_message("increment the state".into()).await.unwrap();
        assert_eq!(observed_counters(&rec).await.last(), Some(&json!(2)));
        let state = c.snapshot().unwrap().state;
        assert_eq!((state["counter"].clone(), state["theme"].clone()), (json!(2), json!("dark")));
        assert_eq!(server.inputs(&thread).await[0]["state"]["theme"], "dark");
    })
    .await
}

/// `requires_approval=True`: the run ends with an AG-UI interrupt whose `responseSchema` asks
/// for `{"approved": bool}`; a denial reaches the model as "The tool call was denied."
#[tokio::test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
async fn pydantic_ai_approval_approve_and_reject() {
    approval_through_the_outcome(
        pydantic_ai(),
        PATH,
        Approval {
            message: r#"Approve delete_file({"path":"/tmp/report.txt"})?"#,
            answer: |approve| json!({"approved": approve}),
            outcomes: ["Deleted /tmp/report.txt", "The tool call was denied."],
            left_to_the_server: &[],
        },
    )
    .await
}

interop_test!(
    pydantic_ai_second_turn_from_the_store,
    second_turn_from_the_store(pydantic_ai(), PATH, "Hello from Pydantic AI!")
);

/// Pinned: before each tool call pydantic-ai 2.78.0 opens and closes a text message with no
/// content, and names it as the call's `parentMessageId`. The client keeps no empty message: the
/// pair becomes the assistant message that holds the call, and every assistant message it keeps
/// has text or a call. An upgrade that drops the pair fails the first half.
#[tokio::test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
async fn pydantic_ai_empty_text_message_before_each_tool_call() {
    let server = pydantic_ai();
    bounded(async {
        let body = json!({"threadId": unique_thread("pydantic-raw"), "runId": "r1", "state": {}, "tools": [],
            "context": [], "forwardedProps": {}, "messages": [{"id": "u1", "role": "user", "content": "weather"}]});
        let sse = post_sse(&server.url(PATH), &body).await;
        let events: Vec<Value> = sse
            .lines()
            .filter_map(|line| line.strip_prefix("data: "))
            .map(|data| serde_json::from_str(data).expect("an event"))
            .collect();
        let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap_or_default()).collect();
        let call = types.iter().position(|t| *t == "TOOL_CALL_START").expect("a tool call");
        assert_eq!(types[call - 2..call], ["TEXT_MESSAGE_START", "TEXT_MESSAGE_END"], "{types:?}");
        let empty_id = &events[call - 2]["messageId"];
        assert_eq!(&events[call - 1]["messageId"], empty_id);
        assert_eq!(&events[call]["parentMessageId"], empty_id, "the empty message is the call's parent");

        let (c, _rec, _thread) = conversation(&server.url(PATH), "empty-text");
        c.send_message("what is the weather?".into()).await.unwrap();
        let messages = c.snapshot().unwrap().messages;
        let assistants: Vec<_> = messages.iter().filter(|m| m.role.as_str() == "assistant").collect();
        for m in &assistants {
            let has_text = m.text().is_some_and(|t| !t.is_empty());
            let has_calls = m.tool_calls.as_ref().is_some_and(|calls| !calls.is_empty());
            assert!(has_text || has_calls, "an empty assistant message was kept: {m:?}");
        }
        let holder = assistants.iter().find(|m| m.tool_calls.is_some()).expect("the message holding the call");
        assert_eq!(holder.tool_calls.as_ref().unwrap()[0].function.name, "get_weather");
        assert!(holder.text().unwrap_or_default().is_empty(), "{holder:?}");
    })
    .await
}
