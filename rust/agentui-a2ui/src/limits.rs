//! Bounds on what an agent may make the engine allocate or walk. Agent payloads are untrusted:
//! a hallucinated `/items/99999999` or a 10,000-deep tree must become a typed error, not a crash.

/// Limits applied to every surface of a group. The defaults suit a phone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted message, in bytes of JSON text (checked on text and on parsed values alike).
    pub max_message_bytes: usize,
    /// Components one surface may hold.
    pub max_components_per_surface: usize,
    /// Deepest component nesting from the root (template instances included).
    pub max_depth: usize,
    /// Resolved template instances one surface may hold (all templates together). Checked before a
    /// template is expanded, so a list of a million items allocates nothing.
    pub max_template_instances: usize,
    /// Largest array index a data-model write may create (`/items/99999999` is refused).
    pub max_array_index: usize,
    /// Deepest JSON nesting in a data-model value.
    pub max_value_depth: usize,
    /// Messages buffered for surfaces not created yet (all surfaces together).
    pub max_buffered_messages: usize,
    /// Surfaces one group may hold.
    pub max_surfaces: usize,
    /// Weight (approximate bytes in memory, see [`crate::size`]) of one surface's data model.
    pub max_data_model_bytes: usize,
    /// Weight of the data models of all surfaces of a group together (one conversation).
    pub max_total_data_model_bytes: usize,
    /// Bounds on the Markdown tree of one `Text` (the memory budget's Markdown bounds).
    pub markdown: agentui_markdown::MarkdownLimits,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_message_bytes: 4 * 1024 * 1024,
            max_components_per_surface: 10_000,
            max_depth: 64,
            max_template_instances: 100_000,
            max_array_index: 100_000,
            max_value_depth: 64,
            max_buffered_messages: 256,
            max_surfaces: 64,
            max_data_model_bytes: 8 * 1024 * 1024,
            max_total_data_model_bytes: 16 * 1024 * 1024,
            markdown: agentui_markdown::MarkdownLimits::default(),
        }
    }
}
