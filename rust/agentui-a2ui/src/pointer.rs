//! JSON Pointer (RFC 6901) as A2UI uses it: `""` and `"/"` both mean the root, one trailing slash is
//! stripped, and paths without a leading slash are relative to the current template item.
//!
//! OWNER: helper "data-model". Interface below is fixed; bodies are to be written.

/// Decoded reference tokens of a path (`~1` -> `/`, `~0` -> `~`).
pub type Tokens = Vec<String>;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PointerError {
    #[error("invalid JSON Pointer {path:?}: {reason}")]
    Invalid { path: String, reason: String },
}

/// Parses an absolute pointer (leading `/`, or `""`/`"/"` for the root) into decoded tokens.
pub fn parse_absolute(path: &str) -> Result<Tokens, PointerError> {
    let _ = path;
    todo!()
}

/// Encodes tokens back into the canonical absolute form (`""` for the root, `~0`/`~1` escaped).
pub fn encode(tokens: &[String]) -> String {
    let _ = tokens;
    todo!()
}

/// Resolves `path` as written by the agent against `base` (the canonical absolute path of the
/// current template item, `""` outside templates), returning the canonical absolute path.
pub fn resolve(base: &str, path: &str) -> Result<String, PointerError> {
    let _ = (base, path);
    todo!()
}

/// Canonical form of an absolute path (`"/"` -> `""`, trailing slash stripped, escapes normalised).
pub fn canonical(path: &str) -> Result<String, PointerError> {
    Ok(encode(&parse_absolute(path)?))
}
