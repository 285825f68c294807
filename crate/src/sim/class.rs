//! The class interface, as the kernel's `sched.h` holds `struct
//! sched_class` beside `core.c`: the loop ([`super::core`]) owns time, cores
//! and accounting and knows nothing of any single class; a class owns its
//! run queue(s) and answers a handful of callbacks — enqueue, pick next for
//! a core, slice length, preemption check — and receives its own timers
//! (the loop never imports a class's periods). The classes themselves are
//! `crate::policy`, one per file.

use super::qos::Qos;
pub(crate) use super::trace::ThreadId;

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
    pub task: ThreadId,
    /// Work left right now, the current slice's progress deducted.
    pub remaining_now: f64,
    /// Time it has run in its current slice so far.
    pub ran: f64,
    /// False once it goes on after its quantum expired (XNU then lets an
    /// equal priority take the core).
    pub first_timeslice: bool,
}

/// One scheduling policy. Callbacks are invoked by the engine only; a
/// policy sees the clock through [`Policy::on_instant`] and
/// [`Policy::on_timer`].
pub trait Policy {
    /// The loop is at `now` (never earlier than an instant it reported
    /// before) and is about to make this instant's other calls (slices
    /// ending, threads becoming runnable, picks, preemptions), all of which
    /// happen at `now`. A class with deadlines or timestamps (Clutch's root
    /// bucket deadlines, warps, blocked and pending times) reads its clock
    /// here; the default does nothing and costs nothing once inlined.
    #[inline(always)]
    fn on_instant(&mut self, _now: f64) {}

    /// A task becomes runnable.
    fn enqueue(&mut self, task: ThreadId, why: Enqueue, tasks: &TaskView);

    /// Tasks `start..end` become runnable, in that order, as `end - start`
    /// calls of [`Policy::enqueue`] would say (a batch of arrivals: the
    /// study's million tasks at t = 0).
    fn enqueue_range(&mut self, start: ThreadId, end: ThreadId, why: Enqueue, tasks: &TaskView) {
        for task in start..end {
            self.enqueue(task, why, tasks);
        }
    }

    /// Removes and returns the thread to run next on free core `core`
    /// (classes that place threads by core kind look at it; the others
    /// ignore it).
    fn pick_next(&mut self, core: usize, tasks: &TaskView) -> Option<ThreadId>;

    /// Whether any task is waiting in the run queue.
    fn has_queued(&self) -> bool;

    /// A task that [`Policy::pick_next`] will likely return `ahead` picks
    /// from now, if the policy can tell cheaply. Only a hint: the engine
    /// uses it to fetch that task's state into the cache early (a
    /// round-robin pass over a million tasks otherwise waits on memory at
    /// every slice of its later rounds).
    fn upcoming(&self, _ahead: usize) -> Option<ThreadId> {
        None
    }

    /// The next picks when they are a stretch of consecutive ids
    /// `start..end` that [`Policy::pick_next`] would return one after
    /// another whatever is enqueued or descheduled meanwhile (the front of a
    /// first-in-first-out queue; the study's million tasks at t = 0 are one
    /// such stretch). The one-core fast path then dispatches them in order
    /// without asking, and reports how many with [`Policy::take_front`].
    fn front_stretch(&self) -> Option<(ThreadId, ThreadId)> {
        None
    }

    /// The first `count` ids of [`Policy::front_stretch`] were dispatched,
    /// as `count` calls of [`Policy::pick_next`] would have returned them.
    fn take_front(&mut self, _count: ThreadId) {}

    /// How long (ms) `task` may run before the core returns to the class;
    /// `f64::INFINITY` runs it to completion. On a speed-1 core that is
    /// also the work it may do.
    fn time_slice(&self, task: ThreadId) -> f64;

    /// `task` left its core after running `ran` ms in this slice.
    fn on_descheduled(&mut self, _task: ThreadId, _ran: f64, _why: Leave) {}

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
    fn priority(&self, _task: ThreadId) -> Option<u8> {
        None
    }

    /// Work the class did since it was last asked, in the units of the
    /// loop's work budget ([`super::budget`]): threads examined by its
    /// picks, preemption checks and timers, for classes whose cost grows
    /// with the threads (`xnu`, `clutch`). Read only by a metered run
    /// ([`super::EngineConfig::metered`]).
    fn take_work(&mut self) -> u64 {
        0
    }
}

/// A thread group: XNU's `struct thread_group`, one per app (the
/// coalition's group, `osfmk/kern/coalition.c`), shared by all its
/// processes' threads. Only `clutch` reads it (Clutch schedules groups
/// before threads); every other class ignores it. The study's tasks are one
/// app unless a mix class names another (`~NAME`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ThreadGroup {
    /// Any number naming the group; equal ids are one group.
    pub id: u32,
    /// The group's flags as the kernel sees them (which decide its boost
    /// under the xnu versions that had one).
    pub kind: GroupKind,
}

/// The thread-group flags that set Clutch's per-group priority boost
/// (`sched_clutch_update_tg_flags`, `osfmk/kern/thread_group.c` at
/// xnu-7195.101.1): set by user-space policy (CLPC, RunningBoard), not
/// public.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GroupKind {
    /// `THREAD_GROUP_FLAGS_EFFICIENT`: the LOW boost (0).
    Efficient,
    /// No flag, as a new group starts: the MED boost (2).
    #[default]
    Normal,
    /// `THREAD_GROUP_FLAGS_UI_APP` (the focal UI app): the HIGH boost (4).
    Ui,
}

impl GroupKind {
    pub const ALL: [GroupKind; 3] = [GroupKind::Efficient, GroupKind::Normal, GroupKind::Ui];

    /// As written after a group's name (`~app2:ui`).
    pub(crate) fn name(self) -> &'static str {
        match self {
            GroupKind::Efficient => "efficient",
            GroupKind::Normal => "normal",
            GroupKind::Ui => "ui",
        }
    }

    pub fn parse(text: &str) -> Option<GroupKind> {
        let t = text.trim();
        GroupKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(t))
    }
}

/// What a class may know about a thread besides its work: the scheduling
/// attributes a workload gives it. The study's tasks have the defaults (or
/// their mix class's QoS and group); the scenarios' threads set them all.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThreadInfo {
    pub qos: Qos,
    /// The base priority (XNU's `base_pri`); from the QoS unless a program
    /// sets it (the frontmost app's main thread, fixed system work).
    pub base_pri: u8,
    /// A fixed priority that never decays and is not timeshare load.
    pub fixed: bool,
    /// Only this core.
    pub pinned: Option<usize>,
    /// Its app's thread group.
    pub group: ThreadGroup,
    /// Its nice value, −20 … 19 (only `eevdf` reads it: Linux's fair class
    /// weighs threads by it).
    pub nice: i8,
}

impl ThreadInfo {
    /// A thread of class `qos` at its base priority, on any core, in the
    /// one app.
    pub const fn of_qos(qos: Qos) -> ThreadInfo {
        ThreadInfo {
            qos,
            base_pri: qos.base_pri(),
            fixed: false,
            pinned: None,
            group: ThreadGroup {
                id: 0,
                kind: GroupKind::Normal,
            },
            nice: 0,
        }
    }
}

impl Default for ThreadInfo {
    fn default() -> Self {
        ThreadInfo::of_qos(Qos::Default)
    }
}
