//! A scenario's programs run under a scheduling class, recorded per thread:
//! [`simulate`] runs [`Programs`] on a machine under any class (XNU's
//! timeshare class by default, the kernel the studies measured) through the
//! one entry point ([`PolicyKind::run`]), with a recorder of per-thread
//! states, totals, priorities and the timeline, and gathers a [`RunResult`].
//!
//! Simplification: a thread is moved between cores only when it is
//! (re)queued; there is no active migration of running threads (xnu's AMP
//! rebalancing) and no cost for a switch.

use serde::Serialize;

use crate::policy::{ClassParams, ClutchParams, EevdfParams, MlfqParams, PolicyKind};
use crate::sim::time::SAME_INSTANT_MS as EPS;
use crate::sim::{CoreKind, EngineConfig, Machine, Recorder, ThreadId, ThreadInfo};
use crate::workload::program_threads::{ProgramRun, Stop};
use crate::workload::programs::{ItemId, Programs};

pub(crate) use crate::sim::trace::{Interval, PriSeries, Segment, State};

/// The quantum (ms) round-robin and MLFQ use when they run a scenario:
/// XNU's standard quantum, so the classes differ in their rules, not in
/// their slice length.
pub(crate) const SCENARIO_QUANTUM_MS: f64 = 10.0;

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
    /// The scheduling class.
    pub class: PolicyKind,
    /// The xnu release whose rules `clutch` follows.
    pub clutch: ClutchParams,
    /// `xnu`'s band limit (`None`: as the machine's kernel has it).
    pub band_limit: Option<bool>,
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
            class: PolicyKind::Xnu,
            clutch: ClutchParams::default(),
            band_limit: None,
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
    pub(crate) fn segment_qos(&self, s: &Segment) -> u8 {
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
    fn new(w: &Programs, m: &Machine, cfg: &'a RunConfig) -> Self {
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
            min_pri: w.threads.iter().map(|t| t.base_pri).collect(),
            segments: Vec::new(),
            intervals: Vec::new(),
            pri: cfg
                .trace_pri
                .iter()
                .map(|&t| PriSeries {
                    thread: t,
                    name: w.threads[t as usize].name.clone(),
                    points: Vec::new(),
                })
                .collect(),
            truncated: false,
        }
    }

    fn set_state(&mut self, t: ThreadId, state: State, now: f64) {
        let t = t as usize;
        if self.state[t] == state {
            return;
        }
        let (old, since) = (self.state[t], self.since[t]);
        self.totals[t][old.index()] += now - since;
        self.state[t] = state;
        self.since[t] = now;
        self.record_interval(t as ThreadId, old, since, now);
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

    /// Ends every open state interval at `end` and gathers the result.
    fn finish(mut self, w: &Programs, programs: ProgramRun, end: f64) -> RunResult {
        for t in 0..self.state.len() {
            let (state, since) = (self.state[t], self.since[t]);
            self.totals[t][state.index()] += end - since;
            self.since[t] = end;
            self.record_interval(t as ThreadId, state, since, end);
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
            items_done: programs.items_done().to_vec(),
            pools_done: programs.pools_done().to_vec(),
            segments: self.segments,
            intervals: self.intervals,
            pri: self.pri,
            truncated: self.truncated,
        }
    }
}

impl Recorder for ThreadRecorder<'_> {
    fn on_core(&mut self, t: ThreadId, c: usize, now: f64) {
        self.set_state(t, State::Running, now);
        self.cores_used[t as usize] |= 1u64 << (c % 64);
    }

    fn off_core(&mut self, t: ThreadId, c: usize, since: f64, now: f64, state: State) {
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
        self.set_state(t, state, now);
    }

    fn ran(&mut self, t: ThreadId, _c: usize, _time: f64, work: f64) {
        self.work_done[t as usize] += work;
    }

    fn woke(&mut self, t: ThreadId, now: f64) {
        self.set_state(t, State::Runnable, now);
    }

    fn instant<F: Fn(ThreadId) -> Option<u8>>(&mut self, now: f64, priority: F) {
        for t in 0..self.min_pri.len() {
            if let Some(p) = priority(t as ThreadId) {
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

    /// Each traced thread's priority series ends with its priority at the
    /// end of the run.
    fn end<F: Fn(ThreadId) -> Option<u8>>(&mut self, end: f64, priority: F) {
        for s in &mut self.pri {
            if let Some(p) = priority(s.thread) {
                s.points.push((end, p));
            }
        }
    }
}

/// Runs `programs` on `machine` (with its kernel flavour: band limit,
/// timebase) under the class `cfg.class`, recording what `cfg` asks for.
pub fn simulate(programs: &Programs, machine: &Machine, cfg: &RunConfig) -> RunResult {
    let stop = Stop {
        until: cfg.until,
        after_items: cfg.stop_after_items.clone(),
        when_pools_done: cfg.stop_when_pools_done,
    };
    let mut run = ProgramRun::new(programs, &stop, machine);
    let mut recorder = ThreadRecorder::new(programs, machine, cfg);
    let config = EngineConfig {
        switch_cost: 0.0,
        record_segments: false,
        record_outcomes: false,
        max_slices: u64::MAX,
        // Programs stop on conditions checked per instant, and their
        // timeline is recorded per instant: the general loop throughout.
        one_core_fast_path: false,
        // A link sets a scenario's size: the page bounds its work.
        metered: true,
    };
    let info: Vec<ThreadInfo> = (0..programs.threads.len())
        .map(|t| programs.info(t))
        .collect();
    let params = ClassParams {
        quantum: SCENARIO_QUANTUM_MS,
        mlfq: &MlfqParams::default(),
        eevdf: EevdfParams::default(),
        clutch: cfg.clutch,
        band_limit: cfg.band_limit,
        machine,
        threads: &info,
    };
    let schedule = cfg
        .class
        .run(&params, &mut run, &mut recorder, &config)
        .expect("no slice limit is set");
    recorder.finish(programs, run, schedule.end)
}
