//! The A2UI-over-AG-UI bridge, fed with events decoded from their wire form.

use agentui_a2ui::catalog::BASIC_CATALOG_ID;
use agentui_a2ui::wire::v09::ClientMessage;
use agentui_a2ui::{SurfaceEvent, SurfaceGroup};
use agentui_agui::decode::decode_event;
use agentui_agui::Event;
use agentui_runtime::a2ui_bridge::{
    A2uiBridge, BridgeAction, BridgeError, BridgeLimits, BridgeOutcome, A2UI_CAPABILITIES_CONTEXT_DESCRIPTION,
    A2UI_ERRORS_CONTEXT_DESCRIPTION,
};
use serde_json::{json, Map, Value};

const NOW: &str = "2026-11-30T12:00:00Z";

fn bridge() -> A2uiBridge {
    A2uiBridge::new(SurfaceGroup::default().with_clock(|| NOW.to_owned()))
}

fn event(wire: Value) -> Event {
    let mut warnings = Vec::new();
    let event = decode_event(wire, &mut warnings).expect("decodes").expect("not dropped");
    assert!(warnings.is_empty(), "{warnings:?}");
    event
}

fn feed(bridge: &mut A2uiBridge, wire: Value) -> BridgeOutcome {
    bridge.on_event(&event(wire))
}

fn create(id: &str) -> Value {
    json!({"version": "v0.9", "createSurface": {"surfaceId": id, "catalogId": BASIC_CATALOG_ID}})
}

fn components(id: &str, list: Value) -> Value {
    json!({"version": "v0.9", "updateComponents": {"surfaceId": id, "components": list}})
}

fn data(id: &str, path: &str, value: Value) -> Value {
    json!({"version": "v0.9", "updateDataModel": {"surfaceId": id, "path": path, "value": value}})
}

fn text_root(id: &str, text: &str) -> Value {
    components(id, json!([{"id": "root", "component": "Text", "text": text}]))
}

fn snapshot(message_id: &str, ops: Value) -> Value {
    json!({"type": "ACTIVITY_SNAPSHOT", "messageId": message_id, "activityType": "a2ui-surface",
           "content": {"a2ui_operations": ops}, "replace": true})
}

fn tool_result(tool_call_id: &str, content: &str) -> Value {
    json!({"type": "TOOL_CALL_RESULT", "messageId": format!("m-{tool_call_id}"), "toolCallId": tool_call_id,
           "content": content})
}

fn errors(out: &BridgeOutcome) -> Vec<Value> {
    out.emitted.iter().map(ClientMessage::to_wire).filter_map(|w| w.get("error").cloned()).collect()
}

fn assert_clean(out: &BridgeOutcome) {
    assert!(errors(out).is_empty() && out.errors.is_empty(), "unexpected errors: {:?} {:?}", errors(out), out.errors);
}

fn created(out: &BridgeOutcome) -> Vec<&str> {
    out.events
        .iter()
        .filter_map(|e| match e {
            SurfaceEvent::Created { surface_id, .. } => Some(surface_id.as_str()),
            _ => None,
        })
        .collect()
}

fn changed(out: &BridgeOutcome) -> usize {
    out.events.iter().filter(|e| matches!(e, SurfaceEvent::Changed { .. })).count()
}

fn text_of(bridge: &A2uiBridge, surface: &str, node: &str) -> Value {
    let node = bridge.group().surface(surface).expect("surface").node(node).expect("node");
    serde_json::to_value(node).expect("serializes")["props"]["text"].clone()
}

// ---- activities --------------------------------------------------------------------------------

#[test]
fn activity_snapshot_renders_its_operations() {
    let mut b = bridge();
    let out = feed(&mut b, snapshot("a2ui-surface-call1", json!([create("s"), text_root("s", "Hello")])));
    assert_clean(&out);
    assert_eq!(created(&out), vec!["s"]);
    assert_eq!(changed(&out), 1);
    assert_eq!(b.tracked_activities(), 1);
}

