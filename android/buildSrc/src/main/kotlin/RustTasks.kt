// The Rust tasks of the Android modules that carry a native library (:agentui and
// :agentui-testing): the UniFFI bindings from a host build, and the .so files by cargo-ndk.

import java.io.File
import javax.inject.Inject
import org.gradle.api.DefaultTask
import org.gradle.api.file.ConfigurableFileCollection
import org.gradle.api.file.DirectoryProperty
import org.gradle.api.file.FileSystemOperations
import org.gradle.api.file.RegularFileProperty
import org.gradle.api.provider.ListProperty
import org.gradle.api.provider.Property
import org.gradle.api.tasks.Input
import org.gradle.api.tasks.InputFile
import org.gradle.api.tasks.InputFiles
import org.gradle.api.tasks.Internal
import org.gradle.api.tasks.Optional
import org.gradle.api.tasks.OutputDirectory
import org.gradle.api.tasks.PathSensitive
import org.gradle.api.tasks.PathSensitivity
import org.gradle.api.tasks.TaskAction
import org.gradle.process.ExecOperations
import org.gradle.work.DisableCachingByDefault

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
 * one lib<crate>.so per ABI in the jniLibs layout (<outputDir>/<abi>/libagentui_ffi.so).
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
    // When the crate's [lib] name differs from the crate's (agentui-testing-ffi -> libagentui_testing.so).
    @get:Input @get:Optional abstract val libraryFileName: Property<String>
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

        val libName = libraryFileName.orNull ?: "lib${crate.get().replace('-', '_')}.so"
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
