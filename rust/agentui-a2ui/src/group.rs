//! The surface group: every surface of one conversation, message routing, buffering of messages
//! that arrive before their surface, user input and actions, and the client-to-server messages
//! (errors and actions) the agent must receive.

use std::collections::VecDeque;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::catalog::CatalogRegistry;
use crate::component::CompiledAction;
use crate::dynamic::{Dynamic, Evaluator};
use crate::error::A2uiError;
use crate::functions::{self, UrlPolicy};
use crate::limits::Limits;
use crate::locale::Localization;
use crate::node::SurfaceDiff;
use crate::resolve::{ResolveOptions, ScopedEvaluator};
use crate::surface::{self, OtherCatalogs, Surface};
use crate::wire;
use crate::wire::v09::{
    ActionMessage, CallAgentFunctionMessage, ClientMessage, ErrorMessage, FunctionResponseMessage, ServerMessage,
    UpdateComponents,
};
use crate::wire::v10;

/// v1.0 error code of a `callRendererFunction` the renderer will not run.
pub const INVALID_FUNCTION_CALL: &str = "INVALID_FUNCTION_CALL";
/// The error code of a `rendererFunctionResponse` whose function failed while running.
pub const EXECUTION_ERROR: &str = "EXECUTION_ERROR";

/// A change the renderer must see.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "event", rename_all = "camelCase")]
pub enum SurfaceEvent {
    #[serde(rename_all = "camelCase")]
    Created { surface_id: String, catalog_id: String },
    #[serde(rename_all = "camelCase")]
    Changed { surface_id: String, diff: SurfaceDiff },
    #[serde(rename_all = "camelCase")]
    Deleted { surface_id: String },
}

/// What processing one message (or one input) produced.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    pub events: Vec<SurfaceEvent>,
    /// Client-to-server messages for the agent (errors, in order).
    pub emitted: Vec<ClientMessage>,
    /// v1.0: the agent's answers to this renderer's pending `callAgentFunction`s, in order.
    pub agent_function_responses: Vec<v10::AgentFunctionResponse>,
}

impl Outcome {
    fn merge(&mut self, other: Outcome) {
        self.events.extend(other.events);
        self.emitted.extend(other.emitted);
        self.agent_function_responses.extend(other.agent_function_responses);
    }

    fn error(surface_id: &str, error: &A2uiError) -> Outcome {
        Outcome {
            emitted: vec![ClientMessage::Error(ErrorMessage::from_error(surface_id, error))],
            ..Outcome::default()
        }
    }
}

/// A side effect the host app performs after a user action, already checked against policy.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    OpenUrl(String),
}

/// The result of a user action.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionOutcome {
    /// The `action` message for the agent, for event actions.
    pub message: Option<ClientMessage>,
    /// `a2uiClientDataModel` to attach when the surface was created with `sendDataModel`.
    pub client_data_model: Option<Value>,
    /// Local effects for the host (function-call actions).
    pub effects: Vec<Effect>,
}

type Clock = Arc<dyn Fn() -> String + Send + Sync>;

/// How many `callAgentFunction`s may wait for the agent's answer at once.
pub const MAX_PENDING_AGENT_CALLS: usize = 64;

pub struct SurfaceGroup {
    /// `functionCallId`s of this renderer's `callAgentFunction`s not answered yet.
    agent_calls: Vec<String>,
    catalogs: CatalogRegistry,
    limits: Limits,
    /// The URL policy and the localization every surface resolves with.
    resolve: ResolveOptions,
    surfaces: Vec<Surface>,
    /// Messages for surfaces not created yet, in arrival order.
    pending: VecDeque<ServerMessage>,
    clock: Clock,
}

impl std::fmt::Debug for SurfaceGroup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SurfaceGroup")
            .field("surfaces", &self.surfaces.len())
            .field("pending", &self.pending.len())
            .finish()
    }
}

impl Default for SurfaceGroup {
    fn default() -> Self {
        SurfaceGroup::new(CatalogRegistry::with_basic(), Limits::default())
    }
}

impl SurfaceGroup {
    pub fn new(catalogs: CatalogRegistry, limits: Limits) -> Self {
        SurfaceGroup {
            catalogs,
            limits,
            resolve: ResolveOptions::default(),
            surfaces: Vec::new(),
            pending: VecDeque::new(),
            clock: Arc::new(now_rfc3339),
            agent_calls: Vec::new(),
        }
    }

    pub fn with_url_policy(mut self, policy: UrlPolicy) -> Self {
        self.resolve.url_policy = policy;
        self
    }

