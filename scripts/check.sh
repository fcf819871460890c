#!/usr/bin/env bash
# The everyday check: fast, and only what a change can break.
#
#   ./scripts/check.sh              the change since the merge base with main (commits and
#                                   uncommitted files alike)
#   CHECK_BASE=REV ./scripts/check.sh   the change since REV instead
#
# It runs rustfmt and clippy (-D warnings) on the workspace, then the tests (nextest's default
# profile, which leaves out the slow process-spawning suites, and the doctests) of the packages
# whose files changed plus every package that depends on them, and the host-JVM tests only when
# the bindings could have changed: when the Kotlin sources or their shared cases changed, or when
# the Kotlin bindings generated from the new library differ from the ones the last passing JVM
# run tested. The Swift lane (scripts/swift-linux.sh) runs on the same condition with ios/ in
# place of the Kotlin sources, and the Android lane (scripts/android-check.sh) when a file with
# Android-only Rust or Kotlin changed (scripts/lib/affected.py). Never the interop suite, the
# fuzz smoke or the size report: ./scripts/test.sh runs everything, as CI does.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/common.sh
source scripts/lib/common.sh
# shellcheck source=scripts/lib/tools.sh
source scripts/lib/tools.sh

need_cargo
need_shared_data
if ! command -v python3 >/dev/null 2>&1; then
  echo "check.sh needs python3 to read cargo metadata (apt-get install python3)" >&2
  exit 1
fi
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

# ---- what changed ----
base_ref="${CHECK_BASE:-}"
if [ -z "$base_ref" ]; then
  for candidate in origin/main main; do
    if git rev-parse --verify --quiet "$candidate^{commit}" >/dev/null; then
      base_ref="$candidate"
      break
    fi
  done
fi
base=$(git merge-base HEAD "${base_ref:-HEAD}")
changed=$(
  {
    git diff --name-only "$base"
    git ls-files --others --exclude-standard
  } | sort -u
)
mapfile -t changed_files <<<"$changed"
facts=$(cargo metadata --format-version 1 --no-deps --locked | python3 scripts/lib/affected.py "${changed_files[@]}")
packages=$(sed -n 's/^package //p' <<<"$facts")
echo "check: $(grep -c . <<<"$changed" || true) file(s) changed since $(git rev-parse --short "$base")${base_ref:+ ($base_ref)}"
echo "check: packages to test: ${packages:-none}" | tr '\n' ' '
echo

stage_format() {
  need_rust_component rustfmt
  cargo fmt --all -- --check
}

stage_clippy() {
  need_rust_component clippy
  # The whole workspace: clippy re-checks only what changed and what depends on it.
  cargo clippy --workspace --all-targets --locked -- -D warnings
}

stage_tests() {
  local filter="" name
  for name in $packages; do
    filter="${filter:+$filter | }package($name)"
  done
  # Built as `--workspace` (the feature set of every test build, see test.sh), run filtered.
  cargo nextest run --workspace --locked -E "$filter"
  cargo test --workspace --locked --doc
}

# The hash of the Kotlin bindings the new library generates, compared with the hash of those the
# last passing JVM run tested (common.sh).
bindings_new="$TARGET_DIR/check/jvm-bindings.new"
stage_bindings() {
  rm -f "$bindings_new"
  build_host_jvm_bindings
  mkdir -p "$(dirname "$bindings_new")"
  bindings_hash "$HOST_JVM_BINDINGS" >"$bindings_new"
}

stage_jvm() {
  need_maven_jdk
  run_host_jvm_tests -q
  ./scripts/api-dump.sh
}

ensure_tools cargo-nextest

run_timed format stage_format
run_timed clippy stage_clippy
if [ -n "$packages" ]; then
  run_timed tests stage_tests
fi

jvm_reason=""
if grep -qx jvm <<<"$facts"; then
  jvm_reason="the Kotlin sources or their shared cases changed"
fi
if grep -qx 'package agentui-ffi' <<<"$facts" || [ -n "$jvm_reason" ]; then
  run_timed bindings stage_bindings
  if ! cmp -s "$bindings_new" "$JVM_TESTED_BINDINGS"; then
    jvm_reason="${jvm_reason:-the generated Kotlin bindings are not those the last passing JVM run tested}"
  fi
fi
bindings_changed=false
if [ -f "$bindings_new" ] && ! cmp -s "$bindings_new" "$JVM_TESTED_BINDINGS"; then
  bindings_changed=true
fi
if [ -n "$jvm_reason" ]; then
  echo "check: host-JVM tests: $jvm_reason"
  run_timed jvm stage_jvm
else
  echo "check: host-JVM tests not needed: the bindings are those the last passing JVM run tested"
fi
if grep -qx swift <<<"$facts" || [ "$bindings_changed" = true ]; then
  echo "check: Swift lane: ios/ or the bindings changed"
  run_timed swift ./scripts/swift-linux.sh
fi
if grep -qx android <<<"$facts"; then
  echo "check: Android lane: files with Android-only Rust or Kotlin changed"
  run_timed android ./scripts/android-check.sh
fi

print_timings
[ "$FAILED_STAGES" -eq 0 ]
