//! Apple QoS scenarios: threads with QoS classes on machines with
//! performance and efficiency cores, scheduled by a model of XNU's Mach
//! timeshare policy, and the three studies built on it.
//!
//! This is a separate engine from [`crate::engine`]: that one runs tasks
//! with a fixed amount of work and no priorities; here threads have a QoS,
//! a priority that moves with their CPU usage, blocking waits and
//! dependencies, and cores differ in kind and speed.
//!
//! - [`thread`]: what runs (QoS classes, threads, work items, pools);
//! - [`machine`]: cores and placement by QoS (presets `a10`, `m1`, `xeon-w`);
//! - [`timeshare`]: the priority policy, behind [`SchedClass`];
//! - [`engine`]: the event loop, accounting and recording;
//! - [`scenarios`]: `feishu-demo`, `feishu-startup`, `m1-compress`, their
//!   knobs and results.

pub mod budget;
pub mod engine;
pub mod machine;
pub mod scenarios;
pub mod thread;
pub mod timeshare;

pub use engine::{simulate, RunConfig, RunResult};
pub use machine::{Core, CoreKind, Machine};
pub use scenarios::{run, Knobs, ScenarioResult};
pub use thread::{Qos, ThreadSpec, Workload};

/// A priority policy as the engine sees it, shaped like a Linux
/// `sched_class`: the engine owns time, cores and queues; the policy owns
/// each thread's priority and quantum and says who may preempt whom.
pub trait SchedClass {
    /// The thread's current scheduling priority (higher runs first).
    fn sched_pri(&self, t: usize) -> u8;
    /// The quantum the thread gets when put on a core.
    fn quantum_ms(&self, t: usize) -> f64;
    /// The thread used `ms` of CPU time.
    fn charge(&mut self, t: usize, ms: f64);
    /// The running thread's quantum ran out.
    fn quantum_expired(&mut self, t: usize);
    /// Periodic load sample: which threads are runnable or running.
    fn sample_load(&mut self, runnable: &[bool]);
    /// The periodic scheduler tick.
    fn tick(&mut self);
    /// Whether a queued thread of priority `candidate` takes the core of a
    /// running one of priority `running`.
    fn preempts(&self, candidate: u8, running: u8, first_timeslice: bool) -> bool;
}
