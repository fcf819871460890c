//! The memory budget's bounds on the A2UI side. The budget itself is the AG-UI crate's
//! [`MemoryBudget`] (it bounds the protocol too); this is where it meets the engine and the bridge,
//! which the protocol crate does not know about.

use agentui_a2ui::Limits as A2uiLimits;
use agentui_agui::MemoryBudget;
use agentui_markdown::MarkdownLimits;

use crate::a2ui_bridge::BridgeLimits;

/// The budget's bounds on surfaces and on A2UI carried in AG-UI events.
pub trait SurfaceBudget {
    /// The A2UI engine's limits with this budget's bounds applied over `base`.
    fn a2ui_limits(&self, base: A2uiLimits) -> A2uiLimits;
    /// The A2UI-over-AG-UI bridge's limits with this budget's bounds applied over `base`.
    fn bridge_limits(&self, base: BridgeLimits) -> BridgeLimits;
    /// The bounds on one text's Markdown tree, in chat messages and in A2UI `Text` alike.
    fn markdown_limits(&self) -> MarkdownLimits;
}

/// A bound as the Markdown tree counts it (a larger one is no smaller bound than `u32::MAX`).
fn bound_u32(bound: usize) -> u32 {
    u32::try_from(bound).unwrap_or(u32::MAX)
}

impl SurfaceBudget for MemoryBudget {
    fn a2ui_limits(&self, base: A2uiLimits) -> A2uiLimits {
        A2uiLimits {
            max_message_bytes: self.max_message_bytes,
            max_components_per_surface: self.max_components_per_surface,
            max_template_instances: self.max_template_instances,
            max_data_model_bytes: self.max_data_model_bytes,
            max_total_data_model_bytes: self.max_total_data_model_bytes,
            markdown: self.markdown_limits(),
            ..base
        }
    }

    fn bridge_limits(&self, base: BridgeLimits) -> BridgeLimits {
        BridgeLimits {
            max_payload_bytes: self.max_message_bytes,
            max_content_bytes: self.max_state_bytes.min(self.max_patch_result_bytes),
            ..base
        }
    }

    fn markdown_limits(&self) -> MarkdownLimits {
        MarkdownLimits {
            max_depth: bound_u32(self.max_markdown_depth),
            max_nodes: bound_u32(self.max_markdown_nodes),
            max_table_cells: bound_u32(self.max_markdown_table_cells),
            max_parse_bytes: bound_u32(self.max_markdown_parse_bytes),
        }
    }
}
