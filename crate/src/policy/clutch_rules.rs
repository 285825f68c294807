//! The rules and tables of XNU's Clutch scheduler that [`super::clutch`]
//! runs on: buckets, their latencies, warps and quanta, the versions whose
//! rules differ, the clutch bucket groups' interactivity score and the
//! per-group timeshare decay. Restated (not copied) from
//! `apple-oss-distributions/xnu`, `osfmk/kern/sched_clutch.c`, at the tags
//! named per item; line numbers are at xnu-7195.101.1 unless a tag is given.
//!
//! Times are in the kernel's abstime (`mach_absolute_time` ticks: 24 per µs
//! on arm64), as the source keeps them after `sched_clutch_us_to_abstime`,
//! so integer divisions round as the kernel's do.

use super::kernel_flavour::Os;
use crate::sim::GroupKind;

/// `TH_BUCKET_*`: the root buckets, most important first. A thread's bucket
/// comes from its base priority (`sched_convert_pri_to_bucket`, `:3058`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bucket {
    /// `TH_BUCKET_FIXPRI` (Above UI): fixed priority at or above 47.
    FixPri = 0,
    /// `TH_BUCKET_SHARE_FG`: base above 37 (the main thread, userInteractive).
    Fg = 1,
    /// `TH_BUCKET_SHARE_IN`: 32 to 37 (userInitiated).
    In = 2,
    /// `TH_BUCKET_SHARE_DF`: 21 to 31 (default).
    Df = 3,
    /// `TH_BUCKET_SHARE_UT`: 5 to 20 (utility).
    Ut = 4,
    /// `TH_BUCKET_SHARE_BG`: 4 and below (background, maintenance).
    Bg = 5,
}

/// How many buckets there are (`TH_BUCKET_SCHED_MAX`).
pub(crate) const BUCKETS: usize = 6;

impl Bucket {
    pub(crate) const ALL: [Bucket; BUCKETS] = [
        Bucket::FixPri,
        Bucket::Fg,
        Bucket::In,
        Bucket::Df,
        Bucket::Ut,
        Bucket::Bg,
    ];

