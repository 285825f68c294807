//! XNU's Clutch scheduler (and Edge, its form for machines with two kinds
//! of cores) as a scheduling class like the others: the kernel Apple ships
//! on Apple silicon since macOS 11 and on iOS since 13. Three levels,
//! restated from `apple-oss-distributions/xnu` `osfmk/kern/sched_clutch.c`
//! and `sched_clutch.md` (xnu-7195.101.1; `doc/scheduler/sched_clutch_edge.md`
//! at xnu-11417.101.15); line numbers at 7195 unless a tag is named, the
//! tables and version differences in [`super::clutch_rules`]:
//!
//! 1. **Root buckets** (FIXPRI, FG, IN, DF, UT, BG, by base priority), one
//!    set per cluster: the fixed-priority bucket first when its best clutch
//!    bucket is at least FG's (`sched_clutch_root_unbound_select_aboveui`,
//!    `:527`), then earliest deadline first, a deadline being when the
//!    bucket became runnable or was last picked plus its worst-case latency
//!    (0, 37.5, 75, 150, 250 ms); a more important bucket may warp ahead of
//!    an earlier deadline for 8, 4, 2, 1, 0 ms; a bucket that wins by
//!    deadline while a more important one is runnable is in starvation
//!    avoidance and keeps winning for a window (`sched_clutch_root_highest_root_bucket`,
//!    `:574-734`). Called once per pick.
//! 2. **Clutch buckets**, one per thread group (an app) and bucket (and
//!    cluster), ordered by the highest base priority of their queued
//!    threads plus the group's boost (7195 rules) plus an interactivity
//!    score from 0 to 16 (CPU used against time blocked, aged while the
//!    group waits; `sched_clutch_bucket_pri_calculate`, `:1420`); equal
//!    buckets take turns on every pick (`sched_clutch_bucket_runq_rotate`,
//!    `:460`).
//! 3. **Threads** inside a clutch bucket by `sched_pri`: the Mach timeshare
//!    decay with the group's own load (`sched_clutch_bucket_group_timeshare_update`,
//!    `:1741`), no band limit, no floor; per-bucket quanta (macOS FG/IN/DF
//!    10, UT 4, BG 2 ms; iOS IN 8, DF 6).
//!
//! At quantum expiry the running thread keeps its core unless a queued
//! thread's base priority in the hierarchy is at least its `sched_pri`
//! (`thread_select`, `sched_prim.c:2082-2090`; under the 11215 rules it
//! competes in the selection instead); a thread that becomes runnable
//! preempts the lowest running thread of its cluster if it is at least as
//! high and the cluster's root priority beats that thread (`csw_check`,
//! `:2780`: strictly during the first timeslice).
//!
//! **Edge** (`CONFIG_SCHED_EDGE`, macOS on Apple silicon): a machine with
//! both kinds of cores has one hierarchy per kind. Background and
//! maintenance prefer the efficiency cluster and never leave it (its edge
//! to P allows neither migration nor stealing, `sched_edge_init` `:3441-3451`);
//! the rest prefer P and spill to E when P's load for their bucket is
//! higher (`sched_edge_migrate_candidate` `:4132`, the load being queued
//! plus running threads at that bucket or above per CPU,
//! `sched_update_pset_load_average`); an idle E core with nothing of its
//! own steals from a loaded P cluster, an idle P core takes back threads
//! that prefer P (`sched_edge_processor_idle`, `:3885`); a thread whose
//! quantum expires on the other kind of core goes back to its preferred
//! cluster (`sched_edge_thread_avoid_processor`, `:3913`).
//!
//! Simplifications, each deliberate: no bound runqueues' EDF (a pinned
//! thread waits in its core's queue by priority and runs before the
//! hierarchy when at least as high: the scenarios pin only fixed-priority
//! system work, which the AboveUI rule runs first in xnu too); no
//! promotions, urgency or realtime; Edge's load is the instantaneous depth
//! (no EWMA, no execution-time factor: any depth difference counts as
//! beyond the edge weight 64); no rebalancing of running threads; usage and
//! group CPU are charged when a thread leaves its core and at the tick (xnu
//! charges at quantum expiry and the tick: same totals); a thread's usage
//! is aged at every tick while it has any, blocked or not (xnu ages lazily
//! on wakeup: same numbers); the warp kept across an empty bucket follows
//! the xnu-8796 fix (a never-opened warp is kept; 7195's sentinel quirk
//! changes at most one pick per empty/runnable cycle).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::clutch_rules::{
    self as rules, quanta_us, Bucket, ClutchRules, CpuData, ADJUST_THRESHOLD_US, BUCKETS, NO_DECAY,
    PENDING_DELTA_US, WARP_US, WCEL_US,
};
use super::kernel_flavour::KernelFlavour;
use super::timeshare::fixed_shift;
use crate::sim::time::SAME_INSTANT_MS as EPS;
use crate::sim::{
    CoreKind, Enqueue, Leave, Machine, Policy, Running, TaskView, ThreadId, ThreadInfo,
};

/// The scheduler tick (`sched_tick`, 8 a second): group loads, decay,
/// clutch bucket priorities.
pub(crate) const TICK_MS: f64 = 125.0;
/// The shortest quantum (background), for the up-front guard on slices.
pub(crate) const MIN_SLICE_MS: f64 = 2.0;
/// Timer events per ms of a run, for the same guard.
pub(crate) const TIMERS_PER_MS: f64 = 1.0 / TICK_MS;

/// What a Clutch class is built from besides the machine and the threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClutchParams {
    /// Which xnu release's rules (boost, starvation window, ageout).
    pub rules: ClutchRules,
}

/// A queued thread's place in its queue: highest `sched_pri` first, then
/// the ones put back at the head (preempted), then first come.
type Key = (Reverse<u8>, i64, ThreadId);

