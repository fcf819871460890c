#!/usr/bin/env bash
# The Android-only code, checked on the host (the `android` stage of scripts/test.sh):
#
#   1. clippy with -D warnings (which type-checks everything) on agentui-ffi and the workspace
#      crates under it, as a phone build has them and with their tests, for
#      aarch64-linux-android and x86_64-linux-android: the JNI entry point, the logcat layer,
#      rustls-platform-verifier's Android module;
#   2. the Kotlin layer with its Android-only source set (AndroidTls, AgentRuntime(context))
#      compiled against Android 14's framework classes, and Robolectric tests that give it a real
#      Context and load the host build of the library (android/host-android).
#
# A CHECK, NEVER A SHIPPING BUILD. There is no NDK here: the C that build scripts compile (ring,
# SQLite) goes to Debian's clang with --target=<triple> over glibc headers (the host's for
# x86_64, libc6-dev-arm64-cross for aarch64) instead of Bionic's. That is enough for them to
# compile, and nothing is linked; a phone's library is built by cargo-ndk with the NDK
# (android/agentui/build.gradle.kts).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/common.sh
source scripts/lib/common.sh

ANDROID_TARGETS=(aarch64-linux-android x86_64-linux-android)

need_android_toolchain() {
  local installed target missing=()
  installed="$(rustup target list --installed)"
  for target in "${ANDROID_TARGETS[@]}"; do
    grep -qx "$target" <<<"$installed" || missing+=("$target")
  done
  [ ${#missing[@]} -eq 0 ] || rustup target add "${missing[@]}"
  local packages=()
  command -v clang >/dev/null 2>&1 || packages+=(clang)
  command -v llvm-ar >/dev/null 2>&1 || packages+=(llvm)
  [ -f /usr/aarch64-linux-gnu/include/stdio.h ] || packages+=(libc6-dev-arm64-cross)
  [ ${#packages[@]} -eq 0 ] || apt_install "${packages[@]}"
}

# cc-rs's per-target variables: clang as the target's C compiler, with the system headers of a
# glibc of the same architecture in place of the NDK's sysroot.
export_android_cc() {
  local resource target var headers
  resource="$(clang -print-resource-dir)"
  for target in "${ANDROID_TARGETS[@]}"; do
    var="${target//-/_}"
    case "$target" in
      aarch64-*) headers="-isystem /usr/aarch64-linux-gnu/include" ;;
      x86_64-*) headers="-isystem /usr/include/x86_64-linux-gnu -isystem /usr/include" ;;
    esac
    export "CC_$var=clang" "AR_$var=llvm-ar"
    export "CFLAGS_$var=-nostdinc -isystem $resource/include $headers"
  done
}

need_android_toolchain
export_android_cc

target_args=()
for target in "${ANDROID_TARGETS[@]}"; do target_args+=(--target "$target"); done
echo "==> clippy on agentui-ffi for ${ANDROID_TARGETS[*]}, as a phone build has it (no features)"
cargo clippy -p agentui-ffi --lib --locked "${target_args[@]}" -- -D warnings
echo "==> the same with its tests (features demo-agent and host-jni)"
cargo clippy -p agentui-ffi --all-targets --locked "${target_args[@]}" -- -D warnings

echo "==> the Android-only Kotlin against Android 14's API, and the Robolectric tests"
need_maven_jdk
build_host_jvm_bindings
mvn -B --no-transfer-progress -Dstyle.color=never -f android/host-android/pom.xml test \
  -Dcargo.target.dir="$TARGET_DIR" -Duniffi.out.dir="$HOST_JVM_BINDINGS"
