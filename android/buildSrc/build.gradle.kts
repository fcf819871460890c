// The build logic shared by the Android modules (src/main/kotlin/RustTasks.kt): plain Gradle
// task classes, so only the Kotlin DSL plugin is needed, no Android Gradle plugin.

plugins {
    `kotlin-dsl`
}

repositories {
    mavenCentral()
}
