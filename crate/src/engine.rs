//! The discrete-event engine: N identical cores, one policy, one workload.
//!
//! The engine owns the clock, the cores and all accounting; the policy owns
//! the run queue (see `crate::policy`). Time jumps from event to event:
//! a slice ending on some core, a task arriving, or a policy timer.
//!
//! Order of work at one instant `t` (documented because it decides ties):
//! 1. slices ending at `t` are accounted; finished tasks complete at `t`;
//! 2. tasks arriving at `t` are enqueued (in index order);
//! 3. tasks whose slice expired at `t` are enqueued after them — a newcomer
//!    gets ahead of a task that just used its quantum, as in most textbooks;
//! 4. a due policy timer fires;
//! 5. free cores pick work (lowest core first), then a preemptive policy may
//!    take cores from running tasks.
//!
//! Slices are charged exactly as the study's code does (`run = min(remaining,
//! slice)`, `clock += run`, done when `remaining <= 1e-9`), so on one core
//! with every task at t = 0 and free switches the completion times are
//! bit-identical to the study's Python.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::policy::{Enqueue, Key, Leave, Policy, Running, TaskId, TaskView};
use crate::workload::Workload;

/// Work below this is "done", as in the study's `rem[i] <= 1e-9`.
pub const DONE_EPSILON: f64 = 1e-9;

/// Machine and recording settings for one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineConfig {
    /// Identical cores, at least 1.
    pub cores: usize,
    /// Time in ms a core spends whenever it starts a task other than the one
    /// it ran last (the first task a core ever runs costs nothing).
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
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            cores: 1,
            switch_cost: 0.0,
            record_segments: true,
            record_outcomes: true,
            max_slices: u64::MAX,
            one_core_fast_path: true,
        }
    }
}

/// A stretch of time in which one core ran one task.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Segment {
    pub core: u32,
    pub task: TaskId,
    pub start: f64,
    pub end: f64,
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
    /// Completion time of every task, in task order (always kept; equal to
    /// `outcomes[i].completion` when those are recorded).
    pub completions: Vec<f64>,
    /// Empty unless `record_segments` was set.
    pub segments: Vec<Segment>,
    pub context_switches: u64,
    /// Slices dispatched (a task put on a core), for slices per second.
    pub slices: u64,
    /// Time of the last completion.
    pub makespan: f64,
    /// Core time spent running tasks (ms), summed over cores.
    pub busy_time: f64,
    /// Core time spent switching (ms), summed over cores.
    pub switch_time: f64,
    pub cores: usize,
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
    /// The task on the core, if busy.
    task: Option<TaskId>,
    /// The task it ran last, for switch costs.
    last: Option<TaskId>,
    /// When the task's work (after switching) started.
    run_start: f64,
    /// Work the current slice will do if not preempted.
    run_amount: f64,
    /// Bumped when a slice is cut short, so its heap entry goes stale.
    generation: u32,
}

/// How many picks ahead the engine asks the policy for a task to prefetch:
/// far enough that the fetch (~100 ns from memory) completes before the
/// task runs, at some ten nanoseconds per slice.
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
struct Steps<'r, P: Policy + ?Sized> {
    workload: &'r Workload,
    policy: &'r mut P,
    config: &'r EngineConfig,
    /// Work left of each task; once a task is done, its completion time
    /// (the slot is free then, and this way a run keeps one `f64` per task
    /// for both). No policy reads a finished task's entry.
    remaining: &'r mut [f64],
    /// Empty unless `record_outcomes` is set.
    outcomes: &'r mut [TaskOutcome],
    /// Only pushed to if `record_segments` is set.
    segments: &'r mut Vec<Segment>,
}

/// The counters every slice updates, written into the [`Schedule`] at the
/// end. A local of [`simulate`] passed to the steps (rather than fields of a
/// struct whose address escapes into calls), so the compiler can hold them
/// in registers across the loop.
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

/// What the policy may read. A free function (not a method) so it borrows
/// only the workload and `remaining`, leaving the policy free to be borrowed
/// mutably in the same call.
fn task_view<'a>(workload: &'a Workload, remaining: &'a [f64]) -> TaskView<'a> {
    TaskView {
        arrival: &workload.arrival,
        work: &workload.work,
        remaining,
    }
}

