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
        }
    }
}
