// :agentui-compose — the Compose renderer of A2UI surfaces (dev.agentui:agentui-compose),
// package dev.agentui.compose: A2uiSurface, ComponentRegistry, A2uiImageLoader /
// LocalA2uiImageLoader. It depends on :agentui (which brings the bindings, JNA and the Rust
// library) and on Compose through the BOM.

plugins {
    alias(libs.plugins.android.library)
    // Kotlin 2.x's Compose compiler; AGP's built-in Kotlin compiles the sources.
    alias(libs.plugins.kotlin.compose)
    alias(libs.plugins.kotlinx.binary.compatibility.validator)
    `maven-publish`
}

// The public API in api/agentui-compose.api: `./gradlew apiDump` writes it, `apiCheck` (part of `check`)
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

android {
    namespace = "dev.agentui.compose"
    compileSdk = 37

    defaultConfig {
        // Same floor as :agentui (see the reason there).
        minSdk = 24
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

// Explicit-API mode: a public declaration must say so and name its type, so nothing becomes
// part of the published API by accident (the host-JVM Maven build checks the same sources).
kotlin {
    explicitApi()
}

dependencies {
    // The renderer's API takes AgentConversation and reads the bindings' records.
    api(project(":agentui"))

    // `api` for the BOM too: the api dependencies below carry no version of their own, and the
    // published Gradle metadata then resolves them through the same platform.
    api(platform(libs.androidx.compose.bom))
    // Composable, Modifier and ContentScale appear in the public API.
    api(libs.androidx.compose.runtime)
    api(libs.androidx.compose.ui)
    implementation(libs.androidx.compose.foundation)
    implementation(libs.androidx.compose.material3)
    implementation(libs.androidx.compose.material.icons.core)
}

publishing {
    publications {
        register<MavenPublication>("release") {
            groupId = project.group.toString()
            artifactId = "agentui-compose"
            version = project.version.toString()
            afterEvaluate { from(components["release"]) }
            pom {
                name.set("agentui-compose")
                description.set("Jetpack Compose (Material 3) renderer for A2UI surfaces of the agentui runtime.")
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
            }
        }
    }
}
