//! Linux's fair class (SCHED_OTHER) as EEVDF schedules it: Earliest
//! Eligible Virtual Deadline First, as written in `kernel/sched/fair.c` of
//! Linux 6.6 (the first release with it; `Documentation/scheduler/
//! sched-eevdf.rst`), the weights from `sched_prio_to_weight` in
//! `kernel/sched/core.c`.
//!
//! - A thread's weight comes from its nice value (nice 0 = 1024, each step
//!   about 1.25 times the next). Its virtual runtime advances by the time
//!   it runs × 1024 / weight, so a heavier thread's clock runs slower.
//! - The queue's virtual time V is the weighted average of the virtual
//!   runtimes of every runnable thread (waiting or running). A thread is
//!   *eligible* when it has received no more than its share: vruntime ≤ V
//!   (`vruntime_eligible`, the same exact integer test, in nanoseconds).
//! - Each thread asks for one base slice at a time; its virtual deadline is
//!   vruntime + slice × 1024 / weight (`update_deadline`). A free core takes
//!   the eligible thread with the earliest virtual deadline (`pick_eevdf`).
//! - The base slice is `sysctl_sched_base_slice`: 0.75 ms × (1 + log2 of
//!   the machine's cores, at most 8) — the kernel's default
//!   `SCHED_TUNABLESCALING_LOG`, with the simulated machine's cores as its
//!   online CPUs (0.75 ms on one core, 1.5 ms on two, 3 ms on eight).
//! - A running thread is only stopped when its slice is used up: at the
//!   scheduler tick (every 1000 / HZ ms; HZ 250 → 4 ms) that finds its
//!   virtual runtime past its deadline, or with HRTICK at exactly that
//!   moment. It then gets a new deadline and the class picks again, maybe
//!   the same thread. (The kernel checks at every `update_curr`, not only
//!   at the tick: a thread that reads its own CPU-time clock triggers one,
//!   through `task_sched_runtime`, so a benchmark spinning on that clock
//!   sees its slices end as with HRTICK.)
//! - A waking or new thread preempts a running one only if EEVDF would now
//!   pick it (`check_preempt_wakeup`), and, with RUN_TO_PARITY (on by
//!   default), not while the running thread is eligible and inside the
//!   slice it was picked for. A running thread whose deadline passed
//!   between ticks is rescheduled at such a wakeup too (`update_curr`).
//! - Placement (`place_entity`): a new thread starts at V with lag 0 and,
//!   as PLACE_DEADLINE_INITIAL says, half a slice to its first deadline; a
//!   thread that blocks keeps its lag V − vruntime (clamped to two slices or
//!   a tick, `entity_lag`) and comes back at V − lag, the lag scaled by
//!   (W + w) / W: joining pulls V towards it, and the scaling leaves it
//!   with the lag it left with (PLACE_LAG).
//!
//! What it leaves out: one run queue serves every core (the kernel keeps
//! one per CPU and balances load between them, prefers idle and big cores
//! and migrates threads); no control groups or group scheduling, no
//! autogroup, no bandwidth control, no utilisation clamps or energy-aware
//! placement, no SCHED_BATCH/SCHED_IDLE; a slice is the base slice for
//! every thread (no `sched_attr` custom slices, 6.12). Later releases keep
//! this behaviour for threads with the default slice — 6.17's slice
//! protection reduces to RUN_TO_PARITY's — except delayed dequeue (6.12),
//! which keeps a thread that blocks with negative lag queued until it is
//! eligible again: here its lag is kept as in 6.6. When no waiting thread
//! is eligible for a free core (threads running elsewhere hold V down) the
//! core takes the earliest deadline rather than idle. A thread's virtual
//! runtime advances with the time it holds a core whatever the core's
//! speed, as the kernel charges execution time; threads run on any core
//! (a pinned thread only on its own).

use std::collections::BTreeSet;

use crate::sim::{Enqueue, Leave, Machine, Policy, Running, TaskView, ThreadId, ThreadInfo};