/// Where a thread is, as the class sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    /// Blocked, exited, or handed back to the loop.
    Off,
    /// In cluster `cluster`'s hierarchy.
    Queued {
        cluster: usize,
        seq: i64,
    },
    /// In core `core`'s own queue (pinned threads).
    Bound {
        core: usize,
        seq: i64,
    },
    Running {
        core: usize,
    },
    /// Its quantum expired on `core`; the next pick for that core decides
    /// whether it keeps the core.
    Expired {
        core: usize,
    },
}

#[derive(Clone, Debug)]
struct Thread {
    base: u8,
    bucket: Bucket,
    fixed: bool,
    pinned: Option<usize>,
    /// Its clutch bucket group (group × bucket).
    cbg: usize,
    /// The cluster it prefers (Edge).
    preferred: usize,
    pri: u8,
    /// `sched_usage`, abstime.
    usage: u64,
    usage_frac: f64,
    /// In [`Clutch::decaying`] (usage above zero).
    decaying: bool,
    quantum_left: Option<f64>,
    /// Time already charged in the current slice, ms.
    charged: f64,
    at: At,
}

/// A clutch bucket: one group's queued threads of one bucket on one cluster.
#[derive(Clone, Debug, Default)]
struct ClutchBucket {
    threads: BTreeSet<Key>,
    /// Queued threads per base priority, highest first.
    bases: Vec<(u8, u32)>,
    /// Its cached priority (its level in the root bucket while queued).
    pri: u8,
}

impl ClutchBucket {
    fn max_base(&self) -> u8 {
        self.bases.first().map_or(0, |b| b.0)
    }

    fn add_base(&mut self, base: u8) {
        match self.bases.iter().position(|b| b.0 <= base) {
            Some(i) if self.bases[i].0 == base => self.bases[i].1 += 1,
            Some(i) => self.bases.insert(i, (base, 1)),
            None => self.bases.push((base, 1)),
        }
    }

    fn remove_base(&mut self, base: u8) {
        if let Some(i) = self.bases.iter().position(|b| b.0 == base) {
            self.bases[i].1 -= 1;
            if self.bases[i].1 == 0 {
                self.bases.remove(i);
            }
        }
    }
}

/// A clutch bucket group (`sched_clutch_bucket_group`): what a group's
/// threads of one bucket share across clusters.
#[derive(Clone, Debug)]
struct Group {
    bucket: Bucket,
    boost: u8,
    /// Runnable or running threads.
    run_count: u64,
    /// When the run count fell to zero.
    blocked_since: Option<u64>,
    cpu: CpuData,
    /// Queued threads, and when one was last added to none or picked.
    pending: u64,
    pending_ts: Option<u64>,
    score: u8,
    score_ts: u64,
    pri_shift: u32,
    /// The tick its `pri_shift` was computed at.
    shift_tick: Option<u64>,
    /// One clutch bucket per cluster.
    buckets: Vec<ClutchBucket>,
}

/// A root bucket of one cluster.
#[derive(Clone, Debug, Default)]
struct Root {
    deadline: u64,
    warp_left: u64,
    /// When an opened warp window closes (`None`: unused).
    warped_deadline: Option<u64>,
    warp_available: bool,
    starving: bool,
    starve_ts: u64,
    /// Clutch buckets (group indices) by priority, each level in turn order.
    levels: BTreeMap<u8, VecDeque<usize>>,
}

impl Root {
    fn runnable(&self) -> bool {
        !self.levels.is_empty()
    }

    /// The first clutch bucket of the highest level.
    fn top(&self) -> Option<(u8, usize)> {
        let (&pri, level) = self.levels.last_key_value()?;
        level.front().map(|&g| (pri, g))
    }
}

/// A cluster (a processor set): its cores and its hierarchy.
#[derive(Clone, Debug)]
struct Cluster {
    cores: Vec<usize>,
    roots: Vec<Root>,
    /// Queued threads per bucket.
    queued: [u64; BUCKETS],
    /// Running threads per bucket.
    running: [u64; BUCKETS],
    /// Queued threads that prefer another cluster.
    foreign: u64,
}

impl Cluster {
    /// Edge's load for bucket `b`: threads queued or running at `b` or
    /// above, per CPU, rounded down.
    fn depth(&self, b: Bucket) -> u64 {
        let n: u64 = (0..=b.index())
            .map(|i| self.queued[i] + self.running[i])
            .sum();
        n / self.cores.len().max(1) as u64
    }

    fn highest_runnable(&self) -> Option<usize> {
        self.roots.iter().position(Root::runnable)
    }
}

/// The class's state.
#[derive(Clone, Debug)]
pub struct Clutch {
    rules: ClutchRules,
    ticks_per_ms: f64,
    quantum_ms: [f64; BUCKETS],
    quantum: [u64; BUCKETS],
    wcel: [u64; BUCKETS],
    warp: [u64; BUCKETS],
    pending_delta: [u64; BUCKETS],
    threshold: u64,
    fixed_shift: u32,
    avail_cpus: u64,
    edge: bool,
    now: u64,
    threads: Vec<Thread>,
    groups: Vec<Group>,
    clusters: Vec<Cluster>,
    cluster_of: Vec<usize>,
    /// Each core's place in the order idle cores are preferred (P first).
    rank: Vec<usize>,
    /// The thread on each core.
    on_core: Vec<Option<ThreadId>>,
    /// Pinned threads waiting for their core.
    bound: Vec<BTreeSet<Key>>,
    /// The thread whose quantum expired on each core, until its next pick.
    kept: Vec<Option<ThreadId>>,
    kept_count: usize,
    /// Clutch buckets in any hierarchy, per bucket (the pending ageout's
    /// load, `sched_clutch_global_bucket_load`).
    bucket_load: [u64; BUCKETS],
    /// Threads with usage to age at the tick.
    decaying: Vec<ThreadId>,
    /// Threads in any hierarchy or core queue.
    queued: u64,
    seq_head: i64,
    seq_tail: i64,
    ticks: u64,
    /// Threads that became runnable at this instant (they may preempt).
    arrivals: VecDeque<ThreadId>,
    /// Work not yet reported to the loop's budget ([`Policy::take_work`]).
    work: u64,
}

