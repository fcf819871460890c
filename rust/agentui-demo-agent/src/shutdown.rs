//! The server-wide stop signal, seen by the listener and by every stream in flight (a stalled
//! stream would otherwise hold a graceful shutdown open forever).

use tokio::sync::watch;

/// The sending side, owned by the handle.
#[derive(Debug)]
pub struct ShutdownTrigger(watch::Sender<bool>);

/// A receiver of the stop signal.
#[derive(Debug, Clone)]
pub struct Shutdown(watch::Receiver<bool>);

pub fn channel() -> (ShutdownTrigger, Shutdown) {
    let (tx, rx) = watch::channel(false);
    (ShutdownTrigger(tx), Shutdown(rx))
}

impl ShutdownTrigger {
    pub fn trigger(&self) {
        self.0.send_replace(true);
    }
}

impl Shutdown {
    /// Resolves once the server is stopping (or its handle is gone).
    pub async fn wait(&mut self) {
        // `wait_for` fails only when the trigger was dropped, which also means stop.
        let _ = self.0.wait_for(|stop| *stop).await;
    }
}
