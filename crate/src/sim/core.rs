//! The one event loop: a machine (cores of a kind and a speed), a workload
//! of threads ([`Threads`]) and one scheduling class ([`Policy`]).
//!
//! The loop owns the clock, the cores and all accounting; the class owns
//! its run queue(s), its slices and its timers (see `crate::policy`); the
//! workload owns what each thread does next. Time jumps from event to
//! event: a slice ending on some core, a thread becoming runnable, or a
//! class timer.
//!
//! Order of work at one instant `t` (written down because it decides ties):
//! 0. the class is told the time (`Policy::on_instant`);
//! 1. slices ending at `t` are accounted, lowest core first; a thread whose
//!    CPU step is done asks its program what next: it exits (a study task
//!    completes at `t`), blocks, or keeps its core for its next CPU step
//!    with what is left of its slice;
//! 2. threads becoming runnable at `t` are enqueued (arrivals in arrival
//!    order, ties by id; then wakeups and releases in timer order);
//! 3. threads whose slice expired at `t` are enqueued after them — a
//!    newcomer gets ahead of a thread that just used its quantum, as in
//!    most textbooks; a class may ask for the other order
//!    (`Policy::expired_first`: XNU's class does, its quantum expiry being
//!    handled on the core before a wakeup of the same instant is
//!    delivered);
//! 4. a due class timer fires (MLFQ's boost; XNU's load sample and tick);
//! 5. free cores pick work (lowest core first: on every machine the
//!    performance cores come first), then a preemptive class may take
//!    cores from running threads.
//!
//! Slices are charged exactly as the study's code does (`run = min(remaining,
//! slice)`, `clock += run`, done when `remaining <= 1e-9`), so on one core
//! with every task at t = 0 and free switches the completion times are
//! bit-identical to the study's Python. On a core of speed `s` a slice of
//! `q` ms does `q·s` work; at speed 1 no multiplication or division is made.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::budget;
use super::class::{Enqueue, Leave, Policy, Running, TaskView, ThreadId};
use super::machine::Machine;
use super::record::Recorder;
use super::threads::{Next, Threads};
use super::time::Key;
use super::trace::{Segment, State};

pub(crate) use super::time::DONE_EPSILON;

/// Recording and safety settings for one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineConfig {
    /// Time in ms a core spends whenever it starts a thread other than the
    /// one it ran last (the first thread a core ever runs costs nothing).
    pub switch_cost: f64,
    /// Keep every run segment (for Gantt charts and traces). Off for very
    /// large runs: memory then stays O(tasks).
    pub record_segments: bool,
    /// Keep a [`TaskOutcome`] per task (first start, slice count) besides
    /// its completion time. Off when only the figures are wanted (`simulate
    /// --json`): a million-task run then keeps one `f64` per task
    /// ([`Schedule::completions`]) instead of 24 bytes more.
    pub record_outcomes: bool,
    /// Refuse to go on past this many slices plus timer events (a safety
    /// net behind the up-front estimate in `crate::experiment`).
    pub max_slices: u64,
    /// On one core, finish slices inline while nothing else can happen
    /// (the same steps, without the event heap). Only tests turn it off, to
    /// check that both paths give identical schedules.
    pub one_core_fast_path: bool,
    /// Charge the work budget of [`super::budget::metered`] at every
    /// instant (one unit per core scanned, and the class's own work,
    /// [`Policy::take_work`]) and stop once it is spent: the page's
    /// scenarios, whose size a link sets. Outside `metered` it bounds
    /// nothing.
    pub metered: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            switch_cost: 0.0,
            record_segments: true,
            record_outcomes: true,
            max_slices: u64::MAX,
            one_core_fast_path: true,
            metered: false,
        }
    }
}

/// What happened to one task.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct TaskOutcome {
    /// When it first got a core (after any switch cost).
    pub first_start: f64,
    pub completion: f64,
    /// How many times it was put on a core.
    pub slices: u32,
}

