//! What a sweep says in words, for the page and `tailslice sweep` alike:
//! the own seed's figures and where its change ranks among the seeds, the
//! reading of one figure over seeds, each policy's best quantum and the
//! switch-cost note. The front ends only pick a language and print.

use serde::Serialize;

use crate::experiment::metric::Metric;
use crate::experiment::sweep::{BestQuantum, Histogram, SeedRun, SeedSummary, METRICS};
use crate::experiment::RowPolicy;
use crate::stats::change_pct;
use crate::text::{Filled, Lang, Text};

/// The sweep's own seed's figures, in [`METRICS`] order: every policy's
/// value, and every policy after the first's change against the first (%).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct OwnSeed {
    pub seed: u64,
    pub values: Vec<Vec<f64>>,
    pub changes: Vec<Vec<Option<f64>>>,
}

fn figure(run: &SeedRun, k: usize, m: &str) -> f64 {
    Metric::from_name(m).map_or(f64::NAN, |m| m.of(&run.results[k].summary))
}

/// The figures of `run` (the experiment's own seed's run).
pub(crate) fn own_seed(run: &SeedRun) -> OwnSeed {
    let values = (0..run.results.len())
        .map(|k| METRICS.iter().map(|m| figure(run, k, m)).collect())
        .collect();
    let changes = (1..run.results.len())
        .map(|k| {
            METRICS
                .iter()
                .map(|m| change_pct(figure(run, 0, m), figure(run, k, m)))
                .collect()
        })
        .collect();
    OwnSeed {
        seed: run.seed,
        values,
        changes,
    }
}

const RANK: Text = Text::new(
    "seed {0}: p95 change {1} % ({2} % of the seeds are at or below it)",
    "种子 {0}：p95 变化 {1}%（{2}% 的种子不高于它）",
);

/// Where `own`'s p95 change of policy `k` against the first falls among
/// the sweep's `runs`: the sentence, or `None` when the change is undefined
/// (a base p95 of 0).
pub fn p95_rank(runs: &[SeedRun], own: &SeedRun, k: usize) -> Option<Filled> {
    let p95 = |r: &SeedRun| change_pct(r.results[0].summary.p95, r.results[k].summary.p95);
    let v = p95(own)?;
    let all: Vec<f64> = runs.iter().filter_map(p95).collect();
    let share = all.iter().filter(|&&x| x <= v).count() as f64 / all.len() as f64;
    Some(RANK.both(&[
        &own.seed.to_string(),
        &format!("{v:+.1}"),
        &format!("{:.0}", share * 100.0),
    ]))
}

const OVER_SEEDS_CHANGE: Text = Text::new(
    "Over {0} seeds ({1}–{2}), {3} changes {4} by {5} % at the median (p5 {6} %, p95 {7} %); it lowers p95 on {8} seeds and raises it on {9}. This seed ({10}): {11} %.",
    "在 {0} 个种子（{1}–{2}）上，{3} 使 {4} 的变化中位数为 {5}%（p5 {6}%，p95 {7}%）；在 {8} 个种子上降低了 p95，在 {9} 个种子上提高了。当前种子（{10}）：{11}%。",
);

const OVER_SEEDS_VALUE: Text = Text::new(
    "Over {0} seeds ({1}–{2}), {3}'s {4} is {5} ms at the median (p5 {6} ms, p95 {7} ms). This seed ({10}): {11} ms.",
    "在 {0} 个种子（{1}–{2}）上，{3} 的 {4} 中位数为 {5} ms（p5 {6} ms，p95 {7} ms）。当前种子（{10}）：{11} ms。",
);

/// The page's reading of one figure over seeds: the first policy's change
/// against the base when there are two or more policies, else its value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct SeedReading {
    pub metric: &'static str,
    /// `change` (in %) or `value` (in ms).
    pub kind: &'static str,
    pub policy: RowPolicy,
    pub p5: f64,
    pub p50: f64,
    pub p95: f64,
    pub seeds: usize,
    pub histogram: Histogram,
    /// The own seed's figure (`None`: a change from a base of 0).
    pub current: Option<f64>,
    pub text: Filled,
}

fn one_decimal(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{v:.1}"))
}

