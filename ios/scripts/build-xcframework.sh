#!/usr/bin/env bash
# Builds the Rust core for Apple platforms and lays out the Swift package in ios/:
#   ios/AgentUICoreFFI.xcframework          libagentui_ffi.a per platform + headers + module map
#   ios/Sources/AgentUICore/AgentUICore*.swift the generated Swift bindings, one file per crate
#   ios/AgentUITestingCoreFFI.xcframework   the test kit's libagentui_testing.a (AgentUITesting)
#   ios/Sources/AgentUITestingCore/AgentUITestingCore.swift its bindings
#
# Needs macOS with Xcode (xcodebuild, lipo), rustup and cargo. Neither output is committed.
#
# Usage: ios/scripts/build-xcframework.sh [--release | --debug] [--sim-only] [--macos]
#   --release   optimised for size, cargo profile release-small (default): what docs/size.md measures
#   --speed     optimised for speed, cargo profile release (larger)
#   --debug     unoptimised build, faster to compile
#   --sim-only  only the simulator slice of this Mac's architecture: the quickest loop while
#               working on the core (the package then runs on the simulator only)
#   --macos     also a macOS slice (arm64 + x86_64), for `swift build` / previews on the Mac
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
}

profile=release-small
sim_only=false
with_macos=false
for arg in "$@"; do
  case "$arg" in
    --release) profile=release-small ;;
    --speed) profile=release ;;
    --debug) profile=debug ;;
    --sim-only) sim_only=true ;;
    --macos) with_macos=true ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      echo "unknown option: $arg" >&2
      usage >&2
      exit 2
      ;;
  esac
done

fail() {
  echo "build-xcframework: $*" >&2
  exit 1
}

ios_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="$(cd "$ios_dir/.." && pwd)"
# shellcheck source=ios/scripts/lib/ffi-module.sh
source "$ios_dir/scripts/lib/ffi-module.sh"

# --- Checks: fail early with the fix, before any long build ---------------------------------

[ "$(uname -s)" = "Darwin" ] || fail "this builds iOS libraries and must run on macOS with Xcode (found $(uname -s))."
command -v xcodebuild >/dev/null 2>&1 || fail "xcodebuild not found: install Xcode from the App Store."
xcodebuild -version >/dev/null 2>&1 ||
  fail "xcodebuild does not run (only the Command Line Tools are selected?): sudo xcode-select -s /Applications/Xcode.app"
command -v lipo >/dev/null 2>&1 || fail "lipo not found: install Xcode and its command line tools."
command -v cargo >/dev/null 2>&1 || fail "cargo not found: install Rust with rustup (https://rustup.rs)."
command -v rustup >/dev/null 2>&1 || fail "rustup not found: the Apple targets are installed with rustup (https://rustup.rs)."

case "$(uname -m)" in
  arm64) host_sim_target=aarch64-apple-ios-sim ;;
  x86_64) host_sim_target=x86_64-apple-ios ;;
  *) fail "unexpected Mac architecture $(uname -m)" ;;
esac

if [ "$sim_only" = true ]; then
  targets=("$host_sim_target")
else
  targets=(aarch64-apple-ios aarch64-apple-ios-sim x86_64-apple-ios)
fi
if [ "$with_macos" = true ]; then
  targets+=(aarch64-apple-darwin x86_64-apple-darwin)
fi

installed="$(rustup target list --installed)"
# A plain string, not an array: macOS's bash 3.2 treats an empty array as unset under set -u.
missing=""
for target in "${targets[@]}"; do
  grep -qx "$target" <<<"$installed" || missing="$missing $target"
done
if [ -n "$missing" ]; then
  fail "missing Rust targets; install them with:
  rustup target add$missing"
fi

# --- Build ------------------------------------------------------------------------------------

# The deployment targets of Package.swift, so the linker does not warn about newer objects.
export IPHONEOS_DEPLOYMENT_TARGET=15.0
export MACOSX_DEPLOYMENT_TARGET=12.0

target_dir="${CARGO_TARGET_DIR:-$root/target}"
# Only the static library: agentui-ffi also declares a Rust `lib` (for its tests) and a cdylib,
# and when rustc emits an rlib in the same run, link-time optimisation must keep every public Rust
# function of every crate, which leaves much more code in the other outputs (docs/size.md,
# "Crate types"). One `cargo rustc` per target; the host-side build scripts compile in the first
# and are reused by the next.
build_args=(rustc --locked -p agentui-ffi --lib --crate-type staticlib)
[ "$profile" != debug ] && build_args+=(--profile "$profile")

# The test kit's own library (agentui-testing-ffi), apart from the phone library: only an app's
# test targets link it, through the AgentUITesting product.
kit_build_args=(rustc --locked -p agentui-testing-ffi --lib --crate-type staticlib)
[ "$profile" != debug ] && kit_build_args+=(--profile "$profile")