    /// `sched_clutch_update_thread_bucket` (`:3110`): by base priority; a
    /// fixed-priority thread below 47 goes to the timeshare bucket of its
    /// priority (comment at `:3102-3106`).
    pub fn of(base_pri: u8, fixed: bool) -> Bucket {
        match base_pri {
            p if fixed && p >= crate::sim::qos::BASEPRI_FOREGROUND => Bucket::FixPri,
            p if p > 37 => Bucket::Fg,
            p if p > 31 => Bucket::In,
            p if p > 20 => Bucket::Df,
            p if p > 4 => Bucket::Ut,
            _ => Bucket::Bg,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// `sched_clutch_root_bucket_wcel_us` (`:152`): the worst-case execution
/// latency that sets a root bucket's deadline (FIXPRI has none).
pub const WCEL_US: [u64; BUCKETS] = [0, 0, 37_500, 75_000, 150_000, 250_000];
/// `sched_clutch_root_bucket_warp_us` (`:172`): how long a root bucket may
/// run ahead of an earlier deadline.
pub const WARP_US: [u64; BUCKETS] = [0, 8_000, 4_000, 2_000, 1_000, 0];
/// `sched_clutch_thread_quantum_us` under `XNU_TARGET_OS_OSX` (`:194`).
pub const QUANTUM_MACOS_US: [u64; BUCKETS] = [10_000, 10_000, 10_000, 10_000, 4_000, 2_000];
/// The same table for the other OSes (`:203`), and for every OS at
/// xnu-6153.
pub(crate) const QUANTUM_IOS_US: [u64; BUCKETS] = [10_000, 10_000, 8_000, 6_000, 4_000, 2_000];
/// `sched_clutch_bucket_group_pending_delta_us` (`:1036`): a pending
/// interval, per bucket, times the bucket's load.
pub(crate) const PENDING_DELTA_US: [u64; BUCKETS] = [0, 10_000, 37_500, 75_000, 150_000, 250_000];
/// `sched_clutch_bucket_group_interactive_pri` (`:995`): half the score's
/// range.
pub(crate) const INTERACTIVE_PRI: u64 = 8;
/// `SCHED_CLUTCH_BUCKET_GROUP_ADJUST_THRESHOLD_USECS` (`:1000`): the CPU
/// history a group keeps before scaling it down; also the most blocked time
/// one wakeup adds and the most CPU one charge adds.
pub(crate) const ADJUST_THRESHOLD_US: u64 = 500_000;
/// `SCHED_CLUTCH_BUCKET_GROUP_ADJUST_RATIO` (`:1003`).
pub(crate) const ADJUST_RATIO: u64 = 10;
/// `NRQS - 1`: the largest load a decay shift is looked up for.
pub(crate) const MAX_LOAD: u64 = 127;
/// `INT8_MAX` as a `pri_shift`: no decay, no usage charged.
pub(crate) const NO_DECAY: u32 = 127;
/// `SCHED_PRI_SHIFT_MAX`: a larger shift means no decay.
const PRI_SHIFT_MAX: u32 = 31;
/// Highest timeshare priority (`MAXPRI_USER` bounds the decay's result in
/// `sched_compute_timeshare_priority`, `priority.c:582-597`).
pub(crate) const MAX_TIMESHARE_PRI: u8 = 95;

/// The quantum table of the machine's OS.
pub(crate) fn quanta_us(os: Os) -> [u64; BUCKETS] {
    match os {
        Os::MacOs => QUANTUM_MACOS_US,
        Os::Ios => QUANTUM_IOS_US,
    }
}

/// Which xnu release's Clutch rules a run follows: they differ in the
/// thread-group boost, the starvation-avoidance window, the pending ageout
/// interval and whether the running thread competes in the selection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ClutchRules {
    /// xnu-7195.50.7 … xnu-8792.81.2 (macOS 11 – 13.2, iOS 14 – 16.3): the
    /// boost table LOW 0 / MED 2 / HIGH 4 (`sched_clutch_bucket_group_pri_boost`,
    /// 7195 `:1011-1015`, 8792 `:1018-1022`); the starvation window is the
    /// bucket's quantum divided by the cluster's CPUs (7195 `:669`, 8792
    /// `:676`); pending ageout every `delta × load` (`:1951`). The era of
    /// both studies the scenarios reproduce (macOS 11 on the M1).
    #[default]
    V7195,
    /// xnu-8796.101.5 … xnu-10063 (macOS 13.3 – 14): the boost removed
    /// (`git diff xnu-8792.81.2 xnu-8796.101.5 -- osfmk/kern/sched_clutch.c`,
    /// with the test `tests/sched_thread_group_fairness.c`); same window and
    /// ageout.
    V8796,
    /// xnu-11215.1.10 … xnu-11417.101.15 (macOS 15, iOS 18): no boost; the
    /// starvation window is one whole quantum, enforced on all CPUs of the
    /// cluster (11417 `:901`, comment `:937-943`); the running thread
    /// competes in the selection at quantum expiry
    /// (`SCHED_CLUTCH_TRAVERSE_REMOVE_CONSIDER_CURRENT`); pending ageout
    /// every `delta + load × quantum` (11417 `:2422`).
    V11215,
}

impl ClutchRules {
    pub const ALL: [ClutchRules; 3] = [ClutchRules::V7195, ClutchRules::V8796, ClutchRules::V11215];

    /// The tag number it is named by (`7195`, `8796`, `11215`).
    pub fn name(self) -> &'static str {
        match self {
            ClutchRules::V7195 => "7195",
            ClutchRules::V8796 => "8796",
            ClutchRules::V11215 => "11215",
        }
    }

    /// Accepts `7195`, `8796`, `11215`, with or without `xnu-`.
    pub fn parse(text: &str) -> Option<ClutchRules> {
        let t = text.trim();
        let t = t
            .strip_prefix("xnu-")
            .or_else(|| t.strip_prefix("XNU-"))
            .unwrap_or(t);
        ClutchRules::ALL.into_iter().find(|r| r.name() == t)
    }

    /// The clutch bucket group priority boost of a thread group of this
    /// kind: from `THREAD_GROUP_FLAGS_UI_APP` → HIGH, `_EFFICIENT` → LOW,
    /// else MED (`sched_clutch_update_tg_flags`, `osfmk/kern/thread_group.c:170-181`
    /// at 7195); none after 8792.
    pub(crate) fn boost(self, kind: GroupKind) -> u8 {
        match (self, kind) {
            (ClutchRules::V7195, GroupKind::Efficient) => 0,
            (ClutchRules::V7195, GroupKind::Normal) => 2,
            (ClutchRules::V7195, GroupKind::Ui) => 4,
            _ => 0,
        }
    }

    /// How long a starved root bucket keeps being picked once it reaches
    /// the head of the EDF order, given its quantum and its cluster's CPUs.
    pub(crate) fn starvation_window(self, quantum: u64, cluster_cpus: u64) -> u64 {
        match self {
            ClutchRules::V11215 => quantum,
            _ => quantum / cluster_cpus.max(1),
        }
    }

    /// One pending interval of a clutch bucket group (each is worth a score
    /// point), for its bucket's `delta` and `quantum` and the number of
    /// clutch buckets of that bucket in the hierarchies (`load`).
    pub(crate) fn ageout_interval(self, delta: u64, load: u64, quantum: u64) -> u64 {
        match self {
            ClutchRules::V11215 => delta + load * quantum,
            _ => delta * load,
        }
    }

    /// Whether the thread whose quantum expired competes inside the
    /// hierarchy (its bucket's deadline and warp included) instead of
    /// keeping its core while nothing queued has a higher base priority.
    pub(crate) fn running_competes(self) -> bool {
        self == ClutchRules::V11215
    }
}

/// A clutch bucket group's CPU history (`scbg_cpu_data`): CPU used and time
/// blocked, abstime.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CpuData {
    pub used: u64,
    pub blocked: u64,
}

