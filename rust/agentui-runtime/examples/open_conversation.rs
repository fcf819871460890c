//! Opens one conversation, the A2UI engine included, and exits: the first open in a process,
//! as an app pays it before its first surface shows. For instruction counts
//! (`valgrind --tool=callgrind target/release/examples/open_conversation`) and wall time
//! (docs/benchmarks.md, "Cold start"). Nothing is sent: the agent's address is never reached.
//!
//! With an argument `N`, opens N conversations (the later ones show what an open costs once
//! the process has prepared what it shares).

use agentui_runtime::session::{ConversationSession, SessionOptions};
use agentui_runtime::Conversation;

fn main() {
    let opens: usize = std::env::args().nth(1).map_or(1, |n| n.parse().expect("a count"));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    for _ in 0..opens {
        let session = ConversationSession::connect("http://127.0.0.1:9/agent", &[], SessionOptions::default())
            .expect("a session");
        let conversation = Conversation::start(session, runtime.handle().clone());
        std::hint::black_box(&conversation);
    }
}
