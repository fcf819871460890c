//! Whether the device has a network, as the host says (Android's ConnectivityManager, Apple's
//! NWPathMonitor, a test, the CLI).
//!
//! The transport cannot tell "offline" from "the agent is down"; the platform can. While the
//! host says offline, waits that exist to try the network again (a stream's resumption, the
//! outbox's next delivery) do not spend their attempts, and when it says online again they go
//! at once. One value may be shared by every conversation of an app.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

/// The host's word on the network; online until told otherwise. Cheap to clone; clones share it.
#[derive(Clone)]
pub struct Connectivity {
    online: Arc<watch::Sender<bool>>,
}

impl Default for Connectivity {
    fn default() -> Self {
        Connectivity { online: Arc::new(watch::Sender::new(true)) }
    }
}

impl fmt::Debug for Connectivity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connectivity").field("online", &self.is_online()).finish()
    }
}

impl PartialEq for Connectivity {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.online, &other.online)
    }
}

impl Eq for Connectivity {}

/// Why a wait for the network ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetworkWait {
    /// The wait ran out while the device was online.
    Elapsed,
    /// The host said the network is back: try now.
    BackOnline,
}

impl Connectivity {
    pub fn new() -> Self {
        Self::default()
    }

    /// The host's report. Idempotent: saying online twice wakes nobody twice.
    pub fn set_online(&self, online: bool) {
        self.online.send_if_modified(|now| std::mem::replace(now, online) != online);
    }

    pub fn is_online(&self) -> bool {
        *self.online.borrow()
    }

    /// Waits `wait` while online. Offline, the time does not count: it returns
    /// [`NetworkWait::BackOnline`] as soon as the host says online, however long that takes (the
    /// caller bounds it, e.g. by a cancel). Going offline and back during the wait also returns
    /// `BackOnline`, at once.
    pub async fn wait_or_back_online(&self, wait: Duration) -> NetworkWait {
        let mut rx = self.online.subscribe();
        let sleep = tokio::time::sleep(wait);
        tokio::pin!(sleep);
        let mut was_offline = false;
        loop {
            let online = *rx.borrow_and_update();
            if online && was_offline {
                return NetworkWait::BackOnline;
            }
            was_offline |= !online;
            tokio::select! {
                _ = &mut sleep, if online => return NetworkWait::Elapsed,
                changed = rx.changed() => {
                    // The sender lives in `self`: it cannot close while we wait.
                    if changed.is_err() {
                        return NetworkWait::Elapsed;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::time::Instant;

    #[tokio::test(start_paused = true)]
    async fn online_waits_the_time_offline_waits_for_the_network() {
        let c = Connectivity::new();
        let t0 = Instant::now();
        assert_eq!(c.wait_or_back_online(Duration::from_secs(3)).await, NetworkWait::Elapsed);
        assert_eq!(t0.elapsed(), Duration::from_secs(3));

        c.set_online(false);
        let host = c.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(100)).await;
            host.set_online(true);
        });
        let t0 = Instant::now();
        assert_eq!(c.wait_or_back_online(Duration::from_secs(3)).await, NetworkWait::BackOnline);
        assert_eq!(t0.elapsed(), Duration::from_secs(100), "offline, the 3 s did not run out");
    }

    #[tokio::test(start_paused = true)]
    async fn a_drop_and_return_during_the_wait_ends_it_at_once() {
        let c = Connectivity::new();
        let host = c.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(1)).await;
            host.set_online(false);
            tokio::time::sleep(Duration::from_secs(1)).await;
            host.set_online(true);
        });
        let t0 = Instant::now();
        assert_eq!(c.wait_or_back_online(Duration::from_secs(60)).await, NetworkWait::BackOnline);
        assert_eq!(t0.elapsed(), Duration::from_secs(2));
        assert_eq!(c, c.clone());
        assert_ne!(c, Connectivity::new());
    }
}
