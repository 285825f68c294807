//! The preset scenarios, their knobs and their results.
//!
//! [`run`] is the one entry point for every front end: the CLI prints the
//! result as a table or JSON, the page plots it. Scenarios are named by
//! [`ScenarioKind`] (one file per scenario, one variant each). Knobs are named once in
//! [`Knob`] (CLI flag, URL key, range, labels) and validated in
//! [`Knobs::set`], so both front ends accept and refuse the same values
//! with the same words.

pub(crate) mod feishu_demo;
pub mod feishu_startup;
pub(crate) mod knob;
pub(crate) mod m1_compress;
pub(crate) mod mechanism;
pub mod registry;
pub mod simulation;

use serde::Serialize;

use crate::error::ParamError;
use crate::policy::KernelFlavour;
use crate::sim::Machine;
use simulation::RunResult;

pub use feishu_demo::FeishuDemoResult;
pub use feishu_startup::FeishuStartupResult;
pub use knob::{Knob, KnobRange, Knobs, Text, MACHINE_EXAMPLES};

pub use m1_compress::M1CompressResult;
pub use registry::{allowed_names, names, ScenarioKind, ScenarioOutcome, ScenarioResult};
pub(crate) use registry::{PageTable, PageText};

/// Ends a scenario's text report: its notes in `lang` as a bulleted list.
fn push_notes(out: &mut String, notes: &[String]) {
    for n in notes {
        out.push_str(&format!("\n- {n}"));
    }
    out.push('\n');
}

/// One simulation of a scenario, kept for the page's Gantt chart and
/// timelines (only with `timeline` on).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunView {
    /// The run's name in both languages (`--json` writes the English).
    #[serde(serialize_with = "crate::text::english")]
    pub label: crate::text::Filled,
    #[serde(serialize_with = "machine_json")]
    pub machine: Machine,
    #[serde(flatten)]
    pub run: RunResult,
}

/// A run's machine in `--json`: its cores and its kernel's timebase and
/// band limit (as xnu's classes read them: [`KernelFlavour::of`]).
fn machine_json<S: serde::Serializer>(machine: &Machine, s: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Json<'a> {
        #[serde(flatten)]
        machine: &'a Machine,
        ticks_per_ms: u64,
        band_limit: bool,
    }
    let kernel = KernelFlavour::of(machine);
    Json {
        machine,
        ticks_per_ms: kernel.ticks_per_ms,
        band_limit: kernel.band_limit,
    }
    .serialize(s)
}

/// Work a scenario may do in a browser tab (units of [`crate::sim::budget`]):
/// about 5 to 30 s in a worker on a laptop. The largest documented knob
/// settings (`nq=1000&secs=60&m=64p` and six groups) need a hundred times
/// more and would keep the worker busy for minutes.
pub const WEB_WORK_BUDGET: u64 = 400_000_000;

const TOO_MUCH_WORK: crate::text::Text = crate::text::Text::new(
    "a run the browser can finish: this one was stopped after {} units of work \
     (nq={}, secs={}, {} group(s), m={}); lower nq, secs or the number of groups, \
     or pick a machine with fewer cores (m), or run it with the CLI \
     (tailslice scenario {})",
    "浏览器能跑完的运行：这次在 {} 个工作单位后被停止\
     （nq={}，secs={}，{} 组，m={}）；请降低 nq、secs 或组数，\
     或选择核心更少的机器（m），或用命令行运行\
     （tailslice scenario {}）",
);

/// [`run`] within a work budget, reporting progress: a run that would do
/// more is cut short and refused with a message naming the knobs that make
/// it large.
pub fn run_metered(
    name: &str,
    knobs: &Knobs,
    budget: u64,
    progress: Option<Box<dyn FnMut(crate::sim::budget::Progress)>>,
) -> Result<ScenarioResult, ParamError> {
    let (result, used) = crate::sim::budget::metered(budget, progress, || run(name, knobs));
    let result = result?;
    if used.exceeded {
        let args: [&str; 6] = [
            &budget.to_string(),
            &knobs.queues.to_string(),
            &crate::error::fmt_number(knobs.seconds),
            &knobs.groups.len().to_string(),
            knobs.machine.as_deref().unwrap_or("default"),
            name,
        ];
        return Err(ParamError::new("s", name, TOO_MUCH_WORK.both(&args)));
    }
    Ok(result)
}

/// Runs the named scenario.
pub fn run(name: &str, knobs: &Knobs) -> Result<ScenarioResult, ParamError> {
    match ScenarioKind::find(name) {
        Some(s) => Ok(s.run(knobs)),
        None => Err(ParamError::new("scenario", name, allowed_names())),
    }
}
