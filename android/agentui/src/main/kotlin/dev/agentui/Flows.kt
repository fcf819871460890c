package dev.agentui

import dev.agentui.core.Conversation
import dev.agentui.core.ConversationListener
import dev.agentui.core.ConversationUpdate
import dev.agentui.core.Surface
import dev.agentui.core.SurfaceDiffRecord
import dev.agentui.core.SurfaceListener
import kotlinx.coroutines.channels.awaitClose
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.buffer
import kotlinx.coroutines.flow.callbackFlow
import kotlinx.coroutines.channels.Channel

/**
 * Every update of [this] conversation from the moment of collection, in order. The native
 * listener runs on a Rust worker thread and only enqueues; the collector runs where it was
 * launched. Cancelling the collection cancels the native subscription.
 */
fun Conversation.updates(): Flow<ConversationUpdate> = callbackFlow {
    val handle = addListener(object : ConversationListener {
        override fun onUpdate(update: ConversationUpdate) {
            trySend(update)
        }
    })
    awaitClose { handle.close() }
}.buffer(Channel.UNLIMITED)

/**
 * The diffs of one surface: first a full `Reset`, then `Patch`es. Never conflated (each diff is
 * needed to rebuild the tree); cancelling the collection cancels the native subscription.
 */
fun Surface.diffs(): Flow<SurfaceDiffRecord> = callbackFlow {
    val handle = subscribe(object : SurfaceListener {
        override fun onDiff(diff: SurfaceDiffRecord) {
            trySend(diff)
        }
    })
    awaitClose { handle.close() }
}.buffer(Channel.UNLIMITED)
