//! `agentui run` against the demo agent behind HTTPS with certificates made in the test:
//! `--ca-cert` (PEM or DER) makes it trusted, `--pin` narrows it, and a refusal is exit 1 with
//! the reason on stderr.

use std::net::SocketAddr;
use std::process::{Command, Output};

use agentui_agui::transport::CertificatePin;
use agentui_demo_agent::tls::{TestCa, TlsFront};
use agentui_demo_agent::{DemoAgent, DemoAgentHandle};

fn agentui(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agentui")).args(args).output().expect("agentui runs")
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

#[test]
fn run_trusts_ca_cert_files_checks_pins_and_reports_refusals() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let ca = TestCa::new("agentui CLI test CA").unwrap();
    let leaf = ca.leaf(&["localhost"]).unwrap();
    let (_agent, front): (DemoAgentHandle, TlsFront) = rt.block_on(async {
        let agent = DemoAgent::start(SocketAddr::from(([127, 0, 0, 1], 0))).await.unwrap();
        let front = TlsFront::start(&leaf, agent.local_addr()).await.unwrap();
        (agent, front)
    });
    let url = front.agent_url("localhost");
    let dir = std::env::temp_dir().join(format!("agentui-cli-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pem = dir.join("ca.pem");
    let der = dir.join("ca.der");
    std::fs::write(&pem, ca.pem()).unwrap();
    std::fs::write(&der, ca.der()).unwrap();
    let (pem, der) = (pem.to_str().unwrap(), der.to_str().unwrap());

    let refused = agentui(&["run", &url, "hello", "--json"]);
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused));
    assert!(text(&refused).contains("unknown issuer"), "{}", text(&refused));

    for ca_file in [pem, der] {
        let ok = agentui(&["run", &url, "hello", "--ca-cert", ca_file]);
        assert_eq!(ok.status.code(), Some(0), "{}", text(&ok));
        assert!(text(&ok).contains("Hello!"), "{}", text(&ok));
    }
    let ok = agentui(&["run", &url, "hello", "--ca-cert", pem, "--trust-store", "webpki"]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok));

    let pin = CertificatePin::spki_of(&leaf.der).unwrap().to_string();
    let pinned = agentui(&["run", &url, "hello", "--ca-cert", pem, "--pin", &pin]);
    assert_eq!(pinned.status.code(), Some(0), "{}", text(&pinned));
    let other = CertificatePin::spki_of(&ca.leaf(&["localhost"]).unwrap().der).unwrap().to_string();
    let mismatch = agentui(&["run", &url, "hello", "--ca-cert", pem, "--pin", &other]);
    assert_eq!(mismatch.status.code(), Some(1), "{}", text(&mismatch));
    assert!(text(&mismatch).contains("pin mismatch"), "{}", text(&mismatch));

    let bad_pin = agentui(&["run", &url, "hello", "--pin", "md5/xyz"]);
    assert_eq!(bad_pin.status.code(), Some(2), "{}", text(&bad_pin));
    let missing = agentui(&["run", &url, "hello", "--ca-cert", "/nonexistent/ca.pem"]);
    assert_eq!(missing.status.code(), Some(2), "{}", text(&missing));
    let _ = std::fs::remove_dir_all(&dir);
}
