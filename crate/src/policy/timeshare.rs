//! The XNU "Mach timeshare" policy of the pre-Clutch schedulers (the
//! single run queue / dualq kernels of iOS ≤ 12 and Intel macOS), as far as
//! it decides who runs in the scenarios. Re-derived from the xnu sources
//! (apple-oss-distributions/xnu), not copied:
//!
//! - `osfmk/kern/priority.c`: `sched_compute_timeshare_priority` (the decay
//!   and its band limit), `lightweight_update_priority` (usage charged on
//!   quantum expiry, only while contended), `update_priority` (5/8 decay per
//!   tick via `sched_decay_shifts`), `sched_update_thread_bucket` (buckets by
//!   base priority);
//! - `osfmk/kern/sched_average.c`: `compute_sched_load` (per-bucket load
//!   every `sched_load_compute_interval_us` = 15 ms, lower buckets adding
//!   capped load to higher ones, EWMA `(6*old + 10*new)/16`) and
//!   `compute_averages` (per-bucket `pri_shift` at each scheduler tick);
//! - `osfmk/kern/sched_prim.c`: `load_shift_init` (`sched_load_shifts[n] =
//!   floor(log2 n)`), `sched_timeshare_timebase_init` (`sched_fixed_shift`
//!   from the 125 ms tick; 18 on a 24 MHz timebase), quanta (10 ms,
//!   background 2.5 ms);
//! - `osfmk/kern/sched.h`: `SCHED_TICK_SHIFT` (8 ticks a second),
//!   BASEPRI_* constants, `MAXPRI_THROTTLE`.
//!
//! Simplifications (each also noted where it is made):
//! - every thread is aged at every tick (xnu ages lazily, on wakeup or when
//!   a run-queue scan finds a stale `sched_stamp`; same numbers, except that
//!   xnu clears the usage of a thread blocked for 32 ticks, which 5/8^32
//!   makes immaterial);
//! - usage is charged continuously while a thread runs, with its current
//!   `pri_shift` deciding whether the system is contended (xnu charges in
//!   lumps at quantum expiry and at the tick, using the previous window's
//!   `pri_shift`);
//! - no SMT bonus, no fail-safe demotion, no priority depression, no
//!   `sched_decay_usage_age_factor`;
//! - the load counts every core as one `processor_avail_count` (on M1 that
//!   is 8, as a non-Clutch kernel would see it).

use crate::sim::qos::BASEPRI_FOREGROUND;
use crate::sim::ThreadInfo;

/// Scheduler tick: one second >> SCHED_TICK_SHIFT (3).
pub(crate) const TICK_MS: f64 = 125.0;
/// `sched_load_compute_interval_us`.
pub(crate) const LOAD_SAMPLE_MS: f64 = 15.0;
/// `std_quantum_us` (default_preemption_rate 100/s).
pub(crate) const QUANTUM_MS: f64 = 10.0;
/// `bg_quantum_us` (default_bg_preemption_rate 400/s).
pub(crate) const BG_QUANTUM_MS: f64 = 2.5;
/// `DEFAULT_DECAY_BAND_LIMIT`: (BASEPRI_FOREGROUND − BASEPRI_DEFAULT) + 2.
pub const BAND_LIMIT: u8 = 18;
/// No priority drops below this for an app's threads (priority.c clamps to
/// MAXPRI_THROTTLE when the task's max priority is above it).
pub const MAXPRI_THROTTLE: u8 = 4;
const BASEPRI_DEFAULT: u8 = 31;
const BASEPRI_UTILITY: u8 = 20;
/// `pri_shift` meaning "no contention: do not decay, do not charge".
const NO_DECAY: u32 = 127;
/// `MAX_LOAD` = NRQS − 1.
const MAX_LOAD: u32 = 127;

/// The timeshare buckets of `sched_update_thread_bucket`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bucket {
    /// Fixed priority (not timeshare): not part of the load.
    Fixed,
    /// base > 31: userInteractive, userInitiated, the main thread.
    Foreground,
    /// 20 < base ≤ 31.
    Default,
    /// 4 < base ≤ 20.
    Utility,
    /// base ≤ 4.
    Background,
}

impl Bucket {
    fn of(base_pri: u8, fixed: bool) -> Bucket {
        match base_pri {
            _ if fixed => Bucket::Fixed,
            b if b > BASEPRI_DEFAULT => Bucket::Foreground,
            b if b > BASEPRI_UTILITY => Bucket::Default,
            b if b > MAXPRI_THROTTLE => Bucket::Utility,
            _ => Bucket::Background,
        }
    }