/// One [`SeedReading`] per figure of [`METRICS`], for seeds `from`–`to`.
pub(crate) fn read_seeds(sum: &SeedSummary, own: &OwnSeed, from: u64, to: u64) -> Vec<SeedReading> {
    METRICS
        .iter()
        .enumerate()
        .filter_map(|(mi, &m)| {
            let title = Metric::from_name(m)?.title();
            let (kind, policy, dist, current, better, worse, template) = match sum.changes.first() {
                Some(c) => (
                    "change",
                    c.policy,
                    &c.changes_pct.get(mi)?.distribution,
                    own.changes.first().and_then(|v| v[mi]),
                    c.p95_better,
                    c.p95_worse,
                    OVER_SEEDS_CHANGE,
                ),
                None => {
                    let p = sum.policies.first()?;
                    (
                        "value",
                        p.policy,
                        &p.metrics.get(mi)?.distribution,
                        own.values.first().map(|v| v[mi]),
                        0,
                        0,
                        OVER_SEEDS_VALUE,
                    )
                }
            };
            let text = Filled::each(|lang| {
                template.fill(
                    lang,
                    &[
                        &sum.seeds.to_string(),
                        &from.to_string(),
                        &to.to_string(),
                        &policy.title(lang),
                        title.get(lang),
                        &one_decimal(Some(dist.p50)),
                        &one_decimal(Some(dist.p5)),
                        &one_decimal(Some(dist.p95)),
                        &better.to_string(),
                        &worse.to_string(),
                        &own.seed.to_string(),
                        &one_decimal(current),
                    ],
                )
            });
            Some(SeedReading {
                metric: m,
                kind,
                policy,
                p5: dist.p5,
                p50: dist.p50,
                p95: dist.p95,
                seeds: sum.seeds,
                histogram: dist.histogram.clone(),
                current,
                text,
            })
        })
        .collect()
}

const BEST: Text = Text::new(
    "{0}: best p95 {1} ms at quantum {2} ms{3}; best mean {4} ms at {5} ms; best p99 {6} ms at {7} ms",
    "{0}：p95 最佳 {1} ms，时间片 {2} ms{3}；平均值最佳 {4} ms，时间片 {5} ms；p99 最佳 {6} ms，时间片 {7} ms",
);
const AT_EDGE: Text = Text::new(" (at the edge of the range swept)", "（位于扫描范围边缘）");
const NO_DIFFERENCE: Text = Text::new(
    "{0}: the quantum makes no difference",
    "{0}：时间片不影响结果",
);

/// A policy's best quantum in one sentence; `label` names the policy in
/// each language.
pub fn best_quantum_text(b: &BestQuantum, label: impl Fn(Lang) -> String) -> Filled {
    Filled::each(|lang| {
        if !b.depends_on_quantum {
            return NO_DIFFERENCE.fill(lang, &[&label(lang)]);
        }
        let edge = if b.p95_interior {
            ""
        } else {
            AT_EDGE.get(lang)
        };
        BEST.fill(
            lang,
            &[
                &label(lang),
                &format!("{:.1}", b.best_p95.value),
                &b.best_p95.quantum.to_string(),
                edge,
                &format!("{:.1}", b.best_mean.value),
                &b.best_mean.quantum.to_string(),
                &format!("{:.1}", b.best_p99.value),
                &b.best_p99.quantum.to_string(),
            ],
        )
    })
}

/// The quantum at which `metric` is lowest for `b`'s policy (`None` when
/// the quantum makes no difference, or for a figure without a best).
pub(crate) fn best_quantum_of(b: &BestQuantum, metric: Metric) -> Option<f64> {
    let best = match metric {
        Metric::P95 => &b.best_p95,
        Metric::P50 => &b.best_p50,
        Metric::P99 => &b.best_p99,
        Metric::Mean => &b.best_mean,
        _ => return None,
    };
    b.depends_on_quantum.then_some(best.quantum)
}

const SWITCH_COST: Text = Text::new(
    "(every switch costs {0} ms, so small quanta pay for their switches)",
    "（每次切换耗时 {0} ms，因此小时间片要为切换付出代价）",
);

/// The note under a quantum sweep whose switches cost `ms` (`None` at 0).
pub fn switch_cost_note(ms: f64) -> Option<Filled> {
    (ms > 0.0).then(|| SWITCH_COST.both(&[&ms.to_string()]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::sweep::Best;
    use crate::policy::PolicyKind;

    #[test]
    fn the_best_quantum_sentence_names_the_edge_and_no_difference() {
        let b = BestQuantum {
            policy: RowPolicy::Simulated(PolicyKind::Rr),
            depends_on_quantum: true,
            best_p95: Best {
                quantum: 4.0,
                value: 12.34,
            },
            best_p50: Best {
                quantum: 2.0,
                value: 3.0,
            },
            best_mean: Best {
                quantum: 8.0,
                value: 5.0,
            },
            best_p99: Best {
                quantum: 16.0,
                value: 40.0,
            },
            p95_interior: false,
        };
        let t = best_quantum_text(&b, |_| "rr".into());
        assert_eq!(
            t.en,
            "rr: best p95 12.3 ms at quantum 4 ms (at the edge of the range swept); best mean 5.0 ms at 8 ms; best p99 40.0 ms at 16 ms"
        );
        assert!(t.zh.contains("4 ms"), "{}", t.zh);
        assert_eq!(best_quantum_of(&b, Metric::P50), Some(2.0));
        assert_eq!(best_quantum_of(&b, Metric::Max), None);
        let flat = BestQuantum {
            depends_on_quantum: false,
            ..b
        };
        assert_eq!(
            best_quantum_text(&flat, |_| "fifo".into()).en,
            "fifo: the quantum makes no difference"
        );
        assert_eq!(best_quantum_of(&flat, Metric::P95), None);
        assert_eq!(switch_cost_note(0.0), None);
    }
}
