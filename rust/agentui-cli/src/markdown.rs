//! `agentui markdown`: a text as the core's Markdown tree (JSON), or written back as HTML, so an
//! agent developer sees what both platforms will draw, and the tree can be checked against the
//! CommonMark spec's examples.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use agentui_a2ui::functions::UrlPolicy;
use agentui_markdown::{html, parse_document, AnyUrl, MarkdownOptions, MarkdownStream, MdBlock, Profile, UrlGate};

#[derive(clap::Args)]
pub struct MarkdownArgs {
    /// Where the text is shown: chat, a2ui-v0.9 or a2ui-v1.0.
    #[arg(long, default_value = "chat")]
    profile: String,
    /// Print the tree written back as HTML instead of JSON.
    #[arg(long)]
    html: bool,
    /// Show images, as an app that turns them on (chat only).
    #[arg(long)]
    images: bool,
    /// Let links and images use any URL instead of the default policy (http and https). Only to
    /// check the parser against the CommonMark spec; never what a user is shown.
    #[arg(long)]
    all_urls: bool,
    /// Leave bare URLs (`https://…`, `www.…`) as text: CommonMark has no such autolinks (GitHub's
    /// extension does), so the spec check turns them off.
    #[arg(long)]
    no_autolinks: bool,
    /// With --html: write raw HTML through unescaped, as the CommonMark reference does, to
    /// check the parser against the spec. The platforms always show raw HTML as text.
    #[arg(long)]
    raw_html: bool,
    /// Feed the text in pieces of this many bytes, as a stream does, instead of in one go.
    #[arg(long)]
    pieces: Option<usize>,
    /// The Markdown file, or `-` for standard input.
    file: PathBuf,
}

fn read(file: &Path) -> Result<String, String> {
    if file == Path::new("-") {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map_err(|e| format!("reading standard input: {e}"))?;
        Ok(text)
    } else {
        std::fs::read_to_string(file).map_err(|e| format!("reading {}: {e}", file.display()))
    }
}

/// `text` streamed in pieces of `piece` bytes (cut at character boundaries), each update applied.
fn streamed(text: &str, piece: usize, options: Arc<MarkdownOptions>) -> Vec<MdBlock> {
    let mut stream = MarkdownStream::new(options);
    let mut blocks: Vec<MdBlock> = Vec::new();
    let mut apply = |update: agentui_markdown::MarkdownUpdate| {
        blocks.truncate(update.from as usize);
        blocks.extend(update.blocks);
    };
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + piece.max(1)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        stream.push(&text[at..end]);
        if let Some(update) = stream.update() {
            apply(update);
        }
        at = end;
    }
    if let Some(update) = stream.flush() {
        apply(update);
    }
    blocks
}

pub fn run(args: &MarkdownArgs) -> Result<ExitCode, String> {
    let profile = Profile::from_name(&args.profile)
        .ok_or_else(|| format!("unknown profile {:?}: chat, a2ui-v0.9 or a2ui-v1.0", args.profile))?;
    let urls: Arc<dyn UrlGate> = if args.all_urls { Arc::new(AnyUrl) } else { Arc::new(UrlPolicy::default()) };
    let mut options = MarkdownOptions::new(profile, urls);
    options.images = args.images;
    options.autolinks = !args.no_autolinks;
    let options = Arc::new(options);
    let text = read(&args.file)?;
    let blocks = match args.pieces {
        Some(piece) => streamed(&text, piece, options),
        None => parse_document(&text, options).blocks,
    };
    if args.html {
        out!("{}", if args.raw_html { html::to_html_raw(&blocks) } else { html::to_html(&blocks) });
    } else {
        let json = serde_json::json!({ "profile": profile.name(), "blocks": blocks });
        outln!("{}", serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?);
    }
    Ok(ExitCode::SUCCESS)
}
