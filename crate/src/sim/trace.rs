//! What a run leaves behind, in one vocabulary for every experiment: which
//! core ran which thread when ([`Segment`]), which state each thread was in
//! ([`Interval`]), and how a thread's priority moved ([`PriSeries`]). The
//! study's tasks and the QoS scenarios' threads are both threads here (a
//! study task is a thread with one CPU step), so the page draws one Gantt
//! for both.

use serde::Serialize;

/// A thread's index in the workload (for the study: the task's index).
pub(crate) type ThreadId = u32;

/// A stretch of time in which one core ran one thread.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Segment {
    pub core: u32,
    /// The thread (a study task's index).
    pub task: ThreadId,
    pub start: f64,
    pub end: f64,
}

/// A thread's state, named as Instruments' thread-state trace does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    Running,
    /// Ready to run: arrived, woken, or its quantum expired; waiting for a
    /// core.
    Runnable,
    /// Taken off a core by a more urgent thread before its slice ended.
    Preempted,
    /// Waiting for I/O, for a dependency, for work, or finished.
    Blocked,
}

impl State {
    pub const ALL: [State; 4] = [
        State::Running,
        State::Runnable,
        State::Preempted,
        State::Blocked,
    ];

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// A stretch of time a thread spent in one state.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    pub thread: ThreadId,
    pub state: State,
    pub start: f64,
    pub end: f64,
}

/// A thread's scheduling priority over time: a point at every change.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PriSeries {
    pub thread: ThreadId,
    pub name: String,
    /// `(time ms, priority)`.
    pub points: Vec<(f64, u8)>,
}
