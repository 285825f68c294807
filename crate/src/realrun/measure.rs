//! What a real run measured, and its figures computed exactly as the
//! simulation's (the study's percentile rule, the compensated mean), so a
//! measured row and a simulated row differ only in where the latencies came
//! from.

use serde::Serialize;

use crate::experiment::summary::{self, RunTotals, Summary};
use crate::policy::PolicyKind;
use crate::stats::{accurate_sum, percentile};

use super::plan::Plan;

/// Counts the page collected during one pass. `None` means the browser
/// does not report that kind of entry (never a silent zero).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PassCounts {
    /// Slices run (equals the plan's unless the pass was stopped).
    pub slices: u32,
    /// Yields to the event loop between slices.
    pub yields: u32,
    /// Waits for a task that had not arrived yet (not yields).
    pub idle_waits: u32,
    /// FIFO only: times it let pending input through at a task boundary.
    pub input_yields: u32,
    /// `requestAnimationFrame` callbacks during the pass.
    pub frames: u32,
    pub wall_ms: f64,
    pub longtasks: Option<u32>,
    pub longtask_ms: Option<f64>,
    pub loafs: Option<u32>,
    pub loaf_blocking_ms: Option<f64>,
    /// The pass ended early (Stop, or the tab was hidden).
    pub stopped: bool,
}

impl PassCounts {
    /// Fields in the order of [`PassCounts::from_slice`].
    pub(crate) const LAYOUT: [&'static str; 11] = [
        "slices",
        "yields",
        "idle_waits",
        "input_yields",
        "frames",
        "wall_ms",
        "longtasks",
        "longtask_ms",
        "loafs",
        "loaf_blocking_ms",
        "stopped",
    ];

    /// Reads the counts from numbers in the order of [`Self::LAYOUT`],
    /// NaN for "not reported".
    #[cfg(test)]
    fn from_slice(v: &[f64]) -> PassCounts {
        PassCounts::from_named(|name| {
            let i = Self::LAYOUT.iter().position(|n| *n == name)?;
            v.get(i).copied()
        })
    }

    /// Reads each count by its name in [`Self::LAYOUT`] (what the page
    /// sends: an object of the counts it has; a missing or non-finite one
    /// is "not reported", `stopped` is 1 or true when the pass stopped).
    pub(crate) fn from_named(get: impl Fn(&str) -> Option<f64>) -> PassCounts {
        let v: Vec<f64> = Self::LAYOUT
            .iter()
            .map(|name| get(name).unwrap_or(f64::NAN))
            .collect();
        let at = |i: usize| v[i];
        let count = |i: usize| if at(i).is_finite() { at(i) as u32 } else { 0 };
        let opt = |i: usize| Some(at(i)).filter(|x| x.is_finite());
        PassCounts {
            slices: count(0),
            yields: count(1),
            idle_waits: count(2),
            input_yields: count(3),
            frames: count(4),
            wall_ms: at(5),
            longtasks: opt(6).map(|x| x as u32),
            longtask_ms: opt(7),
            loafs: opt(8).map(|x| x as u32),
            loaf_blocking_ms: opt(9),
            stopped: at(10) == 1.0,
        }
    }
}

/// Back-to-back yields timed together (see `plan::YIELD_BATCHES`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct YieldBatch {
    pub yields: u32,
    /// Time from before the first yield to after the last (ms).
    pub ms: f64,
}

impl YieldBatch {
    /// The cost of one yield of the batch (ms); `None` for an empty batch.
    pub fn per_yield(self) -> Option<f64> {
        (self.yields > 0 && self.ms.is_finite() && self.ms >= 0.0)
            .then(|| self.ms / f64::from(self.yields))
    }
}

/// One pass (one policy, one repeat) as measured.
#[derive(Clone, Debug)]
pub struct Pass {
    pub policy: PolicyKind,
    pub repeat: u32,
    /// Completion time of each task from the pass's start (ms); NaN where
    /// the pass stopped before it finished (serialised as `null`).
    pub completion: Vec<f64>,
    /// Time each task spent in its busy loop (ms).
    pub busy: Vec<f64>,
    /// Each yield's gap: a slice's end to the next slice's start (ms).
    pub gaps: Vec<f64>,
    /// How late each 50 ms probe timer ran (ms).
    pub probe_late: Vec<f64>,
    /// Event Timing `processingStart − startTime` of the visitor's input
    /// during the pass; `None` where Event Timing is not available.
    pub input_delay: Option<Vec<f64>>,
    pub counts: PassCounts,
}

impl Pass {
    /// Whether every task completed.
    pub(crate) fn complete(&self) -> bool {
        !self.counts.stopped && self.completion.iter().all(|c| c.is_finite())
    }

