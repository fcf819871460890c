//! The TLS configuration every client uses: rustls with the `ring` provider, handed to reqwest
//! through `use_preconfigured_tls`, and one certificate verifier built from [`TlsOptions`]:
//!
//! - [`TrustStore::Platform`] (default): `rustls-platform-verifier`, i.e. Android's
//!   `TrustManager` (so the app's Network Security Config and the user CAs it allows count),
//!   Apple's Security framework (keychain, MDM roots), the system store on Linux (via
//!   `rustls-native-certs`, which honours `SSL_CERT_FILE` / `SSL_CERT_DIR`). On Android it needs
//!   the app's `Context` through JNI first ([`mark_platform_verifier_initialised`]); until then
//!   it is a typed error, never the crate's panic.
//! - [`TrustStore::WebpkiRoots`]: the Mozilla roots compiled in, for hosts without a store.
//!
//! Extra roots are trusted next to the store; pins are checked after the chain was accepted
//! (a pin narrows trust, it never replaces chain and name checks).

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

use base64::Engine as _;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, OtherError, SignatureScheme};

use super::TransportError;

/// Where the roots that vouch for an agent's certificate come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum TrustStore {
    /// The operating system's verifier and store (see the module notes).
    #[default]
    Platform,
    /// Only the Mozilla roots compiled into the library (`webpki-roots`).
    WebpkiRoots,
}

/// A certificate pin: the SHA-256 of the leaf certificate's SubjectPublicKeyInfo (survives a
/// renewal with the same key; the `sha256/BASE64` form OkHttp and HPKP use) or of the whole
/// leaf certificate (`cert-sha256/BASE64`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum CertificatePin {
    SpkiSha256([u8; 32]),
    CertificateSha256([u8; 32]),
}

impl CertificatePin {
    /// The pin of `certificate`'s public key (what `sha256/…` pins).
    pub fn spki_of(certificate: &CertificateDer<'_>) -> Result<Self, TransportError> {
        Ok(CertificatePin::SpkiSha256(sha256(spki(certificate)?.as_ref())))
    }

    /// The pin of the whole `certificate` (what `cert-sha256/…` pins).
    pub fn certificate_of(certificate: &CertificateDer<'_>) -> Self {
        CertificatePin::CertificateSha256(sha256(certificate.as_ref()))
    }

    fn matches(&self, leaf: &CertificateDer<'_>) -> bool {
        match self {
            CertificatePin::SpkiSha256(hash) => spki(leaf).is_ok_and(|k| sha256(k.as_ref()) == *hash),
            CertificatePin::CertificateSha256(hash) => sha256(leaf.as_ref()) == *hash,
        }
    }
}

impl FromStr for CertificatePin {
    type Err = TransportError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let invalid = |why: &str| {
            TransportError::Tls(format!("invalid pin '{text}': {why} (expected sha256/BASE64 or cert-sha256/BASE64)"))
        };
        let (kind, encoded) = text.trim().split_once('/').ok_or_else(|| invalid("no '/'"))?;
        let bytes = base64::engine::general_purpose::STANDARD.decode(encoded).map_err(|_| invalid("not base64"))?;
        let hash: [u8; 32] = bytes.try_into().map_err(|_| invalid("not 32 bytes"))?;
        match kind {
            "sha256" => Ok(CertificatePin::SpkiSha256(hash)),
            "cert-sha256" => Ok(CertificatePin::CertificateSha256(hash)),
            _ => Err(invalid("unknown kind")),
        }
    }
}

impl fmt::Display for CertificatePin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (kind, hash) = match self {
            CertificatePin::SpkiSha256(h) => ("sha256", h),
            CertificatePin::CertificateSha256(h) => ("cert-sha256", h),
        };
        write!(f, "{kind}/{}", base64::engine::general_purpose::STANDARD.encode(hash))
    }
}

impl fmt::Debug for CertificatePin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Which certificates the transport accepts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TlsOptions {
    pub trust_store: TrustStore,
    /// Roots trusted in addition to the store (a corporate or development CA).
    pub extra_roots: Vec<CertificateDer<'static>>,
    /// When not empty, the leaf must match one of these, after the chain was accepted.
    pub pins: Vec<CertificatePin>,
}

impl TlsOptions {
    /// Adds every certificate of a PEM text (`-----BEGIN CERTIFICATE-----` blocks) as a root.
    /// Text with no certificate, or a broken one, is an error.
    pub fn add_roots_pem(&mut self, pem: &[u8]) -> Result<usize, TransportError> {
        let mut added = 0;
        for cert in CertificateDer::pem_slice_iter(pem) {
            let cert = cert.map_err(|e| TransportError::Tls(format!("invalid PEM root certificate: {e}")))?;
            self.add_root_der(cert.as_ref())?;
            added += 1;
        }
        if added == 0 {
            return Err(TransportError::Tls("no PEM certificate found in the extra roots".into()));
        }
        Ok(added)
    }

