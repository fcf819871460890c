//! Which certificates a conversation trusts, as the bindings see it, and on Android the JNI
//! entry point that gives `rustls-platform-verifier` the app's `Context`.
//!
//! JNA loads the library with `dlopen` and never calls `JNI_OnLoad`, so the Kotlin layer loads
//! it once more with `System.loadLibrary` (same file, same handle) and calls
//! `AndroidTls.initPlatformVerifier(context)` from `AgentRuntime(context)`. Until then the
//! platform trust store answers a typed error (`ConversationError::TlsConfig` at `connect` for
//! an https URL), never the verifier crate's panic.

use agentui_agui::transport::{CertificatePin, TlsOptions, TransportError};

use crate::error::ConversationError;
use crate::runtime::ConversationOptions;

/// The TLS part of the options; a bad root or pin is `InvalidOptions`.
pub(crate) fn tls_options(options: &ConversationOptions) -> Result<TlsOptions, ConversationError> {
    let invalid = |e: TransportError| ConversationError::InvalidOptions { detail: e.to_string() };
    let mut tls = TlsOptions { trust_store: options.trust_store.unwrap_or_default(), ..TlsOptions::default() };
    for pem in &options.extra_roots_pem {
        tls.add_roots_pem(pem.as_bytes()).map_err(invalid)?;
    }
    for der in &options.extra_roots_der {
        tls.add_root_der(der).map_err(invalid)?;
    }
    for pin in &options.certificate_pins {
        tls.pins.push(pin.parse::<CertificatePin>().map_err(invalid)?);
    }
    Ok(tls)
}

/// `dev.agentui.AndroidTls.initPlatformVerifier(context: Context)`: initialises
/// rustls-platform-verifier with the application context (idempotent). A failure is thrown
/// as a `RuntimeException`; a panic never unwinds into the JVM (`with_env` catches it).
#[cfg(any(target_os = "android", feature = "host-jni"))]
#[no_mangle]
pub extern "system" fn Java_dev_agentui_AndroidTls_initPlatformVerifier<'caller>(
    mut unowned_env: jni::EnvUnowned<'caller>,
    _class: jni::objects::JClass<'caller>,
    context: jni::objects::JObject<'caller>,
) {
    unowned_env.with_env(|env| init_platform_verifier(env, context)).resolve::<jni::errors::ThrowRuntimeExAndDefault>()
}

#[cfg(target_os = "android")]
fn init_platform_verifier(env: &mut jni::Env<'_>, context: jni::objects::JObject<'_>) -> jni::errors::Result<()> {
    rustls_platform_verifier::android::init_with_env(env, context)?;
    agentui_agui::transport::mark_platform_verifier_initialised();
    Ok(())
}

/// A desktop build with `host-jni` (Robolectric tests): the same JNI path up to the verifier,
/// which on the desktop reads the system's store and takes no Context, so this only checks it.
#[cfg(all(not(target_os = "android"), feature = "host-jni"))]
fn init_platform_verifier(env: &mut jni::Env<'_>, context: jni::objects::JObject<'_>) -> jni::errors::Result<()> {
    // IsInstanceOf answers true for null: refuse null first.
    if context.is_null() {
        return Err(jni::errors::Error::NullPtr("context"));
    }
    if !env.is_instance_of(&context, jni::jni_str!("android/content/Context"))? {
        return Err(jni::errors::Error::WrongObjectType);
    }
    Ok(())
}
