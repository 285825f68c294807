//! What a panic in the wasm leaves behind: its message, for the page.
//!
//! A Rust panic in wasm ends as a trap ("RuntimeError: unreachable"), which
//! says nothing to a visitor and may leave the instance unusable. The hook
//! keeps the panic's own message (where and why), so the page can show it
//! in its banner and then replace the broken instance (the worker is
//! terminated and started again; the main thread loads a fresh instance).

use std::sync::Mutex;

use wasm_bindgen::prelude::*;

static LAST: Mutex<Option<String>> = Mutex::new(None);

/// Installs the hook when the module is instantiated.
#[wasm_bindgen(start)]
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let text = info.to_string();
        if let Ok(mut last) = LAST.lock() {
            *last = Some(text);
        }
    }));
}

/// The message of the last panic in this instance, if any (then the
/// instance must not be used again).
#[wasm_bindgen(js_name = lastPanic)]
pub fn last_panic() -> Option<String> {
    LAST.lock().ok().and_then(|l| l.clone())
}

/// Panics on purpose: the test hook for the recovery path.
#[wasm_bindgen(js_name = panicForTest)]
pub fn panic_for_test() {
    panic!("tailslice: a deliberate panic (test hook)");
}
