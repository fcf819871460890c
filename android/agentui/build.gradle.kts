// :agentui — the AAR apps depend on (dev.agentui:agentui).
//
// It holds three things:
//   1. the UniFFI Kotlin bindings (package dev.agentui.core), generated at build time by the
//      repository's uniffi-bindgen from a host build of agentui-ffi (task generateUniffiBindings);
//   2. the Kotlin layer in src/main/kotlin (package dev.agentui), the same sources the host-JVM
//      Maven build compiles and tests (../host-jvm);
//   3. libagentui_ffi.so for each ABI, built by cargo-ndk (task cargoNdkBuild).
// Both tasks are wired through AGP's Variant API (addGeneratedSourceDirectory), so Kotlin
// compilation waits for the bindings and the jniLibs merge waits for the .so files.
//
// Bindings and the Kotlin layer must compile as ONE module: NativeThreads.kt reaches `internal`
// declarations of the generated file.
//
// uniffi.toml sets `android = false` for the Kotlin bindings, and this build keeps it:
//   - in UniFFI 0.32.2 the flag only selects the cleaner (android_cleaner defaults to it). With
//     `false` the generated code uses java.lang.ref.Cleaner when the class exists (Android 13+,
//     API 33) and JNA's cleaner below that; with `true` it would import android.os.Build and
//     androidx.annotation.RequiresApi and use android.system.SystemCleaner on API 34+ only.
//   - both work on devices; `false` keeps the AAR's bindings the same text as the ones the
//     host-JVM tests exercise, needs no androidx.annotation dependency, and the Class.forName
//     guard keeps API < 33 devices on the JNA cleaner. Lint does not analyse the generated
//     directory (generated sources are skipped by default), so the guarded API 33 reference
//     does not trip NewApi.

// GenerateUniffiBindings, CargoNdkBuild and hostLibraryFileName are in ../buildSrc, shared with
// :agentui-testing (the test kit's own native library).

plugins {
    alias(libs.plugins.android.library)
    alias(libs.plugins.kotlinx.binary.compatibility.validator)
    `maven-publish`
}

// The public API in api/agentui.api: `./gradlew apiDump` writes it, `apiCheck` (part of `check`)
// compares it. The same file is checked by ./scripts/api-dump.sh on the host-JVM classes; the two
// dumps differ in places (android/README.md, "The public API dump").
apiValidation {
    // The generated UniFFI bindings are plumbing: apps use the Kotlin layer.
    ignoredPackages += "dev.agentui.core"
}

// Coordinates from gradle.properties; project dependencies (:agentui-compose -> :agentui) are
// published with these too.
group = providers.gradleProperty("GROUP").get()
version = providers.gradleProperty("VERSION_NAME").get()

// android/agentui -> the repository root (workspace Cargo.toml, Cargo.lock, uniffi.toml, rust/).
val repoRoot: Directory = layout.projectDirectory.dir("../..")

// API 24 (Android 7.0). Current AndroidX/Compose releases need 23; 24 is the first level with the
// Java 8 library APIs (java.util.function, Map/Collection default methods) without core library
// desugaring, which the Kotlin layer and its dependencies may call, and with
// NetworkSecurityPolicy.isCleartextTrafficPermitted(host), which the sample uses to hold the
// Rust transport to the app's cleartext policy. The same number is cargo-ndk's --platform, so
// the Rust library links against the API 24 NDK sysroot.
val minSdkVersion = 24

val rustCrate = "agentui-ffi"
// release-small by default: what an app ships is what scripts/size-report.sh measures and budgets
// (docs/size.md); `-Pagentui.rustProfile=release` trades size for speed.
val rustProfile: Provider<String> = providers.gradleProperty("agentui.rustProfile").orElse("release-small")
val rustAbis: Provider<List<String>> = providers.gradleProperty("agentui.abis")
    .map { value -> value.split(',').map(String::trim).filter(String::isNotEmpty) }
    .orElse(listOf("arm64-v8a", "armeabi-v7a", "x86_64"))
