//! "Run for real": the experiment's tasks run as busy loops on the page's
//! own main thread, FIFO and sliced, measured beside the simulation.
//!
//! The core decides everything that is not a clock reading, so the page's
//! JavaScript only spins, yields and counts:
//!
//! - [`settings`]: the URL keys (`real_scale`, `real_repeats`,
//!   `real_yield`), validated like every other key;
//! - [`plan`]: the scaled tasks and the slice sequence of the model's own
//!   `fifo` and `rr` schedules (one core);
//! - [`measure`]: a pass as measured, summarised with the simulation's
//!   percentile rule;
//! - [`report`]: measured beside simulated, yield cost, frames, probe and
//!   input delay, over repeats;
//! - [`text`]: every sentence, in English and Chinese;
//! - [`file`]: the run as a file, and the report as JSON.

pub(crate) mod file;
pub mod measure;
pub(crate) mod plan;
pub(crate) mod report;
pub(crate) mod settings;
pub mod text;

pub use measure::{Pass, PassCounts, YieldBatch};
pub use plan::{Plan, PlanError};
pub use report::{Environment, RealRunReport, RunState};
pub use settings::{RealParam, RealSettings, RealYield, Scale};