impl Clutch {
    /// The class for `n` threads with these attributes (one per thread;
    /// empty: all `default`, one app) on `machine`.
    pub(crate) fn new(
        n: usize,
        threads: &[ThreadInfo],
        machine: &Machine,
        params: ClutchParams,
    ) -> Clutch {
        let info = |i: usize| threads.get(i).copied().unwrap_or_default();
        let kernel = KernelFlavour::of(machine);
        let tpm = kernel.ticks_per_ms;
        let us = |v: u64| v * tpm / 1000;
        let q_us = quanta_us(kernel.os);
        // Clusters: one per kind of core when there are both (Edge).
        let p: Vec<usize> = (0..machine.cores.len())
            .filter(|&c| machine.cores[c].kind == CoreKind::Performance)
            .collect();
        let e: Vec<usize> = (0..machine.cores.len())
            .filter(|&c| machine.cores[c].kind == CoreKind::Efficiency)
            .collect();
        let edge = !p.is_empty() && !e.is_empty();
        let sets: Vec<Vec<usize>> = if edge {
            vec![p, e]
        } else {
            vec![(0..machine.cores.len().max(1)).collect()]
        };
        let mut cluster_of = vec![0; machine.cores.len().max(1)];
        for (k, cores) in sets.iter().enumerate() {
            for &c in cores {
                cluster_of[c] = k;
            }
        }
        // Each root bucket starts with its whole warp
        // (`sched_clutch_root_bucket_init`).
        let warp = WARP_US.map(us);
        let roots: Vec<Root> = warp
            .iter()
            .map(|&w| Root {
                warp_left: w,
                ..Root::default()
            })
            .collect();
        let clusters: Vec<Cluster> = sets
            .into_iter()
            .map(|cores| Cluster {
                cores,
                roots: roots.clone(),
                queued: [0; BUCKETS],
                running: [0; BUCKETS],
                foreign: 0,
            })
            .collect();
        let order = machine.preference_order();
        let mut rank = vec![0; machine.cores.len().max(1)];
        for (r, &c) in order.iter().enumerate() {
            rank[c] = r;
        }
        // Thread groups in order of first appearance.
        let mut group_ids: Vec<u32> = Vec::new();
        let mut group_kinds = Vec::new();
        let mut thread_list = Vec::with_capacity(n);
        for i in 0..n {
            let t = info(i);
            let g = match group_ids.iter().position(|&id| id == t.group.id) {
                Some(g) => g,
                None => {
                    group_ids.push(t.group.id);
                    group_kinds.push(t.group.kind);
                    group_ids.len() - 1
                }
            };
            let bucket = Bucket::of(t.base_pri, t.fixed);
            let preferred = match t.pinned {
                Some(c) => cluster_of.get(c).copied().unwrap_or(0),
                None if edge && t.qos.is_background() && !t.fixed => 1,
                None => 0,
            };
            thread_list.push(Thread {
                base: t.base_pri,
                bucket,
                fixed: t.fixed,
                pinned: t.pinned.filter(|&c| c < cluster_of.len()),
                cbg: g * BUCKETS + bucket.index(),
                preferred,
                pri: t.base_pri,
                usage: 0,
                usage_frac: 0.0,
                decaying: false,
                quantum_left: None,
                charged: 0.0,
                at: At::Off,
            });
        }
        let threshold = us(ADJUST_THRESHOLD_US);
        let groups = group_kinds
            .iter()
            .flat_map(|&kind| {
                Bucket::ALL.map(|bucket| Group {
                    bucket,
                    boost: params.rules.boost(kind),
                    run_count: 0,
                    blocked_since: None,
                    // New groups start interactive: 500 ms blocked, score 16
                    // (`sched_clutch_bucket_group_init`, `:1093-1104`).
                    cpu: CpuData {
                        used: 0,
                        blocked: threshold,
                    },
                    pending: 0,
                    pending_ts: None,
                    score: (2 * rules::INTERACTIVE_PRI) as u8,
                    score_ts: 0,
                    pri_shift: NO_DECAY,
                    shift_tick: None,
                    buckets: vec![ClutchBucket::default(); clusters.len()],
                })
            })
            .collect();
        let cores = machine.cores.len().max(1);
        Clutch {
            rules: params.rules,
            ticks_per_ms: tpm as f64,
            quantum_ms: q_us.map(|v| v as f64 / 1000.0),
            quantum: q_us.map(us),
            wcel: WCEL_US.map(us),
            warp,
            pending_delta: PENDING_DELTA_US.map(us),
            threshold,
            fixed_shift: fixed_shift(tpm),
            avail_cpus: cores as u64,
            edge,
            now: 0,
            threads: thread_list,
            groups,
            clusters,
            cluster_of,
            rank,
            on_core: vec![None; cores],
            bound: vec![BTreeSet::new(); cores],
            kept: vec![None; cores],
            kept_count: 0,
            bucket_load: [0; BUCKETS],
            decaying: Vec::new(),
            queued: 0,
            seq_head: 0,
            seq_tail: 0,
            ticks: 0,
            arrivals: VecDeque::new(),
            work: 0,
        }
    }

    fn next_seq(&mut self, head: bool) -> i64 {
        if head {
            self.seq_head -= 1;
            self.seq_head
        } else {
            self.seq_tail += 1;
            self.seq_tail
        }
    }

    fn key(&self, t: ThreadId, seq: i64) -> Key {
        (Reverse(self.threads[t as usize].pri), seq, t)
    }

    // ------------------------------------------------------------ groups