impl<P: Policy + ?Sized> Steps<'_, P> {
    #[inline(always)]
    fn enqueue(&mut self, task: TaskId, why: Enqueue) {
        let view = task_view(self.workload, self.remaining);
        self.policy.enqueue(task, why, &view);
    }

    /// Asks the policy for work for free core `st`; returns when the slice
    /// will end, or `None` if nothing is queued.
    #[inline(always)]
    fn dispatch(
        &mut self,
        st: &mut CoreState,
        tally: &mut Tally,
        now: f64,
    ) -> Result<Option<f64>, EngineError> {
        let view = task_view(self.workload, self.remaining);
        let Some(task) = self.policy.pick_next(&view) else {
            return Ok(None);
        };
        if let Some(next) = self.policy.upcoming(PREFETCH_AHEAD) {
            prefetch(self.remaining.get(next as usize));
        }
        self.start_slice::<true>(st, tally, now, task).map(Some)
    }

    /// Puts `task` (just picked) on free core `st` at `now`; returns when
    /// its slice will end. `RECORD` false compiles the step for a run that
    /// keeps no segments or outcomes (the checks for them are then gone).
    #[inline(always)]
    fn start_slice<const RECORD: bool>(
        &mut self,
        st: &mut CoreState,
        tally: &mut Tally,
        now: f64,
        task: TaskId,
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
        let amount = self.remaining[i].min(self.policy.time_slice(task));
        st.task = Some(task);
        st.last = Some(task);
        st.run_start = start;
        st.run_amount = amount;
        if !RECORD {
            debug_assert!(self.outcomes.is_empty());
        } else if let Some(o) = self.outcomes.get_mut(i) {
            if o.slices == 0 {
                o.first_start = start;
            }
            o.slices += 1;
        }
        Ok(start + amount)
    }

    /// The slice on core `c` (state `st`) ran to its end at `t`. Returns the
    /// task if it still has work (its slice expired) so the caller can
    /// enqueue it. `RECORD` as for [`Steps::start_slice`].
    #[inline(always)]
    fn finish_slice<const RECORD: bool>(
        &mut self,
        st: &mut CoreState,
        tally: &mut Tally,
        c: usize,
        t: f64,
    ) -> Option<TaskId> {
        let task = st.task.take().expect("a finishing core has a task");
        let ran = st.run_amount;
        let i = task as usize;
        self.remaining[i] -= ran;
        tally.busy_time += ran;
        if RECORD && self.config.record_segments {
            self.segments.push(Segment {
                core: c as u32,
                task,
                start: st.run_start,
                end: t,
            });
        }
        if self.remaining[i] <= DONE_EPSILON {
            self.remaining[i] = t;
            if !RECORD {
                debug_assert!(self.outcomes.is_empty());
            } else if let Some(o) = self.outcomes.get_mut(i) {
                o.completion = t;
            }
            tally.makespan = tally.makespan.max(t);
            tally.done += 1;
            self.policy.on_descheduled(task, ran, Leave::Done);
            None
        } else {
            self.policy.on_descheduled(task, ran, Leave::Expired);
            Some(task)
        }
    }

    /// Takes core `c` (state `st`) from its task at `now` and hands the
    /// task back to the policy.
    fn preempt(&mut self, st: &mut CoreState, tally: &mut Tally, c: usize, now: f64) {
        let task = st.task.take().expect("a running core has a task");
        let ran = (now - st.run_start).clamp(0.0, st.run_amount);
        st.generation = st.generation.wrapping_add(1);
        self.remaining[task as usize] -= ran;
        tally.busy_time += ran;
        if self.config.record_segments && ran > 0.0 {
            self.segments.push(Segment {
                core: c as u32,
                task,
                start: st.run_start,
                end: now,
            });
        }
        self.policy.on_descheduled(task, ran, Leave::Preempted);
        self.enqueue(task, Enqueue::Preempted);
    }

    fn running(&self, core: &[CoreState], now: f64) -> Vec<Running> {
        core.iter()
            .enumerate()
            .filter_map(|(c, st)| {
                st.task.map(|task| Running {
                    core: c,
                    task,
                    remaining_now: self.remaining[task as usize]
                        - (now - st.run_start).clamp(0.0, st.run_amount),
                })
            })
            .collect()
    }

    /// The one-core fast path: core `c`'s slice ends at `end`, and before
    /// `horizon` (the next arrival or timer) nothing else can happen, so
    /// finish slices and dispatch the next right here, with exactly the
    /// steps of the event loop. Returns the end of the slice that reaches
    /// the horizon, or `None` once the run queue is empty (the core idles).
    #[inline(always)]
    fn run_alone(
        &mut self,
        core: &mut CoreState,
        tally: &mut Tally,
        c: usize,
        end: f64,
        horizon: f64,
    ) -> Result<Option<f64>, EngineError> {
        run_alone(
            self.workload,
            &mut *self.policy,
            self.config,
            &mut *self.remaining,
            &mut *self.outcomes,
            &mut *self.segments,
            core,
            tally,
            c,
            end,
            horizon,
        )
    }
}

