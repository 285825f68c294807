//! A real run's passes and the page's environment turned into the panel's
//! figures: a measured row under each simulated one (median over repeats,
//! with the spread), the yield cost, frames, probe delay, long tasks and
//! input delay for FIFO against sliced, and the sentences that read them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::metrics::{change_pct, Summary};
use crate::policy::PolicyKind;

use super::measure::{Pass, Sample, Spread};
use super::plan::{Plan, POLICIES};
use super::text::{self, Texts};

/// What the page knows about where it ran (sent with the passes).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct Environment {
    /// `crossOriginIsolated`.
    pub isolated: bool,
    /// The smallest step of `performance.now()` seen before the run (ms).
    pub resolution_ms: f64,
    /// The primitive actually used (`scheduler`, `message`, `timeout`, `raf`).
    pub yield_used: String,
    /// Why the run is invalid (`hidden`: the tab was hidden), if it is.
    pub invalid: Option<String>,
    /// The visitor pressed Stop.
    pub stopped: bool,
    pub event_timing: bool,
    pub longtask: bool,
    pub loaf: bool,
}

/// How the run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RunState {
    Done,
    Stopped,
    Invalid,
}

/// One row of `table#real-results`.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub policy: &'static str,
    /// `simulated` or `measured`.
    pub kind: &'static str,
    /// Metric → value in ms at the run's scale (the median over repeats for
    /// measured rows); absent when no pass completed.
    pub values: BTreeMap<&'static str, f64>,
    /// Measured rows: metric → `[min, max]` over repeats.
    pub spread: BTreeMap<&'static str, [f64; 2]>,
    /// Repeats behind a measured row.
    pub repeats: usize,
    /// `rr` rows: the change of each metric against `fifo` of the same kind (%).
    pub change: BTreeMap<&'static str, f64>,
}

/// The sliced passes' yields.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct YieldCost {
    /// Every gap of every sliced pass, pooled.
    pub gaps: Sample,
    /// The median gap of each pass, over repeats.
    pub pass_median: Spread,
    /// Yields per pass.
    pub per_pass: f64,
}

/// FIFO against sliced: what the page felt during the passes.
#[derive(Clone, Debug, Serialize)]
pub struct Compare {
    pub policy: &'static str,
    pub frames: Option<Spread>,
    pub wall_ms: Option<Spread>,
    /// Every probe's lateness, pooled over repeats.
    pub probe: Option<Sample>,
    /// `None` when the browser does not report long tasks.
    pub longtasks: Option<Spread>,
    pub longtask_ms: Option<Spread>,
    pub loafs: Option<Spread>,
    pub loaf_blocking_ms: Option<Spread>,
    /// `processingStart − startTime` of the visitor's input, pooled; `None`
    /// when the browser has no Event Timing, an empty sample's `n` is 0.
    pub input: Option<InputDelay>,
    pub input_yields: u32,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct InputDelay {
    pub n: usize,
    pub sample: Option<Sample>,
}

/// Everything the panel shows after a run.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub state: RunState,
    pub scale: f64,
    pub quantum: f64,
    pub within: f64,
    pub yield_used: String,
    /// Passes that ran to the end, per policy.
    pub complete: BTreeMap<&'static str, usize>,
    pub rows: Vec<Row>,
    pub yield_cost: Option<YieldCost>,
    pub compare: Vec<Compare>,
    pub text: Texts,
}

pub const METRICS: [&str; 7] = ["mean", "p50", "p90", "p95", "p99", "max", "done_within"];

fn metric(s: &Summary, m: &str) -> f64 {
    match m {
        "mean" => s.mean,
        "p50" => s.p50,
        "p90" => s.p90,
        "p95" => s.p95,
        "p99" => s.p99,
        "max" => s.max,
        _ => s.done_within as f64,
    }
}

fn simulated_row(policy: PolicyKind, s: &Summary) -> Row {
    Row {
        policy: policy.name(),
        kind: "simulated",
        values: METRICS.iter().map(|&m| (m, metric(s, m))).collect(),
        spread: BTreeMap::new(),
        repeats: 0,
        change: BTreeMap::new(),
    }
}

fn measured_row(policy: PolicyKind, summaries: &[Summary]) -> Row {
    let mut values = BTreeMap::new();
    let mut spread = BTreeMap::new();
    for &m in &METRICS {
        if let Some(s) = Spread::of(summaries.iter().map(|s| metric(s, m))) {
            values.insert(m, s.median);
            spread.insert(m, [s.min, s.max]);
        }
    }
    Row {
        policy: policy.name(),
        kind: "measured",
        values,
        spread,
        repeats: summaries.len(),
        change: BTreeMap::new(),
    }
}

