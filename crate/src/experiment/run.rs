//! The one runner: every policy of an experiment on one workload, with one
//! configuration and one set of thread attributes, through the one entry
//! point into the loop ([`PolicyKind::run`]). A run keeps either whole
//! schedules (the page's table, Gantt, exports: [`Experiment::run_on`]) or
//! only the figures (`simulate --json`, sweeps: [`Experiment::report`],
//! which turns each completion into a latency in place, 8 bytes per task
//! and policy instead of 48 on a million tasks). Same loop, same rules, so
//! the same bytes: `tests/figures.rs` and the snapshot corpus check it.

use serde::Serialize;

use super::summary::{self, Summary};
use super::{Experiment, Limits, RowPolicy};
use crate::policy::{ClassParams, ClutchParams, PolicyKind};
use crate::sim::{EngineConfig, EngineError, Machine, NoRecord, Schedule, ThreadInfo};
use crate::workload::Workload;

/// What a run keeps of each policy's schedule besides its completions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keep {
    /// Every segment (for Gantt charts and traces).
    pub segments: bool,
    /// Each task's first start and slice count.
    pub outcomes: bool,
}

impl Experiment {
    /// The loop's settings for a run of this experiment.
    pub(crate) fn engine_config(&self, limits: &Limits, keep: Keep) -> EngineConfig {
        EngineConfig {
            switch_cost: self.switch_cost,
            record_segments: keep.segments,
            record_outcomes: keep.outcomes,
            max_slices: limits.max_slices,
            ..EngineConfig::default()
        }
    }

    /// Runs `workload` under one policy of this experiment on `machine`,
    /// the tasks having the attributes `threads` (see
    /// [`Workload::thread_info`]).
    pub fn run_policy(
        &self,
        kind: PolicyKind,
        workload: &Workload,
        machine: &Machine,
        threads: &[ThreadInfo],
        config: &EngineConfig,
    ) -> Result<Schedule, EngineError> {
        let params = ClassParams {
            quantum: self.quantum,
            mlfq: &self.mlfq,
            eevdf: self.eevdf,
            clutch: ClutchParams::default(),
            band_limit: None,
            machine,
            threads,
        };
        kind.run(&params, &mut workload.threads(), &mut NoRecord, config)
    }

    /// Runs every policy on `workload`, handing each schedule to `then`.
    fn each_policy<R: Send>(
        &self,
        workload: &Workload,
        limits: &Limits,
        keep: Keep,
        then: impl Fn(PolicyKind, Schedule) -> R + Sync,
    ) -> Result<Vec<R>, EngineError> {
        let machine = self.machine();
        let config = self.engine_config(limits, keep);
        // Only `xnu` and `clutch` read the tasks' QoS and groups, only
        // `eevdf` their nice values.
        let threads = if self
            .policies
            .iter()
            .any(|p| p.reads_threads() || p.reads_nice())
        {
            workload.thread_info(&self.mix)
        } else {
            Vec::new()
        };
        let run_one = |kind: PolicyKind| -> Result<R, EngineError> {
            let schedule = self.run_policy(kind, workload, &machine, &threads, &config)?;
            Ok(then(kind, schedule))
        };
        in_parallel(&self.policies, workload.len(), run_one)
    }

    /// Draws the workload and runs every policy on it.
    pub fn run(&self, limits: &Limits, record_segments: bool) -> Result<RunOutcome, EngineError> {
        let workload = Workload::generate(&self.workload_spec());
        self.run_on(workload, limits, record_segments)
    }

    /// Runs every policy on a given workload (e.g. one the user imported),
    /// keeping whole schedules.
    pub fn run_on(
        &self,
        workload: Workload,
        limits: &Limits,
        record_segments: bool,
    ) -> Result<RunOutcome, EngineError> {
        let keep = Keep {
            segments: record_segments,
            outcomes: true,
        };
        let runs = self.run_policies(&workload, limits, keep)?;
        Ok(RunOutcome { workload, runs })
    }

    /// Runs every policy on `workload`, keeping of each schedule what
    /// `keep` says (the page keeps outcomes only for a Gantt's tooltips).
    pub(crate) fn run_policies(
        &self,
        workload: &Workload,
        limits: &Limits,
        keep: Keep,
    ) -> Result<Vec<PolicyRun>, EngineError> {
        self.each_policy(workload, limits, keep, |policy, schedule| PolicyRun {
            policy,
            summary: summary::summarize(workload, &schedule, self.within),
            schedule,
        })
    }

    /// The figures of every policy on `workload` and nothing else (what
    /// `simulate --json` prints), as `run_on(workload, …)?.report()` would
    /// give them.
    pub fn report(
        &self,
        workload: &Workload,
        limits: &Limits,
    ) -> Result<ExperimentReport, EngineError> {
        let keep = Keep {
            segments: false,
            outcomes: false,
        };
        let results = self.each_policy(workload, limits, keep, |kind, schedule| PolicyReport {
            policy: RowPolicy::Simulated(kind),
            summary: summary::summarize_owned(workload, schedule, self.within),
        })?;
        Ok(ExperimentReport {
            total_work_ms: workload.total_work(),
            tasks: workload.len(),
            results,
        })
    }
}
/// Runs `run_one` for every policy, in order. Policies are independent: on
/// native targets a large run (50 000 tasks or more) uses one thread per
/// policy (results are identical, only sooner). In the browser wasm has no
/// threads here: the page's worker hands a large run's policies to helper
/// workers instead (`web/part.rs`).
fn in_parallel<R: Send>(
    policies: &[PolicyKind],
    tasks: usize,
    run_one: impl Fn(PolicyKind) -> Result<R, EngineError> + Sync,
) -> Result<Vec<R>, EngineError> {
    let parallel = cfg!(not(target_arch = "wasm32")) && policies.len() > 1 && tasks >= 50_000;
    if !parallel {
        return policies.iter().map(|&kind| run_one(kind)).collect();
    }
    let run_one = &run_one;
    std::thread::scope(|scope| {
        let handles: Vec<_> = policies
            .iter()
            .map(|&kind| scope.spawn(move || run_one(kind)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a policy thread panicked"))
            .collect()
    })
}

/// One policy's schedule and figures.
#[derive(Clone, Debug)]
pub struct PolicyRun {
    pub policy: PolicyKind,
    pub schedule: Schedule,
    pub summary: Summary,
}

/// Everything one experiment produced.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    pub workload: Workload,
    pub runs: Vec<PolicyRun>,
}

/// The CLI's `--json` object (a public contract: extend, never rename).
#[derive(Clone, Debug, Serialize)]
pub struct ExperimentReport {
    pub total_work_ms: f64,
    pub tasks: usize,
    pub results: Vec<PolicyReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PolicyReport {
    pub policy: RowPolicy,
    #[serde(flatten)]
    pub summary: Summary,
}

impl RunOutcome {
    pub fn report(&self) -> ExperimentReport {
        ExperimentReport {
            total_work_ms: self.workload.total_work(),
            tasks: self.workload.len(),
            results: self
                .runs
                .iter()
                .map(|r| PolicyReport {
                    policy: RowPolicy::Simulated(r.policy),
                    summary: r.summary.clone(),
                })
                .collect(),
        }
    }
}
