//! Sweeps: one experiment over many seeds ("is 28 % luck?") or many quanta
//! ("is 16 ms right?"), and the summaries that answer those questions.
//!
//! Everything here is plain data in, plain data out, so the CLI and the
//! page's Web Worker drive the same code: the page calls
//! [`sweep_seeds_chunk`] a few dozen seeds at a time (progress and cancel
//! between chunks), then [`summarize_seeds`]; the CLI calls
//! [`sweep_seeds`] with a progress callback. Segments are never recorded
//! here, and a quantum sweep draws its workload once and reuses it for
//! every quantum.
//!
//! The run objects serialise to exactly the `results` of `tailslice
//! simulate --json`, with `seed` or `quantum` beside them.

use std::ops::RangeInclusive;

use serde::Serialize;

use crate::error::ParamError;
use crate::experiment::metric::Metric;
use crate::experiment::{
    Experiment, Limits, PolicyReport, RowPolicy, MAX_QUANTUM_MS, MIN_TIME_MS, QUANTUM_RANGE,
};
use crate::rng::MAX_SEED;
use crate::sim::EngineError;
use crate::stats::{change_pct, percentile};
use crate::text::{Filled, Text};
use crate::workload::Workload;

/// How large a sweep a front end accepts, checked before any work.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepLimits {
    pub max_seeds: u64,
    pub max_quanta: usize,
    /// Estimated slices over all runs and policies.
    pub max_total_slices: u64,
}

impl SweepLimits {
    /// The command line: 100 000 seeds, 200 quanta, two billion slices in
    /// all (about a minute on one core).
    pub const CLI: SweepLimits = SweepLimits {
        max_seeds: 100_000,
        max_quanta: 200,
        max_total_slices: 2_000_000_000,
    };
    /// A browser tab's worker: the same counts, a tenth of the work.
    pub const WEB: SweepLimits = SweepLimits {
        max_seeds: 100_000,
        max_quanta: 200,
        max_total_slices: 200_000_000,
    };
}

/// One seed's results (`{"seed": S, "results": [...]}`).
#[derive(Clone, Debug, Serialize)]
pub struct SeedRun {
    pub seed: u64,
    pub results: Vec<PolicyReport>,
}

/// One quantum's results (`{"quantum": Q, "results": [...]}`).
#[derive(Clone, Debug, Serialize)]
pub struct QuantumRun {
    pub quantum: f64,
    pub results: Vec<PolicyReport>,
}

/// `{"runs": [...]}`, the CLI's `sweep --json` object.
#[derive(Clone, Debug, Serialize)]
pub struct Sweep<R> {
    pub runs: Vec<R>,
}

const SEED_RANGE: Text = Text::new(
    "a seed range A-B with 0 ≤ A ≤ B ≤ {} and at most {} seeds (e.g. 1-1000)",
    "种子范围 A-B，0 ≤ A ≤ B ≤ {}，最多 {} 个种子（如 1-1000）",
);
const QUANTA_LIST: Text = Text::new(
    "1 to {} distinct quanta in ms, each from {} to {}, joined by commas (e.g. 1,2,4,8,16,32)",
    "1 到 {} 个不重复的时间片（ms），每个在 {} 到 {} 之间，以逗号分隔（如 1,2,4,8,16,32）",
);
const QUANTA_RANGE: Text = Text::new(
    "LO-HI in ms with {} ≤ LO < HI ≤ {} (e.g. 0.5-500), or a list such as 1,2,4,8,16",
    "以 ms 为单位的 LO-HI，{} ≤ LO < HI ≤ {}（如 0.5-500），或如 1,2,4,8,16 的列表",
);
const STEPS: Text = Text::new("{} to {} quanta", "{} 到 {} 个时间片");
const SWEEP_TOO_BIG: Text = Text::new(
    "a sweep of at most {} slices in all; {} runs would need about {} (fewer runs, fewer tasks or a larger quantum)",
    "总共最多 {} 个时间片的扫描；{} 次运行需要约 {} 个（减少运行次数、任务数，或加大时间片）",
);
const QUANTUM_TOO_SMALL: Text = Text::new(
    "quanta large enough for at most {} slices per run; quantum {} ms would need about {}",
    "足够大的时间片，使每次运行不超过 {} 个时间片；时间片 {} ms 需要约 {} 个",
);