/// v0.9.1 envelopes travel the same way, and a deleted surface's id can be created again, here
/// by another activity (another tool call of the agent).
#[test]
fn v091_operations_render_and_a_deleted_surface_id_is_created_again() {
    let v091 = |key: &str, body: Value| json!({"version": "v0.9.1", key: body});
    let create = v091("createSurface", json!({"surfaceId": "s", "catalogId": BASIC_CATALOG_ID}));
    let text = |t: &str| {
        v091(
            "updateComponents",
            json!({"surfaceId": "s", "components": [{"id": "root", "component": "Text", "text": t}]}),
        )
    };
    let mut b = bridge();
    let out = feed(&mut b, snapshot("a2ui-surface-call1", json!([create, text("Hello")])));
    assert_clean(&out);
    assert_eq!(created(&out), vec!["s"]);
    assert_eq!(text_of(&b, "s", "root"), json!("Hello"));

    let again = json!([v091("deleteSurface", json!({"surfaceId": "s"})), create, text("Again")]);
    let out = feed(&mut b, snapshot("a2ui-surface-call2", again));
    assert_clean(&out);
    assert!(matches!(&out.events[0], SurfaceEvent::Deleted { surface_id } if surface_id == "s"), "{:?}", out.events);
    assert_eq!(created(&out), vec!["s"]);
    assert_eq!(text_of(&b, "s", "root"), json!("Again"));
    assert!(b.take_pending_for_agent().is_empty());
}

#[test]
fn repeated_snapshot_applies_nothing_and_cumulative_one_only_its_tail() {
    let mut b = bridge();
    let first = json!([create("s"), text_root("s", "Hello")]);
    assert_clean(&feed(&mut b, snapshot("act", first.clone())));

    let again = feed(&mut b, snapshot("act", first));
    assert!(again.is_empty(), "a repeated snapshot must not re-apply: {again:?}");

    // The middleware's next cumulative snapshot repeats createSurface: no SURFACE_EXISTS.
    let grown = json!([create("s"), text_root("s", "Hello"), data("s", "/n", json!(1))]);
    let out = feed(&mut b, snapshot("act", grown));
    assert_clean(&out);
    assert!(created(&out).is_empty());
    assert!(b.take_pending_for_agent().is_empty());
}

#[test]
fn rewritten_snapshot_reapplies_from_the_first_difference_without_recreating() {
    let mut b = bridge();
    assert_clean(&feed(&mut b, snapshot("act", json!([create("s"), text_root("s", "Loading")]))));
    assert_eq!(text_of(&b, "s", "root"), json!("Loading"));

    let out = feed(&mut b, snapshot("act", json!([create("s"), text_root("s", "Done")])));
    assert_clean(&out);
    assert_eq!(text_of(&b, "s", "root"), json!("Done"));

    // Rewriting the createSurface itself (a new theme) does not try to create the surface again.
    let themed = json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC_CATALOG_ID,
                        "theme": {"primaryColor": "#112233"}}});
    let out = feed(&mut b, snapshot("act", json!([themed, text_root("s", "Done")])));
    assert_clean(&out);

    // Fewer operations undo nothing.
    let out = feed(&mut b, snapshot("act", json!([])));
    assert!(out.is_empty());
    assert!(b.group().surface("s").is_some());
}

#[test]
fn replace_false_leaves_a_known_activity_alone() {
    let mut b = bridge();
    assert_clean(&feed(&mut b, snapshot("act", json!([create("s"), text_root("s", "A")]))));
    let mut wire = snapshot("act", json!([create("s"), text_root("s", "B")]));
    wire["replace"] = json!(false);
    assert!(feed(&mut b, wire).is_empty());
    assert_eq!(text_of(&b, "s", "root"), json!("A"));
}

#[test]
fn lifecycle_placeholder_then_paint() {
    let mut b = bridge();
    let building = json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a2ui-surface-c", "activityType": "a2ui-surface",
                          "content": {"status": "building", "progressTokens": 12}, "replace": true});
    assert!(feed(&mut b, building).is_empty());
    let out = feed(&mut b, snapshot("a2ui-surface-c", json!([create("s"), text_root("s", "Hi")])));
    assert_clean(&out);
    assert_eq!(created(&out), vec!["s"]);
}

#[test]
fn delta_appending_v09_operations() {
    let mut b = bridge();
    assert_clean(&feed(&mut b, snapshot("act", json!([create("s")]))));
    let delta = json!({"type": "ACTIVITY_DELTA", "messageId": "act", "activityType": "a2ui-surface", "patch": [
        {"op": "add", "path": "/a2ui_operations/-", "value": text_root("s", "Appended")},
        {"op": "add", "path": "/a2ui_operations/-", "value": data("s", "/x", json!(true))}
    ]});
    let out = feed(&mut b, delta);
    assert_clean(&out);
    assert!(created(&out).is_empty());
    assert_eq!(text_of(&b, "s", "root"), json!("Appended"));
}