/// The result of one run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schedule {
    /// Empty unless `record_outcomes` was set.
    pub outcomes: Vec<TaskOutcome>,
    /// Completion time of every thread that exited, in thread order (always
    /// kept; equal to `outcomes[i].completion` when those are recorded;
    /// NaN for a thread that did not exit).
    pub completions: Vec<f64>,
    /// Empty unless `record_segments` was set.
    pub segments: Vec<Segment>,
    pub context_switches: u64,
    /// Slices dispatched (a thread put on a core), for slices per second.
    pub slices: u64,
    /// Time of the last completion.
    pub makespan: f64,
    /// Core time spent running threads (ms), summed over cores.
    pub busy_time: f64,
    /// Core time spent switching (ms), summed over cores.
    pub switch_time: f64,
    pub cores: usize,
    /// When the run stopped: the last instant, or the workload's time limit.
    pub end: f64,
}

/// Why a run was stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    TooManySlices { limit: u64 },
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::TooManySlices { limit } => write!(
                f,
                "the run needs more than {limit} slices; use a larger quantum or fewer tasks"
            ),
        }
    }
}

impl std::error::Error for EngineError {}

#[derive(Clone, Copy)]
struct CoreState {
    /// The thread on the core, if busy.
    task: Option<ThreadId>,
    /// The thread it ran last, for switch costs.
    last: Option<ThreadId>,
    /// When the current CPU step's work (after switching) started.
    run_start: f64,
    /// Work the current step will do on this slice if not preempted.
    run_amount: f64,
    /// How long that takes on this core (`run_amount / speed`).
    run_time: f64,
    /// When the thread was put on the core (its segment starts here).
    slice_start: f64,
    /// The slice's length as the class gave it (time).
    slice_len: f64,
    /// Time run in this slice by its earlier CPU steps (a thread whose step
    /// ends goes on with its next one in the same slice).
    slice_ran: f64,
    /// The thread whose slice expired on this core, and when: if the class
    /// hands it the core again at that instant it continues its timeslice.
    expired: Option<(ThreadId, f64)>,
    /// False when the thread continues after its quantum expired (an equal
    /// priority may then take the core: XNU's `first_timeslice`).
    first_timeslice: bool,
    /// Bumped when a slice is cut short, so its heap entry goes stale.
    generation: u32,
}

impl CoreState {
    const IDLE: CoreState = CoreState {
        task: None,
        last: None,
        run_start: 0.0,
        run_amount: 0.0,
        run_time: 0.0,
        slice_start: 0.0,
        slice_len: 0.0,
        slice_ran: 0.0,
        expired: None,
        first_timeslice: true,
        generation: 0,
    };
}

/// How many picks ahead the loop asks the class for a thread to prefetch:
/// far enough that the fetch (~100 ns from memory) completes before the
/// thread runs, at some ten nanoseconds per slice.
const PREFETCH_AHEAD: usize = 16;