/// Parses `A-B` (inclusive) or a single seed `A`.
pub fn parse_seed_range(
    field: &str,
    text: &str,
    limits: &SweepLimits,
) -> Result<RangeInclusive<u64>, ParamError> {
    let allowed = SEED_RANGE.both(&[&MAX_SEED.to_string(), &limits.max_seeds.to_string()]);
    let bad = || ParamError::new(field, text, allowed.clone());
    let t = text.trim();
    let (a, b) = match t.split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (t, t),
    };
    let a: u64 = a.parse().map_err(|_| bad())?;
    let b: u64 = b.parse().map_err(|_| bad())?;
    if a > b || b > MAX_SEED || b - a >= limits.max_seeds {
        return Err(bad());
    }
    Ok(a..=b)
}

/// Parses a comma-separated list of quanta in ms, each > 0, at most
/// `limits.max_quanta` of them, no duplicates. Order is kept.
pub fn parse_quanta(field: &str, text: &str, limits: &SweepLimits) -> Result<Vec<f64>, ParamError> {
    quantum_list(field, text, limits.max_quanta, || {
        QUANTA_LIST.both(&[
            &limits.max_quanta.to_string(),
            &MIN_TIME_MS.to_string(),
            &MAX_QUANTUM_MS.to_string(),
        ])
    })
}

/// The one list-of-quanta syntax: values `--quantum` accepts joined by
/// commas, at most `max`, none repeated, in the order written. A refusal
/// says `allowed()`: each caller names its own limits.
pub(crate) fn quantum_list(
    field: &str,
    text: &str,
    max: usize,
    allowed: impl Fn() -> Filled,
) -> Result<Vec<f64>, ParamError> {
    let mut out: Vec<f64> = Vec::new();
    for part in text.split(',') {
        // Refused as soon as the list is too long: the duplicate check is
        // quadratic, and a hostile list may hold a hundred thousand values.
        if out.len() >= max {
            return Err(ParamError::new(field, text, allowed()));
        }
        let q = QUANTUM_RANGE
            .parse(field, part)
            .map_err(|_| ParamError::new(field, text, allowed()))?;
        if out.contains(&q) {
            return Err(ParamError::new(field, text, allowed()));
        }
        out.push(q);
    }
    Ok(out)
}

/// The smallest `LO` of a log-spaced range: its quanta are printed with 6
/// decimals, which keep 3 significant digits from 0.001 ms up (below, they
/// collapsed into duplicates and then into 0).
pub(crate) const MIN_RANGE_QUANTUM_MS: f64 = 0.001;

/// The fewest quanta of a log-spaced range (its two ends).
pub(crate) const MIN_RANGE_STEPS: u32 = 2;

/// Quanta in a log-spaced range when none are given (the page's
/// `#sweep-steps` starts here, the CLI's `--steps` defaults to it).
pub const DEFAULT_RANGE_STEPS: u32 = 25;

/// Whether a quanta text is a `LO-HI` range rather than a list.
pub fn is_quanta_range(text: &str) -> bool {
    !text.contains(',') && text.contains('-')
}

/// The one quanta syntax of the page's field and the CLI's `--quanta`:
/// `LO-HI` (log-spaced, `steps` values, as [`log_quanta`]) or a
/// comma-separated list (as [`parse_quanta`]).
pub fn parse_quanta_spec(
    field: &str,
    text: &str,
    steps: u32,
    limits: &SweepLimits,
) -> Result<Vec<f64>, ParamError> {
    if !is_quanta_range(text) {
        return parse_quanta(field, text, limits);
    }
    let allowed = QUANTA_RANGE.both(&[
        &MIN_RANGE_QUANTUM_MS.to_string(),
        &MAX_QUANTUM_MS.to_string(),
    ]);
    let bad = || ParamError::new(field, text, allowed.clone());
    let (a, b) = text.split_once('-').ok_or_else(bad)?;
    let lo: f64 = a.trim().parse().map_err(|_| bad())?;
    let hi: f64 = b.trim().parse().map_err(|_| bad())?;
    if !(lo.is_finite()
        && hi.is_finite()
        && lo >= MIN_RANGE_QUANTUM_MS
        && lo < hi
        && hi <= MAX_QUANTUM_MS)
    {
        return Err(bad());
    }
    let steps = steps as usize;
    if !(MIN_RANGE_STEPS as usize..=limits.max_quanta).contains(&steps) {
        return Err(ParamError::new(
            "steps",
            &steps.to_string(),
            STEPS.both(&[&MIN_RANGE_STEPS.to_string(), &limits.max_quanta.to_string()]),
        ));
    }
    // `log_quanta` rounds to 3 significant digits in binary floating point
    // (12.600000000000001); print and read back so the axis, the list shown
    // and a CLI `--quanta` copy of it read 12.6.
    Ok(log_quanta(lo, hi, steps)
        .into_iter()
        .map(|q| format!("{q:.6}").parse().unwrap_or(q))
        .collect())
}