    /// `sched_clutch_bucket_group_interactivity_score_calculate` (`:1985`,
    /// Edge variant `:1985-2012`): pending ageout, the CPU history's
    /// adjustment, the score, stored only at a later time.
    fn score(&mut self, g: usize) -> u8 {
        let now = self.now;
        let grp = &self.groups[g];
        if grp.bucket == Bucket::FixPri {
            return grp.score;
        }
        let b = grp.bucket.index();
        let load = self.bucket_load[b];
        // `sched_clutch_bucket_group_pending_ageout` (`:1951`); the count is
        // a `uint8_t` in the kernel.
        let mut intervals = 0u64;
        if let Some(ts) = grp.pending_ts {
            if ts < now && load > 0 {
                let d = self
                    .rules
                    .ageout_interval(self.pending_delta[b], load, self.quantum[b]);
                if d > 0 && now - ts >= d {
                    intervals = ((now - ts) / d) as u8 as u64;
                }
            }
        }
        let threshold = self.threshold;
        let edge = self.edge;
        let grp = &mut self.groups[g];
        if intervals > 0 {
            if let Some(ts) = grp.pending_ts.as_mut() {
                *ts += intervals
                    * self
                        .rules
                        .ageout_interval(self.pending_delta[b], load, self.quantum[b]);
            }
        }
        grp.cpu = rules::cpu_adjust(grp.cpu, intervals, threshold);
        let score = rules::interactivity(grp.cpu, grp.score);
        if grp.score_ts < now {
            // On Edge the very first calculation only stamps the time.
            if !(edge && grp.score_ts == 0) {
                grp.score = score;
            }
            grp.score_ts = now;
        }
        grp.score
    }

    /// `sched_clutch_bucket_pri_calculate`: 0 when empty, else the highest
    /// base priority queued plus the boost plus the score.
    fn bucket_pri(&mut self, g: usize, k: usize) -> u8 {
        let max_base = self.groups[g].buckets[k].max_base();
        if self.groups[g].buckets[k].threads.is_empty() {
            return 0;
        }
        let score = self.score(g);
        max_base
            .saturating_add(self.groups[g].boost)
            .saturating_add(score)
    }

    /// The group's `pri_shift` from its run count, once per tick
    /// (`sched_clutch_bucket_group_timeshare_update`).
    fn update_shift(&mut self, g: usize) {
        let grp = &mut self.groups[g];
        if grp.bucket == Bucket::FixPri || grp.shift_tick == Some(self.ticks) {
            return;
        }
        grp.shift_tick = Some(self.ticks);
        grp.pri_shift = rules::pri_shift(grp.run_count, self.avail_cpus, self.fixed_shift);
    }

    fn run_count_inc(&mut self, g: usize) {
        let (now, threshold) = (self.now, self.threshold);
        let grp = &mut self.groups[g];
        if grp.run_count == 0 {
            if let Some(since) = grp.blocked_since.take() {
                if now > since {
                    grp.cpu.blocked += (now - since).min(threshold);
                }
            }
        }
        grp.run_count += 1;
    }

    fn run_count_dec(&mut self, g: usize) {
        let grp = &mut self.groups[g];
        grp.run_count = grp.run_count.saturating_sub(1);
        if grp.run_count == 0 {
            grp.blocked_since = Some(self.now);
        }
    }

    // ------------------------------------------------------------ root buckets

    /// Inserts clutch bucket (`g`, `k`) at its level: first at its level or
    /// not `head` → tail, else head (`sched_clutch_bucket_runq_enqueue`).
    fn level_insert(&mut self, g: usize, k: usize, head: bool) {
        let b = self.groups[g].bucket.index();
        let pri = self.groups[g].buckets[k].pri;
        let level = self.clusters[k].roots[b].levels.entry(pri).or_default();
        if head && !level.is_empty() {
            level.push_front(g);
        } else {
            level.push_back(g);
        }
    }

    fn level_remove(&mut self, g: usize, k: usize) {
        let b = self.groups[g].bucket.index();
        let pri = self.groups[g].buckets[k].pri;
        let root = &mut self.clusters[k].roots[b];
        if let Some(level) = root.levels.get_mut(&pri) {
            if let Some(i) = level.iter().position(|&x| x == g) {
                level.remove(i);
            }
            if level.is_empty() {
                root.levels.remove(&pri);
            }
        }
    }

    /// `sched_clutch_root_bucket_runnable` (`:786`).
    fn root_runnable(&mut self, k: usize, b: usize) {
        let (now, wcel) = (self.now, self.wcel[b]);
        let root = &mut self.clusters[k].roots[b];
        if b == Bucket::FixPri.index() {
            return;
        }
        if !root.starving {
            root.deadline = now + wcel;
        }
        root.warp_available = root.warp_left > 0;
    }

    /// `sched_clutch_root_bucket_empty` (`:824`), with xnu-8796's order of
    /// tests (an unused warp is kept).
    fn root_empty(&mut self, k: usize, b: usize) {
        let now = self.now;
        let root = &mut self.clusters[k].roots[b];
        root.warp_available = false;
        match root.warped_deadline {
            None => {}
            Some(wd) if wd > now => root.warp_left = wd - now,
            Some(_) => root.warp_left = 0,
        }
    }

    fn deadline_update(&mut self, k: usize, b: usize) {
        let d = self.now + self.wcel[b];
        let root = &mut self.clusters[k].roots[b];
        root.deadline = root.deadline.max(d);
    }

