//! A real run's passes and the page's environment turned into the panel's
//! figures: a measured row under each simulated one (median over repeats,
//! with the spread), the yield cost, frames, probe delay, long tasks and
//! input delay for FIFO against sliced, and the sentences that read them.
//!
//! The report's JSON (what the page reads, and the run file holds) is
//! [`super::file`]'s.

use serde::Serialize;

use crate::experiment::summary::Summary;
use crate::policy::PolicyKind;
use crate::stats::change_pct;

use super::measure::{Pass, Sample, Spread, YieldBatch};
use super::plan::{Plan, POLICIES};
use super::text::{self, Texts};

/// Single gaps between slices count as timed when their median is at least
/// this many steps of the clock (rounding to the step then moves it by at
/// most a tenth); below, the yield is timed in batches.
pub(crate) const RESOLVED_STEPS: f64 = 10.0;

/// What the page knows about where it ran.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
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
    /// Event Timing is available (else input delay is "not available").
    pub event_timing: bool,
}

/// How the run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RunState {
    Done,
    Stopped,
    Invalid,
}

/// The table's columns, in order.
pub(crate) const METRICS: [&str; 7] =
    crate::experiment::metric::names(crate::experiment::metric::Metric::ALL);

/// One row of `table#real-results`; arrays are indexed like [`METRICS`].
#[derive(Clone, Debug)]
pub struct RealRunRow {
    pub policy: PolicyKind,
    pub measured: bool,
    /// In ms at the run's scale (the median over repeats for measured rows);
    /// `None` when no pass completed.
    pub values: [Option<f64>; 7],
    /// Measured rows: `(min, max)` over repeats.
    pub spread: [Option<(f64, f64)>; 7],
    /// Repeats behind a measured row.
    pub repeats: usize,
    /// `rr` rows: the change against `fifo` of the same kind (%).
    pub change: [Option<f64>; 7],
}

fn index(metric: &str) -> Option<usize> {
    METRICS.iter().position(|m| *m == metric)
}

impl RealRunRow {
    pub(crate) fn kind(&self) -> &'static str {
        if self.measured {
            "measured"
        } else {
            "simulated"
        }
    }

    pub fn value(&self, metric: &str) -> Option<f64> {
        self.values[index(metric)?]
    }

    pub fn change_of(&self, metric: &str) -> Option<f64> {
        self.change[index(metric)?]
    }
}

/// The sliced passes' yields.
#[derive(Clone, Copy, Debug)]
pub struct YieldCost {
    /// Every gap of every sliced pass, pooled.
    pub gaps: Sample,
    /// The median gap of each pass, over repeats.
    pub pass_median: Spread,
    /// Yields per pass.
    pub per_pass: f64,
    /// The cost of one yield in each batch timed alone, if any were.
    pub batches: Option<Sample>,
    /// Yields in the largest batch.
    pub batch_yields: u32,
    /// The clock's step (ms).
    pub step_ms: f64,
    /// Whether the clock times single gaps (see [`RESOLVED_STEPS`]).
    pub resolved: bool,
    /// The cost of a yield as the panel shows it and the model may take as
    /// its switch cost: the median gap when the clock times single gaps,
    /// else the median of the batches; `None` when neither is known.
    pub ms: Option<f64>,
    /// The p95 of the same sample.
    pub p95: Option<f64>,
}

impl YieldCost {
    fn build(sliced: &[&Pass], batches: &[YieldBatch], step_ms: f64) -> Option<YieldCost> {
        let gaps = Sample::of(sliced.iter().flat_map(|p| p.gaps.iter().copied()).collect())?;
        let pass_median = Spread::of(
            sliced
                .iter()
                .filter_map(|p| Sample::of(p.gaps.clone()).map(|s| s.p50))
                .collect(),
        )?;
        let per_pass = sliced
            .iter()
            .map(|p| f64::from(p.counts.yields))
            .sum::<f64>()
            / sliced.len() as f64;
        let batch = Sample::of(batches.iter().filter_map(|b| b.per_yield()).collect());
        let step = if step_ms.is_finite() && step_ms > 0.0 {
            step_ms
        } else {
            0.0
        };
        let resolved = gaps.p50 >= RESOLVED_STEPS * step;
        let (ms, p95) = match (resolved, batch) {
            (true, _) => (Some(gaps.p50), Some(gaps.p95)),
            (false, Some(b)) => (Some(b.p50), Some(b.p95)),
            (false, None) => (None, None),
        };
        Some(YieldCost {
            gaps,
            pass_median,
            per_pass,
            batches: batch,
            batch_yields: batches.iter().map(|b| b.yields).max().unwrap_or(0),
            step_ms: step,
            resolved,
            ms,
            p95,
        })
    }
}