/// `sched_prio_to_weight` (`kernel/sched/core.c`): the load weight of
/// nice −20 … 19; nice 0 is 1024 and one step is about 10 % of CPU time
/// between two busy threads (a ratio of about 1.25).
pub(crate) const NICE_WEIGHT: [u32; 40] = [
    88761, 71755, 56483, 46273, 36291, // −20 … −16
    29154, 23254, 18705, 14949, 11916, // −15 … −11
    9548, 7620, 6100, 4904, 3906, // −10 … −6
    3121, 2501, 1991, 1586, 1277, // −5 … −1
    1024, 820, 655, 526, 423, // 0 … 4
    335, 272, 215, 172, 137, // 5 … 9
    110, 87, 70, 56, 45, // 10 … 14
    36, 29, 23, 18, 15, // 15 … 19
];

/// The weight of nice 0 (`NICE_0_LOAD`, scaled down).
pub(crate) const NICE_0_WEIGHT: i64 = 1024;
/// The lowest and highest nice values.
pub(crate) const NICE_MIN: i8 = -20;
pub(crate) const NICE_MAX: i8 = 19;

/// The weight of `nice` (clamped to −20 … 19).
pub fn weight_of(nice: i8) -> u32 {
    NICE_WEIGHT[(nice.clamp(NICE_MIN, NICE_MAX) - NICE_MIN) as usize]
}

/// `normalized_sysctl_sched_base_slice`: 0.75 ms before scaling.
pub(crate) const BASE_SLICE_MS: f64 = 0.75;
/// The kernel's default tick rate here.
pub(crate) const DEFAULT_HZ: u32 = 250;

/// The shortest slice this class usually hands out, for the up-front guard
/// on slice counts: slices end on the 4 ms tick by default; a thread picked
/// between ticks, or put back after a preemption, runs less, and 1 ms
/// counts those generously.
pub(crate) const MIN_SLICE_MS: f64 = 1.0;

/// `1 + ilog2(min(cpus, 8))`: how the kernel scales its base slice with the
/// online CPUs (`get_update_sysctl_factor`, SCHED_TUNABLESCALING_LOG).
pub fn slice_factor(cpus: usize) -> u32 {
    let cpus = cpus.clamp(1, 8) as u32;
    1 + cpus.ilog2()
}

/// The class's own knobs; the defaults are the kernel's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EevdfParams {
    /// Scheduler ticks per second (CONFIG_HZ): a slice that is used up is
    /// only noticed at the next tick.
    pub hz: u32,
    /// HRTICK: a high-resolution timer ends each slice exactly when it is
    /// used up (off by default in the kernel).
    pub hrtick: bool,
    /// The base slice in ms before the CPU scaling; `None`: 0.75 ms.
    pub base_slice_ms: Option<f64>,
    /// RUN_TO_PARITY: a waking thread does not preempt a running one that
    /// is eligible and within its slice.
    pub run_to_parity: bool,
    /// The online CPUs the base slice is scaled by; `None`: the simulated
    /// machine's cores. The kernel scales by every online CPU, however few
    /// a workload is pinned to, so a model of threads pinned to one CPU of
    /// a larger machine sets this to the machine's CPUs.
    pub slice_cpus: Option<usize>,
}

impl Default for EevdfParams {
    fn default() -> Self {
        EevdfParams {
            hz: DEFAULT_HZ,
            hrtick: false,
            base_slice_ms: None,
            run_to_parity: true,
            slice_cpus: None,
        }
    }
}

/// `--eevdf-slice-end`'s two values: a used-up slice ends at the next
/// tick, or exactly when it is used up.
pub(crate) const SLICE_END_TICK: &str = "tick";
pub(crate) const SLICE_END_EXACT: &str = "exact";

impl EevdfParams {
    /// How a used-up slice ends, by its parameter's name for it.
    pub fn slice_end(&self) -> &'static str {
        if self.hrtick {
            SLICE_END_EXACT
        } else {
            SLICE_END_TICK
        }
    }

    /// The scaled base slice (`sysctl_sched_base_slice`) on `cpus` cores
    /// (or on [`Self::slice_cpus`] when set), ms.
    pub fn slice_ms(&self, cpus: usize) -> f64 {
        let cpus = self.slice_cpus.unwrap_or(cpus);
        self.base_slice_ms.unwrap_or(BASE_SLICE_MS) * slice_factor(cpus) as f64
    }

    /// The tick period, ms.
    pub fn tick_ms(&self) -> f64 {
        1000.0 / self.hz.max(1) as f64
    }
}

