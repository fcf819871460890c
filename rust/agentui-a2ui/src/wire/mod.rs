//! Wire types: the v0.9 messages (server to client and client to server) and the v0.8 adapter
//! that maps v0.8 messages onto the same types.
//!
//! # Versions
//!
//! An envelope is dispatched on its version once, in [`parse_server_message`]. v0.8 has no
//! `version` field and its own message keys; it goes through the [`v08`] adapter. v0.9 and
//! v0.9.1 have the same messages (v0.9.1 only lets a deleted surface's id be used again and
//! renames the MIME type), so both parse as v0.9. v1.0 (written `"1.0"` or `"v1.0"`) goes
//! through the [`v10`] adapter, which translates its envelopes onto the same messages.

use serde_json::Value;

use crate::error::A2uiError;
use v09::ServerMessage;

pub mod v08;
pub mod v09;
pub mod v10;

/// A protocol version this engine reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Version {
    V0_8,
    V0_9,
    V0_9_1,
    /// Written `"1.0"` (the live spec) or `"v1.0"` (the stored v1.0 files).
    V1_0,
}

impl Version {
    /// The `version` field's value (`"v0.8"` for v0.8, whose envelopes carry none).
    pub const fn as_str(self) -> &'static str {
        match self {
            Version::V0_8 => "v0.8",
            Version::V0_9 => "v0.9",
            Version::V0_9_1 => "v0.9.1",
            Version::V1_0 => v10::EMITTED_VERSION,
        }
    }

    /// The version `envelope` speaks. An unknown `version` is [`A2uiError::UnsupportedVersion`];
    /// no `version` at all is v0.8 when a v0.8 message key is present and a validation error
    /// otherwise (every later version requires the field).
    pub fn of(envelope: &Value) -> Result<Version, A2uiError> {
        let Value::Object(obj) = envelope else {
            return Err(A2uiError::validation("", "message must be a JSON object"));
        };
        match obj.get("version") {
            Some(Value::String(v)) => match v.as_str() {
                "v0.9" => Ok(Version::V0_9),
                "v0.9.1" => Ok(Version::V0_9_1),
                v if v10::VERSION_STRINGS.contains(&v) => Ok(Version::V1_0),
                _ => Err(A2uiError::UnsupportedVersion(v.clone())),
            },
            Some(_) => Err(A2uiError::validation("/version", "version must be a string")),
            None if v08::is_v08(envelope) => Ok(Version::V0_8),
            None => Err(A2uiError::validation("/version", "missing required property \"version\"")),
        }
    }
}

/// Parses one server-to-client envelope of any supported version into the v0.9 messages that
/// have its effect, in order (a v0.8 `surfaceUpdate` can become several).
pub fn parse_server_message(envelope: Value) -> Result<Vec<ServerMessage>, A2uiError> {
    match Version::of(&envelope)? {
        Version::V0_8 => v08::parse(&envelope),
        Version::V0_9 | Version::V0_9_1 => ServerMessage::parse_v09_owned(envelope).map(|m| vec![m]),
        Version::V1_0 => v10::parse(envelope),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn each_envelope_is_dispatched_on_its_version() {
        let delete = |v: &str| json!({"version": v, "deleteSurface": {"surfaceId": "s"}});
        assert_eq!(Version::of(&delete("v0.9")), Ok(Version::V0_9));
        assert_eq!(Version::of(&delete("v0.9.1")), Ok(Version::V0_9_1));
        assert_eq!(Version::of(&json!({"deleteSurface": {"surfaceId": "s"}})), Ok(Version::V0_8));
        for version in [Version::V0_9, Version::V0_9_1] {
            assert_eq!(Version::of(&delete(version.as_str())), Ok(version));
            let parsed = parse_server_message(delete(version.as_str())).unwrap();
            assert_eq!(parsed.len(), 1);
            assert_eq!(parsed[0].kind(), "deleteSurface");
        }
        // A version we do not read is named as such, whatever its messages look like; an
        // explicit "v0.8" is not v0.8 (whose envelopes have no version field).
        for unknown in ["v1.1", "1", "v0.9.2", "0.9", "v0.8"] {
            assert_eq!(parse_server_message(delete(unknown)), Err(A2uiError::UnsupportedVersion(unknown.into())));
        }
        let no_version = parse_server_message(json!({"createSurface": {"surfaceId": "s"}})).unwrap_err();
        assert_eq!(no_version.path(), Some("/version"));
        assert_eq!(
            parse_server_message(json!({"version": 9, "deleteSurface": {}})).unwrap_err().path(),
            Some("/version")
        );
        assert_eq!(parse_server_message(json!([])).unwrap_err().path(), Some(""));
    }
}
