//! The memory budget: one place that bounds everything an agent can make this client hold.
//!
//! An out-of-memory abort cannot be caught; it kills the host app. So every size the agent
//! controls is bounded, and each bound is checked while the work is done (a patch is stopped at
//! the operation that crosses it, a template before it is expanded, a value while it is
//! measured), never by building the result first. A breach is a typed error for the app, the
//! agent is told where the protocol has a channel (an A2UI `error` message on the next run; a
//! failed AG-UI run), and what was applied before stays applied while the breaching message
//! changes nothing.
//!
//! Sizes of values already parsed are *weights*: approximate bytes in memory, see
//! [`agentui_json::size`]. Message sizes are bytes of JSON text.

use crate::limits::Limits;
use crate::sse::SseLimits;

/// Bounds on what one conversation holds. The defaults suit a phone: a hostile agent cannot make
/// a conversation use more than a few tens of megabytes, and no legitimate chat or form comes
/// near them.
///
/// The bindings carry it as it is, every bound with its default (a bound is a `u64` there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct MemoryBudget {
    /// Bytes of one message on every path: an SSE event's data (and so every AG-UI event), an
    /// A2UI message (inside an event or on its own), an A2UI payload carried in a string.
    /// Default 1 MiB.
    #[cfg_attr(feature = "uniffi", uniffi(default = 1048576))]
    pub max_message_bytes: usize,
    /// Weight of the conversation's state, and of one activity's content. Default 4 MiB.
    #[cfg_attr(feature = "uniffi", uniffi(default = 4194304))]
    pub max_state_bytes: usize,
    /// Weight of the document a JSON Patch may produce (state, activity content). Default 4 MiB.
    #[cfg_attr(feature = "uniffi", uniffi(default = 4194304))]
    pub max_patch_result_bytes: usize,
    /// Weight of one surface's data model. Default 8 MiB.
    #[cfg_attr(feature = "uniffi", uniffi(default = 8388608))]
    pub max_data_model_bytes: usize,
    /// Weight of all data models of the conversation together. Default 16 MiB.
    #[cfg_attr(feature = "uniffi", uniffi(default = 16777216))]
    pub max_total_data_model_bytes: usize,
    /// Template instances one surface may resolve (all templates together). Default 100,000.
    #[cfg_attr(feature = "uniffi", uniffi(default = 100000))]
    pub max_template_instances: usize,
    /// Components one surface may define. Default 10,000.
    #[cfg_attr(feature = "uniffi", uniffi(default = 10000))]
    pub max_components_per_surface: usize,
    /// Bytes of text, tool arguments and tool results one run may stream. Default 16 MiB.
    #[cfg_attr(feature = "uniffi", uniffi(default = 16777216))]
    pub max_run_content_bytes: usize,
    /// Bytes of one attachment the app sends (before encoding). Default 8 MiB.
    #[cfg_attr(feature = "uniffi", uniffi(default = 8388608))]
    pub max_attachment_bytes: usize,
    /// Bytes of all attachments of one message together (before encoding). Default 16 MiB. The
    /// message's parts are held encoded (base64, a third more) while it is in the conversation,
    /// and once more as the request body while it is sent.
    #[cfg_attr(feature = "uniffi", uniffi(default = 16777216))]
    pub max_message_attachment_bytes: usize,
    /// Bytes of the media one conversation holds, every message's together (decoded; the app's
    /// attachments and the media the agent returned alike). Every run re-sends them in its
    /// request body, and a conversation without a store holds them in memory; past this bound a
    /// new message with attachments is refused. Default 48 MiB (three full messages).
    #[cfg_attr(feature = "uniffi", uniffi(default = 50331648))]
    pub max_conversation_media_bytes: usize,
    /// Media parts (images, audio, video, documents) one message from the agent may carry: a
    /// tool result's, or a message a `MESSAGES_SNAPSHOT` adds or changes. Default 64. (Their
    /// bytes count against `max_run_content_bytes` when a tool result brings them, and every
    /// event against `max_message_bytes`.)
    #[cfg_attr(feature = "uniffi", uniffi(default = 64))]
    pub max_received_media_parts: usize,
    /// Containers inside containers in one text's Markdown tree (chat messages and A2UI `Text`):
    /// quotes, lists, list items, emphasis, links. Deeper content is shown as its source text.
    /// Default 16.
    #[cfg_attr(feature = "uniffi", uniffi(default = 16))]
    pub max_markdown_depth: usize,
    /// Blocks and inlines in one text's Markdown tree; the blocks past it are shown as their
    /// source text. Default 65,536.
    #[cfg_attr(feature = "uniffi", uniffi(default = 65536))]
    pub max_markdown_nodes: usize,
    /// Cells in one Markdown table, the header's included; a larger table is shown as its source
    /// text. Default 4,096.
    #[cfg_attr(feature = "uniffi", uniffi(default = 4096))]
    pub max_markdown_table_cells: usize,
    /// Bytes of Markdown parsed at once (the parser's working memory grows with it): a longer
    /// block is cut into consecutive blocks. Default 256 KiB.
    #[cfg_attr(feature = "uniffi", uniffi(default = 262144))]
    pub max_markdown_parse_bytes: usize,
}