#[test]
fn delta_appending_v08_operations() {
    let mut b = bridge();
    assert_clean(&feed(&mut b, snapshot("act", json!([]))));
    let surface_update = json!({"surfaceUpdate": {"surfaceId": "legacy", "components": [
        {"id": "root", "component": {"Text": {"text": {"literalString": "From v0.8"}}}}
    ]}});
    let out = feed(
        &mut b,
        json!({"type": "ACTIVITY_DELTA", "messageId": "act", "activityType": "a2ui-surface",
               "patch": [{"op": "add", "path": "/a2ui_operations/-", "value": surface_update}]}),
    );
    assert_clean(&out);
    assert!(out.events.is_empty(), "buffered until beginRendering");

    let begin = json!({"beginRendering": {"surfaceId": "legacy", "root": "root"}});
    let out = feed(
        &mut b,
        json!({"type": "ACTIVITY_DELTA", "messageId": "act", "activityType": "a2ui-surface",
               "patch": [{"op": "add", "path": "/a2ui_operations/-", "value": begin}]}),
    );
    assert_clean(&out);
    assert_eq!(created(&out), vec!["legacy"]);
    assert_eq!(text_of(&b, "legacy", "root"), json!("From v0.8"));
}

#[test]
fn failed_or_orphan_delta_is_a_typed_error_and_keeps_the_content() {
    let mut b = bridge();
    assert_clean(&feed(&mut b, snapshot("act", json!([create("s")]))));
    let bad = json!({"type": "ACTIVITY_DELTA", "messageId": "act", "activityType": "a2ui-surface",
                     "patch": [{"op": "replace", "path": "/a2ui_operations/7", "value": {}}]});
    let out = feed(&mut b, bad);
    assert!(matches!(&out.errors[..], [BridgeError::PatchNotApplied { message_id, .. }] if message_id == "act"));
    assert_eq!(errors(&out)[0]["code"], "MALFORMED_MESSAGE");

    // The old content is still the baseline: a good delta after it applies.
    let good = json!({"type": "ACTIVITY_DELTA", "messageId": "act", "activityType": "a2ui-surface",
                      "patch": [{"op": "add", "path": "/a2ui_operations/-", "value": text_root("s", "ok")}]});
    assert_clean(&feed(&mut b, good));

    let orphan = json!({"type": "ACTIVITY_DELTA", "messageId": "nobody", "activityType": "a2ui-surface",
                        "patch": [{"op": "add", "path": "/a2ui_operations/-", "value": create("t")}]});
    let out = feed(&mut b, orphan);
    assert_eq!(out.errors, vec![BridgeError::UnknownActivity("nobody".into())]);
}

#[test]
fn tracked_activities_are_bounded() {
    let limits = BridgeLimits { max_activities: 2, ..BridgeLimits::default() };
    let mut b = A2uiBridge::with_limits(SurfaceGroup::default(), limits);
    for (i, id) in ["a", "b", "c"].iter().enumerate() {
        assert_clean(&feed(&mut b, snapshot(id, json!([create(&format!("s{i}"))]))));
    }
    assert_eq!(b.tracked_activities(), 2);
    let out = feed(
        &mut b,
        json!({"type": "ACTIVITY_DELTA", "messageId": "a", "activityType": "a2ui-surface",
               "patch": [{"op": "add", "path": "/a2ui_operations/-", "value": text_root("s0", "x")}]}),
    );
    assert_eq!(out.errors, vec![BridgeError::UnknownActivity("a".into())]);
}

