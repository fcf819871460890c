//! Delivery of a subscription to a listener on a thread of its own, in batches. The listener
//! may block that thread: a UI thread that falls behind then makes the subscription's bounded
//! inbox overflow and the subscriber gets a fresh snapshot, instead of memory growing in the
//! app's queue. Blocking a runtime worker instead would stall the conversations' runs.

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use agentui_a2ui::SurfaceDiff;
use tokio::runtime::Handle;
use tokio::sync::{mpsc, oneshot, Notify};

use crate::conversation::{Subscription, SurfaceSubscription};
use crate::observe::Observed;

/// Most items handed over in one call: a batch amortises a foreign call, the bound keeps one
/// call's buffer small.
pub const MAX_BATCH: usize = 1024;

type Next<'a, T> = Pin<Box<dyn Future<Output = Option<T>> + Send + 'a>>;

/// A subscription a [`Forwarder`] drains.
pub trait Source: Send + 'static {
    type Item: Send;
    fn next(&mut self) -> Next<'_, Self::Item>;
    fn ready(&mut self) -> Option<Self::Item>;
}

impl Source for Subscription {
    type Item = Observed;
    fn next(&mut self) -> Next<'_, Observed> {
        Box::pin(self.recv())
    }
    fn ready(&mut self) -> Option<Observed> {
        self.try_recv()
    }
}

impl Source for SurfaceSubscription {
    type Item = SurfaceDiff;
    fn next(&mut self) -> Next<'_, Self::Item> {
        Box::pin(self.recv())
    }
    fn ready(&mut self) -> Option<Self::Item> {
        self.try_recv()
    }
}

/// A forwarding thread. Cancelled by [`Forwarder::cancel`] and on drop.
#[derive(Debug)]
pub struct Forwarder {
    active: Arc<AtomicBool>,
    finished: Arc<AtomicBool>,
    stop: Arc<Notify>,
    flushes: mpsc::UnboundedSender<oneshot::Sender<()>>,
}

impl Forwarder {
    /// Forwards `source` to `deliver` on a new thread; `handle` is the runtime the
    /// subscription's conversation runs on. An error when the system refuses a thread.
    pub fn start<S: Source>(
        handle: &Handle,
        mut source: S,
        deliver: impl Fn(Vec<S::Item>) + Send + 'static,
    ) -> std::io::Result<Forwarder> {
        let (flushes, mut requests) = mpsc::unbounded_channel::<oneshot::Sender<()>>();
        let active = Arc::new(AtomicBool::new(true));
        let finished = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(Notify::new());
        let (still, done, stopped, runtime) = (active.clone(), finished.clone(), stop.clone(), handle.clone());
        let drain = |source: &mut S, batch: &mut Vec<S::Item>| {
            while batch.len() < MAX_BATCH {
                match source.ready() {
                    Some(item) => batch.push(item),
                    None => break,
                }
            }
        };
        let run = move || {
            runtime.block_on(async move {
                loop {
                    let mut batch = Vec::new();
                    let ack = tokio::select! {
                        biased;
                        () = stopped.notified() => break,
                        Some(ack) = requests.recv() => Some(ack),
                        item = source.next() => match item {
                            Some(item) => { batch.push(item); None }
                            None => break,
                        },
                    };
                    loop {
                        drain(&mut source, &mut batch);
                        if batch.is_empty() || !still.load(Ordering::SeqCst) {
                            break;
                        }
                        let full = batch.len() == MAX_BATCH;
                        // A listener's panic stays here; the next batch is delivered as usual.
                        if catch_unwind(AssertUnwindSafe(|| deliver(std::mem::take(&mut batch)))).is_err() {
                            tracing::warn!("a listener panicked; its batch was dropped");
                        }
                        // A flush answers only once all that was ready is delivered.
                        if !(full && ack.is_some()) {
                            break;
                        }
                    }
                    if let Some(ack) = ack {
                        let _ = ack.send(());
                    }
                }
            });
            done.store(true, Ordering::SeqCst);
        };
        std::thread::Builder::new().name("agentui-listener".to_owned()).spawn(run)?;
        Ok(Forwarder { active, finished, stop, flushes })
    }

    /// Stops the deliveries; one in progress finishes, none starts after. Idempotent, never blocks.
    pub fn cancel(&self) {
        self.active.store(false, Ordering::SeqCst);
        self.stop.notify_one();
    }

    pub fn is_active(&self) -> bool {
        self.active.load(Ordering::SeqCst) && !self.finished.load(Ordering::SeqCst)
    }

    /// Returns once every item published before this call has been delivered.
    pub async fn flush(&self) {
        let (ack, done) = oneshot::channel();
        if self.flushes.send(ack).is_ok() {
            // An error means the forwarder ended: nothing is left to deliver.
            let _ = done.await;
        }
    }
}

impl Drop for Forwarder {
    fn drop(&mut self) {
        self.cancel();
    }
}
