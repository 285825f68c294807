//! XNU's timeshare class as a scheduling class like the others: one run
//! queue for the machine, highest priority first and FIFO within a
//! priority; priorities from [`Timeshare`] (usage decay, `pri_shift` from
//! the load, the band limit on or off); QoS placement (background and
//! maintenance only on efficiency cores when the machine has them); its
//! own timers (the 15 ms load sample and the 125 ms scheduler tick).
//!
//! Queue order as xnu's `thread_setrun`: a preempted thread goes to the
//! head of its priority (SCHED_HEADQ) and keeps the rest of its quantum; an
//! expired or woken one to the tail (SCHED_TAILQ). A queued thread whose
//! priority changes at a tick keeps its place among its new peers
//! (simplification: xnu re-inserts it). Preemption as `csw_check` and
//! `choose_processor`: the highest queued thread that beats some running
//! one takes the core of the lowest such (performance cores first among
//! equals).
//!
//! The study's tasks run under it too: a task is a thread of its class's
//! QoS (`default` unless the mix gives one, e.g. `85:1-8@userInitiated`).

use std::cmp::Reverse;
use std::collections::BTreeSet;

use super::kernel_flavour::KernelFlavour;
use super::timeshare::{Timeshare, BG_QUANTUM_MS, LOAD_SAMPLE_MS, TICK_MS};
use crate::sim::time::SAME_INSTANT_MS as EPS;
use crate::sim::{
    CoreKind, Enqueue, Leave, Machine, Policy, Qos, Running, TaskView, ThreadId, ThreadInfo,
};

/// The shortest slice XNU hands out (a background thread's quantum), for
/// the up-front guard on slice counts.
pub(crate) const MIN_SLICE_MS: f64 = BG_QUANTUM_MS;

/// Its timers, per ms of a run (the load sample and the scheduler tick),
/// for the same guard.
pub(crate) const TIMERS_PER_MS: f64 = 1.0 / LOAD_SAMPLE_MS + 1.0 / TICK_MS;

/// The class's state.
#[derive(Clone, Debug)]
pub(crate) struct Xnu {
    ts: Timeshare,
    qos: Vec<Qos>,
    /// Only this core, per thread (empty: none pinned).
    pinned: Vec<Option<usize>>,
    efficiency: Vec<bool>,
    has_efficiency: bool,
    /// Each core's place in the order idle cores are handed out.
    rank: Vec<usize>,
    queue: BTreeSet<(Reverse<u8>, i64, ThreadId)>,
    queued: Vec<Option<(Reverse<u8>, i64)>>,
    head_seq: i64,
    tail_seq: i64,
    /// Quantum kept across a preemption.
    quantum_left: Vec<Option<f64>>,
    /// Time already charged to the running thread's usage in its slice.
    charged: Vec<f64>,
    samples: u64,
    ticks: u64,
    /// The thread [`Policy::preemption_victim`] chose, for the core it
    /// chose: the next pick for that core returns it.
    chosen: Option<(usize, ThreadId)>,
    /// Work not yet reported to the loop's budget ([`Policy::take_work`]).
    work: u64,
}

impl Xnu {
    /// The class for `n` threads with these attributes (one per thread;
    /// empty: all `default`) on `machine`, with its kernel's flavour
    /// (timebase, band limit unless `band_limit` says otherwise).
    pub(crate) fn new(
        n: usize,
        threads: &[ThreadInfo],
        machine: &Machine,
        band_limit: Option<bool>,
    ) -> Xnu {
        let info = |i: usize| threads.get(i).copied().unwrap_or_default();
        let kernel = KernelFlavour::of(machine);
        let ts = Timeshare::new(
            (0..n).map(info),
            machine.cores.len(),
            kernel.ticks_per_ms,
            band_limit.unwrap_or(kernel.band_limit),
        );
        Xnu::with_model(
            ts,
            (0..n).map(|i| info(i).qos).collect(),
            if threads.iter().any(|t| t.pinned.is_some()) {
                (0..n).map(|i| info(i).pinned).collect()
            } else {
                Vec::new()
            },
            machine,
        )
    }

