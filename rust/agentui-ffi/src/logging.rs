//! Diagnostics through `tracing`: stderr on hosts, logcat on Android. Nothing is logged until
//! the app calls `set_log_level`. Header values and tool arguments are never logged, and
//! nothing above `DEBUG` carries message text or tool results.

use std::sync::OnceLock;

use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::{reload, Registry};

#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum LogLevel {
    Off,
    Error,
    Warn,
    Info,
    Debug,
    Trace,
}

impl From<LogLevel> for LevelFilter {
    fn from(level: LogLevel) -> Self {
        match level {
            LogLevel::Off => LevelFilter::OFF,
            LogLevel::Error => LevelFilter::ERROR,
            LogLevel::Warn => LevelFilter::WARN,
            LogLevel::Info => LevelFilter::INFO,
            LogLevel::Debug => LevelFilter::DEBUG,
            LogLevel::Trace => LevelFilter::TRACE,
        }
    }
}

/// `None` when the process already had a global subscriber: the app's own logging wins.
static FILTER: OnceLock<Option<reload::Handle<LevelFilter, Registry>>> = OnceLock::new();

#[cfg(not(target_os = "android"))]
fn output(
) -> impl tracing_subscriber::Layer<tracing_subscriber::layer::Layered<reload::Layer<LevelFilter, Registry>, Registry>>
{
    tracing_subscriber::fmt::layer().with_writer(std::io::stderr).with_ansi(false)
}

// Unverified here (no Android toolchain in this workspace's CI): logcat through
// tracing-android, tag "agentui".
#[cfg(target_os = "android")]
fn output(
) -> impl tracing_subscriber::Layer<tracing_subscriber::layer::Layered<reload::Layer<LevelFilter, Registry>, Registry>>
{
    tracing_android::layer("agentui").ok()
}

fn install(level: LevelFilter) -> Option<reload::Handle<LevelFilter, Registry>> {
    let (filter, handle) = reload::Layer::new(level);
    let subscriber = Registry::default().with(filter).with(output());
    tracing::subscriber::set_global_default(subscriber).ok()?;
    Some(handle)
}

/// Sets the library's log level; the first call installs the log output.
#[uniffi::export]
pub fn set_log_level(level: LogLevel) {
    let filter = LevelFilter::from(level);
    if let Some(handle) = FILTER.get_or_init(|| install(filter)) {
        // Fails only if the subscriber is gone, and it is global: nothing to do then.
        let _ = handle.modify(|current| *current = filter);
    }
}
