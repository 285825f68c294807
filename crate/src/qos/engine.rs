//! The event loop of the QoS model: cores of different speeds, one global
//! run queue ordered by priority, threads that run, wait for I/O and for
//! each other, and a [`SchedClass`] deciding priorities.
//!
//! The run queue is one list for the whole machine, highest priority first
//! and FIFO within a priority; a preempted thread goes to the head of its
//! priority, an expired or woken one to the tail (xnu `thread_setrun` with
//! SCHED_HEADQ / SCHED_TAILQ). A queued thread whose priority changes keeps
//! its place among its new peers (simplification: xnu re-inserts it).
//!
//! Order of work at one instant (documented because it decides ties):
//! 1. running threads are charged up to now; bursts that end are followed
//!    by the thread's next step (it keeps its core and quantum when the next
//!    step is CPU work); expired quanta put their thread at the tail;
//! 2. timers: I/O completions wake threads; items due now are enqueued;
//! 3. a load sample (every 15 ms), then a scheduler tick (every 125 ms);
//! 4. dispatch: idle cores take the best thread they may run (performance
//!    cores first); then queued threads preempt the lowest-priority running
//!    thread they beat, until nothing changes.
//!
//! Simplification: a thread is moved between cores only when it is
//! (re)queued; there is no active migration of running threads (xnu's AMP
//! rebalancing), no cost for a switch, and a woken thread is placed at once
//! (no IPI latency).

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, VecDeque};

use serde::Serialize;

use super::machine::{CoreKind, Machine};
use super::thread::{ItemId, PoolId, Program, Step, ThreadId, Workload};
use super::SchedClass;
use crate::policy::Key;

const EPS: f64 = 1e-9;

/// Load-sample and tick periods, from [`super::timeshare`].
use super::timeshare::{LOAD_SAMPLE_MS, TICK_MS};

/// A thread's state, named as Instruments' thread-state trace does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    Running,
    /// Ready to run: woken, or its quantum expired, waiting for a core.
    Runnable,
    /// Taken off a core by a higher priority before its quantum ended.
    Preempted,
    /// Waiting for I/O, for a dependency, for work, or finished.
    Blocked,
}

impl State {
    fn index(self) -> usize {
        self as usize
    }
}

/// How long to run and what to keep.
#[derive(Clone, Debug, PartialEq)]
pub struct RunConfig {
    /// Simulated time limit, ms.
    pub until: f64,
    /// Stop early once all of these items are done (empty: never).
    pub stop_after_items: Vec<ItemId>,
    /// Stop early once every pool is drained.
    pub stop_when_pools_done: bool,
    /// Record per-core segments and per-thread state intervals.
    pub timeline: bool,
    /// Stop recording (and set `truncated`) past this many entries of each.
    pub max_records: usize,
    /// Threads whose `sched_pri` is recorded over time.
    pub trace_pri: Vec<ThreadId>,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            until: 10_000.0,
            stop_after_items: Vec::new(),
            stop_when_pools_done: false,
            timeline: false,
            max_records: 20_000,
            trace_pri: Vec::new(),
        }
    }
}

/// A stretch of time in which one core ran one thread.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Segment {
    pub core: usize,
    pub thread: ThreadId,
    /// `qos_class_self` number of the thread.
    pub qos: u8,
    pub start: f64,
    pub end: f64,
}

/// A stretch of time a thread spent in one state.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    pub thread: ThreadId,
    pub state: State,
    pub start: f64,
    pub end: f64,
}

/// `sched_pri` of one thread over time: a point at every change.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PriSeries {
    pub thread: ThreadId,
    pub name: String,
    /// `(time ms, sched_pri)`.
    pub points: Vec<(f64, u8)>,
}

/// Per-thread totals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThreadStats {
    pub name: String,
    pub group: String,
    pub qos: u8,
    pub base_pri: u8,
    pub running_ms: f64,
    /// Part of `running_ms` spent on efficiency cores.
    pub efficiency_ms: f64,
    pub runnable_ms: f64,
    pub preempted_ms: f64,
    pub blocked_ms: f64,
    /// Work done (ms on a speed-1 core).
    pub work_done: f64,
    /// Bit `c` set if the thread ever ran on core `c`.
    pub cores_used: u64,
    /// Lowest `sched_pri` it ever had.
    pub min_pri: u8,
}

