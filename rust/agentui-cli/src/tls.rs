//! `agentui run`'s TLS options: extra CA certificates, pins and the trust store.

use std::path::PathBuf;

use agentui_agui::transport::{CertificatePin, TlsOptions, TrustStore};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TrustStoreArg {
    /// The operating system's verifier and store (on Linux: SSL_CERT_FILE / SSL_CERT_DIR, else
    /// the distribution's bundle, e.g. Debian's ca-certificates).
    Platform,
    /// Only the Mozilla roots compiled into agentui.
    Webpki,
}

/// TLS trust of the agent's certificate.
#[derive(Debug, clap::Args)]
pub struct TlsArgs {
    /// Also trust this CA certificate (PEM, possibly several, or one DER); repeatable.
    #[arg(long = "ca-cert", value_name = "FILE")]
    pub ca_certs: Vec<PathBuf>,
    /// Accept only a leaf certificate matching PIN: sha256/BASE64 (SHA-256 of its public key,
    /// SubjectPublicKeyInfo) or cert-sha256/BASE64 (of the whole certificate); repeatable (any
    /// one matches). Checked after the chain, never instead of it.
    #[arg(long = "pin", value_name = "PIN")]
    pub pins: Vec<String>,
    /// Where trusted roots come from.
    #[arg(long = "trust-store", value_enum, default_value = "platform")]
    pub trust_store: TrustStoreArg,
}

impl TlsArgs {
    pub fn options(&self) -> Result<TlsOptions, String> {
        let mut tls = TlsOptions {
            trust_store: match self.trust_store {
                TrustStoreArg::Platform => TrustStore::Platform,
                TrustStoreArg::Webpki => TrustStore::WebpkiRoots,
            },
            ..TlsOptions::default()
        };
        for path in &self.ca_certs {
            let bytes = std::fs::read(path).map_err(|e| format!("--ca-cert {}: {e}", path.display()))?;
            let added = if bytes.windows(11).any(|w| w == b"-----BEGIN ") {
                tls.add_roots_pem(&bytes).map(drop)
            } else {
                tls.add_root_der(&bytes)
            };
            added.map_err(|e| format!("--ca-cert {}: {e}", path.display()))?;
        }
        for pin in &self.pins {
            tls.pins.push(pin.parse::<CertificatePin>().map_err(|e| format!("--pin: {e}"))?);
        }
        Ok(tls)
    }
}
