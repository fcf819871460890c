//! Path -> node dependency index, so that a data-model write recomputes only the nodes that read
//! the written path: cost grows with what changed, not with the surface size.

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Maps canonical data paths to the instance ids that read them. Paths are ordered so that
/// "everything below `/items`" is one range query.
#[derive(Debug, Default, Clone)]
pub struct DependencyIndex {
    by_path: BTreeMap<Arc<str>, Vec<Arc<str>>>,
}

impl DependencyIndex {
    /// Records that `node` reads `paths`; returns the paths as stored (one shared allocation per
    /// distinct path), for a later [`Self::remove`].
    pub fn add(&mut self, node: &Arc<str>, paths: Vec<Arc<str>>) -> Vec<Arc<str>> {
        paths
            .into_iter()
            .map(|path| match self.by_path.entry(path) {
                Entry::Occupied(mut readers) => {
                    readers.get_mut().push(node.clone());
                    readers.key().clone()
                }
                Entry::Vacant(slot) => {
                    let key = slot.key().clone();
                    slot.insert(vec![node.clone()]);
                    key
                }
            })
            .collect()
    }

    /// Forgets that `node` reads `paths`.
    pub fn remove(&mut self, node: &str, paths: &[Arc<str>]) {
        for path in paths {
            if let Some(readers) = self.by_path.get_mut(path) {
                if let Some(i) = readers.iter().position(|r| r.as_ref() == node) {
                    readers.swap_remove(i);
                }
                if readers.is_empty() {
                    self.by_path.remove(path);
                }
            }
        }
    }

    /// Nodes whose value may change when `changed` is written: those reading `changed`, one of
    /// its ancestors (the value they read contains it) or one of its descendants (replaced).
    pub fn affected_by_write(&self, changed: &str) -> Vec<Arc<str>> {
        let mut out = Vec::new();
        for ancestor in ancestors_or_self(changed) {
            if let Some(nodes) = self.by_path.get(ancestor) {
                out.extend(nodes.iter().cloned());
            }
        }
        for nodes in self.descendants(changed) {
            out.extend(nodes.iter().cloned());
        }
        dedup(out)
    }

    /// Nodes whose list of items may change when `changed` is written: the list itself or an
    /// ancestor was replaced, or a direct item was added, removed or replaced.
    pub fn affected_structurally(&self, changed: &str) -> Vec<Arc<str>> {
        let mut out = Vec::new();
        if let Some(nodes) = self.by_path.get(changed) {
            out.extend(nodes.iter().cloned());
        }
        for nodes in self.descendants(changed) {
            out.extend(nodes.iter().cloned());
        }
        if let Some(parent) = parent(changed) {
            if let Some(nodes) = self.by_path.get(parent) {
                out.extend(nodes.iter().cloned());
            }
        }
        dedup(out)
    }

    fn descendants<'a>(&'a self, path: &str) -> impl Iterator<Item = &'a Vec<Arc<str>>> + 'a {
        // Keys strictly below `path` start with `path/`; '0' is the character after '/'.
        let lower: Arc<str> = format!("{path}/").into();
        let upper: Arc<str> = format!("{path}0").into();
        self.by_path.range(lower..upper).map(|(_, nodes)| nodes)
    }
}

fn dedup(mut nodes: Vec<Arc<str>>) -> Vec<Arc<str>> {
    nodes.sort_unstable();
    nodes.dedup();
    nodes
}

/// `""`, `/a`, `/a/b` for `/a/b`.
fn ancestors_or_self(path: &str) -> impl Iterator<Item = &str> {
    std::iter::once("").chain(path.match_indices('/').skip(1).map(move |(i, _)| &path[..i])).chain(if path.is_empty() {
        None
    } else {
        Some(path)
    })
}

fn parent(path: &str) -> Option<&str> {
    path.rfind('/').map(|i| &path[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(entries: &[(&str, &[&str])]) -> DependencyIndex {
        let mut idx = DependencyIndex::default();
        for (node, paths) in entries {
            idx.add(&Arc::from(*node), paths.iter().map(|p| Arc::from(*p)).collect());
        }
        idx
    }

    fn sorted(nodes: Vec<Arc<str>>) -> Vec<String> {
        nodes.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn ancestors_are_listed_root_first() {
        assert_eq!(ancestors_or_self("/a/b").collect::<Vec<_>>(), vec!["", "/a", "/a/b"]);
        assert_eq!(ancestors_or_self("").collect::<Vec<_>>(), vec![""]);
    }

    #[test]
    fn write_reaches_readers_of_path_ancestors_and_descendants_only() {
        let idx = index(&[
            ("price5", &["/items/5/price"]),
            ("price50", &["/items/50/price"]),
            ("whole", &["/items"]),
            ("name5", &["/items/5/name"]),
            ("other", &["/itemsX"]),
        ]);
        assert_eq!(sorted(idx.affected_by_write("/items/5/price")), vec!["price5", "whole"]);
        assert_eq!(sorted(idx.affected_by_write("/items/5")), vec!["name5", "price5", "whole"]);
        assert_eq!(sorted(idx.affected_by_write("")).len(), 5);
    }

    #[test]
    fn structural_changes_are_the_list_its_ancestors_and_direct_items() {
        let idx = index(&[("list", &["/items"])]);
        assert!(idx.affected_structurally("/items/5/price").is_empty());
        assert_eq!(sorted(idx.affected_structurally("/items/5")), vec!["list"]);
        assert_eq!(sorted(idx.affected_structurally("/items")), vec!["list"]);
        assert_eq!(sorted(idx.affected_structurally("")), vec!["list"]);
    }

    #[test]
    fn removing_a_node_forgets_its_paths() {
        let mut idx = DependencyIndex::default();
        let n: Arc<str> = "n".into();
        let stored = idx.add(&n, vec![Arc::from("/a"), Arc::from("/b")]);
        idx.remove("n", &stored[..1]);
        assert!(idx.affected_by_write("/a").is_empty());
        assert_eq!(sorted(idx.affected_by_write("/b")), vec!["n"]);
        idx.remove("n", &stored[1..]);
        assert!(idx.by_path.is_empty());
    }
}