/// Times closer than this (ms) are one instant when slices are rounded up
/// to a tick (sums of slices carry rounding errors far below it).
const TICK_EPS_MS: f64 = 1e-6;
/// A virtual runtime this close (as real ns at the thread's weight) to its
/// deadline has reached it: slices are handed out in ms and charged back
/// in ns, so one nanosecond can be lost on the way.
const REACHED_NS: i64 = 2;

/// Milliseconds as whole nanoseconds, the kernel's unit.
fn ns(ms: f64) -> i64 {
    (ms * 1e6).round() as i64
}

/// The class's state. Virtual times are integer nanoseconds, as in the
/// kernel, so the weighted average and the eligibility test are exact.
#[derive(Clone, Debug)]
pub struct Eevdf {
    weight: Vec<i64>,
    vruntime: Vec<i64>,
    deadline: Vec<i64>,
    /// Lag kept across a sleep (`se->vlag`), virtual ns.
    vlag: Vec<i64>,
    /// Whether the thread was placed before (a later arrival is a wakeup).
    placed: Vec<bool>,
    /// Only this core, per thread (empty: none pinned).
    pinned: Vec<Option<usize>>,
    /// Waiting threads, earliest virtual deadline first (ties in the order
    /// they were queued, as the kernel's tree puts equal keys to the right).
    queue: BTreeSet<(i64, u64, ThreadId)>,
    queued: Vec<Option<(i64, u64)>>,
    seq: u64,
    /// Σ weight × vruntime and Σ weight over the waiting threads.
    queued_wv: i128,
    queued_w: i128,
    /// Threads on cores, with when they were put there.
    on_cpu: Vec<(ThreadId, f64)>,
    /// The queue's virtual time when it last had threads (where a thread
    /// arriving at an empty queue starts, as `min_vruntime`).
    last_v: i64,
    /// Threads that became runnable at this instant, not yet checked for
    /// wakeup preemption.
    woken: Vec<ThreadId>,
    /// The thread [`Policy::preemption_victim`] chose, for the core it chose.
    chosen: Option<(usize, ThreadId)>,
    now: f64,
    slice_ns: i64,
    tick_ms: f64,
    tick_ns: i64,
    hrtick: bool,
    run_to_parity: bool,
}

impl Eevdf {
    /// The class for `n` threads with these attributes (empty: all nice 0,
    /// unpinned) on `machine`.
    pub fn new(n: usize, threads: &[ThreadInfo], machine: &Machine, params: EevdfParams) -> Eevdf {
        let info = |i: usize| threads.get(i).copied().unwrap_or_default();
        let slice_ms = params.slice_ms(machine.cores.len());
        Eevdf {
            weight: (0..n).map(|i| weight_of(info(i).nice) as i64).collect(),
            vruntime: vec![0; n],
            deadline: vec![0; n],
            vlag: vec![0; n],
            placed: vec![false; n],
            pinned: if threads.iter().any(|t| t.pinned.is_some()) {
                (0..n).map(|i| info(i).pinned).collect()
            } else {
                Vec::new()
            },
            queue: BTreeSet::new(),
            queued: vec![None; n],
            seq: 0,
            queued_wv: 0,
            queued_w: 0,
            on_cpu: Vec::new(),
            last_v: 0,
            woken: Vec::new(),
            chosen: None,
            now: 0.0,
            slice_ns: ns(slice_ms).max(1),
            tick_ms: params.tick_ms(),
            tick_ns: ns(params.tick_ms()).max(1),
            hrtick: params.hrtick,
            run_to_parity: params.run_to_parity,
        }
    }

    /// `calc_delta_fair`: real ns as virtual ns at thread `t`'s weight.
    fn to_virtual(&self, t: usize, real_ns: i64) -> i64 {
        (real_ns as i128 * NICE_0_WEIGHT as i128 / self.weight[t] as i128) as i64
    }

    /// Virtual ns as the real ns thread `t` runs to cover them (rounded up).
    fn to_real(&self, t: usize, virt_ns: i64) -> i64 {
        let w = self.weight[t] as i128;
        ((virt_ns as i128 * w + NICE_0_WEIGHT as i128 - 1) / NICE_0_WEIGHT as i128) as i64
    }

