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

import javax.inject.Inject
import org.gradle.process.ExecOperations
import org.gradle.work.DisableCachingByDefault

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

/** The file name cargo gives a cdylib on the machine running Gradle. */
fun hostLibraryFileName(libName: String): String {
    val os = System.getProperty("os.name").lowercase()
    return when {
        os.contains("mac") || os.contains("darwin") -> "lib$libName.dylib"
        os.contains("windows") -> "$libName.dll"
        else -> "lib$libName.so"
    }
}

/**
 * Builds [crate] on the host (dev profile, no features, i.e. the features of the Android build)
 * and runs the workspace's uniffi-bindgen over it in library mode:
 *
 *   cargo build -p agentui-ffi
 *   cargo run -p uniffi-bindgen -- generate --library <target>/debug/libagentui_ffi.so
 *       --language kotlin --config uniffi.toml --no-format --out-dir <outputDir>
 *
 * The same command shape as android/host-jvm/pom.xml, except the host build has no `demo-agent`
 * feature: the generated file must declare exactly the functions the Android library exports.
 */
@DisableCachingByDefault(because = "Runs cargo, which keeps its own incremental cache")
abstract class GenerateUniffiBindings : DefaultTask() {
    @get:Inject abstract val execOperations: ExecOperations
    @get:Inject abstract val fileSystemOperations: FileSystemOperations

    @get:Input abstract val cargo: Property<String>
    @get:Input abstract val crate: Property<String>
    @get:Input abstract val libraryFileName: Property<String>
    @get:Internal abstract val workspaceDir: DirectoryProperty
    @get:Internal abstract val cargoTargetDir: DirectoryProperty

    @get:InputFile
    @get:PathSensitive(PathSensitivity.NONE)
    abstract val configFile: RegularFileProperty

    @get:InputFiles
    @get:PathSensitive(PathSensitivity.RELATIVE)
    abstract val rustSources: ConfigurableFileCollection

    @get:OutputDirectory abstract val outputDir: DirectoryProperty

    @TaskAction
    fun generate() {
        val targetDir = cargoTargetDir.get().asFile
        runCargo("build", "-p", crate.get())
        val library = File(targetDir, "debug/${libraryFileName.get()}")
        check(library.isFile) { "cargo build did not produce $library" }

        val out = outputDir.get().asFile
        // No stale files from an earlier package name or crate.
        fileSystemOperations.delete { delete(out) }
        out.mkdirs()
        runCargo(
            "run", "--quiet", "-p", "uniffi-bindgen", "--",
            "generate", "--library", library.absolutePath,
            "--language", "kotlin",
            "--config", configFile.get().asFile.absolutePath,
            "--no-format",
            "--out-dir", out.absolutePath,
        )
        check(out.walkTopDown().any { it.isFile && it.extension == "kt" }) {
            "uniffi-bindgen wrote no Kotlin file into $out"
        }
    }

    private fun runCargo(vararg arguments: String) {
        val cargoBin = File(System.getProperty("user.home"), ".cargo/bin")
        execOperations.exec {
            workingDir = workspaceDir.get().asFile
            executable = cargo.get()
            args(arguments.toList())
            environment("CARGO_TARGET_DIR", cargoTargetDir.get().asFile.absolutePath)
            if (cargoBin.isDirectory) {
                environment("PATH", cargoBin.absolutePath + File.pathSeparator + (System.getenv("PATH") ?: ""))
            }
        }
    }
}

/**
 * `cargo ndk -t <abi>... -o <outputDir> --platform <apiLevel> build --profile <profile> -p <crate>`:
 * one libagentui_ffi.so per ABI in the jniLibs layout (<outputDir>/<abi>/libagentui_ffi.so).
 * Then checks every 64-bit library is 16 KB page aligned (Android 15+ devices with 16 KB pages
 * refuse to load anything else, and Google Play rejects it).
 */
@DisableCachingByDefault(because = "Runs cargo, which keeps its own incremental cache")
abstract class CargoNdkBuild : DefaultTask() {
    @get:Inject abstract val execOperations: ExecOperations
    @get:Inject abstract val fileSystemOperations: FileSystemOperations

