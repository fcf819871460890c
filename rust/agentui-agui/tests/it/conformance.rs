//! Runs the whole AG-UI 1.1 conformance corpus from the shared checkout (read at test time,
//! never copied into this repository).

use std::fs;
use std::path::PathBuf;

use agentui_agui::conformance::{run_directory, SPEC_EXCEPTIONS};

fn corpus() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/conformance/agui/1.1/streams"))
}

#[test]
fn all_1_1_fixtures_pass() {
    let dir = corpus();
    let manifest = fs::read_to_string(dir.join("MANIFEST.txt")).expect("MANIFEST.txt is readable");
    let listed: Vec<&str> = manifest.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();

    let summary = run_directory(&dir).expect("fixture directory is readable");
    for report in &summary.spec_exceptions {
        println!("passed by spec: {} — {}", report.name, report.spec_exception.as_deref().unwrap_or_default());
    }
    for report in &summary.failures {
        println!("FAILED {}:\n  {}", report.name, report.failures.join("\n  "));
    }
    println!("{} passed, {} failed", summary.passed, summary.failed);

    assert_eq!(summary.passed + summary.failed, listed.len(), "every fixture in MANIFEST.txt ran");
    assert_eq!(summary.failed, 0, "failures: {:#?}", summary.failures);
    assert_eq!(summary.spec_exceptions.len(), SPEC_EXCEPTIONS.len(), "each documented exception was exercised");
}
