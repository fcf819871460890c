//! Markdown parse costs: a 10 KB typical assistant message parsed whole, and the same message
//! streamed through a `MarkdownStream` in 8-byte and 1-byte pieces with an update after each.

use std::hint::black_box;
use std::sync::Arc;

use agentui_markdown::{parse_document, AnyUrl, MarkdownOptions, MarkdownStream, Profile};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// About 10 KB of what assistants write: headings, prose with inline markup and links, lists,
/// code and a table.
fn message() -> String {
    let section = "## Setting up the project\n\nFirst install the **toolchain** and check that `cargo --version` prints \
a recent version. The [guide](https://example.com/guide) has *more detail* on each step, and ~~old~~ notes.\n\n\
1. Clone the repository\n2. Run `cargo build`\n3. Read the output:\n   - warnings are fine\n   - errors are not\n\n\
```rust\nfn main() {\n    println!(\"hello\");\n}\n```\n\n\
| option | default | meaning |\n|:--|:-:|--:|\n| `--fast` | off | skips checks |\n| `--out` | `target` | where builds go |\n\n\
> Note: the first build takes a while.\n\n";
    let mut text = String::new();
    while text.len() < 10 * 1024 {
        text.push_str(section);
    }
    text
}

fn bench(c: &mut Criterion) {
    let options = Arc::new(MarkdownOptions::new(Profile::Chat, Arc::new(AnyUrl)));
    let text = message();
    let mut group = c.benchmark_group("markdown");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("parse_10kb_message", |b| b.iter(|| parse_document(black_box(&text), options.clone())));
    for piece in [8usize, 1] {
        group.bench_function(format!("stream_10kb_message_{piece}b_pieces"), |b| {
            b.iter(|| {
                let mut stream = MarkdownStream::new(options.clone());
                let mut updates = 0usize;
                for chunk in text.as_bytes().chunks(piece) {
                    stream.push(std::str::from_utf8(chunk).unwrap_or_default());
                    updates += stream.update().map_or(0, |u| u.blocks.len());
                }
                updates += stream.flush().map_or(0, |u| u.blocks.len());
                black_box(updates)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
