//! Scheduling policies, one per file, behind one small trait.
//!
//! The shape follows the Linux kernel's `struct sched_class`: the engine
//! (`crate::engine`) owns time, cores and accounting and knows nothing of any
//! single policy; a policy owns its run queue and answers a handful of
//! callbacks — enqueue, pick next, slice length, preemption check, timer.

mod fifo;
mod mlfq;
mod rr;
mod run_queue;
mod sjf;
mod srpt;

pub use fifo::Fifo;
pub use mlfq::{Mlfq, MlfqParams};
pub use rr::RoundRobin;
pub use sjf::Sjf;
pub use srpt::Srpt;

use crate::error::ParamError;

/// A task's index in the workload.
pub type TaskId = u32;

/// Why a task is handed to [`Policy::enqueue`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enqueue {
    /// It has just arrived.
    Arrived,
    /// It used up its time slice and still has work.
    Expired,
    /// A more urgent task took its core before its slice ended.
    Preempted,
}

/// Why a task left its core, for [`Policy::on_descheduled`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leave {
    Done,
    Expired,
    Preempted,
}

/// What a policy may read about the tasks. `remaining` is exact for tasks
/// that are not running; for a running task it is the value at the start of
/// its current slice (the engine passes the current value where it matters);
/// for a finished task it is not work (the engine reuses the slot).
pub struct TaskView<'a> {
    pub arrival: &'a [f64],
    pub work: &'a [f64],
    pub remaining: &'a [f64],
}

/// A task on a core, as offered to [`Policy::preemption_victim`].
#[derive(Clone, Copy, Debug)]
pub struct Running {
    pub core: usize,
    pub task: TaskId,
    /// Work left right now, the current slice's progress deducted.
    pub remaining_now: f64,
}

/// One scheduling policy. Callbacks are invoked by the engine only; a
/// policy never sees the clock except through [`Policy::on_timer`].
pub trait Policy {
    /// A task becomes runnable.
    fn enqueue(&mut self, task: TaskId, why: Enqueue, tasks: &TaskView);

    /// Tasks `start..end` become runnable, in that order, as `end - start`
    /// calls of [`Policy::enqueue`] would say (a batch of arrivals: the
    /// study's million tasks at t = 0).
    fn enqueue_range(&mut self, start: TaskId, end: TaskId, why: Enqueue, tasks: &TaskView) {
        for task in start..end {
            self.enqueue(task, why, tasks);
        }
    }

    /// Removes and returns the task to run next on a free core.
    fn pick_next(&mut self, tasks: &TaskView) -> Option<TaskId>;

    /// Whether any task is waiting in the run queue.
    fn has_queued(&self) -> bool;

    /// A task that [`Policy::pick_next`] will likely return `ahead` picks
    /// from now, if the policy can tell cheaply. Only a hint: the engine
    /// uses it to fetch that task's state into the cache early (a
    /// round-robin pass over a million tasks otherwise waits on memory at
    /// every slice of its later rounds).
    fn upcoming(&self, _ahead: usize) -> Option<TaskId> {
        None
    }

    /// The next picks when they are a stretch of consecutive ids
    /// `start..end` that [`Policy::pick_next`] would return one after
    /// another whatever is enqueued or descheduled meanwhile (the front of a
    /// first-in-first-out queue; the study's million tasks at t = 0 are one
    /// such stretch). The one-core fast path then dispatches them in order
    /// without asking, and reports how many with [`Policy::take_front`].
    fn front_stretch(&self) -> Option<(TaskId, TaskId)> {
        None
    }

    /// The first `count` ids of [`Policy::front_stretch`] were dispatched,
    /// as `count` calls of [`Policy::pick_next`] would have returned them.
    fn take_front(&mut self, _count: TaskId) {}

    /// How much work `task` may do before the core returns to the policy;
    /// `f64::INFINITY` runs it to completion.
    fn time_slice(&self, task: TaskId) -> f64;

    /// `task` left its core after doing `ran` ms of work.
    fn on_descheduled(&mut self, _task: TaskId, _ran: f64, _why: Leave) {}

    /// Whether [`Policy::preemption_victim`] can ever answer `Some`; lets
    /// the engine skip the check for non-preemptive policies.
    fn is_preemptive(&self) -> bool {
        false
    }

    /// Given the running tasks (no core idle), the index in `running` of the
    /// one the best queued task should preempt, if any.
    fn preemption_victim(&self, _running: &[Running], _tasks: &TaskView) -> Option<usize> {
        None
    }

