//! `agentui run --set` and `--action`: what a user would type into and press on a surface,
//! given on the command line. Parsed before anything runs, so a typo is a usage error (exit 2)
//! and not a half-played conversation.

use serde_json::Value;

/// `--set SURFACE_ID:POINTER=JSON`: a value typed into a surface's data model.
#[derive(Debug, Clone, PartialEq)]
pub struct SetValue {
    pub surface_id: String,
    pub pointer: String,
    pub value: Value,
}

/// `--action SURFACE_ID/NODE_ID`: a node pressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PressNode {
    pub surface_id: String,
    pub node_id: String,
}

impl std::fmt::Display for PressNode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.surface_id, self.node_id)
    }
}

/// Every `--set`, then every `--action`, in command-line order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Gestures {
    pub sets: Vec<SetValue>,
    pub presses: Vec<PressNode>,
}

impl Gestures {
    pub fn parse(sets: &[String], actions: &[String]) -> Result<Self, String> {
        Ok(Gestures {
            sets: sets.iter().map(|s| parse_set(s)).collect::<Result<_, _>>()?,
            presses: actions.iter().map(|a| parse_action(a)).collect::<Result<_, _>>()?,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.sets.is_empty() && self.presses.is_empty()
    }
}

pub fn parse_set(spec: &str) -> Result<SetValue, String> {
    let usage =
        || format!("--set is written SURFACE_ID:POINTER=JSON (e.g. booking:/booking/name=\"Ada\"), got {spec:?}");
    // The pointer starts at the first ':' and ends at the first '=' after it.
    let (surface_id, rest) = spec.split_once(':').ok_or_else(usage)?;
    let (pointer, json) = rest.split_once('=').ok_or_else(usage)?;
    if surface_id.is_empty() || !(pointer.is_empty() || pointer.starts_with('/')) {
        return Err(usage());
    }
    let value = serde_json::from_str(json).map_err(|e| format!("--set {surface_id}:{pointer}: not JSON: {e}"))?;
    Ok(SetValue { surface_id: surface_id.to_owned(), pointer: pointer.to_owned(), value })
}

pub fn parse_action(spec: &str) -> Result<PressNode, String> {
    // Node ids are plain names; a surface id may hold a '/'.
    match spec.rsplit_once('/') {
        Some((surface_id, node_id)) if !surface_id.is_empty() && !node_id.is_empty() => {
            Ok(PressNode { surface_id: surface_id.to_owned(), node_id: node_id.to_owned() })
        }
        _ => Err(format!("--action is written SURFACE_ID/NODE_ID (e.g. booking/book), got {spec:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_set_splits_at_the_first_colon_and_the_first_equals_sign() {
        let set = parse_set(r#"booking:/booking/name="Ada=Lovelace""#).unwrap();
        assert_eq!(set.surface_id, "booking");
        assert_eq!(set.pointer, "/booking/name");
        assert_eq!(set.value, json!("Ada=Lovelace"));
        assert_eq!(parse_set(r#"s:={"a":1}"#).unwrap().pointer, "", "the root pointer");
        assert!(parse_set("booking/booking/name=1").is_err());
        assert!(parse_set("booking:booking=1").is_err(), "a pointer starts with /");
        assert!(parse_set("booking:/x=not json").unwrap_err().contains("not JSON"));
    }

    #[test]
    fn an_action_names_the_node_after_the_last_slash() {
        let press = parse_action("app/booking/book").unwrap();
        assert_eq!((press.surface_id.as_str(), press.node_id.as_str()), ("app/booking", "book"));
        assert!(parse_action("book").is_err());
        assert!(parse_action("booking/").is_err());
    }
}
