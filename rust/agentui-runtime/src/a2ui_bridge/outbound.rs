//! What goes back to the agent: user actions, errors and the client's catalogs, shaped the way
//! AG-UI agents expect them.
//!
//! - **User actions**: the next run's `forwardedProps.a2uiAction = {userAction: {name, surfaceId,
//!   sourceComponentId, timestamp, context}}` (the middleware's `A2UIForwardedProps`, which turns
//!   it into a synthetic `log_a2ui_event` tool call the model sees). The middleware has no slot for
//!   the data model, so for a surface created with `sendDataModel` it rides next to the action as
//!   `forwardedProps.a2uiClientDataModel`, the key A2UI's own transports use for it.
//!   A v1.0 surface's action has fields the v0.8 shape lacks (`userMessage`, `metadata`): the
//!   renderer metadata the app attached (`metadata.extensions`) is added inside `userAction` as
//!   `metadata: {extensions}` (the middleware's `A2UIUserAction` has optional members only, and
//!   copies the object it is given), and the whole v1.0 `action` envelope, as A2UI's own
//!   transports would send it, rides as `forwardedProps.a2uiActionMessage`. A v0.9 surface's
//!   action carries neither; metadata for it is refused (`ACTION_REFUSED`), never dropped.
//! - **Agent function calls** (v1.0 `callAgentFunction`): the `callAgentFunction` envelope as
//!   `forwardedProps.a2uiCallAgentFunction`, and the same as a `RunAgentInput.context` entry (as
//!   for errors: a model behind middleware reads context, not `forwardedProps`). The run that
//!   carries it is the call's own; the agent answers in that run with a v1.0
//!   `agentFunctionResponse` naming the `functionCallId`, carried like any other A2UI message
//!   (an activity, a tool result, a `CUSTOM a2ui` event). See [`AgentFunctionCall`].
//! - **Errors** (validation failures with their JSON Pointer, unknown surfaces, limits): the
//!   middleware defines no channel for them. This crate sends the v0.9 `error` envelopes as
//!   `forwardedProps.a2uiErrors` (for agents reading the input programmatically) and the same list
//!   as a `RunAgentInput.context` entry (middleware and frameworks put context in front of the
//!   model, which must learn its UI was refused). See [`PendingForAgent`].
//! - **Catalogs**: `a2uiClientCapabilities` (A2UI's name for it), the catalog ids only, as one
//!   context entry and nowhere else: AG-UI agents read context (the A2UI middleware injects its
//!   schema there, and the frameworks' A2UI toolkits read it back), while `forwardedProps` is
//!   dropped by some adapters over a size. Inline catalogs are for an agent that declares
//!   `acceptsInlineCatalogs`, which AG-UI has no card to say. The middleware's own context entry
//!   carries a component schema, not capabilities, so this one has its own description.

use agentui_a2ui::wire::v08;
use agentui_a2ui::wire::v09::ClientMessage;
use agentui_a2ui::wire::Version;
use agentui_a2ui::{A2uiError, Effect};
use agentui_agui::message::Context;
use serde_json::{json, Map, Value};

use super::A2uiBridge;

/// `forwardedProps` member carrying a user action.
pub const A2UI_ACTION_PROP: &str = "a2uiAction";
/// `forwardedProps` member carrying a v1.0 surface's action as its v1.0 `action` envelope (with
/// `userMessage` and `metadata`), next to [`A2UI_ACTION_PROP`].
pub const A2UI_ACTION_MESSAGE_PROP: &str = "a2uiActionMessage";
/// `forwardedProps` member (and context value key) carrying a v1.0 `callAgentFunction` envelope.
pub const A2UI_CALL_AGENT_FUNCTION_PROP: &str = "a2uiCallAgentFunction";
/// Description of the context entry carrying a `callAgentFunction`.
pub const A2UI_CALL_AGENT_FUNCTION_CONTEXT_DESCRIPTION: &str = "A2UI callAgentFunction \
     (a2uiCallAgentFunction): the client asks you to run this function for its surface. Answer in \
     this turn with a v1.0 agentFunctionResponse naming the same functionCallId, holding either \
     \"value\" or \"error\": {\"code\", \"message\"}.";
/// `forwardedProps` member carrying the data model of `sendDataModel` surfaces.
pub const A2UI_CLIENT_DATA_MODEL_PROP: &str = "a2uiClientDataModel";
/// `forwardedProps` member carrying error envelopes.
pub const A2UI_ERRORS_PROP: &str = "a2uiErrors";
/// `forwardedProps` member counting errors left out of [`A2UI_ERRORS_PROP`].
pub const A2UI_ERRORS_OMITTED_PROP: &str = "a2uiErrorsOmitted";
/// `forwardedProps` member (and context value key) carrying the client's catalogs.
pub const A2UI_CLIENT_CAPABILITIES_PROP: &str = "a2uiClientCapabilities";
/// Description of the context entry advertising the client's catalogs.
pub const A2UI_CAPABILITIES_CONTEXT_DESCRIPTION: &str = "A2UI client capabilities (a2uiClientCapabilities): \
     the catalogs this client renders. createSurface must name one of supportedCatalogIds.";
