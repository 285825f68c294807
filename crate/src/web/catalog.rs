//! The catalog's wasm export: the page builds its controls, labels, policy
//! checkboxes, metric pickers and thresholds from this one value (see
//! [`crate::catalog`]) instead of keeping copies of the core's tables.

use wasm_bindgen::prelude::*;

use super::result::to_js;
use crate::experiment::Limits;

/// `{params, page_params, policies, max_compared, metrics,
/// seed_sweep_metrics, quantum_sweep_metrics, same_pct, langs, qos,
/// machines, scenarios, knobs, limits}` for the browser's limits.
#[wasm_bindgen]
pub fn catalog() -> JsValue {
    to_js(&crate::catalog::catalog(&Limits::WEB))
}

/// The refusal of a file of `bytes` bytes too large to read (before the
/// page reads it), in the page's language `lang`, or `undefined` when it
/// may be read.
#[wasm_bindgen(js_name = fileTooLarge)]
pub fn file_too_large(bytes: f64, lang: &str) -> Option<String> {
    const FILE: crate::text::Text = crate::text::Text::new("the file", "文件");
    crate::workload::task_list::check_bytes(FILE, bytes as usize)
        .err()
        .map(|e| e.message_in(crate::text::Lang::from_tag(lang)).to_string())
}
