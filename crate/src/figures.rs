//! The figures of an experiment and nothing else: what `simulate --json`
//! prints, computed without keeping anything per task that the figures do
//! not need.
//!
//! [`crate::experiment::Experiment::run_on`] keeps every policy's whole
//! schedule (per-task first start, slice count and completion) because the
//! table, the explanation, the exports and the page read them. A report
//! needs only each task's completion time, which the engine keeps in the
//! slot that held its remaining work, and turns into latencies in place
//! ([`metrics::summarize_owned`]). On a million tasks that is 8 bytes per
//! task and policy instead of 48. Same engine, same rules, so the same
//! bytes: `tests/figures.rs` and the snapshot corpus check it.

use crate::engine::{EngineConfig, EngineError};
use crate::experiment::{Experiment, Limits, PolicyReport, Report};
use crate::metrics;
use crate::policy::PolicyKind;
use crate::workload::Workload;

/// Runs every policy of `exp` on `workload` and returns the report, as
/// `exp.run_on(workload, limits, false)?.report()` would.
pub fn report(
    exp: &Experiment,
    workload: &Workload,
    limits: &Limits,
) -> Result<Report, EngineError> {
    let machine = exp.machine();
    let config = EngineConfig {
        cores: machine.cores.len(),
        switch_cost: exp.switch_cost,
        record_segments: false,
        record_outcomes: false,
        max_slices: limits.max_slices,
        ..EngineConfig::default()
    };
    let qos = if exp.policies.contains(&PolicyKind::Xnu) {
        exp.task_qos(workload)
    } else {
        Vec::new()
    };
    let run_one = |kind: PolicyKind| -> Result<PolicyReport, EngineError> {
        let schedule = exp.simulate(kind, workload, &machine, &qos, &config)?;
        Ok(PolicyReport {
            policy: kind.name(),
            summary: metrics::summarize_owned(workload, schedule, exp.within),
        })
    };
    let results = crate::experiment::each_policy(&exp.policies, workload.len(), run_one)?;
    Ok(Report {
        total_work_ms: workload.total_work(),
        tasks: workload.len(),
        results,
    })
}