/// [`Steps::run_alone`]'s loop, a function of its own (not inlined into
/// [`simulate`]) that takes every piece of state as a separate reference:
/// the compiler may then assume they do not overlap (a store to a task's
/// remaining work cannot change the run queue or the core), and keeps the
/// core's state and the counters in registers for the millions of slices
/// of a large run.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn run_alone<P: Policy + ?Sized>(
    workload: &Workload,
    policy: &mut P,
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
        workload,
        policy,
        config,
        remaining,
        outcomes,
        segments,
    };
    let (mut st, mut t) = (*core, *tally);
    let result = loop {
        if end >= horizon {
            break Ok(Some(end));
        }
        if let Some(task) = steps.finish_slice::<true>(&mut st, &mut t, c, end) {
            steps.enqueue(task, Enqueue::Expired);
        }
        if let Some((first, stop)) = steps.policy.front_stretch() {
            // The policy's next picks are `first..stop` in order (the
            // study's tasks at t = 0, and round-robin's first round).
            // Without recording, the stretch's steps compile without the
            // recording's checks (and its calls, which cost registers).
            let stretch = if steps.config.record_segments || !steps.outcomes.is_empty() {
                run_stretch::<P, true>
            } else {
                run_stretch::<P, false>
            };
            let state = (
                &mut *steps.policy,
                &mut *steps.remaining,
                &mut *steps.outcomes,
                &mut *steps.segments,
            );
            match stretch(
                steps.workload,
                state,
                steps.config,
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
        match steps.dispatch(&mut st, &mut t, end) {
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
    /// Every task of the stretch ran; the last slice ended at this time
    /// and was finished (the core is free).
    Ran(f64),
    /// A slice reaches the horizon at this time; its task is on the core.
    Reached(f64),
}

/// Dispatches `first..stop`, the policy's next picks (see
/// [`Policy::front_stretch`]), one after another from `now` on free core
/// `c`, with exactly the steps of [`run_alone`]'s loop but no pick per task,
/// then tells the policy how many it took. A function of its own, over
/// separate references (as [`run_alone`], for the same reason) and with the
/// core and the counters as locals, so they stay in registers.
#[inline(never)]
#[allow(clippy::type_complexity)]
fn run_stretch<P: Policy + ?Sized, const RECORD: bool>(
    workload: &Workload,
    (policy, remaining, outcomes, segments): (
        &mut P,
        &mut [f64],
        &mut [TaskOutcome],
        &mut Vec<Segment>,
    ),
    config: &EngineConfig,
    core: &mut CoreState,
    tally: &mut Tally,
    (c, mut now, horizon): (usize, f64, f64),
    (first, stop): (TaskId, TaskId),
) -> Result<Stretch, EngineError> {
    let mut steps = Steps {
        workload,
        policy,
        config,
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
        let end = match steps.start_slice::<RECORD>(&mut st, &mut t, now, next) {
            Ok(end) => end,
            Err(e) => break Err(e),
        };
        next += 1;
        if end >= horizon {
            break Ok(Stretch::Reached(end));
        }
        if let Some(task) = steps.finish_slice::<RECORD>(&mut st, &mut t, c, end) {
            steps.enqueue(task, Enqueue::Expired);
        }
        now = end;
    };
    steps.policy.take_front(next - first);
    (*core, *tally) = (st, t);
    result
}

/// Runs `workload` under `policy`. Generic so that a concrete policy is
/// inlined into the loop (a million slices a run); `&mut dyn Policy` works
/// too.
pub fn simulate<P: Policy + ?Sized>(
    workload: &Workload,
    policy: &mut P,
    config: &EngineConfig,
) -> Result<Schedule, EngineError> {
    let n = workload.len();
    let cores = config.cores.max(1);
    let idle_core = CoreState {
        task: None,
        last: None,
        run_start: 0.0,
        run_amount: 0.0,
        generation: 0,
    };
    let mut remaining = workload.work.clone();
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
    let mut core = vec![idle_core; cores];
    let mut e = Steps {
        workload,
        policy,
        config,
        remaining: &mut remaining,
        outcomes: &mut outcomes,
        segments: &mut segments,
    };
    let mut tally = Tally::default();
    // Slice ends: (end time, core, generation), earliest first.
    let mut ends: BinaryHeap<Reverse<(Key, usize, u32)>> = BinaryHeap::new();
    // Free cores, lowest index first.
    let mut idle: BinaryHeap<Reverse<usize>> = (0..cores).map(Reverse).collect();
    let order = ArrivalOrder::new(&workload.arrival);
    let mut next_arrival = 0;
    let mut expired: Vec<TaskId> = Vec::new();
    // Re-read only after the timer fires (the `Policy::next_timer` contract).
    let mut timer = e.policy.next_timer();

    while tally.done < n {
        // 1. The next instant anything happens.
        let t_arrival = order
            .get(next_arrival)
            .map(|i| workload.arrival[i as usize]);
        let t_end = ends.peek().map(|Reverse((Key(t), _, _))| *t);
        let now = [t_arrival, t_end, timer]
            .into_iter()
            .flatten()
            .fold(f64::INFINITY, f64::min);
        if !now.is_finite() {
            // Nothing can happen any more; only reachable if a policy loses
            // a task, which the tests guard against.
            break;
        }

        // 2. Slices ending now.
        while let Some(&Reverse((Key(t), c, gen))) = ends.peek() {
            if t > now {
                break;
            }
            ends.pop();
            if gen != core[c].generation {
                continue;
            }
            expired.extend(e.finish_slice::<true>(&mut core[c], &mut tally, c, t));
            idle.push(Reverse(c));
        }

        // 3. Arrivals now (in arrival order, ties by id), then the expired
        // tasks behind them.
        let due_end = order.due_end(next_arrival, now, &workload.arrival);
        match &order {
            ArrivalOrder::Identity(_) => {
                let view = task_view(e.workload, e.remaining);
                e.policy.enqueue_range(
                    next_arrival as TaskId,
                    due_end as TaskId,
                    Enqueue::Arrived,
                    &view,
                );
            }
            ArrivalOrder::Sorted(ids) => {
                for &i in &ids[next_arrival..due_end] {
                    e.enqueue(i, Enqueue::Arrived);
                }
            }
        }
        next_arrival = due_end;
        for task in expired.drain(..) {
            e.enqueue(task, Enqueue::Expired);
        }

        // 4. Policy timer.
        if timer.is_some_and(|t| t <= now) {
            // Timer events count against the same budget as slices.
            tally.slices += 1;
            tally.timer_events += 1;
            if tally.slices > e.config.max_slices {
                return Err(EngineError::TooManySlices {
                    limit: e.config.max_slices,
                });
            }
            e.policy.on_timer(now);
            timer = e.policy.next_timer();
        }

        // 5. Fill free cores, then let a preemptive policy take busy ones.
        let mut preemptions_left = cores;
        loop {
            while let Some(&Reverse(c)) = idle.peek() {
                let Some(mut end) = e.dispatch(&mut core[c], &mut tally, now)? else {
                    break;
                };
                idle.pop();
                if cores == 1 && e.config.one_core_fast_path {
                    // One core: while the slice ends before anything else
                    // can happen, finish it and pick the next right here,
                    // taking exactly the steps the loop above would take.
                    let horizon = [t_arrival_after(&order, next_arrival, workload), timer]
                        .into_iter()
                        .flatten()
                        .fold(f64::INFINITY, f64::min);
                    match e.run_alone(&mut core[c], &mut tally, c, end, horizon)? {
                        Some(last_end) => end = last_end,
                        None => idle.push(Reverse(c)),
                    }
                    if core[c].task.is_some() {
                        ends.push(Reverse((Key(end), c, core[c].generation)));
                    }
                    break;
                }
                ends.push(Reverse((Key(end), c, core[c].generation)));
            }
            if !idle.is_empty()
                || !e.policy.is_preemptive()
                || !e.policy.has_queued()
                || preemptions_left == 0
            {
                break;
            }
            let running = e.running(&core, now);
            let Some(v) = e
                .policy
                .preemption_victim(&running, &task_view(e.workload, e.remaining))
            else {
                break;
            };
            preemptions_left -= 1;
            let c = running[v].core;
            e.preempt(&mut core[c], &mut tally, c, now);
            idle.push(Reverse(c));
        }
    }

    if tally.done < n {
        // A task never finished (a policy lost it): its slot still holds
        // work, not a completion time. Say so instead of guessing.
        if outcomes.is_empty() {
            remaining.fill(f64::NAN);
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
    })
}

fn t_arrival_after(order: &ArrivalOrder, next: usize, workload: &Workload) -> Option<f64> {
    order.get(next).map(|i| workload.arrival[i as usize])
}

/// Whether `v` never decreases (`v[i] <= v[i + 1]` for every pair), checked
/// in blocks without an early exit per pair so the compiler can vectorise
/// it: a million arrivals are read once per policy.
fn is_ascending(v: &[f64]) -> bool {
    const BLOCK: usize = 256;
    let mut start = 0;
    while start + 1 < v.len() {
        let end = (start + BLOCK).min(v.len() - 1);
        let ok = v[start..end]
            .iter()
            .zip(&v[start + 1..end + 1])
            .fold(true, |ok, (a, b)| ok & (a <= b));
        if !ok {
            return false;
        }
        start = end;
    }
    true
}

/// Task ids in arrival order, ties by id.
enum ArrivalOrder {
    /// Arrivals are already sorted (the study's case): no index needed.
    Identity(usize),
    Sorted(Vec<TaskId>),
}

impl ArrivalOrder {
    fn new(arrival: &[f64]) -> Self {
        if is_ascending(arrival) {
            return ArrivalOrder::Identity(arrival.len());
        }
        let mut order: Vec<TaskId> = (0..arrival.len() as TaskId).collect();
        order.sort_by(|&a, &b| arrival[a as usize].total_cmp(&arrival[b as usize]));
        ArrivalOrder::Sorted(order)
    }

    #[inline]
    fn get(&self, k: usize) -> Option<TaskId> {
        match self {
            ArrivalOrder::Identity(n) => (k < *n).then_some(k as TaskId),
            ArrivalOrder::Sorted(v) => v.get(k).copied(),
        }
    }

    /// The position after the tasks that are due at `now` from position
    /// `next` on: positions `next..end` arrive no later than `now`. A
    /// galloping search (the positions are in arrival order), so a batch
    /// of k arrivals costs about 2 log2(k) comparisons instead of k: the
    /// study's million tasks at t = 0 are found in 40, a lone Poisson
    /// arrival in 2.
    fn due_end(&self, next: usize, now: f64, arrival: &[f64]) -> usize {
        let due = |k: usize| self.get(k).is_some_and(|i| arrival[i as usize] <= now);
        if !due(next) {
            return next;
        }
        // `due(lo)` holds; `hi` is the end or a position not due.
        let (mut lo, mut step) = (next, 1);
        let mut hi = loop {
            let probe = next.saturating_add(step);
            if !due(probe) {
                break probe;
            }
            lo = probe;
            step *= 2;
        };
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if due(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        hi
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn due_end_finds_every_batch_of_arrivals() {
        // In order (no index) and out of order (sorted index), with ties.
        for arrival in [
            vec![0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 5.0],
            vec![5.0, 1.0, 0.0, 2.0, 0.0, 1.0, 0.0],
        ] {
            let order = ArrivalOrder::new(&arrival);
            let due = |next, now| order.due_end(next, now, &arrival);
            assert_eq!(due(0, -1.0), 0);
            assert_eq!(due(0, 0.0), 3);
            assert_eq!(due(3, 0.5), 3);
            assert_eq!(due(3, 1.0), 5);
            assert_eq!(due(5, 4.0), 6);
            assert_eq!(due(5, 10.0), 7);
            assert_eq!(due(7, 10.0), 7);
            // Against a plain scan, from every start and instant.
            for next in 0..=arrival.len() {
                for now in [-1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 5.0, 9.0] {
                    let mut k = next;
                    while order.get(k).is_some_and(|i| arrival[i as usize] <= now) {
                        k += 1;
                    }
                    assert_eq!(due(next, now), k, "next {next}, now {now}");
                }
            }
        }
        // A million at t = 0.
        let arrival = vec![0.0; 1_000_000];
        assert_eq!(
            ArrivalOrder::new(&arrival).due_end(0, 0.0, &arrival),
            1_000_000
        );
    }
}
