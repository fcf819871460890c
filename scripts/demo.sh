#!/usr/bin/env bash
# The demo: the scripted demo agent runs in-process and a conversation shows text streaming, a
# client tool round trip, an A2UI surface printed as a text tree, and an action round trip.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo not found: install Rust (rustup) first" >&2
  exit 1
fi
# The dev profile, as the tests build: the scripted demo needs no optimiser, and a first run
# compiles in a few minutes instead of the ten of the LTO release build; a test run afterwards
# reuses most of what it compiled. Cargo's progress shows while it compiles.
cargo run --locked -p agentui-cli -- demo