    /// This pass's table row, computed like the simulation's.
    pub(crate) fn summary(&self, plan: &Plan) -> Option<Summary> {
        if !self.complete() {
            return None;
        }
        let sim = plan.pass(self.policy)?;
        let totals = RunTotals {
            context_switches: sim.summary.context_switches,
            // Measured from the pass's start: its length is the last task's
            // latency.
            makespan: None,
            busy_time: accurate_sum(self.busy.iter().copied()),
            cores: 1,
        };
        let mut times = self.completion.clone();
        Some(summary::figures(
            &mut times,
            &plan.workload.arrival,
            &plan.workload.work,
            plan.within,
            totals,
        ))
    }
}

/// The middle, lowest and highest of some repeats' values.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// The study's percentile rule at 50 (the upper middle for an even count).
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub n: usize,
}

impl Spread {
    pub(crate) fn of(mut v: Vec<f64>) -> Option<Spread> {
        v.retain(|x| x.is_finite());
        if v.is_empty() {
            return None;
        }
        v.sort_unstable_by(f64::total_cmp);
        Some(Spread {
            median: percentile(&v, 50.0),
            min: v[0],
            max: v[v.len() - 1],
            n: v.len(),
        })
    }
}

/// Percentiles of a pooled sample (e.g. every yield gap of every repeat).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sample {
    pub n: usize,
    pub p50: f64,
    pub p95: f64,
    pub max: f64,
    pub total: f64,
}

impl Sample {
    pub fn of(mut v: Vec<f64>) -> Option<Sample> {
        v.retain(|x| x.is_finite());
        if v.is_empty() {
            return None;
        }
        v.sort_unstable_by(f64::total_cmp);
        Some(Sample {
            n: v.len(),
            p50: percentile(&v, 50.0),
            p95: percentile(&v, 95.0),
            max: v[v.len() - 1],
            total: accurate_sum(v.iter().copied()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::summary::summarize;
    use crate::experiment::Experiment;
    use crate::realrun::settings::RealSettings;
    use crate::workload::Workload;

    #[test]
    fn measured_equal_to_simulated_gives_the_same_row() {
        let exp = Experiment::default();
        let w = Workload::generate(&exp.workload_spec());
        let plan = Plan::build(&exp, &w, RealSettings::default()).unwrap();
        for pp in &plan.passes {
            let pass = Pass {
                policy: pp.policy,
                repeat: 0,
                completion: pp.schedule.outcomes.iter().map(|o| o.completion).collect(),
                busy: plan.workload.work.clone(),
                gaps: vec![],
                probe_late: vec![],
                input_delay: None,
                counts: PassCounts::default(),
            };
            let want = summarize(&plan.workload, &pp.schedule, plan.within);
            let got = pass.summary(&plan).unwrap();
            assert_eq!(got.mean, want.mean);
            assert_eq!(
                [got.p50, got.p90, got.p95, got.p99, got.max],
                [want.p50, want.p90, want.p95, want.p99, want.max]
            );
            assert_eq!(got.done_within, want.done_within);
            assert!((got.utilisation - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn stopped_passes_have_no_row() {
        let exp = Experiment::default();
        let w = Workload::generate(&exp.workload_spec());
        let plan = Plan::build(&exp, &w, RealSettings::default()).unwrap();
        let mut completion = vec![1.0; 400];
        completion[7] = f64::NAN;
        let pass = Pass {
            policy: PolicyKind::Fifo,
            repeat: 0,
            completion,
            busy: vec![0.0; 400],
            gaps: vec![],
            probe_late: vec![],
            input_delay: None,
            counts: PassCounts::default(),
        };
        assert!(pass.summary(&plan).is_none());
    }

    #[test]
    fn counts_from_the_pages_array() {
        let c = PassCounts::from_slice(&[
            10.0,
            9.0,
            0.0,
            0.0,
            55.0,
            123.5,
            f64::NAN,
            f64::NAN,
            2.0,
            80.0,
            1.0,
        ]);
        assert_eq!((c.slices, c.yields, c.frames), (10, 9, 55));
        assert_eq!((c.longtasks, c.longtask_ms), (None, None));
        assert_eq!((c.loafs, c.loaf_blocking_ms), (Some(2), Some(80.0)));
        assert!(c.stopped);
        let empty = PassCounts::from_slice(&[]);
        assert!(empty.wall_ms.is_nan() && empty.longtasks.is_none() && !empty.stopped);
    }

    #[test]
    fn spreads_and_samples() {
        let s = Spread::of(vec![3.0, 1.0, 2.0, f64::NAN]).unwrap();
        assert_eq!((s.median, s.min, s.max, s.n), (2.0, 1.0, 3.0, 3));
        assert!(Spread::of(vec![]).is_none());
        let g = Sample::of((0..100).map(f64::from).collect()).unwrap();
        assert_eq!((g.p50, g.p95, g.max), (50.0, 95.0, 99.0));
    }
}