    /// `sched_clutch_root_highest_root_bucket` (`:574-734`) over cluster
    /// `k`'s unbound buckets: which root bucket the next pick comes from.
    fn highest_root(&mut self, k: usize) -> Option<usize> {
        let highest = self.clusters[k].highest_runnable()?;
        let fix = Bucket::FixPri.index();
        let fg = Bucket::Fg.index();
        {
            let roots = &self.clusters[k].roots;
            if roots[fix].runnable() {
                let above = match (roots[fix].top(), roots[fg].top()) {
                    (_, None) => true,
                    (Some((a, _)), Some((f, _))) => a >= f,
                    (None, _) => false,
                };
                if above {
                    return Some(fix);
                }
            }
        }
        let now = self.now;
        // Bounded: every pass either returns or clears a starvation mode or
        // a warp, of which there are at most five each.
        for _ in 0..4 * BUCKETS {
            let roots = &self.clusters[k].roots;
            let edf = (fg..BUCKETS)
                .filter(|&b| roots[b].runnable())
                .min_by_key(|&b| (roots[b].deadline, b))?;
            let warp = (fg..edf).find(|&b| roots[b].runnable() && roots[b].warp_available);
            match warp {
                None => {
                    if roots[edf].starving {
                        let cpus = self.clusters[k].cores.len() as u64;
                        let window = self.rules.starvation_window(self.quantum[edf], cpus);
                        if now < roots[edf].starve_ts + window {
                            return Some(edf);
                        }
                        let root = &mut self.clusters[k].roots[edf];
                        root.starving = false;
                        root.starve_ts = 0;
                        self.deadline_update(k, edf);
                        continue;
                    }
                    if highest < edf {
                        let root = &mut self.clusters[k].roots[edf];
                        root.starving = true;
                        root.starve_ts = now;
                    } else {
                        self.deadline_update(k, edf);
                        let w = self.warp[edf];
                        let root = &mut self.clusters[k].roots[edf];
                        root.warp_left = w;
                        root.warped_deadline = None;
                        root.warp_available = w > 0;
                    }
                    return Some(edf);
                }
                Some(w) => {
                    let root = &self.clusters[k].roots[w];
                    match root.warped_deadline {
                        None => {
                            let left = root.warp_left;
                            self.clusters[k].roots[w].warped_deadline = Some(now + left);
                            self.deadline_update(k, w);
                            return Some(w);
                        }
                        Some(wd) if wd > now => {
                            self.deadline_update(k, w);
                            return Some(w);
                        }
                        Some(_) => {
                            let root = &mut self.clusters[k].roots[w];
                            root.warp_left = 0;
                            root.warp_available = false;
                        }
                    }
                }
            }
        }
        Some(highest)
    }

    /// `sched_clutch_root_pri_update` (`:885`): the highest base priority
    /// queued in the most important runnable bucket's best clutch bucket
    /// (the AboveUI rule first); -1 when nothing is queued. For preemption
    /// and the keep decision only.
    fn root_priority(&self, k: usize) -> i32 {
        let roots = &self.clusters[k].roots;
        let fix = Bucket::FixPri.index();
        let pick = if roots[fix].runnable()
            && match (roots[fix].top(), roots[Bucket::Fg.index()].top()) {
                (Some((a, _)), Some((f, _))) => a >= f,
                (_, None) => true,
                _ => false,
            } {
            Some(fix)
        } else {
            (Bucket::Fg.index()..BUCKETS).find(|&b| roots[b].runnable())
        };
        match pick.and_then(|b| roots[b].top()) {
            Some((_, g)) => self.groups[g].buckets[k].max_base() as i32,
            None => -1,
        }
    }

    /// What a core's thread competes with: the hierarchy's root priority
    /// and the core's own queue of pinned threads.
    fn core_priority(&self, core: usize) -> i32 {
        let k = self.cluster_of[core];
        let bound = self.bound[core]
            .first()
            .map_or(-1, |&(Reverse(p), _, _)| p as i32);
        self.root_priority(k).max(bound)
    }

    // ------------------------------------------------------------ threads in and out

    /// Edge's placement of a thread becoming runnable
    /// (`sched_edge_migrate_candidate`): its preferred cluster unless that
    /// is loaded at the thread's bucket and the other (reachable) cluster
    /// is less so.
    fn place(&self, t: ThreadId) -> usize {
        let th = &self.threads[t as usize];
        let p = th.preferred;
        if !self.edge || p != 0 {
            return p;
        }
        let load = |k: usize| self.clusters[k].depth(th.bucket);
        let pl = load(0);
        if pl == 0 {
            return 0;
        }
        if load(1) < pl {
            1
        } else {
            0
        }
    }

    /// `sched_clutch_thread_insert`: into cluster `k`'s hierarchy.
    fn insert(&mut self, t: ThreadId, k: usize, head: bool) {
        let seq = self.next_seq(head);
        let key = self.key(t, seq);
        let (g, base, bucket, preferred) = {
            let th = &self.threads[t as usize];
            (th.cbg, th.base, th.bucket, th.preferred)
        };
        self.threads[t as usize].at = At::Queued { cluster: k, seq };
        let b = bucket.index();
        let cl = &mut self.clusters[k];
        cl.queued[b] += 1;
        if preferred != k {
            cl.foreign += 1;
        }
        self.queued += 1;
        let grp = &mut self.groups[g];
        if grp.pending == 0 {
            grp.pending_ts = Some(self.now);
        }
        grp.pending += 1;
        let cb = &mut grp.buckets[k];
        let was_empty = cb.threads.is_empty();
        cb.threads.insert(key);
        cb.add_base(base);
        if was_empty {
            // `sched_clutch_bucket_runnable`: priority, hierarchy insert,
            // then the group's timeshare update (which recomputes it).
            self.groups[g].buckets[k].pri = self.bucket_pri(g, k);
            if !self.clusters[k].roots[b].runnable() {
                self.root_runnable(k, b);
            }
            self.level_insert(g, k, head);
            self.bucket_load[b] += 1;
            self.update_shift(g);
            self.bucket_update(g, k, false, false);
        } else {
            self.bucket_update(g, k, head, false);
        }
    }

    /// `sched_clutch_bucket_update`: a clutch bucket whose priority changed
    /// moves to its new level; an unchanged one rotates to the tail of its
    /// level when a thread was just picked from it.
    fn bucket_update(&mut self, g: usize, k: usize, head: bool, rotate: bool) {
        let new = self.bucket_pri(g, k);
        let old = self.groups[g].buckets[k].pri;
        if new == old {
            if rotate {
                let b = self.groups[g].bucket.index();
                if let Some(level) = self.clusters[k].roots[b].levels.get_mut(&old) {
                    if let Some(i) = level.iter().position(|&x| x == g) {
                        level.remove(i);
                        level.push_back(g);
                    }
                }
            }
            return;
        }
        self.level_remove(g, k);
        self.groups[g].buckets[k].pri = new;
        self.level_insert(g, k, head && !rotate);
    }