#[test]
fn other_activity_types_and_non_a2ui_events_are_ignored() {
    let mut b = bridge();
    let other = json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "plan", "activityType": "PLAN",
                       "content": {"a2ui_operations": [create("s")]}});
    assert!(feed(&mut b, other).is_empty());
    assert!(feed(&mut b, json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"})).is_empty());
    assert!(feed(&mut b, json!({"type": "CUSTOM", "name": "other", "value": create("s")})).is_empty());
    assert!(feed(&mut b, json!({"type": "RAW", "event": {"provider": "native"}})).is_empty());
    assert!(feed(&mut b, json!({"type": "STATE_SNAPSHOT", "snapshot": {"a2ui_operations": [create("s")]}})).is_empty());
    assert_eq!(b.group().surfaces().count(), 0);
    assert_eq!(b.tracked_activities(), 0);
}

// ---- tool results, CUSTOM, RAW, history --------------------------------------------------------

#[test]
fn tool_result_with_double_encoded_operations() {
    let mut b = bridge();
    let container = json!({"a2ui_operations": [create("s"), text_root("s", "From a tool")]}).to_string();
    let twice = serde_json::to_string(&container).unwrap();
    assert!(twice.starts_with('"'));
    let out = feed(&mut b, tool_result("call-1", &twice));
    assert_clean(&out);
    assert_eq!(created(&out), vec!["s"]);
    assert_eq!(text_of(&b, "s", "root"), json!("From a tool"));
}

#[test]
fn tool_result_shapes_and_plain_results() {
    let mut b = bridge();
    assert_clean(&feed(&mut b, tool_result("one", &create("a").to_string())));
    assert_clean(&feed(&mut b, tool_result("list", &json!([create("b"), text_root("b", "x")]).to_string())));
    let parts = json!({"type": "TOOL_CALL_RESULT", "messageId": "m", "toolCallId": "parts", "content": [
        {"type": "text", "text": "{\"a2ui_operations\": ["},
        {"type": "text", "text": format!("{}]}}", create("c"))}
    ]});
    assert_clean(&feed(&mut b, parts));
    let mut ids: Vec<String> = b.group().surfaces().map(|s| s.id().to_owned()).collect();
    ids.sort();
    assert_eq!(ids, vec!["a", "b", "c"]);

    // Ordinary tool output is left alone.
    assert!(feed(&mut b, tool_result("weather", "{\"temperature\": 21}")).is_empty());
    assert!(feed(&mut b, tool_result("text", "sunny")).is_empty());
}

#[test]
fn replayed_tool_result_and_middleware_activity_do_not_reapply() {
    let mut b = bridge();
    let ops = json!([create("s"), text_root("s", "once")]);
    let result = tool_result("call-9", &json!({"a2ui_operations": ops}).to_string());
    assert_clean(&feed(&mut b, result.clone()));
    assert!(feed(&mut b, result).is_empty());

    // The middleware re-emits the same operations as an activity keyed by the tool call.
    let out = feed(&mut b, snapshot("a2ui-surface-call-9", ops));
    assert_clean(&out);
    assert!(out.events.is_empty(), "already applied from the tool result: {out:?}");

    // Its later cumulative snapshot still applies what is new.
    let out = feed(&mut b, snapshot("a2ui-surface-call-9", json!([create("s"), text_root("s", "twice")])));
    assert_clean(&out);
    assert_eq!(text_of(&b, "s", "root"), json!("twice"));
}

#[test]
fn raw_envelope_in_custom_and_raw_events() {
    let mut b = bridge();
    assert_clean(&feed(&mut b, json!({"type": "CUSTOM", "name": "a2ui", "value": create("c")})));
    let out = feed(&mut b, json!({"type": "CUSTOM", "name": "a2ui", "value": text_root("c", "custom")}));
    assert_clean(&out);
    assert_eq!(changed(&out), 1);

    let out = feed(&mut b, json!({"type": "RAW", "source": "agent", "event": [create("r"), text_root("r", "raw")]}));
    assert_clean(&out);
    assert_eq!(created(&out), vec!["r"]);
    let encoded = json!({"type": "RAW", "event": data("r", "/k", json!("v")).to_string()});
    assert_clean(&feed(&mut b, encoded));
    assert_eq!(b.group().surface("r").unwrap().data_model().pointer("/k"), Some(&json!("v")));
}

#[test]
fn messages_snapshot_restores_surfaces_once() {
    let mut b = bridge();
    let history = json!({"type": "MESSAGES_SNAPSHOT", "messages": [
        {"id": "u1", "role": "user", "content": "show me"},
        {"id": "a2ui-surface-x", "role": "activity", "activityType": "a2ui-surface",
         "content": {"a2ui_operations": [create("h"), text_root("h", "restored")]}},
        {"id": "t1", "role": "tool", "toolCallId": "tc", "content": json!({"a2ui_operations": [create("t")]}).to_string()}
    ]});
    let out = feed(&mut b, history.clone());
    assert_clean(&out);
    assert_eq!(created(&out), vec!["h", "t"]);
    assert!(feed(&mut b, history).is_empty());
}

// ---- restored after process death ---------------------------------------------------------------

/// The operations of the form activity `a2ui-surface-call1` once its delta arrived.
fn form_ops() -> Vec<Value> {
    vec![
        create("s"),
        components(
            "s",
            json!([{"id": "root", "component": "Column", "children": ["title", "name"]},
                {"id": "title", "component": "Text", "text": {"path": "/title"}},
                {"id": "name", "component": "TextField", "label": "Name", "value": {"path": "/name"}}]),
        ),
        data("s", "/title", json!("Profile")),
        data("s", "/name", json!("Ada")),
    ]
}

fn tool_ops() -> Value {
    json!([create("t"), text_root("t", "from a tool")])
}

/// A v0.8 agent's surface, whose root has its own name.
fn v08_ops() -> Value {
    json!([{"beginRendering": {"surfaceId": "v8", "root": "main"}},
        {"surfaceUpdate": {"surfaceId": "v8", "components": [
            {"id": "main", "component": {"Text": {"text": {"path": "/greeting", "literalString": "Hi"}}}}]}}])
}

fn activity_message(message_id: &str, ops: Value) -> Value {
    json!({"id": message_id, "role": "activity", "activityType": "a2ui-surface", "content": {"a2ui_operations": ops}})
}

/// The conversation as the store restores it, as the agent's `MESSAGES_SNAPSHOT` carries it.
fn history() -> Value {
    json!({"type": "MESSAGES_SNAPSHOT", "messages": [
        {"id": "u1", "role": "user", "content": "show me"},
        activity_message("a2ui-surface-call1", Value::from(form_ops())),
        {"id": "t2", "role": "tool", "toolCallId": "call-2",
         "content": json!({"a2ui_operations": tool_ops()}).to_string()},
        activity_message("a2ui-surface-call-2", tool_ops()),
        activity_message("a2ui-surface-call3", v08_ops()),
        {"id": "t4", "role": "tool", "toolCallId": "call-4", "content": "sunny"}
    ]})
}

fn history_messages() -> Vec<agentui_agui::message::Message> {
    match event(history()) {
        Event::MessagesSnapshot(e) => e.messages,
        other => panic!("{other:?}"),
    }
}

/// `a` as it lived through the stream (snapshots, a delta, a tool result the middleware turned
/// into an activity, user input), and `b` a fresh bridge with `a`'s surfaces restored from their
/// exports, as after process death.
fn lived_and_restored() -> (A2uiBridge, A2uiBridge) {
    let mut a = bridge();
    let ops = form_ops();
    assert_clean(&feed(&mut a, snapshot("a2ui-surface-call1", json!(ops[..2]))));
    assert_clean(&feed(&mut a, snapshot("a2ui-surface-call1", json!(ops[..3]))));
    let delta = json!({"type": "ACTIVITY_DELTA", "messageId": "a2ui-surface-call1", "activityType": "a2ui-surface",
        "patch": [{"op": "add", "path": "/a2ui_operations/-", "value": ops[3]}]});
    assert_clean(&feed(&mut a, delta));
    assert_clean(&feed(&mut a, tool_result("call-2", &json!({"a2ui_operations": tool_ops()}).to_string())));
    assert_clean(&feed(&mut a, snapshot("a2ui-surface-call-2", tool_ops())));
    assert_clean(&feed(&mut a, snapshot("a2ui-surface-call3", v08_ops())));
    assert!(feed(&mut a, tool_result("call-4", "sunny")).is_empty());
    a.set_value("s", "/name", json!("Grace")).expect("user input");
    assert!(a.take_pending_for_agent().is_empty());

    let mut b = bridge();
    for surface in a.group().surfaces() {
        let outcome = b.group_mut().restore_surface(surface.export()).expect("restores");
        assert!(outcome.emitted.is_empty(), "{:?}", outcome.emitted);
    }
    (a, b)
}

fn assert_same_surfaces(a: &A2uiBridge, b: &A2uiBridge) {
    let ids = |x: &A2uiBridge| x.group().surfaces().map(|s| s.id().to_owned()).collect::<Vec<_>>();
    assert_eq!(ids(b), ids(a));
    for original in a.group().surfaces() {
        let restored = b.group().surface(original.id()).unwrap();
        assert_eq!(restored.snapshot(), original.snapshot(), "{}", original.id());
        assert_eq!(restored.data_model(), original.data_model(), "{}", original.id());
    }
}

#[test]
fn adopted_history_is_not_applied_again() {
    let (mut a, mut b) = lived_and_restored();
    b.adopt_history(&history_messages());
    assert_eq!(b.tracked_activities(), a.tracked_activities());
    assert_same_surfaces(&a, &b);

    // The agent reloads the conversation, then repeats its last snapshot: nothing applies.
    for wire in [history(), snapshot("a2ui-surface-call1", Value::from(form_ops())), history()] {
        let (on_a, on_b) = (feed(&mut a, wire.clone()), feed(&mut b, wire));
        assert!(on_a.is_empty(), "{on_a:?}");
        assert!(on_b.is_empty(), "{on_b:?}");
    }
    assert!(b.take_pending_for_agent().is_empty());
    // The user's input survived: `/name` was not written back to "Ada".
    assert_eq!(b.group().surface("s").unwrap().data_model()["name"], json!("Grace"));
    assert_same_surfaces(&a, &b);

    // Without the adoption, the same snapshot re-creates surfaces that exist.
    let (_, mut c) = lived_and_restored();
    let out = feed(&mut c, history());
    assert!(errors(&out).iter().any(|e| e["code"] == "SURFACE_EXISTS"), "{out:?}");
}

#[test]
fn after_adoption_new_operations_apply_once_as_on_the_original() {
    let (mut a, mut b) = lived_and_restored();
    b.adopt_history(&history_messages());

    // A cumulative snapshot with one new operation: exactly that one applies.
    let mut grown = form_ops();
    grown.push(components("s", json!([{"id": "title", "component": "Text", "text": "Edited"}])));
    let grown = snapshot("a2ui-surface-call1", Value::from(grown));
    let (on_a, on_b) = (feed(&mut a, grown.clone()), feed(&mut b, grown));
    assert_clean(&on_b);
    assert_eq!(on_b, on_a);
    assert_eq!((created(&on_b).len(), changed(&on_b)), (0, 1), "{on_b:?}");
    assert_eq!(text_of(&b, "s", "title"), json!("Edited"));

    // A delta on top of the adopted content, and a new operation of the activity a tool result
    // became, the same.
    let delta = json!({"type": "ACTIVITY_DELTA", "messageId": "a2ui-surface-call3", "activityType": "a2ui-surface",
        "patch": [{"op": "add", "path": "/a2ui_operations/-", "value": {"dataModelUpdate": {"surfaceId": "v8",
            "contents": [{"key": "greeting", "valueString": "Hello again"}]}}}]});
    let mut tool_grown = tool_ops().as_array().unwrap().clone();
    tool_grown.push(text_root("t", "from the tool, again"));
    for wire in [delta, snapshot("a2ui-surface-call-2", Value::from(tool_grown))] {
        let (on_a, on_b) = (feed(&mut a, wire.clone()), feed(&mut b, wire));
        assert_clean(&on_b);
        assert_eq!(on_b, on_a);
        assert_eq!((created(&on_b).len(), changed(&on_b)), (0, 1), "{on_b:?}");
    }
    assert_eq!(text_of(&b, "v8", "main"), json!("Hello again"));
    assert_eq!(text_of(&b, "t", "root"), json!("from the tool, again"));
    assert_same_surfaces(&a, &b);
    assert!(b.take_pending_for_agent().is_empty());
}

/// Adoption applies nothing to the group; a surface the history names but that was not
/// restored is created again by a later rewrite of its activity.
#[test]
fn adoption_applies_nothing_and_a_missing_surface_can_be_created_again() {
    let mut b = bridge();
    b.adopt_history(&history_messages());
    assert_eq!(b.group().surfaces().count(), 0);
    assert_eq!(b.tracked_activities(), 3);
    // The form activity rewrites its first operation: nothing exists to skip its createSurface for.
    let mut rewritten = form_ops();
    rewritten[0] = json!({"version": "v0.9", "createSurface":
        {"surfaceId": "s", "catalogId": BASIC_CATALOG_ID, "sendDataModel": true}});
    let out = feed(&mut b, snapshot("a2ui-surface-call1", Value::from(rewritten)));
    assert_clean(&out);
    assert_eq!(created(&out), vec!["s"]);
    assert_eq!(text_of(&b, "s", "title"), json!("Profile"));
}

// ---- what goes back to the agent ---------------------------------------------------------------

#[test]
fn v10_surface_renders_and_a_refused_function_call_goes_back_with_its_id() {
    let mut b = bridge();
    let create = json!({"version": "1.0", "createSurface": {"surfaceId": "s",
        "catalogId": agentui_a2ui::catalog::BASIC_V1_CATALOG_ID, "dataModel": {"name": "Ada"},
        "components": [{"id": "root", "component": "Text", "text": {"@path": "/name"}}]}});
    let call = json!({"version": "v1.0", "callRendererFunction": {"functionCallId": "c7",
        "callFunction": {"@call": "openUrl", "catalogId": agentui_a2ui::catalog::BASIC_V1_CATALOG_ID,
                         "args": {"url": "https://example.com"}}}});
    let out = feed(&mut b, snapshot("act", json!([create, call])));
    assert_eq!(created(&out), ["s"]);
    assert_eq!(text_of(&b, "s", "root"), json!("Ada"));

    let props = b.take_pending_for_agent().forwarded_props();
    let response = &props["a2uiErrors"][0];
    assert_eq!(response["version"], "v1.0");
    assert_eq!(response["rendererFunctionResponse"]["functionCallId"], "c7");
    assert_eq!(response["rendererFunctionResponse"]["error"]["code"], "INVALID_FUNCTION_CALL");
}

#[test]
fn v10_function_call_in_a_tool_result_is_a2ui() {
    let mut b = bridge();
    let call = json!({"version": "v1.0", "callRendererFunction": {"functionCallId": "c8",
        "callFunction": {"call": "nope", "catalogId": "x"}}});
    feed(&mut b, tool_result("t1", &call.to_string()));
    let props = b.take_pending_for_agent().forwarded_props();
    assert_eq!(props["a2uiErrors"][0]["rendererFunctionResponse"]["functionCallId"], "c8");
}

#[test]
fn validation_error_goes_back_with_its_path() {
    let mut b = bridge();
    let bad = components("s", json!([{"id": "root", "component": "Text", "text": 42}]));
    let out = feed(&mut b, snapshot("act", json!([create("s"), bad])));
    let errs = errors(&out);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0]["code"], "VALIDATION_FAILED");
    assert_eq!(errs[0]["surfaceId"], "s");
    let path = errs[0]["path"].as_str().unwrap().to_owned();
    assert!(path.starts_with("/updateComponents/components/0/text"), "{path}");

    let pending = b.take_pending_for_agent();
    let props = pending.forwarded_props();
    assert_eq!(props["a2uiErrors"][0]["version"], "v0.9");
    assert_eq!(props["a2uiErrors"][0]["error"]["path"], path.as_str());
    let context = pending.context().unwrap();
    assert_eq!(context.description, A2UI_ERRORS_CONTEXT_DESCRIPTION);
    let value: Value = serde_json::from_str(&context.value).unwrap();
    assert_eq!(value["a2uiErrors"][0]["error"]["code"], "VALIDATION_FAILED");

    let again = b.take_pending_for_agent();
    assert!(again.is_empty() && again.forwarded_props().is_empty() && again.context().is_none());
}

