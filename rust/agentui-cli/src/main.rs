//! `agentui`: lets agent developers check that their A2UI stream renders as intended.

#[macro_use]
mod output;

mod a2ui_conformance;
mod agui;
mod conversation_json;
mod gestures;
mod header_command;
mod input;
mod live;
mod locale;
mod markdown;
mod record;
mod run;
mod serve_file;
mod store;
mod store_trace;
mod tls;
mod tree;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use agentui_a2ui::catalog::{Catalog, CatalogRegistry};
use agentui_a2ui::{Limits, Outcome, SurfaceGroup};
use clap::{Parser, Subcommand};
use serde_json::{json, Value};

#[derive(Parser)]
#[command(name = "agentui", version, about = "Embedded agent UI runtime: command-line tool")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// A2UI streams: apply, validate, render.
    A2ui {
        #[command(subcommand)]
        command: A2uiCommand,
    },
    /// AG-UI streams: decode, replay, conformance.
    Agui {
        #[command(subcommand)]
        command: AguiCommand,
    },
    /// Send MESSAGE to the AG-UI agent at URL and play the app: client tools, interrupts, input
    /// on surfaces, and the conversation printed as it streams; with --store, kept in a file
    /// and resumable. Exit 0 completed, 1 agent/transport/protocol error, 2 usage or store
    /// error, 3 stopped at an unanswered interrupt.
    Run(Box<run::RunArgs>),
    /// Conversations kept by `run --store FILE`: list, show, fork, delete.
    Store {
        #[command(subcommand)]
        command: store::StoreCommand,
    },
    /// A Markdown text as the core's tree (JSON) that both platforms draw, or with --html written
    /// back as HTML (raw HTML stays text).
    Markdown(markdown::MarkdownArgs),
    /// Serve the scripted demo agent on 127.0.0.1 until Ctrl-C.
    ServeDemo {
        #[arg(long, default_value_t = 8765)]
        port: u16,
    },
    /// A scripted conversation with the in-process demo agent: streamed text, a client tool
    /// round trip, an A2UI form and an action round trip.
    Demo,
    /// Answer every POST on 127.0.0.1 with FILE as an SSE body (a recorded or generated
    /// stream, e.g. a benchmark workload for `agentui run --thread`) until Ctrl-C.
    ServeSse {
        file: PathBuf,
        #[arg(long, default_value_t = 8766)]
        port: u16,
    },
    /// Serve a folder written by `run --record` on 127.0.0.1: the N-th request gets the N-th
    /// recorded answer; a request beyond the recording gets an error and exit 1 on Ctrl-C. The
    /// first line printed is the URL.
    ServeRecording {
        dir: PathBuf,
        /// 0 picks a free port.
        #[arg(long, default_value_t = 0)]
        port: u16,
    },
    /// Serve a test kit script (JSON, docs/testing-apps.md) on 127.0.0.1; a request no rule
    /// matches gets an error and exit 1 on Ctrl-C. The first line printed is the URL.
    ServeScript {
        file: PathBuf,
        /// 0 picks a free port.
        #[arg(long, default_value_t = 0)]
        port: u16,
    },
}

#[derive(Subcommand)]
enum AguiCommand {
    /// Raw SSE body -> one JSON line per event as the client sees it.
    Decode { file: PathBuf },
    /// Verify and apply a captured stream (SSE body or JSON array of events); print the final
    /// messages, state, activities, warnings and errors as JSON. Exit 1 if the client rejected it.
    Replay {
        file: PathBuf,
        #[command(flatten)]
        locale: locale::LocaleArgs,
    },
    /// Run a directory of AG-UI conformance fixtures: `N passed, M failed`.
    Conformance { dir: PathBuf },
}

#[derive(clap::Args)]
struct StreamArgs {
    /// Extra catalog (A2UI catalog JSON) to register; repeatable.
    #[arg(long = "catalog", value_name = "FILE")]
    catalogs: Vec<PathBuf>,
    #[command(flatten)]
    locale: locale::LocaleArgs,
    /// Messages: a JSON array, JSON Lines, or `{name, description, messages}`.
    file: PathBuf,
}

