//! A cancellation handle for a run in flight.
//!
//! Built on `tokio::sync::watch` rather than `tokio_util::sync::CancellationToken` so the crate
//! needs no extra dependency: one flag, observed by any number of waiters, set once.

use std::sync::Arc;

use tokio::sync::watch;

/// Cheap to clone; every clone observes and can trigger the same cancellation.
#[derive(Debug, Clone)]
pub struct CancelToken {
    flag: Arc<watch::Sender<bool>>,
}

impl Default for CancelToken {
    fn default() -> Self {
        CancelToken { flag: Arc::new(watch::Sender::new(false)) }
    }
}

impl CancelToken {
    pub fn new() -> Self {
        Self::default()
    }

    /// Request cancellation. Idempotent.
    pub fn cancel(&self) {
        self.flag.send_replace(true);
    }

    pub fn is_cancelled(&self) -> bool {
        *self.flag.borrow()
    }

    /// Resolves once [`cancel`](Self::cancel) has been called (immediately if it already was).
    pub async fn cancelled(&self) {
        let mut rx = self.flag.subscribe();
        // The sender lives in `self`, so the channel cannot close while we wait.
        let _ = rx.wait_for(|cancelled| *cancelled).await;
    }
}
