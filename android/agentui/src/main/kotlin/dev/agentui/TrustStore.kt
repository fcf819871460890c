package dev.agentui

import dev.agentui.core.agui.TrustStore as CoreTrustStore

/** Whose roots vouch for the agent's certificate ([AgentOptions.trustStore]). */
public enum class TrustStore {
    /** The platform's verifier and store (Android's, with the user's added CAs as it allows). */
    PLATFORM,

    /** Only the Mozilla roots compiled into the library. */
    WEBPKI_ROOTS,
    ;

    // Exhaustive, never by name: a store the core adds breaks this build, not a device.
    internal fun toNative(): CoreTrustStore = when (this) {
        PLATFORM -> CoreTrustStore.PLATFORM
        WEBPKI_ROOTS -> CoreTrustStore.WEBPKI_ROOTS
    }
}