    fn with_model(
        ts: Timeshare,
        qos: Vec<Qos>,
        pinned: Vec<Option<usize>>,
        machine: &Machine,
    ) -> Xnu {
        let n = qos.len();
        let order = machine.preference_order();
        let mut rank = vec![0; machine.cores.len()];
        for (r, &c) in order.iter().enumerate() {
            rank[c] = r;
        }
        Xnu {
            ts,
            qos,
            pinned,
            efficiency: machine
                .cores
                .iter()
                .map(|c| c.kind == CoreKind::Efficiency)
                .collect(),
            has_efficiency: machine.has_efficiency_cores(),
            rank,
            queue: BTreeSet::new(),
            queued: vec![None; n],
            head_seq: 0,
            tail_seq: 0,
            quantum_left: vec![None; n],
            charged: vec![0.0; n],
            samples: 1,
            ticks: 1,
            chosen: None,
            work: 0,
        }
    }

    /// Whether thread `t` may run on core `c`: its pin, else QoS placement.
    pub(crate) fn may_run(&self, t: usize, c: usize) -> bool {
        match self.pinned.get(t).copied().flatten() {
            Some(p) => p == c,
            None => {
                !(self.qos[t].is_background() && self.has_efficiency)
                    || self.efficiency.get(c).copied().unwrap_or(false)
            }
        }
    }

    fn insert(&mut self, t: ThreadId, head: bool) {
        let seq = if head {
            self.head_seq -= 1;
            self.head_seq
        } else {
            self.tail_seq += 1;
            self.tail_seq
        };
        let key = (Reverse(self.ts.sched_pri(t as usize)), seq);
        self.queued[t as usize] = Some(key);
        self.queue.insert((key.0, key.1, t));
    }

    fn remove(&mut self, t: ThreadId) {
        if let Some((p, s)) = self.queued[t as usize].take() {
            self.queue.remove(&(p, s, t));
        }
    }

    /// Charges `t`'s usage up to `ran` ms into its slice.
    fn charge_to(&mut self, t: usize, ran: f64) {
        let dt = ran - self.charged[t];
        if dt > 0.0 {
            self.ts.charge(t, dt);
        }
        self.charged[t] = ran;
    }

    /// After a tick, queued threads move to their new priority.
    fn requeue_all(&mut self) {
        let moved: Vec<(Reverse<u8>, i64, ThreadId)> = self
            .queue
            .iter()
            .copied()
            .filter(|&(Reverse(p), _, t)| p != self.ts.sched_pri(t as usize))
            .collect();
        for (p, s, t) in moved {
            self.queue.remove(&(p, s, t));
            let key = (Reverse(self.ts.sched_pri(t as usize)), s);
            self.queued[t as usize] = Some(key);
            self.queue.insert((key.0, key.1, t));
        }
    }

    fn next_sample(&self) -> f64 {
        self.samples as f64 * LOAD_SAMPLE_MS
    }

    fn next_tick(&self) -> f64 {
        self.ticks as f64 * TICK_MS
    }
}

impl Policy for Xnu {
    fn enqueue(&mut self, task: ThreadId, why: Enqueue, _tasks: &TaskView) {
        match why {
            Enqueue::Arrived => {
                self.quantum_left[task as usize] = None;
                self.insert(task, false);
            }
            Enqueue::Expired => self.insert(task, false),
            Enqueue::Preempted => self.insert(task, true),
        }
    }

    fn pick_next(&mut self, core: usize, _tasks: &TaskView) -> Option<ThreadId> {
        let t = match self.chosen {
            Some((c, t)) if c == core => {
                self.chosen = None;
                t
            }
            _ => self
                .queue
                .iter()
                .map(|&(_, _, t)| t)
                .find(|&t| self.may_run(t as usize, core))?,
        };
        self.remove(t);
        self.charged[t as usize] = 0.0;
        Some(t)
    }

