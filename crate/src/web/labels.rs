//! Words the wasm draws on canvases or returns as tooltip text, in the
//! page's language. The page sets them with `setLabels` (from
//! `www/strings/page.js`) when it starts and whenever the language changes;
//! until then (and for any key it leaves out) they are English.

use std::cell::RefCell;

use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::text::Lang;

/// Canvas and tooltip words; `{name}` marks a value filled in by the caller.
#[derive(Clone, Debug, Deserialize)]
#[serde(default)]
pub(crate) struct Labels {
    /// The page's language, for texts the wasm holds in both (a machine's
    /// description, thread names).
    pub lang: Lang,
    pub cdf_x: String,
    pub cdf_y: String,
    pub hist_x: String,
    pub hist_x_cut: String,
    pub hist_y: String,
    /// Gantt block title with several cores: `{policy}`, `{cores}`.
    pub gantt_cores: String,
    pub gantt_too_many: String,
    /// Tooltip: `{task} {class} {long} {work} {arrival} {first} {done}
    /// {latency} {slices} {policy} {core} {start} {end}`.
    pub tip: String,
    pub tip_long: String,
    /// `{n} slice` and `{n} slices`.
    pub slice_one: String,
    pub slice_many: String,
    /// A scenario Gantt's core lane: `{core}`, `{kind}` (P or E).
    pub core_lane: String,
    /// The band limit's line in the priority chart: `{floor}`.
    pub floor: String,
}

impl Default for Labels {
    fn default() -> Self {
        Labels {
            lang: Lang::En,
            cdf_x: "latency (ms)".into(),
            cdf_y: "share of tasks done".into(),
            hist_x: "task duration (ms)".into(),
            hist_x_cut: "task duration (ms; last bin: all longer)".into(),
            hist_y: "tasks".into(),
            gantt_cores: "{policy} · {cores} cores".into(),
            gantt_too_many: "too many slices to draw: the table and plots are complete".into(),
            tip: "task #{task} · class {class}{long}\nwork {work} ms · arrived {arrival} ms\nfirst on a core {first} ms · done {done} ms\nlatency {latency} ms · {slices}\n{policy} core {core}: this slice {start}–{end} ms".into(),
            tip_long: ", long".into(),
            slice_one: "{n} slice".into(),
            slice_many: "{n} slices".into(),
            core_lane: "core {core} · {kind}".into(),
            floor: "floor {floor}".into(),
        }
    }
}

thread_local! {
    static LABELS: RefCell<Labels> = RefCell::new(Labels::default());
}

/// The current labels.
pub(crate) fn get() -> Labels {
    LABELS.with(|l| l.borrow().clone())
}

/// Replaces `{key}` by its value for each pair.
pub(crate) fn fill(template: &str, pairs: &[(&str, &str)]) -> String {
    let mut s = template.to_string();
    for (k, v) in pairs {
        s = s.replace(&format!("{{{k}}}"), v);
    }
    s
}

/// Sets the canvas and tooltip words (`{cdf_x, cdf_y, …}`; missing keys
/// stay English).
#[wasm_bindgen(js_name = setLabels)]
pub fn set_labels(labels: JsValue) -> Result<(), JsError> {
    let l: Labels = serde_wasm_bindgen::from_value(labels)
        .map_err(|e| JsError::new(&format!("labels: {e}")))?;
    LABELS.with(|cell| *cell.borrow_mut() = l);
    Ok(())
}