    /// Adds one DER-encoded certificate as a root; it must parse as a trust anchor.
    pub fn add_root_der(&mut self, der: &[u8]) -> Result<(), TransportError> {
        let cert = CertificateDer::from(der.to_vec());
        webpki::anchor_from_trusted_cert(&cert)
            .map_err(|e| TransportError::Tls(format!("invalid DER root certificate: {e}")))?;
        self.extra_roots.push(cert);
        Ok(())
    }
}

#[cfg(target_os = "android")]
static PLATFORM_VERIFIER_READY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Records that `rustls_platform_verifier::android::init_*` succeeded. The FFI crate's JNI entry
/// point calls it; before it, the platform trust store is a typed error instead of the crate's
/// "Expect rustls-platform-verifier to be initialized" panic.
#[cfg(target_os = "android")]
pub fn mark_platform_verifier_initialised() {
    PLATFORM_VERIFIER_READY.store(true, std::sync::atomic::Ordering::Release);
}

/// Why the platform verifier cannot be used in this process, if it cannot.
fn platform_unavailable() -> Option<String> {
    #[cfg(target_os = "android")]
    if !PLATFORM_VERIFIER_READY.load(std::sync::atomic::Ordering::Acquire) {
        return Some(
            "the Android platform verifier is not initialised: create the runtime with AgentRuntime(context) \
             (or choose TrustStore.WEBPKI_ROOTS)"
                .into(),
        );
    }
    None
}

/// A rustls client configuration for `tls`. With `https`, a platform store that cannot be
/// used in this process is an error here rather than at the first handshake.
pub fn tls_client_config(tls: &TlsOptions, https: bool) -> Result<rustls::ClientConfig, TransportError> {
    if https && tls.trust_store == TrustStore::Platform {
        if let Some(why) = platform_unavailable() {
            return Err(TransportError::Tls(why));
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = AgentVerifier::new(tls, provider.clone())?;
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| TransportError::Tls(e.to_string()))?
        .dangerous() // a custom verifier, not a weaker one: see AgentVerifier
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    // reqwest does not add ALPN to a preconfigured config; without it HTTP/2 is never chosen.
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
}

/// Verifier failures that are not about the chain itself, carried in `rustls::OtherError` so the
/// transport can name them ([`super::CertificateRejection`]).
#[derive(Debug)]
pub(crate) enum VerifierFault {
    PinMismatch,
    PlatformUnavailable(String),
}

impl fmt::Display for VerifierFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifierFault::PinMismatch => f.write_str("the certificate matches none of the configured pins"),
            VerifierFault::PlatformUnavailable(why) => write!(f, "the platform verifier is unavailable: {why}"),
        }
    }
}

impl std::error::Error for VerifierFault {}

fn fault(f: VerifierFault) -> rustls::Error {
    rustls::Error::InvalidCertificate(CertificateError::Other(OtherError(Arc::new(f))))
}

/// The platform verifier, made at the first handshake: on Linux it reads the system store,
/// which a plain-http conversation never needs.
struct LazyPlatform {
    provider: Arc<CryptoProvider>,
    verifier: OnceLock<Result<rustls_platform_verifier::Verifier, String>>,
}

impl LazyPlatform {
    fn get(&self) -> Result<&rustls_platform_verifier::Verifier, rustls::Error> {
        if let Some(why) = platform_unavailable() {
            return Err(fault(VerifierFault::PlatformUnavailable(why)));
        }
        let made = self
            .verifier
            .get_or_init(|| rustls_platform_verifier::Verifier::new(self.provider.clone()).map_err(|e| e.to_string()));
        made.as_ref().map_err(|why| fault(VerifierFault::PlatformUnavailable(why.clone())))
    }
}

/// The verifier of every connection: the trust store, then the extra roots, then the pins.
struct AgentVerifier {
    platform: Option<LazyPlatform>,
    /// The webpki roots and/or the extra roots.
    roots: Option<Arc<WebPkiServerVerifier>>,
    pins: Vec<CertificatePin>,
    algorithms: WebPkiSupportedAlgorithms,
}

impl fmt::Debug for AgentVerifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AgentVerifier")
            .field("platform", &self.platform.is_some())
            .field("roots", &self.roots.is_some())
            .field("pins", &self.pins)
            .finish()
    }
}

