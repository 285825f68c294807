//! Scheduling classes, one per file, behind one small trait.
//!
//! The shape follows the Linux kernel's `struct sched_class`: the loop
//! (`crate::sim::core`) owns time, cores and accounting and knows nothing of
//! any single class; a class owns its run queue(s) and answers a handful of
//! callbacks — enqueue, pick next for a core, slice length, preemption
//! check — and receives its own timers (the loop never imports a class's
//! periods). `fifo`, `rr`, `sjf`, `srpt`, `mlfq` and XNU's timeshare class
//! (`xnu`) all implement it, and every one runs on every machine.

mod fifo;
mod mlfq;
mod rr;
mod run_queue;
mod sjf;
mod srpt;
pub mod xnu;

pub use fifo::Fifo;
pub use mlfq::{Mlfq, MlfqParams};
pub use rr::RoundRobin;
pub use sjf::Sjf;
pub use srpt::Srpt;
pub use xnu::Xnu;

use crate::error::ParamError;
use crate::qos::thread::Qos;
use crate::sim::Machine;

/// A thread's index in the workload (a study task's index).
pub type TaskId = u32;

/// Why a thread is handed to [`Policy::enqueue`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enqueue {
    /// It has just become runnable: arrived, or woken from a wait.
    Arrived,
    /// It used up its time slice and still has work.
    Expired,
    /// A more urgent task took its core before its slice ended.
    Preempted,
}

/// Why a thread left its core, for [`Policy::on_descheduled`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leave {
    /// It exited (a study task completed).
    Done,
    Expired,
    Preempted,
    /// It waits (I/O, a dependency, an empty queue); it comes back through
    /// [`Policy::enqueue`] with [`Enqueue::Arrived`].
    Blocked,
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

/// A thread on a core, as offered to [`Policy::preemption_victim`] and
/// [`Policy::on_timer`].
#[derive(Clone, Copy, Debug)]
pub struct Running {
    pub core: usize,
    pub task: TaskId,
    /// Work left right now, the current slice's progress deducted.
    pub remaining_now: f64,
    /// Time it has run in its current slice so far.
    pub ran: f64,
    /// False once it goes on after its quantum expired (XNU then lets an
    /// equal priority take the core).
    pub first_timeslice: bool,
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

    /// Removes and returns the thread to run next on free core `core`
    /// (classes that place threads by core kind look at it; the others
    /// ignore it).
    fn pick_next(&mut self, core: usize, tasks: &TaskView) -> Option<TaskId>;

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

    /// How long (ms) `task` may run before the core returns to the class;
    /// `f64::INFINITY` runs it to completion. On a speed-1 core that is
    /// also the work it may do.
    fn time_slice(&self, task: TaskId) -> f64;

    /// `task` left its core after running `ran` ms in this slice.
    fn on_descheduled(&mut self, _task: TaskId, _ran: f64, _why: Leave) {}

    /// Whether [`Policy::preemption_victim`] can ever answer `Some`; lets
    /// the engine skip the check for non-preemptive policies.
    fn is_preemptive(&self) -> bool {
        false
    }

    /// Given the running threads (free cores have found nothing they may
    /// run), the index in `running` of the one a queued thread should
    /// preempt, if any. The next [`Policy::pick_next`] for that core is
    /// asked right after.
    fn preemption_victim(&mut self, _running: &[Running], _tasks: &TaskView) -> Option<usize> {
        None
    }

    /// At most this many preemptions at one instant (a guard against a
    /// class that would bounce threads forever).
    fn preemptions_per_instant(&self, cores: usize) -> usize {
        cores
    }

    /// When the class next wants [`Policy::on_timer`] called, if ever. The
    /// loop reads it at the start and after each `on_timer` only.
    fn next_timer(&self) -> Option<f64> {
        None
    }

    /// The class's own timer, with the threads running at `now`.
    fn on_timer(&mut self, _now: f64, _running: &[Running]) {}

    /// Whether threads whose slice expired at an instant are enqueued
    /// before the threads that become runnable at that instant (the loop's
    /// default is after: a newcomer goes first).
    fn expired_first(&self) -> bool {
        false
    }

    /// The thread's current scheduling priority, for classes that have one
    /// (recorded in timelines).
    fn priority(&self, _task: TaskId) -> Option<u8> {
        None
    }
}

/// What a class is built from besides its kind: the knobs, the machine
/// and the threads' QoS (which only `xnu` reads).
#[derive(Clone, Copy, Debug)]
pub struct ClassParams<'a> {
    pub quantum: f64,
    pub mlfq: &'a MlfqParams,
    pub machine: &'a Machine,
    /// Each thread's QoS (empty: every thread at `default`).
    pub qos: &'a [Qos],
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
    Xnu,
}