    /// The virtual slice of thread `t`: its request in its own clock.
    fn vslice(&self, t: usize) -> i64 {
        self.to_virtual(t, self.slice_ns)
    }

    /// Thread `t`'s virtual runtime now (it advances while it runs).
    fn vruntime_now(&self, t: usize) -> i64 {
        match self.on_cpu.iter().find(|&&(r, _)| r as usize == t) {
            Some(&(_, since)) => self.vruntime[t] + self.to_virtual(t, ns(self.now - since).max(0)),
            None => self.vruntime[t],
        }
    }

    /// Σ weight × vruntime and Σ weight over every runnable thread,
    /// waiting or running (`avg_vruntime` with `curr` added).
    fn sums(&self) -> (i128, i128) {
        let (mut wv, mut w) = (self.queued_wv, self.queued_w);
        for &(r, _) in &self.on_cpu {
            let r = r as usize;
            wv += self.weight[r] as i128 * self.vruntime_now(r) as i128;
            w += self.weight[r] as i128;
        }
        (wv, w)
    }

    /// `vruntime_eligible`: whether a thread at virtual runtime `v` has
    /// received no more than its share, `v ≤ V`, without dividing.
    fn eligible(&self, sums: (i128, i128), v: i64) -> bool {
        let (wv, w) = sums;
        w == 0 || wv >= v as i128 * w
    }

    /// `avg_vruntime`: V, rounded down.
    fn avg_vruntime(&mut self) -> i64 {
        let (wv, w) = self.sums();
        if w > 0 {
            self.last_v = wv.div_euclid(w) as i64;
        }
        self.last_v
    }

    fn may_run(&self, t: usize, core: usize) -> bool {
        self.pinned
            .get(t)
            .copied()
            .flatten()
            .is_none_or(|p| p == core)
    }

    fn insert(&mut self, t: ThreadId) {
        let i = t as usize;
        self.seq += 1;
        let key = (self.deadline[i], self.seq);
        self.queued[i] = Some(key);
        self.queue.insert((key.0, key.1, t));
        self.queued_wv += self.weight[i] as i128 * self.vruntime[i] as i128;
        self.queued_w += self.weight[i] as i128;
    }

    fn remove(&mut self, t: ThreadId) {
        let i = t as usize;
        if let Some((d, s)) = self.queued[i].take() {
            self.queue.remove(&(d, s, t));
            self.queued_wv -= self.weight[i] as i128 * self.vruntime[i] as i128;
            self.queued_w -= self.weight[i] as i128;
        }
    }

    /// Whether thread `t`'s virtual runtime `v` has reached its deadline.
    fn reached(&self, t: usize, v: i64) -> bool {
        self.to_real(t, self.deadline[t] - v) <= REACHED_NS
    }

    /// `update_deadline`: a thread that used up its slice asks for the next.
    fn renew_deadline(&mut self, t: usize) {
        if self.reached(t, self.vruntime[t]) {
            self.deadline[t] = self.vruntime[t] + self.vslice(t);
        }
    }

    /// `place_entity`: where thread `t` joins the queue.
    fn place(&mut self, t: usize) {
        let v = self.avg_vruntime();
        let vslice = self.vslice(t);
        if !self.placed[t] {
            // A new thread: lag 0, and half a slice to its first deadline
            // (PLACE_DEADLINE_INITIAL).
            self.placed[t] = true;
            self.vruntime[t] = v;
            self.deadline[t] = v + vslice / 2;
            return;
        }
        // A waking thread keeps its lag; joining with weight w makes V move
        // by lag·w / (W + w), so the lag is scaled up by (W + w) / W to be
        // what it was once it is in (PLACE_LAG).
        let (_, load) = self.sums();
        let lag = if load > 0 {
            (self.vlag[t] as i128 * (load + self.weight[t] as i128) / load) as i64
        } else {
            0
        };
        self.vruntime[t] = v - lag;
        self.deadline[t] = self.vruntime[t] + vslice;
    }

    /// `entity_lag`: V − vruntime of a thread leaving the queue, clamped to
    /// two slices or a tick, whichever is longer, in its own clock.
    fn lag_of(&self, t: usize, v_avg: i64) -> i64 {
        let limit = self.to_virtual(t, (2 * self.slice_ns).max(self.tick_ns));
        (v_avg - self.vruntime[t]).clamp(-limit, limit)
    }