impl AgentVerifier {
    fn new(tls: &TlsOptions, provider: Arc<CryptoProvider>) -> Result<Self, TransportError> {
        let mut roots = rustls::RootCertStore::empty();
        if tls.trust_store == TrustStore::WebpkiRoots {
            roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        }
        for cert in &tls.extra_roots {
            roots.add(cert.clone()).map_err(|e| TransportError::Tls(format!("invalid extra root: {e}")))?;
        }
        let roots = if roots.is_empty() {
            None
        } else {
            Some(
                WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
                    .build()
                    .map_err(|e| TransportError::Tls(e.to_string()))?,
            )
        };
        let platform = (tls.trust_store == TrustStore::Platform)
            .then(|| LazyPlatform { provider: provider.clone(), verifier: OnceLock::new() });
        Ok(AgentVerifier {
            platform,
            roots,
            pins: tls.pins.clone(),
            algorithms: provider.signature_verification_algorithms,
        })
    }

    fn verify_chain(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<(), rustls::Error> {
        let by_roots = |roots: &WebPkiServerVerifier| {
            roots.verify_server_cert(end_entity, intermediates, server_name, ocsp, now).map(drop)
        };
        let Some(platform) = &self.platform else {
            return match &self.roots {
                Some(roots) => by_roots(roots),
                None => Err(rustls::Error::General("no trust anchors configured".into())),
            };
        };
        // The platform verifier calls into JNI / Security.framework: whatever happens there must
        // come back as an error, never unwind through rustls and the connection task.
        let by_platform = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            platform.get()?.verify_server_cert(end_entity, intermediates, server_name, ocsp, now).map(drop)
        }))
        .unwrap_or_else(|_| Err(fault(VerifierFault::PlatformUnavailable("the platform verifier panicked".into()))));
        match (by_platform, &self.roots) {
            (Ok(()), _) => Ok(()),
            (Err(platform_error), Some(roots)) => by_roots(roots).map_err(|roots_error| {
                // The extra roots' verdict is the more telling one unless they do not know the issuer.
                if matches!(roots_error, rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer)) {
                    platform_error
                } else {
                    roots_error
                }
            }),
            (Err(platform_error), None) => Err(platform_error),
        }
    }
}

impl ServerCertVerifier for AgentVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.verify_chain(end_entity, intermediates, server_name, ocsp_response, now)?;
        if !self.pins.is_empty() && !self.pins.iter().any(|pin| pin.matches(end_entity)) {
            return Err(fault(VerifierFault::PinMismatch));
        }
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

fn spki(certificate: &CertificateDer<'_>) -> Result<Vec<u8>, TransportError> {
    let cert = webpki::EndEntityCert::try_from(certificate)
        .map_err(|e| TransportError::Tls(format!("cannot read the certificate: {e}")))?;
    Ok(cert.subject_public_key_info().as_ref().to_vec())
}

fn sha256(bytes: &[u8]) -> [u8; 32] {
    let digest = ring::digest::digest(&ring::digest::SHA256, bytes);
    let mut out = [0; 32];
    out.copy_from_slice(digest.as_ref());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_parse_and_print_in_both_forms() {
        let text = format!("sha256/{}", base64::engine::general_purpose::STANDARD.encode([7u8; 32]));
        let pin: CertificatePin = text.parse().unwrap();
        assert_eq!(pin, CertificatePin::SpkiSha256([7; 32]));
        assert_eq!(pin.to_string(), text);
        let cert = text.replace("sha256/", "cert-sha256/");
        assert_eq!(cert.parse::<CertificatePin>().unwrap(), CertificatePin::CertificateSha256([7; 32]));
    }

    #[test]
    fn bad_pins_and_roots_are_typed_errors() {
        for bad in ["", "sha256", "sha256/!!!", "sha256/AAAA", "md5/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="] {
            assert!(matches!(bad.parse::<CertificatePin>(), Err(TransportError::Tls(_))), "{bad}");
        }
        let mut tls = TlsOptions::default();
        assert!(matches!(tls.add_roots_pem(b"not pem"), Err(TransportError::Tls(_))));
        assert!(matches!(
            tls.add_roots_pem(b"-----BEGIN CERTIFICATE-----\n!!\n-----END CERTIFICATE-----\n"),
            Err(TransportError::Tls(_))
        ));
        assert!(matches!(tls.add_root_der(b"\x30\x03\x02\x01\x00"), Err(TransportError::Tls(_))));
        assert!(tls.extra_roots.is_empty());
    }
}
