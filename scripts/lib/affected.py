#!/usr/bin/env python3
"""Which workspace packages a change touches, for scripts/check.sh.

Reads `cargo metadata --no-deps` on stdin and the changed files (paths from the repository root)
as arguments. Prints one line per fact:

    package NAME    a package whose files changed, or one that depends on one (dev-dependencies
                    too), transitively: its tests are what the change can break
    jvm             the Kotlin layer, its tests or their shared data changed
    swift           the Swift package, its tests or their shared data changed
    android         a file with Android-only Rust or Kotlin, or their Robolectric tests, changed
    all             a build input of every package changed (the workspace manifest, the lock file,
                    cargo or nextest configuration): every package is affected

A file outside every package and not a build input (scripts) affects nothing here, and neither
does Markdown anywhere: no build includes it and no test reads it.
"""

import json
import os
import sys

# Paths whose change affects every package's build or tests.
WORKSPACE_INPUTS = ("Cargo.toml", "Cargo.lock", ".cargo/", ".config/", "rust-toolchain", "uniffi.toml")
# Paths the host-JVM stage reads besides the generated bindings.
JVM_INPUTS = ("android/", "tests/renderer-cases/", "tests/adapter-cases/", "uniffi.toml")
# Paths the Swift lane (scripts/swift-linux.sh) reads besides the generated bindings.
SWIFT_INPUTS = (
    "ios/", "tests/renderer-cases/", "tests/adapter-cases/", "tests/timeline-cases/", "uniffi.toml",
    "scripts/swift-linux.sh", "api/public-api.tsv",
)
# Paths the Android lane (scripts/android-check.sh) checks: where the Android-only Rust is (the
# JNI entry point and logcat in agentui-ffi, the TLS transport) and the Android-only Kotlin.
ANDROID_INPUTS = (
    "rust/agentui-ffi/",
    "rust/agentui-agui/src/transport/",
    "android/agentui/src/",
    "android/host-android/",
    "scripts/android-check.sh",
)


def main() -> None:
    metadata = json.load(sys.stdin)
    root = metadata["workspace_root"]
    members = set(metadata["workspace_members"])
    packages = [p for p in metadata["packages"] if p["id"] in members]
    dirs = {p["name"]: os.path.relpath(os.path.dirname(p["manifest_path"]), root) for p in packages}

    # Reverse edges between workspace members: who depends on whom, by path dependency.
    by_dir = {os.path.normpath(os.path.dirname(p["manifest_path"])): p["name"] for p in packages}
    dependents = {p["name"]: set() for p in packages}
    for p in packages:
        for dep in p["dependencies"]:
            target = by_dir.get(os.path.normpath(dep.get("path") or ""))
            if target and target != p["name"]:
                dependents[target].add(p["name"])

    changed = set()
    everything = False
    jvm = swift = android = False
    for path in sys.argv[1:]:
        if path.endswith(".md"):
            continue
        if path.startswith(WORKSPACE_INPUTS):
            everything = True
        if path.startswith(JVM_INPUTS):
            jvm = True
        if path.startswith(SWIFT_INPUTS):
            swift = True
        if path.startswith(ANDROID_INPUTS):
            android = True
        # The deepest package folder holding the file (tests/interop sits inside no other).
        owner = max(
            (name for name, d in dirs.items() if path.startswith(d + "/")),
            key=lambda name: len(dirs[name]),
            default=None,
        )
        if owner:
            changed.add(owner)

    affected = set(dirs) if everything else set()
    queue = list(changed)
    while queue:
        name = queue.pop()
        if name not in affected:
            affected.add(name)
            queue.extend(dependents[name])

    if everything:
        print("all")
    if jvm:
        print("jvm")
    if swift:
        print("swift")
    if android:
        print("android")
    for name in sorted(affected):
        print("package", name)


if __name__ == "__main__":
    main()
