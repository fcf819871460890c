//! `uniffi-bindgen generate <libagentui_ffi.so> --language kotlin|swift --out-dir <dir>`
//! (library mode: the interface is read from the built library's metadata).

fn main() {
    uniffi::uniffi_bindgen_main()
}
