//! Where a subcommand's tasks come from: `--tasks-file PATH` (a task list),
//! `--trace-in FILE` with `--thread PID:TID` (a browser performance trace's
//! main-thread tasks; `tailslice::trace` does the work), or, with neither,
//! the generated workload of the experiment flags. One loader with the same
//! checks for `simulate`, `sweep` and `responsiveness`: the flags that
//! cannot go with an import, the file's size before it is read, then its
//! parser's one-line message.

use tailslice::error::{fmt_mib, shown};
use tailslice::experiment::{Experiment, Limits, Param};
use tailslice::param_spec::help_block;
use tailslice::text::{Lang, Text};
use tailslice::trace::{self, ParsedTrace, ThreadKey, TraceArrivals, TraceImport, TraceOptions};
use tailslice::workload::task_list::{self, MAX_IMPORT_TASKS};
use tailslice::workload::{Arrivals, Workload};

use super::fail;

/// The `--tasks-file` help line, its limits read off the task list's.
pub(super) fn tasks_file_help() -> String {
    help_block(
        "  --tasks-file PATH",
        &format!(
            "run on your own tasks: one duration in ms per line, or CSV arrival_ms,duration_ms[,class] (header optional, # comments; a class NAME@nice=N gives its tasks nice N for eevdf); at most {MAX_IMPORT_TASKS} tasks and {}; replaces --seed, --tasks, --mix, --rng and --arrivals",
            fmt_mib(task_list::MAX_IMPORT_BYTES)
        ),
        22,
    )
}

/// Help lines for `--trace-in` and `--thread`, shared by the subcommands,
/// their limits read off the trace importer's.
pub(super) fn trace_help() -> String {
    let trace_in = help_block(
        "  --trace-in FILE",
        &format!(
            "run on a browser performance trace's main-thread tasks: a Trace Event file (.json, or .json.gz, detected by its bytes) as DevTools \"Save profile…\", Lighthouse, Puppeteer/Playwright or chrome://tracing save it; at most {} uncompressed and {} tasks. Each task arrives at its recorded start (--arrivals t0: all at t = 0); replaces --seed, --tasks, --mix and --rng",
            fmt_mib(trace::MAX_TRACE_BYTES),
            trace::MAX_TRACE_TASKS
        ),
        22,
    );
    let thread = help_block(
        "  --thread PID:TID",
        "with --trace-in: the thread to import (default: the inspected page's main thread; the others are listed)",
        22,
    );
    trace_in + &thread
}

/// Flags that describe a generated workload, so they make no sense with
/// `--tasks-file`.
const WORKLOAD_PARAMS: [Param; 5] = [
    Param::Seed,
    Param::Tasks,
    Param::Mix,
    Param::Rng,
    Param::Arrivals,
];

/// The tasks' source flags, as given.
#[derive(Default)]
pub(super) struct TaskSource {
    tasks_file: Option<String>,
    trace: Option<String>,
    thread: Option<ThreadKey>,
    /// The language of a trace's own error (what is wrong with the file).
    lang: Lang,
}

/// The tasks a subcommand runs on.
pub(super) enum Loaded {
    /// None imported: the experiment's own generated workload.
    Generated,
    /// A task list (`--tasks-file`).
    List(Workload),
    /// A trace's tasks (`--trace-in`), with its summary and recorded starts.
    Trace(Box<TraceImport>),
}

impl Loaded {
    /// The imported workload, if any.
    pub fn workload(&self) -> Option<&Workload> {
        match self {
            Loaded::Generated => None,
            Loaded::List(w) => Some(w),
            Loaded::Trace(t) => Some(&t.workload),
        }
    }
}

impl TaskSource {
    /// Whether `name` (without dashes) is one of the source flags.
    pub fn is_flag(name: &str) -> bool {
        matches!(name, "tasks-file" | "trace-in" | "thread")
    }

    /// Takes `--tasks-file`, `--trace-in` or `--thread` (`name` without
    /// dashes); returns the exit code for a bad value.
    pub fn set(&mut self, name: &str, value: String) -> Result<(), i32> {
        match name {
            "tasks-file" | "trace-in" if value.trim().is_empty() => {
                Err(fail(&format!("invalid --{name} '': expected a file path")))
            }
            "tasks-file" => {
                self.tasks_file = Some(value);
                Ok(())
            }
            "trace-in" => {
                self.trace = Some(value);
                Ok(())
            }
            _ => {
                self.thread = Some(
                    trace::parse_thread("--thread", &value).map_err(|e| fail(&e.to_string()))?,
                );
                Ok(())
            }
        }
    }

    /// Says what is wrong with a trace file in `lang` (`--lang`); the
    /// rest of an error line, flags and system errors stay English.
    pub fn set_lang(&mut self, lang: Lang) {
        self.lang = lang;
    }

    /// The file the tasks come from, if imported (for headings).
    pub fn path(&self) -> Option<&str> {
        self.trace.as_deref().or(self.tasks_file.as_deref())
    }

