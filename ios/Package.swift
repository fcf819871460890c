// swift-tools-version: 5.9
//
// SPDX-License-Identifier: MIT OR Apache-2.0 (LICENSE-MIT, LICENSE-APACHE at the repository
// root; SwiftPM manifests have no licence field).
//
// agentui for Apple platforms: the Rust core as a binary XCFramework, its generated Swift
// bindings, the Swift layer and the SwiftUI renderer.
//
// Run `scripts/build-xcframework.sh` (macOS, Xcode, rustup) first: it builds
// AgentUICoreFFI.xcframework and writes the generated Sources/AgentUICore/AgentUICore*.swift
// (one file per crate with UniFFI types, one Swift module). Neither is committed (see .gitignore), so the package does not resolve before the script has run.
//
// A binary release would publish the zipped XCFramework and switch the binary target to it:
//
//     .binaryTarget(
//         name: "AgentUICoreFFI",
//         url: "https://<release host>/AgentUICoreFFI-<version>.xcframework.zip",
//         checksum: "<output of `swift package compute-checksum AgentUICoreFFI-<version>.xcframework.zip`>"
//     ),
//
// and ship the generated AgentUICore*.swift of the same build in Sources/AgentUICore (the
// bindings and the library must come from one build: they check each other's contract
// version at load time).

import PackageDescription

#if os(Linux)
// The Linux lane (scripts/swift-linux.sh, the `swift` stage of scripts/test.sh): the same
// sources as on Apple platforms over the host build of the Rust core; the SwiftUI ones are
// type-checked against stand-ins (Sources/LinuxSwiftUI), never drawn. The script
// writes build/linux/: the generated bindings (AgentUICore), the C headers with a module map
// that links libagentui_ffi (AgentUICoreFFI), and lib/libagentui_ffi.so. Linux has no Combine:
// Sources/LinuxCombine stands in for the part the layer uses.
let linuxLib = "\(Context.packageDirectory)/build/linux/lib"

