//! Markdown in surfaces: the app's URL policy as the Markdown tree's gate, so a link in a chat
//! message and one in a `Text` follow the same rule.

use agentui_markdown::UrlGate;

use crate::functions::UrlPolicy;

impl UrlGate for UrlPolicy {
    /// The `openUrl` rule: an allowed scheme, and http or https whatever else media may use.
    fn allows_link(&self, url: &str) -> bool {
        self.check_open_url(url).is_ok()
    }

    /// The media rule.
    fn allows_image(&self, url: &str) -> bool {
        self.check(url).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_http_only_even_when_media_may_use_more() {
        let policy = UrlPolicy { allowed_schemes: vec!["https".into(), "myapp".into()] };
        assert!(policy.allows_link("https://example.com/a"));
        assert!(!policy.allows_link("myapp://x"), "openUrl never opens another app");
        assert!(policy.allows_image("myapp://x"));
        for url in ["javascript:alert(1)", "data:text/html,x", "file:///etc/passwd", "https://"] {
            assert!(!policy.allows_link(url) && !policy.allows_image(url), "{url}");
        }
    }
}