    /// The waiting thread EEVDF picks for `core`: the eligible one with the
    /// earliest virtual deadline; when none is eligible, the earliest
    /// deadline (a free core does not idle while a thread it may run
    /// waits).
    fn best_for(&self, core: usize, sums: (i128, i128)) -> Option<ThreadId> {
        let mut first_allowed = None;
        for &(_, _, t) in &self.queue {
            let i = t as usize;
            if !self.may_run(i, core) {
                continue;
            }
            if self.eligible(sums, self.vruntime[i]) {
                return Some(t);
            }
            first_allowed.get_or_insert(t);
        }
        first_allowed
    }

    /// Whether running thread `r` (virtual runtime `v` now) loses its core
    /// to woken thread `w` (`check_preempt_wakeup`).
    fn wakeup_preempts(&self, r: &Running, w: ThreadId, sums: (i128, i128)) -> bool {
        let c = r.task as usize;
        let v = self.vruntime[c] + self.to_virtual(c, ns(r.ran).max(0));
        let curr_eligible = self.eligible(sums, v);
        if curr_eligible && self.run_to_parity && v < self.deadline[c] {
            return false;
        }
        let Some(best) = self.best_for(r.core, sums) else {
            return false;
        };
        if best != w || !self.eligible(sums, self.vruntime[w as usize]) {
            return false;
        }
        !(curr_eligible && self.deadline[c] < self.deadline[w as usize])
    }
}

impl Policy for Eevdf {
    fn on_instant(&mut self, now: f64) {
        self.now = now;
        self.woken.clear();
    }

    fn enqueue(&mut self, task: ThreadId, why: Enqueue, _tasks: &TaskView) {
        let t = task as usize;
        match why {
            Enqueue::Arrived => {
                self.place(t);
                self.woken.push(task);
            }
            Enqueue::Expired | Enqueue::Preempted => self.renew_deadline(t),
        }
        self.insert(task);
    }

    fn pick_next(&mut self, core: usize, _tasks: &TaskView) -> Option<ThreadId> {
        let t = match self.chosen {
            Some((c, t)) if c == core && self.queued[t as usize].is_some() => {
                self.chosen = None;
                t
            }
            _ => self.best_for(core, self.sums())?,
        };
        self.remove(t);
        let i = t as usize;
        // A thread picked past its deadline asks for a new slice first.
        self.renew_deadline(i);
        self.on_cpu.push((t, self.now));
        Some(t)
    }

    fn has_queued(&self) -> bool {
        !self.queue.is_empty()
    }

    fn time_slice(&self, task: ThreadId) -> f64 {
        let t = task as usize;
        let left_ms = self.to_real(t, self.deadline[t] - self.vruntime[t]).max(1) as f64 / 1e6;
        if self.hrtick {
            return left_ms;
        }
        // The first tick after now at which the slice is used up.
        let now = self.now;
        let next_tick = ((now + TICK_EPS_MS) / self.tick_ms).floor() + 1.0;
        let used_up = ((now + left_ms - TICK_EPS_MS) / self.tick_ms).ceil();
        next_tick.max(used_up) * self.tick_ms - now
    }

    fn on_descheduled(&mut self, task: ThreadId, ran: f64, why: Leave) {
        let t = task as usize;
        if let Some(k) = self.on_cpu.iter().position(|&(r, _)| r == task) {
            self.on_cpu.swap_remove(k);
        }
        let v_avg_before = {
            // V with this thread still counted, at its new virtual runtime
            // (the kernel computes the lag before taking it off the queue).
            self.vruntime[t] += self.to_virtual(t, ns(ran).max(0));
            let (wv, w) = self.sums();
            let w_t = self.weight[t] as i128;
            let (wv, w) = (wv + w_t * self.vruntime[t] as i128, w + w_t);
            wv.div_euclid(w) as i64
        };
        if why == Leave::Blocked {
            self.vlag[t] = self.lag_of(t, v_avg_before);
        }
        if self.on_cpu.is_empty() && self.queue.is_empty() {
            self.last_v = v_avg_before;
        }
    }