/// Description of the context entry reporting A2UI errors.
pub const A2UI_ERRORS_CONTEXT_DESCRIPTION: &str = "A2UI errors: the client could not apply these A2UI \
     messages from your previous turn (v0.9 error messages; path is a JSON Pointer into the message). \
     Send corrected messages.";

/// What a user action asks of the caller.
#[derive(Debug, Clone, PartialEq)]
pub enum BridgeAction {
    /// Start a run whose `forwardedProps` include these members (merge them into whatever else
    /// the run forwards): `a2uiAction`, and `a2uiClientDataModel` for `sendDataModel` surfaces.
    SendToAgent { forwarded_props: Map<String, Value>, message: Box<ClientMessage> },
    /// Open this URL (already checked against the URL policy). Nothing goes to the agent.
    OpenUrl(String),
    /// A local function ran; nothing to do.
    Handled,
}

/// A `callAgentFunction` ready for its run: what that run carries, under the id the agent's
/// answer must name. The engine counts it as waiting until the answer arrives or the caller
/// gives up ([`A2uiBridge::finish_agent_function`]).
#[derive(Debug, Clone, PartialEq)]
pub struct AgentFunctionCall {
    pub function_call_id: String,
    /// `a2uiCallAgentFunction`: the v1.0 envelope.
    pub forwarded_props: Map<String, Value>,
    /// The same envelope for the model.
    pub context: Context,
}

/// The agent's answer to a `callAgentFunction`: its `value`, or its error's `(code, message)`.
pub type AgentFunctionAnswer = Result<Value, (String, String)>;

/// Errors the next run must carry to the agent. Kept until a request carrying them reaches the
/// agent, and by a store across process death, so they are held in their wire form.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PendingForAgent {
    /// `error` envelopes (and v1.0 error `rendererFunctionResponse`s), oldest first, as sent.
    pub errors: Vec<Value>,
    /// Errors left out because [`BridgeLimits::max_pending_errors`] was reached.
    ///
    /// [`BridgeLimits::max_pending_errors`]: super::BridgeLimits::max_pending_errors
    pub omitted: usize,
}

impl PendingForAgent {
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty() && self.omitted == 0
    }

    fn wire_errors(&self) -> Vec<Value> {
        self.errors.clone()
    }

    /// Adds `later` after these, within `max` errors; the rest are counted as omitted.
    fn append_within(&mut self, later: PendingForAgent, max: usize) {
        for error in later.errors {
            if self.errors.len() < max {
                self.errors.push(error);
            } else {
                self.omitted += 1;
            }
        }
        self.omitted += later.omitted;
    }

    /// `forwardedProps` members: `a2uiErrors` (the envelopes) and, when some were left out,
    /// `a2uiErrorsOmitted`. Empty when there is nothing to send.
    pub fn forwarded_props(&self) -> Map<String, Value> {
        let mut props = Map::new();
        if self.is_empty() {
            return props;
        }
        props.insert(A2UI_ERRORS_PROP.to_owned(), Value::Array(self.wire_errors()));
        if self.omitted > 0 {
            props.insert(A2UI_ERRORS_OMITTED_PROP.to_owned(), Value::from(self.omitted));
        }
        props
    }

    /// The same errors as a `RunAgentInput.context` entry, so a model behind middleware that
    /// ignores `forwardedProps` still reads them.
    pub fn context(&self) -> Option<Context> {
        if self.is_empty() {
            return None;
        }
        let mut value = json!({ A2UI_ERRORS_PROP: self.wire_errors() });
        if self.omitted > 0 {
            value[A2UI_ERRORS_OMITTED_PROP] = Value::from(self.omitted);
        }
        Some(Context { description: A2UI_ERRORS_CONTEXT_DESCRIPTION.to_owned(), value: value.to_string() })
    }
}

impl A2uiBridge {
    /// Runs the action of a node on a user gesture. An event action becomes the `forwardedProps`
    /// of the next run; `openUrl` becomes an effect for the host.
    ///
    /// `extensions` become a v1.0 action's `metadata.extensions` (see the module notes); a
    /// non-empty map for an older surface's action is refused.
    pub fn user_action(
        &mut self,
        surface_id: &str,
        instance_id: &str,
        extensions: Map<String, Value>,
    ) -> Result<BridgeAction, A2uiError> {
        let outcome = self.group.dispatch_action_with_extensions(surface_id, instance_id, extensions)?;
        if let Some(Effect::OpenUrl(url)) = outcome.effects.into_iter().next() {
            return Ok(BridgeAction::OpenUrl(url));
        }
        let Some(ClientMessage::Action(action)) = outcome.message else {
            return Ok(BridgeAction::Handled);
        };
        let mut forwarded_props = Map::new();
        // The middleware reads the v0.8 `userAction` shape, whatever the surface's version.
        let mut user_action = v08::user_action(&action);
        if !action.extensions.is_empty() {
            user_action["userAction"]["metadata"] = json!({ "extensions": action.extensions });
        }
        forwarded_props.insert(A2UI_ACTION_PROP.to_owned(), user_action);
        if action.version == Version::V1_0 {
            let envelope = ClientMessage::Action(action.clone()).to_wire();
            forwarded_props.insert(A2UI_ACTION_MESSAGE_PROP.to_owned(), envelope);
        }
        if let Some(data_model) = outcome.client_data_model {
            forwarded_props.insert(A2UI_CLIENT_DATA_MODEL_PROP.to_owned(), data_model);
        }
        Ok(BridgeAction::SendToAgent { forwarded_props, message: Box::new(ClientMessage::Action(action)) })
    }

