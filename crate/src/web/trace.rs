//! A browser performance trace on the page (`crate::trace` does the work).
//!
//! - [`TraceLoader`], in the trace worker (`www/trace-worker.js`): the
//!   worker streams the file (inflated by the browser's
//!   `DecompressionStream` when it starts with gzip's magic bytes) into it
//!   chunk by chunk, then it parses once and answers for any thread: the
//!   tasks as a task list (what the page runs, exports and saves in the
//!   experiment file), each task's recorded start, and what was found as
//!   numbers and as lines of text in English and Chinese.
//! - [`Runner::with_trace`], in the simulation worker: a task list run with
//!   the "as recorded" row first in the table and the report.
//!
//! The trace never leaves the browser, and is never put into the URL.

use js_sys::Float64Array;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::result::{set, table_with, to_js};
use super::Runner;
use crate::experiment::{Experiment, Limits, Outcome};
use crate::explain::Lang;
use crate::trace::{
    self, parse_thread, recorded, Found, ParsedTrace, TraceArrivals, TraceOptions, MAX_TRACE_BYTES,
};

/// Reads a trace in chunks, then imports any of its threads.
#[wasm_bindgen]
pub struct TraceLoader {
    bytes: Vec<u8>,
    parsed: Option<ParsedTrace>,
}

#[derive(Serialize)]
struct Lines {
    en: Vec<String>,
    zh: Vec<String>,
}

#[derive(Serialize)]
struct Selected<'a> {
    /// The tasks as simulated (arrivals at t = 0 if asked), as a task list.
    tasks: String,
    count: usize,
    found: &'a Found,
    lines: Lines,
}

#[wasm_bindgen]
impl TraceLoader {
    /// A loader for a file of `size` bytes (`gzip`: compressed, so its
    /// inflated size is checked while reading). Fails at once for an
    /// uncompressed file over the limit.
    #[wasm_bindgen(constructor)]
    pub fn new(size: f64, gzip: bool) -> Result<TraceLoader, JsError> {
        if size > MAX_TRACE_BYTES as f64 {
            return Err(JsError::new(&if gzip {
                format!("the file is {size} bytes compressed; at most {MAX_TRACE_BYTES} bytes (256 MiB) are read")
            } else {
                trace::too_large(size as u64).message
            }));
        }
        Ok(TraceLoader {
            bytes: Vec::new(),
            parsed: None,
        })
    }

    /// Appends a chunk of the (inflated) file; fails past the size limit.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsError> {
        if self.bytes.len() + chunk.len() > MAX_TRACE_BYTES {
            return Err(JsError::new(&format!(
                "the trace is more than {MAX_TRACE_BYTES} bytes uncompressed; at most 256 MiB are read"
            )));
        }
        self.bytes.extend_from_slice(chunk);
        Ok(())
    }

    /// Bytes read so far.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    /// Parses what was pushed (and frees it); fails with the one message
    /// that says what is wrong with the file.
    pub fn parse(&mut self) -> Result<(), JsError> {
        let bytes = std::mem::take(&mut self.bytes);
        let parsed = ParsedTrace::parse(&bytes).map_err(|e| JsError::new(&e.message))?;
        self.parsed = Some(parsed);
        Ok(())
    }

    /// Imports `thread` (`PID:TID`, or "" for the inspected page's main
    /// thread): `{tasks, count, found, lines: {en, zh}}`, with
    /// `found.threads` the candidates for the picker.
    pub fn select(&self, thread: &str, t0: bool) -> Result<JsValue, JsError> {
        let parsed = self
            .parsed
            .as_ref()
            .ok_or_else(|| JsError::new("the trace has not been read"))?;
        let thread = if thread.is_empty() {
            None
        } else {
            Some(parse_thread("thread", thread).map_err(|e| JsError::new(&e.to_string()))?)
        };
        let opts = TraceOptions {
            thread,
            arrivals: if t0 {
                TraceArrivals::T0
            } else {
                TraceArrivals::Recorded
            },
            max_tasks: (Limits::WEB.max_tasks as usize).min(trace::MAX_TRACE_TASKS),
        };
        let imp = parsed
            .extract(&opts)
            .map_err(|e| JsError::new(&e.message))?;
        let out = to_js(&Selected {
            tasks: super::io::tasks_text(&imp.workload),
            count: imp.workload.len(),
            found: &imp.found,
            lines: Lines {
                en: imp.found.lines(Lang::En),
                zh: imp.found.lines(Lang::Zh),
            },
        });
        // The recorded starts, for the "as recorded" row (a typed array:
        // transferred, not copied, to the page).
        set(
            out.unchecked_ref(),
            "starts",
            &Float64Array::from(&imp.recorded_start[..]).into(),
        );
        Ok(out)
    }
}

#[wasm_bindgen]
impl Runner {
    /// A runner for the experiment of `query` on a trace's tasks (`tasks`,
    /// as `TraceLoader::select` gave them) whose recorded starts are
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
