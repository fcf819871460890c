#!/usr/bin/env bash
# Runs the project's tests in named stages, each timed, and ends with a table of the stages.
#
#   ./scripts/test.sh                 every stage, in order: what CI runs (.ci/run)
#   ./scripts/test.sh rust interop    only the named stages, in the order given
#   ./scripts/test.sh --list          the stages and what each runs
#
# Works on a fresh machine of the project's kind: it installs what is missing from the package
# registries (Debian packages, crates.io, PyPI, Maven Central). A check that cannot run fails its
# stage; none is skipped. Every stage runs even after one failed, and the exit code is 1 when any
# failed. The everyday inner loop is ./scripts/check.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/common.sh
source scripts/lib/common.sh
# shellcheck source=scripts/lib/tools.sh
source scripts/lib/tools.sh

ALL_STAGES=(lint rust interop jvm swift android fuzz size)

describe() {
  case "$1" in
    lint) echo "rustfmt, clippy and rustdoc with -D warnings, cargo-deny's licence/ban/source policy" ;;
    rust) echo "every Rust test (nextest, profile ci), the doctests and the CommonMark round trip (npm)" ;;
    interop) echo "the interop suite against real Google ADK, LangGraph, Agent Framework, Pydantic AI, Strands and CrewAI servers (Python venvs)" ;;
    jvm) echo "the Kotlin layer, the Compose renderer and the sample screens on the host JVM (Maven), and the public API dump" ;;
    swift) echo "the Swift layer built and every ios/Tests test run on Linux (Swift 6 in a trixie root)" ;;
    android) echo "the Android-only Rust for two Android targets, the Android-only Kotlin, Robolectric" ;;
    fuzz) echo "10 s of each fuzz target (cargo-fuzz, nightly)" ;;
    size) echo "the phone library's size budget (release-small cdylib, cargo-bloat)" ;;
    *) return 1 ;;
  esac
}

# The cargo tools a stage needs (scripts/lib/tools.sh builds them once per machine).
tools_of() {
  case "$1" in
    lint) echo cargo-deny ;;
    rust | interop) echo cargo-nextest ;;
    fuzz) echo cargo-fuzz ;;
    size) echo cargo-bloat ;;
  esac
}

stage_lint() {
  need_rust_component rustfmt
  cargo fmt --all -- --check
  need_rust_component clippy
  cargo clippy --workspace --all-targets --locked -- -D warnings
  RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked
  # Licences compatible with ours, crates.io only, no duplicated big crates (deny.toml).
  cargo deny --locked check licenses bans sources
}

stage_rust() {
  # Every test build of the workspace is `--workspace`, here, in the interop stage and in
  # check.sh: one feature set, so no stage compiles the dependency tree again.
  cargo nextest run --workspace --locked --profile ci
  cargo test --workspace --locked --doc
  # The Markdown tree against the CommonMark spec's examples and its reference (npm).
  ./scripts/commonmark-roundtrip.sh
}

stage_interop() {
  need_python_venv
  # Starts the servers on 127.0.0.1, runs the (ignored by default) interop tests, stops them.
  tests/interop/run.sh
}

stage_jvm() {
  need_maven_jdk
  build_host_jvm_bindings
  run_host_jvm_tests
  # The public Kotlin API of the classes just tested, against the checked-in dumps.
  ./scripts/api-dump.sh
}

stage_swift() {
  ./scripts/swift-linux.sh
}

stage_android() {
  ./scripts/android-check.sh
}

stage_fuzz() {
  ./scripts/fuzz-smoke.sh 10
}

stage_size() {
  ./scripts/size-report.sh
}

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
}

stages=()
for arg in "$@"; do
  case "$arg" in
    -h | --help) usage; exit 0 ;;
    --list)
      for s in "${ALL_STAGES[@]}"; do printf '%-8s %s\n' "$s" "$(describe "$s")"; done
      exit 0
      ;;
    *)
      if ! describe "$arg" >/dev/null; then
        echo "test.sh: no stage named '$arg'; the stages: ${ALL_STAGES[*]}" >&2
        exit 2
      fi
      stages+=("$arg")
      ;;
  esac
done
[ ${#stages[@]} -gt 0 ] || stages=("${ALL_STAGES[@]}")

need_cargo
need_shared_data
warn_if_disk_short 6

# A test run builds everything once: incremental caches would only cost disk. Export
# CARGO_INCREMENTAL=1 to keep them.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

# The tools first, all at once, so that their builds share what they can and show in the table.
needed=()
for s in "${stages[@]}"; do
  for t in $(tools_of "$s"); do
    [[ " ${needed[*]} " == *" $t "* ]] || needed+=("$t")
  done
done
# In this shell, not a stage's subshell: the PATH it sets must reach the stages.
if [ ${#needed[@]} -gt 0 ]; then
  started=$SECONDS
  tools_rc=0
  ensure_tools "${needed[@]}" || tools_rc=$?
  record_stage tools $((SECONDS - started)) "$tools_rc"
  if [ "$tools_rc" -ne 0 ]; then
    print_timings
    exit 1
  fi
fi

for s in "${stages[@]}"; do
  run_timed "$s" "stage_$s"
done
print_timings
[ "$FAILED_STAGES" -eq 0 ]
