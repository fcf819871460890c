//! What the renderer receives: resolved nodes and diffs. A renderer maps each node to a native
//! widget; it never resolves bindings, parses JSON or evaluates functions.

use std::sync::Arc;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::Value;

/// Resolved properties in the agent's order. A small vector rather than a map: nodes hold two
/// or three properties, and 60,000 nodes must fit in a phone's memory budget.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Props(Vec<(Arc<str>, Value)>);

static NULL: Value = Value::Null;

impl Props {
    pub fn with_capacity(capacity: usize) -> Self {
        Props(Vec::with_capacity(capacity))
    }

    pub fn push(&mut self, key: Arc<str>, value: Value) {
        self.0.push((key, value));
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k.as_ref() == key).map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.0.iter_mut().find(|(k, _)| k.as_ref() == key).map(|(_, v)| v)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().map(|(k, v)| (k.as_ref(), v))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// `props["text"]` reads like a JSON object; a missing key reads as `null`.
impl std::ops::Index<&str> for Props {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

impl Serialize for Props {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k.as_ref(), v)?;
        }
        map.end()
    }
}

/// Accessibility attributes, resolved.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct Accessibility {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// v1.0: how a screen reader announces changes (`off`, `polite`, `assertive`), as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "uniffi", uniffi(default = None))]
    pub live: Option<String>,
    /// v1.0: hidden from assistive technologies, with its children (resolved).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "uniffi", uniffi(default = None))]
    pub hidden: Option<bool>,
}

/// Outcome of one `checks` rule: v1.0's structured validation result (before v1.0 a check is a
/// boolean with the rule's message, `code` none and severity error).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct CheckResult {
    /// The result's message, else the rule's (empty when neither has one).
    pub message: String,
    pub passed: bool,
    /// Machine-readable reason (`INVALID_EMAIL`), when the check function gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Only a failing `Error` disables an actionable component; warnings and infos are shown.
    pub severity: Severity,
}

/// How much a failing check matters (v1.0 `ValidationResult.severity`, default error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// What a node does when the user activates it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum ActionKind {
    /// Sends an `action` message named `name` to the agent.
    Event { name: Arc<str> },
    /// Runs a client-side function (e.g. `openUrl`) locally.
    FunctionCall { name: Arc<str> },
}

/// A two-way binding: the input writes its value back to `path` with `set_value`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct Binding {
    pub property: Arc<str>,
    /// Canonical absolute data-model path.
    pub path: Arc<str>,
}

/// One component instance, fully resolved.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ResolvedNode {
    /// Instance id: the component id, or `componentId@/data/path` for template instances.
    pub id: Arc<str>,
    /// The component definition this instance comes from.
    pub component_id: Arc<str>,
    /// Catalog type, e.g. `Text`.
    #[serde(rename = "type")]
    pub component_type: Arc<str>,
    /// Resolved properties in the agent's order. Child references inside them (Tabs `child`,
    /// Modal `trigger`/`content`) are instance ids; `child` and `children` themselves are not
    /// repeated here: they are `children`.
    pub props: Props,
    /// Child instance ids in order (template instances included). An id with no node in the
    /// surface is pending: its component has not arrived yet.
    pub children: Vec<Arc<str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accessibility: Option<Accessibility>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<CheckResult>,
    /// First failing check's message (inputs show it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation_message: Option<String>,
    /// False when a check fails on an actionable component (a Button is disabled).
    pub enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<ActionKind>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bindings: Vec<Binding>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight: Option<f64>,
    /// A `Text`'s `text` as Markdown, under the profile its catalog allows
    /// ([`crate::markdown::text_profile`]): renderers draw this tree, never parse the text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markdown: Option<Vec<agentui_markdown::MdBlock>>,
}

