//! A recording folder: written, loaded, and served back in order.

use std::path::PathBuf;
use std::time::Duration;

use agentui_runtime::session::RunPhase;
use agentui_runtime::session::{ConversationSession, SessionOptions};
use agentui_runtime::Conversation;
use agentui_testing::{Recording, RecordingServer, RecordingWriter};
use serde_json::json;

const LIMIT: Duration = Duration::from_secs(30);

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agentui-testing-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn sse(run_id: &str, text: &str) -> Vec<u8> {
    let events = [
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": run_id}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": format!("m-{run_id}"), "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": format!("m-{run_id}"), "delta": text}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": format!("m-{run_id}")}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": run_id}),
    ];
    events.iter().flat_map(|e| format!("data: {e}\n\n").into_bytes()).collect()
}

#[test]
fn credentials_never_land_in_a_recording_even_with_headers() {
    let dir = temp_dir("credentials");
    let mut writer = RecordingWriter::create(&dir, true).unwrap();
    let headers = [
        ("Authorization".to_owned(), "Bearer s3cr3t-token".to_owned()),
        ("Cookie".to_owned(), "session=s3cr3t-cookie".to_owned()),
        ("X-Auth-Token".to_owned(), "s3cr3t-x".to_owned()),
        ("Accept".to_owned(), "text/event-stream".to_owned()),
    ];
    writer
        .write(
            &json!({"threadId": "t", "runId": "r1", "messages": []}),
            &headers,
            200,
            "text/event-stream",
            &sse("r1", "hi"),
        )
        .unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(!text.contains("s3cr3t"), "{text}");
    }
    let headers = std::fs::read_to_string(dir.join("0001-headers.json")).unwrap();
    assert!(headers.contains("text/event-stream"), "{headers}");

    let without = temp_dir("no-headers");
    let mut writer = RecordingWriter::create(&without, false).unwrap();
    writer.write(&json!({}), &[], 200, "text/event-stream", b"").unwrap();
    assert!(!without.join("0001-headers.json").exists());
    assert!(RecordingWriter::create(&without, false).is_err(), "a recording is never written over");
}

#[tokio::test]
async fn a_recording_is_served_in_order_and_a_request_beyond_it_fails_and_is_kept() {
    let dir = temp_dir("serve");
    let mut writer = RecordingWriter::create(&dir, false).unwrap();
    // Recorded on another thread with other run ids: served for the app's own.
    writer
        .write(&json!({"threadId": "t", "runId": "r1"}), &[], 200, "text/event-stream", &sse("r1", "first answer"))
        .unwrap();
    writer
        .write(&json!({"threadId": "t", "runId": "r2"}), &[], 200, "text/event-stream", &sse("r2", "second answer"))
        .unwrap();
    let recording = Recording::load(&dir).unwrap();
    assert_eq!(recording.exchanges.len(), 2);
    let server = RecordingServer::start(recording, "127.0.0.1:0".parse().unwrap()).await.unwrap();
    let session = ConversationSession::connect(&server.url(), &[], SessionOptions::default()).unwrap();
    let conv = Conversation::start(session, tokio::runtime::Handle::current());
    for expected in ["first answer", "second answer"] {
        let summary = tokio::time::timeout(LIMIT, conv.send_message("again".into())).await.unwrap().unwrap();
        assert!(matches!(summary.phase, RunPhase::Finished { .. }));
        let messages = conv.snapshot().unwrap().messages;
        assert_eq!(messages.last().unwrap().text(), Some(expected));
    }
    let beyond = tokio::time::timeout(LIMIT, conv.send_message("third".into())).await.unwrap().unwrap_err();
    assert!(format!("{beyond:?}").contains("beyond the recording"), "{beyond:?}");
    let unmatched = server.assert_all_matched().unwrap_err();
    assert!(unmatched.to_string().contains("request 3 is beyond the recording, which has 2"), "{unmatched}");
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn a_folder_without_exchanges_or_with_a_bad_status_is_refused() {
    let empty = temp_dir("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert!(Recording::load(&empty).unwrap_err().to_string().contains("0001-request.json"));

    let bad = temp_dir("bad-status");
    let mut writer = RecordingWriter::create(&bad, false).unwrap();
    writer.write(&json!({}), &[], 200, "text/event-stream", b"").unwrap();
    std::fs::write(bad.join("0001-response.json"), r#"{"status": 99}"#).unwrap();
    assert!(Recording::load(&bad).unwrap_err().to_string().contains("status"));
}
