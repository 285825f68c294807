//! The scenarios' threads: each with a QoS class and a program — a serial
//! queue of work items with dependencies, a worker of a chunk pool (an
//! operation queue), a spinning loop or periodic system work — in a
//! process ([`Process`]: its app's thread group and GCD's worker cap).
//! [`super::program_threads`] runs them on the loop.

use crate::sim::qos::{BASEPRI_FOREGROUND, SYSTEM_WORK_PRI};
pub(crate) use crate::sim::ThreadId;
use crate::sim::{Qos, ThreadGroup, ThreadInfo};
pub(crate) type ItemId = usize;
pub(crate) type PoolId = usize;
pub(crate) type ProcessId = usize;

/// How GCD admits a process's constrained workers (the threads that run
/// work of concurrent queues and operation queues: here, pool workers)
/// under its cap, `workq_constrained_allowance`
/// (`bsd/pthread/pthread_workqueue.c:2814-2885` at xnu-7195.101.1): at most
/// the machine's parallelism for a QoS (`Machine::max_parallelism`: the E
/// cores for background on an AMP Mac) may run work at that QoS or above,
/// workers of higher QoS using up a lower one's allowance. Serial queues
/// are overcommit and never capped (libdispatch `_dispatch_lane_create_with_target`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WorkerCap {
    /// No cap (a kernel or OS without it, or a workload that is not GCD's).
    #[default]
    Off,
    /// Admission per work item, as GCD does for the items of concurrent
    /// and operation queues: a worker that finishes a chunk asks again,
    /// behind the workers already waiting (highest QoS first, then first
    /// come).
    PerItem,
    /// A worker keeps its admission until its pool is empty (a work item
    /// that loops over the whole job).
    Held,
}

impl WorkerCap {
    pub(crate) const ALL: [WorkerCap; 3] = [WorkerCap::Off, WorkerCap::PerItem, WorkerCap::Held];

    /// As a knob reads and writes it.
    pub fn name(self) -> &'static str {
        match self {
            WorkerCap::Off => "off",
            WorkerCap::PerItem => "per-item",
            WorkerCap::Held => "held",
        }
    }

    pub fn parse(text: &str) -> Option<WorkerCap> {
        let t = text.trim();
        WorkerCap::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(t))
    }
}

/// A process: which app (thread group) its threads belong to and how GCD
/// caps its workers.
#[derive(Clone, Debug, PartialEq)]
pub struct Process {
    pub name: String,
    pub group: ThreadGroup,
    pub worker_cap: WorkerCap,
}

impl Process {
    /// The one app every thread is in unless a scenario says otherwise.
    pub(crate) fn app() -> Process {
        Process {
            name: "app".into(),
            group: ThreadGroup::default(),
            worker_cap: WorkerCap::Off,
        }
    }
}

/// What a thread does.
#[derive(Clone, Debug, PartialEq)]
pub enum Program {
    /// `while true {}`: always wants the CPU.
    Spin,
    /// A serial queue: runs the work items targeted at it, one at a time, in
    /// the order they become ready (enqueued when released and their
    /// dependencies are done, as a `dispatch_async` from a completion
    /// handler would do). Idle (blocked) while its queue is empty.
    Queue,
    /// One worker of an operation queue: takes chunks from the pool until
    /// it is empty, then exits.
    Pool(PoolId),
    /// `burst` ms of CPU every `period` ms, first at `phase`.
    Periodic { burst: f64, period: f64, phase: f64 },
}

/// One thread.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreadSpec {
    pub name: String,
    /// A label for grouping in tables and charts (queue family, job).
    pub group: String,
    pub qos: Qos,
    pub base_pri: u8,
    /// Fixed priority: never decays, not counted in timeshare load.
    pub fixed: bool,
    /// Only this core (used for per-core system work).
    pub pinned: Option<usize>,
    pub program: Program,
    /// Its process in [`Programs::processes`] (0, the one app, by default).
    pub process: ProcessId,
}

impl ThreadSpec {
    pub fn new(name: impl Into<String>, qos: Qos, program: Program) -> Self {
        let name = name.into();
        ThreadSpec {
            group: name.clone(),
            name,
            qos,
            base_pri: qos.base_pri(),
            fixed: false,
            pinned: None,
            program,
            process: 0,
        }
    }

    /// The frontmost app's main thread: userInteractive at 47.
    pub fn main_thread(program: Program) -> Self {
        ThreadSpec {
            base_pri: BASEPRI_FOREGROUND,
            ..ThreadSpec::new("main", Qos::UserInteractive, program)
        }
    }

    pub fn in_group(mut self, group: impl Into<String>) -> Self {
        self.group = group.into();
        self
    }