/// Asks the CPU to bring `value`'s cache line in, without waiting for it.
#[inline(always)]
fn prefetch(value: Option<&f64>) {
    #[cfg(target_arch = "x86_64")]
    if let Some(v) = value {
        // SAFETY: a prefetch is only a hint; it never faults, even for an
        // address that is not mapped, and reads nothing into the program.
        #[allow(unused_unsafe)]
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                (v as *const f64).cast(),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// What one step of a run reads and writes, apart from the cores: its
/// methods are the steps both the general event loop and the one-core fast
/// path take, so the two cannot drift apart. The core a step works on is
/// passed to it, so the fast path can keep that core's state in registers.
struct Steps<'r, P: Policy + ?Sized, W: Threads, R: Recorder> {
    threads: &'r mut W,
    policy: &'r mut P,
    recorder: &'r mut R,
    config: &'r EngineConfig,
    /// Core speeds, or empty when every core runs at speed 1.
    speeds: &'r [f64],
    /// Work left of each thread's CPU step; once a thread exited, its
    /// completion time (the slot is free then, and this way a run keeps one
    /// `f64` per task for both). No class reads an exited thread's entry.
    remaining: &'r mut [f64],
    /// Empty unless `record_outcomes` is set.
    outcomes: &'r mut [TaskOutcome],
    /// Only pushed to if `record_segments` is set.
    segments: &'r mut Vec<Segment>,
}

/// The counters every slice updates, written into the [`Schedule`] at the
/// end. A local of [`simulate_on`] passed to the steps (rather than fields
/// of a struct whose address escapes into calls), so the compiler can hold
/// them in registers across the loop.
#[derive(Clone, Copy, Default)]
struct Tally {
    /// Slices plus timer events: both count against `max_slices`.
    slices: u64,
    timer_events: u64,
    done: usize,
    context_switches: u64,
    busy_time: f64,
    switch_time: f64,
    makespan: f64,
}

/// What the class may read. A free function (not a method) so it borrows
/// only the workload and `remaining`, leaving the class free to be borrowed
/// mutably in the same call.
#[inline(always)]
fn task_view<'a, W: Threads>(threads: &'a W, remaining: &'a [f64]) -> TaskView<'a> {
    TaskView {
        arrival: threads.arrival(),
        work: threads.work(),
        remaining,
    }
}

/// How a slice ended, for [`Steps::finish_slice`]'s caller.
enum Ended {
    /// The thread exited or blocked: the core is free.
    Left,
    /// Its slice expired with work left: enqueue it (after the newcomers).
    Expired(ThreadId),
    /// Its CPU step ended and the next one goes on on the same core: the
    /// slice's new end.
    Continues(f64),
}

impl<P: Policy + ?Sized, W: Threads, R: Recorder> Steps<'_, P, W, R> {
    #[inline(always)]
    fn speed(&self, c: usize) -> f64 {
        self.speeds.get(c).copied().unwrap_or(1.0)
    }

    /// Work core `c` (state `st`) did in the first `time` ms of its
    /// current step.
    #[inline(always)]
    fn work_in(&self, st: &CoreState, c: usize, time: f64) -> f64 {
        if self.speeds.is_empty() {
            time
        } else {
            (time * self.speed(c)).min(st.run_amount)
        }
    }

    #[inline(always)]
    fn enqueue(&mut self, task: ThreadId, why: Enqueue) {
        let view = task_view(&*self.threads, self.remaining);
        self.policy.enqueue(task, why, &view);
    }

    /// Sets the core to run `amount_cap_time` ms of its thread's current
    /// step from `start`: returns when that ends.
    #[inline(always)]
    fn run_step(&mut self, st: &mut CoreState, c: usize, start: f64, time_cap: f64) -> f64 {
        let i = st.task.expect("a running core has a thread") as usize;
        let (amount, time) = if self.speeds.is_empty() {
            let amount = self.remaining[i].min(time_cap);
            (amount, amount)
        } else {
            let speed = self.speed(c);
            let amount = self.remaining[i].min(time_cap * speed);
            (amount, amount / speed)
        };
        st.run_start = start;
        st.run_amount = amount;
        st.run_time = time;
        start + time
    }

    /// Asks the class for work for free core `c` (state `st`); returns
    /// when the slice will end, or `None` if nothing is queued for it.
    #[inline(always)]
    fn dispatch(
        &mut self,
        st: &mut CoreState,
        tally: &mut Tally,
        c: usize,
        now: f64,
    ) -> Result<Option<f64>, EngineError> {
        let view = task_view(&*self.threads, self.remaining);
        let Some(task) = self.policy.pick_next(c, &view) else {
            return Ok(None);
        };
        if let Some(next) = self.policy.upcoming(PREFETCH_AHEAD) {
            prefetch(self.remaining.get(next as usize));
        }
        self.start_slice::<true>(st, tally, c, now, task).map(Some)
    }

    /// Puts `task` (just picked) on free core `c` (state `st`) at `now`;
    /// returns when its slice will end. `RECORD` false compiles the step
    /// for a run that keeps no segments or outcomes (the checks for them
    /// are then gone).
    #[inline(always)]
    fn start_slice<const RECORD: bool>(
        &mut self,
        st: &mut CoreState,
        tally: &mut Tally,
        c: usize,
        now: f64,
        task: ThreadId,
    ) -> Result<f64, EngineError> {
        tally.slices += 1;
        if tally.slices > self.config.max_slices {
            return Err(EngineError::TooManySlices {
                limit: self.config.max_slices,
            });
        }
        let i = task as usize;
        let mut start = now;
        if st.last.is_some_and(|l| l != task) {
            start += self.config.switch_cost;
            tally.switch_time += self.config.switch_cost;
            tally.context_switches += 1;
        }
        let slice = self.policy.time_slice(task);
        st.first_timeslice = st.expired != Some((task, now));
        st.expired = None;
        st.task = Some(task);
        st.last = Some(task);
        st.slice_start = start;
        st.slice_len = slice;
        st.slice_ran = 0.0;
        let end = self.run_step(st, c, start, slice);
        if !RECORD {
            debug_assert!(self.outcomes.is_empty());
        } else if let Some(o) = self.outcomes.get_mut(i) {
            if o.slices == 0 {
                o.first_start = start;
            }
            o.slices += 1;
        }
        self.recorder.on_core(task, c, start);
        Ok(end)
    }

    /// Keeps the segment core `c` ran its thread in, from its slice start
    /// to `end`.
    #[inline(always)]
    fn record_segment<const RECORD: bool>(
        &mut self,
        st: &CoreState,
        c: usize,
        task: ThreadId,
        end: f64,
    ) {
        if RECORD && self.config.record_segments {
            self.segments.push(Segment {
                core: c as u32,
                task,
                start: st.slice_start,
                end,
            });
        }
    }

    /// The step on core `c` (state `st`) ran to its end at `t`. `RECORD`
    /// as for [`Steps::start_slice`].
    #[inline(always)]
    fn finish_slice<const RECORD: bool>(
        &mut self,
        st: &mut CoreState,
        tally: &mut Tally,
        c: usize,
        t: f64,
    ) -> Ended {
        let task = st.task.expect("a finishing core has a thread");
        let ran = st.run_amount;
        let i = task as usize;
        self.remaining[i] -= ran;
        tally.busy_time += st.run_time;
        self.recorder.ran(task, c, st.run_time, ran);
        // What the class is told the thread ran in this slice (for a study
        // task, one step per slice, `0.0 + run_time`: exactly the work
        // charged, as always).
        let slice_ran = st.slice_ran + st.run_time;
        if self.remaining[i] <= DONE_EPSILON {
            match self.threads.step_done(task, t) {
                Next::Exit => {
                    st.task = None;
                    self.record_segment::<RECORD>(st, c, task, t);
                    self.remaining[i] = t;
                    if !RECORD {
                        debug_assert!(self.outcomes.is_empty());
                    } else if let Some(o) = self.outcomes.get_mut(i) {
                        o.completion = t;
                    }
                    tally.makespan = tally.makespan.max(t);
                    tally.done += 1;
                    self.policy.on_descheduled(task, slice_ran, Leave::Done);
                    self.recorder
                        .off_core(task, c, st.slice_start, t, State::Blocked);
                    return Ended::Left;
                }
                Next::Block => {
                    st.task = None;
                    self.record_segment::<RECORD>(st, c, task, t);
                    self.remaining[i] = 0.0;
                    self.policy.on_descheduled(task, slice_ran, Leave::Blocked);
                    self.recorder
                        .off_core(task, c, st.slice_start, t, State::Blocked);
                    return Ended::Left;
                }
                Next::Cpu(work) => {
                    self.remaining[i] = work;
                    let left = st.slice_len - slice_ran;
                    if left > self.threads.same_instant() {
                        st.slice_ran = slice_ran;
                        return Ended::Continues(self.run_step(st, c, t, left));
                    }
                }
            }
        }
        st.task = None;
        self.record_segment::<RECORD>(st, c, task, t);
        st.expired = Some((task, t));
        self.policy.on_descheduled(task, slice_ran, Leave::Expired);
        self.recorder
            .off_core(task, c, st.slice_start, t, State::Runnable);
        Ended::Expired(task)
    }

    /// Stops core `c`'s thread at `now`, charging the part of its step it
    /// did; returns the thread and the time it ran in this slice.
    fn stop(
        &mut self,
        st: &mut CoreState,
        tally: &mut Tally,
        c: usize,
        now: f64,
    ) -> (ThreadId, f64) {
        let task = st.task.take().expect("a running core has a thread");
        let time = (now - st.run_start).clamp(0.0, st.run_time);
        let work = self.work_in(st, c, time);
        st.generation = st.generation.wrapping_add(1);
        self.remaining[task as usize] -= work;
        tally.busy_time += time;
        self.recorder.ran(task, c, time, work);
        if now > st.slice_start {
            self.record_segment::<true>(st, c, task, now);
        }
        (task, st.slice_ran + time)
    }

    /// Takes core `c` (state `st`) from its thread at `now` and hands the
    /// thread back to the class.
    fn preempt(&mut self, st: &mut CoreState, tally: &mut Tally, c: usize, now: f64) {
        let (task, ran) = self.stop(st, tally, c, now);
        self.policy.on_descheduled(task, ran, Leave::Preempted);
        self.recorder
            .off_core(task, c, st.slice_start, now, State::Preempted);
        self.enqueue(task, Enqueue::Preempted);
    }

    fn running(&self, core: &[CoreState], now: f64) -> Vec<Running> {
        core.iter()
            .enumerate()
            .filter_map(|(c, st)| {
                st.task.map(|task| {
                    let time = (now - st.run_start).clamp(0.0, st.run_time);
                    let work = self.work_in(st, c, time);
                    Running {
                        core: c,
                        task,
                        remaining_now: self.remaining[task as usize] - work,
                        ran: st.slice_ran + time,
                        first_timeslice: st.first_timeslice,
                    }
                })
            })
            .collect()
    }
}