    /// The locale and time zone the formatting functions follow (en-US and UTC by default).
    /// Set it before the agent creates surfaces: a surface keeps the one it was created with.
    pub fn with_localization(mut self, localization: Localization) -> Self {
        self.resolve.localization = localization;
        self
    }

    pub fn localization(&self) -> &Localization {
        &self.resolve.localization
    }

    /// Replaces the clock used for action timestamps (tests, replays).
    pub fn with_clock(mut self, clock: impl Fn() -> String + Send + Sync + 'static) -> Self {
        self.clock = Arc::new(clock);
        self
    }

    pub fn catalogs(&self) -> &CatalogRegistry {
        &self.catalogs
    }

    pub fn catalogs_mut(&mut self) -> &mut CatalogRegistry {
        &mut self.catalogs
    }

    /// How many app functions are registered ([`register_host_function`](Self::register_host_function)).
    pub fn host_function_count(&self) -> usize {
        self.resolve.functions.host.len()
    }

    /// Whether the app implements `name` of the catalog `catalog_id` (its own id, not an alias).
    pub fn has_host_function(&self, catalog_id: &str, name: &str) -> bool {
        self.resolve.functions.host.get(catalog_id, name).is_some()
    }

    /// Registers the app's implementation of `name`, a function that the registered catalog
    /// `catalog_id` declares (see [`functions::host`]). Calls of it in that catalog run it from
    /// then on, on the surfaces that exist too (register before they use it: see
    /// [`functions::HostFunctions`]); registering the name again replaces it. Refused
    /// when the catalog is unknown, does not declare the function, or
    /// [`functions::host::MAX_HOST_FUNCTIONS`] are registered.
    pub fn register_host_function(
        &mut self,
        catalog_id: &str,
        name: &str,
        function: Arc<dyn functions::HostFunction>,
    ) -> Result<(), A2uiError> {
        let catalog = self.catalogs.get(catalog_id)?;
        if catalog.function(name).is_none() {
            return Err(A2uiError::ActionRefused(format!("catalog {catalog_id} declares no function {name:?}")));
        }
        if !self.resolve.functions.host.insert(&catalog.id, name, function) {
            return Err(A2uiError::LimitExceeded {
                what: "host functions",
                limit: functions::host::MAX_HOST_FUNCTIONS,
                actual: functions::host::MAX_HOST_FUNCTIONS + 1,
            });
        }
        Ok(())
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    pub fn surfaces(&self) -> impl Iterator<Item = &Surface> {
        self.surfaces.iter()
    }

    pub fn surface(&self, surface_id: &str) -> Option<&Surface> {
        self.surfaces.iter().find(|s| s.id() == surface_id)
    }

    fn surface_index(&self, surface_id: &str) -> Option<usize> {
        self.surfaces.iter().position(|s| s.id() == surface_id)
    }

    /// Number of buffered messages waiting for their surface.
    pub fn pending_count(&self) -> usize {
        self.pending.len()
    }

    /// Processes one message as received (JSON text, v0.9, v0.9.1 or v0.8).
    pub fn process_json(&mut self, text: &str) -> Outcome {
        if text.len() > self.limits.max_message_bytes {
            let error = A2uiError::LimitExceeded {
                what: "message size in bytes",
                limit: self.limits.max_message_bytes,
                actual: text.len(),
            };
            return Outcome::error("", &error);
        }
        match serde_json::from_str::<Value>(text) {
            // The text was within the limit, so is its value.
            Ok(value) => self.process_parsed(value),
            Err(e) => Outcome::error("", &A2uiError::Malformed(e.to_string())),
        }
    }

    /// Processes one parsed message envelope (v0.9, v0.9.1 or v0.8). Its size is checked (as JSON
    /// text, against [`Limits::max_message_bytes`]) before anything is copied.
    pub fn process_value(&mut self, envelope: &Value) -> Outcome {
        if let Some(outcome) = self.oversized(envelope) {
            return outcome;
        }
        self.process_parsed(envelope.clone())
    }

    /// [`SurfaceGroup::process_value`] taking the envelope by value, so large payloads are moved
    /// into the surface instead of copied.
    pub fn process_owned(&mut self, envelope: Value) -> Outcome {
        if let Some(outcome) = self.oversized(&envelope) {
            return outcome;
        }
        self.process_parsed(envelope)
    }

    /// The `LIMIT_EXCEEDED` outcome for an envelope larger than a message may be, found by
    /// counting its JSON text up to the limit (nothing is allocated).
    fn oversized(&self, envelope: &Value) -> Option<Outcome> {
        let limit = self.limits.max_message_bytes;
        if crate::size::encoded_len_within(envelope, limit).is_some() {
            return None;
        }
        let error = A2uiError::LimitExceeded { what: "message size in bytes", limit, actual: limit + 1 };
        Some(Outcome::error(&surface_id_hint(envelope), &error))
    }

    fn process_parsed(&mut self, envelope: Value) -> Outcome {
        let surface_hint = surface_id_hint(&envelope);
        let v1 = wire::Version::of(&envelope) == Ok(wire::Version::V1_0);
        let mut outcome = match wire::parse_server_message(envelope) {
            Ok(messages) => {
                let mut outcome = Outcome::default();
                for message in messages {
                    outcome.merge(self.apply(message));
                }
                outcome
            }
            Err(error) => Outcome::error(&surface_hint, &error),
        };
        // A v1.0 agent is answered in v1.0.
        if v1 {
            for message in &mut outcome.emitted {
                if let ClientMessage::Error(error) = message {
                    error.version = wire::Version::V1_0;
                }
            }
        }
        outcome
    }

    /// Applies one message. Errors are reported in `emitted`, never raised: the stream goes on.
    pub fn apply(&mut self, message: ServerMessage) -> Outcome {
        let message = match message {
            ServerMessage::CallRendererFunction(call) => return self.call_renderer_function(&call),
            // An answer to a pending `callAgentFunction` goes to the host; one to no pending
            // call (unknown, or already answered) changes nothing.
            ServerMessage::AgentFunctionResponse(response) => {
                let mut outcome = Outcome::default();
                if let Some(at) = self.agent_calls.iter().position(|id| *id == response.function_call_id) {
                    self.agent_calls.remove(at);
                    outcome.agent_function_responses.push(response);
                }
                return outcome;
            }
            other => other,
        };
        let surface_id = message.surface_id().to_owned();
        let is_create = matches!(message, ServerMessage::CreateSurface(_));
        if !is_create && self.surface_index(&surface_id).is_none() {
            return self.buffer(message);
        }
        let mut outcome = match self.apply_now(message) {
            Ok(outcome) => outcome,
            Err(error) => return Outcome::error(&surface_id, &error),
        };
        if is_create {
            outcome.merge(self.replay_pending(&surface_id));
        }
        outcome
    }

    /// Recreates a surface from its [`Surface::export`] (a conversation restored after process
    /// death). All or nothing: when a message is refused, a surface it created is deleted again
    /// and the error returned, so nothing half-restored is left to render. The messages must
    /// create one surface and only update it. Their size is not held against
    /// [`Limits::max_message_bytes`]: a surface may hold more than one agent message can carry;
    /// every other limit applies. Messages buffered for the surface are applied after it.
    pub fn restore_surface(&mut self, messages: Vec<Value>) -> Result<Outcome, A2uiError> {
        let mut parsed = Vec::with_capacity(messages.len());
        for envelope in messages {
            parsed.extend(wire::parse_server_message(envelope)?);
        }
        let mut parsed = parsed.into_iter();
        let Some(ServerMessage::CreateSurface(create)) = parsed.next() else {
            return Err(A2uiError::validation("", "a surface is restored from messages starting with its creation"));
        };
        let surface_id = create.surface_id.clone();
        let updates: Vec<ServerMessage> = parsed.collect();
        if let Some(stray) = updates.iter().find(|m| {
            m.surface_id() != surface_id
                || !matches!(m, ServerMessage::UpdateComponents(_) | ServerMessage::UpdateDataModel(_))
        }) {
            return Err(A2uiError::validation(
                "",
                format!(
                    "a surface is restored from its creation and updates of it, not {} of {:?}",
                    stray.kind(),
                    stray.surface_id()
                ),
            ));
        }
        // A refused creation leaves alone the surface that already has the id.
        let mut outcome = self.apply_now(ServerMessage::CreateSurface(create))?;
        for message in updates {
            match self.apply_now(message) {
                Ok(applied) => outcome.merge(applied),
                Err(error) => {
                    if let Some(index) = self.surface_index(&surface_id) {
                        self.surfaces.remove(index);
                    }
                    return Err(error);
                }
            }
        }
        outcome.merge(self.replay_pending(&surface_id));
        Ok(outcome)
    }

    fn buffer(&mut self, message: ServerMessage) -> Outcome {
        if self.pending.len() >= self.limits.max_buffered_messages {
            let error = A2uiError::LimitExceeded {
                what: "messages buffered before createSurface",
                limit: self.limits.max_buffered_messages,
                actual: self.pending.len() + 1,
            };
            return Outcome::error(message.surface_id(), &error);
        }
        self.pending.push_back(message);
        Outcome::default()
    }

    fn replay_pending(&mut self, surface_id: &str) -> Outcome {
        let (ready, rest): (VecDeque<_>, VecDeque<_>) =
            std::mem::take(&mut self.pending).into_iter().partition(|m| m.surface_id() == surface_id);
        self.pending = rest;
        let mut outcome = Outcome::default();
        for message in ready {
            outcome.merge(self.apply(message));
        }
        outcome
    }

    /// Reports every still-buffered message as addressed to a surface that was never created
    /// (call at the end of a stream), and drops them.
    pub fn flush_pending(&mut self) -> Outcome {
        let mut outcome = Outcome::default();
        for message in std::mem::take(&mut self.pending) {
            let error = A2uiError::UnknownSurface(message.surface_id().to_owned());
            outcome.merge(Outcome::error(message.surface_id(), &error));
        }
        outcome
    }

    fn apply_now(&mut self, message: ServerMessage) -> Result<Outcome, A2uiError> {
        let mut outcome = Outcome::default();
        match message {
            ServerMessage::CreateSurface(create) => {
                if self.surface_index(&create.surface_id).is_some() {
                    return Err(A2uiError::DuplicateSurface(create.surface_id));
                }
                if self.surfaces.len() >= self.limits.max_surfaces {
                    return Err(A2uiError::LimitExceeded {
                        what: "surfaces",
                        limit: self.limits.max_surfaces,
                        actual: self.surfaces.len() + 1,
                    });
                }
                // v1.0 lets a surface name no default ("" here): its components and calls name
                // their own catalogs.
                let catalog = match create.catalog_id.as_str() {
                    "" => crate::catalog::Catalog::no_default_v1(),
                    id => self.catalogs.get(id)?,
                };
                let surface = Surface::create(&create, catalog, &self.limits, &self.resolve)?;
                outcome.events.push(SurfaceEvent::Created {
                    surface_id: create.surface_id.clone(),
                    catalog_id: create.catalog_id.clone(),
                });
                self.surfaces.push(surface);
            }
            ServerMessage::UpdateComponents(update) => {
                let index = self
                    .surface_index(&update.surface_id)
                    .ok_or_else(|| A2uiError::UnknownSurface(update.surface_id.clone()))?;
                let mut update = update;
                if self.surfaces[index].catalog_id().is_empty() {
                    name_their_catalogs(&update).map_err(|e| {
                        if update.inline_in_create {
                            pointing_into_create(e)
                        } else {
                            e
                        }
                    })?;
                }
                self.resolve_call_catalogs(index, &mut update)?;
                let inline = update.inline_in_create;
                let in_message = |e| if inline { pointing_into_create(e) } else { e };
                let others = self.components_catalogs(index, &update.components).map_err(in_message)?;
                let diff = self.surfaces[index].update_components(update.components, &others).map_err(in_message)?;
                push_diff(&mut outcome, &update.surface_id, diff);
            }
            ServerMessage::UpdateDataModel(update) => {
                let index = self
                    .surface_index(&update.surface_id)
                    .ok_or_else(|| A2uiError::UnknownSurface(update.surface_id.clone()))?;
                let room = self.data_model_room(index);
                let diff = self.surfaces[index].update_data(update.path.as_deref(), update.value, room)?;
                push_diff(&mut outcome, &update.surface_id, diff);
            }
            ServerMessage::DeleteSurface(delete) => {
                let index = self
                    .surface_index(&delete.surface_id)
                    .ok_or_else(|| A2uiError::UnknownSurface(delete.surface_id.clone()))?;
                self.surfaces.remove(index);
                outcome.events.push(SurfaceEvent::Deleted { surface_id: delete.surface_id });
            }
            ServerMessage::CallRendererFunction(call) => outcome.merge(self.call_renderer_function(&call)),
            ServerMessage::AgentFunctionResponse(_) => {}
        }
        Ok(outcome)
    }

    /// v1.0: the catalogs other than the surface's default that components name (`catalogId`).
    /// Each must be registered and be a v1.0 catalog: anything else is refused with the
    /// component's pointer, never served from another catalog.
    fn components_catalogs(&self, index: usize, components: &[Value]) -> Result<OtherCatalogs, A2uiError> {
        let surface = &self.surfaces[index];
        let mut others = OtherCatalogs::default();
        for (i, component) in components.iter().enumerate() {
            let Some(id) = component.get("catalogId").and_then(Value::as_str) else { continue };
            if id == surface.catalog_id() || others.contains_key(id) {
                continue;
            }
            let at = format!("/updateComponents/components/{i}/catalogId");
            let catalog = self
                .catalogs
                .get(id)
                .map_err(|_| A2uiError::validation(&at, format!("catalog {id:?} is not one this renderer supports")))?;
            if Arc::ptr_eq(&catalog, surface.catalog()) {
                others.insert(id.to_owned(), catalog);
                continue;
            }
            if catalog.is_v1() != surface.catalog().is_v1() {
                return Err(A2uiError::validation(
                    at,
                    format!(
                        "catalog {id:?} is written for protocol {}, the surface for {}: catalogs of one surface share its version",
                        catalog.protocol_version,
                        surface.catalog().protocol_version
                    ),
                ));
            }
            others.insert(id.to_owned(), catalog);
        }
        Ok(others)
    }

    /// v1.0 function calls that name a catalog run in that catalog. The surface's own (under any
    /// of its ids) is taken out of the call, which then runs in the default as any other. Another
    /// must be registered and share the surface's version; the call is written with its
    /// canonical id and checked against that catalog's definition of the function (the surface's
    /// catalog checks the rest of the component, the call's arguments included). Anything else
    /// is refused with the call's pointer, never run in another catalog.
    fn resolve_call_catalogs(&self, index: usize, update: &mut UpdateComponents) -> Result<(), A2uiError> {
        let surface = &self.surfaces[index];
        for (at, id) in std::mem::take(&mut update.catalog_ids) {
            let call_at = at.strip_suffix("/catalogId").unwrap_or(&at);
            // `/updateComponents/components/3/text` or `/createSurface/components/3/text`.
            let within = call_at.split_once("/components").map_or(call_at, |(_, rest)| rest);
            let catalog = self
                .catalogs
                .get(&id)
                .map_err(|_| A2uiError::validation(&at, format!("catalog {id:?} is not one this renderer supports")))?;
            let Some(Value::Object(call)) = pointer_mut_in(&mut update.components, within) else {
                return Err(A2uiError::validation(call_at, "a call's catalogId outside a call"));
            };
            if Arc::ptr_eq(&catalog, surface.catalog()) {
                call.remove("catalogId");
                continue;
            }
            if catalog.is_v1() != surface.catalog().is_v1() {
                return Err(A2uiError::validation(
                    at,
                    format!(
                        "catalog {id:?} is written for protocol {}, the surface for {}: catalogs of one surface share its version",
                        catalog.protocol_version,
                        surface.catalog().protocol_version
                    ),
                ));
            }
            let mut own = call.clone();
            own.remove("catalogId");
            if let Some(error) = catalog.validate_function_call(&Value::Object(own)).into_iter().next() {
                return Err(A2uiError::validation(format!("{call_at}{}", error.instance_path), error.message));
            }
            let name = call.get("call").and_then(Value::as_str).unwrap_or_default();
            if catalog.function(name).is_some_and(|f| f.allowed_callers == crate::catalog::AllowedCallers::AgentOnly) {
                return Err(A2uiError::validation(
                    format!("{call_at}/call"),
                    format!("function {name:?} of catalog {id:?} is agentOnly: the renderer may not call it"),
                ));
            }
            call.insert("catalogId".into(), Value::String(catalog.id.clone()));
        }
        Ok(())
    }

    /// v1.0 `callRendererFunction`: answered with `rendererFunctionResponse`. The named catalog
    /// must be known and hold the function, the function's `allowedCallers` must let the agent
    /// call it, and it must not need a user gesture (an agent's message never is one): otherwise
    /// `INVALID_FUNCTION_CALL`, and nothing changes. Its arguments are checked against the
    /// catalog's schema and the function runs on them as literals (no surface, no data model);
    /// a failure is `EXECUTION_ERROR`. The built-in catalogs let the agent call none of theirs; a
    /// catalog of the app's runs the app's implementation
    /// ([`register_host_function`](Self::register_host_function)).
    fn call_renderer_function(&self, call: &v10::CallRendererFunction) -> Outcome {
        let result = self.run_for_agent(call);
        let response = FunctionResponseMessage { function_call_id: call.function_call_id.clone(), result };
        Outcome { emitted: vec![ClientMessage::RendererFunctionResponse(response)], ..Outcome::default() }
    }

    fn run_for_agent(&self, call: &v10::CallRendererFunction) -> Result<Value, (String, String)> {
        let refuse = |message: String| Err((INVALID_FUNCTION_CALL.to_owned(), message));
        let Ok(catalog) = self.catalogs.get(&call.catalog_id) else {
            return refuse(format!("Catalog '{}' of function '{}' is not supported.", call.catalog_id, call.name));
        };
        let Some(function) = catalog.function(&call.name) else {
            return refuse(format!("Function '{}' is not in catalog '{}'.", call.name, call.catalog_id));
        };
        if !function.allowed_callers.agent_may_call() {
            return refuse(format!(
                "Function '{}' cannot be called by agent (allowedCallers is {}).",
                call.name,
                function.allowed_callers.as_str()
            ));
        }
        if function.requires_user_activation {
            return refuse(format!("Function '{}' requires user activation; an agent's call is none.", call.name));
        }
        let value = serde_json::json!({"call": call.name, "args": call.args});
        if let Some(error) = catalog.validate_function_call(&value).first() {
            return refuse(format!("Function '{}': {} {}", call.name, error.instance_path, error.message));
        }
        let Dynamic::Call(parsed) = Dynamic::parse(&value) else {
            return refuse(format!("Function '{}' is not a call", call.name));
        };
        let data = crate::data_model::DataModel::new(&self.limits);
        // The function runs in the catalog the agent named: the app's implementation there, or
        // the engine's of that name.
        let scope =
            functions::FunctionScope { host: self.resolve.functions.host.clone(), default_catalog: catalog.id.clone() };
        let mut ev = ScopedEvaluator::new(&data, "", &self.resolve.localization)
            .with_validation_results(catalog.is_v1())
            .with_functions(&scope);
        functions::evaluate(&parsed, &mut ev).map_err(|e| (EXECUTION_ERROR.to_owned(), e.to_string()))
    }

    /// The weight surface `index`'s data model may reach: its own bound, and what the other
    /// surfaces leave of the group's.
    fn data_model_room(&self, index: usize) -> usize {
        let others: usize =
            self.surfaces.iter().enumerate().filter(|(i, _)| *i != index).map(|(_, s)| s.data().weight()).sum();
        self.limits.max_total_data_model_bytes.saturating_sub(others).min(self.limits.max_data_model_bytes)
    }

    /// Writes user input to the data model (two-way binding). `path` is absolute. `null` clears
    /// the value (deletes it): unlike an agent's `updateDataModel`, input has no "absent" to say so.
    pub fn set_value(&mut self, surface_id: &str, path: &str, value: Value) -> Result<Outcome, A2uiError> {
        let index = self.surface_index(surface_id).ok_or_else(|| A2uiError::UnknownSurface(surface_id.to_owned()))?;
        let room = self.data_model_room(index);
        let value = (!value.is_null()).then_some(value);
        let diff = self.surfaces[index].update_data(Some(path), value, room)?;
        let mut outcome = Outcome::default();
        push_diff(&mut outcome, surface_id, diff);
        Ok(outcome)
    }

    /// Runs the action of a node (instance id) on a user gesture: resolves the action context
    /// now and builds the `action` message, or runs a local function call. A node whose checks
    /// fail is disabled and refuses.
    pub fn dispatch_action(&mut self, surface_id: &str, instance_id: &str) -> Result<ActionOutcome, A2uiError> {
        self.dispatch_action_with_extensions(surface_id, instance_id, Map::new())
    }

    /// [`Self::dispatch_action`] with renderer-side metadata for the agent: v1.0's
    /// `action.metadata.extensions` (e.g. an audit token the app adds). Its keys must be Unicode
    /// identifiers, and only a v1.0 action has the field: metadata for an older surface's action
    /// is refused rather than dropped.
    pub fn dispatch_action_with_extensions(
        &mut self,
        surface_id: &str,
        instance_id: &str,
        extensions: Map<String, Value>,
    ) -> Result<ActionOutcome, A2uiError> {
        let surface = self.surface(surface_id).ok_or_else(|| A2uiError::UnknownSurface(surface_id.to_owned()))?;
        let node = surface.node(instance_id).ok_or_else(|| A2uiError::UnknownComponent(instance_id.to_owned()))?;
        if !node.enabled {
            return Err(A2uiError::ActionRefused(format!(
                "{instance_id} is disabled: {}",
                node.validation_message.clone().unwrap_or_default()
            )));
        }
        let scope = surface.scope_of(instance_id).unwrap_or_default();
        let def = surface
            .definition(&node.component_id)
            .ok_or_else(|| A2uiError::UnknownComponent(instance_id.to_owned()))?;
        let action =
            def.action.as_ref().ok_or_else(|| A2uiError::ActionRefused(format!("{instance_id} has no action")))?;
        let mut ev = ScopedEvaluator::new(surface.data(), scope, surface.localization())
            .with_validation_results(surface.catalog().is_v1());
        match action {
            CompiledAction::Event { name, context, user_message } => {
                let context: Map<String, Value> = context.iter().map(|(k, v)| (k.clone(), ev.eval(v))).collect();
                let user_message = user_message.as_ref().map(|m| functions::coerce_to_string(&ev.eval(m)));
                // A v1.0 surface draws from v1.0 catalogs only: its action is a v1.0 message.
                let version = if surface.catalog().is_v1() { wire::Version::V1_0 } else { wire::Version::V0_9 };
                if !extensions.is_empty() && version != wire::Version::V1_0 {
                    return Err(A2uiError::ActionRefused(format!(
                        "action metadata is v1.0 only; surface {surface_id} is not v1.0"
                    )));
                }
                if let Some(key) = extensions.keys().find(|k| !wire::v10::is_unicode_identifier(k)) {
                    return Err(A2uiError::ActionRefused(format!(
                        "action metadata extension key {key:?} is not a Unicode identifier"
                    )));
                }
                let message = ClientMessage::Action(ActionMessage {
                    name: name.to_string(),
                    surface_id: surface_id.to_owned(),
                    source_component_id: instance_id.to_owned(),
                    timestamp: (self.clock)(),
                    context,
                    user_message,
                    extensions,
                    version,
                });
                let client_data_model = surface
                    .send_data_model()
                    .then(|| surface::data_model_report(&[surface], surface.catalog().is_v1()));
                Ok(ActionOutcome { message: Some(message), client_data_model, effects: Vec::new() })
            }
            CompiledAction::FunctionCall(Dynamic::Call(call)) if call.name == "openUrl" => {
                let url = call.arg("url").map(|u| functions::coerce_to_string(&ev.eval(u))).unwrap_or_default();
                let url = self.resolve.url_policy.check_open_url(&url).map_err(A2uiError::ActionRefused)?.to_owned();
                Ok(ActionOutcome { message: None, client_data_model: None, effects: vec![Effect::OpenUrl(url)] })
            }
            CompiledAction::FunctionCall(call) => {
                ev.eval(call);
                Ok(ActionOutcome { message: None, client_data_model: None, effects: Vec::new() })
            }
        }
    }

    /// v1.0 `callAgentFunction`: asks the agent to run `call_function` (a `FunctionCall`
    /// object) for a v1.0 surface; the caller picks the `function_call_id` the agent copies
    /// into its `agentFunctionResponse`, which later comes back in
    /// [`Outcome::agent_function_responses`]. At most [`MAX_PENDING_AGENT_CALLS`] wait at once;
    /// an id already waiting is refused, so an answer always names one call.
    pub fn call_agent_function(
        &mut self,
        surface_id: &str,
        function_call_id: &str,
        call_function: Value,
    ) -> Result<ClientMessage, A2uiError> {
        let surface = self.surface(surface_id).ok_or_else(|| A2uiError::UnknownSurface(surface_id.to_owned()))?;
        let refuse = |why: String| Err(A2uiError::ActionRefused(format!("callAgentFunction: {why}")));
        if !surface.catalog().is_v1() {
            return refuse(format!("surface {surface_id} is not v1.0"));
        }
        if function_call_id.is_empty() || self.agent_calls.iter().any(|id| id == function_call_id) {
            return refuse(format!("functionCallId {function_call_id:?} is empty or already waiting"));
        }
        let named = call_function.get("call").or_else(|| call_function.get("@call")).is_some_and(Value::is_string);
        if !named {
            return refuse("callFunction names no function (\"call\")".into());
        }
        if self.agent_calls.len() >= MAX_PENDING_AGENT_CALLS {
            return refuse(format!("{MAX_PENDING_AGENT_CALLS} calls already wait for the agent"));
        }
        self.agent_calls.push(function_call_id.to_owned());
        Ok(ClientMessage::CallAgentFunction(CallAgentFunctionMessage {
            surface_id: surface_id.to_owned(),
            function_call_id: function_call_id.to_owned(),
            call_function,
        }))
    }

    /// Stops waiting for the agent's answer to `function_call_id` (the host gave up: the run
    /// that carried the call ended without one, or was cancelled): its slot among the
    /// [`MAX_PENDING_AGENT_CALLS`] is free again, and a late answer naming it changes nothing.
    /// `false` when no such call waited.
    pub fn forget_agent_call(&mut self, function_call_id: &str) -> bool {
        let Some(at) = self.agent_calls.iter().position(|id| id == function_call_id) else { return false };
        self.agent_calls.remove(at);
        true
    }

    /// How many `callAgentFunction`s wait for the agent's answer.
    pub fn pending_agent_calls(&self) -> usize {
        self.agent_calls.len()
    }

    /// `a2uiClientDataModel` of protocol `version` (`v1.0` / `1.0`, else a v0.x): every surface of
    /// that version created with `sendDataModel`, if any. A surface is of the version of its
    /// catalog (a v1.0 surface without a default catalog included), and a report holds one version.
    pub fn client_data_model(&self, version: &str) -> Option<Value> {
        let v1 = v10::VERSION_STRINGS.contains(&version);
        let surfaces: Vec<&Surface> =
            self.surfaces.iter().filter(|s| s.send_data_model() && s.catalog().is_v1() == v1).collect();
        (!surfaces.is_empty()).then(|| surface::data_model_report(&surfaces, v1))
    }
}

/// On a surface without a default catalog, every component and every function call must name
/// its catalog: the spec's resolution (its own, else the surface's default, else an error).
fn name_their_catalogs(update: &UpdateComponents) -> Result<(), A2uiError> {
    const WHY: &str = "the surface has no default catalog";
    for (i, component) in update.components.iter().enumerate() {
        let at = format!("/updateComponents/components/{i}");
        if component.get("catalogId").is_none() {
            return Err(A2uiError::validation(at, format!("{WHY}: the component must name its catalogId")));
        }
        if let Some(call_at) = call_without_catalog(component, &at, 0) {
            return Err(A2uiError::validation(call_at, format!("{WHY}: the function call must name its catalogId")));
        }
    }
    Ok(())
}

/// The pointer of the first function call under `value` that names no catalog (`@index`, a
/// system function, has none to name).
fn call_without_catalog(value: &Value, at: &str, depth: usize) -> Option<String> {
    if depth > v10::MAX_NESTING {
        return None;
    }
    match value {
        Value::Object(map) => {
            let is_call = map.get("call").and_then(Value::as_str).is_some_and(|name| !name.starts_with('@'));
            if is_call && !map.contains_key("catalogId") {
                return Some(at.to_owned());
            }
            map.iter().find_map(|(key, child)| {
                call_without_catalog(child, &format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")), depth + 1)
            })
        }
        Value::Array(items) => {
            items.iter().enumerate().find_map(|(i, child)| call_without_catalog(child, &format!("{at}/{i}"), depth + 1))
        }
        _ => None,
    }
}

/// The value at `pointer` (`/3/text`) inside `components`.
fn pointer_mut_in<'a>(components: &'a mut [Value], pointer: &str) -> Option<&'a mut Value> {
    let rest = pointer.strip_prefix('/')?;
    let (index, within) = rest.split_once('/').unwrap_or((rest, ""));
    let component = components.get_mut(index.parse::<usize>().ok()?)?;
    if within.is_empty() {
        Some(component)
    } else {
        component.pointer_mut(&format!("/{within}"))
    }
}

