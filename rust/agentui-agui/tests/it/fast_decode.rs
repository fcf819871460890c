//! The fast decoding path and the general `Value` path agree: on every event of the AG-UI 1.1
//! conformance corpus and of the benchmark workload (both read from the shared checkout), the
//! fast path either declines or builds exactly the event the general path builds without a
//! warning, and pipelines fed the text and fed the parsed JSON end in identical states.

use std::fs;
use std::path::PathBuf;

use agentui_agui::compat::prepare_history;
use agentui_agui::decode::{decode_event, fast_path};
use agentui_agui::{ConversationState, Event, EventPipeline, PipelineOptions};
use serde_json::Value;

fn shared(rel: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared")).join(rel)
}

/// Every fixture of the corpus, by name.
fn fixtures() -> Vec<(String, Value)> {
    let dir = shared("conformance/agui/1.1/streams");
    let mut out: Vec<(String, Value)> = fs::read_dir(&dir)
        .expect("corpus is readable")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let fixture = serde_json::from_slice(&fs::read(&p).unwrap()).unwrap();
            (p.file_stem().unwrap().to_string_lossy().into_owned(), fixture)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(out.len(), 68, "the whole corpus");
    out
}

fn bench_payloads() -> Vec<String> {
    let body = fs::read_to_string(shared("bench/agui-stream-n2000.sse")).expect("bench body is readable");
    body.lines().filter_map(|l| l.strip_prefix("data: ")).map(str::to_owned).collect()
}

/// Whether the fast path took `data`; panics if it disagrees with the general path.
fn same_event(data: &str, context: &str) -> bool {
    let Some(fast) = fast_path(data) else { return false };
    let mut warnings = Vec::new();
    let general = decode_event(serde_json::from_str(data).unwrap(), &mut warnings);
    assert_eq!(general, Ok(Some(fast)), "{context}: {data}");
    assert!(warnings.is_empty(), "{context}: the fast path took an event the general path warns about: {data}");
    true
}

#[test]
fn fast_path_builds_the_general_paths_event_on_the_corpus() {
    let mut taken = 0;
    for (name, fixture) in fixtures() {
        for event in fixture["stream"].as_array().into_iter().flatten() {
            taken += usize::from(same_event(&event.to_string(), &name));
        }
    }
    assert!(taken > 100, "the corpus exercises the fast path ({taken} events)");
}

#[test]
fn fast_path_builds_the_general_paths_event_on_the_bench_stream() {
    let payloads = bench_payloads();
    assert_eq!(payloads.len(), 62_043);
    let taken = payloads.iter().filter(|d| same_event(d, "bench")).count();
    // Only the run's RUN_STARTED and RUN_FINISHED take the general path.
    assert_eq!(taken, 62_041);
}

/// Feed the same stream as text (fast path where it applies) and as parsed JSON (general path
/// only); every push, every delivered event and the final conversation must agree.
fn assert_same_reduction(name: &str, options: &PipelineOptions, history: ConversationState, stream: &[Value]) {
    let mut by_text = EventPipeline::new(history.clone(), options);
    let mut by_value = EventPipeline::new(history, options);
    for (i, event) in stream.iter().enumerate() {
        let (mut a, mut b) = (Vec::<Event>::new(), Vec::<Event>::new());
        let ra = by_text.push_str_with(&event.to_string(), |e| a.push(e));
        let rb = by_value.push_json_with(event.clone(), |e| b.push(e));
        assert_eq!(ra, rb, "{name}: event {i} verdict");
        assert_eq!(a, b, "{name}: event {i} delivered");
        if ra.is_err() {
            break;
        }
    }
    assert_eq!(by_text.rejection(), by_value.rejection(), "{name}");
    assert_eq!(by_text.into_conversation(), by_value.into_conversation(), "{name}: conversation");
}

#[test]
fn text_and_value_pipelines_agree_on_the_corpus() {
    for (name, fixture) in fixtures() {
        let peer = fixture.pointer("/client/maxProtocolVersion").and_then(Value::as_str).map(str::to_owned);
        let options = PipelineOptions { peer_max_protocol_version: peer, ..Default::default() };
        let history = match fixture.pointer("/input/messages") {
            Some(raw) => prepare_history(raw.clone(), &mut Vec::new()).unwrap_or_default(),
            None => Vec::new(),
        };
        let conversation = ConversationState::new(history, fixture.pointer("/input/state").cloned());
        let stream = fixture["stream"].as_array().cloned().unwrap_or_default();
        assert_same_reduction(&name, &options, conversation, &stream);
    }
}

#[test]
fn text_and_value_pipelines_agree_on_the_bench_stream() {
    let stream: Vec<Value> = bench_payloads().iter().map(|d| serde_json::from_str(d).unwrap()).collect();
    assert_same_reduction("bench", &PipelineOptions::default(), ConversationState::default(), &stream);
}