/// The one-core fast path: core `c`'s slice ends at `end`, and before
/// `horizon` (the next arrival or timer) nothing else can happen, so
/// finish slices and dispatch the next right here, with exactly the steps
/// of the event loop. Returns the end of the slice that reaches the
/// horizon, or `None` once the run queue is empty (the core idles).
///
/// A function of its own (not inlined into [`simulate_on`]) that takes
/// every piece of state as a separate reference: the compiler may then
/// assume they do not overlap (a store to a thread's remaining work cannot
/// change the run queue or the core), and keeps the core's state and the
/// counters in registers for the millions of slices of a large run.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn run_alone<P: Policy + ?Sized, W: Threads, R: Recorder>(
    threads: &mut W,
    policy: &mut P,
    recorder: &mut R,
    config: &EngineConfig,
    remaining: &mut [f64],
    outcomes: &mut [TaskOutcome],
    segments: &mut Vec<Segment>,
    core: &mut CoreState,
    tally: &mut Tally,
    c: usize,
    mut end: f64,
    horizon: f64,
) -> Result<Option<f64>, EngineError> {
    let mut steps = Steps {
        threads,
        policy,
        recorder,
        config,
        speeds: &[],
        remaining,
        outcomes,
        segments,
    };
    let (mut st, mut t) = (*core, *tally);
    let result = loop {
        if end >= horizon {
            break Ok(Some(end));
        }
        steps.policy.on_instant(end);
        match steps.finish_slice::<true>(&mut st, &mut t, c, end) {
            Ended::Left => {}
            Ended::Expired(task) => steps.enqueue(task, Enqueue::Expired),
            Ended::Continues(next_end) => {
                end = next_end;
                continue;
            }
        }
        if let Some((first, stop)) = steps.policy.front_stretch() {
            // The class's next picks are `first..stop` in order (the
            // study's tasks at t = 0, and round-robin's first round).
            // Without recording, the stretch's steps compile without the
            // recording's checks (and its calls, which cost registers).
            let stretch = if steps.config.record_segments || !steps.outcomes.is_empty() {
                run_stretch::<P, W, R, true>
            } else {
                run_stretch::<P, W, R, false>
            };
            let parts = (
                &mut *steps.threads,
                &mut *steps.policy,
                &mut *steps.recorder,
                steps.config,
            );
            let state = (
                &mut *steps.remaining,
                &mut *steps.outcomes,
                &mut *steps.segments,
            );
            match stretch(
                parts,
                state,
                &mut st,
                &mut t,
                (c, end, horizon),
                (first, stop),
            ) {
                Ok(Stretch::Ran(last_end)) => end = last_end,
                Ok(Stretch::Reached(slice_end)) => break Ok(Some(slice_end)),
                Err(e) => break Err(e),
            }
        }
        match steps.dispatch(&mut st, &mut t, c, end) {
            Ok(Some(next_end)) => end = next_end,
            Ok(None) => break Ok(None),
            Err(e) => break Err(e),
        }
    };
    (*core, *tally) = (st, t);
    result
}

