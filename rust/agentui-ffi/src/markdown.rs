//! Markdown outside chat items: the same parse the chat view runs, for text an app shows itself
//! and for the platforms' renderer cases. Thin: `agentui_markdown` does the work.

use std::sync::Arc;

use agentui_a2ui::functions::UrlPolicy;
use agentui_markdown::{parse_document, MarkdownOptions, MarkdownText, Profile};

/// `text` as the Markdown tree chat items carry: the chat profile, links through the default
/// URL policy (http and https), images off.
#[uniffi::export]
pub fn markdown_text(text: String) -> MarkdownText {
    parse_document(&text, Arc::new(MarkdownOptions::new(Profile::Chat, Arc::new(UrlPolicy::default()))))
}
