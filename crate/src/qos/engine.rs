//! The QoS scenarios' threads on the one loop (`crate::sim`): their
//! programs (serial queues of work items with I/O waits and dependencies,
//! chunk pools drained by several threads, spinning and periodic threads)
//! as a [`Threads`] workload, a recorder of per-thread states and totals,
//! and [`simulate`], which runs them under the XNU class
//! (`crate::policy::xnu`) and gathers a [`RunResult`].
//!
//! Simplification: a thread is moved between cores only when it is
//! (re)queued; there is no active migration of running threads (xnu's AMP
//! rebalancing), no cost for a switch, and a woken thread is placed at once
//! (no IPI latency).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use serde::Serialize;

use super::machine::{CoreKind, Machine};
use super::thread::{ItemId, PoolId, Program, Step, ThreadId, Workload};
use super::timeshare::Timeshare;
use crate::policy::{TaskView, Xnu};
use crate::sim::record::Recorder;
use crate::sim::threads::{Next, Threads};
use crate::sim::time::{Key, SAME_INSTANT_MS as EPS};
use crate::sim::{simulate_on, EngineConfig};

pub use crate::sim::trace::{Interval, PriSeries, Segment, State};

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
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    /// When the run stopped, ms.
    pub end: f64,
    pub threads: Vec<ThreadStats>,
    /// Completion time of each work item (None: not done by `end`).
    pub items_done: Vec<Option<f64>>,
    /// When each pool's last chunk finished.
    pub pools_done: Vec<Option<f64>>,
    /// In the one trace vocabulary; `task` is the thread.
    pub segments: Vec<Segment>,
    pub intervals: Vec<Interval>,
    pub pri: Vec<PriSeries>,
    /// Recording stopped at `max_records`.
    pub truncated: bool,
}

impl RunResult {
    /// The QoS number of the thread a segment ran.
    pub fn segment_qos(&self, s: &Segment) -> u8 {
        self.threads[s.task as usize].qos
    }
}

/// The JSON shape of a run (public: `tailslice scenario --json`): segments
/// carry their thread's QoS number.
impl Serialize for RunResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Seg {
            core: usize,
            thread: usize,
            qos: u8,
            start: f64,
            end: f64,
        }
        #[derive(Serialize)]
        struct Out<'a> {
            end: f64,
            threads: &'a [ThreadStats],
            items_done: &'a [Option<f64>],
            pools_done: &'a [Option<f64>],
            segments: Vec<Seg>,
            intervals: &'a [Interval],
            pri: &'a [PriSeries],
            truncated: bool,
        }
        Out {
            end: self.end,
            threads: &self.threads,
            items_done: &self.items_done,
            pools_done: &self.pools_done,
            segments: self
                .segments
                .iter()
                .map(|g| Seg {
                    core: g.core as usize,
                    thread: g.task as usize,
                    qos: self.segment_qos(g),
                    start: g.start,
                    end: g.end,
                })
                .collect(),
            intervals: &self.intervals,
            pri: &self.pri,
            truncated: self.truncated,
        }
        .serialize(s)
    }
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    Wake(ThreadId, u32),
    Release(ItemId),
}

/// The scenarios' programs as the loop's workload.
struct Programs<'a> {
    w: &'a Workload,
    cfg: &'a RunConfig,
    activity: Vec<Activity>,
    fifo: Vec<VecDeque<ItemId>>,
    /// Whether the thread waits (blocked) rather than runs or is queued.
    waiting: Vec<bool>,
    wake_gen: Vec<u32>,
    /// Threads runnable right now with their CPU work, in order.
    pending: Vec<(ThreadId, f64)>,
    timers: BinaryHeap<Reverse<(Key, Timer)>>,
    deps_left: Vec<usize>,
    dependents: Vec<Vec<ItemId>>,
    items_done: Vec<Option<f64>>,
    pool_left: Vec<u32>,
    pool_outstanding: Vec<u32>,
    pools_done: Vec<Option<f64>>,
    /// For the class's view: when each thread last became runnable and its
    /// current step's work.
    arrival: Vec<f64>,
    work: Vec<f64>,
}

impl<'a> Programs<'a> {
    fn new(w: &'a Workload, cfg: &'a RunConfig) -> Self {
        let n = w.threads.len();
        let mut dependents = vec![Vec::new(); w.items.len()];
        for (i, item) in w.items.iter().enumerate() {
            for &d in &item.deps {
                dependents[d].push(i);
            }
        }
        let mut p = Programs {
            w,
            cfg,
            activity: vec![Activity::Idle; n],
            fifo: vec![VecDeque::new(); n],
            waiting: vec![true; n],
            wake_gen: vec![0; n],
            pending: Vec::new(),
            timers: BinaryHeap::new(),
            deps_left: w.items.iter().map(|i| i.deps.len()).collect(),
            dependents,
            items_done: vec![None; w.items.len()],
            pool_left: w.pools.iter().map(|p| p.chunks).collect(),
            pool_outstanding: vec![0; w.pools.len()],
            pools_done: vec![None; w.pools.len()],
            arrival: vec![0.0; n],
            work: vec![0.0; n],
        };
        p.start();
        p
    }

