//! Each scenario's event sequence over HTTP.

use crate::common;

use std::time::{Duration, Instant};

use agentui_demo_agent::{DemoAgentOptions, SCENARIOS};
use common::*;
use serde_json::{json, Value};

#[tokio::test]
async fn chat_streams_several_deltas_with_non_ascii_text() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent", &input("r1", json!([user("hello there")]), &[])).await;
        assert_eq!(types(&events)[..3], ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"], "{events:#?}");
        assert!(of_type(&events, "TEXT_MESSAGE_CONTENT").len() >= 3);
        assert_eq!(events[1]["messageId"], "msg-r1-1");
        assert_eq!(events[1]["role"], "assistant");
        let text = last_text(&events);
        assert!(text.starts_with("Hello! I am the demo agent"), "{text}");
        assert!(text.contains("café ☕"), "{text}");
        let finished = events.last().unwrap();
        assert_eq!(finished["type"], "RUN_FINISHED");
        assert_eq!(finished["outcome"]["type"], "success");
    })
    .await;
}

#[tokio::test]
async fn chat_is_the_default_and_needs_no_user_message() {
    bounded(async {
        let agent = start().await;
        let chat = run(&agent, "/agent/chat", &input("r", json!([user("hello")]), &[])).await;
        let unknown_words = run(&agent, "/agent", &input("r", json!([user("zzz")]), &[])).await;
        let empty = run(&agent, "/agent", &input("r", json!([]), &[])).await;
        assert_eq!(chat, unknown_words);
        assert_eq!(chat, empty);
    })
    .await;
}

#[tokio::test]
async fn every_run_opens_and_closes_with_the_input_ids_and_is_deterministic() {
    bounded(async {
        let agent = start().await;
        for scenario in SCENARIOS {
            let body = input("run-7", json!([user("hi")]), &["get_location", "lookup_price"]);
            let path = format!("/agent/{}", scenario.name);
            let events = run(&agent, &path, &body).await;
            assert_eq!(events, run(&agent, &path, &body).await, "{} is deterministic", scenario.name);
            let first = &events[0];
            assert_eq!(first["type"], "RUN_STARTED");
            assert_eq!((first["threadId"].as_str(), first["runId"].as_str()), (Some("thread-1"), Some("run-7")));
            let last = events.last().unwrap();
            if scenario.name == "error" {
                assert_eq!(last["type"], "RUN_ERROR");
                continue;
            }
            assert_eq!(last["type"], "RUN_FINISHED", "{}", scenario.name);
            assert_eq!((last["threadId"].as_str(), last["runId"].as_str()), (Some("thread-1"), Some("run-7")));
            if scenario.name == "approve-legacy" {
                // ag-ui-langgraph's legacy interrupt channel finishes with no outcome.
                assert!(last.get("outcome").is_none(), "{last}");
            } else {
                assert!(last["outcome"]["type"].is_string(), "{}", scenario.name);
            }
            for e in &events {
                for key in ["messageId", "toolCallId"] {
                    if let Some(id) = e[key].as_str() {
                        assert!(id.starts_with("msg-run-7-") || id.starts_with("call-run-7-"), "{id}");
                    }
                }
            }
        }
    })
    .await;
}

#[tokio::test]
async fn keywords_pick_the_same_script_as_the_paths() {
    bounded(async {
        let agent = start().await;
        for scenario in SCENARIOS {
            let Some(keyword) = scenario.keyword else { continue };
            let message = format!("Please {} now", keyword.to_uppercase());
            let body = input("r", json!([user(&message)]), &["get_location", "lookup_price"]);
            let by_keyword = run(&agent, "/agent", &body).await;
            let by_path = run(&agent, &format!("/agent/{}", scenario.name), &body).await;
            assert_eq!(by_keyword, by_path, "keyword {keyword:?}");
        }
    })
    .await;
}