#[test]
fn pending_errors_are_bounded() {
    let limits = BridgeLimits { max_pending_errors: 2, ..BridgeLimits::default() };
    let mut b = A2uiBridge::with_limits(SurfaceGroup::default(), limits);
    for i in 0..5 {
        let unknown_catalog =
            json!({"version": "v0.9", "createSurface": {"surfaceId": format!("x{i}"), "catalogId": "nope"}});
        feed(&mut b, json!({"type": "CUSTOM", "name": "a2ui", "value": unknown_catalog}));
    }
    let pending = b.take_pending_for_agent();
    assert_eq!((pending.errors.len(), pending.omitted), (2, 3));
    assert_eq!(pending.forwarded_props()["a2uiErrorsOmitted"], 3);
}

#[test]
fn run_end_reports_messages_for_surfaces_never_created() {
    let mut b = bridge();
    assert_clean(&feed(&mut b, json!({"type": "CUSTOM", "name": "a2ui", "value": text_root("ghost", "?")})));
    let out = feed(&mut b, json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}));
    assert_eq!(errors(&out)[0]["code"], "SURFACE_NOT_FOUND");
    assert_eq!(b.take_pending_for_agent().errors.len(), 1);
}

fn form(b: &mut A2uiBridge, send_data_model: bool) {
    let create = json!({"version": "v0.9", "createSurface": {"surfaceId": "f", "catalogId": BASIC_CATALOG_ID,
                        "sendDataModel": send_data_model}});
    let list = json!([
        {"id": "root", "component": "Column", "children": ["name", "send", "site"]},
        {"id": "name", "component": "TextField", "label": "Name", "value": {"path": "/form/name"}},
        {"id": "send-label", "component": "Text", "text": "Send"},
        {"id": "send", "component": "Button", "child": "send-label",
         "action": {"event": {"name": "submit", "context": {"name": {"path": "/form/name"}}}}},
        {"id": "site-label", "component": "Text", "text": "Site"},
        {"id": "site", "component": "Button", "child": "site-label",
         "action": {"functionCall": {"call": "openUrl", "args": {"url": "https://example.com/help"}, "returnType": "void"}}}
    ]);
    assert_clean(&feed(b, snapshot("form-act", json!([create, components("f", list)]))));
}