    /// The flag that imports tasks, if one was given.
    pub fn flag(&self) -> Option<&'static str> {
        if self.trace.is_some() {
            Some("--trace-in")
        } else if self.tasks_file.is_some() {
            Some("--tasks-file")
        } else {
            None
        }
    }

    /// Reads the tasks, or reports why not (exit code 2): the flags `given`
    /// for the experiment must not contradict the import, the file must
    /// exist and fit the limits, and parse. An import sets the experiment's
    /// task count (`Experiment::for_workload`); the size of the run it
    /// leads to is the caller's to check.
    pub fn load(
        &self,
        exp: &mut Experiment,
        given: &[Param],
        limits: &Limits,
    ) -> Result<Loaded, i32> {
        if self.thread.is_some() && self.trace.is_none() {
            return Err(fail(
                "--thread needs --trace-in: it picks a thread of the trace",
            ));
        }
        let max_tasks =
            usize::try_from(limits.max_tasks).map_or(MAX_IMPORT_TASKS, |m| m.min(MAX_IMPORT_TASKS));
        let loaded = match (&self.trace, &self.tasks_file) {
            (Some(path), tasks_file) => {
                let arrivals = trace_arrivals(exp, given, tasks_file.is_some())?;
                let opts = TraceOptions {
                    thread: self.thread.clone(),
                    arrivals,
                    max_tasks,
                };
                Loaded::Trace(Box::new(read_trace(path, &opts, self.lang)?))
            }
            (None, Some(path)) => {
                if let Some(p) = given.iter().find(|p| WORKLOAD_PARAMS.contains(p)) {
                    return Err(fail(&format!(
                        "--tasks-file cannot be combined with {}: the file gives the tasks (durations, arrivals and classes)",
                        p.flag()
                    )));
                }
                Loaded::List(read_tasks_file(path, max_tasks)?)
            }
            (None, None) => return Ok(Loaded::Generated),
        };
        if let Some(w) = loaded.workload() {
            *exp = exp.for_workload(w);
        }
        Ok(loaded)
    }
}

/// Checks that `path` is a file of at most `max` bytes, before reading it.
fn check_file(flag: &str, path: &str, max: usize, what: &str) -> Result<(), i32> {
    let bad = |why: String| fail(&format!("invalid {flag} '{}': {why}", shown(path)));
    match std::fs::metadata(path) {
        Ok(m) if m.len() > max as u64 => Err(bad(format!(
            "the file is {} bytes; at most {max} bytes ({what}) are accepted",
            m.len()
        ))),
        Ok(m) if m.is_dir() => Err(bad("it is a directory, not a file".to_string())),
        Ok(_) => Ok(()),
        Err(e) => Err(bad(format!("cannot read it: {e}"))),
    }
}

/// Reads and parses a task list.
fn read_tasks_file(path: &str, max_tasks: usize) -> Result<Workload, i32> {
    let size = fmt_mib(task_list::MAX_IMPORT_BYTES);
    check_file("--tasks-file", path, task_list::MAX_IMPORT_BYTES, &size)?;
    let bad = |why: String| fail(&format!("invalid --tasks-file '{}': {why}", shown(path)));
    let text = std::fs::read_to_string(path)
        .map_err(|e| bad(format!("cannot read it as UTF-8 text: {e}")))?;
    task_list::parse_task_list(&text, max_tasks as u64).map_err(|e| bad(e.to_string()))
}

/// Reads and imports a trace; what is wrong with the file is said in `lang`.
fn read_trace(path: &str, opts: &TraceOptions, lang: Lang) -> Result<TraceImport, i32> {
    // A compressed file larger than the limit cannot inflate within it.
    check_file(
        "--trace-in",
        path,
        trace::MAX_TRACE_BYTES,
        &format!("{} uncompressed", fmt_mib(trace::MAX_TRACE_BYTES)),
    )?;
    let bad = |why: String| fail(&format!("invalid --trace-in '{}': {why}", shown(path)));
    let bytes = std::fs::read(path).map_err(|e| bad(format!("cannot read it: {e}")))?;
    ParsedTrace::parse(&bytes)
        .and_then(|p| p.extract(opts))
        .map_err(|e| {
            const INVALID: Text =
                Text::new("invalid --trace-in '{}': {}", "--trace-in '{}' 无效：{}");
            fail(&INVALID.fill(lang, &[&shown(path), e.message(lang)]))
        })
}

/// Checks the flags that cannot go with `--trace-in`, and reads the
/// arrivals choice from `--arrivals`.
fn trace_arrivals(
    exp: &Experiment,
    given: &[Param],
    tasks_file: bool,
) -> Result<TraceArrivals, i32> {
    if tasks_file {
        return Err(fail(
            "--trace-in cannot be combined with --tasks-file: give one source of tasks",
        ));
    }
    for p in [Param::Seed, Param::Tasks, Param::Mix, Param::Rng] {
        if given.contains(&p) {
            return Err(fail(&format!(
                "--trace-in cannot be combined with {}: the trace gives the tasks",
                p.flag()
            )));
        }
    }
    if !given.contains(&Param::Arrivals) {
        return Ok(TraceArrivals::Recorded);
    }
    match exp.arrivals {
        Arrivals::T0 => Ok(TraceArrivals::T0),
        other => Err(fail(&format!(
            "invalid --arrivals '{other}': expected t0 with --trace-in (all tasks at t = 0; without --arrivals each task arrives at its recorded start)"
        ))),
    }
}
