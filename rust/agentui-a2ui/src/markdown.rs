//! Markdown in surfaces: the profile of `Text` per catalog version, its tree, and the app's URL
//! policy as the Markdown tree's gate, so a link in a chat message and one in a `Text` follow
//! the same rule.

use std::sync::Arc;

use agentui_markdown::{parse_document, MarkdownLimits, MarkdownOptions, MdBlock, Profile, UrlGate};

use crate::functions::UrlPolicy;

/// The Markdown a surface's `Text` may use, decided by its catalog: v1.0 catalogs (whose `Text`
/// lost its `h1`–`h5` variants, headings now coming through Markdown) get links through the URL
/// policy; v0.9 and v0.8 catalogs "simple Markdown (without HTML, images, or links)".
pub fn text_profile(catalog: &crate::catalog::Catalog) -> Profile {
    // The catalog's declared protocol version, not its id: an app's own v1.0 catalog has any id.
    if catalog.is_v1() {
        Profile::A2uiV10
    } else {
        Profile::A2uiV09
    }
}

/// A `Text`'s tree under `profile`, within `limits` (the surface's share of the memory budget).
pub fn text_tree(text: &str, profile: Profile, policy: &UrlPolicy, limits: MarkdownLimits) -> Vec<MdBlock> {
    let options = MarkdownOptions { limits, ..MarkdownOptions::new(profile, Arc::new(policy.clone())) };
    parse_document(text, Arc::new(options)).blocks
}

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
    use agentui_markdown::MdInline;

    #[test]
    fn the_catalog_version_decides_the_text_profile() {
        use crate::catalog::Catalog;
        assert_eq!(text_profile(&Catalog::basic()), Profile::A2uiV09);
        assert_eq!(text_profile(&Catalog::basic_v1()), Profile::A2uiV10);
        let policy = UrlPolicy::default();
        let text = "## Total\n\nSee [terms](https://example.com/t) ![x](https://example.com/x.png)";
        let v09 = text_tree(text, Profile::A2uiV09, &policy, MarkdownLimits::default());
        assert!(matches!(v09[0], MdBlock::Heading { level: 2, .. }));
        assert_eq!(v09[1], MdBlock::Paragraph { inlines: vec![MdInline::Text { text: "See terms x".into() }] });
        let v10 = text_tree(text, Profile::A2uiV10, &policy, MarkdownLimits::default());
        assert!(matches!(&v10[1], MdBlock::Paragraph { inlines } if matches!(inlines[1], MdInline::Link { .. })));
    }

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