#[test]
fn user_action_becomes_forwarded_props_of_the_next_run() {
    let mut b = bridge();
    form(&mut b, true);
    b.set_value("f", "/form/name", json!("Ada")).unwrap();
    let action = b.user_action("f", "send", Map::new()).unwrap();
    let BridgeAction::SendToAgent { forwarded_props, message } = action else { panic!("expected SendToAgent") };
    assert_eq!(
        Value::Object(forwarded_props),
        json!({
            "a2uiAction": {"userAction": {"name": "submit", "surfaceId": "f", "sourceComponentId": "send",
                                          "timestamp": NOW, "context": {"name": "Ada"}}},
            "a2uiClientDataModel": {"version": "v0.9", "surfaces": {"f": {"form": {"name": "Ada"}}}}
        })
    );
    assert_eq!(message.to_wire()["action"]["name"], "submit");
}

#[test]
fn user_action_without_data_model_and_open_url() {
    let mut b = bridge();
    form(&mut b, false);
    let BridgeAction::SendToAgent { forwarded_props, .. } = b.user_action("f", "send", Map::new()).unwrap() else {
        panic!("expected SendToAgent")
    };
    assert_eq!(forwarded_props.keys().collect::<Vec<_>>(), vec!["a2uiAction"]);
    assert_eq!(
        b.user_action("f", "site", Map::new()).unwrap(),
        BridgeAction::OpenUrl("https://example.com/help".into())
    );
    assert_eq!(b.user_action("f", "nope", Map::new()).unwrap_err().code(), "COMPONENT_NOT_FOUND");
    assert_eq!(b.user_action("nope", "send", Map::new()).unwrap_err().code(), "SURFACE_NOT_FOUND");
}

