//! Test PKI and a TLS front for the demo agent (feature `tls`; tests only, never in the app).
//!
//! [`TestCa`] makes a CA and leaf certificates (valid, expired, for other names) with rcgen;
//! [`TlsFront`] accepts TLS on 127.0.0.1 with one leaf and forwards the plain bytes to a
//! backend address (the demo agent), so every scenario can be played over HTTPS.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use time::{Duration, OffsetDateTime};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// A certificate authority made for one test.
pub struct TestCa {
    issuer: Issuer<'static, KeyPair>,
    der: CertificateDer<'static>,
    pem: String,
}

/// A leaf certificate with its key.
#[derive(Clone)]
pub struct TestLeaf {
    pub der: CertificateDer<'static>,
    pub pem: String,
    key_der: Vec<u8>,
    pub key_pem: String,
}

fn failed(e: rcgen::Error) -> std::io::Error {
    std::io::Error::other(e.to_string())
}

impl TestLeaf {
    /// A leaf read back from its PEM texts (certificate, PKCS#8 key), e.g. in a child process.
    pub fn from_pem(cert_pem: &str, key_pem: &str) -> std::io::Result<TestLeaf> {
        use tokio_rustls::rustls::pki_types::pem::PemObject;
        let der = CertificateDer::from_pem_slice(cert_pem.as_bytes()).map_err(std::io::Error::other)?;
        let key = PrivatePkcs8KeyDer::from_pem_slice(key_pem.as_bytes()).map_err(std::io::Error::other)?;
        Ok(TestLeaf {
            der,
            pem: cert_pem.to_owned(),
            key_der: key.secret_pkcs8_der().to_vec(),
            key_pem: key_pem.to_owned(),
        })
    }
}

impl TestCa {
    pub fn new(name: &str) -> std::io::Result<TestCa> {
        let key = KeyPair::generate().map_err(failed)?;
        let mut params = CertificateParams::new(Vec::<String>::new()).map_err(failed)?;
        params.distinguished_name.push(DnType::CommonName, name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let cert = params.self_signed(&key).map_err(failed)?;
        Ok(TestCa { der: cert.der().clone(), pem: cert.pem(), issuer: Issuer::new(params, key) })
    }

    pub fn der(&self) -> &CertificateDer<'static> {
        &self.der
    }

    pub fn pem(&self) -> &str {
        &self.pem
    }

    /// A leaf for `names` (DNS names or IP addresses), valid from yesterday for a year.
    pub fn leaf(&self, names: &[&str]) -> std::io::Result<TestLeaf> {
        let now = OffsetDateTime::now_utc();
        self.leaf_valid(names, now - Duration::days(1), now + Duration::days(365))
    }

    /// A leaf for `names` valid between the two instants (in the past for an expired one).
    pub fn leaf_valid(
        &self,
        names: &[&str],
        not_before: OffsetDateTime,
        not_after: OffsetDateTime,
    ) -> std::io::Result<TestLeaf> {
        let key = KeyPair::generate().map_err(failed)?;
        let mut params =
            CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>()).map_err(failed)?;
        params.distinguished_name.push(DnType::CommonName, names.first().copied().unwrap_or("leaf"));
        params.not_before = not_before;
        params.not_after = not_after;
        let cert = params.signed_by(&key, &self.issuer).map_err(failed)?;
        Ok(TestLeaf {
            der: cert.der().clone(),
            pem: cert.pem(),
            key_der: key.serialize_der(),
            key_pem: key.serialize_pem(),
        })
    }
}

/// Accepts TLS on 127.0.0.1 and pipes each connection to `backend`. Stops when dropped.
pub struct TlsFront {
    addr: SocketAddr,
    handshakes: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl TlsFront {
    /// Must be called inside a tokio runtime.
    pub async fn start(leaf: &TestLeaf, backend: SocketAddr) -> std::io::Result<TlsFront> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf.key_der.clone()));
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .and_then(|b| b.with_no_client_auth().with_single_cert(vec![leaf.der.clone()], key))
            .map_err(std::io::Error::other)?;
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        let addr = listener.local_addr()?;
        let handshakes = Arc::new(AtomicUsize::new(0));
        let counted = handshakes.clone();
        let task = tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let acceptor = acceptor.clone();
                let counted = counted.clone();
                tokio::spawn(async move {
                    // A client that refuses the certificate ends the handshake here.
                    let Ok(mut tls) = acceptor.accept(socket).await else { return };
                    counted.fetch_add(1, Ordering::SeqCst);
                    if let Ok(mut plain) = TcpStream::connect(backend).await {
                        let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
                    }
                });
            }
        });
        Ok(TlsFront { addr, handshakes, task })
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// `https://<host>:<port>/agent`: the host name the client checks the certificate against.
    pub fn agent_url(&self, host: &str) -> String {
        format!("https://{host}:{}/agent", self.addr.port())
    }

    /// Handshakes the client completed (a refused certificate never counts).
    pub fn completed_handshakes(&self) -> usize {
        self.handshakes.load(Ordering::SeqCst)
    }
}

impl Drop for TlsFront {
    fn drop(&mut self) {
        self.task.abort();
    }
}
