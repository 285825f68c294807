//! The one simulation core, in the shape of the kernel's `kernel/sched/`:
//! one loop ([`core`], like `core.c`) drives every scheduling class
//! (`crate::policy`, one class per file behind one trait, like
//! `struct sched_class`) on any [`machine`] with any workload of
//! [`threads`].
//!
//! - [`machine`]: cores with a kind and a speed (identical cores, `a10`,
//!   `m1`, `xeon-w`, `<P>p+<E>e`);
//! - [`threads`]: the workload side — the study's tasks, or programs of
//!   CPU steps, waits and dependencies (`crate::qos::engine`);
//! - [`core`]: the event loop and its one-core fast path;
//! - [`record`]: per-thread state recording for timelines;
//! - [`time`]: the order of times in heaps and the shared tolerances;
//! - [`trace`]: the one vocabulary of what a run leaves behind (segments,
//!   state intervals, priority series).

pub mod core;
pub mod machine;
pub mod record;
pub mod threads;
pub mod time;
pub mod trace;

pub use self::core::{simulate_on, EngineConfig, EngineError, Schedule, TaskOutcome, DONE_EPSILON};
pub use machine::{Core, CoreKind, Machine};
pub use record::{NoRecord, Recorder};
pub use threads::{Next, Tasks, Threads};
pub use trace::{Interval, PriSeries, Segment, State, ThreadId};