    /// Asks the engine for a v1.0 `callAgentFunction` under `function_call_id` (unique among
    /// the calls waiting) and shapes it for its run. Refused for a surface that is not v1.0, a
    /// call naming no function, or when [`agentui_a2ui::group::MAX_PENDING_AGENT_CALLS`] wait.
    pub fn call_agent_function(
        &mut self,
        surface_id: &str,
        function_call_id: &str,
        call_function: Value,
    ) -> Result<AgentFunctionCall, A2uiError> {
        let envelope = self.group.call_agent_function(surface_id, function_call_id, call_function)?.to_wire();
        let context = Context {
            description: A2UI_CALL_AGENT_FUNCTION_CONTEXT_DESCRIPTION.to_owned(),
            value: json!({ A2UI_CALL_AGENT_FUNCTION_PROP: &envelope }).to_string(),
        };
        let mut forwarded_props = Map::new();
        forwarded_props.insert(A2UI_CALL_AGENT_FUNCTION_PROP.to_owned(), envelope);
        Ok(AgentFunctionCall { function_call_id: function_call_id.to_owned(), forwarded_props, context })
    }

    /// The agent's answer to `function_call_id` if it came (`Err((code, message))` for an
    /// error answer), and the call forgotten either way: the engine stops waiting for it, so a
    /// later answer naming it changes nothing.
    pub fn finish_agent_function(&mut self, function_call_id: &str) -> Option<AgentFunctionAnswer> {
        self.group.forget_agent_call(function_call_id);
        let at = self.answers.iter().position(|a| a.function_call_id == function_call_id)?;
        Some(self.answers.remove(at).result)
    }

    /// Errors collected since the last call, for the next run; empties the queue. A request
    /// that then cannot be sent gives them back ([`Self::restore_pending_for_agent`]).
    pub fn take_pending_for_agent(&mut self) -> PendingForAgent {
        std::mem::take(&mut self.pending)
    }

    /// The errors waiting for the next run (what a store keeps).
    pub fn pending_for_agent(&self) -> &PendingForAgent {
        &self.pending
    }

    /// Puts back errors taken for a request that never reached the agent (or kept by a store),
    /// before any queued since, within [`BridgeLimits::max_pending_errors`].
    ///
    /// [`BridgeLimits::max_pending_errors`]: super::BridgeLimits::max_pending_errors
    pub fn restore_pending_for_agent(&mut self, earlier: PendingForAgent) {
        let later = std::mem::take(&mut self.pending);
        self.pending.append_within(earlier, self.limits.max_pending_errors);
        self.pending.append_within(later, self.limits.max_pending_errors);
    }

    /// `a2uiClientCapabilities`: the catalog ids this client renders (no inline catalogs).
    pub fn capabilities(&self) -> Value {
        self.group.catalogs().client_capabilities(false)
    }

    /// The context entry advertising [`Self::capabilities`] to the model.
    pub fn capabilities_context(&self) -> Context {
        Context {
            description: A2UI_CAPABILITIES_CONTEXT_DESCRIPTION.to_owned(),
            value: json!({ A2UI_CLIENT_CAPABILITIES_PROP: self.capabilities() }).to_string(),
        }
    }

    /// Queues the errors among `emitted` for the next run, up to the limit; counts the rest.
    pub(super) fn queue_for_agent(&mut self, emitted: &[ClientMessage]) {
        // A refused v1.0 `callRendererFunction` is answered with an error response, carried the
        // same way (its envelope says v1.0 and names the agent's functionCallId).
        let for_agent = |m: &&ClientMessage| match m {
            ClientMessage::Error(_) => true,
            ClientMessage::RendererFunctionResponse(r) => r.result.is_err(),
            ClientMessage::Action(_) | ClientMessage::CallAgentFunction(_) => false,
        };
        for message in emitted.iter().filter(for_agent) {
            if self.pending.errors.len() < self.limits.max_pending_errors {
                self.pending.errors.push(message.to_wire());
            } else {
                self.pending.omitted += 1;
            }
        }
    }
}
