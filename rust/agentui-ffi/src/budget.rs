//! The memory budget as the apps see it: a record with the phone defaults, converted to the
//! core's `MemoryBudget` (which documents each bound).

use agentui_agui::MemoryBudget as CoreBudget;

use crate::error::ConversationError;

/// Bounds on what an agent can make one conversation hold. Sizes of parsed values are weights
/// (approximate bytes in memory); message sizes are bytes of JSON text. A breach fails the run
/// (or refuses the A2UI message, with an `error` sent to the agent) and changes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct MemoryBudget {
    /// One message on every path: an SSE event, an A2UI message, an A2UI payload in a string.
    #[uniffi(default = 1048576)]
    pub max_message_bytes: u64,
    /// The conversation's state, and one activity's content.
    #[uniffi(default = 4194304)]
    pub max_state_bytes: u64,
    /// The document a JSON Patch may produce.
    #[uniffi(default = 4194304)]
    pub max_patch_result_bytes: u64,
    /// One surface's data model.
    #[uniffi(default = 8388608)]
    pub max_data_model_bytes: u64,
    /// All data models of the conversation together.
    #[uniffi(default = 16777216)]
    pub max_total_data_model_bytes: u64,
    /// Template instances one surface may resolve.
    #[uniffi(default = 100000)]
    pub max_template_instances: u64,
    /// Components one surface may define.
    #[uniffi(default = 10000)]
    pub max_components_per_surface: u64,
    /// Text, tool arguments and tool results one run may stream.
    #[uniffi(default = 16777216)]
    pub max_run_content_bytes: u64,
}

impl Default for MemoryBudget {
    fn default() -> Self {
        CoreBudget::default().into()
    }
}

impl From<CoreBudget> for MemoryBudget {
    fn from(b: CoreBudget) -> Self {
        MemoryBudget {
            max_message_bytes: b.max_message_bytes as u64,
            max_state_bytes: b.max_state_bytes as u64,
            max_patch_result_bytes: b.max_patch_result_bytes as u64,
            max_data_model_bytes: b.max_data_model_bytes as u64,
            max_total_data_model_bytes: b.max_total_data_model_bytes as u64,
            max_template_instances: b.max_template_instances as u64,
            max_components_per_surface: b.max_components_per_surface as u64,
            max_run_content_bytes: b.max_run_content_bytes as u64,
        }
    }
}

impl MemoryBudget {
    /// The core budget; a zero bound is refused (nothing could ever be received).
    pub(crate) fn to_core(self) -> Result<CoreBudget, ConversationError> {
        let field = |name: &str, value: u64| -> Result<usize, ConversationError> {
            if value == 0 {
                return Err(ConversationError::InvalidOptions {
                    detail: format!("memory_budget.{name} must be greater than 0"),
                });
            }
            Ok(usize::try_from(value).unwrap_or(usize::MAX))
        };
        Ok(CoreBudget {
            max_message_bytes: field("max_message_bytes", self.max_message_bytes)?,
            max_state_bytes: field("max_state_bytes", self.max_state_bytes)?,
            max_patch_result_bytes: field("max_patch_result_bytes", self.max_patch_result_bytes)?,
            max_data_model_bytes: field("max_data_model_bytes", self.max_data_model_bytes)?,
            max_total_data_model_bytes: field("max_total_data_model_bytes", self.max_total_data_model_bytes)?,
            max_template_instances: field("max_template_instances", self.max_template_instances)?,
            max_components_per_surface: field("max_components_per_surface", self.max_components_per_surface)?,
            max_run_content_bytes: field("max_run_content_bytes", self.max_run_content_bytes)?,
        })
    }
}

/// The memory budget a conversation gets when its options name none (the phone defaults).
#[uniffi::export]
pub fn default_memory_budget() -> MemoryBudget {
    MemoryBudget::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip_and_zero_is_refused() {
        assert_eq!(MemoryBudget::default().to_core().unwrap(), CoreBudget::default());
        let zero = MemoryBudget { max_state_bytes: 0, ..MemoryBudget::default() };
        assert!(matches!(zero.to_core(), Err(ConversationError::InvalidOptions { .. })));
    }
}
