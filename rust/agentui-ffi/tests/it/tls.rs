//! TLS trust through the exported API: the options record's extra roots, pins and trust store,
//! and the typed errors Kotlin and Swift see, against the demo agent behind HTTPS.

use std::time::Duration;

use agentui_ffi::demo::start_tls_demo_agent;
use agentui_ffi::{CertificateRejection, ConversationError, ConversationOptions, Runtime, TrustStore};

const LIMIT: Duration = Duration::from_secs(30);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn extra_root_in_the_options_is_trusted_and_its_absence_is_a_typed_refusal() {
    let agent = start_tls_demo_agent().unwrap();
    let runtime = Runtime::new().unwrap();

    let trusted = ConversationOptions { extra_roots_pem: vec![agent.ca_pem()], ..Default::default() };
    let conversation = runtime.connect(agent.agent_url(), Vec::new(), trusted).unwrap();
    tokio::time::timeout(LIMIT, conversation.send_message("hello".into())).await.unwrap().unwrap();

    for store in [None, Some(TrustStore::Platform), Some(TrustStore::WebpkiRoots)] {
        let options = ConversationOptions { trust_store: store, ..Default::default() };
        let conversation = runtime.connect(agent.agent_url(), Vec::new(), options).unwrap();
        let refused = tokio::time::timeout(LIMIT, conversation.send_message("hello".into())).await.unwrap();
        assert!(
            matches!(refused, Err(ConversationError::Certificate { kind: CertificateRejection::UnknownIssuer, .. })),
            "{store:?}: {refused:?}"
        );
    }
    agent.stop().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pins_in_the_options_are_checked_and_bad_ones_are_invalid_options() {
    let agent = start_tls_demo_agent().unwrap();
    let runtime = Runtime::new().unwrap();
    let wrong = format!("sha256/{}", "A".repeat(43) + "=");
    let options = ConversationOptions {
        extra_roots_pem: vec![agent.ca_pem()],
        certificate_pins: vec![wrong],
        ..Default::default()
    };
    let conversation = runtime.connect(agent.agent_url(), Vec::new(), options).unwrap();
    let refused = tokio::time::timeout(LIMIT, conversation.send_message("hello".into())).await.unwrap();
    assert!(
        matches!(refused, Err(ConversationError::Certificate { kind: CertificateRejection::PinMismatch, .. })),
        "{refused:?}"
    );

    for bad in [
        ConversationOptions { certificate_pins: vec!["md5/abc".into()], ..Default::default() },
        ConversationOptions { extra_roots_pem: vec!["not a certificate".into()], ..Default::default() },
        ConversationOptions { extra_roots_der: vec![vec![0x30, 0x00]], ..Default::default() },
    ] {
        let err = runtime.connect(agent.agent_url(), Vec::new(), bad).unwrap_err();
        assert!(matches!(err, ConversationError::InvalidOptions { .. }), "{err:?}");
    }
    agent.stop().unwrap();
}