/// The quanta of a log-spaced sweep from `lo` to `hi` ms, `steps` values
/// (rounded to 3 significant digits so they read well on an axis).
pub fn log_quanta(lo: f64, hi: f64, steps: usize) -> Vec<f64> {
    if steps <= 1 || lo >= hi {
        return vec![lo];
    }
    let mut out: Vec<f64> = (0..steps)
        .map(|i| {
            let q = lo * (hi / lo).powf(i as f64 / (steps - 1) as f64);
            let mag = 10f64.powf(q.log10().floor() - 2.0);
            (q / mag).round() * mag
        })
        .collect();
    out.dedup();
    out
}

fn too_big(field: &str, value: &str, runs: usize, est: f64, limits: &SweepLimits) -> ParamError {
    ParamError::new(
        field,
        value,
        SWEEP_TOO_BIG.both(&[
            &limits.max_total_slices.to_string(),
            &runs.to_string(),
            &format!("{est:.0}"),
        ]),
    )
}

/// Refuses a seed sweep too large to finish in reasonable time, before any
/// work: each run must pass [`Experiment::check_size`] and all runs
/// together must stay within `sweep.max_total_slices`.
pub fn check_seed_sweep(
    exp: &Experiment,
    field: &str,
    seeds: &RangeInclusive<u64>,
    limits: &Limits,
    sweep: &SweepLimits,
) -> Result<(), ParamError> {
    exp.check_size(limits)?;
    let runs = (seeds.end() - seeds.start() + 1) as usize;
    let est = exp.estimated_slices() * runs as f64;
    if est > sweep.max_total_slices as f64 {
        let text = format!("{}-{}", seeds.start(), seeds.end());
        return Err(too_big(field, &text, runs, est, sweep));
    }
    Ok(())
}