#[derive(Subcommand)]
enum A2uiCommand {
    /// Apply the messages and print the resolved surfaces and every message sent back, as JSON.
    Apply(StreamArgs),
    /// Validate the messages as a whole without applying them (schema, catalogs, identifiers,
    /// the component graph) and print each error with its path; exit 1 if there is any.
    Validate {
        #[command(flatten)]
        stream: StreamArgs,
        /// Also refuse dangling children, orphaned components and a missing root (the
        /// conformance suite's strict mode); a streaming surface allows them meanwhile.
        #[arg(long)]
        strict: bool,
    },
    /// Apply the messages and print each surface as a text tree.
    Tree(StreamArgs),
    /// Run the A2UI conformance suite (the spec owners' YAML cases under DIR): each case not
    /// passed is named with what differed or why it was not run, then `N passed, N failed`.
    /// Exit 1 if any case failed.
    Conformance { dir: PathBuf },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::A2ui { command } => run_a2ui(command),
        Command::Agui { command } => match command {
            AguiCommand::Decode { file } => agui::decode(&file),
            AguiCommand::Replay { file, locale } => agui::replay(&file, &locale),
            AguiCommand::Conformance { dir } => agui::conformance(&dir),
        },
        Command::Run(args) => run::run(&args),
        Command::Store { command } => store::run(command),
        Command::ServeDemo { port } => live::serve_demo(port),
        Command::Demo => live::demo(),
        Command::ServeSse { file, port } => serve_file::serve_sse(&file, port),
        Command::ServeRecording { dir, port } => record::serve_recording(&dir, port),
        Command::ServeScript { file, port } => record::serve_script(&file, port),
        Command::Markdown(args) => markdown::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("agentui: {message}");
            ExitCode::from(2)
        }
    }
}

fn run_a2ui(command: A2uiCommand) -> Result<ExitCode, String> {
    match command {
        A2uiCommand::Apply(args) => {
            let (group, outcome) = apply_file(&args)?;
            let report = json!({
                "surfaces": group.surfaces().map(surface_report).collect::<Vec<_>>(),
                "emitted": outcome.emitted.iter().map(|m| m.to_wire()).collect::<Vec<_>>(),
            });
            outln!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
            Ok(ExitCode::SUCCESS)
        }
        A2uiCommand::Validate { stream, strict } => {
            // The sequence is validated as a whole, without applying it (agentui_a2ui::validator).
            // Nothing is formatted, but a wrong --locale or --time-zone is still a usage error.
            stream.locale.localization()?;
            let (catalogs, texts) = read_stream(&stream)?;
            let mut messages = Vec::with_capacity(texts.len());
            for (index, text) in texts.iter().enumerate() {
                let value: Value = serde_json::from_str(text)
                    .map_err(|e| format!("{}: message {index} is not JSON: {e}", stream.file.display()))?;
                messages.push(value);
            }
            let findings = agentui_a2ui::validator::validate_messages(&messages, &catalogs, strict);
            for finding in &findings {
                outln!("{} {} at {}: {}", finding.category.as_str(), finding.code, finding.path, finding.message);
            }
            if findings.is_empty() {
                outln!("ok: no errors");
                Ok(ExitCode::SUCCESS)
            } else {
                outln!("{} error(s)", findings.len());
                Ok(ExitCode::from(1))
            }
        }
        A2uiCommand::Conformance { dir } => a2ui_conformance::command(&dir),
        A2uiCommand::Tree(args) => {
            let (group, outcome) = apply_file(&args)?;
            for surface in group.surfaces() {
                out!("{}", tree::render(surface));
            }
            for message in &outcome.emitted {
                outln!("sent to agent: {}", message.to_wire());
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A surface as `apply` and `agui replay` print it: resolved nodes in tree order and the data model.
pub(crate) fn surface_report(surface: &agentui_a2ui::Surface) -> Value {
    json!({
        "surfaceId": surface.id(),
        "catalogId": surface.catalog_id(),
        "root": surface.has_root().then(|| surface.root_id()),
        "nodes": surface.nodes(),
        "dataModel": surface.data_model(),
    })
}

/// The catalogs (the basic ones and each `--catalog`) and the message texts of a stream file.
fn read_stream(args: &StreamArgs) -> Result<(CatalogRegistry, Vec<String>), String> {
    let mut catalogs = CatalogRegistry::with_basic();
    for path in &args.catalogs {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let value: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let catalog = Catalog::from_json(&value).map_err(|e| format!("{}: {e}", path.display()))?;
        catalogs.register(Arc::new(catalog));
    }
    let text = std::fs::read_to_string(&args.file).map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
    let messages = input::message_texts(&text).map_err(|e| format!("{}: {e}", args.file.display()))?;
    Ok((catalogs, messages.into_iter().map(str::to_owned).collect()))
}

/// Runs every message of the file through a fresh surface group.
fn apply_file(args: &StreamArgs) -> Result<(SurfaceGroup, Outcome), String> {
    let localization = args.locale.localization()?;
    let (catalogs, messages) = read_stream(args)?;
    // The app's default memory budget, so a file is judged as a phone would judge it. Each
    // message is parsed by the engine, after its length was checked.
    let limits = agentui_runtime::SurfaceBudget::a2ui_limits(&agentui_agui::MemoryBudget::default(), Limits::default());
    let mut group = SurfaceGroup::new(catalogs, limits).with_localization(localization);
    let mut outcome = Outcome::default();
    for message in &messages {
        let step = group.process_json(message);
        outcome.events.extend(step.events);
        outcome.emitted.extend(step.emitted);
    }
    outcome.emitted.extend(group.flush_pending().emitted);
    Ok((group, outcome))
}