    /// `sched_clutch_thread_remove`: out of cluster `k`'s hierarchy.
    fn remove(&mut self, t: ThreadId, k: usize, seq: i64) {
        let key = self.key(t, seq);
        let (g, base, bucket, preferred) = {
            let th = &self.threads[t as usize];
            (th.cbg, th.base, th.bucket, th.preferred)
        };
        self.threads[t as usize].at = At::Off;
        let b = bucket.index();
        let cl = &mut self.clusters[k];
        cl.queued[b] -= 1;
        if preferred != k {
            cl.foreign -= 1;
        }
        self.queued -= 1;
        let now = self.now;
        let grp = &mut self.groups[g];
        grp.pending -= 1;
        grp.pending_ts = (grp.pending > 0).then_some(now);
        let cb = &mut grp.buckets[k];
        cb.threads.remove(&key);
        cb.remove_base(base);
        if cb.threads.is_empty() {
            self.level_remove(g, k);
            self.groups[g].buckets[k].pri = 0;
            if !self.clusters[k].roots[b].runnable() {
                self.root_empty(k, b);
            }
            self.bucket_load[b] -= 1;
        } else {
            self.bucket_update(g, k, false, true);
        }
    }

    /// Takes `t` out of whatever queue it is in.
    fn dequeue(&mut self, t: ThreadId) {
        match self.threads[t as usize].at {
            At::Queued { cluster, seq } => self.remove(t, cluster, seq),
            At::Bound { core, seq } => {
                let key = self.key(t, seq);
                self.bound[core].remove(&key);
                self.queued -= 1;
                self.threads[t as usize].at = At::Off;
            }
            _ => {}
        }
    }

    /// Makes `t` runnable: its core's own queue if pinned, else a
    /// hierarchy (placed by Edge, or `cluster` when given).
    fn make_runnable(&mut self, t: ThreadId, head: bool, cluster: Option<usize>) {
        if let Some(core) = self.threads[t as usize].pinned {
            let seq = self.next_seq(head);
            let key = self.key(t, seq);
            self.bound[core].insert(key);
            self.queued += 1;
            self.threads[t as usize].at = At::Bound { core, seq };
            return;
        }
        let k = cluster.unwrap_or_else(|| self.place(t));
        self.insert(t, k, head);
    }

    /// The next thread of cluster `k`'s hierarchy, removed from it.
    fn select(&mut self, k: usize) -> Option<ThreadId> {
        let b = self.highest_root(k)?;
        let (_, g) = self.clusters[k].roots[b].top()?;
        let &(_, seq, t) = self.groups[g].buckets[k].threads.first()?;
        self.remove(t, k, seq);
        Some(t)
    }

    /// An idle P core's first resort (`sched_edge_foreign_runnable_thread_remove`):
    /// the highest queued thread on another cluster that prefers this one.
    fn take_foreign(&mut self, k: usize) -> Option<ThreadId> {
        let mut best: Option<(u8, Reverse<i64>, ThreadId, usize)> = None;
        for (other, cl) in self.clusters.iter().enumerate() {
            if other == k || cl.foreign == 0 {
                continue;
            }
            for g in &self.groups {
                for &(Reverse(pri), seq, t) in &g.buckets[other].threads {
                    if self.threads[t as usize].preferred == k
                        && best.is_none_or(|(bp, bs, _, _)| (pri, Reverse(seq)) > (bp, bs))
                    {
                        best = Some((pri, Reverse(seq), t, other));
                    }
                }
            }
        }
        let (_, Reverse(seq), t, other) = best?;
        self.remove(t, other, seq);
        Some(t)
    }

    /// An idle E core's last resort (`sched_edge_steal_thread`): a pick
    /// from a cluster whose edge to this one allows stealing (P → E) and
    /// whose load at its best bucket is above the edge's weight.
    fn steal(&mut self, k: usize) -> Option<ThreadId> {
        if !self.edge || k != 1 {
            return None;
        }
        let b = self.clusters[0].highest_runnable()?;
        if self.clusters[0].depth(Bucket::ALL[b]) == 0 {
            return None;
        }
        self.select(0)
    }

    /// The pick for a core with no kept thread: its pinned threads when at
    /// least as high as the hierarchy, else the hierarchy, else Edge's idle
    /// steps.
    fn pick(&mut self, core: usize) -> Option<ThreadId> {
        let k = self.cluster_of[core];
        if let Some(&(Reverse(bp), seq, t)) = self.bound[core].first() {
            if bp as i32 >= self.root_priority(k) {
                let key = (Reverse(bp), seq, t);
                self.bound[core].remove(&key);
                self.queued -= 1;
                self.threads[t as usize].at = At::Off;
                return Some(t);
            }
        }
        if let Some(t) = self.select(k) {
            return Some(t);
        }
        if k == 0 && self.edge {
            return self.take_foreign(k);
        }
        self.steal(k)
    }

    // ------------------------------------------------------------ usage

    /// Charges `t` the time it ran up to `ran` ms into its slice: usage
    /// while its group is contended, CPU to its group (`sched_clutch_cpu_usage_update`,
    /// at most 500 ms a charge; fixed priority groups are not charged).
    fn charge_to(&mut self, t: usize, ran: f64) {
        let dt = ran - self.threads[t].charged;
        self.threads[t].charged = ran;
        if dt <= 0.0 || self.threads[t].fixed {
            return;
        }
        let g = self.threads[t].cbg;
        let shift = self.groups[g].pri_shift;
        let exact = dt * self.ticks_per_ms + self.threads[t].usage_frac;
        let whole = exact.floor();
        let th = &mut self.threads[t];
        th.usage_frac = exact - whole;
        let ticks = whole as u64;
        if shift < NO_DECAY {
            th.usage += ticks;
            if th.usage > 0 && !th.decaying {
                th.decaying = true;
                self.decaying.push(t as ThreadId);
            }
        }
        let grp = &mut self.groups[g];
        if grp.bucket != Bucket::FixPri {
            grp.cpu.used += ticks.min(self.threshold);
        }
    }