/// Refuses a quantum sweep too large to finish in reasonable time. Pass the
/// workload when it is known (imported tasks); otherwise the mix's mean is
/// used.
pub fn check_quantum_sweep(
    exp: &Experiment,
    field: &str,
    quanta: &[f64],
    workload: Option<&Workload>,
    limits: &Limits,
    sweep: &SweepLimits,
) -> Result<(), ParamError> {
    let (tasks, mean_work, last_arrival) = match workload {
        Some(w) => (
            w.len(),
            w.total_work() / w.len().max(1) as f64,
            w.arrival.iter().copied().fold(0.0, f64::max),
        ),
        None => (exp.tasks, exp.mix.mean_work(), exp.expected_last_arrival()),
    };
    let text = quanta
        .iter()
        .map(f64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let mut total = 0.0;
    for &q in quanta {
        let est = exp.slices_at(q, tasks, mean_work, last_arrival);
        if est > limits.max_slices as f64 {
            return Err(ParamError::new(
                field,
                &text,
                QUANTUM_TOO_SMALL.both(&[
                    &limits.max_slices.to_string(),
                    &q.to_string(),
                    &format!("{est:.0}"),
                ]),
            ));
        }
        total += est;
    }
    if total > sweep.max_total_slices as f64 {
        return Err(too_big(field, &text, quanta.len(), total, sweep));
    }
    Ok(())
}

/// Every policy of `exp` at `quantum` on `workload`, as `simulate`'s
/// result objects.
pub(crate) fn run_policies(
    exp: &Experiment,
    workload: &Workload,
    quantum: f64,
    limits: &Limits,
) -> Result<Vec<PolicyReport>, EngineError> {
    let at_quantum = Experiment {
        quantum,
        ..exp.clone()
    };
    Ok(at_quantum.report(workload, limits)?.results)
}

/// One seed: the experiment with `seed` in place of its own.
pub(crate) fn run_seed(
    exp: &Experiment,
    seed: u64,
    limits: &Limits,
) -> Result<SeedRun, EngineError> {
    let spec = crate::workload::WorkloadSpec {
        seed,
        ..exp.workload_spec()
    };
    let workload = Workload::generate(&spec);
    Ok(SeedRun {
        seed,
        results: run_policies(exp, &workload, exp.quantum, limits)?,
    })
}

/// Seeds `seeds` in order; the page's Web Worker calls this a chunk at a
/// time so it can report progress and stop between chunks.
pub fn sweep_seeds_chunk(
    exp: &Experiment,
    seeds: RangeInclusive<u64>,
    limits: &Limits,
) -> Result<Vec<SeedRun>, EngineError> {
    seeds.map(|s| run_seed(exp, s, limits)).collect()
}

/// All seeds in `seeds`, calling `progress(done, total)` after each chunk
/// of up to `chunk` seeds; `progress` returns `false` to cancel, and the
/// runs so far are returned.
pub fn sweep_seeds(
    exp: &Experiment,
    seeds: RangeInclusive<u64>,
    chunk: u64,
    limits: &Limits,
    progress: &mut dyn FnMut(u64, u64) -> bool,
) -> Result<Vec<SeedRun>, EngineError> {
    let (start, end) = (*seeds.start(), *seeds.end());
    if start > end {
        return Ok(Vec::new());
    }
    let total = end - start + 1;
    let chunk = chunk.max(1);
    let mut runs = Vec::with_capacity(total as usize);
    let mut s = start;
    loop {
        let e = s.saturating_add(chunk - 1).min(end);
        runs.extend(sweep_seeds_chunk(exp, s..=e, limits)?);
        if !progress(e - start + 1, total) || e == end {
            break;
        }
        s = e + 1;
    }
    Ok(runs)
}

/// Every quantum in `quanta` on one workload (drawn once by the caller,
/// e.g. `Workload::generate(&exp.workload_spec())`, or imported).
pub fn sweep_quanta(
    exp: &Experiment,
    workload: &Workload,
    quanta: &[f64],
    limits: &Limits,
    progress: &mut dyn FnMut(u64, u64) -> bool,
) -> Result<Vec<QuantumRun>, EngineError> {
    let mut runs = Vec::with_capacity(quanta.len());
    for (i, &q) in quanta.iter().enumerate() {
        runs.push(QuantumRun {
            quantum: q,
            results: run_policies(exp, workload, q, limits)?,
        });
        if !progress(i as u64 + 1, quanta.len() as u64) {
            break;
        }
    }
    Ok(runs)
}

// ---------------------------------------------------------------------------
// Summaries

/// Equal-width bins from `lo` to `hi`; `counts[i]` counts values in
/// `[edges[i], edges[i+1])` (the last bin includes `hi`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Histogram {
    pub edges: Vec<f64>,
    pub counts: Vec<u32>,
}

/// The spread of one figure over many runs. Percentiles use the study's
/// nearest-rank rule.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Distribution {
    pub count: usize,
    pub mean: f64,
    pub min: f64,
    pub max: f64,
    pub p5: f64,
    pub p50: f64,
    pub p95: f64,
    pub histogram: Histogram,
}

/// Default number of histogram bins.
pub const HISTOGRAM_BINS: usize = 20;

/// Summarises `values` (non-finite values are ignored); `bins` ≥ 1.
pub(crate) fn distribution(values: &[f64], bins: usize) -> Distribution {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    let bins = bins.max(1);
    if v.is_empty() {
        return Distribution {
            count: 0,
            mean: f64::NAN,
            min: f64::NAN,
            max: f64::NAN,
            p5: f64::NAN,
            p50: f64::NAN,
            p95: f64::NAN,
            histogram: Histogram {
                edges: vec![],
                counts: vec![],
            },
        };
    }
    v.sort_unstable_by(f64::total_cmp);
    let (min, max) = (v[0], v[v.len() - 1]);
    let width = if max > min {
        (max - min) / bins as f64
    } else {
        1.0
    };
    let nb = if max > min { bins } else { 1 };
    let mut counts = vec![0u32; nb];
    for &x in &v {
        let i = (((x - min) / width) as usize).min(nb - 1);
        counts[i] += 1;
    }
    // The last edge is exactly `max`, whatever the rounding of `width`.
    let edges = (0..=nb)
        .map(|i| if i == nb { max } else { min + width * i as f64 })
        .collect();
    Distribution {
        count: v.len(),
        mean: crate::stats::accurate_sum(v.iter().copied()) / v.len() as f64,
        min,
        max,
        p5: percentile(&v, 5.0),
        p50: percentile(&v, 50.0),
        p95: percentile(&v, 95.0),
        histogram: Histogram { edges, counts },
    }
}

