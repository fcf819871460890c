# Shared by scripts/test.sh and scripts/check.sh: prerequisites (installed when missing, or a
# loud failure), the workspace's target folder, and timed stages with a closing table.
# shellcheck shell=bash

need_cargo() {
  if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install Rust (rustup) first" >&2
    exit 1
  fi
}

need_shared_data() {
  if [ ! -d ../shared/conformance ]; then
    echo "../shared/conformance is missing: the conformance data must sit beside the repository" >&2
    exit 1
  fi
}

# Says up front when the disk is short, so that a "No space left on device" late in a run is no
# mystery. A warning only: free space on a shared disk moves.
warn_if_disk_short() { # GB a run needs
  local free_kb
  free_kb=$(df -Pk . 2>/dev/null | awk 'NR == 2 { print $4 }') || free_kb=""
  if [ -n "$free_kb" ] && [ "$free_kb" -lt $(($1 * 1024 * 1024)) ]; then
    echo "warning: $((free_kb / 1024)) MB free here; a run from a clean clone needs about $1 GB" >&2
  fi
}

# A rustup component of the active toolchain (rustfmt, clippy), added when missing.
need_rust_component() {
  if ! rustup component list --installed 2>/dev/null | grep -q "^$1"; then
    rustup component add "$1" || {
      echo "$1 is not installed and rustup could not add it" >&2
      return 1
    }
  fi
}

# The fuzz smoke needs a nightly toolchain (cargo-fuzz's sanitizer flags).
need_nightly() {
  if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    rustup toolchain install nightly --profile minimal || {
      echo "no nightly toolchain, and rustup could not install one: the fuzz smoke cannot run" >&2
      return 1
    }
  fi
}

# Debian packages, installed when a command is missing (the machine's user is root).
apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$* needed, and there is no apt-get to install it" >&2
    return 1
  fi
  apt-get update -qq && apt-get install -y -qq "$@" >/dev/null
}

need_python_venv() {
  if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
    apt_install python3 python3-venv
  fi
}

need_maven_jdk() {
  if ! command -v mvn >/dev/null 2>&1 || ! command -v javac >/dev/null 2>&1; then
    apt_install maven openjdk-17-jdk-headless
  fi
}

# Where cargo puts its output ($CARGO_TARGET_DIR, or the workspace's target/), absolute.
TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
case "$TARGET_DIR" in /*) ;; *) TARGET_DIR="$PWD/$TARGET_DIR" ;; esac

# The host cdylib with the demo agent (agentui-ffi's tests enable it), uniffi-bindgen and the
# agentui CLI, built in the feature set of the workspace's test build (`cargo test --workspace`),
# so that after the rust stage nothing compiles; `--lib` makes the libraries root units, copied to
# $TARGET_DIR/debug. (The pom's own `cargo build -p agentui-ffi --features demo-agent`, for a bare
# `mvn`, resolves features for that one package and would compile a third of the tree again.)
build_host_library() {
  cargo build --workspace --locked --lib --bins --tests
}

# The host library, then its Kotlin bindings, generated into $HOST_JVM_BINDINGS (emptied first).
HOST_JVM_BINDINGS="$TARGET_DIR/host-jvm-bindings"
build_host_jvm_bindings() {
  build_host_library
  rm -rf "$HOST_JVM_BINDINGS"
  mkdir -p "$HOST_JVM_BINDINGS"
  "$TARGET_DIR/debug/uniffi-bindgen" generate --library "$TARGET_DIR/debug/libagentui_ffi.so" \
    --language kotlin --config uniffi.toml --no-format --out-dir "$HOST_JVM_BINDINGS"
  # The test kit's own library (dev.agentui.testing.core), beside the phone library's bindings.
  "$TARGET_DIR/debug/uniffi-bindgen" generate --library "$TARGET_DIR/debug/libagentui_testing.so" \
    --language kotlin --config uniffi.toml --no-format --out-dir "$HOST_JVM_BINDINGS"
}

# A hash of the bindings in folder $1: what check.sh compares to decide whether the JVM tests
# must run again.
bindings_hash() {
  find "$1" -type f -print0 | sort -z | xargs -0 cat | sha256sum | cut -d' ' -f1
}

# The hash of the bindings the last passing host-JVM run tested (test.sh's or check.sh's).
JVM_TESTED_BINDINGS="$TARGET_DIR/check/jvm-bindings.tested"

# The host-JVM tests on that library and those bindings (`-Dskip.cargo=true`: the pom builds and
# generates nothing itself); when they pass, the bindings' hash is recorded.
# shellcheck disable=SC2120  # the Maven options are optional
run_host_jvm_tests() { # [maven options...]
  local hash
  hash=$(bindings_hash "$HOST_JVM_BINDINGS")
  mvn -B --no-transfer-progress -Dstyle.color=never -f android/host-jvm/pom.xml test "$@" \
    -Dcargo.target.dir="$TARGET_DIR" -Dskip.cargo=true -Duniffi.out.dir="$HOST_JVM_BINDINGS"
  mkdir -p "$(dirname "$JVM_TESTED_BINDINGS")"
  echo "$hash" >"$JVM_TESTED_BINDINGS"
}

# ---- timed stages ----

STAGE_ROWS=()
FAILED_STAGES=0

# Runs "$@" as stage NAME in a subshell with errexit (a failing command ends the stage), and
# records its wall time and result for print_timings. Returns 0 either way: call it as a plain
# command, never on the left of `||` or in an `if`, where bash ignores errexit all the way down.
run_timed() { # name command...
  local name="$1" started rc=0
  shift
  started=$SECONDS
  echo
  echo "==== $name ($(date -u +%H:%M:%S))"
  # errexit is ignored inside anything that is the left side of `||`, a subshell included: so
  # the stage runs as a plain command, with errexit off around it only.
  set +e
  (
    set -euo pipefail
    "$@"
  )
  rc=$?
  set -e
  record_stage "$name" $((SECONDS - started)) "$rc"
}

record_stage() { # name seconds exit-code
  local result=ok
  if [ "$3" -ne 0 ]; then
    result="FAILED (exit $3)"
    FAILED_STAGES=$((FAILED_STAGES + 1))
  fi
  # On a line of its own even when the stage's last output ended without a newline.
  printf '\n==== %s: %s in %s\n' "$1" "$result" "$(format_duration "$2")"
  STAGE_ROWS+=("$1|$2|$result")
}

format_duration() {
  printf '%dm %02ds' $(($1 / 60)) $(($1 % 60))
}

print_timings() {
  local row name took result total=0
  echo
  printf '%-10s %9s  %s\n' stage time result
  for row in "${STAGE_ROWS[@]}"; do
    IFS='|' read -r name took result <<<"$row"
    total=$((total + took))
    printf '%-10s %9s  %s\n' "$name" "$(format_duration "$took")" "$result"
  done
  printf '%-10s %9s  %s\n' total "$(format_duration "$total")" \
    "$([ "$FAILED_STAGES" -eq 0 ] && echo ok || echo "$FAILED_STAGES failed")"
}