impl Default for MemoryBudget {
    fn default() -> Self {
        MemoryBudget {
            max_message_bytes: 1024 * 1024,
            max_state_bytes: 4 * 1024 * 1024,
            max_patch_result_bytes: 4 * 1024 * 1024,
            max_data_model_bytes: 8 * 1024 * 1024,
            max_total_data_model_bytes: 16 * 1024 * 1024,
            max_template_instances: 100_000,
            max_components_per_surface: 10_000,
            max_run_content_bytes: 16 * 1024 * 1024,
            max_attachment_bytes: 8 * 1024 * 1024,
            max_message_attachment_bytes: 16 * 1024 * 1024,
            max_conversation_media_bytes: 48 * 1024 * 1024,
            max_received_media_parts: 64,
            max_markdown_depth: 16,
            max_markdown_nodes: 65_536,
            max_markdown_table_cells: 4_096,
            max_markdown_parse_bytes: 256 * 1024,
        }
    }
}

/// A bound as the bindings carry it: a `u64` (on a 32-bit device a larger one means no bound).
#[cfg(feature = "uniffi")]
pub type Bound = usize;

#[cfg(feature = "uniffi")]
uniffi::custom_type!(Bound, u64, {
    remote,
    lower: |bound| bound as u64,
    try_lift: |bound| Ok(usize::try_from(bound).unwrap_or(usize::MAX)),
});

impl MemoryBudget {
    /// The first bound that is zero, by name: a conversation with it could never receive
    /// anything, so callers refuse such a budget. (A zero attachment bound only refuses every
    /// attachment; a zero Markdown bound only shows text as its source, and a zero parse bound
    /// parses a character at a time.)
    pub fn zero_bound(&self) -> Option<&'static str> {
        [
            ("max_message_bytes", self.max_message_bytes),
            ("max_state_bytes", self.max_state_bytes),
            ("max_patch_result_bytes", self.max_patch_result_bytes),
            ("max_data_model_bytes", self.max_data_model_bytes),
            ("max_total_data_model_bytes", self.max_total_data_model_bytes),
            ("max_template_instances", self.max_template_instances),
            ("max_components_per_surface", self.max_components_per_surface),
            ("max_run_content_bytes", self.max_run_content_bytes),
        ]
        .into_iter()
        .find(|(_, bound)| *bound == 0)
        .map(|(name, _)| name)
    }

    /// The AG-UI pipeline's limits with this budget's bounds applied over `base`.
    pub fn agui_limits(&self, base: Limits) -> Limits {
        Limits {
            max_state_bytes: self.max_state_bytes,
            max_patch_result_bytes: self.max_patch_result_bytes,
            max_run_content_bytes: self.max_run_content_bytes,
            max_media_parts: self.max_received_media_parts,
            max_message_bytes: base.max_message_bytes.min(self.max_run_content_bytes),
            max_tool_args_bytes: base.max_tool_args_bytes.min(self.max_run_content_bytes),
            ..base
        }
    }

    /// SSE framing bounds: an event's data is one message; a line may hold it plus its field name.
    pub fn sse_limits(&self) -> SseLimits {
        SseLimits { max_line_bytes: self.max_message_bytes.saturating_add(64), max_event_bytes: self.max_message_bytes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_bound_is_named() {
        assert_eq!(MemoryBudget::default().zero_bound(), None);
        let zero = MemoryBudget { max_state_bytes: 0, ..MemoryBudget::default() };
        assert_eq!(zero.zero_bound(), Some("max_state_bytes"));
    }
}