/// How [`run_stretch`] ended.
enum Stretch {
    /// Every thread of the stretch ran; the last slice ended at this time
    /// and was finished (the core is free).
    Ran(f64),
    /// A slice reaches the horizon at this time; its thread is on the core.
    Reached(f64),
}

/// Dispatches `first..stop`, the class's next picks (see
/// [`Policy::front_stretch`]), one after another from `now` on free core
/// `c`, with exactly the steps of [`run_alone`]'s loop but no pick per
/// thread, then tells the class how many it took. A function of its own
/// (as [`run_alone`], for the same reason), with the core and the counters
/// as locals, so they stay in registers.
#[inline(never)]
#[allow(clippy::type_complexity)]
fn run_stretch<P: Policy + ?Sized, W: Threads, R: Recorder, const RECORD: bool>(
    (threads, policy, recorder, config): (&mut W, &mut P, &mut R, &EngineConfig),
    (remaining, outcomes, segments): (&mut [f64], &mut [TaskOutcome], &mut Vec<Segment>),
    core: &mut CoreState,
    tally: &mut Tally,
    (c, mut now, horizon): (usize, f64, f64),
    (first, stop): (ThreadId, ThreadId),
) -> Result<Stretch, EngineError> {
    let mut steps = Steps {
        threads,
        policy,
        recorder,
        config,
        speeds: &[],
        remaining,
        outcomes,
        segments,
    };
    let (mut st, mut t) = (*core, *tally);
    let mut next = first;
    let result = loop {
        if next == stop {
            break Ok(Stretch::Ran(now));
        }
        let end = match steps.start_slice::<RECORD>(&mut st, &mut t, c, now, next) {
            Ok(end) => end,
            Err(e) => break Err(e),
        };
        next += 1;
        if end >= horizon {
            break Ok(Stretch::Reached(end));
        }
        steps.policy.on_instant(end);
        match steps.finish_slice::<RECORD>(&mut st, &mut t, c, end) {
            Ended::Left => {}
            Ended::Expired(task) => steps.enqueue(task, Enqueue::Expired),
            // A thread going on with its next step keeps the core: the
            // stretch ends here and the caller's loop carries on with it.
            Ended::Continues(next_end) => {
                steps.policy.take_front(next - first);
                (*core, *tally) = (st, t);
                return Ok(Stretch::Reached(next_end));
            }
        }
        now = end;
    };
    steps.policy.take_front(next - first);
    (*core, *tally) = (st, t);
    result
}

