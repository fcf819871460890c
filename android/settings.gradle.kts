// The Android build of agentui: the AAR (:agentui: UniFFI bindings + Kotlin layer + the Rust
// library for each ABI), the Compose renderer (:agentui-compose), the test kit (:agentui-testing,
// with its own native library) and the sample app (:sample).
// android/host-jvm is a separate Maven build over the same Kotlin sources (see README-host-jvm.md);
// it is not part of this Gradle build.

pluginManagement {
    repositories {
        // The Android Gradle plugin and AndroidX live only in Google's repository; keep it from
        // answering for anything else.
        google {
            content {
                includeGroupByRegex("com\\.android.*")
                includeGroupByRegex("com\\.google.*")
                includeGroupByRegex("androidx.*")
            }
        }
        // The Kotlin Compose compiler plugin (org.jetbrains.kotlin.plugin.compose) is on Maven Central.
        mavenCentral()
    }
}

dependencyResolutionManagement {
    repositoriesMode.set(RepositoriesMode.FAIL_ON_PROJECT_REPOS)
    repositories {
        // The Kotlin half of rustls-platform-verifier (rustls:rustls-platform-verifier), published
        // only to the project's Maven archive on GitHub (its README, "Gradle Setup"). Apps that
        // depend on dev.agentui:agentui need this repository too. Restricted to that one group.
        maven {
            url = uri("https://github.com/rustls/rustls-platform-verifier/raw/maven-archive/android-release-support/maven/")
            content { includeGroup("rustls") }
        }
        google {
            content {
                includeGroupByRegex("com\\.android.*")
                includeGroupByRegex("com\\.google.*")
                includeGroupByRegex("androidx.*")
            }
        }
        mavenCentral()
    }
}

rootProject.name = "agentui-android"

include(":agentui", ":agentui-compose", ":agentui-testing", ":sample")
