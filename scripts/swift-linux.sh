#!/usr/bin/env bash
# The Swift layer on Linux: builds ios/ (AgentUI, AgentUIRendering and the tests; the SwiftUI
# renderer and the iOS sample type-checked against the stand-ins in ios/Sources/Linux*) with
# Debian trixie's Swift, dumps AgentUI's symbol graph (the public API that ApiTableTests compares
# with api/public-api.tsv) and runs every test of ios/Tests against the demo agent.
#
#   ./scripts/swift-linux.sh           prepare, build, test (the `swift` stage of scripts/test.sh)
#   ./scripts/swift-linux.sh --shell   a shell in the Swift root with the checkout at /src
#
# This machine's C library is older than trixie's Swift needs, so Swift runs in a trixie root
# made with `debootstrap --variant=minbase` (a Debian package) and entered with chroot, in a
# mount namespace of its own (unshare): its /proc and the checkout's bind mount vanish when the
# run ends, however it ends. The root is made once per machine (about a minute and 2.7 GB) under
# $AGENTUI_SWIFT_ROOT (default ~/.cache/agentui-swift/), outside the checkout; SwiftPM's build
# folder lives in it too, so a second run only rebuilds what changed.
#
# The core is the host build of agentui-ffi (the workspace's test build, as the jvm stage uses);
# its bindings are generated into ios/build/linux/, which ios/Package.swift's Linux branch reads.
# Needs root (debootstrap, chroot, mounts), as the machines of this project run.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
# shellcheck source=scripts/lib/common.sh
source scripts/lib/common.sh
# shellcheck source=ios/scripts/lib/ffi-module.sh
source ios/scripts/lib/ffi-module.sh

# What the root holds; a change of this line makes a new root (the name carries its hash).
SWIFT_ROOT_PACKAGES="swiftlang,libc6-dev,libstdc++-14-dev"
SWIFT_ROOT_SUITE=trixie
SWIFT_ROOT_MIRROR="${AGENTUI_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
cache="${AGENTUI_SWIFT_ROOT:-$HOME/.cache/agentui-swift}"
root_key=$(echo "$SWIFT_ROOT_SUITE $SWIFT_ROOT_PACKAGES" | sha256sum | cut -c1-12)
root="$cache/$SWIFT_ROOT_SUITE-$root_key"
# SwiftPM's build folder, inside the root so that it outlives the run.
scratch=/var/cache/agentui-swift-build
out="$repo/ios/build/linux"

fail() {
  echo "swift-linux: $*" >&2
  exit 1
}

[ "$(id -u)" = 0 ] || fail "needs root: debootstrap, chroot and mount do (run it as root, as CI does)"
command -v unshare >/dev/null 2>&1 || fail "unshare not found (Debian package util-linux)"

