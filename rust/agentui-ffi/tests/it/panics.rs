//! A panic in an exported function must arrive as an error status, never unwind into the
//! foreign caller. Calls the generated C entry point exactly as the bindings do.

// Links the library (and, through its demo-agent feature, the host-test helpers), whose
// generated entry points are declared below.
extern crate agentui_ffi;

use uniffi::{RustBuffer, RustCallStatus, RustCallStatusCode};

extern "C" {
    fn uniffi_agentui_ffi_demo_fn_func_panic_for_tests(message: RustBuffer, status: &mut RustCallStatus);
    fn uniffi_agentui_ffi_fn_func_set_log_level(level: RustBuffer, status: &mut RustCallStatus);
}

#[test]
fn a_panic_becomes_an_unexpected_error_status() {
    let mut status = RustCallStatus::default();
    let message = RustBuffer::from_vec(b"deliberate".to_vec());
    // SAFETY: the signature the scaffolding generates for `panic_for_tests(String)`.
    unsafe { uniffi_agentui_ffi_demo_fn_func_panic_for_tests(message, &mut status) };
    assert_eq!(status.code, RustCallStatusCode::UnexpectedError);
    let text = String::from_utf8(std::mem::ManuallyDrop::into_inner(status.error_buf).destroy_into_vec()).unwrap();
    assert!(text.contains("deliberate"), "{text}");
}

#[test]
fn malformed_foreign_input_is_an_error_not_a_crash() {
    // An enum discriminant no LogLevel has, as corrupt foreign data would send.
    let mut status = RustCallStatus::default();
    let level = RustBuffer::from_vec(99i32.to_be_bytes().to_vec());
    // SAFETY: the signature the scaffolding generates for `set_log_level(LogLevel)`.
    unsafe { uniffi_agentui_ffi_fn_func_set_log_level(level, &mut status) };
    assert_ne!(status.code, RustCallStatusCode::Success);
}
