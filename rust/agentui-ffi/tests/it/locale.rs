//! The locale and time zone of `ConversationOptions` reach the A2UI formatting functions, and
//! bad values are refused at connect with `InvalidOptions` (issue 12).

use crate::common;

use agentui_ffi::{Conversation, ConversationError, ConversationOptions, Runtime};
use common::*;

/// The demo agent's receipt (raw values, formatted on the device), as the conversation shows it.
async fn receipt_texts(conversation: &Conversation) -> Vec<String> {
    tokio::time::timeout(LIMIT, conversation.send_message("show my receipt".into())).await.unwrap().unwrap();
    ["total", "paid", "delivery", "points", "items"]
        .iter()
        .map(|id| {
            let node = surface_node(conversation, "receipt", id).unwrap_or_else(|| panic!("node {id}"));
            match node.props.get("text") {
                Some(serde_json::Value::String(value)) => value.clone(),
                other => panic!("{id}: {other:?}"),
            }
        })
        .collect()
}

fn options(locale: Option<&str>, time_zone: Option<&str>) -> ConversationOptions {
    ConversationOptions {
        locale: locale.map(str::to_owned),
        time_zone: time_zone.map(str::to_owned),
        ..ConversationOptions::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_locale_a_conversation_formats_for_en_us_in_utc() {
    let f = fixture();
    assert_eq!(
        receipt_texts(&f.conversation).await,
        ["€1,234.50", "Sunday 1 March 2026 10:00", "Mon 2 Mar 2026", "12,345.678", "several items"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_options_locale_and_time_zone_reach_the_formatting_functions() {
    let f = fixture();
    let german =
        f.runtime.connect(f.agent.agent_url(), Vec::new(), options(Some("de-DE"), Some("Europe/Berlin"))).unwrap();
    assert_eq!(
        receipt_texts(&german).await,
        ["EUR 1.234,50", "Sonntag 1 März 2026 11:00", "Mo. 2 März 2026", "12.345,678", "several items"]
    );
    let korean =
        f.runtime.connect(f.agent.agent_url(), Vec::new(), options(Some("ko-KR"), Some("Asia/Seoul"))).unwrap();
    assert_eq!(
        receipt_texts(&korean).await,
        ["EUR 1,234.50", "일요일 1 3월 2026 19:00", "월 2 3월 2026", "12,345.678", "several items"]
    );
    // Polish: 3 is `few`.
    let polish = f.runtime.connect(f.agent.agent_url(), Vec::new(), options(Some("pl-PL"), None)).unwrap();
    assert_eq!(receipt_texts(&polish).await[4], "a few items");
}

#[test]
fn an_invalid_locale_or_time_zone_is_invalid_options_at_connect() {
    let runtime = Runtime::new().unwrap();
    // Nothing is contacted: connect fails before any request.
    let url = "http://127.0.0.1:9/agent".to_owned();
    for (locale, time_zone) in [
        (Some("en_US"), None),
        (Some(""), None),
        (Some("not a locale"), Some("UTC")),
        (None, Some("Mars/Olympus")),
        (None, Some("")),
        (Some("de-DE"), Some("GMT+05:30")),
    ] {
        let result = runtime.connect(url.clone(), Vec::new(), options(locale, time_zone));
        match result {
            Err(ConversationError::InvalidOptions { detail }) => {
                let named = if locale.is_some_and(|l| l != "de-DE") { "locale" } else { "time zone" };
                assert!(detail.contains(named), "{locale:?} {time_zone:?}: {detail}");
            }
            other => panic!("{locale:?} {time_zone:?}: expected InvalidOptions, got {:?}", other.map(|_| ())),
        }
    }
}
