//! Action `parse_expression_template`: the `formatString` template parser.

use super::*;

/// Parses a `formatString` template with the engine's parser and compares its parts, adjacent
/// string literals joined (the suite fixes what a template means, not how its text is split),
/// or expects a parse error (`expect_error`; its message is one implementation's wording).
pub(super) fn parse_expression_template(case: &Value) -> Result<(), String> {
    let input = case["input"].as_str().ok_or("a case without `input`")?;
    match (agentui_a2ui::functions::parse_template(input), case.get("expect_error")) {
        (Err(_), Some(_)) => Ok(()),
        (Err(e), None) => Err(format!("unexpected parse error: {e}")),
        (Ok(parts), Some(expected)) => Err(format!("expected an error {expected}, parsed {parts:?}")),
        (Ok(parts), None) => {
            let mut found: Vec<Value> = Vec::new();
            for part in parts {
                let value = template_part_json(part);
                match (found.last_mut(), &value) {
                    (Some(Value::String(text)), Value::String(more)) => text.push_str(more),
                    _ => found.push(value),
                }
            }
            let found = Value::Array(found);
            let expected = case.get("expect").ok_or("a case without `expect` or `expect_error`")?;
            if same_value(&found, expected) {
                Ok(())
            } else {
                Err(format!("parsed {found}, expected {expected}"))
            }
        }
    }
}

/// A parsed part in the suite's form: a literal as itself, `{path}`, `{call, args, returnType}`.
fn template_part_json(part: agentui_a2ui::functions::TemplatePart) -> Value {
    use agentui_a2ui::functions::TemplatePart;
    match part {
        TemplatePart::Literal(value) => value,
        TemplatePart::Path(path) => json!({"path": path}),
        TemplatePart::Call(call) => call_json(&call),
    }
}

fn call_json(call: &agentui_a2ui::dynamic::Call) -> Value {
    use agentui_a2ui::dynamic::Dynamic;
    let args: serde_json::Map<String, Value> = call
        .args
        .iter()
        .map(|(name, arg)| {
            let value = match arg {
                Dynamic::Literal(v) => v.clone(),
                Dynamic::Path(p) => json!({"path": p}),
                Dynamic::Call(c) => call_json(c),
            };
            (name.clone(), value)
        })
        .collect();
    json!({"call": call.name, "args": args, "returnType": call.return_type.as_deref().unwrap_or("any")})
}

// ---- action: handle_rpc ----
