#!/usr/bin/env bash
# Runs every fuzz target in fuzz/ for a few seconds each (default 10; first argument). Needs a
# nightly toolchain and cargo-fuzz; without a nightly toolchain it says so and exits 0, so a
# machine without one never fails for it. cargo-fuzz is installed from crates.io when missing.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${1:-10}"
toolchains="$(rustup toolchain list 2>/dev/null || true)"
if ! grep -q '^nightly' <<<"$toolchains"; then
  echo "fuzz smoke skipped: no nightly toolchain"
  exit 0
fi
if ! cargo fuzz --help >/dev/null 2>&1; then
  if ! cargo install cargo-fuzz --locked >/dev/null 2>&1; then
    echo "fuzz smoke skipped: cargo-fuzz could not be installed"
    exit 0
  fi
fi
# Its own target dir: the fuzz build uses sanitizer flags that would invalidate the main one.
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-$PWD/target}"
for target in $(cargo +nightly fuzz list); do
  echo "fuzz smoke: $target (${seconds}s)"
  cargo +nightly fuzz run "$target" -- -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536
done
