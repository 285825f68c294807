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

pub(crate) mod event_timing;
pub(crate) mod events;
pub mod found;
#[cfg(not(target_arch = "wasm32"))]
pub mod gzip;
pub mod interactions;
pub(crate) mod tasks;
pub(crate) mod threads;

use std::fmt;

use crate::text::{Filled, Lang, Text};
use crate::workload::task_list::MAX_IMPORT_TASKS;
use crate::workload::Workload;

pub use events::ThreadKey;
pub use found::Found;
pub use tasks::Task;
pub(crate) use threads::Candidate;

/// Largest trace read, uncompressed (256 MiB).
pub const MAX_TRACE_BYTES: usize = 256 * 1024 * 1024;
/// Most tasks taken from one thread.
pub const MAX_TRACE_TASKS: usize = MAX_IMPORT_TASKS;
/// The two bytes every gzip stream starts with.
pub const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// A file that could not be imported, with one message a user can act on,
/// in English and Chinese (the page and the CLI show their reader's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    pub text: Filled,
}

impl TraceError {
    /// The message: a [`Text`], or a template filled in both languages.
    pub fn new(text: impl Into<Filled>) -> Self {
        TraceError { text: text.into() }
    }

    /// The message in `lang`.
    pub fn message(&self, lang: Lang) -> &str {
        self.text.get(lang)
    }
}

/// The English message (what `--json` consumers and logs read).
impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text.en)
    }
}

impl std::error::Error for TraceError {}

/// When the imported tasks arrive (`recorded` or `t0` in JSON).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
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
            return Err(TraceError::new(Text::new(
                "the file is gzip-compressed; it must be inflated before it is read",
                "文件经过 gzip 压缩，须先解压再读取",
            )));
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
                    let key = key.to_string();
                    TraceError::new(Filled::each(|lang| {
                        Text::new(
                            "thread {} has no tasks in this trace; threads with tasks: {}",
                            "这个 trace 中线程 {} 没有任务；有任务的线程：{}",
                        )
                        .fill(lang, &[&key, &threads::list(&self.candidates, lang)])
                    }))
                })?,
            None => self
                .default
                .ok_or_else(|| threads::none_found(&self.events))?,
        };
        let cand = &self.candidates[chosen];
        let list = tasks::extract(&self.events, cand.thread)?;
        if list.tasks.len() > opts.max_tasks {
            return Err(TraceError::new(
                Text::new(
                    "thread {} has {} tasks; at most {} are accepted",
                    "线程 {} 有 {} 个任务；最多接受 {} 个",
                )
                .both(&[
                    &cand.key.to_string(),
                    &list.tasks.len().to_string(),
                    &opts.max_tasks.to_string(),
                ]),
            ));
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
    TraceError::new(
        Text::new(
            "the trace is {} bytes uncompressed; at most {} bytes (256 MiB) are read",
            "trace 解压后有 {} 字节；最多读取 {} 字节（256 MiB）",
        )
        .both(&[&bytes.to_string(), &MAX_TRACE_BYTES.to_string()]),
    )
}

/// The message for a gzip file over the size limit before it is inflated.
pub fn too_large_compressed(bytes: u64) -> TraceError {
    TraceError::new(
        Text::new(
            "the file is {} bytes compressed; at most {} bytes (256 MiB) are read",
            "文件压缩后有 {} 字节；最多读取 {} 字节（256 MiB）",
        )
        .both(&[&bytes.to_string(), &MAX_TRACE_BYTES.to_string()]),
    )
}

/// The message for a trace that grows past the size limit while it is
/// read (or inflated) a chunk at a time.
pub fn too_large_while_read() -> TraceError {
    TraceError::new(
        Text::new(
            "the trace is more than {} bytes uncompressed; at most 256 MiB are read",
            "trace 解压后超过 {} 字节；最多读取 256 MiB",
        )
        .both(&[&MAX_TRACE_BYTES.to_string()]),
    )
}

/// The message for a file whose bytes could not be read (`gzip`: or
/// inflated). `detail` is the system's own reason, in English: the
/// Chinese message says what it means instead.
pub fn unreadable(gzip: bool, detail: &str) -> TraceError {
    TraceError::new(
        if gzip {
            Text::new(
                "the gzip data does not inflate: {}",
                "gzip 数据无法解压：文件被截断或已损坏，请重新下载或保存",
            )
        } else {
            Text::new(
                "cannot read the file: {}",
                "无法读取文件：请检查它是否仍然存在且可读",
            )
        }
        .both(&[detail]),
    )
}

/// Imports a trace in one step: bytes in (JSON in either form, or gzip on
/// native targets), the chosen thread's tasks out, or one clear error.
/// Never panics, whatever the bytes (the fuzz target's entry point).
pub fn import_trace(bytes: &[u8], opts: &TraceOptions) -> Result<TraceImport, TraceError> {
    ParsedTrace::parse(bytes)?.extract(opts)
}
