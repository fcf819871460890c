package dev.agentui

import android.content.Context
import java.io.File

/**
 * Gives the Rust core's TLS verifier (rustls-platform-verifier) the app's [Context], so agent
 * certificates are checked by Android's own `X509TrustManager`: the app's Network Security
 * Config, the user CAs it allows (a debug build behind a proxy, a corporate TLS-inspecting
 * proxy) and revocation all count, exactly as for the app's Java networking.
 *
 * Android-only source set (src/android/kotlin): the host-JVM build has no `android.content`
 * and no JNI entry point to call, and compiles only src/main/kotlin.
 *
 * JNA loads `libagentui_ffi.so` with `dlopen` and never calls `JNI_OnLoad`, so the `external`
 * function below could not be found through JNA alone. [System.loadLibrary] opens the same file
 * (the dynamic linker returns the already loaded library) and registers it with the VM, which
 * then binds `Java_dev_agentui_AndroidTls_initPlatformVerifier`.
 */
public object AndroidTls {
    @Volatile private var initialised = false

    /** Idempotent and thread-safe; the first call does the work (a few JNI calls). */
    public fun init(context: Context) {
        if (initialised) return
        synchronized(this) {
            if (initialised) return
            System.loadLibrary("agentui_ffi")
            // The application context: the verifier keeps a global reference to it for the
            // life of the process, which must not be an Activity.
            initPlatformVerifier(context.applicationContext ?: context)
            initialised = true
        }
    }

    /** Throws a RuntimeException when the JNI calls fail (never a crash: Rust catches panics). */
    @JvmStatic
    private external fun initPlatformVerifier(context: Context)
}

/**
 * The runtime for an Android app: initialises [AndroidTls] with [context] once, then makes an
 * [AgentRuntime] ([workerThreads] workers, 2 by default). Use this rather than `AgentRuntime()`
 * on Android: without the Context, an https agent with the default `TrustStore.PLATFORM` is
 * refused at `connect` with `ConversationException.TlsConfig`.
 *
 * It watches the device's connectivity ([ConnectivityWatcher]) until closed, so messages that
 * wait for the agent are not retried in vain while offline and go as soon as a network is back.
 *
 * With [storeFile] its conversations survive process death (see [AgentRuntime]). Put it under
 * `context.noBackupFilesDir`: a store restored from a backup onto another device would hold
 * that device's waiting messages and open runs, not this one's.
 */
public fun AgentRuntime(context: Context, workerThreads: Int? = null, storeFile: File? = null): AgentRuntime {
    AndroidTls.init(context)
    val runtime = when {
        workerThreads != null -> AgentRuntime.withWorkerThreads(workerThreads, storeFile)
        storeFile != null -> AgentRuntime(storeFile)
        else -> AgentRuntime()
    }
    // The device's network, as ConnectivityManager reports it, until the runtime is closed.
    val watcher = ConnectivityWatcher(context.applicationContext ?: context, runtime::reportOnline)
    runtime.onClose(watcher::close)
    return runtime
}