    fn has_queued(&self) -> bool {
        !self.queue.is_empty()
    }

    fn time_slice(&self, task: ThreadId) -> f64 {
        let t = task as usize;
        self.quantum_left[t].unwrap_or_else(|| self.ts.quantum_ms(t))
    }

    fn on_descheduled(&mut self, task: ThreadId, ran: f64, why: Leave) {
        let t = task as usize;
        self.charge_to(t, ran);
        self.charged[t] = 0.0;
        match why {
            // `thread_quantum_expire` → `lightweight_update_priority`.
            Leave::Expired => {
                self.quantum_left[t] = None;
                self.ts.quantum_expired(t);
            }
            Leave::Preempted => {
                let left = self.time_slice(task) - ran;
                self.quantum_left[t] = (left > EPS).then_some(left);
            }
            Leave::Done | Leave::Blocked => self.quantum_left[t] = None,
        }
    }

    fn is_preemptive(&self) -> bool {
        true
    }

    fn preemptions_per_instant(&self, cores: usize) -> usize {
        // A preempted thread may in turn preempt a lower one elsewhere.
        4 * cores + 8
    }

    fn preemption_victim(&mut self, running: &[Running], _tasks: &TaskView) -> Option<usize> {
        let pri = |t: ThreadId| self.ts.sched_pri(t as usize);
        let min_running = running.iter().map(|r| pri(r.task)).min()?;
        let mut found = None;
        let mut examined = 0u64;
        for &(Reverse(p), _, t) in &self.queue {
            if p < min_running {
                break;
            }
            examined += 1;
            let mut best: Option<(u8, usize, usize)> = None;
            for (i, r) in running.iter().enumerate() {
                let rp = pri(r.task);
                if self.may_run(t as usize, r.core) && self.ts.preempts(p, rp, r.first_timeslice) {
                    let rank = self.rank.get(r.core).copied().unwrap_or(r.core);
                    if best.is_none_or(|(bp, br, _)| (rp, rank) < (bp, br)) {
                        best = Some((rp, rank, i));
                    }
                }
            }
            if let Some((_, _, i)) = best {
                found = Some((i, t));
                break;
            }
        }
        // Each examined thread was checked against every running core (the
        // page's work budget for scenarios counts it).
        self.work += examined * running.len() as u64;
        let (i, t) = found?;
        self.chosen = Some((running[i].core, t));
        Some(i)
    }

    fn next_timer(&self) -> Option<f64> {
        Some(self.next_sample().min(self.next_tick()))
    }

    /// The load sample (`compute_sched_load`), then the tick
    /// (`compute_averages` and aging), with running threads' usage charged
    /// up to now first.
    fn on_timer(&mut self, now: f64, running: &[Running]) {
        for r in running {
            self.charge_to(r.task as usize, r.ran);
        }
        // A sample or tick visits every thread (the page's work budget for
        // scenarios counts it).
        self.work += self.qos.len() as u64;
        if self.next_sample() <= now {
            let mut runnable = vec![false; self.qos.len()];
            for &(_, _, t) in &self.queue {
                runnable[t as usize] = true;
            }
            for r in running {
                runnable[r.task as usize] = true;
            }
            self.ts.sample_load(&runnable);
            self.samples += 1;
        }
        if self.next_tick() <= now {
            self.ts.tick();
            self.requeue_all();
            self.ticks += 1;
        }
    }

    /// A quantum expires in the timer interrupt of its own core, before a
    /// wakeup at the same instant reaches the run queue.
    fn expired_first(&self) -> bool {
        true
    }

    fn priority(&self, task: ThreadId) -> Option<u8> {
        Some(self.ts.sched_pri(task as usize))
    }

    fn take_work(&mut self) -> u64 {
        std::mem::take(&mut self.work)
    }
}
