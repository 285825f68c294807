//! A browser performance trace's tasks run on the page, with the "as
//! recorded" row first in the table and the report. Reading the trace
//! itself happens in its own wasm module (`trace-web/`, loaded by the trace
//! worker only when a visitor opens a trace), so the page's download does
//! not carry the parser.

use wasm_bindgen::prelude::*;

use super::result::{reading_with, set, table_with, to_js};
use crate::experiment::recorded;
use crate::experiment::{Experiment, Outcome};

/// Puts the "as recorded" row first in a result's table and report.
pub(crate) fn add_recorded(obj: &JsValue, exp: &Experiment, outcome: &Outcome, starts: &[f64]) {
    let rec = recorded::summary(starts, &outcome.workload.work, exp.within);
    let o = obj.unchecked_ref();
    set(o, "report", &to_js(&recorded::report(outcome, &rec)));
    set(o, "rows", &table_with(outcome, Some(&rec)));
    set(o, "reading", &reading_with(outcome, Some(&rec)));
    set(o, "recorded", &true.into());
}