    pub fn in_process(mut self, process: ProcessId) -> Self {
        self.process = process;
        self
    }
}

/// The thread group of the "other system work" threads (the kernel's and
/// daemons', never an app's).
pub(crate) const SYSTEM_GROUP: u32 = u32::MAX;

/// A piece of a work item: CPU work (ms on a speed-1 core) or a blocking
/// wait (ms of wall time: disk, network).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    Cpu(f64),
    Wait(f64),
}

/// A block submitted to a serial queue.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkItem {
    pub name: String,
    /// The queue (thread) that runs it; its program must be [`Program::Queue`].
    pub thread: ThreadId,
    /// Not enqueued before this time (ms).
    pub release: f64,
    /// Enqueued only once all of these are done.
    pub deps: Vec<ItemId>,
    pub steps: Vec<Step>,
}

/// Chunks of equal work shared by the workers of one operation queue.
#[derive(Clone, Debug, PartialEq)]
pub struct Pool {
    pub name: String,
    pub chunks: u32,
    /// Work per chunk, ms on a speed-1 core.
    pub chunk_work: f64,
}

/// Everything that runs in one simulation of a scenario.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Programs {
    pub threads: Vec<ThreadSpec>,
    pub items: Vec<WorkItem>,
    pub pools: Vec<Pool>,
    /// The processes threads name; without any, every thread is in one
    /// app's process with no worker cap.
    pub processes: Vec<Process>,
}

impl Programs {
    /// What a scheduling class may know about thread `t`.
    pub fn info(&self, t: usize) -> ThreadInfo {
        let spec = &self.threads[t];
        ThreadInfo {
            qos: spec.qos,
            base_pri: spec.base_pri,
            fixed: spec.fixed,
            pinned: spec.pinned,
            group: self
                .process(spec.process)
                .map_or_else(ThreadGroup::default, |p| p.group),
            nice: 0,
        }
    }

    pub(crate) fn process(&self, id: ProcessId) -> Option<&Process> {
        self.processes.get(id)
    }

    pub fn add_process(&mut self, p: Process) -> ProcessId {
        self.processes.push(p);
        self.processes.len() - 1
    }

    /// How GCD caps thread `t`: its process's cap for a pool worker, never
    /// for any other program.
    pub(crate) fn worker_cap(&self, t: usize) -> WorkerCap {
        let spec = &self.threads[t];
        match spec.program {
            Program::Pool(_) => self
                .process(spec.process)
                .map_or(WorkerCap::Off, |p| p.worker_cap),
            _ => WorkerCap::Off,
        }
    }

    pub fn add_thread(&mut self, t: ThreadSpec) -> ThreadId {
        self.threads.push(t);
        (self.threads.len() - 1) as ThreadId
    }

    pub fn add_item(&mut self, item: WorkItem) -> ItemId {
        self.items.push(item);
        self.items.len() - 1
    }

    pub fn add_pool(&mut self, pool: Pool) -> PoolId {
        self.pools.push(pool);
        self.pools.len() - 1
    }

    /// Adds one pinned "other system work" thread per core: `burst` ms every
    /// `period` ms, all cores at the same instant. Simultaneous on purpose:
    /// a thread displaced on one core then cannot hop to another, so a
    /// thread that is otherwise never kept waiting reads as waiting
    /// `burst / period` of the time, like the ~1 % a real device shows.
    pub fn add_system_work(&mut self, cores: usize, burst: f64, period: f64) {
        if self.processes.is_empty() {
            self.processes.push(Process::app());
        }
        let kernel = self.add_process(Process {
            name: "kernel and daemons".into(),
            group: ThreadGroup {
                id: SYSTEM_GROUP,
                kind: crate::sim::GroupKind::Normal,
            },
            worker_cap: WorkerCap::Off,
        });
        for c in 0..cores {
            self.add_thread(ThreadSpec {
                base_pri: SYSTEM_WORK_PRI,
                fixed: true,
                pinned: Some(c),
                ..ThreadSpec::new(
                    format!("system work (core {c})"),
                    Qos::UserInteractive,
                    Program::Periodic {
                        burst,
                        period,
                        phase: period / 2.0,
                    },
                )
                .in_group("system")
                .in_process(kernel)
            });
        }
    }

    /// Every item `item` waits on, directly or through other items, in id
    /// order (the item itself excluded).
    pub(crate) fn transitive_deps(&self, item: ItemId) -> Vec<ItemId> {
        let mut seen = vec![false; self.items.len()];
        let mut stack = self.items[item].deps.clone();
        while let Some(i) = stack.pop() {
            if !seen[i] {
                seen[i] = true;
                stack.extend(self.items[i].deps.iter().copied());
            }
        }
        (0..self.items.len()).filter(|&i| seen[i]).collect()
    }
}