/// `sched_clutch_bucket_group_cpu_pending_adjust` (`:1594`): CPU usage aged
/// by `intervals` pending intervals, one score point each. A division by
/// zero gives 0, as arm64's `udiv` does (the kernel does not guard it: a
/// group with no blocked time and no pending interval reaches it).
pub(crate) fn pending_adjust(used: u64, blocked: u64, intervals: u64) -> u64 {
    if blocked < used {
        let num = INTERACTIVE_PRI * blocked * used;
        let den = INTERACTIVE_PRI * blocked + used * intervals;
        num.checked_div(den).unwrap_or(0)
    } else {
        let adjust = blocked * intervals / INTERACTIVE_PRI;
        used.saturating_sub(adjust)
    }
}

/// `sched_clutch_bucket_group_cpu_adjust` (`:1621`): once used + blocked
/// reach the threshold both are divided by 10 (only recent behaviour
/// counts), then the usage is aged by the pending intervals.
pub(crate) fn cpu_adjust(cpu: CpuData, intervals: u64, threshold: u64) -> CpuData {
    if intervals == 0 && cpu.used + cpu.blocked < threshold {
        return cpu;
    }
    let (mut used, mut blocked) = (cpu.used, cpu.blocked);
    if used + blocked >= threshold {
        used /= ADJUST_RATIO;
        blocked /= ADJUST_RATIO;
    }
    CpuData {
        used: pending_adjust(used, blocked, intervals),
        blocked,
    }
}

/// `sched_clutch_interactivity_from_cpu_data` (`:1385`): 8 to 16 for a
/// group that blocks more than it runs, 0 to 8 otherwise; the previous
/// score when there is no history at all.
pub(crate) fn interactivity(cpu: CpuData, previous: u8) -> u8 {
    let (used, blocked) = (cpu.used, cpu.blocked);
    if used == 0 && blocked == 0 {
        previous
    } else if blocked > used {
        (INTERACTIVE_PRI + INTERACTIVE_PRI * (blocked - used) / blocked) as u8
    } else {
        (INTERACTIVE_PRI * blocked / used) as u8
    }
}

/// The `pri_shift` of a clutch bucket group with `run_count` runnable or
/// running threads on a machine of `avail_cpus`
/// (`sched_clutch_bucket_group_timeshare_update`, `:1741-1785`): load
/// `(run_count − 1) / processor_avail_count` (so an NCPU-wide group does
/// not decay), `sched_fixed_shift − floor(log2 load)`, no decay at load 0.
pub(crate) fn pri_shift(run_count: u64, avail_cpus: u64, fixed_shift: u32) -> u32 {
    let load = (run_count.wrapping_sub(1) / avail_cpus.max(1)).min(MAX_LOAD);
    if load == 0 {
        return NO_DECAY;
    }
    let shift = 63 - load.leading_zeros();
    match fixed_shift.checked_sub(shift) {
        Some(s) if s <= PRI_SHIFT_MAX => s,
        _ => NO_DECAY,
    }
}

/// `sched_compute_timeshare_priority` as Clutch kernels build it
/// (`priority.c:582-597` at 7195): base minus the decayed usage, between 0
/// and 95; no band limit and no floor at 4 (those belong to the pre-Clutch
/// kernels, see `super::timeshare`).
pub(crate) fn timeshare_pri(base: u8, usage: u64, pri_shift: u32) -> u8 {
    let decay = if pri_shift >= NO_DECAY {
        0
    } else {
        usage >> pri_shift
    };
    (base as i64 - decay.min(255) as i64).clamp(0, MAX_TIMESHARE_PRI as i64) as u8
}

