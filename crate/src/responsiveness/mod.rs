//! Should I slice my long tasks? How responsive a main thread is — as
//! recorded, and if every task yielded every `q` ms — computed exactly from
//! its tasks (a trace's, an imported list's, the study's): the input delay
//! an interaction would meet, Total Blocking Time, and what the yields cost.
//!
//! One job per file:
//!
//! - [`yielding`]: the yield primitives, their costs and when a
//!   continuation may run;
//! - [`plan`]: a slicing plan and the one-thread event loop that turns
//!   tasks into the chunks the thread runs;
//! - [`delay`]: the exact input-delay distribution of those chunks over a
//!   window;
//! - [`blocking`]: Total Blocking Time and long tasks, as Lighthouse counts
//!   them;
//! - [`cost`]: how much later each task finishes than as recorded;
//! - [`report`]: one row per plan over one window;
//! - [`reading`]: the quantum the rows favour and the knee of the
//!   trade-off;
//! - [`text`]: the reading in plain words, English and Chinese;
//! - [`interactions`]: what slicing would do to a trace's real
//!   interactions and to INP;
//! - [`budget`]: `--budget`, the CI gate on INP, p98 and TBT;
//! - [`settings`]: the flags and URL keys;
//! - [`labels`]: the page section's words;
//! - [`answer`]: all of it together, and the CLI's JSON.
//!
//! The model's assumptions: inputs arrive uniformly over the window; an
//! input that lands in a running chunk waits for the chunk's end and is then
//! handled first (ahead of any continuation or queued task); one that lands
//! while no chunk runs (idle time, a yield) waits nothing; every input
//! also takes the transit time to reach the main thread; inputs are probes
//! that do not shift the schedule; rendering costs nothing; every task can
//! be sliced.

pub(crate) mod answer;
pub mod blocking;
pub mod budget;
pub(crate) mod cost;
pub mod delay;
pub mod interactions;
pub mod interactions_text;
pub(crate) mod labels;
pub mod plan;
pub(crate) mod reading;
pub mod report;
pub mod settings;
pub mod text;
pub(crate) mod yielding;

pub use answer::Answer;
pub use delay::{DelayDistribution, Window};
pub use plan::{Chunk, Plan, Schedule, Task};
pub(crate) use report::PlanRow;
pub use settings::{RespParam, Settings};
pub use text::Source;
pub use yielding::{CostFrom, YieldKind, Yielding};

/// Whether the question applies to tasks: a trace's, or tasks with arrival
/// times (durations alone, all at t = 0, are no timeline to be responsive
/// on).
pub(crate) fn applies(arrival: &[f64], trace: bool) -> bool {
    trace || arrival.iter().any(|&a| a > 0.0)
}
