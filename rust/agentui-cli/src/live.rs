//! The demo agent: `agentui serve-demo` and the scripted `agentui demo`.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use agentui_demo_agent::{DemoAgent, DemoAgentOptions, SCENARIOS};
use agentui_runtime::session::{ActionResult, ClientTool, ConversationSession, SessionOptions, ToolInvocation};
use agentui_runtime::{Conversation, Subscription};
use serde_json::json;

use crate::run::{printing, Printer};
use crate::tree;

/// The demo's conversation, printed as it streams.
struct PrintedConversation {
    conversation: Conversation,
    subscription: Subscription,
    printer: Printer,
}

fn printing_conversation(url: &str) -> Result<PrintedConversation, String> {
    let session = ConversationSession::connect(url, &[], SessionOptions::default()).map_err(|e| e.to_string())?;
    let conversation = Conversation::start(session, tokio::runtime::Handle::current());
    let subscription = conversation.subscribe();
    Ok(PrintedConversation { conversation, subscription, printer: Printer::new(false) })
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().map_err(|e| e.to_string())
}

/// `agentui serve-demo`: the scripted demo agent until Ctrl-C.
pub fn serve_demo(port: u16) -> Result<ExitCode, String> {
    runtime()?.block_on(async {
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let handle = DemoAgent::start(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        outln!("demo agent listening on {} (POST {})", handle.url(), handle.agent_url());
        outln!("scenarios (keyword in the message, or POST /agent/<name>):");
        for scenario in SCENARIOS {
            outln!("  {:<18} {:<10} {}", scenario.name, scenario.keyword.unwrap_or("-"), scenario.summary);
        }
        outln!("from the Android emulator the host is 10.0.2.2; stop with Ctrl-C");
        tokio::signal::ctrl_c().await.map_err(|e| e.to_string())?;
        handle.shutdown().await.map_err(|e| e.to_string())?;
        Ok(ExitCode::SUCCESS)
    })
}

/// `agentui demo`: starts the demo agent in-process and runs a scripted conversation: streamed
/// text, a client tool round trip, an A2UI form printed as a tree, and an action round trip.
pub fn demo() -> Result<ExitCode, String> {
    runtime()?.block_on(async {
        let options = DemoAgentOptions { event_delay: Duration::from_millis(15), ..DemoAgentOptions::default() };
        let handle = DemoAgent::new(options).serve(([127, 0, 0, 1], 0).into()).await.map_err(|e| e.to_string())?;
        let mut demo = printing_conversation(&handle.agent_url())?;
        // A client tool as an app would register it: the device's location, here a fixed city.
        let location = ClientTool::new(
            "get_location",
            "The device's current location",
            json!({"type": "object", "properties": {"precision": {"type": "string", "enum": ["city", "exact"]}}}),
            |_call: ToolInvocation| async { Ok(json!({"city": "Lisbon", "country": "PT"})) },
        )
        .map_err(|e| e.to_string())?;
        demo.conversation.register_tool(location).map_err(|e| e.to_string())?;

        step("1. streamed text");
        turn(&mut demo, "hello!").await?;
        step("2. a client tool: the agent asks, the app answers, the agent quotes the answer");
        turn(&mut demo, "what is my location?").await?;
        step("3. an A2UI surface");
        turn(&mut demo, "book a table for tonight").await?;
        let surface_id = demo
            .conversation
            .snapshot()
            .map_err(|e| e.to_string())?
            .surfaces
            .first()
            .map(|s| s.surface_id.clone())
            .ok_or("no surface")?;
        print_surface(&demo.conversation, &surface_id);
        step("4. the user fills the form and presses Book; the agent answers with the submitted values");
        for (path, value) in
            [("/booking/name", json!("Ada")), ("/booking/date", json!("2026-12-24")), ("/booking/guests", json!(["4"]))]
        {
            outln!("  user sets {path} = {value}");
            demo.conversation.set_value(&surface_id, path, value).map_err(|e| e.to_string())?;
        }
        print_surface(&demo.conversation, &surface_id);
        let action = demo.conversation.dispatch_action(&surface_id, "book");
        match printing(&mut demo.subscription, &demo.printer, action).await.map_err(|e| e.to_string())? {
            ActionResult::Ran(_) => outln!(),
            other => return Err(format!("unexpected action result {other:?}")),
        }
        handle.shutdown().await.map_err(|e| e.to_string())?;
        outln!("\ndemo finished");
        Ok(ExitCode::SUCCESS)
    })
}

fn step(title: &str) {
    outln!("\n=== {title}");
}

async fn turn(demo: &mut PrintedConversation, message: &str) -> Result<(), String> {
    outln!("you: {message}");
    let send = demo.conversation.send_message(message.to_owned());
    printing(&mut demo.subscription, &demo.printer, send).await.map_err(|e| e.to_string())?;
    outln!();
    Ok(())
}

fn print_surface(conversation: &Conversation, surface_id: &str) {
    if let Some(surface) = conversation.surface(surface_id) {
        out!("{}", tree::render_snapshot(&surface));
    }
}
