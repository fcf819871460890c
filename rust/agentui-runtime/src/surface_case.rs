//! One surface built from A2UI messages alone, in a group made as a conversation makes its own
//! (the basic catalogs, default limits): how the shared renderer cases
//! (tests/renderer-cases, section `v1_0`) give the platforms' renderers the nodes the core
//! resolves from v1.0 wire messages, with no agent in between.

use agentui_a2ui::catalog::CatalogRegistry;
use agentui_a2ui::{Limits, SurfaceDiff, SurfaceGroup};
use serde_json::Value;

/// The reset of the one surface `messages` create: its nodes as a renderer first receives them.
/// Errs with the wire form of the first error the engine reports (a case's messages are meant
/// to be valid, so a refusal is the case's failure, never skipped), or when the messages leave
/// no surface or several.
pub fn surface_from_messages(messages: &[Value]) -> Result<SurfaceDiff, String> {
    let mut group = SurfaceGroup::new(CatalogRegistry::with_basic(), Limits::default());
    for message in messages {
        let outcome = group.process_value(message);
        if let Some(error) = outcome.emitted.first() {
            return Err(format!("the engine refused {message}: {}", error.to_wire()));
        }
    }
    // Messages waiting for a surface that never came are refused now, as at a stream's end.
    if let Some(error) = group.flush_pending().emitted.first() {
        return Err(format!("the engine refused a waiting message: {}", error.to_wire()));
    }
    let mut surfaces = group.surfaces();
    match (surfaces.next(), surfaces.next()) {
        (Some(surface), None) => Ok(surface.snapshot()),
        (None, _) => Err("the messages create no surface".to_owned()),
        (Some(_), Some(_)) => Err("the messages create more than one surface".to_owned()),
    }
}
