package dev.agentui

/**
 * What the agent streams besides conversation state, in stream order: AG-UI `CUSTOM`, `RAW`,
 * `STEP_STARTED` and `STEP_FINISHED` events, delivered by [AgentConversation.events].
 *
 * Values stay JSON text: the layer has no JSON library, and each app parses with its own.
 */
sealed interface AgentEvent {
    /**
     * A `CUSTOM` event: the agent's own extension (an app-specific event, ADK's `PredictState`,
     * LangGraph's `on_interrupt`). [valueJson] is its `value` as JSON text (a JSON string value
     * arrives quoted: `"\"text\""`). An `on_interrupt` is also a pending interrupt, answered
     * with [AgentConversation.resolveInterrupt] like any other.
     */
    data class Custom(val name: String, val valueJson: String) : AgentEvent

    /** A `RAW` event: a provider-native event passed through verbatim, [eventJson] as JSON text. */
    data class Raw(val eventJson: String, val source: String?) : AgentEvent

    /** A `STEP_STARTED` event: the agent began step [name]. */
    data class StepStarted(val name: String) : AgentEvent

    /** A `STEP_FINISHED` event: step [name] is done. */
    data class StepFinished(val name: String) : AgentEvent
}