/// FIFO against sliced: what the page felt during the passes.
#[derive(Clone, Debug, Serialize)]
pub struct Compare {
    pub policy: PolicyKind,
    pub frames: Option<Spread>,
    pub wall_ms: Option<Spread>,
    /// Every probe's lateness, pooled over repeats.
    pub probe: Option<Sample>,
    /// `None` when the browser does not report long tasks.
    pub longtasks: Option<Spread>,
    pub longtask_ms: Option<Spread>,
    pub loafs: Option<Spread>,
    pub loaf_blocking_ms: Option<Spread>,
    /// `None` when the browser has no Event Timing.
    pub input: Option<InputDelay>,
    pub input_yields: u32,
    /// Complete passes behind these figures (none: stopped or invalid).
    pub passes: usize,
}

/// The visitor's input during the passes (Event Timing).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct InputDelay {
    pub n: usize,
    pub sample: Option<Sample>,
}

/// Everything the panel shows after a run.
#[derive(Clone, Debug)]
pub struct RealRunReport {
    pub state: RunState,
    pub scale: f64,
    pub quantum: f64,
    pub within: f64,
    pub yield_used: String,
    /// Passes that ran to the end: `fifo`, `rr`.
    pub complete: [usize; 2],
    pub rows: Vec<RealRunRow>,
    pub yield_cost: Option<YieldCost>,
    pub compare: Vec<Compare>,
    pub text: Texts,
}

fn metrics_of(s: &Summary) -> [f64; 7] {
    [
        s.mean,
        s.p50,
        s.p90,
        s.p95,
        s.p99,
        s.max,
        s.done_within as f64,
    ]
}

fn measured_row(policy: PolicyKind, summaries: &[Summary]) -> RealRunRow {
    let mut row = RealRunRow {
        policy,
        measured: true,
        values: [None; 7],
        spread: [None; 7],
        repeats: summaries.len(),
        change: [None; 7],
    };
    for i in 0..7 {
        let mut v = Vec::with_capacity(summaries.len());
        for s in summaries {
            v.push(metrics_of(s)[i]);
        }
        if let Some(s) = Spread::of(v) {
            row.values[i] = Some(s.median);
            row.spread[i] = Some((s.min, s.max));
        }
    }
    row
}

fn add_change(rows: &mut [RealRunRow]) {
    for measured in [false, true] {
        let Some(base) = rows
            .iter()
            .find(|r| r.measured == measured && r.policy == PolicyKind::Fifo)
            .map(|r| r.values)
        else {
            continue;
        };
        for r in rows
            .iter_mut()
            .filter(|r| r.measured == measured && r.policy == PolicyKind::Rr)
        {
            for ((c, b), v) in r.change.iter_mut().zip(base).zip(r.values) {
                *c = match (b, v) {
                    (Some(b), Some(v)) => change_pct(b, v),
                    _ => None,
                };
            }
        }
    }
}

// Plain loops over `fn` pointers below: one copy of each helper in the
// wasm instead of an iterator chain per figure.

/// `f` of each pass.
fn each(passes: &[&Pass], f: fn(&Pass) -> f64) -> Vec<f64> {
    let mut v = Vec::with_capacity(passes.len());
    for p in passes {
        v.push(f(p));
    }
    v
}

