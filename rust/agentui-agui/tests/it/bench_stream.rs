//! The benchmark workload reduces to the message count its meta file records.

use std::path::PathBuf;

use agentui_agui::{process_sse_body, ConversationState, PipelineOptions, SseLimits};

#[test]
fn agui_stream_n2000_reduces_to_4040_messages() {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/bench"));
    let body = std::fs::read(dir.join("agui-stream-n2000.sse")).expect("bench body is readable");
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("agui-stream-n2000.meta.json")).unwrap()).unwrap();

    let summary =
        process_sse_body(&body, ConversationState::default(), &PipelineOptions::default(), SseLimits::default());
    assert_eq!(summary.error, None);
    assert_eq!(summary.conversation.messages().len() as u64, meta["expectedMessages"].as_u64().unwrap());
    assert_eq!(summary.conversation.messages().len(), 4040);
    assert_eq!(summary.delivered_events as u64, meta["events"].as_u64().unwrap());
    assert!(summary.conversation.warnings().is_empty(), "{:?}", summary.conversation.warnings());
    assert!(!summary.conversation.needs_resync());
    assert_eq!(summary.conversation.pending_live_tool_calls().count(), 0, "every call was answered by the server");
}
