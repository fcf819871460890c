//! Path -> node dependency index, so that a data-model write recomputes only the nodes that read
//! the written path: cost grows with what changed, not with the surface size.

use std::collections::{BTreeMap, HashMap, HashSet};

/// Maps canonical data paths to the instance ids that read them.
#[derive(Debug, Default, Clone)]
pub struct DependencyIndex {
    by_path: BTreeMap<String, HashSet<String>>,
    by_node: HashMap<String, Vec<String>>,
}

impl DependencyIndex {
    /// Replaces the paths `node` depends on.
    pub fn set(&mut self, node: &str, paths: Vec<String>) {
        self.remove(node);
        if paths.is_empty() {
            return;
        }
        for path in &paths {
            self.by_path.entry(path.clone()).or_default().insert(node.to_owned());
        }
        self.by_node.insert(node.to_owned(), paths);
    }

    pub fn remove(&mut self, node: &str) {
        if let Some(paths) = self.by_node.remove(node) {
            for path in paths {
                if let Some(nodes) = self.by_path.get_mut(&path) {
                    nodes.remove(node);
                    if nodes.is_empty() {
                        self.by_path.remove(&path);
                    }
                }
            }
        }
    }

    /// Nodes whose value may change when `changed` is written: those reading `changed`, one of
    /// its ancestors (the value they read contains it) or one of its descendants (replaced).
    pub fn affected_by_write(&self, changed: &str) -> HashSet<String> {
        let mut out = HashSet::new();
        for ancestor in ancestors_or_self(changed) {
            if let Some(nodes) = self.by_path.get(ancestor) {
                out.extend(nodes.iter().cloned());
            }
        }
        for nodes in self.descendants(changed) {
            out.extend(nodes.iter().cloned());
        }
        out
    }

    /// Nodes whose list of items may change when `changed` is written: the list itself or an
    /// ancestor was replaced, or a direct item was added, removed or replaced.
    pub fn affected_structurally(&self, changed: &str) -> HashSet<String> {
        let mut out = HashSet::new();
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
        out
    }

    fn descendants<'a>(&'a self, path: &str) -> impl Iterator<Item = &'a HashSet<String>> + 'a {
        // Keys strictly below `path` start with `path/`; '0' is the character after '/'.
        let lower = format!("{path}/");
        let upper = format!("{path}0");
        self.by_path.range(lower..upper).map(|(_, nodes)| nodes)
    }
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
            idx.set(node, paths.iter().map(|p| p.to_string()).collect());
        }
        idx
    }

    fn sorted(set: HashSet<String>) -> Vec<String> {
        let mut v: Vec<_> = set.into_iter().collect();
        v.sort();
        v
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
    fn replacing_and_removing_a_node_updates_both_directions() {
        let mut idx = index(&[("n", &["/a"])]);
        idx.set("n", vec!["/b".into()]);
        assert!(idx.affected_by_write("/a").is_empty());
        assert_eq!(sorted(idx.affected_by_write("/b")), vec!["n"]);
        idx.remove("n");
        assert!(idx.affected_by_write("/b").is_empty());
        assert!(idx.by_path.is_empty());
    }
}