/// Every value of `f` of every pass, pooled.
fn pooled(passes: &[&Pass], f: fn(&Pass) -> &[f64]) -> Vec<f64> {
    let mut v = Vec::new();
    for p in passes {
        v.extend_from_slice(f(p));
    }
    v
}

/// A count every pass reported, over the passes; `None` if any did not.
fn reported(passes: &[&Pass], f: fn(&Pass) -> Option<f64>) -> Option<Spread> {
    let mut v = Vec::with_capacity(passes.len());
    for p in passes {
        v.push(f(p)?);
    }
    Spread::of(v)
}

fn compare(policy: PolicyKind, used: &[&Pass], env: &Environment) -> Compare {
    let input = if env.event_timing && used.iter().all(|p| p.input_delay.is_some()) {
        let all = pooled(used, |p| p.input_delay.as_deref().unwrap_or(&[]));
        Some(InputDelay {
            n: all.len(),
            sample: Sample::of(all),
        })
    } else {
        None
    };
    Compare {
        policy,
        frames: Spread::of(each(used, |p| f64::from(p.counts.frames))),
        wall_ms: Spread::of(each(used, |p| p.counts.wall_ms)),
        probe: Sample::of(pooled(used, |p| &p.probe_late)),
        longtasks: reported(used, |p| p.counts.longtasks.map(f64::from)),
        longtask_ms: reported(used, |p| p.counts.longtask_ms),
        loafs: reported(used, |p| p.counts.loafs.map(f64::from)),
        loaf_blocking_ms: reported(used, |p| p.counts.loaf_blocking_ms),
        input,
        input_yields: used.iter().map(|p| p.counts.input_yields).sum(),
        passes: used.len(),
    }
}

impl RealRunReport {
    /// The report of `passes` and the yield `batches` timed after them.
    pub fn build(
        plan: &Plan,
        passes: &[Pass],
        batches: &[YieldBatch],
        env: &Environment,
    ) -> RealRunReport {
        let state = if env.invalid.is_some() {
            RunState::Invalid
        } else if env.stopped || passes.iter().any(|p| p.counts.stopped) {
            RunState::Stopped
        } else {
            RunState::Done
        };
        let mut rows = Vec::new();
        let mut compares = Vec::new();
        let mut complete = [0; 2];
        for (k, (policy, sim)) in POLICIES.into_iter().zip(&plan.passes).enumerate() {
            let m = metrics_of(&sim.summary);
            rows.push(RealRunRow {
                policy,
                measured: false,
                values: m.map(Some),
                spread: [None; 7],
                repeats: 0,
                change: [None; 7],
            });
            // An invalid run's numbers are not shown as measurements.
            let used: Vec<&Pass> = passes
                .iter()
                .filter(|p| p.policy == policy && p.complete() && state != RunState::Invalid)
                .collect();
            complete[k] = passes
                .iter()
                .filter(|p| p.policy == policy && p.complete())
                .count();
            let summaries: Vec<Summary> = used.iter().filter_map(|p| p.summary(plan)).collect();
            rows.push(measured_row(policy, &summaries));
            compares.push(compare(policy, &used, env));
        }
        add_change(&mut rows);
        let sliced: Vec<&Pass> = passes
            .iter()
            .filter(|p| {
                plan.pass(p.policy).is_some_and(|pp| pp.yields)
                    && p.complete()
                    && state != RunState::Invalid
            })
            .collect();
        let yield_cost = YieldCost::build(&sliced, batches, env.resolution_ms);
        let mut report = RealRunReport {
            state,
            scale: plan.scale,
            quantum: plan.quantum,
            within: plan.within,
            yield_used: env.yield_used.clone(),
            complete,
            rows,
            yield_cost,
            compare: compares,
            text: Texts::default(),
        };
        report.text = text::texts(plan, &report, env);
        report
    }

    pub fn row(&self, policy: &str, kind: &str) -> Option<&RealRunRow> {
        self.rows
            .iter()
            .find(|r| r.policy.name() == policy && r.kind() == kind)
    }

    pub fn compare(&self, policy: &str) -> Option<&Compare> {
        self.compare.iter().find(|c| c.policy.name() == policy)
    }
}
