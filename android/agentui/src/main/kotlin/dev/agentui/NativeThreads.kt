package dev.agentui

import com.sun.jna.Callback
import com.sun.jna.CallbackThreadInitializer
import com.sun.jna.Native
import dev.agentui.core.uniffiCallbackInterfaceClientToolHandler
import dev.agentui.core.uniffiForeignFutureDroppedCallbackImpl
import dev.agentui.core.uniffiRustFutureContinuationCallbackImpl
import java.util.concurrent.atomic.AtomicBoolean

/**
 * Keeps the Rust runtime's threads attached to the JVM between callbacks.
 *
 * Every tool call, async completion (a pulled view batch among them) and handle release
 * reaches Kotlin through a JNA callback on a Rust thread the JVM does not know (a tokio
 * worker). By default JNA
 * attaches such a thread for the callback and detaches it afterwards, creating a new
 * `java.lang.Thread` each time. Registering a [CallbackThreadInitializer] with `detach = false`
 * attaches each thread once; JNA detaches it itself when the native thread exits.
 *
 * JNA reads the initializer when it first makes the native trampoline of a callback, which for
 * the callback interfaces' vtables happens when the generated library object loads. So this must run before
 * the first call into the bindings: [AgentRuntime] calls it, and an app that touches the
 * generated API first should call it at startup (`Application.onCreate`). Later calls do nothing.
 *
 * The callback objects are `internal` in the generated file, visible here because the bindings
 * and this layer compile as one module (in the AAR and in the host-JVM build alike).
 */
public object NativeThreads {
    public const val THREAD_NAME: String = "agentui-native"
    public const val DETACH_PROPERTY: String = "dev.agentui.detachCallbackThreads"
    private val installed = AtomicBoolean(false)

    public fun install() {
        if (!installed.compareAndSet(false, true)) return
        // Diagnostic switch, to measure JNA's default attach-per-callback behaviour.
        if (System.getProperty(DETACH_PROPERTY) == "true") return
        val keepAttached = CallbackThreadInitializer(/* daemon = */ true, /* detach = */ false, THREAD_NAME)
        // Nested objects are referenced without initialising their outer object, whose
        // vtable would make the trampolines too early.
        val callbacks: List<Callback> = listOf(
            uniffiCallbackInterfaceClientToolHandler.`call`,
            uniffiCallbackInterfaceClientToolHandler.uniffiFree,
            uniffiCallbackInterfaceClientToolHandler.uniffiClone,
            uniffiRustFutureContinuationCallbackImpl,
            uniffiForeignFutureDroppedCallbackImpl,
        )
        callbacks.forEach { Native.setCallbackThreadInitializer(it, keepAttached) }
    }
}