/// Everything a run produced.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunResult {
    /// When the run stopped, ms.
    pub end: f64,
    pub threads: Vec<ThreadStats>,
    /// Completion time of each work item (None: not done by `end`).
    pub items_done: Vec<Option<f64>>,
    /// When each pool's last chunk finished.
    pub pools_done: Vec<Option<f64>>,
    pub segments: Vec<Segment>,
    pub intervals: Vec<Interval>,
    pub pri: Vec<PriSeries>,
    /// Recording stopped at `max_records`.
    pub truncated: bool,
}

/// What a thread is doing on its program.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Activity {
    Idle,
    Item { item: ItemId, step: usize },
    Chunk(PoolId),
    Spin,
    Periodic,
    Exited,
}

#[derive(Clone, Debug)]
struct Th {
    state: State,
    since: f64,
    totals: [f64; 4],
    /// Work left in the current CPU step.
    burst: f64,
    activity: Activity,
    fifo: VecDeque<ItemId>,
    /// Quantum kept across a preemption.
    quantum_left: Option<f64>,
    /// Run-queue key while queued.
    queued: Option<(Reverse<u8>, i64)>,
    /// Set when its quantum expired on core `c` at time `t`.
    expired: Option<(usize, f64)>,
    /// Waiting for a timer of this generation.
    wake_gen: u32,
    work_done: f64,
    efficiency_ms: f64,
    cores_used: u64,
    min_pri: u8,
}

#[derive(Clone, Copy, Debug)]
struct CoreRt {
    thread: Option<ThreadId>,
    seg_start: f64,
    last_settle: f64,
    quantum_end: f64,
    first_timeslice: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    Wake(ThreadId, u32),
    Release(ItemId),
}

struct Sim<'a> {
    w: &'a Workload,
    m: &'a Machine,
    policy: &'a mut dyn SchedClass,
    cfg: &'a RunConfig,
    th: Vec<Th>,
    cores: Vec<CoreRt>,
    order: Vec<usize>,
    queue: BTreeSet<(Reverse<u8>, i64, ThreadId)>,
    head_seq: i64,
    tail_seq: i64,
    timers: BinaryHeap<Reverse<(Key, Timer)>>,
    deps_left: Vec<usize>,
    dependents: Vec<Vec<ItemId>>,
    items_done: Vec<Option<f64>>,
    pool_left: Vec<u32>,
    pool_outstanding: Vec<u32>,
    pools_done: Vec<Option<f64>>,
    segments: Vec<Segment>,
    intervals: Vec<Interval>,
    pri: Vec<PriSeries>,
    truncated: bool,
    end: f64,
}

/// Runs `workload` on `machine` under `policy`.
pub fn simulate(
    workload: &Workload,
    machine: &Machine,
    policy: &mut dyn SchedClass,
    cfg: &RunConfig,
) -> RunResult {
    let n = workload.threads.len();
    let mut dependents = vec![Vec::new(); workload.items.len()];
    for (i, item) in workload.items.iter().enumerate() {
        for &d in &item.deps {
            dependents[d].push(i);
        }
    }
    let mut sim = Sim {
        w: workload,
        m: machine,
        cfg,
        th: (0..n)
            .map(|t| Th {
                state: State::Blocked,
                since: 0.0,
                totals: [0.0; 4],
                burst: 0.0,
                activity: Activity::Idle,
                fifo: VecDeque::new(),
                quantum_left: None,
                queued: None,
                expired: None,
                wake_gen: 0,
                work_done: 0.0,
                efficiency_ms: 0.0,
                cores_used: 0,
                min_pri: policy.sched_pri(t),
            })
            .collect(),
        policy,
        cores: vec![
            CoreRt {
                thread: None,
                seg_start: 0.0,
                last_settle: 0.0,
                quantum_end: 0.0,
                first_timeslice: true,
            };
            machine.cores.len()
        ],
        order: machine.preference_order(),
        queue: BTreeSet::new(),
        head_seq: 0,
        tail_seq: 0,
        timers: BinaryHeap::new(),
        deps_left: workload.items.iter().map(|i| i.deps.len()).collect(),
        dependents,
        items_done: vec![None; workload.items.len()],
        pool_left: workload.pools.iter().map(|p| p.chunks).collect(),
        pool_outstanding: vec![0; workload.pools.len()],
        pools_done: vec![None; workload.pools.len()],
        segments: Vec::new(),
        intervals: Vec::new(),
        pri: cfg
            .trace_pri
            .iter()
            .map(|&t| PriSeries {
                thread: t,
                name: workload.threads[t].name.clone(),
                points: Vec::new(),
            })
            .collect(),
        truncated: false,
        end: 0.0,
    };
    super::budget::begin_run();
    sim.run();
    sim.finish()
}