    /// Time 0: items with no deps are released; programs begin.
    fn start(&mut self) {
        for i in 0..self.w.items.len() {
            if self.deps_left[i] == 0 {
                self.release_or_schedule(i, 0.0);
            }
        }
        for t in 0..self.w.threads.len() {
            match self.w.threads[t].program {
                Program::Spin => {
                    self.activity[t] = Activity::Spin;
                    self.runnable(t, f64::INFINITY, 0.0);
                }
                Program::Pool(p) => match self.take_chunk(t, p) {
                    Some(work) => self.runnable(t, work, 0.0),
                    None => self.activity[t] = Activity::Exited,
                },
                Program::Periodic { phase, .. } => {
                    self.activity[t] = Activity::Periodic;
                    self.block_until(t, phase);
                }
                Program::Queue => {
                    if self.activity[t] == Activity::Idle {
                        if let Some(work) = self.start_next_item(t, 0.0) {
                            self.runnable(t, work, 0.0);
                        }
                    }
                }
            }
        }
    }

    fn runnable(&mut self, t: ThreadId, work: f64, now: f64) {
        self.waiting[t] = false;
        self.arrival[t] = now;
        self.work[t] = work;
        self.pending.push((t, work));
    }

    fn take_chunk(&mut self, t: ThreadId, p: PoolId) -> Option<f64> {
        if self.pool_left[p] == 0 {
            return None;
        }
        self.pool_left[p] -= 1;
        self.pool_outstanding[p] += 1;
        self.activity[t] = Activity::Chunk(p);
        Some(self.w.pools[p].chunk_work)
    }

    /// Runs item steps from `step` on: the CPU work of the next CPU step,
    /// or `None` when blocked (waiting I/O, or idle with an empty queue).
    fn run_steps(&mut self, t: ThreadId, item: ItemId, step: usize, now: f64) -> Option<f64> {
        match self.w.items[item].steps.get(step) {
            Some(&Step::Cpu(w)) => {
                self.activity[t] = Activity::Item { item, step };
                if w <= EPS {
                    return self.run_steps(t, item, step + 1, now);
                }
                Some(w)
            }
            Some(&Step::Wait(d)) => {
                self.activity[t] = Activity::Item { item, step };
                self.block_until(t, now + d);
                None
            }
            None => {
                self.item_done(item, now);
                self.start_next_item(t, now)
            }
        }
    }