/// Runs `threads` on `machine` under `policy`, telling `recorder` what
/// each thread does. Generic so that a concrete class is inlined into the
/// loop (a million slices a run); `&mut dyn Policy` works too.
pub fn simulate_on<P: Policy + ?Sized, W: Threads, R: Recorder>(
    threads: &mut W,
    machine: &Machine,
    policy: &mut P,
    recorder: &mut R,
    config: &EngineConfig,
) -> Result<Schedule, EngineError> {
    let n = threads.len();
    let cores = machine.cores.len().max(1);
    if config.metered {
        budget::begin_run();
    }
    let speeds: Vec<f64> = if machine.all_speed_one() {
        Vec::new()
    } else {
        machine.cores.iter().map(|c| c.speed).collect()
    };
    let until = threads.until();
    let mut remaining = threads.initial_remaining();
    let mut outcomes = if config.record_outcomes {
        vec![
            TaskOutcome {
                first_start: f64::NAN,
                completion: f64::NAN,
                slices: 0,
            };
            n
        ]
    } else {
        Vec::new()
    };
    let mut segments = Vec::new();
    let mut core = vec![CoreState::IDLE; cores];
    let mut e = Steps {
        threads,
        policy,
        recorder,
        config,
        speeds: &speeds,
        remaining: &mut remaining,
        outcomes: &mut outcomes,
        segments: &mut segments,
    };
    let mut tally = Tally::default();
    // Slice ends: (end time, core, generation), earliest first.
    let mut ends: BinaryHeap<Reverse<(Key, usize, u32)>> = BinaryHeap::new();
    // Free cores, lowest index first.
    let mut idle: BinaryHeap<Reverse<usize>> = (0..cores).map(Reverse).collect();
    let mut still_idle: Vec<usize> = Vec::new();
    let mut expired: Vec<ThreadId> = Vec::new();
    // Re-read only after the timer fires (the `Policy::next_timer` contract).
    let mut timer = e.policy.next_timer();
    let fast_path = cores == 1 && config.one_core_fast_path && speeds.is_empty();
    let tol = e.threads.same_instant();
    let mut end_time = 0.0;

    while !e.threads.finished(tally.done) {
        // 1. The next instant anything happens.
        let t_wake = e.threads.next_wake();
        let t_end = ends.peek().map(|Reverse((Key(t), _, _))| *t);
        let now = [t_wake, t_end, timer]
            .into_iter()
            .flatten()
            .fold(f64::INFINITY, f64::min);
        if now >= until {
            end_time = until;
            break;
        }
        if !now.is_finite() {
            // Nothing can happen any more; only reachable if a class loses
            // a thread, which the tests guard against.
            break;
        }
        if config.metered
            && !budget::charge_at(cores as u64 + 1 + e.policy.take_work(), now / until)
        {
            end_time = now;
            break;
        }
        end_time = now;
        e.policy.on_instant(now);

        // 2. Slices ending now.
        while let Some(&Reverse((Key(t), c, gen))) = ends.peek() {
            if t > now + tol {
                break;
            }
            ends.pop();
            if gen != core[c].generation {
                continue;
            }
            match e.finish_slice::<true>(&mut core[c], &mut tally, c, now) {
                Ended::Left => idle.push(Reverse(c)),
                Ended::Expired(task) => {
                    expired.push(task);
                    idle.push(Reverse(c));
                }
                Ended::Continues(end) => ends.push(Reverse((Key(end), c, core[c].generation))),
            }
        }

        // 3. Threads runnable now, then the expired ones behind them (or
        // the other way round, for a class that asks).
        let expired_first = e.policy.expired_first();
        if expired_first {
            for task in expired.drain(..) {
                e.enqueue(task, Enqueue::Expired);
            }
        }
        {
            let Steps {
                threads,
                policy,
                recorder,
                remaining,
                ..
            } = &mut e;
            threads.wake_due(now + tol, remaining, |ids, view| {
                for t in ids.clone() {
                    recorder.woke(t, now);
                }
                if ids.len() == 1 {
                    policy.enqueue(ids.start, Enqueue::Arrived, view);
                } else {
                    // A batch of arrivals (the study's tasks at t = 0).
                    policy.enqueue_range(ids.start, ids.end, Enqueue::Arrived, view);
                }
            });
        }
        for task in expired.drain(..) {
            e.enqueue(task, Enqueue::Expired);
        }

        // 4. Class timer.
        if timer.is_some_and(|t| t <= now + tol) {
            // Timer events count against the same budget as slices.
            tally.slices += 1;
            tally.timer_events += 1;
            if tally.slices > e.config.max_slices {
                return Err(EngineError::TooManySlices {
                    limit: e.config.max_slices,
                });
            }
            let running = e.running(&core, now);
            // Within the instant's tolerance, as the wakeups above.
            e.policy.on_timer(now + tol, &running);
            timer = e.policy.next_timer();
        }

        // 5. Fill free cores, then let a preemptive class take busy ones.
        let mut preemptions_left = e.policy.preemptions_per_instant(cores);
        loop {
            while let Some(Reverse(c)) = idle.pop() {
                let Some(end) = e.dispatch(&mut core[c], &mut tally, c, now)? else {
                    still_idle.push(c);
                    if !e.policy.has_queued() {
                        break;
                    }
                    // A class that places threads by core (XNU keeps
                    // background off P cores) may have work for the next.
                    continue;
                };
                ends.push(Reverse((Key(end), c, core[c].generation)));
            }
            idle.extend(still_idle.drain(..).map(Reverse));
            if !e.policy.is_preemptive() || !e.policy.has_queued() || preemptions_left == 0 {
                break;
            }
            let running = e.running(&core, now);
            if running.is_empty() {
                break;
            }
            let view = task_view(&*e.threads, e.remaining);
            let Some(v) = e.policy.preemption_victim(&running, &view) else {
                break;
            };
            preemptions_left -= 1;
            let c = running[v].core;
            e.preempt(&mut core[c], &mut tally, c, now);
            idle.push(Reverse(c));
        }
        if fast_path && core[0].task.is_some() {
            // One core, with this instant's picks and preemptions made:
            // while the slice ends before anything else can happen, finish
            // it and pick the next right here, taking exactly the steps the
            // loop above would take. Preemptions are checked here first,
            // at this instant; a later slice end before the horizon cannot
            // preempt (the class's pick there is its own first choice), and
            // arrivals and timers, which can, are the horizon. The heap
            // holds the slice's end; entries of slices preempted at this
            // instant are stale.
            let mut end = now;
            while let Some(Reverse((Key(t), c, gen))) = ends.pop() {
                if gen == core[c].generation {
                    end = t;
                }
            }
            let horizon = [e.threads.next_wake(), timer, Some(until)]
                .into_iter()
                .flatten()
                .fold(f64::INFINITY, f64::min);
            let last_end = run_alone(
                &mut *e.threads,
                &mut *e.policy,
                &mut *e.recorder,
                e.config,
                &mut *e.remaining,
                &mut *e.outcomes,
                &mut *e.segments,
                &mut core[0],
                &mut tally,
                0,
                end,
                horizon,
            )?;
            match last_end {
                Some(end) if core[0].task.is_some() => {
                    ends.push(Reverse((Key(end), 0, core[0].generation)))
                }
                _ => idle.push(Reverse(0)),
            }
        }
        let policy = &*e.policy;
        e.recorder.instant(now, |t| policy.priority(t));
    }

    // The run ends with threads on cores (a time limit, a stop condition):
    // charge what they did and close their segments there.
    for (c, st) in core.iter_mut().enumerate() {
        if st.task.is_some() {
            let since = st.slice_start.min(end_time);
            let (task, _) = e.stop(st, &mut tally, c, end_time);
            e.recorder
                .off_core(task, c, since, end_time, State::Running);
        }
    }

    let policy = &*e.policy;
    e.recorder.end(end_time, |t| policy.priority(t));
    if config.metered {
        // The class's work since the last instant counts too (a run that
        // ends over budget is refused even though it finished).
        budget::charge(e.policy.take_work());
    }

    if tally.done < n {
        // A thread never exited: its slot still holds work, not a
        // completion time. Say so instead of guessing.
        if outcomes.is_empty() {
            for slot in remaining.iter_mut() {
                *slot = f64::NAN;
            }
        } else {
            for (slot, o) in remaining.iter_mut().zip(&outcomes) {
                *slot = o.completion;
            }
        }
    }
    Ok(Schedule {
        outcomes,
        completions: remaining,
        segments,
        context_switches: tally.context_switches,
        slices: tally.slices - tally.timer_events,
        makespan: tally.makespan,
        busy_time: tally.busy_time,
        switch_time: tally.switch_time,
        cores,
        end: end_time,
    })
}