# The trixie root with Swift, made when missing. Made under a temporary name and renamed when
# complete, so an interrupted debootstrap never leaves a root that looks usable.
make_root() {
  # (Not `-x $root/usr/bin/swift`: that is a symbolic link to an absolute path inside the root.)
  [ -f "$root/.agentui-complete" ] && return 0
  command -v debootstrap >/dev/null 2>&1 || apt_install debootstrap
  local partial="$root.partial"
  rm -rf "$partial" "$root"
  mkdir -p "$cache"
  echo "==> debootstrap $SWIFT_ROOT_SUITE with $SWIFT_ROOT_PACKAGES into $root (once per machine)"
  # In a mount namespace of its own: the /proc debootstrap mounts goes with it.
  unshare --mount --propagation private \
    debootstrap --variant=minbase --include="$SWIFT_ROOT_PACKAGES" \
    "$SWIFT_ROOT_SUITE" "$partial" "$SWIFT_ROOT_MIRROR"
  # The downloaded packages are installed; keep 0.5 GB off the disk.
  rm -f "$partial"/var/cache/apt/archives/*.deb
  touch "$partial/.agentui-complete"
  mv "$partial" "$root"
  # Older roots of another package list are no longer used.
  find "$cache" -maxdepth 1 -name "$SWIFT_ROOT_SUITE-*" ! -name "$(basename "$root")" \
    -exec rm -rf {} + 2>/dev/null || true
}

# Copies $1 to $2 only when it differs, so SwiftPM sees unchanged inputs as unchanged.
sync_file() {
  cmp -s "$1" "$2" 2>/dev/null || cp "$1" "$2"
}

# The host library, its Swift bindings and the C module, in ios/build/linux/.
prepare_bindings() {
  build_host_library
  local generated="$out/generated"
  rm -rf "$generated"
  "$TARGET_DIR/debug/uniffi-bindgen" generate --library "$TARGET_DIR/debug/libagentui_ffi.so" \
    --language swift --config uniffi.toml --no-format --out-dir "$generated"
  check_ffi_generated "$generated"
  local staged="$out/staged" dir file
  rm -rf "$staged"
  write_ffi_module "$generated" "$staged/AgentUICoreFFI" agentui_ffi
  copy_ffi_swift "$generated" "$staged/AgentUICore"
  # The test kit's own library (AgentUITesting's), generated the same way; only this lane
  # uses it, and the phone library the size report measures is untouched.
  local kit_generated="$out/kit-generated"
  rm -rf "$kit_generated"
  "$TARGET_DIR/debug/uniffi-bindgen" generate --library "$TARGET_DIR/debug/libagentui_testing.so" \
    --language swift --config uniffi.toml --no-format --out-dir "$kit_generated"
  write_kit_ffi_module "$kit_generated" "$staged/AgentUITestingCoreFFI" "$staged/AgentUITestingCore" agentui_testing
  rm -rf "$kit_generated"
  mkdir -p "$staged/lib"
  cp "$TARGET_DIR/debug/libagentui_ffi.so" "$TARGET_DIR/debug/libagentui_testing.so" "$staged/lib/"
  for dir in AgentUICoreFFI AgentUICore AgentUITestingCoreFFI AgentUITestingCore lib; do
    mkdir -p "$out/$dir"
    for file in "$staged/$dir"/*; do sync_file "$file" "$out/$dir/$(basename "$file")"; done
    # A file the generator no longer writes must not linger.
    for file in "$out/$dir"/*; do [ -e "$staged/$dir/$(basename "$file")" ] || rm -f "$file"; done
  done
  rm -rf "$staged" "$generated"
}

# Runs COMMAND (a bash -c string) in the root as root, with the checkout at /src, /proc and
# /dev, in a mount namespace that ends with it: nothing stays mounted, however the run ends.
in_root() { # command
  mkdir -p "$root/src" "$root$scratch"
  # shellcheck disable=SC2016  # expanded by the inner bash, from its arguments
  unshare --mount --propagation private bash -c '
    set -e
    root="$1" repo="$2" command="$3"
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount --bind "$repo" "$root/src"
    exec chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin \
      TERM="${TERM:-dumb}" LANG=C.UTF-8 TZ=UTC AGENTUI_DEMO_AGENT_URL="${AGENTUI_DEMO_AGENT_URL:-}" \
      AGENTUI_CLI="${AGENTUI_CLI:-}" \
      /bin/bash -c "$command"
  ' in-root "$root" "$repo" "$1"
}

# The demo agent on a free port of 127.0.0.1 (the root shares the host's network); stopped
# when this script exits.
start_demo_agent() {
  local log="$TARGET_DIR/swift-demo-agent.log" url="" _
  "$TARGET_DIR/debug/agentui" serve-demo --port 0 >"$log" 2>&1 &
  demo_pid=$!
  trap 'kill "$demo_pid" 2>/dev/null || true' EXIT
  for _ in $(seq 1 100); do
    url=$(sed -n 's/^demo agent listening on \(http:[^ ]*\) .*/\1/p' "$log")
    [ -n "$url" ] && break
    kill -0 "$demo_pid" 2>/dev/null || fail "the demo agent exited: $(cat "$log")"
    sleep 0.1
  done
  [ -n "$url" ] || fail "the demo agent did not say where it listens: $(cat "$log")"
  export AGENTUI_DEMO_AGENT_URL="$url"
}

if [ "${1:-}" = --shell ]; then
  make_root
  in_root "cd /src/ios && exec bash -i"
  exit
fi

# One run at a time per root: the build folder is shared.
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9

make_root
prepare_bindings
start_demo_agent
# The CLI inside the root, for the kit's replay test that records a run in its setup: the
# checkout's build when the target folder is in the checkout (/src), else a copy beside the bindings.
case "$TARGET_DIR/" in
  "$repo"/*) export AGENTUI_CLI="/src${TARGET_DIR#"$repo"}/debug/agentui" ;;
  *)
    mkdir -p "$out/bin" && sync_file "$TARGET_DIR/debug/agentui" "$out/bin/agentui"
    export AGENTUI_CLI=/src/ios/build/linux/bin/agentui
    ;;
esac

log="$TARGET_DIR/swift-test.log"
swift_flags="--package-path /src/ios --scratch-path $scratch"
# AgentUI's public API as a symbol graph, for the test that checks it against api/public-api.tsv
# (ApiTableTests); the old one goes first, so a failed dump is never read as a current one.
graphs="/src/ios/build/linux/symbolgraph"
dump_api="rm -rf $scratch/*/symbolgraph $graphs && swift package $swift_flags dump-symbol-graph --skip-synthesized-members \
  && mkdir -p $graphs && cp $scratch/*/symbolgraph/AgentUI.symbols.json $graphs/"
in_root "swift build --build-tests $swift_flags && $dump_api && swift test --skip-build $swift_flags" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || fail "swift build or swift test failed (exit $status); the output is in $log"

# Every test method of ios/Tests ran: a test that the Linux XCTest does not discover (a
# synchronous @MainActor method, say) would otherwise go unnoticed.
written=$(cat ios/Tests/*/*.swift | grep -cE '^[[:space:]]*func test[A-Za-z0-9_]*\(')
executed=$(sed -n "s/^Test Suite 'All tests' passed.*//p; s/^[[:space:]]*Executed \([0-9]*\) tests\{0,1\}, with 0 failures.*/\1/p" "$log" | tail -1)
[ "${executed:-0}" -eq "$written" ] ||
  fail "ios/Tests has $written test methods but XCTest executed ${executed:-none}; see $log"
echo "swift-linux: all $written tests of ios/Tests passed"
