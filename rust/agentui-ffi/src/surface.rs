//! A live view of one A2UI surface: its resolved nodes, a diff subscription, user input.

use std::sync::Arc;

use crate::conversation::ConversationInner;
use crate::error::{ConversationError, ListenerError, SurfaceError};
use crate::node::{records, ResolvedNodeRecord, SurfaceDiffRecord};
use crate::update::ActionResultRecord;
use crate::value::NodeValue;
use crate::view::SubscriptionHandle;

/// Receives a surface's diffs, in order, on a runtime thread. The first is a full `Reset`.
#[uniffi::export(foreign)]
pub trait SurfaceListener: Send + Sync {
    fn on_diff(&self, diff: SurfaceDiffRecord) -> Result<(), ListenerError>;
}

/// One surface of a conversation, by id. It stays valid after the agent deletes the surface
/// (then it has no nodes) and follows the surface if the agent creates it again.
#[derive(uniffi::Object)]
pub struct Surface {
    conversation: Arc<ConversationInner>,
    id: String,
    catalog_id: String,
}

impl std::fmt::Debug for Surface {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Surface").field("id", &self.id).field("catalog_id", &self.catalog_id).finish()
    }
}

impl Surface {
    pub(crate) fn new(conversation: Arc<ConversationInner>, id: String, catalog_id: String) -> Self {
        Surface { conversation, id, catalog_id }
    }
}

#[uniffi::export]
impl Surface {
    pub fn id(&self) -> String {
        self.id.clone()
    }

    pub fn catalog_id(&self) -> String {
        self.catalog_id.clone()
    }

    /// Whether the surface currently exists (the agent may have deleted it).
    pub fn exists(&self) -> bool {
        self.conversation.published.view().surface(&self.id).is_some()
    }

    /// The root node's id, once the root component arrived.
    pub fn root_id(&self) -> Option<String> {
        self.conversation.published.view().surface(&self.id)?.root.clone()
    }

    /// Every node, depth-first from the root as last published.
    pub fn nodes(&self) -> Vec<ResolvedNodeRecord> {
        let nodes = match self.conversation.published.view().surface(&self.id) {
            Some(view) => view.nodes.clone(),
            None => return Vec::new(),
        };
        // Converted outside the lock: only the `Arc`s were copied under it.
        records(&nodes)
    }

    pub fn node(&self, node_id: String) -> Option<ResolvedNodeRecord> {
        let node = self.conversation.published.view().surface(&self.id)?.node(&node_id)?.clone();
        Some(node.as_ref().into())
    }

    /// The current state as a `Reset`.
    pub fn snapshot(&self) -> SurfaceDiffRecord {
        let (root, nodes) = match self.conversation.published.view().surface(&self.id) {
            Some(view) => (view.root.clone(), view.nodes.clone()),
            None => (None, Vec::new()),
        };
        SurfaceDiffRecord::Reset { root, nodes: records(&nodes) }
    }

    /// Diffs from now on; the first is a `Reset` of the current nodes. Fails if the surface
    /// no longer exists.
    pub fn subscribe(&self, listener: Arc<dyn SurfaceListener>) -> Result<Arc<SubscriptionHandle>, SurfaceError> {
        self.conversation
            .published
            .subscribe_surface(&self.id, move |diff| {
                if let Err(e) = listener.on_diff((&diff).into()) {
                    tracing::warn!(error = %e, "surface listener failed");
                }
            })
            .ok_or_else(|| SurfaceError::UnknownSurface { surface_id: self.id.clone() })
    }

    /// Writes user input at `path` (absolute JSON Pointer) of this surface's data model.
    pub fn set_value(&self, path: String, value: NodeValue) -> Result<(), SurfaceError> {
        self.conversation.set_value(&self.id, &path, &value)
    }

    /// A user gesture on one of this surface's nodes (see `Conversation::dispatch_action`).
    pub async fn dispatch_action(&self, node_id: String) -> Result<ActionResultRecord, ConversationError> {
        self.conversation.dispatch_action(self.id.clone(), node_id).await
    }
}
