//! Event decode + verify + reduce (and the A2UI bridge) on an arbitrary SSE body under a small
//! memory budget: never a panic, and the state never exceeds its bound.
#![no_main]

use agentui_runtime::SurfaceBudget;
use agentui_runtime::a2ui_bridge::{A2uiBridge, BridgeLimits};
use agentui_agui::{ConversationState, EventPipeline, Limits, MemoryBudget, PipelineOptions, SseDecoder};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let budget = MemoryBudget {
        max_message_bytes: 64 * 1024,
        max_state_bytes: 64 * 1024,
        max_patch_result_bytes: 64 * 1024,
        max_data_model_bytes: 64 * 1024,
        max_total_data_model_bytes: 128 * 1024,
        max_template_instances: 1_000,
        max_components_per_surface: 200,
        max_run_content_bytes: 256 * 1024,
        max_attachment_bytes: 64 * 1024,
        max_message_attachment_bytes: 128 * 1024,
        max_conversation_media_bytes: 256 * 1024,
        max_received_media_parts: 8,
        max_markdown_depth: 8,
        max_markdown_nodes: 1_024,
        max_markdown_table_cells: 256,
        max_markdown_parse_bytes: 16 * 1024,
    };
    let options = PipelineOptions { limits: budget.agui_limits(Limits::default()), ..PipelineOptions::default() };
    let mut pipeline = EventPipeline::new(ConversationState::new(Vec::new(), None), &options);
    let group = agentui_a2ui::SurfaceGroup::new(
        agentui_a2ui::catalog::CatalogRegistry::with_basic(),
        budget.a2ui_limits(agentui_a2ui::Limits::default()),
    );
    let mut bridge = A2uiBridge::with_limits(group, budget.bridge_limits(BridgeLimits::default()));
    let mut decoder = SseDecoder::new(budget.sse_limits());
    let mut datas = Vec::new();
    let _ = decoder.push_with(data, |e| datas.push(e.data));
    let _ = decoder.finish_with(|e| datas.push(e.data));
    for d in &datas {
        match pipeline.push_str(d) {
            Ok(events) => {
                for e in &events {
                    bridge.on_event(e);
                }
            }
            Err(_) => break,
        }
    }
    let state = pipeline.conversation().state();
    assert!(agentui_a2ui::size::weight(state) <= budget.max_state_bytes.max(agentui_a2ui::size::VALUE_WEIGHT * 2));
});