#[test]
fn capabilities_advertise_the_registered_catalogs() {
    let b = bridge();
    let context = b.capabilities_context();
    assert_eq!(context.description, A2UI_CAPABILITIES_CONTEXT_DESCRIPTION);
    let value: Value = serde_json::from_str(&context.value).unwrap();
    let ids = value["a2uiClientCapabilities"]["v0.9"]["supportedCatalogIds"].as_array().unwrap();
    assert_eq!(ids[0], BASIC_CATALOG_ID);
    assert!(value["a2uiClientCapabilities"]["v0.9"].get("inlineCatalogs").is_none());
}

// ---- untrusted input ---------------------------------------------------------------------------

#[test]
fn garbage_a2ui_is_a_typed_error_not_a_panic() {
    let mut b = bridge();

    let out = feed(&mut b, tool_result("a", "{\"a2ui_operations\": 5}"));
    assert!(matches!(&out.errors[..], [BridgeError::OperationsNotAList { .. }]));
    assert_eq!(errors(&out)[0]["path"], "/a2ui_operations");

    let out = feed(&mut b, tool_result("b", "{\"a2ui_operations\": [{\"version\": \"v0.9\", "));
    assert!(matches!(&out.errors[..], [BridgeError::Malformed { carrier: "TOOL_CALL_RESULT", .. }]));

    let out = feed(&mut b, json!({"type": "CUSTOM", "name": "a2ui", "value": 42}));
    assert!(matches!(&out.errors[..], [BridgeError::Malformed { .. }]));

    let activity = json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "g", "activityType": "a2ui-surface",
                          "content": {"a2ui_operations": "nope"}});
    assert!(matches!(&feed(&mut b, activity).errors[..], [BridgeError::OperationsNotAList { .. }]));

    // Elements that are not envelopes go to the engine, which reports each one.
    let out = feed(&mut b, snapshot("junk", json!([null, 7, "x", {"version": "v0.9"}])));
    assert_eq!(errors(&out).len(), 4);
    assert!(out.events.is_empty());
    assert_eq!(b.group().surfaces().count(), 0);
}

