//! A script that cannot be played is refused when it loads, saying where.

use agentui_testing::{Script, ScriptError};

#[test]
fn json_that_does_not_parse_names_its_line_and_column() {
    let text = "{\"rules\": [\n  {\"when\": {\"userSays\": \"hi\"},\n   \"reply\": [}\n]}";
    let error = Script::from_json(text).unwrap_err();
    let ScriptError::Syntax { line, column, .. } = &error else { panic!("{error:?}") };
    assert_eq!((*line, *column), (3, 14), "{error}");
    assert!(error.to_string().contains("line 3, column 14"), "{error}");
}

#[test]
fn an_unknown_step_names_its_path_line_and_column() {
    let text = r#"{"rules": [
  {"when": {"userSays": "hi"}, "reply": [{"type": "text", "text": "a"}]},
  {"when": {"userSays": "ho"}, "reply": [
     {"type": "text", "text": "b"},
     {"type": "teleport", "to": "moon"}
  ]}
]}"#;
    let error = Script::from_json(text).unwrap_err();
    let ScriptError::UnknownStep { path, step, line, .. } = &error else { panic!("{error:?}") };
    assert_eq!(path, "/rules/1/reply/1");
    assert_eq!(step, "teleport");
    assert_eq!(*line, 5, "{error}");
}

#[test]
fn an_unsupported_a2ui_version_is_named_with_its_path() {
    let text = r#"{"rules": [{"when": {"userSays": "hi"}, "reply": [
  {"type": "surface", "messages": [
    {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}},
    {"version": "v7.0", "deleteSurface": {"surfaceId": "s"}}
  ]}
]}]}"#;
    let error = Script::from_json(text).unwrap_err();
    assert_eq!(
        error,
        ScriptError::UnsupportedA2uiVersion {
            path: "/rules/0/reply/0/messages/1/version".into(),
            version: "v7.0".into()
        }
    );
}

#[test]
fn an_a2ui_message_the_engine_cannot_read_is_refused() {
    let text = r#"{"rules": [{"when": {"userSays": "hi"}, "reply": [
  {"type": "surface", "messages": [{"version": "v0.9", "createSurface": {"catalogId": "c"}}]}
]}]}"#;
    let error = Script::from_json(text).unwrap_err();
    assert!(matches!(&error, ScriptError::Invalid { path, .. } if path == "/rules/0/reply/0/messages/0"), "{error:?}");
}

#[test]
fn a_missing_field_and_an_unknown_matcher_are_located() {
    let missing = r#"{"rules": [{"when": {"userSays": "hi"}, "reply": [{"type": "text"}]}]}"#;
    let error = Script::from_json(missing).unwrap_err();
    assert!(
        matches!(&error, ScriptError::Invalid { path, line: Some(1), .. } if path == "/rules/0/reply/0"),
        "{error:?}"
    );
    assert!(error.to_string().contains("text"), "{error}");

    let matcher = r#"{"rules": [{"when": {"userShouts": "hi"}, "reply": []}]}"#;
    let error = Script::from_json(matcher).unwrap_err();
    assert_eq!(error.path(), "/rules/0/when", "{error:?}");
}

#[test]
fn a_bad_pattern_and_bounds_are_refused() {
    let pattern = r#"{"rules": [{"when": {"userMatches": "(unclosed"}, "reply": []}]}"#;
    assert_eq!(Script::from_json(pattern).unwrap_err().path(), "/rules/0/when/userMatches");

    let delay = r#"{"rules": [{"when": {"userSays": "hi"}, "reply": [{"type": "delay", "ms": 3600000}]}]}"#;
    assert_eq!(Script::from_json(delay).unwrap_err().path(), "/rules/0/reply/0/ms");

    let chunk =
        r#"{"rules": [{"when": {"userSays": "hi"}, "reply": [{"type": "text", "text": "a", "chunkChars": 0}]}]}"#;
    assert_eq!(Script::from_json(chunk).unwrap_err().path(), "/rules/0/reply/0/chunkChars");
}

#[test]
fn steps_after_the_end_of_a_run_are_refused() {
    let after_error = r#"{"rules": [{"when": {"userSays": "hi"}, "reply": [
  {"type": "runError", "message": "x"}, {"type": "text", "text": "lost"}]}]}"#;
    assert_eq!(Script::from_json(after_error).unwrap_err().path(), "/rules/0/reply/0");

    let late_http = r#"{"rules": [{"when": {"userSays": "hi"}, "reply": [
  {"type": "text", "text": "a"}, {"type": "httpError", "status": 500}]}]}"#;
    assert_eq!(Script::from_json(late_http).unwrap_err().path(), "/rules/0/reply/1");

    let not_an_error = r#"{"rules": [{"when": {"userSays": "hi"}, "reply": [{"type": "httpError", "status": 200}]}]}"#;
    assert_eq!(Script::from_json(not_an_error).unwrap_err().path(), "/rules/0/reply/0/status");
}

#[test]
fn a_well_formed_script_loads() {
    let text = r#"{"rules": [
  {"when": {"userSays": "hi"}, "reply": [{"type": "text", "text": "hello"}]},
  {"when": {"userMatches": "^book"}, "reply": [{"type": "toolCall", "name": "t"}]},
  {"when": {"toolResult": "t"}, "reply": [{"type": "httpError", "status": 503}]},
  {"when": {"interruptAnswered": "r"}, "reply": [{"type": "dropStream", "resumable": true}]}
]}"#;
    Script::from_json(text).unwrap();
}