let package = Package(
    name: "AgentUI",
    products: [
        .library(name: "AgentUI", targets: ["AgentUI"]),
        .library(name: "AgentUIRendering", targets: ["AgentUIRendering"]),
        .library(name: "AgentUITesting", targets: ["AgentUITesting"]),
    ],
    targets: [
        .systemLibrary(name: "AgentUICoreFFI", path: "build/linux/AgentUICoreFFI"),
        .target(
            name: "AgentUICore",
            dependencies: ["AgentUICoreFFI"],
            path: "build/linux/AgentUICore",
            linkerSettings: [.unsafeFlags(["-L\(linuxLib)", "-Xlinker", "-rpath", "-Xlinker", linuxLib])]
        ),
        // The test kit's own library (libagentui_testing.so) and its bindings, written by the
        // script like the core's; only AgentUITesting links it, never AgentUI.
        .systemLibrary(name: "AgentUITestingCoreFFI", path: "build/linux/AgentUITestingCoreFFI"),
        .target(
            name: "AgentUITestingCore",
            dependencies: ["AgentUITestingCoreFFI"],
            path: "build/linux/AgentUITestingCore",
            linkerSettings: [.unsafeFlags(["-L\(linuxLib)", "-Xlinker", "-rpath", "-Xlinker", linuxLib])]
        ),
        .target(name: "AgentUITesting", dependencies: ["AgentUI", "AgentUITestingCore"], path: "Sources/AgentUITesting"),
        .target(name: "Combine", path: "Sources/LinuxCombine"),
        .target(name: "AgentUI", dependencies: ["AgentUICore", "Combine"], path: "Sources/AgentUI"),
        .target(name: "AgentUIRendering", dependencies: ["AgentUICore"], path: "Sources/AgentUIRendering"),
        // SwiftUI, Accessibility and PhotosUI stand in for Apple's (declarations only): the
        // SwiftUI renderer and the iOS sample are type-checked here, not drawn
        // (docs/verification.md, "SwiftUI sources, type-checked on Linux").
        .target(name: "SwiftUI", dependencies: ["Combine"], path: "Sources/LinuxSwiftUI"),
        .target(name: "Accessibility", path: "Sources/LinuxAccessibility"),
        .target(name: "PhotosUI", dependencies: ["SwiftUI"], path: "Sources/LinuxPhotosUI"),
        .target(
            name: "AgentUISwiftUI",
            dependencies: ["AgentUI", "AgentUIRendering", "SwiftUI", "Combine", "Accessibility"],
            path: "Sources/AgentUISwiftUI"
        ),
        // The iOS sample's sources, all of them, @main App included (the stand-in's `main()`
        // builds the app's scene and shows nothing); Info.plist is Xcode's.
        .executableTarget(
            name: "AgentUISample",
            dependencies: ["AgentUI", "AgentUISwiftUI", "SwiftUI", "PhotosUI"],
            path: "Sample/AgentUISample",
            exclude: ["Info.plist"]
        ),
        .testTarget(
            name: "AgentUITests",
            dependencies: ["AgentUI", "AgentUICore", "AgentUIRendering", "AgentUISwiftUI", "Combine"],
            path: "Tests/AgentUITests"
        ),
        .testTarget(
            name: "AgentUITestingTests",
            dependencies: ["AgentUITesting", "AgentUI", "AgentUICore", "Combine"],
            path: "Tests/AgentUITestingTests"
        ),
    ]
)
#else
let package = Package(
    name: "AgentUI",
    platforms: [
        .iOS(.v15),
        .macOS(.v12),
    ],
    products: [
        .library(name: "AgentUI", targets: ["AgentUI"]),
        .library(name: "AgentUISwiftUI", targets: ["AgentUISwiftUI"]),
        // The test kit, for an app's test targets only: its own library, so an app that links
        // AgentUI does not carry it (docs/testing-apps.md).
        .library(name: "AgentUITesting", targets: ["AgentUITesting"]),
    ],
    targets: [
        // The Rust static library (libagentui_ffi.a per platform) with its C header and
        // module map (module AgentUICoreFFI).
        .binaryTarget(
            name: "AgentUICoreFFI",
            path: "AgentUICoreFFI.xcframework"
        ),
        // The Swift that uniffi-bindgen generates from that library.
        .target(
            name: "AgentUICore",
            dependencies: ["AgentUICoreFFI"],
            path: "Sources/AgentUICore",
            exclude: ["README.md"],
            linkerSettings: [
                // The Rust TLS stack links Apple's Security framework (rustls-platform-verifier
                // via security-framework); a static library does not carry that link itself.
                .linkedFramework("Security"),
                .linkedFramework("CoreFoundation"),
            ]
        ),
        // The Swift layer: AgentRuntime, AgentConversation (ObservableObject), client tools.
        .target(
            name: "AgentUI",
            dependencies: ["AgentUICore"],
            path: "Sources/AgentUI"
        ),
        // The renderer's rules that need no SwiftUI (echo suppression, ISO dates, number input
        // and number text): also built and tested on Linux.
        .target(
            name: "AgentUIRendering",
            dependencies: ["AgentUICore"],
            path: "Sources/AgentUIRendering"
        ),
        // The SwiftUI renderer of A2UI surfaces (docs/rendering.md).
        .target(
            name: "AgentUISwiftUI",
            dependencies: ["AgentUI", "AgentUIRendering"],
            path: "Sources/AgentUISwiftUI"
        ),
        // The test kit's Rust library (libagentui_testing.a per platform: scripted agents,
        // recordings) with its C header and module map (module AgentUITestingCoreFFI), made by
        // build-xcframework.sh beside the core's, and the Swift uniffi-bindgen generates from it.
        .binaryTarget(
            name: "AgentUITestingCoreFFI",
            path: "AgentUITestingCoreFFI.xcframework"
        ),
        .target(
            name: "AgentUITestingCore",
            dependencies: ["AgentUITestingCoreFFI"],
            path: "Sources/AgentUITestingCore",
            exclude: ["README.md"]
        ),
        // The test kit's Swift API (ScriptedAgent, AgentScript, the conversation waits).
        .target(
            name: "AgentUITesting",
            dependencies: ["AgentUI", "AgentUITestingCore"],
            path: "Sources/AgentUITesting"
        ),
        // XCTest tests of the Swift layer against a running demo agent (`swift test` on a Mac,
        // with the XCFramework built with --macos): AGENTUI_DEMO_AGENT_URL must name it, e.g.
        // http://127.0.0.1:8765, or every test fails (see Tests/AgentUITests/TestSupport.swift).
        // RendererCasesTests needs no agent: it checks the renderer's rules against
        // tests/renderer-cases/cases.json.
        .testTarget(
            name: "AgentUITests",
            dependencies: ["AgentUI", "AgentUICore", "AgentUIRendering", "AgentUISwiftUI"],
            path: "Tests/AgentUITests"
        ),
        // The test kit's tests: scripted agents (no demo agent needed) and a replayed recording
        // (made in the test's setup with the agentui CLI against the demo agent, Linux lane).
        .testTarget(
            name: "AgentUITestingTests",
            dependencies: ["AgentUITesting", "AgentUI", "AgentUICore"],
            path: "Tests/AgentUITestingTests"
        ),
    ]
)
#endif
