// :agentui-testing — the test kit apps use in their instrumented tests (dev.agentui:agentui-testing),
// package dev.agentui.testing: the script builder, ScriptedAgent (scripts and recordings), the
// waits and the Compose matchers. Its agent runs in its own native library, libagentui_testing.so
// (crate rust/agentui-testing-ffi), so the phone library an app ships does not grow: an app
// depends on it with `androidTestImplementation` only.
//
// Like :agentui, it carries the UniFFI bindings of its library (package dev.agentui.testing.core,
// generated at build time) and the .so for each ABI (cargo-ndk), with the same tasks
// (../buildSrc/src/main/kotlin/RustTasks.kt) and the same properties (-Pagentui.rustProfile,
// -Pagentui.abis, -Pagentui.cargo, -Pagentui.cargoTargetDir).

plugins {
    alias(libs.plugins.android.library)
    alias(libs.plugins.kotlin.compose)
    alias(libs.plugins.kotlinx.binary.compatibility.validator)
    `maven-publish`
}

apiValidation {
    // The generated bindings are plumbing: tests use dev.agentui.testing.
    ignoredPackages += "dev.agentui.testing.core"
}

group = providers.gradleProperty("GROUP").get()
version = providers.gradleProperty("VERSION_NAME").get()

val repoRoot: Directory = layout.projectDirectory.dir("../..")
// Same floor as :agentui, which this module depends on.
val minSdkVersion = 24

val rustCrate = "agentui-testing-ffi"
// The crate's [lib] name: the library is libagentui_testing.so, its UniFFI namespace agentui_testing.
val rustLibName = "agentui_testing"
// A test kit is not shipped to users: debug by default, which builds fastest.
val rustProfile: Provider<String> = providers.gradleProperty("agentui.testingRustProfile").orElse("debug")
val rustAbis: Provider<List<String>> = providers.gradleProperty("agentui.abis")
    .map { value -> value.split(',').map(String::trim).filter(String::isNotEmpty) }
    .orElse(listOf("arm64-v8a", "armeabi-v7a", "x86_64"))
val cargoExecutable: Provider<String> = providers.gradleProperty("agentui.cargo").orElse(
    providers.systemProperty("user.home").map { home ->
        File(home, ".cargo/bin/cargo").takeIf(File::canExecute)?.path ?: "cargo"
    },
)
// The same target directory as :agentui (see why there); cargo serialises the two builds.
val cargoTargetDirectory: Provider<File> = providers.gradleProperty("agentui.cargoTargetDir")
    .map { path -> File(path).let { if (it.isAbsolute) it else repoRoot.file(path).asFile } }
    .orElse(repoRoot.dir("target/android").asFile)
val rustInputs: FileCollection = files(
    repoRoot.file("Cargo.toml"),
    repoRoot.file("Cargo.lock"),
    repoRoot.file(".cargo/config.toml"),
    fileTree(repoRoot.dir("rust")) { exclude("**/target/**") },
)

android {
    namespace = "dev.agentui.testing"
    compileSdk = 37
    ndkVersion = "28.2.13676358"

    defaultConfig {
        minSdk = minSdkVersion
    }

    buildFeatures {
        compose = true
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }

    publishing {
        singleVariant("release") {
            withSourcesJar()
        }
    }
}

// Warning, not strict, for the reason given in :agentui: the generated bindings compile with the
// kit. The host-JVM Maven build compiles the same sources in strict mode.
kotlin {
    explicitApiWarning()
}

dependencies {
    // The kit's API takes AgentConversation and the renderer's test tags.
    api(project(":agentui"))
    api(project(":agentui-compose"))
    api(platform(libs.androidx.compose.bom))
    // SemanticsNodeInteractionsProvider and SemanticsMatcher are in the kit's API.
    api(libs.androidx.compose.ui.test)
    // The bindings reach the kit's library through JNA, which :agentui brings (the @aar).
}

val generateUniffiBindings = tasks.register<GenerateUniffiBindings>("generateUniffiBindings") {
    group = "rust"
    description = "Generates the UniFFI Kotlin bindings (dev.agentui.testing.core) from a host build of agentui-testing-ffi."
    cargo.set(cargoExecutable)
    workspaceDir.set(repoRoot)
    cargoTargetDir.fileProvider(cargoTargetDirectory)
    crate.set(rustCrate)
    libraryFileName.set(hostLibraryFileName(rustLibName))
    configFile.set(repoRoot.file("uniffi.toml"))
    rustSources.from(rustInputs)
    outputDir.set(layout.buildDirectory.dir("generated/source/uniffi/main/kotlin"))
}

val cargoNdkBuild = tasks.register<CargoNdkBuild>("cargoNdkBuild") {
    group = "rust"
    description = "Builds libagentui_testing.so for the Android ABIs with cargo-ndk (-Pagentui.testingRustProfile, -Pagentui.abis)."
    cargo.set(cargoExecutable)
    workspaceDir.set(repoRoot)
    cargoTargetDir.fileProvider(cargoTargetDirectory)
    crate.set(rustCrate)
    libraryFileName.set("lib$rustLibName.so")
    abis.set(rustAbis)
    apiLevel.set(minSdkVersion)
    profile.set(rustProfile.map { if (it == "debug") "dev" else it })
    ndkHome.set(
        providers.environmentVariable("ANDROID_NDK_HOME")
            .orElse(androidComponents.sdkComponents.ndkDirectory.map { it.asFile.absolutePath }),
    )
    rustSources.from(rustInputs)
    outputDir.set(layout.buildDirectory.dir("rustJniLibs/android"))
}

androidComponents {
    onVariants { variant ->
        val kotlinSources = checkNotNull(variant.sources.kotlin ?: variant.sources.java) {
            "no Kotlin/Java source set for variant ${variant.name}"
        }
        kotlinSources.addGeneratedSourceDirectory(generateUniffiBindings, GenerateUniffiBindings::outputDir)
        checkNotNull(variant.sources.jniLibs) { "no jniLibs source set for variant ${variant.name}" }
            .addGeneratedSourceDirectory(cargoNdkBuild, CargoNdkBuild::outputDir)
    }
}

tasks.configureEach {
    if (name.startsWith("merge") && name.endsWith("JniLibFolders")) dependsOn(cargoNdkBuild)
}

publishing {
    publications {
        register<MavenPublication>("release") {
            groupId = project.group.toString()
            artifactId = "agentui-testing"
            version = project.version.toString()
            afterEvaluate { from(components["release"]) }
            pom {
                name.set("agentui-testing")
                description.set("Test kit for apps on agentui: scripted AG-UI agents, recorded replays, waits and Compose matchers.")
                licenses {
                    license {
                        name.set("MIT")
                        url.set("https://opensource.org/license/mit")
                    }
                    license {
                        name.set("Apache-2.0")
                        url.set("https://www.apache.org/licenses/LICENSE-2.0.txt")
                    }
                }
            }
        }
    }
}
