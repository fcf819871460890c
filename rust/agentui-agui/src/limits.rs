//! Size bounds. Every buffer the client grows from producer input has one, so a hostile or
//! broken stream ends in a typed error rather than unbounded memory use.

/// Bounds applied while consuming a stream. The defaults are generous for chat workloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Messages one conversation may hold.
    pub max_messages: usize,
    /// Bytes of text one message's content may accumulate from deltas.
    pub max_message_bytes: usize,
    /// Bytes of arguments one tool call may accumulate.
    pub max_tool_args_bytes: usize,
    /// Ids (messages, calls, steps, subagents) the verifier tracks within one run.
    pub max_tracked_ids: usize,
    /// Operations in one JSON Patch.
    pub max_patch_operations: usize,
    /// Warnings kept; later ones are counted but not stored.
    pub max_warnings: usize,
    /// Weight (approximate bytes in memory, see [`agentui_json::size`]) of the conversation's
    /// state, and of one activity's content, whether it comes from a snapshot or a patch.
    pub max_state_bytes: usize,
    /// Weight of the document any JSON Patch may produce (state or activity content). Checked
    /// operation by operation, before the operation allocates.
    pub max_patch_result_bytes: usize,
    /// Nesting depth of the state and of activity content.
    pub max_value_depth: usize,
    /// Bytes of text, tool-call arguments and tool results that one run may stream into the
    /// conversation (all messages together).
    pub max_run_content_bytes: usize,
    /// Media parts (images, audio, video, documents) one message from the agent may carry: a
    /// tool result's, or a message a `MESSAGES_SNAPSHOT` adds or changes. Their bytes count
    /// against `max_run_content_bytes` when a tool result brings them.
    pub max_media_parts: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_messages: 100_000,
            max_message_bytes: 16 * 1024 * 1024,
            max_tool_args_bytes: 4 * 1024 * 1024,
            max_tracked_ids: 1_000_000,
            max_patch_operations: 100_000,
            max_warnings: 10_000,
            max_state_bytes: 8 * 1024 * 1024,
            max_patch_result_bytes: 8 * 1024 * 1024,
            max_value_depth: 64,
            max_run_content_bytes: 32 * 1024 * 1024,
            max_media_parts: 64,
        }
    }
}
