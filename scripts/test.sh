#!/usr/bin/env bash
# Runs every test of the project. Works on a fresh machine of the project's kind: it checks the
# toolchain and installs what is missing from the package registries.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo not found: install Rust (rustup) first" >&2
  exit 1
fi
if [ ! -d ../shared/conformance ]; then
  echo "../shared/conformance is missing: the conformance data must sit beside the repository" >&2
  exit 1
fi

# A run on a clean clone leaves about 8 GB of build output; say so up front when the disk is
# short, so that a "No space left on device" late in the run is not a mystery.
free_kb=$(df -Pk . 2>/dev/null | awk 'NR == 2 { print $4 }') || free_kb=""
if [ -n "$free_kb" ] && [ "$free_kb" -lt $((9 * 1024 * 1024)) ]; then
  echo "warning: $((free_kb / 1024)) MB free here; a run from a clean clone needs about 8 GB" >&2
fi

# A test run builds everything once: incremental caches would only cost disk (2 GB on a clean
# run, where CI once ran out of space). Export CARGO_INCREMENTAL=1 to keep them.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

# Formatting is part of the contract: a diff here fails the run.
if rustup component list --installed 2>/dev/null | grep -q rustfmt; then
  cargo fmt --all -- --check
fi

# Lints and docs are part of the contract too: a warning fails the run.
if cargo clippy --version >/dev/null 2>&1 || rustup component add clippy >/dev/null 2>&1; then
  cargo clippy --workspace --all-targets --locked -- -D warnings
else
  echo "clippy is not installed and cannot be added: the lint gate is skipped" >&2
fi
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

# Dependency policy (deny.toml): licences compatible with ours, crates.io only, no duplicated
# big crates. cargo-deny is built from crates.io once per machine.
if ! command -v cargo-deny >/dev/null 2>&1; then
  cargo install --locked cargo-deny --version 0.20.2
fi
cargo deny --locked check licenses bans sources

cargo test --workspace --locked

# Interop with the agent servers people run: google-adk + ag-ui-adk and langgraph +
# ag-ui-langgraph on PyPI, with scripted fake models, started on 127.0.0.1 by the script. The
# venv is built under target/ from tests/interop/requirements.lock and kept between runs.
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq python3 python3-venv >/dev/null
  else
    echo "Python 3.11+ with venv is needed for the interop tests" >&2
    exit 1
  fi
fi
tests/interop/run.sh

# Kotlin layer on the host JVM: builds the cdylib, generates the bindings, compiles the layer
# and runs its JUnit tests against the in-process demo agent.
if ! command -v mvn >/dev/null 2>&1 || ! command -v javac >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq maven openjdk-17-jdk-headless >/dev/null
  else
    echo "Maven and a JDK 17 are needed for the host-JVM tests" >&2
    exit 1
  fi
fi
mvn -B --no-transfer-progress -f android/host-jvm/pom.xml test -Dcargo.target.dir="${CARGO_TARGET_DIR:-$PWD/target}"

# Fuzz smoke: a few seconds of each target in fuzz/, only where a nightly toolchain exists (the
# script says so and exits 0 otherwise, so its absence never fails a run).
./scripts/fuzz-smoke.sh 10

# Size budget of the phone library: builds the stripped release-small cdylib (2 to 10 minutes cold
# on a 2-core machine, depending on its load; under a minute warm), prints where its code goes by
# crate (cargo-bloat, built from crates.io once per machine) and fails when its size without ICU4X
# is over the budget set in the script.
./scripts/size-report.sh
