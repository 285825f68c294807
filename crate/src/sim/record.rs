//! What the loop tells a recorder about each thread, for timelines and
//! per-thread totals (the QoS scenarios' thread-state chart and tables).
//! The study's runs use [`NoRecord`], which the compiler removes entirely.

use super::trace::{State, ThreadId};

pub trait Recorder {
    /// Thread `t` starts running on core `c` at `now`.
    fn on_core(&mut self, _t: ThreadId, _c: usize, _now: f64) {}

    /// Thread `t` leaves core `c` at `now` (on it since `since`), going to
    /// `state` (Runnable: its slice expired; Preempted; Blocked: it waits or
    /// exited; Running: the run ended with it on the core).
    fn off_core(&mut self, _t: ThreadId, _c: usize, _since: f64, _now: f64, _state: State) {}

    /// Thread `t` ran `time` ms on core `c` and did `work` (ms on a speed-1
    /// core).
    fn ran(&mut self, _t: ThreadId, _c: usize, _time: f64, _work: f64) {}

    /// Thread `t` became runnable (arrived or woken) at `now`.
    fn woke(&mut self, _t: ThreadId, _now: f64) {}

    /// Everything at instant `now` is done; `priority` reads the policy's
    /// current priority of a thread, if it has priorities.
    fn instant<F: Fn(ThreadId) -> Option<u8>>(&mut self, _now: f64, _priority: F) {}

    /// The run ended at `end` (every thread's time is charged); `priority`
    /// reads the class's final priority of a thread, if it has priorities.
    fn end<F: Fn(ThreadId) -> Option<u8>>(&mut self, _end: f64, _priority: F) {}
}

/// Records nothing.
pub struct NoRecord;

impl Recorder for NoRecord {}