impl Sim<'_> {
    fn run(&mut self) {
        // Start: items with no deps are released; programs begin.
        for i in 0..self.w.items.len() {
            if self.deps_left[i] == 0 {
                self.release_or_schedule(i, 0.0);
            }
        }
        for t in 0..self.th.len() {
            match self.w.threads[t].program {
                Program::Spin => {
                    self.th[t].activity = Activity::Spin;
                    self.th[t].burst = f64::INFINITY;
                    self.make_runnable(t, 0.0);
                }
                Program::Pool(p) => {
                    if self.take_chunk(t, p) {
                        self.make_runnable(t, 0.0);
                    } else {
                        self.th[t].activity = Activity::Exited;
                    }
                }
                Program::Periodic { phase, .. } => {
                    self.th[t].activity = Activity::Periodic;
                    self.block_until(t, phase);
                }
                Program::Queue => {
                    if self.th[t].activity == Activity::Idle && self.start_next_item(t, 0.0) {
                        self.make_runnable(t, 0.0);
                    }
                }
            }
        }
        self.record_pri(0.0);
        self.dispatch(0.0);
        let mut samples: u64 = 1;
        let mut ticks: u64 = 1;
        loop {
            let t_core = (0..self.cores.len())
                .filter_map(|c| self.core_end(c))
                .fold(f64::INFINITY, f64::min);
            let t_timer = self
                .timers
                .peek()
                .map_or(f64::INFINITY, |Reverse((Key(t), _))| *t);
            let t_sample = samples as f64 * LOAD_SAMPLE_MS;
            let t_tick = ticks as f64 * TICK_MS;
            let now = t_core.min(t_timer).min(t_sample).min(t_tick);
            if now >= self.cfg.until {
                self.settle(self.cfg.until);
                self.close(self.cfg.until);
                return;
            }
            // The work this iteration does grows with the cores scanned and,
            // at a tick or load sample, with the threads (see `budget`).
            let mut units = self.cores.len() as u64 + 1;
            if t_sample <= now + EPS || t_tick <= now + EPS {
                units += self.th.len() as u64;
            }
            if !super::budget::charge_at(units, now / self.cfg.until) {
                self.settle(now);
                self.close(now);
                return;
            }
            self.settle(now);
            // 1. Bursts and quanta ending now.
            for c in 0..self.cores.len() {
                if self.core_end(c).is_some_and(|e| e <= now + EPS) {
                    self.core_event(c, now);
                }
            }
            // 2. Timers.
            while let Some(&Reverse((Key(t), timer))) = self.timers.peek() {
                if t > now + EPS {
                    break;
                }
                self.timers.pop();
                match timer {
                    Timer::Wake(th, gen) if gen == self.th[th].wake_gen => self.wake(th, now),
                    Timer::Wake(..) => {}
                    Timer::Release(item) => self.enqueue_item(item, now),
                }
            }
            // 3. Load sample and tick.
            if t_sample <= now + EPS {
                let runnable: Vec<bool> = self
                    .th
                    .iter()
                    .map(|t| matches!(t.state, State::Running | State::Runnable | State::Preempted))
                    .collect();
                self.policy.sample_load(&runnable);
                samples += 1;
            }
            if t_tick <= now + EPS {
                self.policy.tick();
                self.requeue_all();
                ticks += 1;
            }
            // 4. Dispatch.
            self.dispatch(now);
            self.record_pri(now);
            if self.done() {
                self.close(now);
                return;
            }
        }
    }

    fn done(&self) -> bool {
        let items = !self.cfg.stop_after_items.is_empty()
            && self
                .cfg
                .stop_after_items
                .iter()
                .all(|&i| self.items_done[i].is_some());
        let pools = self.cfg.stop_when_pools_done
            && !self.pools_done.is_empty()
            && self.pools_done.iter().all(Option::is_some);
        items || pools
    }

    /// When the thread on core `c` next needs attention: its burst ends or
    /// its quantum does.
    fn core_end(&self, c: usize) -> Option<f64> {
        let core = &self.cores[c];
        let t = core.thread?;
        let speed = self.m.cores[c].speed;
        Some(
            core.quantum_end
                .min(core.last_settle + self.th[t].burst / speed),
        )
    }

    /// Charges every running thread up to `now`.
    fn settle(&mut self, now: f64) {
        for c in 0..self.cores.len() {
            let Some(t) = self.cores[c].thread else {
                continue;
            };
            let dt = now - self.cores[c].last_settle;
            if dt > 0.0 {
                let work = (dt * self.m.cores[c].speed).min(self.th[t].burst);
                self.th[t].burst -= work;
                self.th[t].work_done += work;
                if self.m.cores[c].kind == CoreKind::Efficiency {
                    self.th[t].efficiency_ms += dt;
                }
                self.policy.charge(t, dt);
                self.cores[c].last_settle = now;
            }
        }
    }

    fn core_event(&mut self, c: usize, now: f64) {
        let t = self.cores[c].thread.expect("core_event on a busy core");
        if self.th[t].burst <= EPS {
            self.th[t].burst = 0.0;
            if !self.advance(t, now) {
                self.vacate(c, now, State::Blocked);
                return;
            }
        }
        if self.cores[c].quantum_end <= now + EPS {
            self.policy.quantum_expired(t);
            self.vacate(c, now, State::Runnable);
            self.th[t].expired = Some((c, now));
            self.enqueue(t, false);
        }
    }

    /// The thread finished its CPU step; moves its program on. Returns true
    /// if it has CPU work right away.
    fn advance(&mut self, t: ThreadId, now: f64) -> bool {
        match self.th[t].activity {
            Activity::Spin => {
                self.th[t].burst = f64::INFINITY;
                true
            }
            Activity::Periodic => {
                if let Program::Periodic { burst, period, .. } = self.w.threads[t].program {
                    self.block_until(t, now + (period - burst).max(0.0));
                }
                false
            }
            Activity::Chunk(p) => {
                self.pool_outstanding[p] -= 1;
                if self.pool_left[p] == 0 && self.pool_outstanding[p] == 0 {
                    self.pools_done[p] = Some(now);
                }
                if self.take_chunk(t, p) {
                    true
                } else {
                    self.th[t].activity = Activity::Exited;
                    false
                }
            }
            Activity::Item { item, step } => self.run_steps(t, item, step + 1, now),
            Activity::Idle | Activity::Exited => false,
        }
    }

    fn take_chunk(&mut self, t: ThreadId, p: PoolId) -> bool {
        if self.pool_left[p] == 0 {
            return false;
        }
        self.pool_left[p] -= 1;
        self.pool_outstanding[p] += 1;
        self.th[t].activity = Activity::Chunk(p);
        self.th[t].burst = self.w.pools[p].chunk_work;
        true
    }

    /// Runs item steps from `step` on: returns true at a CPU step, false
    /// when blocked (waiting I/O, or idle with an empty queue).
    fn run_steps(&mut self, t: ThreadId, item: ItemId, step: usize, now: f64) -> bool {
        match self.w.items[item].steps.get(step) {
            Some(&Step::Cpu(w)) => {
                self.th[t].activity = Activity::Item { item, step };
                self.th[t].burst = w;
                if w <= EPS {
                    return self.run_steps(t, item, step + 1, now);
                }
                true
            }
            Some(&Step::Wait(d)) => {
                self.th[t].activity = Activity::Item { item, step };
                self.block_until(t, now + d);
                false
            }
            None => {
                self.item_done(item, now);
                self.start_next_item(t, now)
            }
        }
    }

    fn start_next_item(&mut self, t: ThreadId, now: f64) -> bool {
        match self.th[t].fifo.pop_front() {
            Some(next) => self.run_steps(t, next, 0, now),
            None => {
                self.th[t].activity = Activity::Idle;
                false
            }
        }
    }

    fn item_done(&mut self, item: ItemId, now: f64) {
        self.items_done[item] = Some(now);
        for k in 0..self.dependents[item].len() {
            let d = self.dependents[item][k];
            self.deps_left[d] -= 1;
            if self.deps_left[d] == 0 {
                self.release_or_schedule(d, now);
            }
        }
    }

    fn release_or_schedule(&mut self, item: ItemId, now: f64) {
        let at = self.w.items[item].release;
        if at <= now + EPS {
            self.enqueue_item(item, now);
        } else {
            self.timers.push(Reverse((Key(at), Timer::Release(item))));
        }
    }

    /// Puts a ready item on its queue, waking the queue's thread if idle.
    fn enqueue_item(&mut self, item: ItemId, now: f64) {
        let t = self.w.items[item].thread;
        self.th[t].fifo.push_back(item);
        let idle = self.th[t].activity == Activity::Idle && self.th[t].state == State::Blocked;
        if idle && self.start_next_item(t, now) {
            self.make_runnable(t, now);
        }
    }

    fn block_until(&mut self, t: ThreadId, at: f64) {
        self.th[t].wake_gen = self.th[t].wake_gen.wrapping_add(1);
        let gen = self.th[t].wake_gen;
        self.timers.push(Reverse((Key(at), Timer::Wake(t, gen))));
    }

    /// A timer fired for a blocked thread: I/O done or period due.
    fn wake(&mut self, t: ThreadId, now: f64) {
        let runnable = match self.th[t].activity {
            Activity::Periodic => {
                if let Program::Periodic { burst, .. } = self.w.threads[t].program {
                    self.th[t].burst = burst;
                }
                true
            }
            Activity::Item { item, step } => self.run_steps(t, item, step + 1, now),
            _ => false,
        };
        if runnable {
            self.make_runnable(t, now);
        }
    }

    fn make_runnable(&mut self, t: ThreadId, now: f64) {
        self.set_state(t, State::Runnable, now);
        self.th[t].quantum_left = None;
        self.enqueue(t, false);
    }

    fn enqueue(&mut self, t: ThreadId, head: bool) {
        let seq = if head {
            self.head_seq -= 1;
            self.head_seq
        } else {
            self.tail_seq += 1;
            self.tail_seq
        };
        let key = (Reverse(self.policy.sched_pri(t)), seq);
        self.th[t].queued = Some(key);
        self.queue.insert((key.0, key.1, t));
    }

    fn dequeue(&mut self, t: ThreadId) {
        if let Some((p, s)) = self.th[t].queued.take() {
            self.queue.remove(&(p, s, t));
        }
    }

    /// After a tick, queued threads move to their new priority.
    fn requeue_all(&mut self) {
        let moved: Vec<(Reverse<u8>, i64, ThreadId)> = self
            .queue
            .iter()
            .copied()
            .filter(|&(Reverse(p), _, t)| p != self.policy.sched_pri(t))
            .collect();
        for (p, s, t) in moved {
            self.queue.remove(&(p, s, t));
            let key = (Reverse(self.policy.sched_pri(t)), s);
            self.th[t].queued = Some(key);
            self.queue.insert((key.0, key.1, t));
        }
    }

    fn may_run(&self, t: ThreadId, c: usize) -> bool {
        let spec = &self.w.threads[t];
        match spec.pinned {
            Some(p) => p == c,
            None => self.m.may_run(spec.qos, c),
        }
    }

    fn best_for(&self, c: usize) -> Option<ThreadId> {
        self.queue
            .iter()
            .map(|&(_, _, t)| t)
            .find(|&t| self.may_run(t, c))
    }

    fn dispatch(&mut self, now: f64) {
        let limit = 4 * self.cores.len() + self.th.len() + 8;
        for _ in 0..limit {
            let mut changed = false;
            for k in 0..self.order.len() {
                let c = self.order[k];
                if self.cores[c].thread.is_none() {
                    if let Some(t) = self.best_for(c) {
                        self.start(t, c, now);
                        changed = true;
                    }
                }
            }
            if self.preempt_one(now) {
                changed = true;
            }
            if !changed {
                return;
            }
        }
    }

    /// The highest queued thread that beats some running thread takes the
    /// core of the lowest such one (xnu's `choose_processor` looks for the
    /// lowest-priority processor). Returns whether anything happened.
    fn preempt_one(&mut self, now: f64) -> bool {
        let running: Vec<(usize, u8)> = (0..self.cores.len())
            .filter_map(|c| self.cores[c].thread.map(|t| (c, self.policy.sched_pri(t))))
            .collect();
        let Some(min_running) = running.iter().map(|&(_, p)| p).min() else {
            return false;
        };
        let mut found = None;
        let mut examined = 0u64;
        for &(Reverse(p), _, t) in &self.queue {
            if p < min_running {
                break;
            }
            examined += 1;
            let mut best: Option<(u8, usize, usize)> = None;
            for &(c, rp) in &running {
                if self.may_run(t, c) && self.policy.preempts(p, rp, self.cores[c].first_timeslice)
                {
                    let rank = self.order.iter().position(|&x| x == c).unwrap_or(c);
                    if best.is_none_or(|(bp, br, _)| (rp, rank) < (bp, br)) {
                        best = Some((rp, rank, c));
                    }
                }
            }
            if let Some((_, _, c)) = best {
                found = Some((t, c));
                break;
            }
        }
        // Each examined thread was checked against every running core.
        let _ = super::budget::charge(examined * running.len() as u64);
        let Some((t, c)) = found else { return false };
        let victim = self.cores[c].thread.expect("busy");
        let left = self.cores[c].quantum_end - now;
        self.vacate(c, now, State::Preempted);
        self.th[victim].quantum_left = (left > EPS).then_some(left);
        self.enqueue(victim, true);
        self.start(t, c, now);
        true
    }

    fn start(&mut self, t: ThreadId, c: usize, now: f64) {
        self.dequeue(t);
        let continuing = self.th[t].expired == Some((c, now));
        self.th[t].expired = None;
        let quantum = self.th[t]
            .quantum_left
            .take()
            .unwrap_or_else(|| self.policy.quantum_ms(t));
        self.set_state(t, State::Running, now);
        self.th[t].cores_used |= 1u64 << (c % 64);
        let core = &mut self.cores[c];
        core.thread = Some(t);
        core.seg_start = now;
        core.last_settle = now;
        core.quantum_end = now + quantum;
        core.first_timeslice = !continuing;
    }

    fn vacate(&mut self, c: usize, now: f64, state: State) {
        let t = self.cores[c].thread.take().expect("vacate a busy core");
        let start = self.cores[c].seg_start;
        if self.cfg.timeline && now > start {
            let qos = self.w.threads[t].qos.number();
            let full = self.segments.len() >= self.cfg.max_records;
            match self.segments.last_mut() {
                Some(s) if s.core == c && s.thread == t && (s.end - start).abs() < EPS => {
                    s.end = now
                }
                _ if full => self.truncated = true,
                _ => self.segments.push(Segment {
                    core: c,
                    thread: t,
                    qos,
                    start,
                    end: now,
                }),
            }
        }
        self.set_state(t, state, now);
    }

    fn set_state(&mut self, t: ThreadId, state: State, now: f64) {
        let th = &mut self.th[t];
        if th.state == state {
            return;
        }
        let (old, since) = (th.state, th.since);
        th.totals[old.index()] += now - since;
        th.state = state;
        th.since = now;
        self.record_interval(t, old, since, now);
    }

    /// Keeps a finished state interval for the timeline (within the cap).
    fn record_interval(&mut self, thread: ThreadId, state: State, start: f64, end: f64) {
        if !self.cfg.timeline || end <= start {
            return;
        }
        if self.intervals.len() >= self.cfg.max_records {
            self.truncated = true;
        } else {
            self.intervals.push(Interval {
                thread,
                state,
                start,
                end,
            });
        }
    }

    fn record_pri(&mut self, now: f64) {
        for t in 0..self.th.len() {
            let p = self.policy.sched_pri(t);
            if p < self.th[t].min_pri {
                self.th[t].min_pri = p;
            }
        }
        for s in &mut self.pri {
            let p = self.policy.sched_pri(s.thread);
            if s.points.last().is_none_or(|&(_, last)| last != p) {
                s.points.push((now, p));
            }
        }
    }

    /// Ends every open segment and state interval at `now`.
    fn close(&mut self, now: f64) {
        for c in 0..self.cores.len() {
            if self.cores[c].thread.is_some() {
                // Same state: only the segment is closed.
                self.vacate(c, now, State::Running);
            }
        }
        for t in 0..self.th.len() {
            let th = &mut self.th[t];
            let (state, since) = (th.state, th.since);
            th.totals[state.index()] += now - since;
            th.since = now;
            self.record_interval(t, state, since, now);
        }
        for s in &mut self.pri {
            let p = self.policy.sched_pri(s.thread);
            s.points.push((now, p));
        }
        self.end = now;
    }

    fn finish(self) -> RunResult {
        RunResult {
            end: self.end,
            threads: self
                .th
                .iter()
                .zip(&self.w.threads)
                .map(|(th, spec)| ThreadStats {
                    name: spec.name.clone(),
                    group: spec.group.clone(),
                    qos: spec.qos.number(),
                    base_pri: spec.base_pri,
                    running_ms: th.totals[State::Running.index()],
                    efficiency_ms: th.efficiency_ms,
                    runnable_ms: th.totals[State::Runnable.index()],
                    preempted_ms: th.totals[State::Preempted.index()],
                    blocked_ms: th.totals[State::Blocked.index()],
                    work_done: th.work_done,
                    cores_used: th.cores_used,
                    min_pri: th.min_pri,
                })
                .collect(),
            items_done: self.items_done,
            pools_done: self.pools_done,
            segments: self.segments,
            intervals: self.intervals,
            pri: self.pri,
            truncated: self.truncated,
        }
    }
}