    fn index(self) -> Option<usize> {
        match self {
            Bucket::Fixed => None,
            Bucket::Foreground => Some(0),
            Bucket::Default => Some(1),
            Bucket::Utility => Some(2),
            Bucket::Background => Some(3),
        }
    }
}

#[derive(Clone, Debug)]
struct ThreadState {
    base: u8,
    bucket: Bucket,
    background: bool,
    /// `sched_usage`, in timebase ticks.
    usage: u64,
    /// Sub-tick remainder of charged time, so that many short charges add
    /// up exactly.
    usage_frac: f64,
    pri_shift: u32,
    pri: u8,
}

/// The policy's state: per-thread usage and priority, per-bucket load.
#[derive(Clone, Debug)]
pub(crate) struct Timeshare {
    threads: Vec<ThreadState>,
    band_limit: bool,
    ticks_per_ms: f64,
    ncpus: u32,
    fixed_shift: u32,
    /// `sched_load`, EWMA scaled by 16, per bucket (FG, DF, UT, BG).
    load: [u32; 4],
    pri_shifts: [u32; 4],
}

impl Timeshare {
    /// The model for `threads` on `ncpus` cores with this timebase, with
    /// or without the decay band limit.
    pub(crate) fn new(
        threads: impl Iterator<Item = ThreadInfo>,
        ncpus: usize,
        ticks_per_ms: u64,
        band_limit: bool,
    ) -> Self {
        let threads = threads
            .map(|t| ThreadState {
                base: t.base_pri,
                bucket: Bucket::of(t.base_pri, t.fixed),
                background: t.qos.is_background() && !t.fixed,
                usage: 0,
                usage_frac: 0.0,
                pri_shift: NO_DECAY,
                pri: t.base_pri,
            })
            .collect();
        Timeshare {
            threads,
            band_limit,
            ticks_per_ms: ticks_per_ms as f64,
            ncpus: ncpus.max(1) as u32,
            fixed_shift: fixed_shift(ticks_per_ms),
            load: [0; 4],
            pri_shifts: [NO_DECAY; 4],
        }
    }

    /// `sched_compute_timeshare_priority` with this policy's band-limit
    /// setting.
    fn compute(&self, t: usize) -> u8 {
        let th = &self.threads[t];
        if th.bucket == Bucket::Fixed {
            return th.base;
        }
        let mut decay = if th.pri_shift >= NO_DECAY {
            0
        } else {
            th.usage >> th.pri_shift
        };
        if self.band_limit {
            let limit = BAND_LIMIT as u64 + th.base.saturating_sub(BASEPRI_FOREGROUND) as u64;
            decay = decay.min(limit);
        }
        let pri = th.base as i64 - decay.min(255) as i64;
        pri.max(MAXPRI_THROTTLE as i64) as u8
    }
}

/// `sched_fixed_shift`: the number of halvings that bring 5/3 of a tick's
/// worth of timebase ticks down to at most BASEPRI_DEFAULT (31). A thread
/// that ran flat out for long has usage ≈ tick / (1 − 5/8) = 8/3 tick,
/// so at load 1 (no load shift) it decays by roughly 31..62 levels.
pub(crate) fn fixed_shift(ticks_per_ms: u64) -> u32 {
    let mut v = (TICK_MS as u64 * ticks_per_ms) * 5 / 3;
    let mut shift = 0;
    while v > BASEPRI_DEFAULT as u64 {
        v >>= 1;
        shift += 1;
    }
    shift
}

/// `sched_load_shifts[load]`: floor(log2 load) for load ≥ 1 (default
/// `sched_decay_penalty` 1); load 0 means no decay at all.
fn load_shift(load: u32) -> Option<u32> {
    (load > 0).then(|| 31 - load.leading_zeros())
}

/// What the XNU class ([`super::xnu`]) asks of the priority model.
impl Timeshare {
    /// The thread's current scheduling priority (higher runs first).
    pub(crate) fn sched_pri(&self, t: usize) -> u8 {
        self.threads[t].pri
    }

    pub(crate) fn quantum_ms(&self, t: usize) -> f64 {
        if self.threads[t].background {
            BG_QUANTUM_MS
        } else {
            QUANTUM_MS
        }
    }

    /// Usage grows only while the thread's bucket is contended
    /// (`pri_shift < INT8_MAX`), as in `lightweight_update_priority`.
    pub(crate) fn charge(&mut self, t: usize, ms: f64) {
        let ticks_per_ms = self.ticks_per_ms;
        let th = &mut self.threads[t];
        if th.bucket == Bucket::Fixed || th.pri_shift >= NO_DECAY {
            return;
        }
        let exact = ms * ticks_per_ms + th.usage_frac;
        let whole = exact.floor();
        th.usage += whole as u64;
        th.usage_frac = exact - whole;
    }

