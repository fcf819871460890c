//! Generates the Kotlin and Swift bindings in library mode, with the repository's
//! `uniffi.toml`, exactly as the documented commands do, and checks what comes out.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// Builds `args` and returns each artifact file cargo reports, with its target's name; test
/// harnesses left out.
fn build(args: &[&str]) -> Vec<(String, PathBuf)> {
    let mut command = Command::new(cargo());
    command.current_dir(workspace_root()).args(["build", "--message-format=json-render-diagnostics"]).args(args);
    // The variables cargo sets for the crate it runs (this test) are not the build's: ring's build
    // script reruns when CARGO_MANIFEST_DIR differs, and rustls and everything above it would be
    // compiled again, and again by the next build outside the test.
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if [
            "CARGO_MANIFEST_",
            "CARGO_PKG_",
            "CARGO_BIN_",
            "CARGO_CRATE_",
            "CARGO_PRIMARY_",
            "CARGO_TARGET_TMPDIR",
            "OUT_DIR",
        ]
        .iter()
        .any(|prefix| name.starts_with(prefix))
        {
            command.env_remove(&*name);
        }
    }
    let output = command.output().expect("cargo runs");
    assert!(output.status.success(), "cargo build {args:?} failed:\n{}", String::from_utf8_lossy(&output.stderr));
    let mut files = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        if message["reason"] != "compiler-artifact" || message["profile"]["test"] == true {
            continue;
        }
        let target = message["target"]["name"].as_str().unwrap_or_default().to_owned();
        if let Some(exe) = message["executable"].as_str() {
            files.push((target.clone(), PathBuf::from(exe)));
        }
        for file in message["filenames"].as_array().into_iter().flatten() {
            files.extend(file.as_str().map(|f| (target.clone(), PathBuf::from(f))));
        }
    }
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn kotlin_and_swift_bindings_generate_from_the_library() {
    // The library (with the demo agent: agentui-ffi's tests enable it) and the bindgen as
    // scripts/test.sh builds them for the host-JVM tests: in the feature set of the workspace's
    // test build, which has already built them under `cargo nextest run --workspace`, so this only
    // links the bindgen. `-p agentui-ffi --features demo-agent` would compile a third of the
    // dependency tree again in a feature set of its own (two minutes of the test run).
    let artifacts = build(&["--workspace", "--lib", "--bins", "--tests"]);
    let library = artifacts
        .iter()
        .find(|(target, p)| target == "agentui_ffi" && p.extension().is_some_and(|e| e == "so" || e == "dylib"))
        .map(|(_, p)| p.clone())
        .expect("the cdylib");
    let bindgen = artifacts
        .iter()
        .find(|(target, p)| target == "uniffi-bindgen" && p.extension().is_none())
        .map(|(_, p)| p.clone())
        .expect("the bindgen binary");

    let out = std::env::temp_dir().join(format!("agentui-ffi-bindings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let status = Command::new(&bindgen)
        .current_dir(workspace_root())
        .args(["generate", "--config", "uniffi.toml", "--language", "kotlin", "--language", "swift", "--no-format"])
        .arg("--out-dir")
        .arg(&out)
        .arg(&library)
        .status()
        .expect("uniffi-bindgen runs");
    assert!(status.success());

    let kotlin = read(&out.join("dev/agentui/core/agentui_ffi.kt"));
    assert!(kotlin.contains("package dev.agentui.core"));
    for name in [
        "class Runtime",
        "class Conversation",
        "class ViewSubscription",
        "suspend fun `nextBatch`()",
        "fun `barrier`()",
        "class SurfaceFeed",
        "suspend fun `nextDiffs`()",
        "interface ClientToolHandler",
        "suspend fun `call`(`toolCallId`: kotlin.String, `argumentsJson`: kotlin.String)",
        "suspend fun `sendMessage`",
        "sealed class ConversationException",
        "class ConversationStore",
        "suspend fun `retryPending`()",
        "sealed class ToolHandlerException",
        "interface A2uiFunctionHandler",
        "fun `call`(`catalogId`: kotlin.String, `name`: kotlin.String, `args`: List<PropEntry>): NodeValue",
        "sealed class A2uiFunctionException",
        "var `catalogsJson`: List<kotlin.String> = listOf()",
        "AutoCloseable",
    ] {
        assert!(kotlin.contains(name), "Kotlin bindings lack {name:?}");
    }
    // uniffi.toml: no checksums, no Android-only imports (the host JVM compiles this file).
    assert!(!kotlin.contains("uniffiCheckApiChecksums"), "omit_checksums = true");
    assert!(!kotlin.contains("import android."), "android = false");
    assert!(kotlin.contains("\"agentui_ffi\""), "cdylib_name");

    // The core crates' own types, each crate in its own package, loaded from the same library.
    for (file, package, names) in [
        (
            "json/agentui_json.kt",
            "dev.agentui.core.json",
            &["sealed class NodeValue", "typealias JsonValue = NodeValue"][..],
        ),
        ("a2ui/agentui_a2ui.kt", "dev.agentui.core.a2ui", &["sealed class SurfaceDiff", "data class ResolvedNode"][..]),
        ("agui/agentui_agui.kt", "dev.agentui.core.agui", &["data class Message", "data class Interrupt"][..]),
        (
            "runtime/agentui_runtime.kt",
            "dev.agentui.core.runtime",
            &["sealed class ConversationDelta", "data class ConversationSnapshot", "sealed class StoreException"][..],
        ),
    ] {
        let text = read(&out.join("dev/agentui/core").join(file));
        assert!(text.contains(&format!("package {package}")), "{file}");
        assert!(text.contains("\"agentui_ffi\""), "{file}: cdylib_name");
        for name in names {
            assert!(text.contains(name), "{file} lacks {name:?}");
        }
    }

    // The host-test helpers: their own namespace, loaded from the same library.
    let demo = read(&out.join("dev/agentui/core/demo/agentui_ffi_demo.kt"));
    assert!(demo.contains("package dev.agentui.core.demo"));
    assert!(demo.contains("fun `startDemoAgent`"), "Kotlin demo bindings lack startDemoAgent");
    assert!(demo.contains("fun `demoLoyaltyCatalogJson`"), "Kotlin demo bindings lack demoLoyaltyCatalogJson");
    assert!(demo.contains("\"agentui_ffi\""), "cdylib_name of the demo namespace");

    let swift = read(&out.join("AgentUICore.swift"));
    for name in
        ["class Conversation", "protocol ClientToolHandler", "protocol A2uiFunctionHandler", "import AgentUICoreFFI"]
    {
        assert!(swift.contains(name), "Swift bindings lack {name:?}");
    }
    let a2ui = read(&out.join("AgentUICoreA2UI.swift"));
    assert!(a2ui.contains("enum SurfaceDiff") && a2ui.contains("import AgentUICoreFFI"));
    assert!(read(&out.join("AgentUICoreJSON.swift")).contains("indirect enum NodeValue"));
    let header = read(&out.join("AgentUICoreFFI.h"));
    assert!(header.contains("uniffi_agentui_ffi_fn_method_conversation_send_message"));
    let modulemap = read(&out.join("AgentUICoreFFI.modulemap"));
    assert!(modulemap.contains("module AgentUICoreFFI") && modulemap.contains("AgentUICoreFFI.h"));
    let _ = std::fs::remove_dir_all(&out);
}
