#!/usr/bin/env bash
# Runs every fuzz target in fuzz/ for a few seconds each (default 10; first argument). Needs a
# nightly toolchain (installed with rustup when missing) and cargo-fuzz (built once per machine,
# scripts/lib/tools.sh); when either cannot be had it fails, it never skips.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
# shellcheck source=scripts/lib/common.sh
source scripts/lib/common.sh
# shellcheck source=scripts/lib/tools.sh
source scripts/lib/tools.sh
need_nightly
ensure_tools cargo-fuzz
cd fuzz
# Its own target dir: the fuzz build uses sanitizer flags that would invalidate the main one.
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-$PWD/target}"
for target in $(cargo +nightly fuzz list); do
  echo "fuzz smoke: $target (${seconds}s)"
  cargo +nightly fuzz run "$target" -- -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536
done
