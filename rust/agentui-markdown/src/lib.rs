//! Markdown parsed once, in the core, for both platforms.
//!
//! Agent text is CommonMark with the GitHub extensions people expect (tables, strikethrough, task
//! lists, autolinks: the last found by a scan of their own, as pulldown-cmark has none),
//! parsed by `pulldown-cmark` into a small typed tree ([`MdBlock`], [`MdInline`]) that
//! both renderers draw as it is: neither platform parses Markdown itself.
//!
//! Agent text is untrusted, so the tree is built under a policy and bounds ([`MarkdownOptions`]):
//! raw HTML is kept as its text, never interpreted; a link survives only when the app's URL gate
//! allows its URL (otherwise its label stays, as text); images are off unless the app turns them
//! on; nesting depth, node count and table cells are bounded, and whatever goes over a bound is
//! shown as its source text ([`MdBlock::PlainText`] with the reason), never dropped.
//!
//! Streamed text is parsed incrementally by a [`MarkdownStream`] (see [`stream`] for how the work
//! per delta stays bounded); a whole text parses with [`parse_document`], which gives the same
//! tree as streaming it in any pieces.

#[cfg(feature = "uniffi")]
uniffi::setup_scaffolding!();

mod autolink;
mod convert;
pub mod html;
pub mod stream;

use std::sync::Arc;

use serde::Serialize;

pub use stream::{parse_document, MarkdownStream, MarkdownUpdate};

/// A block of a Markdown document.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum MdBlock {
    Paragraph {
        inlines: Vec<MdInline>,
    },
    /// `level` 1 to 6.
    Heading {
        level: u8,
        inlines: Vec<MdInline>,
    },
    Quote {
        blocks: Vec<MdBlock>,
    },
    /// A list: `start` is the first number of an ordered list, `None` for a bulleted one. A
    /// tight list's items are drawn without space between their paragraphs. (Not `List`: the
    /// Kotlin binding would shadow `kotlin.collections.List` inside `MdBlock`.)
    #[serde(rename = "list")]
    ItemList {
        start: Option<u64>,
        tight: bool,
        items: Vec<MdListItem>,
    },
    /// Fenced or indented code; `language` is the first word of a fence's info string.
    Code {
        language: Option<String>,
        text: String,
    },
    /// A thematic break (`---`).
    Rule,
    Table {
        alignments: Vec<MdAlignment>,
        header: Vec<MdCell>,
        rows: Vec<Vec<MdCell>>,
    },
    /// Source text shown as it is: raw HTML (never interpreted), or a part that went over a bound.
    PlainText {
        text: String,
        reason: PlainReason,
    },
}

/// Why a [`MdBlock::PlainText`] is shown as its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum PlainReason {
    /// An HTML block: agent HTML is shown as its text.
    Html,
    /// Nested deeper than [`MarkdownLimits::max_depth`].
    TooDeep,
    /// Past [`MarkdownLimits::max_nodes`] for the text.
    TooManyNodes,
    /// A table with more than [`MarkdownLimits::max_table_cells`] cells.
    TooManyCells,
}

/// One item of a list: `task` is `Some(checked)` for a task list item (`- [x]`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct MdListItem {
    pub task: Option<bool>,
    pub blocks: Vec<MdBlock>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct MdCell {
    pub inlines: Vec<MdInline>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum MdAlignment {
    None,
    Left,
    Center,
    Right,
}

/// Inline content. A link whose URL the policy refuses arrives as its label's inlines, an image
/// that is off as its alt text.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum MdInline {
    Text {
        text: String,
    },
    Code {
        text: String,
    },
    /// Raw inline HTML from the text: shown as this text, never interpreted.
    RawHtml {
        text: String,
    },
    Emphasis {
        children: Vec<MdInline>,
    },
    Strong {
        children: Vec<MdInline>,
    },
    Strikethrough {
        children: Vec<MdInline>,
    },
    /// A link the URL policy allows: open it only on the user's tap.
    Link {
        url: String,
        title: Option<String>,
        children: Vec<MdInline>,
    },
    /// An image the app allowed ([`MarkdownOptions::images`]) with a URL the media policy allows:
    /// load it through the host's image loader.
    Image {
        url: String,
        title: Option<String>,
        alt: String,
    },
    /// A line break in the source that is not a hard break: drawn as a space.
    SoftBreak,
    HardBreak,
}

/// The Markdown of a text: its blocks, and how much of the text they cover. While a long block
/// streams, the tree may lag the text (see [`stream`]): a renderer shows the text past
/// `covered_utf16` (Kotlin) or `covered_utf8` (Swift) as plain text after the last block.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct MarkdownText {
    pub blocks: Vec<MdBlock>,
    /// Bytes of the text (UTF-8) the blocks cover.
    pub covered_utf8: u64,
    /// The same length in UTF-16 code units.
    pub covered_utf16: u64,
}

