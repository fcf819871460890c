package dev.agentui.testing

import dev.agentui.AgentConversation
import dev.agentui.RunPhase
import dev.agentui.SurfaceInfo
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.withTimeout

/** How long the waits below wait unless told. */
public const val DEFAULT_WAIT_MS: Long = 10_000

/** Waits until no run is in flight (finished, interrupted, failed, ...) and returns the phase. */
public suspend fun AgentConversation.awaitIdle(timeoutMillis: Long = DEFAULT_WAIT_MS): RunPhase =
    withTimeout(timeoutMillis) { phase.first { it !is RunPhase.Starting && it !is RunPhase.Running } }

/** Waits until the agent created surface [surfaceId]. */
public suspend fun AgentConversation.awaitSurface(surfaceId: String, timeoutMillis: Long = DEFAULT_WAIT_MS): SurfaceInfo =
    withTimeout(timeoutMillis) { surfaces.first { list -> list.any { it.id == surfaceId } }.first { it.id == surfaceId } }
