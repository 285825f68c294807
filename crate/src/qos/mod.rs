//! Apple QoS scenarios: threads with QoS classes on machines with
//! performance and efficiency cores, scheduled by XNU's Mach timeshare
//! class, and the three studies built on it. They run on the one loop
//! (`crate::sim`) like every other experiment.
//!
//! - [`thread`]: what runs (QoS classes, threads, work items, pools);
//! - [`machine`]: cores and placement by QoS (presets `a10`, `m1`,
//!   `xeon-w`; now in `crate::sim::machine`);
//! - [`timeshare`]: XNU's priority model (the class itself is
//!   `crate::policy::xnu`);
//! - [`engine`]: the scenarios' programs as a workload of the loop, and
//!   their per-thread recording;
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
