//! Standard output for every command, and how a command ends when its reader goes away.
//!
//! `agentui ... | head` closes the pipe once `head` has its lines. Rust ignores SIGPIPE, so the
//! next write fails with `BrokenPipe`, and `println!` panics on that with a backtrace. Every
//! write to stdout goes through here instead: a closed pipe ends the process at once, quietly,
//! with [`EXIT_OUTPUT_CLOSED`]; any other write error ends it with a message and status 1.
//!
//! Restoring SIGPIPE's default action would end the process the same way, but it needs
//! `unsafe` libc and it applies to every pipe and socket write: a closed `--header-command`
//! child or a client gone from `serve-demo` would kill the process too, not only stdout.

use std::fmt;
use std::io::{ErrorKind, Write};
use std::sync::Mutex;

/// What must be done before a command ends on a failed write, such as `agentui run --store`
/// writing out what its turn already applied: a closed pipe must not lose stored data.
type ExitHook = Box<dyn FnOnce() + Send>;
static BEFORE_EXIT: Mutex<Vec<ExitHook>> = Mutex::new(Vec::new());

/// Runs `hook` before the process ends on a failed write to stdout.
pub(crate) fn before_exit(hook: impl FnOnce() + Send + 'static) {
    BEFORE_EXIT.lock().unwrap_or_else(|p| p.into_inner()).push(Box::new(hook));
}

/// Runs the registered hooks, then ends the process with `code`.
fn exit(code: i32) -> ! {
    // Taken out first: a hook that writes and fails again must not find the lock held.
    let hooks = std::mem::take(&mut *BEFORE_EXIT.lock().unwrap_or_else(|p| p.into_inner()));
    for hook in hooks {
        hook();
    }
    std::process::exit(code);
}

/// The status of a command whose output was closed: what a shell reports for a process ended
/// by SIGPIPE (128 + 13), so scripts that check for it keep working.
pub(crate) const EXIT_OUTPUT_CLOSED: i32 = 141;

/// Writes `text` to stdout and flushes it, or ends the process ([`failed`]).
pub(crate) fn print(text: fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(text).and_then(|()| out.flush()) {
        failed(&e);
    }
}

/// Ends the process after a failed write to stdout: quietly when the reader went away.
pub(crate) fn failed(error: &std::io::Error) -> ! {
    if error.kind() == ErrorKind::BrokenPipe {
        exit(EXIT_OUTPUT_CLOSED);
    }
    eprintln!("agentui: cannot write the output: {error}");
    exit(1);
}

/// A failed write to stdout as text, or the quiet end when the reader went away.
pub(crate) fn write_error(error: std::io::Error) -> String {
    if error.kind() == ErrorKind::BrokenPipe {
        exit(EXIT_OUTPUT_CLOSED);
    }
    format!("cannot write the output: {error}")
}

/// serde_json's error writing to stdout as text, or the quiet end when the reader went away.
pub(crate) fn json_write_error(error: serde_json::Error) -> String {
    if error.io_error_kind() == Some(ErrorKind::BrokenPipe) {
        exit(EXIT_OUTPUT_CLOSED);
    }
    format!("cannot write the output: {error}")
}

/// `print!` to stdout through [`print()`].
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::print(format_args!($($arg)*)) };
}

/// `println!` to stdout through [`print()`].
macro_rules! outln {
    () => { $crate::output::print(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::output::print(format_args!("{}\n", format_args!($($arg)*))) };
}
