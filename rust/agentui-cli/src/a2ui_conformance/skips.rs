//! The suite's transition configuration (conformance/README.md, "Harness Configuration &
//! Transition Skip Lists"): the protocol versions this renderer runs, and the cases it skips,
//! each with its reason. A skipped case still runs: if it passes it is reported as a failure, so
//! a case that starts passing must leave the list.

/// The protocol versions the engine reads (v0.8 through its adapter). A case written for another
/// version is skipped.
pub const SUPPORTED_PROTOCOL_VERSIONS: &[&str] = &["v0.8", "v0.9", "v0.9.1", "v1.0"];

/// Every skipped case, by name, with its reason.
pub fn skip_reason(name: &str) -> Option<&'static str> {
    SKIP_TEST_NAMES.iter().find(|(skipped, _)| *skipped == name).map(|(_, why)| *why)
}

/// The cases skipped: those that contradict the pack's newer layer, then those that go against a
/// rule of ours or check another kind of renderer.
pub const SKIP_TEST_NAMES: &[(&str, &str)] = &[
    // Contradict the newer layer (catalogs/basic/v1/catalog.json and the schemas): we follow the
    // catalog and the schemas.
    ("test_index_function_in_collection_loop", "uses a `Collection` component that no catalog of the pack defines (any version); lists repeat with a ChildList template"),
    ("test_index_function_with_offset", "uses a `Collection` component that no catalog of the pack defines"),
    ("test_index_function_nested_path", "uses a `Collection` component that no catalog of the pack defines"),
    (
        "test_action_direct_name_shorthand",
        "an action {name, context} matches no Action shape: common_types.json of v0.9, v0.9.1 and v1.0 all allow only {event} or {functionCall}",
    ),
    (
        "test_action_function_call_unknown_function_reports_expression_error",
        "FunctionCall is oneOf the catalog's anyFunction (v1.0 common_types.json, catalogs/basic/v1): an unknown function is refused on arrival (VALIDATION_FAILED), no code EXPRESSION_ERROR exists in any schema",
    ),
    (
        "test_action_event_context_unknown_function_reports_expression_error",
        "FunctionCall is oneOf the catalog's anyFunction: the call is refused on arrival (VALIDATION_FAILED) before any tap",
    ),
    // The accessibility cases name catalogs/basic/v1/catalog.json, whose Button has `child`
    // and no `title`, and which has no `Container`.
    ("test_accessibility_attributes_plumbing", "Button.title is not in catalogs/basic/v1 (the catalog the case names): refused"),
    ("test_accessibility_implicit_label_inference", "Button.title is not in catalogs/basic/v1: refused (a Button's label comes from its child)"),
    ("test_accessibility_interactive_roles_and_states", "Button.title, CheckBox.checked and ChoicePicker.selectedIndex are not in catalogs/basic/v1: refused"),
    ("test_accessibility_dynamic_label_and_hidden_binding", "Button.title is not in catalogs/basic/v1: refused"),
    ("test_accessibility_live_region_assertive", "Container is not a component of catalogs/basic/v1: refused"),
    ("test_multi_catalog_surface_default_fallback", "Button.title is not in the basic catalog v1: refused"),
    (
        "test_evaluate_function_open_url_valid_https",
        "catalogs/basic/v1 marks openUrl requiresUserActivation: it runs only from a user gesture (an action), never at evaluation",
    ),
    // Rules of ours a case goes against, and checks that belong to another kind of renderer (a
    // web page, an SDK's node layer).
    (
        "test_rpc_call_renderer_function_requires_user_activation",
        "deliberate: an agent's message is never a user gesture, so a requiresUserActivation function is refused; the case's harness flag userActivationPresent has no counterpart in any A2UI message (its twin ..._user_activation_denied passes)",
    ),
    (
        "test_accessibility_hidden_subtree",
        "its accessibility tree matches (hidden reaches the node); its axe-core rule checks a web DOM, which no native renderer has",
    ),
    (
        "test_multi_catalog_version_mismatch_error",
        "one renderer here serves v0.9 and v1.0 surfaces at once, so its catalogs mix versions by design and a surface has no list of its own: a v0.9 catalog is refused when a v1.0 surface's component or call names it (tests/it/v10.rs), not for being registered",
    ),
    // node_resolution.yaml drives the upstream SDK's node layer, which has operations no
    // A2UI message has (grep of every schema and suite in the pack: only this suite names
    // a removal) and parents that hold their children as objects.
    (
        "shared_definition_independent_instances",
        "its step remove_component is an SDK node-layer operation: no A2UI message (v0.8 to v1.0) removes one component, so the engine has nothing to drive it with",
    ),
    (
        "root_lifecycle",
        "its step remove_component is an SDK node-layer operation: no A2UI message (v0.8 to v1.0) removes one component",
    ),
    (
        "pending_child_replacement",
        "a node names its children by instance id, so a parent whose pending child arrives is unchanged and not re-sent: the patch carries the new child (the SDK's parent holds the child object and re-emits)",
    ),
];