// A Gradle daemon started by an IDE often has no ~/.cargo/bin on its PATH.
val cargoExecutable: Provider<String> = providers.gradleProperty("agentui.cargo").orElse(
    providers.systemProperty("user.home").map { home ->
        File(home, ".cargo/bin/cargo").takeIf(File::canExecute)?.path ?: "cargo"
    },
)
// Its own target directory: the host-JVM Maven build puts a `demo-agent` build of the same
// library in <repo>/target/debug, and bindings generated from that one would declare functions
// the Android library does not export (JNA binds every declared function when the bindings load,
// so the app would crash on first use).
val cargoTargetDirectory: Provider<File> = providers.gradleProperty("agentui.cargoTargetDir")
    .map { path -> File(path).let { if (it.isAbsolute) it else repoRoot.file(path).asFile } }
    .orElse(repoRoot.dir("target/android").asFile)

// What the Rust outputs depend on, so Gradle can skip cargo when nothing changed (cargo would
// find nothing to do anyway, but starting it costs seconds).
val rustInputs: FileCollection = files(
    repoRoot.file("Cargo.toml"),
    repoRoot.file("Cargo.lock"),
    repoRoot.file(".cargo/config.toml"),
    fileTree(repoRoot.dir("rust")) { exclude("**/target/**") },
)

/**
 * The version of the `rustls-platform-verifier-android` crate in Cargo.lock, which is the version
 * of the Maven artifact `rustls:rustls-platform-verifier` the Rust verifier was built against.
 * A ValueSource, as in the crate's README: read once per configuration, configuration-cache safe.
 */
abstract class RustlsPlatformVerifierVersion : ValueSource<String, RustlsPlatformVerifierVersion.Params> {
    interface Params : ValueSourceParameters {
        val lockFile: RegularFileProperty
    }

    override fun obtain(): String {
        val crate = "rustls-platform-verifier-android"
        val lines = parameters.lockFile.get().asFile.readLines()
        val at = lines.indexOfFirst { it.trim() == "name = \"$crate\"" }
        val version = if (at < 0) null else lines.drop(at + 1)
            .firstOrNull { it.trimStart().startsWith("version = ") }
            ?.substringAfter('"', "")?.substringBefore('"', "")?.takeIf { it.isNotEmpty() }
        return version ?: error("$crate not found in ${parameters.lockFile.get().asFile}")
    }
}

val rustlsPlatformVerifierVersion: Provider<String> = providers.of(RustlsPlatformVerifierVersion::class.java) {
    parameters.lockFile.set(repoRoot.file("Cargo.lock"))
}

android {
    namespace = "dev.agentui"
    compileSdk = 37
    // AGP 9.5's default NDK. r28 and newer link 16 KB page-aligned libraries by default, which
    // Android 15+ devices with 16 KB pages (and Google Play) require; cargoNdkBuild checks it.
    // ANDROID_NDK_HOME, when set, wins for the Rust build (see ndkHome below).
    ndkVersion = "28.2.13676358"

    defaultConfig {
        minSdk = minSdkVersion
        // Merged into every app that depends on the AAR (JNA + generated bindings).
        consumerProguardFiles("consumer-rules.pro")
    }
    // No targetSdk here: in AGP 9 it is an application setting (the sample targets 37).

    compileOptions {
        // Kotlin's jvmTarget follows targetCompatibility with AGP's built-in Kotlin.
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }

    publishing {
        singleVariant("release") {
            withSourcesJar()
        }
    }
}

// Explicit-API mode for the published layer: every public declaration says so and names its
// type. Warning, not strict, in this one module only because the UniFFI bindings compile with
// the layer (NativeThreads.kt reaches their `internal` declarations) and are generated without
// explicit visibility; the mode is a whole-compilation switch. Strict mode for these same
// sources (src/main/kotlin, src/android/kotlin) is enforced by the host-JVM and host-Android
// Maven builds, which compile the bindings separately and the layer with -Xfriend-paths.
// (Strict here would need the same split: a second module for the bindings, with friend access
// for NativeThreads.kt. Suppressing the explicit-API errors in the generated files does compile,
// but Kotlin 2.4 warns that suppressing an error is unspecified behaviour, so it is not done.)
kotlin {
    explicitApiWarning()
}

