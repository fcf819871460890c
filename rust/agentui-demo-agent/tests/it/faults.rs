//! The raw behaviour of each `/fault/<kind>` endpoint.

use crate::common;

use std::time::Duration;

use agentui_demo_agent::{FAULTS, OVERSIZED_EVENT_BYTES};
use common::*;
use serde_json::json;
use tokio::io::AsyncReadExt;

/// Reads from `stream` until `done(received)` holds.
async fn read_until(stream: &mut tokio::net::TcpStream, received: &mut Vec<u8>, done: impl Fn(&[u8]) -> bool) {
    let mut buf = vec![0u8; 16 * 1024];
    while !done(received) {
        let n = stream.read(&mut buf).await.expect("read");
        assert!(n > 0, "connection closed early: {}", String::from_utf8_lossy(received));
        received.extend_from_slice(&buf[..n]);
    }
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[tokio::test]
async fn close_mid_event_sends_half_a_line_then_aborts() {
    bounded(async {
        let agent = start().await;
        let response = post(agent.local_addr(), "/fault/close-mid-event", &input("r", json!([]), &[])).await;
        assert_eq!(response.status, 200);
        assert_eq!(response.header("content-type"), Some("text/event-stream"));
        assert!(!response.complete, "no final chunk: the connection was cut");
        let text = response.text();
        let (complete, partial) = text.rsplit_once("\n\n").unwrap();
        assert_eq!(events(format!("{complete}\n\n").as_bytes())[0]["type"], "RUN_STARTED");
        assert!(partial.starts_with("data: {\"type\":\"TEXT_MES"), "{partial:?}");
        assert!(!partial.contains('\n'), "the line is cut before its end");
    })
    .await;
}

#[tokio::test]
async fn stall_sends_run_started_then_keeps_the_connection_open() {
    bounded(async {
        let agent = start().await;
        let body = input("r", json!([]), &[]).to_string();
        let mut stream = send(agent.local_addr(), "POST", "/fault/stall", body.as_bytes()).await;
        let mut received = Vec::new();
        read_until(&mut stream, &mut received, |r| contains(r, "RUN_STARTED") && contains(r, "}\n\n")).await;
        let mut buf = [0u8; 256];
        let more = tokio::time::timeout(Duration::from_millis(300), stream.read(&mut buf)).await;
        assert!(more.is_err(), "nothing more arrives and the connection stays open: {more:?}");

        // Shutting down ends the stalled stream rather than waiting on it forever.
        tokio::time::timeout(Duration::from_secs(3), agent.shutdown()).await.expect("prompt shutdown").unwrap();
        let mut rest = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(3), stream.read_to_end(&mut rest)).await.expect("closed");
    })
    .await;
}

#[tokio::test]
async fn http_500_has_a_short_text_body() {
    bounded(async {
        let agent = start().await;
        let response = call(agent.local_addr(), "POST", "/fault/http-500", b"").await;
        assert_eq!(response.status, 500);
        assert!(response.header("content-type").unwrap().starts_with("text/plain"));
        assert!(response.body.len() < 200 && response.text().contains("internal server error"));
    })
    .await;
}

#[tokio::test]
async fn html_answers_200_with_a_web_page() {
    bounded(async {
        let agent = start().await;
        let response = call(agent.local_addr(), "POST", "/fault/html", b"{}").await;
        assert_eq!(response.status, 200);
        assert_eq!(response.header("content-type"), Some("text/html; charset=utf-8"));
        assert!(response.text().starts_with("<!doctype html>"));
    })
    .await;
}

#[tokio::test]
async fn invalid_utf8_is_an_otherwise_complete_run() {
    bounded(async {
        let agent = start().await;
        let response = post(agent.local_addr(), "/fault/invalid-utf8", &input("r", json!([]), &[])).await;
        assert_eq!(response.status, 200);
        assert!(response.complete);
        assert!(std::str::from_utf8(&response.body).is_err());
        let lossy = String::from_utf8_lossy(&response.body);
        assert!(lossy.contains("\"type\":\"TEXT_MESSAGE_CONTENT\""));
        assert!(lossy.trim_end().ends_with(r#""outcome":{"type":"success"}}"#), "{lossy}");
    })
    .await;
}

#[tokio::test]
async fn oversized_event_is_one_twenty_megabyte_line() {
    bounded(async {
        let agent = start().await;
        let response = post(agent.local_addr(), "/fault/oversized-event", &input("r", json!([]), &[])).await;
        assert_eq!(response.status, 200);
        assert!(response.complete);
        let longest = response.body.split(|b| *b == b'\n').map(<[u8]>::len).max().unwrap();
        assert_eq!(longest, OVERSIZED_EVENT_BYTES);
        let events = events(&response.body);
        assert_eq!(
            types(&events),
            ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]
        );
    })
    .await;
}

#[tokio::test]
async fn truncated_run_ends_cleanly_without_run_finished() {
    bounded(async {
        let agent = start().await;
        let response = post(agent.local_addr(), "/fault/truncated-run", &input("r", json!([]), &[])).await;
        assert_eq!(response.status, 200);
        assert!(response.complete, "the body itself ends properly");
        let events = events(&response.body);
        assert_eq!(
            types(&events),
            ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT"]
        );
        assert_eq!(events[0]["runId"], "r");
    })
    .await;
}

#[tokio::test]
async fn faults_need_no_body_and_unknown_kinds_are_404() {
    bounded(async {
        let agent = start().await;
        for kind in FAULTS.iter().filter(|k| !["stall", "oversized-event"].contains(k)) {
            let response = call(agent.local_addr(), "POST", &format!("/fault/{kind}"), b"").await;
            assert!(response.status == 200 || response.status == 500, "{kind}");
        }
        let response = call(agent.local_addr(), "POST", "/fault/nope", b"").await;
        assert_eq!(response.status, 404);
        assert_eq!(response.json()["error"]["code"], "unknown_fault");
    })
    .await;
}