    @get:Input abstract val cargo: Property<String>
    @get:Input abstract val crate: Property<String>
    @get:Input abstract val abis: ListProperty<String>
    @get:Input abstract val apiLevel: Property<Int>
    @get:Input abstract val profile: Property<String>
    @get:Input @get:Optional abstract val ndkHome: Property<String>
    @get:Internal abstract val workspaceDir: DirectoryProperty
    @get:Internal abstract val cargoTargetDir: DirectoryProperty

    @get:InputFiles
    @get:PathSensitive(PathSensitivity.RELATIVE)
    abstract val rustSources: ConfigurableFileCollection

    @get:OutputDirectory abstract val outputDir: DirectoryProperty

    @TaskAction
    fun build() {
        val out = outputDir.get().asFile
        // Nothing left over from ABIs a previous run built but this one does not.
        fileSystemOperations.delete { delete(out) }
        out.mkdirs()

        val arguments = mutableListOf("ndk")
        abis.get().forEach { abi -> arguments += listOf("-t", abi) }
        arguments += listOf(
            "-o", out.absolutePath,
            "--platform", apiLevel.get().toString(),
            // Only the cdylib: agentui-ffi also declares a Rust `lib` (for its tests), and when
            // rustc emits an rlib in the same run, link-time optimisation must keep every public
            // Rust function, 1.7 MB more on x86_64 (docs/size.md, "Crate types"). cargo-ndk passes
            // any cargo subcommand through and copies the .so cargo reports.
            "rustc", "--profile", profile.get(), "-p", crate.get(), "--lib", "--crate-type", "cdylib",
        )
        val cargoBin = File(System.getProperty("user.home"), ".cargo/bin")
        execOperations.exec {
            workingDir = workspaceDir.get().asFile
            executable = cargo.get()
            args(arguments)
            environment("CARGO_TARGET_DIR", cargoTargetDir.get().asFile.absolutePath)
            ndkHome.orNull?.let { environment("ANDROID_NDK_HOME", it) }
            if (cargoBin.isDirectory) {
                environment("PATH", cargoBin.absolutePath + File.pathSeparator + (System.getenv("PATH") ?: ""))
            }
        }

        val libName = "lib${crate.get().replace('-', '_')}.so"
        for (abi in abis.get()) {
            val library = File(out, "$abi/$libName")
            check(library.isFile) { "cargo ndk did not produce $library" }
            val alignment = minLoadAlignment(library)
            check(alignment == null || alignment >= 16384) {
                "$library has LOAD segments aligned to $alignment bytes; Android 15+ devices with 16 KB " +
                    "pages cannot load it. Use NDK r28 or newer (android.ndkVersion / ANDROID_NDK_HOME)."
            }
        }
    }

    /**
     * The smallest p_align of the PT_LOAD segments of a 64-bit little-endian ELF file, or null
     * for anything else (32-bit ABIs have no 16 KB page devices).
     */
    private fun minLoadAlignment(file: File): Long? {
        val bytes = file.readBytes()
        val elfClass64 = 2.toByte()
        val littleEndian = 1.toByte()
        if (bytes.size < 64 || bytes[0] != 0x7f.toByte() || bytes[1] != 'E'.code.toByte() ||
            bytes[2] != 'L'.code.toByte() || bytes[3] != 'F'.code.toByte() ||
            bytes[4] != elfClass64 || bytes[5] != littleEndian
        ) return null
        val header = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN)
        val phoff = header.getLong(0x20)
        val phentsize = header.getShort(0x36).toInt() and 0xffff
        val phnum = header.getShort(0x38).toInt() and 0xffff
        var min: Long? = null
        for (i in 0 until phnum) {
            val entry = phoff + i.toLong() * phentsize
            if (entry < 0 || entry + 56 > bytes.size) break
            val type = header.getInt(entry.toInt())
            if (type == 1) { // PT_LOAD
                val align = header.getLong(entry.toInt() + 48)
                min = if (min == null) align else minOf(min, align)
            }
        }
        return min
    }
}