fn add_change(rows: &mut [Row]) {
    for kind in ["simulated", "measured"] {
        let base = rows
            .iter()
            .find(|r| r.kind == kind && r.policy == "fifo")
            .map(|r| r.values.clone());
        let Some(base) = base else { continue };
        for r in rows
            .iter_mut()
            .filter(|r| r.kind == kind && r.policy == "rr")
        {
            r.change = METRICS
                .iter()
                .filter_map(|&m| {
                    let c = change_pct(*base.get(m)?, *r.values.get(m)?)?;
                    Some((m, c))
                })
                .collect();
        }
    }
}

fn counts<T>(passes: &[&Pass], f: impl Fn(&Pass) -> Option<T>) -> Option<Vec<T>> {
    passes.iter().map(|p| f(p)).collect()
}

impl Report {
    pub fn build(plan: &Plan, passes: &[Pass], env: &Environment) -> Report {
        let state = if env.invalid.is_some() {
            RunState::Invalid
        } else if env.stopped || passes.iter().any(|p| p.counts.stopped) {
            RunState::Stopped
        } else {
            RunState::Done
        };
        let mut rows = Vec::new();
        let mut compare = Vec::new();
        let mut complete = BTreeMap::new();
        for policy in POLICIES {
            let Some(sim) = plan.pass(policy) else {
                continue;
            };
            rows.push(simulated_row(policy, &sim.summary));
            let mine: Vec<&Pass> = passes.iter().filter(|p| p.policy == policy).collect();
            let done: Vec<&Pass> = mine.iter().copied().filter(|p| p.complete()).collect();
            complete.insert(policy.name(), done.len());
            // An invalid run's numbers are not shown as measurements.
            let summaries: Vec<Summary> = if state == RunState::Invalid {
                Vec::new()
            } else {
                done.iter().filter_map(|p| p.summary(plan)).collect()
            };
            rows.push(measured_row(policy, &summaries));
            let used = if state == RunState::Invalid {
                Vec::new()
            } else {
                done.clone()
            };
            compare.push(Compare {
                policy: policy.name(),
                frames: Spread::of(used.iter().map(|p| f64::from(p.counts.frames))),
                wall_ms: Spread::of(used.iter().map(|p| p.counts.wall_ms)),
                probe: Sample::of(used.iter().flat_map(|p| p.probe_late.iter().copied())),
                longtasks: counts(&used, |p| p.counts.longtasks)
                    .and_then(|v| Spread::of(v.into_iter().map(f64::from))),
                longtask_ms: counts(&used, |p| p.counts.longtask_ms).and_then(Spread::of),
                loafs: counts(&used, |p| p.counts.loafs)
                    .and_then(|v| Spread::of(v.into_iter().map(f64::from))),
                loaf_blocking_ms: counts(&used, |p| p.counts.loaf_blocking_ms).and_then(Spread::of),
                input: counts(&used, |p| p.input_delay.clone())
                    .filter(|_| env.event_timing)
                    .map(|v| {
                        let all: Vec<f64> = v.into_iter().flatten().collect();
                        InputDelay {
                            n: all.len(),
                            sample: Sample::of(all),
                        }
                    }),
                input_yields: used.iter().map(|p| p.counts.input_yields).sum(),
            });
        }
        add_change(&mut rows);
        let sliced: Vec<&Pass> = if state == RunState::Invalid {
            Vec::new()
        } else {
            passes
                .iter()
                .filter(|p| p.policy == PolicyKind::Rr && p.complete())
                .collect()
        };
        let yield_cost =
            Sample::of(sliced.iter().flat_map(|p| p.gaps.iter().copied())).and_then(|gaps| {
                let pass_median = Spread::of(
                    sliced
                        .iter()
                        .filter_map(|p| Sample::of(p.gaps.iter().copied()).map(|s| s.p50)),
                )?;
                Some(YieldCost {
                    gaps,
                    pass_median,
                    per_pass: sliced
                        .iter()
                        .map(|p| f64::from(p.counts.yields))
                        .sum::<f64>()
                        / sliced.len() as f64,
                })
            });
        let mut report = Report {
            state,
            scale: plan.scale,
            quantum: plan.quantum,
            within: plan.within,
            yield_used: env.yield_used.clone(),
            complete,
            rows,
            yield_cost,
            compare,
            text: Texts::default(),
        };
        report.text = text::texts(plan, &report, env);
        report
    }

    pub fn row(&self, policy: &str, kind: &str) -> Option<&Row> {
        self.rows
            .iter()
            .find(|r| r.policy == policy && r.kind == kind)
    }

    pub fn compare(&self, policy: &str) -> Option<&Compare> {
        self.compare.iter().find(|c| c.policy == policy)
    }
}
