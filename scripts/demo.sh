#!/usr/bin/env bash
# The demo: renders the bundled booking-form surface as a text tree, then shows the resolved
# nodes the native renderers receive and what a broken agent payload gets back.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release -p agentui-cli
bin=target/release/agentui
echo "== agentui a2ui tree examples/a2ui/booking-form.json"
"$bin" a2ui tree examples/a2ui/booking-form.json
echo
echo "== agentui a2ui validate examples/a2ui/broken-agent.jsonl (what the agent is told)"
"$bin" a2ui validate examples/a2ui/broken-agent.jsonl || true
