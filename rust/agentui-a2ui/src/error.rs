//! Typed errors of the engine. Every error an agent caused can be turned into the v0.9 `error`
//! client message (see [`A2uiError::code`]) so the agent learns what went wrong.

use thiserror::Error;

/// One schema or structure violation, located by the JSON Pointer of the offending value
/// inside the message payload (e.g. `/components/3/text`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{path}: {message}")]
pub struct ValidationIssue {
    pub path: String,
    pub message: String,
}

impl ValidationIssue {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ValidationIssue { path: path.into(), message: message.into() }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum A2uiError {
    /// The payload does not match the schema (catalog, envelope or structure rules).
    #[error("validation failed at {}: {}", .0.first().map(|i| i.path.as_str()).unwrap_or(""), .0.first().map(|i| i.message.as_str()).unwrap_or(""))]
    Validation(Vec<ValidationIssue>),
    /// Not valid JSON, or not an A2UI envelope at all.
    #[error("malformed message: {0}")]
    Malformed(String),
    #[error("unsupported protocol version {0:?}")]
    UnsupportedVersion(String),
    #[error("surface {0:?} already exists")]
    DuplicateSurface(String),
    #[error("surface {0:?} does not exist")]
    UnknownSurface(String),
    #[error("unknown catalog {0:?}")]
    UnknownCatalog(String),
    #[error("{what} limit exceeded: {actual} > {limit}")]
    LimitExceeded { what: &'static str, limit: usize, actual: usize },
    #[error("component {0:?} does not exist")]
    UnknownComponent(String),
    #[error("action refused: {0}")]
    ActionRefused(String),
    /// v1.0: a component placed under a parent its catalog's `allowedParents` does not list.
    #[error("{0}")]
    UnallowedParent(String),
    /// v1.0: a container holding a child its catalog's `allowedChildren` does not list.
    #[error("{0}")]
    UnallowedChild(String),
}

impl A2uiError {
    /// The `code` of the v0.9 `error` message reporting this error to the agent.
    pub fn code(&self) -> &'static str {
        match self {
            A2uiError::Validation(_) => "VALIDATION_FAILED",
            A2uiError::Malformed(_) => "MALFORMED_MESSAGE",
            A2uiError::UnsupportedVersion(_) => "UNSUPPORTED_VERSION",
            A2uiError::DuplicateSurface(_) => "SURFACE_EXISTS",
            A2uiError::UnknownSurface(_) => "SURFACE_NOT_FOUND",
            A2uiError::UnknownCatalog(_) => "CATALOG_NOT_FOUND",
            A2uiError::LimitExceeded { .. } => "LIMIT_EXCEEDED",
            A2uiError::UnknownComponent(_) => "COMPONENT_NOT_FOUND",
            A2uiError::ActionRefused(_) => "ACTION_REFUSED",
            A2uiError::UnallowedParent(_) => "UNALLOWED_PARENT",
            A2uiError::UnallowedChild(_) => "UNALLOWED_CHILD",
        }
    }

    /// The JSON Pointer reported with `VALIDATION_FAILED` (the first issue's path).
    pub fn path(&self) -> Option<&str> {
        match self {
            A2uiError::Validation(issues) => Some(issues.first().map(|i| i.path.as_str()).unwrap_or("")),
            _ => None,
        }
    }

    pub fn validation(path: impl Into<String>, message: impl Into<String>) -> Self {
        A2uiError::Validation(vec![ValidationIssue::new(path, message)])
    }
}