#[tokio::test]
async fn server_tool_calls_get_weather_and_answers_from_its_result() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent", &input("r", json!([user("What's the weather?")]), &[])).await;
        assert_eq!(
            types(&events),
            [
                "RUN_STARTED",
                "TEXT_MESSAGE_START",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_END",
                "TOOL_CALL_START",
                "TOOL_CALL_ARGS",
                "TOOL_CALL_ARGS",
                "TOOL_CALL_END",
                "TOOL_CALL_RESULT",
                "TEXT_MESSAGE_START",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_END",
                "RUN_FINISHED"
            ]
        );
        let start = &of_type(&events, "TOOL_CALL_START")[0];
        assert_eq!(start["toolCallName"], "get_weather");
        assert_eq!(start["parentMessageId"], "msg-r-1");
        let args: String = of_type(&events, "TOOL_CALL_ARGS").iter().map(|e| e["delta"].as_str().unwrap()).collect();
        assert_eq!(serde_json::from_str::<Value>(&args).unwrap(), json!({"city": "Paris"}));
        let result = &of_type(&events, "TOOL_CALL_RESULT")[0];
        assert_eq!(result["toolCallId"], start["toolCallId"]);
        assert_eq!(result["messageId"], "msg-r-2");
        assert_eq!(result["role"], "tool");
        let content: Value = serde_json::from_str(result["content"].as_str().unwrap()).unwrap();
        assert_eq!(content["temperatureC"], 18);
        assert!(last_text(&events).contains("18 °C"));
    })
    .await;
}

#[tokio::test]
async fn client_tool_is_called_only_when_declared() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent", &input("r", json!([user("Where am I? location")]), &["get_location"])).await;
        let start = &of_type(&events, "TOOL_CALL_START")[0];
        assert_eq!(start["toolCallName"], "get_location");
        assert_eq!(start["toolCallId"], "call-r-1");
        let args = &of_type(&events, "TOOL_CALL_ARGS");
        let args: String = args.iter().map(|e| e["delta"].as_str().unwrap()).collect();
        assert_eq!(serde_json::from_str::<Value>(&args).unwrap(), json!({"precision": "city"}));
        assert!(of_type(&events, "TOOL_CALL_RESULT").is_empty(), "the client runs it, not the server");
        let outcome = &events.last().unwrap()["outcome"];
        assert_eq!(outcome, &json!({"type": "success", "pendingToolCallIds": ["call-r-1"]}));

        let undeclared = run(&agent, "/agent", &input("r", json!([user("location please")]), &["other"])).await;
        assert!(of_type(&undeclared, "TOOL_CALL_START").is_empty());
        assert!(last_text(&undeclared).contains("no get_location tool"));
    })
    .await;
}

#[tokio::test]
async fn unregistered_tool_path_calls_teleport_anyway() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent/unregistered-tool", &input("r", json!([user("hi")]), &["get_location"])).await;
        let start = &of_type(&events, "TOOL_CALL_START")[0];
        assert_eq!(start["toolCallName"], "teleport");
        assert_eq!(events.last().unwrap()["outcome"]["pendingToolCallIds"], json!(["call-r-1"]));
    })
    .await;
}

#[tokio::test]
async fn parallel_calls_interleave() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent", &input("r", json!([user("compare A and B")]), &["lookup_price"])).await;
        let calls: Vec<(&str, &str)> = events
            .iter()
            .filter(|e| e["type"].as_str().unwrap().starts_with("TOOL_CALL_"))
            .map(|e| (e["type"].as_str().unwrap(), e["toolCallId"].as_str().unwrap()))
            .collect();
        assert_eq!(
            calls,
            [
                ("TOOL_CALL_START", "call-r-1"),
                ("TOOL_CALL_START", "call-r-2"),
                ("TOOL_CALL_ARGS", "call-r-2"),
                ("TOOL_CALL_ARGS", "call-r-1"),
                ("TOOL_CALL_END", "call-r-2"),
                ("TOOL_CALL_END", "call-r-1"),
            ]
        );
        let args = of_type(&events, "TOOL_CALL_ARGS");
        assert_eq!(args[0]["delta"], r#"{"item":"B"}"#);
        assert_eq!(args[1]["delta"], r#"{"item":"A"}"#);
        assert!(of_type(&events, "TOOL_CALL_START").iter().all(|e| e["toolCallName"] == "lookup_price"));
    })
    .await;
}

#[tokio::test]
async fn state_snapshot_then_increments() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent", &input("r", json!([user("counter")]), &[])).await;
        let snapshot = &of_type(&events, "STATE_SNAPSHOT")[0];
        assert_eq!(snapshot["snapshot"], json!({"counter": 0, "items": []}));
        let deltas = of_type(&events, "STATE_DELTA");
        assert_eq!(deltas.len(), 3);
        let mut state = snapshot["snapshot"].clone();
        for delta in &deltas {
            apply(&mut state, &delta["delta"]).expect("delta applies");
        }
        assert_eq!(state, json!({"counter": 3, "items": ["item 1", "item 2", "item 3"]}));
    })
    .await;
}

