//! Your real workload: a browser performance trace (Chrome DevTools' "Save
//! profile…", Lighthouse, Puppeteer/Playwright tracing, `chrome://tracing`,
//! Perfetto's JSON export) turned into a [`Workload`] of the inspected
//! page's main-thread tasks.
//!
//! Core code with no web types, shared by the CLI and the page's worker.
//! One job per file:
//!
//! - [`events`]: format detection and the event-by-event JSON reader;
//! - [`threads`]: which thread is the inspected page's main thread;
//! - [`tasks`]: the top-level tasks of a thread;
//! - [`found`]: the "what was found" summary, in English and Chinese;
//! - `gzip` (native only): inflating `.json.gz` within the size limit (the
//!   page inflates with the browser's `DecompressionStream` instead).
//!
//! [`import_trace`] is the single entry point (bytes in, a workload or one
//! clear error out); [`ParsedTrace`] splits it in two so a front end can
//! let the visitor pick another thread without reading the file again.

pub mod event_timing;
pub mod events;
pub mod found;
#[cfg(not(target_arch = "wasm32"))]
pub mod gzip;
pub mod interactions;
pub mod tasks;
pub mod threads;

use std::fmt;

use crate::workload::task_list::MAX_IMPORT_TASKS;
use crate::workload::Workload;

pub use events::ThreadKey;
pub use found::Found;
pub use tasks::Task;
pub use threads::Candidate;

/// Largest trace read, uncompressed (256 MiB).
pub const MAX_TRACE_BYTES: usize = 256 * 1024 * 1024;
/// Most tasks taken from one thread.
pub const MAX_TRACE_TASKS: usize = MAX_IMPORT_TASKS;
/// The two bytes every gzip stream starts with.
pub const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// A file that could not be imported, with one message a user can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    pub message: String,
}

impl TraceError {
    pub fn new(message: impl Into<String>) -> Self {
        TraceError {
            message: message.into(),
        }
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TraceError {}

/// When the imported tasks arrive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TraceArrivals {
    /// Each task at its recorded start (ms from the first task).
    #[default]
    Recorded,
    /// Every task at t = 0, as in the study.
    T0,
}

/// How to import: which thread, when tasks arrive, how many at most.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceOptions {
    /// `None`: the inspected page's main thread as found.
    pub thread: Option<ThreadKey>,
    pub arrivals: TraceArrivals,
    pub max_tasks: usize,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            thread: None,
            arrivals: TraceArrivals::Recorded,
            max_tasks: MAX_TRACE_TASKS,
        }
    }
}

/// Parses `--thread` / the page's choice: `PID:TID`.
pub fn parse_thread(field: &str, text: &str) -> Result<ThreadKey, crate::error::ParamError> {
    let bad = || {
        crate::error::ParamError::new(
            field,
            text,
            crate::text::Text::new(
                "PID:TID, two whole numbers as listed under \"threads\" (e.g. 1234:1)",
                "PID:TID，即“threads”下列出的两个整数（如 1234:1）",
            ),
        )
    };
    let (p, t) = text.trim().split_once(':').ok_or_else(bad)?;
    let pid = p.trim().parse::<i64>().map_err(|_| bad())?;
    let tid = t.trim().parse::<i64>().map_err(|_| bad())?;
    Ok(ThreadKey { pid, tid })
}

/// A trace read once, from which any thread's tasks can be taken.
#[derive(Debug)]
pub struct ParsedTrace {
    events: events::Events,
    candidates: Vec<Candidate>,
    /// The candidate chosen when none is asked for.
    default: Option<usize>,
    how: threads::How,
}

/// The result of an import.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceImport {
    /// The tasks, ready for any policy.
    pub workload: Workload,
    /// Each task as it ran: recorded end − recorded start, in task order.
    pub recorded: Vec<f64>,
    /// Each task's recorded start, ms from the first task (the workload's
    /// arrivals unless they were set to t = 0).
    pub recorded_start: Vec<f64>,
    pub found: Found,
    /// The interactions the trace records (`EventTiming`), on the tasks'
    /// timeline, and INP.
    pub interactions: interactions::Interactions,
    /// Each task: whether it is an interaction's own handler (in task
    /// order).
    pub handler: Vec<bool>,
}

impl ParsedTrace {
    /// Reads a trace's bytes: JSON (either form), or gzip on native targets.
    pub fn parse(bytes: &[u8]) -> Result<ParsedTrace, TraceError> {
        if bytes.starts_with(&GZIP_MAGIC) {
            #[cfg(not(target_arch = "wasm32"))]
            {
                let inflated = gzip::inflate(bytes, MAX_TRACE_BYTES)?;
                return Self::parse_json(&inflated);
            }
            #[cfg(target_arch = "wasm32")]
            return Err(TraceError::new(
                "the file is gzip-compressed; it must be inflated before it is read",
            ));
        }
        Self::parse_json(bytes)
    }

    fn parse_json(bytes: &[u8]) -> Result<ParsedTrace, TraceError> {
        if bytes.len() > MAX_TRACE_BYTES {
            return Err(too_large(bytes.len() as u64));
        }
        let mut events = events::read(bytes)?;
        tasks::sort(&mut events);
        let (candidates, default, how) = threads::find(&events);
        Ok(ParsedTrace {
            events,
            candidates,
            default,
            how,
        })
    }

    /// Threads one could import: the page's main thread(s) first.
    pub fn candidates(&self) -> &[Candidate] {
        &self.candidates
    }

    /// The tasks of the chosen thread as a workload.
    pub fn extract(&self, opts: &TraceOptions) -> Result<TraceImport, TraceError> {
        let chosen = match &opts.thread {
            Some(key) => self
                .candidates
                .iter()
                .position(|c| &c.key == key)
                .ok_or_else(|| {
                    TraceError::new(format!(
                        "thread {key} has no tasks in this trace; threads with tasks: {}",
                        threads::list(&self.candidates)
                    ))
                })?,
            None => self
                .default
                .ok_or_else(|| threads::none_found(&self.events))?,
        };
        let cand = &self.candidates[chosen];
        let list = tasks::extract(&self.events, cand.thread)?;
        if list.tasks.len() > opts.max_tasks {
            return Err(TraceError::new(format!(
                "thread {} has {} tasks; at most {} are accepted",
                cand.key,
                list.tasks.len(),
                opts.max_tasks
            )));
        }
        let (workload, recorded, recorded_start) =
            tasks::workload(&list, &self.events.names, opts.arrivals)?;
        let (interactions, handler) =
            interactions::find(&self.events, cand.pid, cand.thread, &list);
        let mut found = found::Found::new(
            cand,
            &self.candidates,
            self.how,
            &list,
            &workload,
            &recorded,
            opts.arrivals,
            self.events.instant_tasks,
        );
        for l in &mut found.longest {
            l.handler = handler[l.task];
        }
        Ok(TraceImport {
            workload,
            recorded,
            recorded_start,
            found,
            interactions,
            handler,
        })
    }
}

/// The message for a trace over the size limit.
pub fn too_large(bytes: u64) -> TraceError {
    TraceError::new(format!(
        "the trace is {bytes} bytes uncompressed; at most {MAX_TRACE_BYTES} bytes (256 MiB) are read"
    ))
}

/// Imports a trace in one step: bytes in (JSON in either form, or gzip on
/// native targets), the chosen thread's tasks out, or one clear error.
/// Never panics, whatever the bytes (the fuzz target's entry point).
pub fn import_trace(bytes: &[u8], opts: &TraceOptions) -> Result<TraceImport, TraceError> {
    ParsedTrace::parse(bytes)?.extract(opts)
}
