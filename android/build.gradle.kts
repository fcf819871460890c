// Plugins are resolved once here (apply false) so every module shares one classloader.
//
// AGP 9 compiles Kotlin itself ("built-in Kotlin"): no module applies org.jetbrains.kotlin.android.
// AGP 9.5 only brings the Kotlin Gradle plugin 2.2.10 at run time; the Compose compiler plugin
// below depends on kotlin-gradle-plugin of its own version, so the build compiles with Kotlin
// 2.4.21, the same compiler as the host-JVM build (android/host-jvm/pom.xml).
plugins {
    alias(libs.plugins.android.application) apply false
    alias(libs.plugins.android.library) apply false
    alias(libs.plugins.kotlin.compose) apply false
    alias(libs.plugins.kotlinx.binary.compatibility.validator) apply false
}