    fn start_next_item(&mut self, t: ThreadId, now: f64) -> Option<f64> {
        match self.fifo[t].pop_front() {
            Some(next) => self.run_steps(t, next, 0, now),
            None => {
                self.activity[t] = Activity::Idle;
                None
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
        self.fifo[t].push_back(item);
        if self.activity[t] == Activity::Idle && self.waiting[t] {
            if let Some(work) = self.start_next_item(t, now) {
                self.runnable(t, work, now);
            }
        }
    }

    fn block_until(&mut self, t: ThreadId, at: f64) {
        self.wake_gen[t] = self.wake_gen[t].wrapping_add(1);
        self.timers
            .push(Reverse((Key(at), Timer::Wake(t, self.wake_gen[t]))));
    }

    /// A timer fired for a blocked thread: I/O done or period due.
    fn wake(&mut self, t: ThreadId, now: f64) {
        let work = match self.activity[t] {
            Activity::Periodic => match self.w.threads[t].program {
                Program::Periodic { burst, .. } => Some(burst),
                _ => None,
            },
            Activity::Item { item, step } => self.run_steps(t, item, step + 1, now),
            _ => None,
        };
        if let Some(work) = work {
            self.runnable(t, work, now);
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
}

impl Threads for Programs<'_> {
    fn len(&self) -> usize {
        self.w.threads.len()
    }

    fn arrival(&self) -> &[f64] {
        &self.arrival
    }

    fn work(&self) -> &[f64] {
        &self.work
    }

    fn initial_remaining(&self) -> Vec<f64> {
        vec![0.0; self.len()]
    }

    fn next_wake(&self) -> Option<f64> {
        if let Some(&(t, _)) = self.pending.first() {
            return Some(self.arrival[t]);
        }
        self.timers.peek().map(|Reverse((Key(t), _))| *t)
    }

    fn wake_due<F: FnMut(std::ops::Range<u32>, &TaskView)>(
        &mut self,
        now: f64,
        remaining: &mut [f64],
        mut f: F,
    ) {
        // Timers due now (I/O completions, period starts, releases) add to
        // the threads made runnable since the last instant.
        while let Some(&Reverse((Key(t), timer))) = self.timers.peek() {
            if t > now {
                break;
            }
            self.timers.pop();
            match timer {
                Timer::Wake(th, gen) if gen == self.wake_gen[th] => self.wake(th, now),
                Timer::Wake(..) => {}
                Timer::Release(item) => self.enqueue_item(item, now),
            }
        }
        let pending = std::mem::take(&mut self.pending);
        for &(t, work) in &pending {
            remaining[t] = work;
        }
        let view = TaskView {
            arrival: &self.arrival,
            work: &self.work,
            remaining,
        };
        for &(t, _) in &pending {
            f(t as u32..t as u32 + 1, &view);
        }
    }

    fn step_done(&mut self, t: u32, now: f64) -> Next {
        let t = t as usize;
        let next = match self.activity[t] {
            Activity::Spin => Some(f64::INFINITY),
            Activity::Periodic => {
                if let Program::Periodic { burst, period, .. } = self.w.threads[t].program {
                    self.block_until(t, now + (period - burst).max(0.0));
                }
                None
            }
            Activity::Chunk(p) => {
                self.pool_outstanding[p] -= 1;
                if self.pool_left[p] == 0 && self.pool_outstanding[p] == 0 {
                    self.pools_done[p] = Some(now);
                }
                match self.take_chunk(t, p) {
                    Some(work) => Some(work),
                    None => {
                        self.activity[t] = Activity::Exited;
                        self.waiting[t] = true;
                        return Next::Exit;
                    }
                }
            }
            Activity::Item { item, step } => self.run_steps(t, item, step + 1, now),
            Activity::Idle | Activity::Exited => None,
        };
        match next {
            Some(work) => {
                self.work[t] = work;
                Next::Cpu(work)
            }
            None => {
                self.waiting[t] = true;
                Next::Block
            }
        }
    }

    fn same_instant(&self) -> f64 {
        EPS
    }

    fn finished(&self, _exited: usize) -> bool {
        self.done()
    }

    fn until(&self) -> f64 {
        self.cfg.until
    }

    /// The work an instant costs grows with the cores scanned (the class
    /// charges its own timers' work: see `Xnu::on_timer`).
    fn meter(&mut self, now: f64, cores: usize) -> bool {
        super::budget::charge_at(cores as u64 + 1, now / self.cfg.until)
    }
}

/// Per-thread state, totals and the timeline, as the loop reports them.
struct ThreadRecorder<'a> {
    cfg: &'a RunConfig,
    efficiency: Vec<bool>,
    state: Vec<State>,
    since: Vec<f64>,
    totals: Vec<[f64; 4]>,
    efficiency_ms: Vec<f64>,
    work_done: Vec<f64>,
    cores_used: Vec<u64>,
    min_pri: Vec<u8>,
    segments: Vec<Segment>,
    intervals: Vec<Interval>,
    pri: Vec<PriSeries>,
    truncated: bool,
}

impl<'a> ThreadRecorder<'a> {
    fn new(w: &Workload, m: &Machine, class: &Xnu, cfg: &'a RunConfig) -> Self {
        let n = w.threads.len();
        ThreadRecorder {
            cfg,
            efficiency: m
                .cores
                .iter()
                .map(|c| c.kind == CoreKind::Efficiency)
                .collect(),
            state: vec![State::Blocked; n],
            since: vec![0.0; n],
            totals: vec![[0.0; 4]; n],
            efficiency_ms: vec![0.0; n],
            work_done: vec![0.0; n],
            cores_used: vec![0; n],
            min_pri: (0..n).map(|t| class.timeshare().sched_pri(t)).collect(),
            segments: Vec::new(),
            intervals: Vec::new(),
            pri: cfg
                .trace_pri
                .iter()
                .map(|&t| PriSeries {
                    thread: t,
                    name: w.threads[t].name.clone(),
                    points: Vec::new(),
                })
                .collect(),
            truncated: false,
        }
    }

    fn set_state(&mut self, t: usize, state: State, now: f64) {
        if self.state[t] == state {
            return;
        }
        let (old, since) = (self.state[t], self.since[t]);
        self.totals[t][old.index()] += now - since;
        self.state[t] = state;
        self.since[t] = now;
        self.record_interval(t, old, since, now);
    }

    /// Keeps a finished state interval for the timeline (within the cap).
    fn record_interval(&mut self, thread: usize, state: State, start: f64, end: f64) {
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

    /// Ends every open state interval at `end`, with the class's final
    /// priorities, and gathers the result.
    fn finish(mut self, w: &Workload, programs: Programs, class: &Xnu, end: f64) -> RunResult {
        for t in 0..self.state.len() {
            let (state, since) = (self.state[t], self.since[t]);
            self.totals[t][state.index()] += end - since;
            self.since[t] = end;
            self.record_interval(t, state, since, end);
        }
        for s in &mut self.pri {
            s.points.push((end, class.timeshare().sched_pri(s.thread)));
        }
        let threads = w
            .threads
            .iter()
            .enumerate()
            .map(|(t, spec)| ThreadStats {
                name: spec.name.clone(),
                group: spec.group.clone(),
                qos: spec.qos.number(),
                base_pri: spec.base_pri,
                running_ms: self.totals[t][State::Running.index()],
                efficiency_ms: self.efficiency_ms[t],
                runnable_ms: self.totals[t][State::Runnable.index()],
                preempted_ms: self.totals[t][State::Preempted.index()],
                blocked_ms: self.totals[t][State::Blocked.index()],
                work_done: self.work_done[t],
                cores_used: self.cores_used[t],
                min_pri: self.min_pri[t],
            })
            .collect();
        RunResult {
            end,
            threads,
            items_done: programs.items_done,
            pools_done: programs.pools_done,
            segments: self.segments,
            intervals: self.intervals,
            pri: self.pri,
            truncated: self.truncated,
        }
    }
}

impl Recorder for ThreadRecorder<'_> {
    fn on_core(&mut self, t: u32, c: usize, now: f64) {
        let t = t as usize;
        self.set_state(t, State::Running, now);
        self.cores_used[t] |= 1u64 << (c % 64);
    }

    fn off_core(&mut self, t: u32, c: usize, since: f64, now: f64, state: State) {
        // Timed per stretch on the core, as the Running total is, so a
        // thread that only ever ran on E cores reads exactly 100 %.
        if self.efficiency.get(c).copied().unwrap_or(false) {
            self.efficiency_ms[t as usize] += now - since;
        }
        if self.cfg.timeline && now > since {
            let full = self.segments.len() >= self.cfg.max_records;
            match self.segments.last_mut() {
                // The same thread going on on the same core: one segment.
                Some(s) if s.core as usize == c && s.task == t && (s.end - since).abs() < EPS => {
                    s.end = now
                }
                _ if full => self.truncated = true,
                _ => self.segments.push(Segment {
                    core: c as u32,
                    task: t,
                    start: since,
                    end: now,
                }),
            }
        }
        self.set_state(t as usize, state, now);
    }

    fn ran(&mut self, t: u32, _c: usize, _time: f64, work: f64) {
        self.work_done[t as usize] += work;
    }

    fn woke(&mut self, t: u32, now: f64) {
        self.set_state(t as usize, State::Runnable, now);
    }

    fn instant<F: Fn(usize) -> Option<u8>>(&mut self, now: f64, priority: F) {
        for t in 0..self.min_pri.len() {
            if let Some(p) = priority(t) {
                if p < self.min_pri[t] {
                    self.min_pri[t] = p;
                }
            }
        }
        for s in &mut self.pri {
            let Some(p) = priority(s.thread) else {
                continue;
            };
            if s.points.last().is_none_or(|&(_, last)| last != p) {
                s.points.push((now, p));
            }
        }
    }
}

/// Runs `workload` on `machine` under the XNU class with `policy`'s
/// priority model (its state after the run is written back).
pub fn simulate(
    workload: &Workload,
    machine: &Machine,
    policy: &mut Timeshare,
    cfg: &RunConfig,
) -> RunResult {
    let mut class = Xnu::for_threads(policy.clone(), &workload.threads, machine);
    let mut programs = Programs::new(workload, cfg);
    let mut recorder = ThreadRecorder::new(workload, machine, &class, cfg);
    let config = EngineConfig {
        cores: machine.cores.len(),
        switch_cost: 0.0,
        record_segments: false,
        record_outcomes: false,
        max_slices: u64::MAX,
        // Programs stop on conditions checked per instant, and their
        // timeline is recorded per instant: the general loop throughout.
        one_core_fast_path: false,
    };
    super::budget::begin_run();
    let schedule = simulate_on(&mut programs, machine, &mut class, &mut recorder, &config)
        .expect("no slice limit is set");
    let result = recorder.finish(workload, programs, &class, schedule.end);
    *policy = class.into_timeshare();
    result
}
