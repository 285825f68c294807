//! The "as recorded" baseline: each task's latency as it actually ran in
//! the browser (recorded end − recorded start), summarised with the same
//! rules and fields as a simulated policy, so the trace itself sits next to
//! fifo / rr / srpt on the same tasks.
//!
//! A trace records when a task ran, not when it was posted, so this latency
//! has no queueing delay in it: it is the task's own duration.

use crate::experiment::summary::{self, Summary};
use crate::experiment::{ExperimentReport, PolicyReport, RowPolicy, RunOutcome};
use crate::sim::{Schedule, TaskOutcome};
use crate::text::Text;
use crate::workload::Workload;

pub(crate) use super::row_policy::RECORDED;

/// What the "as recorded" row means when the policies ran the trace's tasks
/// all from t = 0: a picture of the trace as it ran, not a baseline.
pub const BESIDE_T0: Text = Text::new(
    "“As recorded” is the trace as it ran, each task at its recorded start; the policies run the same tasks all posted at t = 0, so they are compared with the first policy, not with that row.",
    "“按记录”是 trace 实际运行的样子，每个任务在其记录的开始时间运行；各策略运行的是同样的任务，但全部在 t = 0 提交，所以与第一个策略比较，而不是与这一行比较。",
);

/// Above the latency table when the policies replay a trace's tasks at
/// their recorded starts and none waits (`reading::nothing_waits`): why
/// every change reads ±0 %, and where slicing's effect is measured.
pub(crate) const REPLAYS_ALIKE: Text = Text::new(
    "A recorded trace replays identically under every policy: its tasks ran one after another, so none waits behind another and no policy changes a task's latency (hence ±0 %). What slicing changes, how long an input waits behind a long task, is in the Responsiveness section above.",
    "记录的 trace 在每种策略下都原样重放：它的任务一个接一个运行，没有任务排在别的任务后面等待，任何策略都不改变任务的延迟（所以都是 ±0 %）。时间片真正改变的是输入要在长任务后面等多久，见上方的“响应性”一节。",
);

/// The recorded run as a schedule: task `i` starts at `start[i]` (ms from
/// the first task) and runs `recorded[i]`, one after another on one core
/// (the main thread).
pub(crate) fn schedule(start: &[f64], recorded: &[f64]) -> Schedule {
    let outcomes: Vec<TaskOutcome> = start
        .iter()
        .zip(recorded)
        .map(|(&a, &d)| TaskOutcome {
            first_start: a,
            completion: a + d,
            slices: 1,
        })
        .collect();
    let makespan = outcomes.iter().map(|o| o.completion).fold(0.0, f64::max);
    Schedule {
        completions: outcomes.iter().map(|o| o.completion).collect(),
        slices: outcomes.len() as u64,
        context_switches: outcomes.len().saturating_sub(1) as u64,
        makespan,
        busy_time: crate::stats::accurate_sum(recorded.iter().copied()),
        switch_time: 0.0,
        cores: 1,
        outcomes,
        segments: Vec::new(),
        end: makespan,
    }
}

/// The baseline's figures on the recorded time line (whatever arrivals the
/// simulated policies get); `within` is the "done within" threshold.
pub fn summary(start: &[f64], recorded: &[f64], within: f64) -> Summary {
    let as_ran = Workload {
        arrival: start.to_vec(),
        work: recorded.to_vec(),
        class: vec![0; recorded.len()],
        class_labels: vec![RECORDED.to_string()],
    };
    summary::summarize(&as_ran, &schedule(start, recorded), within)
}

/// The `--json` report of a trace run: the baseline first, then every
/// simulated policy (the shape of any other run's report).
pub fn report(outcome: &RunOutcome, recorded: &Summary) -> ExperimentReport {
    let mut r = outcome.report();
    r.results.insert(
        0,
        PolicyReport {
            policy: RowPolicy::Recorded,
            summary: recorded.clone(),
        },
    );
    r
}