    /// `sched_pri` from usage and the group's shift (fixed: the base).
    fn compute_pri(&self, t: usize) -> u8 {
        let th = &self.threads[t];
        if th.fixed {
            return th.base;
        }
        rules::timeshare_pri(th.base, th.usage, self.groups[th.cbg].pri_shift)
    }

    /// Sets `t`'s priority, moving it within its queue.
    fn set_pri(&mut self, t: ThreadId, pri: u8) {
        let old = self.threads[t as usize].pri;
        if old == pri {
            return;
        }
        match self.threads[t as usize].at {
            At::Queued { cluster, seq } => {
                let g = self.threads[t as usize].cbg;
                let set = &mut self.groups[g].buckets[cluster].threads;
                set.remove(&(Reverse(old), seq, t));
                set.insert((Reverse(pri), seq, t));
            }
            At::Bound { core, seq } => {
                self.bound[core].remove(&(Reverse(old), seq, t));
                self.bound[core].insert((Reverse(pri), seq, t));
            }
            _ => {}
        }
        self.threads[t as usize].pri = pri;
    }

    fn set_running(&mut self, t: ThreadId, core: usize) {
        let k = self.cluster_of[core];
        let b = self.threads[t as usize].bucket.index();
        self.clusters[k].running[b] += 1;
        self.on_core[core] = Some(t);
        let th = &mut self.threads[t as usize];
        th.at = At::Running { core };
        th.charged = 0.0;
    }

    fn clear_running(&mut self, t: ThreadId, core: usize) {
        let k = self.cluster_of[core];
        let b = self.threads[t as usize].bucket.index();
        self.clusters[k].running[b] = self.clusters[k].running[b].saturating_sub(1);
        if self.on_core[core] == Some(t) {
            self.on_core[core] = None;
        }
    }

    /// The scheduler tick: group shifts, usage aging and priorities, clutch
    /// bucket priorities (where pending ageout reaches starved groups).
    fn tick(&mut self) {
        self.ticks += 1;
        let mut work = self.decaying.len() as u64;
        for g in 0..self.groups.len() {
            if self.groups[g].run_count > 0 {
                self.update_shift(g);
                work += 1;
            }
        }
        let mut i = 0;
        while i < self.decaying.len() {
            let t = self.decaying[i];
            let th = &mut self.threads[t as usize];
            th.usage = rules::decay(th.usage);
            if th.usage == 0 {
                th.decaying = false;
                self.decaying.swap_remove(i);
            } else {
                i += 1;
            }
            let pri = self.compute_pri(t as usize);
            self.set_pri(t, pri);
        }
        for g in 0..self.groups.len() {
            for k in 0..self.clusters.len() {
                if !self.groups[g].buckets[k].threads.is_empty() {
                    self.bucket_update(g, k, false, false);
                }
            }
        }
        self.work += work + self.groups.len() as u64;
    }

    /// Whether queued `t` may take `core` from its thread now
    /// (`processor_setrun` then `csw_check`).
    fn preempts(&self, t: ThreadId, r: &Running) -> bool {
        let th = &self.threads[t as usize];
        let cur = self.threads[r.task as usize].pri as i32;
        let pri = th.pri as i32;
        // A decayed timeshare thread does not interrupt (`:3887-3898`).
        if pri < cur || (!th.fixed && th.pri < th.base) {
            return false;
        }
        let q = self.core_priority(r.core);
        if r.first_timeslice {
            q > cur
        } else {
            q >= cur
        }
    }
}

impl Policy for Clutch {
    fn on_instant(&mut self, now: f64) {
        let t = (now * self.ticks_per_ms).round().max(0.0) as u64;
        if t > self.now {
            self.now = t;
            self.arrivals.clear();
        }
    }

    fn enqueue(&mut self, task: ThreadId, why: Enqueue, _tasks: &TaskView) {
        match why {
            Enqueue::Arrived => {
                let g = self.threads[task as usize].cbg;
                self.run_count_inc(g);
                self.threads[task as usize].quantum_left = None;
                self.make_runnable(task, false, None);
                self.arrivals.push_back(task);
            }
            Enqueue::Preempted => self.make_runnable(task, true, None),
            Enqueue::Expired => match self.threads[task as usize].at {
                At::Expired { core } => {
                    self.kept[core] = Some(task);
                    self.kept_count += 1;
                }
                // Not expired on a core (cannot happen): queue it.
                _ => self.make_runnable(task, false, None),
            },
        }
    }

    fn pick_next(&mut self, core: usize, _tasks: &TaskView) -> Option<ThreadId> {
        let k = self.cluster_of.get(core).copied().unwrap_or(0);
        let picked = match self.kept[core].take() {
            Some(t) => {
                self.kept_count -= 1;
                self.threads[t as usize].at = At::Off;
                let th = &self.threads[t as usize];
                let foreign = self.edge && th.preferred != k && th.pinned.is_none();
                if foreign {
                    // Edge sends it back to its preferred cluster
                    // (`sched_edge_thread_avoid_processor`).
                    let home = th.preferred;
                    self.make_runnable(t, false, Some(home));
                    self.pick(core)
                } else if self.rules.running_competes() {
                    self.make_runnable(t, false, Some(k));
                    self.pick(core)
                } else if self.core_priority(core) < th.pri as i32 {
                    Some(t)
                } else {
                    let next = self.pick(core);
                    // Put back after the switch, at the tail, where Edge
                    // places it (`thread_dispatch` → `thread_setrun`).
                    self.make_runnable(t, false, None);
                    match next {
                        Some(n) => Some(n),
                        None => {
                            self.dequeue(t);
                            Some(t)
                        }
                    }
                }
            }
            None => self.pick(core),
        };
        let t = picked?;
        self.set_running(t, core);
        Some(t)
    }

    fn has_queued(&self) -> bool {
        self.queued > 0 || self.kept_count > 0
    }

    fn time_slice(&self, task: ThreadId) -> f64 {
        let th = &self.threads[task as usize];
        th.quantum_left
            .unwrap_or(self.quantum_ms[th.bucket.index()])
    }