    /// When the policy next wants [`Policy::on_timer`] called, if ever. The
    /// engine reads it at the start and after each `on_timer` only.
    fn next_timer(&self) -> Option<f64> {
        None
    }

    fn on_timer(&mut self, _now: f64) {}
}

/// The policies a user can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PolicyKind {
    Fifo,
    Rr,
    Sjf,
    Srpt,
    Mlfq,
}

impl PolicyKind {
    pub const ALL: [PolicyKind; 5] = [
        PolicyKind::Fifo,
        PolicyKind::Rr,
        PolicyKind::Sjf,
        PolicyKind::Srpt,
        PolicyKind::Mlfq,
    ];
    /// At most this many policies are compared in one experiment.
    pub const MAX_COMPARED: usize = 5;

    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::Fifo => "fifo",
            PolicyKind::Rr => "rr",
            PolicyKind::Sjf => "sjf",
            PolicyKind::Srpt => "srpt",
            PolicyKind::Mlfq => "mlfq",
        }
    }

    /// A one-line description for help texts.
    pub fn describe(self) -> &'static str {
        match self {
            PolicyKind::Fifo => "first in, first out; each task runs to completion",
            PolicyKind::Rr => "round-robin: at most one quantum, then to the back of the queue",
            PolicyKind::Sjf => "shortest job first, non-preemptive",
            PolicyKind::Srpt => "shortest remaining processing time, preemptive",
            PolicyKind::Mlfq => {
                "multi-level feedback queue (levels, doubling quanta, periodic boost)"
            }
        }
    }

    pub fn parse(field: &str, text: &str) -> Result<PolicyKind, ParamError> {
        PolicyKind::ALL
            .into_iter()
            .find(|p| p.name() == text.trim())
            .ok_or_else(|| ParamError::new(field, text, "one of fifo, rr, sjf, srpt, mlfq"))
    }

    /// Parses a comma-separated list of distinct policies.
    pub fn parse_list(field: &str, text: &str) -> Result<Vec<PolicyKind>, ParamError> {
        let allowed = format!(
            "1 to {} distinct policies from fifo, rr, sjf, srpt, mlfq joined by commas",
            Self::MAX_COMPARED
        );
        let mut out = Vec::new();
        for part in text.split(',') {
            let p = PolicyKind::parse(field, part)
                .map_err(|_| ParamError::new(field, text, allowed.clone()))?;
            if out.contains(&p) {
                return Err(ParamError::new(field, text, allowed));
            }
            out.push(p);
        }
        if out.len() > Self::MAX_COMPARED {
            return Err(ParamError::new(field, text, allowed));
        }
        Ok(out)
    }

    /// A fresh policy for `tasks` tasks.
    pub fn build(self, tasks: usize, quantum: f64, mlfq: &MlfqParams) -> Box<dyn Policy> {
        match self {
            PolicyKind::Fifo => Box::new(Fifo::with_capacity(tasks)),
            PolicyKind::Rr => Box::new(RoundRobin::new(quantum, tasks)),
            PolicyKind::Sjf => Box::new(Sjf::default()),
            PolicyKind::Srpt => Box::new(Srpt::default()),
            PolicyKind::Mlfq => Box::new(Mlfq::new(tasks, quantum, mlfq)),
        }
    }

    /// Runs `workload` under a fresh policy of this kind, with the policy
    /// known at compile time so the engine inlines it.
    pub fn simulate(
        self,
        workload: &crate::workload::Workload,
        quantum: f64,
        mlfq: &MlfqParams,
        config: &crate::engine::EngineConfig,
    ) -> Result<crate::engine::Schedule, crate::engine::EngineError> {
        use crate::engine::simulate;
        let n = workload.len();
        match self {
            PolicyKind::Fifo => simulate(workload, &mut Fifo::with_capacity(n), config),
            PolicyKind::Rr => simulate(workload, &mut RoundRobin::new(quantum, n), config),
            PolicyKind::Sjf => simulate(workload, &mut Sjf::default(), config),
            PolicyKind::Srpt => simulate(workload, &mut Srpt::default(), config),
            PolicyKind::Mlfq => simulate(workload, &mut Mlfq::new(n, quantum, mlfq), config),
        }
    }

    /// The shortest slice this policy can hand out, for the up-front guard
    /// against runs with an absurd number of slices.
    pub fn min_slice(self, quantum: f64) -> f64 {
        match self {
            PolicyKind::Rr | PolicyKind::Mlfq => quantum,
            _ => f64::INFINITY,
        }
    }
}

/// `f64` with a total order, for run-queue heaps keyed by time or work.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Key(pub f64);

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}