#[test]
fn oversized_payloads_and_operation_counts_are_refused() {
    let limits = BridgeLimits { max_payload_bytes: 64, max_operations_per_event: 3, ..BridgeLimits::default() };
    let mut b = A2uiBridge::with_limits(SurfaceGroup::default(), limits);

    let big = json!({"a2ui_operations": [create("s")], "pad": "x".repeat(100)}).to_string();
    let out = feed(&mut b, tool_result("big", &big));
    assert!(matches!(&out.errors[..], [BridgeError::LimitExceeded { what: "A2UI payload bytes", limit: 64, .. }]));
    assert_eq!(errors(&out)[0]["code"], "LIMIT_EXCEEDED");
    // A big ordinary result is just ignored.
    assert!(feed(&mut b, tool_result("plain", &"y".repeat(1000))).is_empty());

    let many: Vec<Value> = (0..4).map(|i| data("s", &format!("/{i}"), json!(i))).collect();
    let out = feed(&mut b, snapshot("act", json!(many)));
    assert!(matches!(&out.errors[..], [BridgeError::LimitExceeded { limit: 3, actual: 4, .. }]));
    assert!(out.events.is_empty());
    // Counted as seen: the same snapshot again does not report again.
    assert!(feed(&mut b, snapshot("act", json!(many))).is_empty());
    assert_eq!(b.group().pending_count(), 0);
}