    fn on_descheduled(&mut self, task: ThreadId, ran: f64, why: Leave) {
        let t = task as usize;
        self.charge_to(t, ran);
        self.threads[t].charged = 0.0;
        let core = match self.threads[t].at {
            At::Running { core } => Some(core),
            _ => None,
        };
        if let Some(c) = core {
            self.clear_running(task, c);
        }
        match why {
            Leave::Expired => {
                // `thread_quantum_expire` → `lightweight_update_priority`.
                self.threads[t].quantum_left = None;
                let pri = self.compute_pri(t);
                self.threads[t].pri = pri;
                self.threads[t].at = match core {
                    Some(core) => At::Expired { core },
                    None => At::Off,
                };
            }
            Leave::Preempted => {
                let left = self.time_slice(task) - ran;
                self.threads[t].quantum_left = (left > EPS).then_some(left);
                self.threads[t].at = At::Off;
            }
            Leave::Done | Leave::Blocked => {
                self.threads[t].quantum_left = None;
                self.threads[t].at = At::Off;
                let g = self.threads[t].cbg;
                self.run_count_dec(g);
            }
        }
    }

    fn is_preemptive(&self) -> bool {
        true
    }

    fn preemptions_per_instant(&self, cores: usize) -> usize {
        4 * cores + 8
    }

    fn preemption_victim(&mut self, running: &[Running], _tasks: &TaskView) -> Option<usize> {
        let mut examined = 0u64;
        let mut found = None;
        while let Some(t) = self.arrivals.pop_front() {
            let cluster = match self.threads[t as usize].at {
                At::Queued { cluster, .. } => Some(cluster),
                At::Bound { core, .. } => {
                    // A pinned thread may only take its own core.
                    let i = running.iter().position(|r| r.core == core);
                    if let Some(i) = i {
                        if self.preempts(t, &running[i]) {
                            found = Some(i);
                            break;
                        }
                    }
                    continue;
                }
                _ => None,
            };
            let Some(k) = cluster else { continue };
            // `processor_setrun`: the cluster's lowest running thread (P
            // cores first among equals).
            let target = running
                .iter()
                .enumerate()
                .filter(|(_, r)| self.cluster_of.get(r.core) == Some(&k))
                .min_by_key(|(_, r)| {
                    (
                        self.threads[r.task as usize].pri,
                        self.rank.get(r.core).copied().unwrap_or(r.core),
                    )
                });
            examined += running.len() as u64;
            if let Some((i, r)) = target {
                if self.preempts(t, r) {
                    found = Some(i);
                    break;
                }
            }
        }
        self.work += examined;
        found
    }

    fn next_timer(&self) -> Option<f64> {
        Some((self.ticks + 1) as f64 * TICK_MS)
    }

    fn on_timer(&mut self, now: f64, running: &[Running]) {
        for r in running {
            self.charge_to(r.task as usize, r.ran);
        }
        if (self.ticks + 1) as f64 * TICK_MS <= now {
            self.tick();
            for r in running {
                let pri = self.compute_pri(r.task as usize);
                self.threads[r.task as usize].pri = pri;
            }
        }
    }

    /// A quantum expires in the timer interrupt of its own core, before a
    /// wakeup at the same instant reaches the run queue.
    fn expired_first(&self) -> bool {
        true
    }

    fn priority(&self, task: ThreadId) -> Option<u8> {
        Some(self.threads[task as usize].pri)
    }

    fn take_work(&mut self) -> u64 {
        std::mem::take(&mut self.work)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{GroupKind, Qos, ThreadGroup};

    fn info(qos: Qos, group: u32, kind: GroupKind) -> ThreadInfo {
        ThreadInfo {
            group: ThreadGroup { id: group, kind },
            ..ThreadInfo::of_qos(qos)
        }
    }

    #[test]
    fn quanta_follow_the_machine_os() {
        let threads = [
            ThreadInfo::of_qos(Qos::UserInitiated),
            ThreadInfo::of_qos(Qos::Default),
            ThreadInfo::of_qos(Qos::Background),
        ];
        let mac = Clutch::new(3, &threads, &Machine::m1(0.3), ClutchParams::default());
        let ios = Clutch::new(3, &threads, &Machine::a10(), ClutchParams::default());
        assert_eq!([0, 1, 2].map(|t| mac.time_slice(t)), [10.0, 10.0, 2.0]);
        assert_eq!([0, 1, 2].map(|t| ios.time_slice(t)), [8.0, 6.0, 2.0]);
    }

    #[test]
    fn background_prefers_the_efficiency_cluster() {
        let threads = [
            info(Qos::Background, 0, GroupKind::Normal),
            info(Qos::Utility, 0, GroupKind::Normal),
        ];
        let c = Clutch::new(2, &threads, &Machine::m1(0.3), ClutchParams::default());
        assert_eq!(c.threads[0].preferred, 1);
        assert_eq!(c.threads[1].preferred, 0);
        let one = Clutch::new(2, &threads, &Machine::identical(4), ClutchParams::default());
        assert_eq!(one.threads[0].preferred, 0);
        assert_eq!(one.clusters.len(), 1);
    }

    #[test]
    fn a_new_group_scores_16_and_boosts_by_its_kind() {
        let threads = [
            info(Qos::Utility, 0, GroupKind::Ui),
            info(Qos::Utility, 1, GroupKind::Efficient),
        ];
        let mut c = Clutch::new(2, &threads, &Machine::identical(1), ClutchParams::default());
        c.on_instant(1.0);
        let view = TaskView {
            arrival: &[0.0, 0.0],
            work: &[1.0, 1.0],
            remaining: &[1.0, 1.0],
        };
        c.enqueue(0, Enqueue::Arrived, &view);
        c.enqueue(1, Enqueue::Arrived, &view);
        let (g0, g1) = (c.threads[0].cbg, c.threads[1].cbg);
        assert_eq!(c.groups[g0].buckets[0].pri, 20 + 4 + 16);
        assert_eq!(c.groups[g1].buckets[0].pri, 20 + 16);
        // The boosted group is picked first.
        assert_eq!(c.pick_next(0, &view), Some(0));
    }
}
