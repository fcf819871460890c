//! The documents a registry holds and how a `$ref` finds its target among them.
//!
//! Every document is indexed under the URI it was registered with and under its `$id`; nested
//! `$id`s and `$anchor`s are indexed too. A location inside a document is identified by
//! `(document index, JSON Pointer from the document root)`, which is what compiled nodes are
//! memoised on, so the same schema reached through different URIs compiles once.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use super::uri;

/// Keywords whose values are data, not schemas: a `$id` inside them names nothing.
const DATA_KEYWORDS: [&str; 4] = ["const", "enum", "default", "examples"];

/// A schema resource: a document root, or a subschema with its own `$id` or `$anchor`.
#[derive(Debug, Clone)]
struct Resource {
    doc: usize,
    pointer: String,
    /// The base URI in effect inside the resource (its `$id` applied).
    base: String,
}

#[derive(Debug, Default, Clone)]
pub(crate) struct Documents {
    docs: Vec<Arc<Value>>,
    /// Each document's root base URI, to name it in compile errors.
    names: Vec<String>,
    resources: HashMap<String, Resource>,
    anchors: HashMap<String, Resource>,
}

/// A resolved schema location.
pub(crate) struct Target<'d> {
    pub doc: usize,
    pub pointer: String,
    pub value: &'d Value,
    pub base: String,
}

/// The base URI inside `value` when it is entered from `base` (its `$id` applied, if any).
pub(crate) fn base_of(value: &Value, base: &str) -> String {
    match value.get("$id").and_then(Value::as_str) {
        Some(id) => uri::resolve(base, uri::split_fragment(id).0),
        None => base.to_string(),
    }
}

impl Documents {
    pub fn add(&mut self, uri: &str, document: Value) {
        let doc = self.docs.len();
        let registered = uri::split_fragment(uri).0.to_string();
        let root_base = base_of(&document, &registered);
        self.docs.push(Arc::new(document));
        self.names.push(root_base.clone());
        let root = Resource { doc, pointer: String::new(), base: root_base.clone() };
        self.resources.insert(registered, root.clone());
        self.resources.insert(root_base.clone(), root);
        self.index_nested(doc, root_base);
    }

    /// Indexes nested `$id` and `$anchor` keywords. Iterative: documents may be deep.
    fn index_nested(&mut self, doc: usize, root_base: String) {
        let document = Arc::clone(&self.docs[doc]);
        let mut stack: Vec<(&Value, String, String)> = vec![(&document, String::new(), root_base)];
        while let Some((value, pointer, base)) = stack.pop() {
            match value {
                Value::Object(map) => {
                    let base = if pointer.is_empty() { base } else { base_of(value, &base) };
                    if !pointer.is_empty() && map.get("$id").is_some_and(Value::is_string) {
                        let resource = Resource { doc, pointer: pointer.clone(), base: base.clone() };
                        self.resources.insert(base.clone(), resource);
                    }
                    if let Some(anchor) = map.get("$anchor").and_then(Value::as_str) {
                        let resource = Resource { doc, pointer: pointer.clone(), base: base.clone() };
                        self.anchors.insert(format!("{base}#{anchor}"), resource);
                    }
                    for (key, child) in map {
                        if !DATA_KEYWORDS.contains(&key.as_str()) && (child.is_object() || child.is_array()) {
                            stack.push((child, format!("{pointer}/{}", uri::escape_token(key)), base.clone()));
                        }
                    }
                }
                Value::Array(items) => {
                    for (i, child) in items.iter().enumerate() {
                        if child.is_object() || child.is_array() {
                            stack.push((child, format!("{pointer}/{i}"), base.clone()));
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// A name for a document in error messages.
    pub fn display_name(&self, doc: usize) -> &str {
        self.names.get(doc).map_or("", String::as_str)
    }

    /// Finds what `reference` (a `$ref` value, or a URI given to `compile`) points to when it
    /// appears where `base` is the base URI.
    ///
    /// The reference is resolved per RFC 3986 first; if no document is registered there, the
    /// reference is tried as written and then by its last path segment, because callers register
    /// "the catalog in use" under the bare name `catalog.json` while the spec's schemas refer to
    /// it relative to their own `$id`.
    pub fn locate(&self, base: &str, reference: &str) -> Option<Target<'_>> {
        let (doc_part, fragment) = uri::split_fragment(reference);
        let fragment = uri::percent_decode(fragment);
        let mut candidates = vec![uri::resolve(base, doc_part)];
        if !doc_part.is_empty() {
            candidates.push(doc_part.to_string());
            candidates.push(uri::last_segment(doc_part).to_string());
        }
        candidates.iter().find_map(|candidate| {
            let resource = self.resources.get(candidate)?;
            self.locate_in(resource, &fragment)
        })
    }

    fn locate_in(&self, resource: &Resource, fragment: &str) -> Option<Target<'_>> {
        let (resource, fragment) = if fragment.is_empty() || fragment.starts_with('/') {
            (resource, fragment)
        } else {
            (self.anchors.get(&format!("{}#{fragment}", resource.base))?, "")
        };
        let document: &Value = self.docs.get(resource.doc)?;
        let mut value = document.pointer(&resource.pointer)?;
        let mut base = resource.base.clone();
        for token in uri::pointer_tokens(fragment)? {
            value = match value {
                Value::Object(map) => map.get(&token)?,
                Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
            base = base_of(value, &base);
        }
        Some(Target { doc: resource.doc, pointer: format!("{}{fragment}", resource.pointer), value, base })
    }
}