/// Which Markdown a place allows, decided in the core.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// Chat messages: links through the URL policy, images when the app turns them on.
    Chat,
    /// A2UI v0.9 `Text`: "simple Markdown (without HTML, images, or links)": a link shows its
    /// label, an image its alt text.
    A2uiV09,
    /// A2UI v1.0 `Text`, whose headings come through Markdown (the `h1`–`h5` variants are gone):
    /// links through the URL policy, no images.
    A2uiV10,
}

impl Profile {
    /// The profile's name on the command line and in docs.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Chat => "chat",
            Profile::A2uiV09 => "a2ui-v0.9",
            Profile::A2uiV10 => "a2ui-v1.0",
        }
    }

    pub fn from_name(name: &str) -> Option<Profile> {
        [Profile::Chat, Profile::A2uiV09, Profile::A2uiV10].into_iter().find(|p| p.name() == name)
    }
}

/// The app's URL policy as Markdown sees it. `agentui-a2ui`'s `UrlPolicy` implements it (links
/// with the `openUrl` rule, images with the media rule), so links in chat and in surfaces follow
/// the one policy.
pub trait UrlGate: Send + Sync + std::fmt::Debug {
    /// Whether a link to `url` may become tappable.
    fn allows_link(&self, url: &str) -> bool;
    /// Whether an image at `url` may be loaded.
    fn allows_image(&self, url: &str) -> bool;
}

/// Refuses every URL: links show their label, images their alt text.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoUrls;

impl UrlGate for NoUrls {
    fn allows_link(&self, _url: &str) -> bool {
        false
    }
    fn allows_image(&self, _url: &str) -> bool {
        false
    }
}

/// Allows every URL. Only for checking the parser against the CommonMark spec (the CLI's
/// `--all-urls`), never for agent text shown to a user.
#[derive(Debug, Clone, Copy, Default)]
pub struct AnyUrl;

impl UrlGate for AnyUrl {
    fn allows_link(&self, _url: &str) -> bool {
        true
    }
    fn allows_image(&self, _url: &str) -> bool {
        true
    }
}

/// Bounds on one text's tree. Past them, the rest is shown as source text. An app sets them
/// through its memory budget (`MemoryBudget`'s `max_markdown_*` bounds); these defaults are the
/// budget's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarkdownLimits {
    /// Containers inside containers: quotes, lists, list items, emphasis, links.
    pub max_depth: u32,
    /// Blocks and inlines in one text.
    pub max_nodes: u32,
    /// Cells in one table, the header's included.
    pub max_table_cells: u32,
    /// Bytes of text parsed at once (see [`stream::DEFAULT_MAX_PARSE_BYTES`]): a longer block is
    /// cut into consecutive blocks. At least one character is always parsed.
    pub max_parse_bytes: u32,
}

impl Default for MarkdownLimits {
    fn default() -> Self {
        MarkdownLimits {
            max_depth: 16,
            max_nodes: 65_536,
            max_table_cells: 4_096,
            max_parse_bytes: stream::DEFAULT_MAX_PARSE_BYTES as u32,
        }
    }
}

/// How a text is turned into a tree.
#[derive(Debug, Clone)]
pub struct MarkdownOptions {
    pub profile: Profile,
    /// Images in chat text: off by default (their alt text is shown). Ignored by the A2UI
    /// profiles, which never show Markdown images.
    pub images: bool,
    pub urls: Arc<dyn UrlGate>,
    pub limits: MarkdownLimits,
    /// GitHub's extended autolinks: bare `https://…` and `www.…` in text become links (through
    /// the same URL policy). On by default; off only to check the parser against CommonMark,
    /// which has none.
    pub autolinks: bool,
}

impl MarkdownOptions {
    pub fn new(profile: Profile, urls: Arc<dyn UrlGate>) -> Self {
        MarkdownOptions { profile, images: false, urls, limits: MarkdownLimits::default(), autolinks: true }
    }

    fn links_allowed(&self, url: &str) -> bool {
        match self.profile {
            Profile::Chat | Profile::A2uiV10 => self.urls.allows_link(url),
            Profile::A2uiV09 => false,
        }
    }

    fn image_allowed(&self, url: &str) -> bool {
        match self.profile {
            Profile::Chat => self.images && self.urls.allows_image(url),
            Profile::A2uiV09 | Profile::A2uiV10 => false,
        }
    }
}

impl Default for MarkdownOptions {
    /// The chat profile with no URL allowed: a caller passes the app's policy.
    fn default() -> Self {
        MarkdownOptions::new(Profile::Chat, Arc::new(NoUrls))
    }
}

/// The plain text of inlines (an image's alt text, a heading for a screen reader).
pub fn plain_text(inlines: &[MdInline]) -> String {
    let mut out = String::new();
    convert::push_plain(&mut out, inlines);
    out
}
