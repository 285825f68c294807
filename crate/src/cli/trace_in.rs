//! `--trace-in FILE` and `--thread PID:TID` for `simulate` and `sweep`: a
//! browser performance trace's main-thread tasks as the workload
//! (`tailslice::trace` does the work; this file reads the file and the
//! flags and reports problems on one line).

use tailslice::experiment::{Experiment, Param};
use tailslice::trace::{self, ParsedTrace, ThreadKey, TraceArrivals, TraceImport, TraceOptions};
use tailslice::workload::Arrivals;

use super::fail;

/// Help lines shared by simulate and sweep.
pub(super) const HELP: &str =
    "  --trace-in FILE     run on a browser performance trace's main-thread tasks:
                      a Trace Event file (.json, or .json.gz, detected by its
                      bytes) as DevTools \"Save profile…\", Lighthouse,
                      Puppeteer/Playwright or chrome://tracing save it; at most
                      256 MiB uncompressed and 1000000 tasks. Each task arrives
                      at its recorded start (--arrivals t0: all at t = 0);
                      replaces --seed, --tasks, --mix and --rng
  --thread PID:TID    with --trace-in: the thread to import (default: the
                      inspected page's main thread; the others are listed)
";

/// The trace flags as given.
#[derive(Default)]
pub(super) struct TraceFlags {
    pub path: Option<String>,
    pub thread: Option<ThreadKey>,
}

impl TraceFlags {
    /// Takes `--trace-in` or `--thread` (`name` without dashes); returns
    /// the exit code for a bad value.
    pub fn set(&mut self, name: &str, value: String) -> Result<(), i32> {
        match name {
            "trace-in" => {
                if value.trim().is_empty() {
                    return Err(fail("invalid --trace-in '': expected a file path"));
                }
                self.path = Some(value);
            }
            _ => {
                self.thread = Some(
                    trace::parse_thread("--thread", &value).map_err(|e| fail(&e.to_string()))?,
                )
            }
        }
        Ok(())
    }
}

/// Checks the flags that cannot go with `--trace-in`, and reads the
/// arrivals choice from `--arrivals`.
fn arrivals(exp: &Experiment, given: &[Param], tasks_file: bool) -> Result<TraceArrivals, i32> {
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

/// Reads and imports the trace, or reports why not (exit code 2).
pub(super) fn load(
    flags: &TraceFlags,
    exp: &Experiment,
    given: &[Param],
    tasks_file: bool,
    max_tasks: usize,
) -> Result<Option<TraceImport>, i32> {
    if flags.thread.is_some() && flags.path.is_none() {
        return Err(fail(
            "--thread needs --trace-in: it picks a thread of the trace",
        ));
    }
    let Some(path) = &flags.path else {
        return Ok(None);
    };
    let arrivals = arrivals(exp, given, tasks_file)?;
    let shown = tailslice::error::shown(path);
    let bad = |why: String| fail(&format!("invalid --trace-in '{shown}': {why}"));
    match std::fs::metadata(path) {
        // A compressed file larger than the limit cannot inflate within it.
        Ok(m) if m.len() > trace::MAX_TRACE_BYTES as u64 => {
            return Err(bad(format!(
                "the file is {} bytes; at most {} bytes (256 MiB) uncompressed are read",
                m.len(),
                trace::MAX_TRACE_BYTES
            )))
        }
        Ok(m) if m.is_dir() => return Err(bad("it is a directory, not a file".to_string())),
        Ok(_) => {}
        Err(e) => return Err(bad(format!("cannot read it: {e}"))),
    }
    let bytes = std::fs::read(path).map_err(|e| bad(format!("cannot read it: {e}")))?;
    let opts = TraceOptions {
        thread: flags.thread.clone(),
        arrivals,
        max_tasks,
    };
    ParsedTrace::parse(&bytes)
        .and_then(|p| p.extract(&opts))
        .map(Some)
        .map_err(|e| bad(e.message))
}