    /// Quantum expiry recomputes the running thread's priority
    /// (`thread_quantum_expire` → `lightweight_update_priority`).
    pub(crate) fn quantum_expired(&mut self, t: usize) {
        self.threads[t].pri = self.compute(t);
    }

    /// `compute_sched_load`: `runnable[t]` says whether thread `t` is
    /// runnable or running (what `sched_run_buckets` counts).
    pub(crate) fn sample_load(&mut self, runnable: &[bool]) {
        let mut now = [0u32; 4];
        for (th, _) in self.threads.iter().zip(runnable).filter(|(_, &r)| r) {
            if let Some(b) = th.bucket.index() {
                now[b] += 1;
            }
        }
        let n = self.ncpus;
        let [fg, df, ut, bg] = now;
        // Default threads add up to 2·ncpus to foreground's load; utility
        // up to ncpus to foreground and default; any background adds one to
        // each bucket above it.
        let mut load = [fg + df.min(2 * n), df, ut, bg];
        load[0] += ut.min(n);
        load[1] += ut.min(n);
        if bg > 0 {
            for l in &mut load[..3] {
                *l += 1;
            }
        }
        for (avg, l) in self.load.iter_mut().zip(load) {
            // Per-CPU load, zero while there is at most one thread per CPU.
            let per_cpu = if l > n {
                (if n > 1 { l / n } else { l }).min(MAX_LOAD)
            } else {
                0
            };
            *avg = (*avg * 6 + (per_cpu << 4) * 10) >> 4;
        }
    }

    /// The scheduler tick: `compute_averages` turns the smoothed load into
    /// a `pri_shift` per bucket, then every thread is aged by 5/8 (the
    /// one-tick entry of `sched_decay_shifts`: `(u >> 1) + (u >> 3)`), takes
    /// its bucket's new `pri_shift` and gets its priority recomputed
    /// (`update_priority`). Simplification: all threads at once, see the
    /// module doc.
    pub(crate) fn tick(&mut self) {
        for (b, &avg) in self.load.iter().enumerate() {
            // SCHED_LOAD_EWMA_UNSCALE: divide by 16, rounding half up.
            let load = (avg >> 4) + ((avg >> 3) & 1);
            self.pri_shifts[b] = match load_shift(load.min(MAX_LOAD)) {
                Some(s) if s <= self.fixed_shift => self.fixed_shift - s,
                _ => NO_DECAY,
            };
        }
        for t in 0..self.threads.len() {
            let th = &mut self.threads[t];
            let Some(b) = th.bucket.index() else { continue };
            th.usage = (th.usage >> 1) + (th.usage >> 3);
            th.pri_shift = self.pri_shifts[b];
            self.threads[t].pri = self.compute(t);
        }
    }

    /// `csw_check`: during its first timeslice a running thread yields only
    /// to a strictly higher priority; after its quantum expired (and it
    /// kept the core), an equal one is enough.
    pub(crate) fn preempts(&self, candidate: u8, running: u8, first_timeslice: bool) -> bool {
        candidate > running || (!first_timeslice && candidate == running)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_shift_matches_xnu_timebases() {
        assert_eq!(fixed_shift(24_000), 18);
        assert_eq!(fixed_shift(1_000_000), 23);
    }

    #[test]
    fn load_shift_is_floor_log2() {
        assert_eq!(load_shift(0), None);
        assert_eq!(load_shift(1), Some(0));
        assert_eq!(load_shift(3), Some(1));
        assert_eq!(load_shift(4), Some(2));
        assert_eq!(load_shift(50), Some(5));
    }

    #[test]
    fn main_thread_floor_is_29_with_the_band_limit() {
        let main = ThreadInfo {
            base_pri: BASEPRI_FOREGROUND,
            ..ThreadInfo::of_qos(crate::sim::Qos::UserInteractive)
        };
        for (limit, floor) in [(true, 29), (false, MAXPRI_THROTTLE)] {
            let mut ts = Timeshare::new([main].into_iter(), 1, 24_000, limit);
            // Contended: pretend three runnable threads per CPU.
            for _ in 0..10 {
                ts.sample_load(&[true]);
            }
            ts.load = [3 << 4; 4];
            ts.tick();
            ts.charge(0, 1000.0);
            ts.quantum_expired(0);
            assert_eq!(ts.sched_pri(0), floor, "band limit {limit}");
        }
    }
}