cd "$root"
for target in "${targets[@]}"; do
  echo "==> cargo ${build_args[*]} --target $target"
  cargo "${build_args[@]}" --target "$target"
  echo "==> cargo ${kit_build_args[*]} --target $target"
  cargo "${kit_build_args[@]}" --target "$target"
done

lib() { # target [library name]
  echo "$target_dir/$1/$profile/lib${2:-agentui_ffi}.a"
}

work="$ios_dir/build"
rm -rf "$work"
mkdir -p "$work"

# One library per platform: the two simulator architectures share a slice. Prints the paths.
platform_libraries() { # library name
  local name="$1"
  if [ "$sim_only" = true ]; then
    lib "$host_sim_target" "$name"
  else
    lib aarch64-apple-ios "$name"
    mkdir -p "$work/ios-simulator"
    lipo -create "$(lib aarch64-apple-ios-sim "$name")" "$(lib x86_64-apple-ios "$name")" \
      -output "$work/ios-simulator/lib$name.a"
    echo "$work/ios-simulator/lib$name.a"
  fi
  if [ "$with_macos" = true ]; then
    mkdir -p "$work/macos"
    lipo -create "$(lib aarch64-apple-darwin "$name")" "$(lib x86_64-apple-darwin "$name")" \
      -output "$work/macos/lib$name.a"
    echo "$work/macos/lib$name.a"
  fi
}
echo "==> lipo: the simulator (and macOS) slices"
# Through files, not process substitutions: a failing lipo then stops the script (set -e).
platform_libraries agentui_ffi >"$work/libraries.txt"
platform_libraries agentui_testing >"$work/kit-libraries.txt"
libraries=()
while IFS= read -r library; do libraries+=("$library"); done <"$work/libraries.txt"
kit_libraries=()
while IFS= read -r library; do kit_libraries+=("$library"); done <"$work/kit-libraries.txt"

# --- Bindings ---------------------------------------------------------------------------------

# Library mode reads the interface from the built library itself; any one slice will do.
echo "==> uniffi-bindgen generate --language swift"
cargo run --locked -q -p uniffi-bindgen -- generate \
  --library "${libraries[0]}" \
  --language swift \
  --config "$root/uniffi.toml" \
  --out-dir "$work/generated" \
  --no-format

check_ffi_generated "$work/generated" || fail "the bindings are incomplete"

# Headers in a folder named after the module: SwiftPM copies every XCFramework's headers into
# one include directory, where two packages' root module.modulemap files would collide.
headers="$work/headers"
write_ffi_module "$work/generated" "$headers/AgentUICoreFFI"

# --- XCFramework ------------------------------------------------------------------------------

xcframework="$ios_dir/AgentUICoreFFI.xcframework"
rm -rf "$xcframework"
args=()
for library in "${libraries[@]}"; do
  args+=(-library "$library" -headers "$headers")
done
echo "==> xcodebuild -create-xcframework"
xcodebuild -create-xcframework "${args[@]}" -output "$xcframework"

copy_ffi_swift "$work/generated" "$ios_dir/Sources/AgentUICore"

# --- The test kit's XCFramework and bindings ----------------------------------------------------

echo "==> uniffi-bindgen generate --language swift (the test kit)"
cargo run --locked -q -p uniffi-bindgen -- generate \
  --library "${kit_libraries[0]}" \
  --language swift \
  --config "$root/uniffi.toml" \
  --out-dir "$work/kit-generated" \
  --no-format
kit_headers="$work/kit-headers"
write_kit_ffi_module "$work/kit-generated" "$kit_headers/AgentUITestingCoreFFI" "$ios_dir/Sources/AgentUITestingCore" ||
  fail "the test kit's bindings are incomplete"
kit_xcframework="$ios_dir/AgentUITestingCoreFFI.xcframework"
rm -rf "$kit_xcframework"
args=()
for library in "${kit_libraries[@]}"; do
  args+=(-library "$library" -headers "$kit_headers")
done
echo "==> xcodebuild -create-xcframework (the test kit)"
xcodebuild -create-xcframework "${args[@]}" -output "$kit_xcframework"

echo
echo "Done ($profile$([ "$sim_only" = true ] && echo ", simulator only")):"
echo "  $xcframework"
echo "  $ios_dir/Sources/AgentUICore/AgentUICore*.swift"
echo "  $kit_xcframework (the test kit, AgentUITesting)"
echo "  $ios_dir/Sources/AgentUITestingCore/AgentUITestingCore.swift"
echo "Open ios/Package.swift in Xcode, or add ios/ as a local package to an app."
