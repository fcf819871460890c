//! Action `handle_rpc`: function calls between agent and renderer (`callRendererFunction`, `callAgentFunction`).

use super::*;

/// Feeds the agent's function-call message to the engine and compares the answer: the
/// `rendererFunctionResponse` (version, id, value or error code), an error for a malformed
/// message, or no answer at all (`response: null`). A renderer-initiated `callAgentFunction`
/// (`outboundCall`) is not something this engine does yet.
pub(super) fn handle_rpc(case: &Value) -> Result<(), String> {
    let args = &case["args"];
    if let Some(call) = args.get("outboundCall") {
        return call_agent_function(case, call, &args["inboundResponse"]);
    }
    let mut group = group_for(&case_version(case))?;
    add_rpc_fixtures(&mut group, args)?;
    let sent: Vec<Value> = group.process_value(&args["message"]).emitted.iter().map(ClientMessage::to_wire).collect();
    let expect = &case["expect"];
    if expect.get("error").is_some() {
        return if sent.iter().any(|m| m.get("error").is_some()) {
            Ok(())
        } else {
            Err(format!("expected an error, sent {sent:?}"))
        };
    }
    let expected = &expect["response"];
    if expected.is_null() {
        return if sent.is_empty() { Ok(()) } else { Err(format!("expected no answer, sent {sent:?}")) };
    }
    let [answer] = sent.as_slice() else {
        return Err(format!("expected one answer, sent {sent:?}"));
    };
    if answer["version"] != expected["version"] {
        return Err(format!("answered in {}, expected {}", answer["version"], expected["version"]));
    }
    let (ours, theirs) = (&answer["rendererFunctionResponse"], &expected["rendererFunctionResponse"]);
    if ours["functionCallId"] != theirs["functionCallId"] {
        return Err(format!("answered call {}, expected {}", ours["functionCallId"], theirs["functionCallId"]));
    }
    match (theirs.get("value"), theirs.get("error")) {
        (Some(value), _) if ours.get("value") == Some(value) => Ok(()),
        (None, Some(error)) if ours["error"]["code"] == error["code"] => Ok(()),
        _ => Err(format!("answered {ours}, expected {theirs}")),
    }
}

/// Catalogs the suite's renderer registers beside `basic` for the agent to call into
/// (rpc_functions.yaml; its `non_existent_catalog` is the one it does not register).
const RPC_FIXTURE_CATALOGS: &[&str] = &["media_catalog", "system_catalog"];

/// The app functions of the suite's renderer: a case's `functionMetadata` declares them (with
/// `allowedCallers` and `requiresUserActivation`) in the catalog its call names, when the
/// renderer has that catalog; what each returns is the suite's (no file of the pack defines
/// them; each case's expected answer says what its function gives).
fn add_rpc_fixtures(group: &mut SurfaceGroup, args: &Value) -> Result<(), String> {
    let Some(metadata) = args["functionMetadata"].as_object().filter(|m| !m.is_empty()) else { return Ok(()) };
    let home = args["message"]["callRendererFunction"]["callFunction"]["catalogId"].as_str().unwrap_or_default();
    let declared: serde_json::Map<String, Value> = metadata
        .iter()
        .map(|(name, meta)| {
            let mut schema = json!({"type": "object", "required": ["call"],
                "properties": {"call": {"const": name}, "args": {"type": "object"}}});
            for key in ["allowedCallers", "requiresUserActivation"] {
                if let Some(value) = meta.get(key) {
                    schema[key] = value.clone();
                }
            }
            (name.clone(), schema)
        })
        .collect();
    let catalog = if home == "basic" {
        // The basic catalog v1 with the case's functions added.
        let mut document = agentui_a2ui::catalog::Catalog::basic_v1().to_json();
        let functions = document["functions"].as_object_mut().ok_or("the basic catalog has no functions")?;
        functions.extend(declared);
        // Its own list of functions would leave the added ones out; the loader writes it again.
        document["$defs"].as_object_mut().map(|defs| defs.remove("anyFunction"));
        document
    } else if RPC_FIXTURE_CATALOGS.contains(&home) {
        json!({"catalogId": home, "protocolVersion": "1.0", "functions": declared})
    } else {
        return Ok(());
    };
    let catalog = agentui_a2ui::catalog::Catalog::from_json(&catalog).map_err(|e| format!("{home}: {e}"))?;
    let id = catalog.id.clone();
    group.catalogs_mut().register(std::sync::Arc::new(catalog));
    for name in metadata.keys() {
        let function: std::sync::Arc<dyn agentui_a2ui::functions::HostFunction> = match name.as_str() {
            "playMedia" => std::sync::Arc::new(|args: &serde_json::Map<String, Value>| {
                Ok(json!({"playing": args.get("autoplay").cloned().unwrap_or(json!(false)), "timestamp": 0}))
            }),
            "openExternalUrl" => std::sync::Arc::new(|_: &serde_json::Map<String, Value>| Ok(json!({"opened": true}))),
            "syncState" => std::sync::Arc::new(|_: &serde_json::Map<String, Value>| Ok(Value::Null)),
            "failingFunction" => std::sync::Arc::new(|_: &serde_json::Map<String, Value>| {
                Err("An error occurred during function execution.".to_owned())
            }),
            _ => continue,
        };
        group.register_host_function(&id, name, function).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A renderer-initiated `callAgentFunction`: sent for the case's call on a v1.0 surface as the
/// case writes it, then the agent's `agentFunctionResponse` is correlated by `functionCallId`.
fn call_agent_function(case: &Value, call: &Value, response: &Value) -> Result<(), String> {
    let mut group = group_for("v1.0")?;
    let surface_id = call["surfaceId"].as_str().ok_or("outboundCall without surfaceId")?;
    let created = group
        .process_value(&json!({"version": "v1.0", "createSurface": {"surfaceId": surface_id, "catalogId": "basic"}}));
    if let Some(error) = created.emitted.first() {
        return Err(format!("surface refused: {}", error.to_wire()));
    }
    let id = call["functionCallId"].as_str().ok_or("outboundCall without functionCallId")?;
    let sent =
        group.call_agent_function(surface_id, id, call["callFunction"].clone()).map_err(|e| e.to_string())?.to_wire();
    if sent["version"] != "v1.0" || !same_value(&sent["callAgentFunction"], call) {
        return Err(format!("sent {sent}, expected the call {call}"));
    }
    let outcome = group.process_value(response);
    let expect = &case["expect"];
    let [answer] = outcome.agent_function_responses.as_slice() else {
        return Err(format!("{} answers correlated, expected one", outcome.agent_function_responses.len()));
    };
    if answer.function_call_id != expect["correlatedCallId"] {
        return Err(format!("correlated {}, expected {}", answer.function_call_id, expect["correlatedCallId"]));
    }
    match &answer.result {
        Ok(value) if same_value(value, &expect["result"]) => Ok(()),
        other => Err(format!("result {other:?}, expected {}", expect["result"])),
    }
}

// ---- action: validate ----