/// The figures a sweep summarises, in the order tables show them.
pub(crate) const METRICS: [&str; 5] = crate::experiment::metric::names(Metric::SWEPT);

/// A figure of one policy's report, by name (see [`Metric::of`]).
fn metric(r: &PolicyReport, name: &str) -> f64 {
    Metric::from_name(name).map_or(f64::NAN, |m| m.of(&r.summary))
}

/// One metric of one policy over all seeds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricDistribution {
    pub metric: &'static str,
    pub distribution: Distribution,
}

/// One policy over all seeds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PolicyDistributions {
    pub policy: RowPolicy,
    pub metrics: Vec<MetricDistribution>,
}

/// How a policy compares with the first one, seed by seed: the change of
/// each metric in % (negative is better), and on how many seeds it won.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChangeDistributions {
    pub policy: RowPolicy,
    pub base: RowPolicy,
    /// Change in % per metric (seeds where the base is 0 are left out).
    pub changes_pct: Vec<MetricDistribution>,
    /// Seeds on which this policy's p95 is strictly lower than the base's.
    pub p95_better: usize,
    pub p95_worse: usize,
    pub seeds: usize,
}

/// What a seed sweep says.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeedSummary {
    pub seeds: usize,
    pub policies: Vec<PolicyDistributions>,
    /// Every policy after the first against the first.
    pub changes: Vec<ChangeDistributions>,
}

/// Summarises a seed sweep (all runs must list the same policies in the
/// same order, as the sweep functions produce them).
pub fn summarize_seeds(runs: &[SeedRun], bins: usize) -> SeedSummary {
    let Some(first) = runs.first() else {
        return SeedSummary {
            seeds: 0,
            policies: vec![],
            changes: vec![],
        };
    };
    let column =
        |k: usize, m: &str| -> Vec<f64> { runs.iter().map(|r| metric(&r.results[k], m)).collect() };
    let policies = first
        .results
        .iter()
        .enumerate()
        .map(|(k, r)| PolicyDistributions {
            policy: r.policy,
            metrics: METRICS
                .iter()
                .map(|&m| MetricDistribution {
                    metric: m,
                    distribution: distribution(&column(k, m), bins),
                })
                .collect(),
        })
        .collect();
    let changes = (1..first.results.len())
        .map(|k| {
            let changes_pct = METRICS
                .iter()
                .map(|&m| {
                    let v: Vec<f64> = runs
                        .iter()
                        .filter_map(|r| {
                            change_pct(metric(&r.results[0], m), metric(&r.results[k], m))
                        })
                        .collect();
                    MetricDistribution {
                        metric: m,
                        distribution: distribution(&v, bins),
                    }
                })
                .collect();
            let better = runs
                .iter()
                .filter(|r| r.results[k].summary.p95 < r.results[0].summary.p95)
                .count();
            let worse = runs
                .iter()
                .filter(|r| r.results[k].summary.p95 > r.results[0].summary.p95)
                .count();
            ChangeDistributions {
                policy: first.results[k].policy,
                base: first.results[0].policy,
                changes_pct,
                p95_better: better,
                p95_worse: worse,
                seeds: runs.len(),
            }
        })
        .collect();
    SeedSummary {
        seeds: runs.len(),
        policies,
        changes,
    }
}

/// The quantum at which a metric is lowest, for one policy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Best {
    pub quantum: f64,
    pub value: f64,
}

/// What a quantum sweep says about one policy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BestQuantum {
    pub policy: RowPolicy,
    /// False when the policy ignores the quantum (fifo, sjf, srpt): every
    /// run gave the same figures.
    pub depends_on_quantum: bool,
    pub best_p95: Best,
    /// The median's best quantum (the page plots p50 against the quantum).
    pub best_p50: Best,
    pub best_mean: Best,
    pub best_p99: Best,
    /// True when the best p95 is at neither end of the swept range (a real
    /// optimum rather than "smaller/larger is better").
    pub p95_interior: bool,
}

