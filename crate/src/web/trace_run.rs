//! A browser performance trace's tasks run on the page, with the "as
//! recorded" row first in the table and the report. Reading the trace
//! itself happens in its own wasm module (`trace-web/`, loaded by the trace
//! worker only when a visitor opens a trace), so the page's download does
//! not carry the parser.

use wasm_bindgen::prelude::*;

use super::result::{reading_with, set, table_beside_recorded, table_with, to_js};
use crate::experiment::{reading, recorded};
use crate::experiment::{Experiment, RunOutcome};
use crate::text::{Filled, Lang};

/// Puts the "as recorded" row first in a result's table and report. When
/// the policies ran the tasks at their recorded starts, it is the baseline
/// of every change; when they ran them all from t = 0, comparing with it
/// would only measure the queueing that t = 0 adds, so the first policy is
/// the baseline and the reading says what the recorded row is.
pub(crate) fn add_recorded(obj: &JsValue, exp: &Experiment, outcome: &RunOutcome, starts: &[f64]) {
    let rec = recorded::summary(starts, &outcome.workload.work, exp.within);
    let o = obj.unchecked_ref();
    set(o, "report", &to_js(&recorded::report(outcome, &rec)));
    let at_recorded_starts = outcome.workload.arrival.as_slice() == starts;
    if at_recorded_starts {
        set(o, "rows", &table_with(outcome, Some(&rec)));
        set(o, "reading", &reading_with(outcome, Some(&rec)));
        if reading::nothing_waits(outcome) {
            set(o, "above", &to_js(&Filled::from(recorded::REPLAYS_ALIKE)));
        }
    } else {
        set(o, "rows", &table_beside_recorded(outcome, &rec));
        set(o, "reading", &reading_with(outcome, None));
        // The reading under the table begins by saying what the recorded
        // row is.
        let explain = js_sys::Object::new();
        for lang in Lang::ALL {
            let shown = js_sys::Reflect::get(obj, &"explain".into())
                .ok()
                .and_then(|e| js_sys::Reflect::get(&e, &lang.code().into()).ok())
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            let note = recorded::BESIDE_T0.get(lang);
            let gap = match lang {
                Lang::En if !shown.is_empty() => " ",
                _ => "",
            };
            let joined = format!("{note}{gap}{shown}");
            set(&explain, lang.code(), &joined.into());
        }
        set(o, "explain", &explain.into());
    }
    set(o, "recorded", &true.into());
}