/// A change to a surface's node set, published after every message or input. Nodes are shared
/// with the surface (`Arc`), so publishing a 60,000-node reset copies pointers, not nodes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum SurfaceDiff {
    /// Replace everything: the first notification, or after the tree was rebuilt.
    Reset { root: Option<String>, nodes: Vec<Arc<ResolvedNode>> },
    /// Nodes added or changed, and ids removed.
    Patch { upserted: Vec<Arc<ResolvedNode>>, removed: Vec<Arc<str>> },
}

/// How the nodes cross the bindings (feature `uniffi`): shared text as a string, a shared node
/// as the node, properties as [`PropEntry`](agentui_json::value::PropEntry)s in order.
#[cfg(feature = "uniffi")]
mod bindings {
    use std::sync::Arc;

    use agentui_json::value::{NodeValue, PropEntry};
    use uniffi::{FfiConverter, FfiConverterArc, Lift, Lower, MetadataBuffer, RustBuffer, TypeId};

    use super::{Props, ResolvedNode};

    // `Arc<T>` gets its conversion from `FfiConverterArc` (the orphan rule allows no other way):
    // shared text is a string to the bindings...
    unsafe impl FfiConverterArc<crate::UniFfiTag> for str {
        type FfiType = RustBuffer;
        fn lower(text: Arc<str>) -> RustBuffer {
            <String as Lower<crate::UniFfiTag>>::lower(text.to_string())
        }
        fn try_lift(buf: RustBuffer) -> uniffi::Result<Arc<str>> {
            <String as Lift<crate::UniFfiTag>>::try_lift(buf).map(Arc::from)
        }
        fn write(text: Arc<str>, buf: &mut Vec<u8>) {
            <String as Lower<crate::UniFfiTag>>::write(text.to_string(), buf)
        }
        fn try_read(buf: &mut &[u8]) -> uniffi::Result<Arc<str>> {
            <String as Lift<crate::UniFfiTag>>::try_read(buf).map(Arc::from)
        }
        const TYPE_ID_META: MetadataBuffer = <String as TypeId<crate::UniFfiTag>>::TYPE_ID_META;
    }

    // ...and a node shared with its surface is the node (a copy, as the bindings need one).
    unsafe impl<UT> FfiConverterArc<UT> for ResolvedNode {
        type FfiType = <ResolvedNode as FfiConverter<UT>>::FfiType;
        fn lower(node: Arc<Self>) -> Self::FfiType {
            <ResolvedNode as FfiConverter<UT>>::lower(Arc::unwrap_or_clone(node))
        }
        fn try_lift(v: Self::FfiType) -> uniffi::Result<Arc<Self>> {
            <ResolvedNode as FfiConverter<UT>>::try_lift(v).map(Arc::new)
        }
        fn write(node: Arc<Self>, buf: &mut Vec<u8>) {
            <ResolvedNode as FfiConverter<UT>>::write(Arc::unwrap_or_clone(node), buf)
        }
        fn try_read(buf: &mut &[u8]) -> uniffi::Result<Arc<Self>> {
            <ResolvedNode as FfiConverter<UT>>::try_read(buf).map(Arc::new)
        }
        const TYPE_ID_META: MetadataBuffer = <ResolvedNode as FfiConverter<UT>>::TYPE_ID_META;
    }

    uniffi::custom_type!(Props, Vec<PropEntry>, {
        lower: |props| props.0.into_iter().map(|(name, value)| PropEntry { name: name.to_string(), value: value.into() }).collect(),
        try_lift: |entries| {
            let mut props = Props::with_capacity(entries.len());
            for PropEntry { name, value } in entries {
                let json = NodeValue::to_json(&value)
                    .map_err(|e| uniffi::deps::anyhow::anyhow!("property '{name}' at '{}': {}", e.path, e.reason()))?;
                props.push(name.into(), json);
            }
            Ok(props)
        },
    });
}

impl SurfaceDiff {
    pub fn is_empty(&self) -> bool {
        matches!(self, SurfaceDiff::Patch { upserted, removed } if upserted.is_empty() && removed.is_empty())
    }
}