dependencies {
    // The Kotlin half of rustls-platform-verifier (org.rustls.platformverifier.*), which the Rust
    // verifier calls through JNI to reach Android's TrustManager. Its version must be the one the
    // Rust crate expects, so it is read from Cargo.lock (rustls-platform-verifier-android), as the
    // crate's README prescribes; the repository is declared in ../settings.gradle.kts.
    implementation(rustlsPlatformVerifierVersion.map { version -> "rustls:rustls-platform-verifier:$version" })
    // The generated bindings call the Rust library through JNA. The @aar artifact carries
    // libjnidispatch.so for every Android ABI (the jar only has desktop natives). `api`: the
    // bindings' public API exposes JNA types (Pointer) and apps must package JNA.
    api(variantOf(libs.jna) { artifactType("aar") })
    // suspend functions of the bindings, StateFlow/Flow in the Kotlin layer's API, Dispatchers.Main.
    api(libs.kotlinx.coroutines.android)
}

val generateUniffiBindings = tasks.register<GenerateUniffiBindings>("generateUniffiBindings") {
    group = "rust"
    description = "Generates the UniFFI Kotlin bindings (dev.agentui.core) from a host build of agentui-ffi."
    cargo.set(cargoExecutable)
    workspaceDir.set(repoRoot)
    cargoTargetDir.fileProvider(cargoTargetDirectory)
    crate.set(rustCrate)
    libraryFileName.set(hostLibraryFileName(rustCrate.replace('-', '_')))
    configFile.set(repoRoot.file("uniffi.toml"))
    rustSources.from(rustInputs)
    outputDir.set(layout.buildDirectory.dir("generated/source/uniffi/main/kotlin"))
}

val cargoNdkBuild = tasks.register<CargoNdkBuild>("cargoNdkBuild") {
    group = "rust"
    description = "Builds libagentui_ffi.so for the Android ABIs with cargo-ndk (-Pagentui.rustProfile, -Pagentui.abis)."
    cargo.set(cargoExecutable)
    workspaceDir.set(repoRoot)
    cargoTargetDir.fileProvider(cargoTargetDirectory)
    crate.set(rustCrate)
    abis.set(rustAbis)
    apiLevel.set(minSdkVersion)
    // cargo's name for the debug profile is "dev".
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
        // AGP only sets a convention on the output directories, so the locations set above stay.
        // The same two tasks serve every variant: the bindings do not depend on the build type,
        // and the Rust profile is chosen with -Pagentui.rustProfile, not by the variant.
        val kotlinSources = checkNotNull(variant.sources.kotlin ?: variant.sources.java) {
            "no Kotlin/Java source set for variant ${variant.name}"
        }
        kotlinSources.addGeneratedSourceDirectory(generateUniffiBindings, GenerateUniffiBindings::outputDir)
        // Android-only Kotlin (AndroidTls.kt: android.content.Context and a JNI entry point),
        // kept out of src/main/kotlin so that the host-JVM Maven build can compile the rest.
        kotlinSources.addStaticSourceDirectory("src/android/kotlin")
        checkNotNull(variant.sources.jniLibs) { "no jniLibs source set for variant ${variant.name}" }
            .addGeneratedSourceDirectory(cargoNdkBuild, CargoNdkBuild::outputDir)
    }
}

// Belt and braces, because this build has never run (see README.md): a jniLibs merge that ran
// before cargo would produce an AAR without the Rust library, which only fails on a device.
tasks.configureEach {
    if (name.startsWith("merge") && name.endsWith("JniLibFolders")) dependsOn(cargoNdkBuild)
}

publishing {
    publications {
        register<MavenPublication>("release") {
            groupId = project.group.toString()
            artifactId = "agentui"
            version = project.version.toString()
            // AGP creates the "release" component after the android block is evaluated.
            afterEvaluate { from(components["release"]) }
            pom {
                name.set("agentui")
                description.set(
                    "Embedded agent UI runtime for Android: AG-UI client and A2UI engine in Rust " +
                        "(UniFFI bindings, JNA), with a coroutine/StateFlow Kotlin layer.",
                )
                licenses {
                    // The workspace's licence (Cargo.toml: license = "MIT OR Apache-2.0"), either
                    // at the user's option.
                    license {
                        name.set("MIT")
                        url.set("https://opensource.org/license/mit")
                    }
                    license {
                        name.set("Apache-2.0")
                        url.set("https://www.apache.org/licenses/LICENSE-2.0.txt")
                    }
                }
                // Maven Central would also need url, scm and developers; this build only
                // publishes to mavenLocal (and any repository you add).
            }
        }
    }
}
