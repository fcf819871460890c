//! Request validation, routing, and the handle's lifecycle.

use crate::common;

use std::time::Duration;

use agentui_demo_agent::{DemoAgent, DemoAgentOptions};
use common::*;
use serde_json::json;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

#[tokio::test]
async fn malformed_json_is_400_with_a_json_error() {
    bounded(async {
        let agent = start().await;
        let response = call(agent.local_addr(), "POST", "/agent", b"{\"threadId\": ").await;
        assert_eq!(response.status, 400);
        assert_eq!(response.header("content-type"), Some("application/json"));
        assert_eq!(response.json()["error"]["code"], "malformed_json");
        assert!(response.json()["error"]["message"].is_string());
    })
    .await;
}

#[tokio::test]
async fn json_that_is_not_a_run_agent_input_is_400() {
    bounded(async {
        let agent = start().await;
        for body in [json!([]), json!({"threadId": "t", "messages": []}), json!({"threadId": "t", "runId": "r"})] {
            let response = post(agent.local_addr(), "/agent/chat", &body).await;
            assert_eq!(response.status, 400, "{body}");
            assert_eq!(response.json()["error"]["code"], "invalid_input");
        }
    })
    .await;
}

#[tokio::test]
async fn unknown_scenarios_and_paths_are_404() {
    bounded(async {
        let agent = start().await;
        let response = post(agent.local_addr(), "/agent/nope", &input("r", json!([]), &[])).await;
        assert_eq!(response.status, 404);
        assert_eq!(response.json()["error"]["code"], "unknown_scenario");
        let response = call(agent.local_addr(), "GET", "/elsewhere", b"").await;
        assert_eq!(response.status, 404);
        let response = call(agent.local_addr(), "GET", "/agent", b"").await;
        assert_eq!(response.status, 405);
    })
    .await;
}

#[tokio::test]
async fn index_lists_scenarios_and_faults() {
    bounded(async {
        let agent = start().await;
        let text = call(agent.local_addr(), "GET", "/", b"").await.text();
        for needle in ["client-tool", "\"location\"", "a2ui-v08", "oversized-event"] {
            assert!(text.contains(needle), "{needle} in {text}");
        }
    })
    .await;
}

#[tokio::test]
async fn urls_name_the_bound_address() {
    bounded(async {
        let agent = DemoAgent::start("127.0.0.1:0".parse().unwrap()).await.unwrap();
        let addr = agent.local_addr();
        assert_ne!(addr.port(), 0);
        assert_eq!(agent.url(), format!("http://127.0.0.1:{}", addr.port()));
        assert_eq!(agent.agent_url(), format!("{}/agent", agent.url()));
        assert_eq!(agent.scenario_url("slow"), format!("{}/agent/slow", agent.url()));
        assert_eq!(agent.fault_url("stall"), format!("{}/fault/stall", agent.url()));
        agent.shutdown().await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn a_client_leaving_mid_stream_does_not_disturb_the_server() {
    bounded(async {
        let agent = start_with(DemoAgentOptions::for_tests(Duration::from_millis(20))).await;
        let body = input("r", json!([user("slow")]), &[]).to_string();
        let mut stream = send(agent.local_addr(), "POST", "/agent", body.as_bytes()).await;
        let mut buf = [0u8; 4096];
        let n = stream.read(&mut buf).await.unwrap();
        assert!(n > 0);
        drop(stream); // cancel mid-stream
        let events = run(&agent, "/agent", &input("r2", json!([user("hello")]), &[])).await;
        assert_eq!(events.last().unwrap()["type"], "RUN_FINISHED");
    })
    .await;
}

#[tokio::test]
async fn shutdown_ends_streams_in_flight_and_stops_listening() {
    bounded(async {
        let agent = start_with(DemoAgentOptions::for_tests(Duration::from_secs(10))).await;
        let addr = agent.local_addr();
        let body = input("r", json!([user("slow")]), &[]).to_string();
        let mut stream = send(addr, "POST", "/agent", body.as_bytes()).await;
        let mut first = [0u8; 1024];
        assert!(stream.read(&mut first).await.unwrap() > 0);
        tokio::time::timeout(Duration::from_secs(3), agent.shutdown()).await.expect("prompt").unwrap();
        let mut rest = Vec::new();
        stream.read_to_end(&mut rest).await.unwrap();
        assert!(rest.ends_with(b"0\r\n\r\n"), "the stream ended with a proper final chunk");
        assert!(TcpStream::connect(addr).await.is_err(), "no longer listening");
    })
    .await;
}

#[tokio::test]
async fn dropping_the_handle_stops_the_server() {
    bounded(async {
        let agent = start().await;
        let addr = agent.local_addr();
        drop(agent);
        for _ in 0..100 {
            if TcpStream::connect(addr).await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("still listening after drop");
    })
    .await;
}
