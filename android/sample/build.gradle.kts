// :sample — a Compose app on the agentui AAR and the Compose renderer, talking to the demo agent
// (`agentui serve-demo` on the host; the emulator reaches the host's loopback at 10.0.2.2).

plugins {
    alias(libs.plugins.android.application)
    alias(libs.plugins.kotlin.compose)
}

// -Pagentui.agentUrl=https://... points the app at another agent. The default is the demo agent's
// default port (8765) on the host, as seen from the emulator.
val agentUrl: String = providers.gradleProperty("agentui.agentUrl").orElse("http://10.0.2.2:8765/agent").get()

android {
    namespace = "dev.agentui.sample"
    compileSdk = 37

    defaultConfig {
        applicationId = "dev.agentui.sample"
        minSdk = 24
        targetSdk = 37
        versionCode = 1
        versionName = "0.1.0"
        // A Java string literal: escape backslashes and quotes of whatever the property holds.
        // Instrumented tests (src/androidTest): Compose UI tests of the real app against the demo
        // agent on the host, run by `connectedDebugAndroidTest` (see README, CI workflow android.yml).
        testInstrumentationRunner = "androidx.test.runner.AndroidJUnitRunner"
        buildConfigField("String", "AGENT_URL", "\"${agentUrl.replace("\\", "\\\\").replace("\"", "\\\"")}\"")
    }

    buildFeatures {
        compose = true
        // AGP no longer generates BuildConfig unless asked; AGENT_URL lives there.
        buildConfig = true
    }

    buildTypes {
        release {
            // Minified, so a release build exercises the AAR's consumer rules (JNA, bindings).
            isMinifyEnabled = true
            isShrinkResources = true
            proguardFiles(getDefaultProguardFile("proguard-android-optimize.txt"), "proguard-rules.pro")
            // A sample: sign with the debug key so `installRelease` works on an emulator.
            signingConfig = signingConfigs.getByName("debug")
        }
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }
}

dependencies {
    implementation(project(":agentui-compose"))

    implementation(platform(libs.androidx.compose.bom))
    implementation(libs.androidx.compose.ui)
    implementation(libs.androidx.compose.foundation)
    implementation(libs.androidx.compose.material3)
    implementation(libs.androidx.compose.material.icons.core)
    implementation(libs.androidx.compose.ui.tooling.preview)
    debugImplementation(libs.androidx.compose.ui.tooling)

    implementation(libs.androidx.activity.compose)
    implementation(libs.androidx.lifecycle.viewmodel.compose)
    implementation(libs.androidx.lifecycle.runtime.compose)
    implementation(libs.kotlinx.coroutines.android)

    // Instrumented tests: Compose UI test rule driving MainActivity, on the AndroidX runner.
    androidTestImplementation(platform(libs.androidx.compose.bom))
    androidTestImplementation(libs.androidx.compose.ui.test.junit4)
    androidTestImplementation(libs.androidx.test.runner)
    androidTestImplementation(libs.androidx.test.ext.junit)
    // The empty ComponentActivity that compose test rules register in the debug manifest.
    debugImplementation(libs.androidx.compose.ui.test.manifest)
}