    fn is_preemptive(&self) -> bool {
        true
    }

    fn preemption_victim(&mut self, running: &[Running], _tasks: &TaskView) -> Option<usize> {
        while let Some(&w) = self.woken.first() {
            if self.queued[w as usize].is_none() {
                // A free core took it.
                self.woken.remove(0);
                continue;
            }
            let sums = self.sums();
            // The wakeup's `update_curr` on the core it lands on: a running
            // thread whose slice ran out between ticks is rescheduled.
            for (i, r) in running.iter().enumerate() {
                let c = r.task as usize;
                let v = self.vruntime[c] + self.to_virtual(c, ns(r.ran).max(0));
                if self.may_run(w as usize, r.core) && self.reached(c, v) {
                    self.woken.remove(0);
                    return Some(i);
                }
            }
            let victim = running
                .iter()
                .position(|r| self.may_run(w as usize, r.core) && self.wakeup_preempts(r, w, sums));
            self.woken.remove(0);
            if let Some(i) = victim {
                self.chosen = Some((running[i].core, w));
                return Some(i);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_the_kernels() {
        assert_eq!(weight_of(0), 1024);
        assert_eq!(weight_of(5), 335);
        assert_eq!(weight_of(-20), 88761);
        assert_eq!(weight_of(19), 15);
        // Each step is about 1.25 (10 % of CPU between two busy threads).
        for k in 1..NICE_WEIGHT.len() {
            let r = NICE_WEIGHT[k - 1] as f64 / NICE_WEIGHT[k] as f64;
            assert!((1.15..1.35).contains(&r), "step {k}: {r}");
        }
    }

    /// A thread that blocks keeps its lag and wakes at V − lag, the lag
    /// scaled by (W + w) / W (`place_entity`), worked out by hand: three
    /// nice-0 threads at t = 0 (V = 0); thread 0 runs 2 ms and blocks, so
    /// V = 2/3 ms with it still counted and its lag is −4/3 ms. Thread 1
    /// then runs 3 ms while thread 2 waits: V = (3 + 0) / 2 = 1.5 ms when
    /// thread 0 wakes, placed at 1.5 + (4/3)·(2 + 1)/2 = 3.5 ms, deadline
    /// 3.5 + 0.75 — and with it in, V = 6.5 / 3 and its lag is −4/3 again.
    #[test]
    fn a_sleeper_keeps_its_lag() {
        let machine = Machine::identical(1);
        let mut c = Eevdf::new(3, &[], &machine, EevdfParams::default());
        let zeros = [0.0; 3];
        let view = TaskView {
            arrival: &zeros,
            work: &zeros,
            remaining: &zeros,
        };
        c.on_instant(0.0);
        c.enqueue_range(0, 3, Enqueue::Arrived, &view);
        assert_eq!(c.pick_next(0, &view), Some(0));
        c.on_instant(2.0);
        c.on_descheduled(0, 2.0, Leave::Blocked);
        assert_eq!(c.vlag[0], -1_333_334, "V = 666_666 ns, rounded down");
        assert_eq!(c.pick_next(0, &view), Some(1));
        c.on_instant(5.0);
        c.on_descheduled(1, 3.0, Leave::Expired);
        c.enqueue(1, Enqueue::Expired, &view);
        c.enqueue(0, Enqueue::Arrived, &view);
        // lag·(W + w)/W = −1_333_334 · 3072 / 2048 = −2_000_001.
        assert_eq!(c.vruntime[0], 1_500_000 + 2_000_001);
        assert_eq!(c.deadline[0], c.vruntime[0] + 750_000);
        let (wv, w) = c.sums();
        let lag_after = wv.div_euclid(w) as i64 - c.vruntime[0];
        assert!((lag_after - c.vlag[0]).abs() <= 1, "{lag_after}");
    }

    #[test]
    fn base_slice_scales_with_log2_of_cpus_up_to_eight() {
        let p = EevdfParams::default();
        let got: Vec<f64> = [1, 2, 3, 4, 8, 16].map(|c| p.slice_ms(c)).to_vec();
        assert_eq!(got, vec![0.75, 1.5, 1.5, 2.25, 3.0, 3.0]);
        assert_eq!(p.tick_ms(), 4.0);
    }
}