#[tokio::test]
async fn bad_delta_cannot_apply_after_a_good_one() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent/bad-delta", &input("r", json!([user("hi")]), &[])).await;
        let mut state = of_type(&events, "STATE_SNAPSHOT")[0]["snapshot"].clone();
        let deltas = of_type(&events, "STATE_DELTA");
        apply(&mut state, &deltas[0]["delta"]).expect("first delta applies");
        let before = state.clone();
        assert!(apply(&mut state.clone(), &deltas[1]["delta"]).is_err(), "second delta must not apply");
        assert_eq!(before, json!({"counter": 1, "items": []}));
        assert_eq!(events.last().unwrap()["type"], "RUN_FINISHED");
    })
    .await;
}

#[tokio::test]
async fn interrupt_finishes_with_one_confirm_delete_interrupt() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent", &input("r", json!([user("delete report.pdf")]), &[])).await;
        let outcome = &events.last().unwrap()["outcome"];
        assert_eq!(outcome["type"], "interrupt");
        let interrupts = outcome["interrupts"].as_array().unwrap();
        assert_eq!(interrupts.len(), 1);
        let i = &interrupts[0];
        assert_eq!(i["id"], "int-r-1");
        assert_eq!(i["reason"], "confirm_delete");
        assert_eq!(i["metadata"], json!({"file": "report.pdf"}));
        assert_eq!(i["expiresAt"], "2099-12-31T23:59:59Z");

        let expired = run(&agent, "/agent/expired-interrupt", &input("r", json!([user("hi")]), &[])).await;
        let i = &expired.last().unwrap()["outcome"]["interrupts"][0];
        assert_eq!(i["expiresAt"], "2000-01-01T00:00:00Z");
        assert_eq!(i["id"], "int-r-expired");
    })
    .await;
}

#[tokio::test]
async fn steps_scenario_streams_step_raw_custom_and_text_and_closes_the_step_before_the_run() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent", &input("r", json!([user("show me the steps")]), &[])).await;
        assert_eq!(
            types(&events),
            [
                "RUN_STARTED",
                "STEP_STARTED",
                "RAW",
                "CUSTOM",
                "TEXT_MESSAGE_START",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_END",
                "STEP_FINISHED",
                "RUN_FINISHED",
            ],
            "{events:#?}"
        );
        assert_eq!(events[1]["stepName"], "research");
        assert_eq!(events[2]["source"], "demo-agent");
        assert!(events[2]["event"].is_object(), "RAW carries the provider's event: {}", events[2]);
        assert_eq!(events[3]["name"], "progress");
        assert_eq!(events[3]["value"], json!({"percent": 50}));
        assert_eq!(last_text(&events), "Research step done.");
        // Spec: a step is closed by name before the run finishes.
        assert_eq!(events[8]["stepName"], events[1]["stepName"]);
        assert_eq!(events[9]["outcome"]["type"], "success");
    })
    .await;
}

#[tokio::test]
async fn approve_legacy_sends_a_langgraph_on_interrupt_and_finishes_without_outcome() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent", &input("r", json!([user("legacy approval please")]), &[])).await;
        assert_eq!(types(&events), ["RUN_STARTED", "CUSTOM", "RUN_FINISHED"], "{events:#?}");
        let custom = &events[1];
        assert_eq!(custom["name"], "on_interrupt");
        // As ag-ui-langgraph sends it: the value is JSON *text*, the Interrupt is in rawEvent.
        let value: Value = serde_json::from_str(custom["value"].as_str().expect("value is a string")).unwrap();
        assert_eq!(value, json!({"message": "Approve?"}));
        assert_eq!(custom["rawEvent"], json!({"id": "lg-1", "value": {"message": "Approve?"}}));
        let finished = events.last().unwrap();
        assert!(finished.get("outcome").is_none(), "{finished}");
        assert_eq!((finished["threadId"].as_str(), finished["runId"].as_str()), (Some("thread-1"), Some("r")));
    })
    .await;
}

#[tokio::test]
async fn error_scenario_fails_mid_stream() {
    bounded(async {
        let agent = start().await;
        let events = run(&agent, "/agent", &input("r", json!([user("please fail")]), &[])).await;
        assert_eq!(
            types(&events),
            ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "RUN_ERROR"]
        );
        let error = events.last().unwrap();
        assert_eq!(error["code"], "DEMO_FAILURE");
        assert!(error["message"].as_str().unwrap().contains("on purpose"));
    })
    .await;
}

