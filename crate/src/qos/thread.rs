//! What runs: threads with a QoS class, serial queues of work items with
//! dependencies, chunk pools drained by several threads (an operation queue),
//! spinning loops and periodic system work.

use serde::Serialize;

/// A QoS class, numbered as `qos_class_self()` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Qos {
    Maintenance,
    Background,
    Utility,
    Default,
    UserInitiated,
    UserInteractive,
}

impl Qos {
    pub const ALL: [Qos; 6] = [
        Qos::UserInteractive,
        Qos::UserInitiated,
        Qos::Default,
        Qos::Utility,
        Qos::Background,
        Qos::Maintenance,
    ];

    /// The number `qos_class_self()` returns (QOS_CLASS_* in `<sys/qos.h>`).
    pub fn number(self) -> u8 {
        match self {
            Qos::UserInteractive => 33,
            Qos::UserInitiated => 25,
            Qos::Default => 21,
            Qos::Utility => 17,
            Qos::Background => 9,
            Qos::Maintenance => 5,
        }
    }

    pub fn from_number(n: u8) -> Option<Qos> {
        Qos::ALL.into_iter().find(|q| q.number() == n)
    }

    /// The Swift spelling, as in `DispatchQoS.userInitiated`.
    pub fn name(self) -> &'static str {
        match self {
            Qos::UserInteractive => "userInteractive",
            Qos::UserInitiated => "userInitiated",
            Qos::Default => "default",
            Qos::Utility => "utility",
            Qos::Background => "background",
            Qos::Maintenance => "maintenance",
        }
    }

    /// Accepts the Swift name or the number (`utility` or `17`).
    pub fn parse(text: &str) -> Option<Qos> {
        let t = text.trim();
        Qos::ALL
            .into_iter()
            .find(|q| q.name().eq_ignore_ascii_case(t))
            .or_else(|| t.parse().ok().and_then(Qos::from_number))
    }

    /// The XNU base priority of a thread of this class: the `qos_pri` table
    /// in xnu `osfmk/kern/thread_policy.c` (constants from
    /// `osfmk/kern/sched.h`). The frontmost app's main thread gets
    /// [`BASEPRI_FOREGROUND`] instead of 46; see [`ThreadSpec::main_thread`].
    pub fn base_pri(self) -> u8 {
        match self {
            Qos::UserInteractive => 46,
            Qos::UserInitiated => 37,
            Qos::Default => 31,
            Qos::Utility => 20,
            Qos::Background | Qos::Maintenance => 4,
        }
    }

    /// Background and maintenance: the classes XNU's AMP scheduler keeps on
    /// efficiency cores.
    pub fn is_background(self) -> bool {
        matches!(self, Qos::Background | Qos::Maintenance)
    }
}

/// BASEPRI_FOREGROUND in xnu `osfmk/kern/sched.h`: the frontmost app's main
/// thread.
pub const BASEPRI_FOREGROUND: u8 = 47;
/// A fixed priority above every timeshare user thread, used for the "other
/// system work" threads (kernel and daemon activity we do not model).
pub const SYSTEM_WORK_PRI: u8 = 80;

pub type ThreadId = usize;
pub type ItemId = usize;
pub type PoolId = usize;

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
}

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

/// Everything that runs in one simulation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Workload {
    pub threads: Vec<ThreadSpec>,
    pub items: Vec<WorkItem>,
    pub pools: Vec<Pool>,
}

impl Workload {
    pub fn add_thread(&mut self, t: ThreadSpec) -> ThreadId {
        self.threads.push(t);
        self.threads.len() - 1
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
            });
        }
    }

    /// Every item `item` waits on, directly or through other items, in id
    /// order (the item itself excluded).
    pub fn transitive_deps(&self, item: ItemId) -> Vec<ItemId> {
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