impl PolicyKind {
    pub const ALL: [PolicyKind; 6] = [
        PolicyKind::Fifo,
        PolicyKind::Rr,
        PolicyKind::Sjf,
        PolicyKind::Srpt,
        PolicyKind::Mlfq,
        PolicyKind::Xnu,
    ];
    /// At most this many policies are compared in one experiment.
    pub const MAX_COMPARED: usize = 6;

    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::Fifo => "fifo",
            PolicyKind::Rr => "rr",
            PolicyKind::Sjf => "sjf",
            PolicyKind::Srpt => "srpt",
            PolicyKind::Mlfq => "mlfq",
            PolicyKind::Xnu => "xnu",
        }
    }

    /// Whether the `quantum` parameter changes what this class does.
    pub fn uses_quantum(self) -> bool {
        matches!(self, PolicyKind::Rr | PolicyKind::Mlfq)
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
            PolicyKind::Xnu => {
                "XNU timeshare: QoS priorities that decay with CPU use, 10 ms quanta, background on E cores"
            }
        }
    }

    /// The names joined by commas (`fifo, rr, …`), for messages and help.
    pub fn names() -> String {
        PolicyKind::ALL.map(PolicyKind::name).join(", ")
    }

    pub fn parse(field: &str, text: &str) -> Result<PolicyKind, ParamError> {
        PolicyKind::ALL
            .into_iter()
            .find(|p| p.name() == text.trim())
            .ok_or_else(|| ParamError::new(field, text, format!("one of {}", Self::names())))
    }

    /// Parses a comma-separated list of distinct policies.
    pub fn parse_list(field: &str, text: &str) -> Result<Vec<PolicyKind>, ParamError> {
        let allowed = format!(
            "1 to {} distinct policies from {} joined by commas",
            Self::MAX_COMPARED,
            Self::names()
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

    /// A fresh class for `tasks` threads on identical cores.
    pub fn build(self, tasks: usize, quantum: f64, mlfq: &MlfqParams) -> Box<dyn Policy> {
        let machine = Machine::identical(1);
        self.build_with(
            tasks,
            &ClassParams {
                quantum,
                mlfq,
                machine: &machine,
                qos: &[],
            },
        )
    }

    /// A fresh class for `tasks` threads.
    pub fn build_with(self, tasks: usize, p: &ClassParams) -> Box<dyn Policy> {
        match self {
            PolicyKind::Fifo => Box::new(Fifo::with_capacity(tasks)),
            PolicyKind::Rr => Box::new(RoundRobin::new(p.quantum, tasks)),
            PolicyKind::Sjf => Box::new(Sjf::default()),
            PolicyKind::Srpt => Box::new(Srpt::default()),
            PolicyKind::Mlfq => Box::new(Mlfq::new(tasks, p.quantum, p.mlfq)),
            PolicyKind::Xnu => Box::new(Xnu::for_tasks(tasks, p.qos, p.machine)),
        }
    }

    /// Runs `workload` under a fresh class of this kind on
    /// `config.cores` identical cores.
    pub fn simulate(
        self,
        workload: &crate::workload::Workload,
        quantum: f64,
        mlfq: &MlfqParams,
        config: &crate::engine::EngineConfig,
    ) -> Result<crate::engine::Schedule, crate::engine::EngineError> {
        let machine = Machine::identical(config.cores);
        self.simulate_with(
            workload,
            &ClassParams {
                quantum,
                mlfq,
                machine: &machine,
                qos: &[],
            },
            config,
        )
    }

    /// Runs `workload` under a fresh class of this kind on `p.machine`,
    /// with the class known at compile time so the loop inlines it.
    pub fn simulate_with(
        self,
        workload: &crate::workload::Workload,
        p: &ClassParams,
        config: &crate::engine::EngineConfig,
    ) -> Result<crate::engine::Schedule, crate::engine::EngineError> {
        use crate::engine::simulate_machine as run;
        let n = workload.len();
        let m = p.machine;
        match self {
            PolicyKind::Fifo => run(workload, m, &mut Fifo::with_capacity(n), config),
            PolicyKind::Rr => run(workload, m, &mut RoundRobin::new(p.quantum, n), config),
            PolicyKind::Sjf => run(workload, m, &mut Sjf::default(), config),
            PolicyKind::Srpt => run(workload, m, &mut Srpt::default(), config),
            PolicyKind::Mlfq => run(workload, m, &mut Mlfq::new(n, p.quantum, p.mlfq), config),
            PolicyKind::Xnu => run(workload, m, &mut Xnu::for_tasks(n, p.qos, m), config),
        }
    }

    /// The shortest slice this policy can hand out, for the up-front guard
    /// against runs with an absurd number of slices.
    pub fn min_slice(self, quantum: f64) -> f64 {
        match self {
            PolicyKind::Rr | PolicyKind::Mlfq => quantum,
            PolicyKind::Xnu => xnu::MIN_SLICE_MS,
            _ => f64::INFINITY,
        }
    }
}

pub(crate) use crate::sim::time::Key;