/// The best quantum per policy for p95, p50, p99 and mean (ties go to the
/// quantum listed first).
pub fn best_quanta(runs: &[QuantumRun]) -> Vec<BestQuantum> {
    let Some(first) = runs.first() else {
        return vec![];
    };
    (0..first.results.len())
        .map(|k| {
            let best = |m: &str| -> (usize, Best) {
                let mut bi = 0;
                for (i, r) in runs.iter().enumerate() {
                    if metric(&r.results[k], m) < metric(&runs[bi].results[k], m) {
                        bi = i;
                    }
                }
                (
                    bi,
                    Best {
                        quantum: runs[bi].quantum,
                        value: metric(&runs[bi].results[k], m),
                    },
                )
            };
            let depends = runs
                .iter()
                .any(|r| r.results[k].summary != first.results[k].summary);
            let (i95, best_p95) = best("p95");
            let (lo, hi) = runs.iter().enumerate().fold((0, 0), |(lo, hi), (i, r)| {
                (
                    if r.quantum < runs[lo].quantum { i } else { lo },
                    if r.quantum > runs[hi].quantum { i } else { hi },
                )
            });
            BestQuantum {
                policy: first.results[k].policy,
                depends_on_quantum: depends,
                p95_interior: depends && i95 != lo && i95 != hi,
                best_p95,
                best_p50: best("p50").1,
                best_mean: best("mean").1,
                best_p99: best("p99").1,
            }
        })
        .collect()
}

/// One row per run × policy, with `key` (`seed` or `quantum`) first.
pub(crate) fn runs_csv<'a>(
    key: &str,
    runs: impl IntoIterator<Item = (String, &'a [PolicyReport])>,
) -> String {
    use std::fmt::Write;
    let mut s = format!(
        "{key},policy,mean,p50,p90,p95,p99,max,done_within,context_switches,makespan,mean_wait,utilisation\n"
    );
    for (k, results) in runs {
        for r in results {
            let m = &r.summary;
            let _ = writeln!(
                s,
                "{k},{},{},{},{},{},{},{},{},{},{},{},{}",
                r.policy.name(),
                m.mean,
                m.p50,
                m.p90,
                m.p95,
                m.p99,
                m.max,
                m.done_within,
                m.context_switches,
                m.makespan,
                m.mean_wait,
                m.utilisation
            );
        }
    }
    s
}

/// CSV of a seed sweep.
pub fn seed_runs_csv(runs: &[SeedRun]) -> String {
    runs_csv(
        "seed",
        runs.iter()
            .map(|r| (r.seed.to_string(), r.results.as_slice())),
    )
}

/// CSV of a quantum sweep.
pub fn quantum_runs_csv(runs: &[QuantumRun]) -> String {
    runs_csv(
        "quantum",
        runs.iter()
            .map(|r| (r.quantum.to_string(), r.results.as_slice())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_ranges() {
        let l = SweepLimits::CLI;
        assert_eq!(parse_seed_range("--seeds", "1-50", &l), Ok(1..=50));
        assert_eq!(parse_seed_range("--seeds", "7", &l), Ok(7..=7));
        for bad in ["", "5-1", "-3", "a-b", "1-", "0-100000", "1-2-3"] {
            let e = parse_seed_range("--seeds", bad, &l).unwrap_err();
            assert!(e.to_string().starts_with("invalid --seeds"), "{bad}: {e}");
        }
        assert!(parse_seed_range("--seeds", "0-99999", &l).is_ok());
    }

    #[test]
    fn quanta_lists() {
        let l = SweepLimits::CLI;
        assert_eq!(
            parse_quanta("--quanta", "1, 2.5,16", &l),
            Ok(vec![1.0, 2.5, 16.0])
        );
        for bad in ["", "0", "1,1", "1,-2", "1,,2", "x", "NaN"] {
            assert!(parse_quanta("--quanta", bad, &l).is_err(), "{bad}");
        }
        let many: Vec<String> = (1..=201).map(|i| i.to_string()).collect();
        assert!(parse_quanta("--quanta", &many.join(","), &l).is_err());
    }

    #[test]
    fn distributions() {
        let v: Vec<f64> = (0..100).map(|i| i as f64).collect();
        let d = distribution(&v, 10);
        assert_eq!(
            (d.min, d.max, d.p5, d.p50, d.p95),
            (0.0, 99.0, 5.0, 50.0, 95.0)
        );
        assert_eq!(d.histogram.counts.iter().sum::<u32>(), 100);
        assert_eq!(d.histogram.edges.len(), 11);
        let one = distribution(&[3.0, 3.0], 10);
        assert_eq!(one.histogram.counts, vec![2]);
        assert_eq!(distribution(&[], 5).count, 0);
    }

    #[test]
    fn log_spacing() {
        let q = log_quanta(0.5, 500.0, 13);
        assert_eq!(q.first(), Some(&0.5));
        assert_eq!(q.last(), Some(&500.0));
        assert!(q.windows(2).all(|w| w[0] < w[1]));
    }
}
