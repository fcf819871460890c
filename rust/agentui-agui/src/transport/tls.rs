//! The TLS configuration every client uses.
//!
//! rustls with the `ring` provider and the Mozilla roots compiled in (`webpki-roots`), handed to
//! reqwest through `use_preconfigured_tls`. Never the platform verifier: on Android it panics on
//! the first connection unless initialised through JNI, which JNA loading never does.

use std::sync::Arc;

use super::TransportError;

/// A rustls client configuration that needs no platform integration.
pub fn tls_client_config() -> Result<rustls::ClientConfig, TransportError> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| TransportError::Tls(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    // reqwest does not add ALPN to a preconfigured config; without it HTTP/2 is never chosen.
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
}