/// An error about components that came inline in a v1.0 `createSurface`, pointing there
/// instead of at the `updateComponents` they were applied as.
fn pointing_into_create(error: A2uiError) -> A2uiError {
    match error {
        A2uiError::Validation(issues) => A2uiError::Validation(
            issues
                .into_iter()
                .map(|mut issue| {
                    if let Some(rest) = issue.path.strip_prefix("/updateComponents/") {
                        issue.path = format!("/createSurface/{rest}");
                    }
                    issue
                })
                .collect(),
        ),
        other => other,
    }
}

fn push_diff(outcome: &mut Outcome, surface_id: &str, diff: SurfaceDiff) {
    if !diff.is_empty() {
        outcome.events.push(SurfaceEvent::Changed { surface_id: surface_id.to_owned(), diff });
    }
}

/// The surface id of an envelope that failed to parse, so the error can still name it.
fn surface_id_hint(envelope: &Value) -> String {
    envelope
        .as_object()
        .and_then(|o| o.values().find_map(|body| body.get("surfaceId").and_then(Value::as_str)))
        .unwrap_or_default()
        .to_owned()
}

fn now_rfc3339() -> String {
    // A `Timestamp` displays as RFC 3339 in UTC (`2026-03-01T10:00:00.123456789Z`).
    jiff::Timestamp::now().to_string()
}
