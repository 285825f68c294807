//! The simulation core, in the shape of the kernel's `kernel/sched/`: one
//! loop ([`core`], like `core.c`) and the class interface beside it
//! ([`class`], like `sched.h`'s `struct sched_class`). Every scheduling
//! class (`crate::policy`, one per file) implements that interface and runs
//! on any [`machine`] with any workload of [`threads`]. Nothing here knows
//! a single class, workload or scenario.
//!
//! - [`class`]: the interface every class implements, and what a class may
//!   read about threads;
//! - [`core`]: the event loop and its one-core fast path;
//! - [`machine`]: cores with a kind and a speed (identical cores, `a10`,
//!   `m1`, `xeon-w`, `<P>p+<E>e`);
//! - [`qos`]: quality-of-service classes, shared by machines, classes and
//!   workloads;
//! - [`threads`]: the workload side as the loop sees it, and the study's
//!   tasks ([`Tasks`]);
//! - [`record`]: per-thread state recording for timelines;
//! - [`trace`]: the one vocabulary of what a run leaves behind (segments,
//!   state intervals, priority series);
//! - [`time`]: the order of times in heaps and the shared tolerances;
//! - [`budget`]: a work meter that bounds a run in the page.

pub mod budget;
pub(crate) mod class;
pub(crate) mod core;
pub mod machine;
pub(crate) mod qos;
pub(crate) mod record;
pub(crate) mod threads;
pub(crate) mod time;
pub mod trace;

pub(crate) use self::core::TaskOutcome;
pub use self::core::{simulate_on, EngineConfig, EngineError, Schedule};
pub use class::{Enqueue, GroupKind, Leave, Policy, Running, TaskView, ThreadGroup, ThreadInfo};
pub use machine::{Core, CoreKind, Machine};
pub use qos::Qos;
pub use record::{NoRecord, Recorder};
pub use threads::{Next, Tasks, Threads};
pub(crate) use trace::ThreadId;
