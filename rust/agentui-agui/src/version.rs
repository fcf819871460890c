//! Protocol version identifiers and the consumer's half of version negotiation.

use std::cmp::Ordering;

use crate::error::{Warning, WarningKind};

/// The protocol version this client speaks and declares on `RunAgentInput.protocolVersion`.
pub const PROTOCOL_VERSION: &str = "1.1";

/// A dotted numeric version (`1.1`, `0.0.57`), compared component by component, so `1.10` is
/// newer than `1.9` and missing components count as zero.
#[derive(Debug, Clone)]
pub struct VersionNumber(Vec<u64>);

// Equality agrees with the ordering: `1.1` and `1.1.0` are the same version.
impl PartialEq for VersionNumber {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for VersionNumber {}

impl VersionNumber {
    /// Parse `N(.N)*`; anything else is not a version this client can interpret.
    pub fn parse(s: &str) -> Option<Self> {
        if s.is_empty() {
            return None;
        }
        s.split('.')
            .map(|part| {
                if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                    None
                } else {
                    part.parse::<u64>().ok()
                }
            })
            .collect::<Option<Vec<_>>>()
            .map(VersionNumber)
    }

    fn component(&self, i: usize) -> u64 {
        self.0.get(i).copied().unwrap_or(0)
    }
}

impl PartialOrd for VersionNumber {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for VersionNumber {
    fn cmp(&self, other: &Self) -> Ordering {
        let n = self.0.len().max(other.0.len());
        (0..n).map(|i| self.component(i).cmp(&other.component(i))).find(|o| o.is_ne()).unwrap_or(Ordering::Equal)
    }
}

/// Judge a producer's `RUN_STARTED.protocolVersion`. Absent (a producer from before the field),
/// equal or older is quiet; newer or uninterpretable proceeds with a warning.
pub fn negotiate(declared: Option<&str>) -> Option<Warning> {
    let declared = declared?;
    let ours = VersionNumber::parse(PROTOCOL_VERSION)?;
    // A protocol version identifier is exactly MAJOR.MINOR.
    let parsed = VersionNumber::parse(declared).filter(|v| v.0.len() == 2);
    match parsed {
        None => Some(Warning::new(
            WarningKind::Version,
            format!(
                "cannot interpret the producer's protocolVersion {declared:?} (expected MAJOR.MINOR); proceeding as with a newer producer under the {PROTOCOL_VERSION} processing model"
            ),
        )),
        Some(theirs) if theirs > ours => Some(Warning::new(
            WarningKind::Version,
            format!(
                "the producer declares protocol {declared}, newer than {PROTOCOL_VERSION} which this client speaks; unrecognised material will be dropped or stripped"
            ),
        )),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compares_numerically() {
        let v = |s| VersionNumber::parse(s).unwrap();
        assert!(v("1.10") > v("1.9"));
        assert!(v("0.0.57") < v("1.0"));
        assert_eq!(v("1.1"), v("1.1.0"));
        assert!(VersionNumber::parse("draft").is_none());
        assert!(VersionNumber::parse("1..1").is_none());
    }

    #[test]
    fn negotiation_speaks_up_only_on_a_difference() {
        assert!(negotiate(None).is_none());
        assert!(negotiate(Some("1.1")).is_none());
        assert!(negotiate(Some("1.0")).is_none());
        assert!(negotiate(Some("1.2")).unwrap().message.contains("1.1"));
        assert!(negotiate(Some("2.0")).is_some());
        assert!(negotiate(Some("draft")).unwrap().message.contains("cannot interpret"));
        assert!(negotiate(Some("1.1.0")).unwrap().message.contains("cannot interpret"));
    }
}