#[tokio::test]
async fn slow_stream_spaces_fifty_deltas_by_slow_delay() {
    bounded(async {
        let agent = start_with(DemoAgentOptions::for_tests(Duration::from_millis(4))).await;
        let started = Instant::now();
        let events = run(&agent, "/agent", &input("r", json!([user("slow please")]), &[])).await;
        assert!(started.elapsed() >= Duration::from_millis(49 * 4));
        assert_eq!(of_type(&events, "TEXT_MESSAGE_CONTENT").len(), 50);
        assert_eq!(events.last().unwrap()["type"], "RUN_FINISHED");
    })
    .await;
}

#[tokio::test]
async fn time_scale_zero_removes_every_delay() {
    bounded(async {
        let options = DemoAgentOptions {
            event_delay: Duration::from_secs(1),
            slow_delay: Duration::from_secs(1),
            time_scale: 0.0,
        };
        let agent = start_with(options).await;
        let events = run(&agent, "/agent/slow", &input("r", json!([]), &[])).await;
        assert_eq!(of_type(&events, "TEXT_MESSAGE_CONTENT").len(), 50);
    })
    .await;
}

#[tokio::test]
async fn a2ui_form_arrives_as_activity_tool_result_and_v08_deltas() {
    bounded(async {
        let agent = start().await;
        let body = input("r", json!([user("book a table")]), &[]);
        let events = run(&agent, "/agent", &body).await;
        let snapshot = &of_type(&events, "ACTIVITY_SNAPSHOT")[0];
        assert_eq!(snapshot["activityType"], "a2ui-surface");
        assert_eq!(snapshot["messageId"], "msg-r-2");
        let operations = snapshot["content"]["a2ui_operations"].as_array().unwrap();
        let create = &operations[0]["createSurface"];
        assert_eq!(create["catalogId"], "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json");
        assert_eq!(create["sendDataModel"], true);
        assert!(operations[1]["updateComponents"]["components"].as_array().unwrap().len() >= 6);
        assert_eq!(operations[2]["updateDataModel"]["value"]["booking"]["guests"], json!(["2"]));
        assert!(!texts(&events).is_empty());

        let tool = run(&agent, "/agent/a2ui-tool-result", &body).await;
        let result = &of_type(&tool, "TOOL_CALL_RESULT")[0];
        let content: Value = serde_json::from_str(result["content"].as_str().unwrap()).unwrap();
        assert_eq!(&content["a2ui_operations"], &snapshot["content"]["a2ui_operations"]);

        let v08 = run(&agent, "/agent/a2ui-v08", &body).await;
        let snapshot = &of_type(&v08, "ACTIVITY_SNAPSHOT")[0];
        let mut content = snapshot["content"].clone();
        assert_eq!(content["a2ui_operations"].as_array().unwrap().len(), 1);
        let deltas = of_type(&v08, "ACTIVITY_DELTA");
        assert_eq!(deltas.len(), 2);
        for delta in deltas {
            assert_eq!(delta["messageId"], snapshot["messageId"]);
            assert_eq!(delta["activityType"], "a2ui-surface");
            assert_eq!(delta["patch"][0]["op"], "add");
            assert_eq!(delta["patch"][0]["path"], "/a2ui_operations/-");
            apply(&mut content, &delta["patch"]).unwrap();
        }
        let keys: Vec<&str> = content["a2ui_operations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|op| op.as_object().unwrap().keys().next().unwrap().as_str())
            .collect();
        assert_eq!(keys, ["beginRendering", "dataModelUpdate", "surfaceUpdate"]);
    })
    .await;
}

/// Just enough RFC 6902 for these tests: add (with `-`), replace, test on object members and
/// array ends.
fn apply(doc: &mut Value, patch: &Value) -> Result<(), String> {
    let mut work = doc.clone();
    for op in patch.as_array().unwrap() {
        let path = op["path"].as_str().unwrap();
        let (parent_path, last) = path.rsplit_once('/').unwrap();
        let parent = work.pointer_mut(parent_path).ok_or(format!("no parent for {path}"))?;
        match op["op"].as_str().unwrap() {
            "add" => match parent {
                Value::Array(items) if last == "-" => items.push(op["value"].clone()),
                Value::Object(map) => {
                    map.insert(last.to_owned(), op["value"].clone());
                }
                _ => return Err(format!("cannot add at {path}")),
            },
            "replace" => {
                let target = parent.get_mut(last).ok_or(format!("nothing to replace at {path}"))?;
                *target = op["value"].clone();
            }
            "test" => {
                if parent.get(last) != Some(&op["value"]) {
                    return Err(format!("test failed at {path}"));
                }
            }
            other => return Err(format!("unsupported op {other}")),
        }
    }
    *doc = work;
    Ok(())
}
