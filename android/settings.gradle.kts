// The Android build of agentui: the AAR (:agentui: UniFFI bindings + Kotlin layer + the Rust
// library for each ABI), the Compose renderer (:agentui-compose) and the sample app (:sample).
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

include(":agentui", ":agentui-compose", ":sample")
