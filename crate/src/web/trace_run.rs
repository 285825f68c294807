//! A browser performance trace's tasks run on the page, with the "as
//! recorded" row first in the table and the report. Reading the trace
//! itself happens in its own wasm module (`trace-web/`, loaded by the trace
//! worker only when a visitor opens a trace), so the page's download does
//! not carry the parser.

use wasm_bindgen::prelude::*;

use super::result::{set, table_with, to_js};
use super::Runner;
use crate::experiment::{Experiment, Outcome};
use crate::trace::recorded;

#[cfg(not(feature = "page"))]
#[wasm_bindgen]
impl Runner {
    /// A runner for the experiment of `query` on a trace's tasks (`tasks`,
    /// as the trace module's `TraceLoader::select` gave them) whose recorded starts are
    /// `starts`: the result gets the "as recorded" row first.
    #[wasm_bindgen(js_name = withTrace)]
    pub fn with_trace(query: &str, tasks: &str, starts: &[f64]) -> Result<Runner, JsError> {
        let mut runner = Runner::with_tasks(query, tasks)?;
        let n = runner.workload.as_ref().map_or(0, |w| w.len());
        if starts.len() != n {
            return Err(JsError::new(&format!(
                "{} recorded starts for {n} tasks",
                starts.len()
            )));
        }
        runner.recorded = Some(starts.to_vec());
        Ok(runner)
    }
}

/// Puts the "as recorded" row first in a result's table and report.
pub(crate) fn add_recorded(obj: &JsValue, exp: &Experiment, outcome: &Outcome, starts: &[f64]) {
    let rec = recorded::summary(starts, &outcome.workload.work, exp.within);
    let o = obj.unchecked_ref();
    set(o, "report", &to_js(&recorded::report(outcome, &rec)));
    set(o, "rows", &table_with(outcome, Some(&rec)));
    set(o, "recorded", &true.into());
}
