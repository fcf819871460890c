package dev.agentui

/**
 * What the agent streams besides conversation state, in stream order: AG-UI `CUSTOM`, `RAW`,
 * `STEP_STARTED` and `STEP_FINISHED` events, delivered by [AgentConversation.events].
 *
 * Values arrive as plain Kotlin values (see [toKotlin]), with their JSON text as a convenience.
 */
public sealed interface AgentEvent {
    /**
     * A `CUSTOM` event: the agent's own extension (an app-specific event, ADK's `PredictState`,
     * LangGraph's `on_interrupt`). [value] is its `value` (null, Boolean, Double, String,
     * List or Map); [valueJson] the same as JSON text (a JSON string value arrives quoted:
     * `"\"text\""`). An `on_interrupt` is also a pending interrupt, answered with
     * [AgentConversation.resolveInterrupt] like any other.
     */
    public data class Custom(val name: String, val value: Any?) : AgentEvent {
        val valueJson: String get() = toJson(value)
    }

    /** A `RAW` event: a provider-native event passed through verbatim; [eventJson] as JSON text. */
    public data class Raw(val event: Any?, val source: String?) : AgentEvent {
        val eventJson: String get() = toJson(event)
    }

    /** A `STEP_STARTED` event: the agent began step [name]. */
    public data class StepStarted(val name: String) : AgentEvent

    /** A `STEP_FINISHED` event: step [name] is done. */
    public data class StepFinished(val name: String) : AgentEvent
}
