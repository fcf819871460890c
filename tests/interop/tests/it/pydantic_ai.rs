//! The Rust runtime against Pydantic AI's built-in AG-UI adapter (pydantic-ai-slim 2.78.0,
//! ag-ui-protocol 1.0.0) with a scripted `FunctionModel`: streamed text, server and client
//! tools, state, the user's attachment across two turns, and tool approval.

use agentui_interop::*;
use serde_json::json;

use crate::interop_test;
use crate::servers::{
    approval_through_the_outcome, attachment_on_the_second_turn, attachments_arrive_intact, bounded,
    client_tool_round_trip, failing_client_tool, observed_counters, parallel_client_calls, server_tool, streamed_text,
    Approval,
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
