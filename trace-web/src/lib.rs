//! The page's trace reader (`tailslice::trace` does the work), a wasm
//! module of its own: only the trace worker (`www/trace-worker.js`) loads
//! it, when a visitor opens a trace, so the page's first download does not
//! carry the parser.
//!
//! The worker streams the file (inflated by the browser's
//! `DecompressionStream` when it starts with gzip's magic bytes) into a
//! [`TraceLoader`] chunk by chunk; it parses once and then answers for any
//! thread: the tasks as a task list (what the page runs, exports and saves
//! in the experiment file), each task's recorded start (for the "as
//! recorded" row, `Runner.withTrace` in the page's module), and what was
//! found as numbers and as lines of text in English and Chinese.
//!
//! The trace never leaves the browser, and is never put into the URL.

use js_sys::Float64Array;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use tailslice::experiment::Limits;
use tailslice::text::{Filled, Text};
use tailslice::trace::found::{HANDLER_MARK, LONGEST_CAPTION, LONGEST_HEADS};
use tailslice::trace::{
    self, parse_thread, Found, ParsedTrace, TraceArrivals, TraceError, TraceOptions,
    MAX_TRACE_BYTES,
};
use tailslice::workload::task_list::task_list_text;

fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

fn set(obj: &JsValue, key: &str, value: &JsValue) {
    // Setting a property on a plain object cannot fail.
    let _ = js_sys::Reflect::set(obj, &JsValue::from_str(key), value);
}

/// A trace error as a JS `Error` whose message is the English text and
/// whose `words` are `{en, zh}`: the page shows its reader's language
/// (the worker passes `words` on with the error).
fn thrown(e: TraceError) -> JsValue {
    let err: JsValue = js_sys::Error::new(&e.text.en).into();
    set(&err, "words", &to_js(&e.text));
    err
}

/// The error for a file the worker could not read a chunk of (`gzip`: or
/// inflate with the browser's `DecompressionStream`), `detail` being the
/// browser's own reason.
#[wasm_bindgen(js_name = unreadable)]
pub fn unreadable(gzip: bool, detail: &str) -> JsValue {
    thrown(trace::unreadable(gzip, detail))
}

/// Reads a trace in chunks, then imports any of its threads.
#[wasm_bindgen]
pub struct TraceLoader {
    bytes: Vec<u8>,
    parsed: Option<ParsedTrace>,
}

#[derive(Serialize)]
struct Selected<'a> {
    /// The tasks as simulated (arrivals at t = 0 if asked), as a task list.
    tasks: String,
    count: usize,
    found: &'a Found,
    lines: Filled<Vec<String>>,
    /// The summary without the longest tasks' list (the page's readable
    /// summary shows them as a table).
    summary: Filled<Vec<String>>,
    /// The longest tasks' table: its caption and column headings.
    longest_caption: Text,
    longest_heads: [Text; 3],
    /// Said after a longest task that is an interaction's own handler.
    longest_handler: Text,
}

#[wasm_bindgen]
impl TraceLoader {
    /// A loader for a file of `size` bytes (`gzip`: compressed, so its
    /// inflated size is checked while reading). Fails at once for an
    /// uncompressed file over the limit.
    #[wasm_bindgen(constructor)]
    pub fn new(size: f64, gzip: bool) -> Result<TraceLoader, JsValue> {
        if size > MAX_TRACE_BYTES as f64 {
            return Err(thrown(if gzip {
                trace::too_large_compressed(size as u64)
            } else {
                trace::too_large(size as u64)
            }));
        }
        Ok(TraceLoader {
            bytes: Vec::new(),
            parsed: None,
        })
    }

    /// Appends a chunk of the (inflated) file; fails past the size limit.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsValue> {
        if self.bytes.len() + chunk.len() > MAX_TRACE_BYTES {
            return Err(thrown(trace::too_large_while_read()));
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
    pub fn parse(&mut self) -> Result<(), JsValue> {
        let bytes = std::mem::take(&mut self.bytes);
        let parsed = ParsedTrace::parse(&bytes).map_err(thrown)?;
        self.parsed = Some(parsed);
        Ok(())
    }

    /// Imports `thread` (`PID:TID`, or "" for the inspected page's main
    /// thread): `{tasks, count, found, lines: {en, zh}}`, with
    /// `found.threads` the candidates for the picker.
    pub fn select(&self, thread: &str, t0: bool) -> Result<JsValue, JsValue> {
        let parsed = self
            .parsed
            .as_ref()
            .ok_or_else(|| JsValue::from(JsError::new("the trace has not been read")))?;
        let thread = if thread.is_empty() {
            None
        } else {
            Some(
                parse_thread("thread", thread)
                    .map_err(|e| thrown(TraceError::new(e.messages())))?,
            )
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
        let imp = parsed.extract(&opts).map_err(thrown)?;
        let out = to_js(&Selected {
            tasks: task_list_text(&imp.workload),
            count: imp.workload.len(),
            found: &imp.found,
            lines: Filled::each(|lang| imp.found.lines_for(lang, false)),
            summary: Filled::each(|lang| imp.found.summary_lines(lang)),
            longest_caption: LONGEST_CAPTION,
            longest_heads: LONGEST_HEADS,
            longest_handler: HANDLER_MARK,
        });
        // The interactions and their handler tasks, for the Responsiveness
        // section (only at the recorded starts).
        if !t0 {
            let carried = trace::interactions::Carried {
                interactions: imp.interactions,
                handler: imp.handler,
            };
            set(&out, "interactions", &to_js(&carried));
        }
        // The recorded starts, for the "as recorded" row (a typed array:
        // transferred, not copied, to the page).
        set(
            &out,
            "starts",
            &Float64Array::from(&imp.recorded_start[..]).into(),
        );
        Ok(out)
    }
}