/// One scheduler tick's aging of usage (`sched_decay_shifts[1]`: 5/8).
pub(crate) fn decay(usage: u64) -> u64 {
    (usage >> 1) + (usage >> 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_by_base_priority() {
        let of = |p| Bucket::of(p, false);
        assert_eq!(of(47), Bucket::Fg);
        assert_eq!(of(46), Bucket::Fg);
        assert_eq!(of(37), Bucket::In);
        assert_eq!(of(31), Bucket::Df);
        assert_eq!(of(20), Bucket::Ut);
        assert_eq!(of(4), Bucket::Bg);
        assert_eq!(of(0), Bucket::Bg);
        assert_eq!(Bucket::of(80, true), Bucket::FixPri);
        assert_eq!(Bucket::of(31, true), Bucket::Df);
    }

    #[test]
    fn score_of_a_new_group_and_of_a_spinner() {
        let ms = 24_000;
        let threshold = ADJUST_THRESHOLD_US * 24;
        // A new group: 500 ms blocked, nothing used → 16.
        let new = CpuData {
            used: 0,
            blocked: 500 * ms,
        };
        assert_eq!(interactivity(new, 16), 16);
        // Used as much as blocked: 8; used twice as much: 4.
        let c = CpuData {
            used: 100 * ms,
            blocked: 100 * ms,
        };
        assert_eq!(interactivity(c, 16), 8);
        let c = CpuData {
            used: 200 * ms,
            blocked: 100 * ms,
        };
        assert_eq!(interactivity(c, 16), 4);
        // A group that never blocks loses its history: blocked divides
        // down to 0, the score to 0, and once both are 0 (0/0 is 0 on
        // arm64) the score stays where it was.
        let (mut cpu, mut score) = (new, 16);
        for _ in 0..10 {
            cpu.used += 500 * ms;
            cpu = cpu_adjust(cpu, 0, threshold);
            score = interactivity(cpu, score);
        }
        assert_eq!(cpu.blocked, 0);
        assert_eq!(score, 0);
    }

    #[test]
    fn pending_intervals_raise_the_score_about_one_point_each() {
        let cpu = CpuData {
            used: 400,
            blocked: 100,
        };
        let s0 = interactivity(cpu, 0);
        let s1 = interactivity(cpu_adjust(cpu, 1, u64::MAX), 0);
        let s3 = interactivity(cpu_adjust(cpu, 3, u64::MAX), 0);
        assert_eq!(s0, 2);
        assert!(s1 > s0 && s3 > s1, "{s0} {s1} {s3}");
        assert_eq!(pending_adjust(400, 0, 0), 0, "0/0 is 0 on arm64");
    }

    #[test]
    fn decay_shift_from_the_group_load() {
        // An NCPU-wide group does not decay (8 workers on an 8-CPU M1).
        assert_eq!(pri_shift(8, 8, 18), NO_DECAY);
        assert_eq!(pri_shift(1, 2, 18), NO_DECAY);
        // 16 workers on 8 CPUs: load 1, shift 18; 101 threads on 2: load 50.
        assert_eq!(pri_shift(16, 8, 18), 18);
        assert_eq!(pri_shift(101, 2, 18), 13);
        assert_eq!(timeshare_pri(4, 1 << 30, 18), 0, "no floor at 4");
        assert_eq!(timeshare_pri(47, 5 << 13, 13), 42);
    }

    #[test]
    fn versions_differ_where_the_sources_do() {
        assert_eq!(ClutchRules::V7195.boost(GroupKind::Ui), 4);
        assert_eq!(ClutchRules::V7195.boost(GroupKind::Efficient), 0);
        assert_eq!(ClutchRules::V8796.boost(GroupKind::Ui), 0);
        assert_eq!(ClutchRules::V7195.starvation_window(48_000, 4), 12_000);
        assert_eq!(ClutchRules::V11215.starvation_window(48_000, 4), 48_000);
        assert_eq!(ClutchRules::V7195.ageout_interval(10, 3, 100), 30);
        assert_eq!(ClutchRules::V11215.ageout_interval(10, 3, 100), 310);
        assert_eq!(ClutchRules::parse("xnu-8796"), Some(ClutchRules::V8796));
        assert_eq!(ClutchRules::parse("9000"), None);
    }
}
