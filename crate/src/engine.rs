//! The study's entry point into the one loop ([`crate::sim`]): a workload
//! of tasks on `config.cores` identical cores. Kept under this name because
//! the rest of the crate (and its users) have always called
//! `engine::simulate`; the loop itself lives in `crate::sim::core`.

pub use crate::sim::{EngineConfig, EngineError, Schedule, Segment, TaskOutcome, DONE_EPSILON};

use crate::policy::Policy;
use crate::sim::{simulate_on, Machine, NoRecord, Tasks};
use crate::workload::Workload;

/// Runs `workload` under `policy` on `config.cores` identical cores.
pub fn simulate<P: Policy + ?Sized>(
    workload: &Workload,
    policy: &mut P,
    config: &EngineConfig,
) -> Result<Schedule, EngineError> {
    simulate_machine(workload, &Machine::identical(config.cores), policy, config)
}

/// Runs `workload` under `policy` on `machine`.
pub fn simulate_machine<P: Policy + ?Sized>(
    workload: &Workload,
    machine: &Machine,
    policy: &mut P,
    config: &EngineConfig,
) -> Result<Schedule, EngineError> {
    simulate_on(
        &mut Tasks::new(workload),
        machine,
        policy,
        &mut NoRecord,
        config,
    )
}
