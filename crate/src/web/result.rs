//! What the worker sends the page after a run: the report (the CLI's JSON
//! object), the figures the charts need, and the raw schedules as typed
//! arrays so that `postMessage` can transfer them without copying.

use js_sys::{Array, Float64Array, Object, Reflect, Uint16Array, Uint32Array};
use serde::Serialize;
use wasm_bindgen::JsValue;

use crate::experiment::{Experiment, Outcome};
use crate::workload::Workload;
use std::collections::BTreeMap;

use crate::experiment::metric::Metric;
use crate::experiment::reading;
use crate::experiment::summary;
use crate::stats::{self, change_pct};
use crate::text::Lang;

/// At most this many points per CDF line (a polyline of more is invisible).
pub const CDF_POINTS: usize = 1500;

pub(crate) fn set(obj: &Object, key: &str, value: &JsValue) {
    // Setting a property on a plain object cannot fail.
    let _ = Reflect::set(obj, &JsValue::from_str(key), value);
}

pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

/// A heading in both languages.
#[derive(Serialize)]
struct Both {
    en: String,
    zh: String,
}

/// One table row: the summary plus its change against the first policy.
#[derive(Serialize)]
struct Row<'a> {
    policy: &'a str,
    /// The row's heading (`FIFO`, …, or "as recorded").
    title: Both,
    /// The index of the policy's colour (the Gantt's and the CDF's);
    /// `null` for a trace's "as recorded" row, which is not a policy.
    colour: Option<usize>,
    /// Whether the quantum shapes this policy (the table names it beside).
    uses_quantum: bool,
    #[serde(flatten)]
    summary: &'a summary::Summary,
    /// % change of each metric versus the first policy (`null` for it, or
    /// where the base is 0).
    change: Option<BTreeMap<&'static str, Option<f64>>>,
    /// The change as the cell shows it (`−28 %`, `±0 %`), and whether it
    /// is `better`, `worse` or `same`: one threshold, `reading::SAME_PCT`.
    change_text: Option<BTreeMap<&'static str, String>>,
    verdict: Option<BTreeMap<&'static str, &'static str>>,
}

/// The table's rows as `(policy, figures)`: an "as recorded" row first (a
/// trace's tasks as they ran) when given, the baseline of every change.
fn entries<'a>(
    outcome: &'a Outcome,
    recorded: Option<&'a summary::Summary>,
) -> Vec<(&'a str, &'a summary::Summary)> {
    recorded
        .map(|s| (crate::experiment::recorded::RECORDED, s))
        .into_iter()
        .chain(outcome.runs.iter().map(|r| (r.policy.name(), &r.summary)))
        .collect()
}

/// The page's table, as plain data.
pub fn table(outcome: &Outcome) -> JsValue {
    table_with(outcome, None)
}

/// The table with an "as recorded" row first.
pub fn table_with(outcome: &Outcome, recorded: Option<&summary::Summary>) -> JsValue {
    let all = entries(outcome, recorded);
    let base = all.first().map(|r| r.1);
    let rows: Vec<Row> = all
        .iter()
        .enumerate()
        .map(|(i, &(policy, s))| {
            let changes: Option<Vec<(Metric, Option<f64>)>> = (i > 0).then(|| {
                let b = base.expect("a first run exists");
                Metric::ALL
                    .into_iter()
                    .map(|m| (m, change_pct(m.of(b), m.of(s))))
                    .collect()
            });
            let shown = |f: &dyn Fn(Metric, f64) -> String| {
                changes.as_ref().map(|c| {
                    c.iter()
                        .filter_map(|&(m, p)| Some((m.name(), f(m, p?))))
                        .collect::<BTreeMap<_, _>>()
                })
            };
            // The runs follow an "as recorded" row, if there is one.
            let run = i.checked_sub(all.len() - outcome.runs.len());
            Row {
                policy,
                title: Both {
                    en: reading::policy_title(policy, Lang::En),
                    zh: reading::policy_title(policy, Lang::Zh),
                },
                colour: run,
                uses_quantum: run.is_some_and(|r| outcome.runs[r].policy.uses_quantum()),
                summary: s,
                change_text: shown(&|_, p| reading::change_text(p)),
                verdict: changes.as_ref().map(|c| {
                    c.iter()
                        .filter_map(|&(m, p)| Some((m.name(), reading::verdict(m, p?))))
                        .collect()
                }),
                change: changes.map(|c| c.into_iter().map(|(m, p)| (m.name(), p)).collect()),
            }
        })
        .collect();
    to_js(&rows)
}

/// The table's reading (`reading::comparison`) in both languages:
/// `{en, zh}`.
pub fn reading_with(outcome: &Outcome, recorded: Option<&summary::Summary>) -> JsValue {
    let all = entries(outcome, recorded);
    let o = Object::new();
    set(&o, "en", &reading::comparison(&all, Lang::En).into());
    set(&o, "zh", &reading::comparison(&all, Lang::Zh).into());
    o.into()
}

/// What the result shows of the workload itself: the durations' histogram
/// and the class drawn as "long". Computed once the workload is drawn,
/// while other workers run policies (see `Runner::prepare`), so that
/// building the result walks no task.
pub(crate) struct WorkloadFigures {
    hist: (f64, bool, Vec<u32>),
    long_class: Option<u16>,
}

impl WorkloadFigures {
    pub fn of(w: &Workload) -> WorkloadFigures {
        WorkloadFigures {
            hist: super::plots::histogram(&w.work, &w.class, w.class_labels.len()),
            long_class: long_class(w),
        }
    }
}

/// The full result object (see `www/jobs.js` for its use); `cdfs` are the
/// runs' CDF points ([`cdf_points_unsorted`] of each one's latencies,
/// computed where the policy ran), `figures` the workload's.
pub fn build(
    exp: &Experiment,
    outcome: &Outcome,
    recorded: bool,
    cdfs: &[(Vec<f64>, Vec<f64>)],
    figures: &WorkloadFigures,
) -> JsValue {
    let w = &outcome.workload;
    let obj = Object::new();
    set(&obj, "report", &to_js(&outcome.report()));
    set(&obj, "rows", &table(outcome));
    set(&obj, "reading", &reading_with(outcome, None));
    set(&obj, "within", &exp.within.into());
    set(&obj, "quantum", &exp.quantum.into());
    set(&obj, "cores", &(exp.core_count() as u32).into());
    // The machine, for the Gantt's lanes: its description when one was
    // named, and each core's kind (P or E).
    let machine = exp.machine();
    let named = if exp.machine.is_some() {
        machine.describe(true)
    } else {
        Default::default()
    };
    set(&obj, "machine", &named.en.into());
    set(&obj, "machine_zh", &named.zh.into());
    let kinds: String = machine
        .cores
        .iter()
        .map(|c| match c.kind {
            crate::sim::CoreKind::Performance => 'P',
            crate::sim::CoreKind::Efficiency => 'E',
        })
        .collect();
    set(&obj, "core_kinds", &kinds.into());
    set(&obj, "gantt", &recorded.into());
    set(&obj, "classes", &to_js(&w.class_labels));
    // Per task, read by the Gantt's slices and tooltips only: empty when
    // no Gantt is drawn (a million tasks' arrays cost more to build than
    // the rest of the result).
    let n = if recorded { w.len() } else { 0 };
    set(&obj, "work", &Float64Array::from(&w.work[..n]).into());
    set(&obj, "arrival", &Float64Array::from(&w.arrival[..n]).into());
    set(&obj, "class", &Uint16Array::from(&w.class[..n]).into());
    // Computed in the worker, so the main thread never walks every task.
    let (hi, cut, counts) = &figures.hist;
    set(&obj, "hist_hi", &(*hi).into());
    set(&obj, "hist_cut", &(*cut).into());
    set(&obj, "hist_counts", &Uint32Array::from(&counts[..]).into());
    set(
        &obj,
        "long_class",
        &figures.long_class.map_or(-1.0, f64::from).into(),
    );

    let runs = Array::new();
    for (r, (xs, ys)) in outcome.runs.iter().zip(cdfs) {
        let ro = Object::new();
        let s = &r.schedule;
        set(&ro, "policy", &r.policy.name().into());
        let completion: Vec<f64> = s.outcomes.iter().map(|o| o.completion).collect();
        let first: Vec<f64> = s.outcomes.iter().map(|o| o.first_start).collect();
        let slices: Vec<u32> = s.outcomes.iter().map(|o| o.slices).collect();
        set(
            &ro,
            "completion",
            &Float64Array::from(&completion[..]).into(),
        );
        set(&ro, "first_start", &Float64Array::from(&first[..]).into());
        set(&ro, "slices", &Uint32Array::from(&slices[..]).into());
        set(&ro, "makespan", &s.makespan.into());
        let seg_core: Vec<u32> = s.segments.iter().map(|g| g.core).collect();
        let seg_task: Vec<u32> = s.segments.iter().map(|g| g.task).collect();
        let seg_start: Vec<f64> = s.segments.iter().map(|g| g.start).collect();
        let seg_end: Vec<f64> = s.segments.iter().map(|g| g.end).collect();
        set(&ro, "seg_core", &Uint32Array::from(&seg_core[..]).into());
        set(&ro, "seg_task", &Uint32Array::from(&seg_task[..]).into());
        set(&ro, "seg_start", &Float64Array::from(&seg_start[..]).into());
        set(&ro, "seg_end", &Float64Array::from(&seg_end[..]).into());

        set(&ro, "cdf_x", &Float64Array::from(&xs[..]).into());
        set(&ro, "cdf_y", &Float64Array::from(&ys[..]).into());
        set(&ro, "p50", &r.summary.p50.into());
        set(&ro, "p95", &r.summary.p95.into());
        runs.push(&ro);
    }
    set(&obj, "runs", &runs);
    obj.into()
}

/// The class drawn as "long": the one with the largest mean work (none
/// with a single class).
fn long_class(w: &Workload) -> Option<u16> {
    let mut sums = vec![(0.0f64, 0usize); w.class_labels.len()];
    for (&c, &x) in w.class.iter().zip(&w.work) {
        if let Some(s) = sums.get_mut(c as usize) {
            s.0 += x;
            s.1 += 1;
        }
    }
    if sums.len() <= 1 {
        return None;
    }
    sums.iter()
        .enumerate()
        .filter(|(_, s)| s.1 > 0)
        .max_by(|a, b| (a.1 .0 / a.1 .1 as f64).total_cmp(&(b.1 .0 / b.1 .1 as f64)))
        .map(|(i, _)| i as u16)
}

/// The empirical CDF of `values` (in any order): `(x, share of tasks with
/// latency ≤ x)`, thinned to about `max` points evenly in rank, found by
/// selecting only the ranks the line needs ([`stats::at_ranks`]), not by
/// sorting a million latencies.
pub fn cdf_points_unsorted(values: &[f64], max: usize) -> (Vec<f64>, Vec<f64>) {
    let n = values.len();
    let ranks = cdf_ranks(n, max);
    let picked = stats::at_ranks(values, &ranks);
    let Some(&first) = picked.first() else {
        return (vec![], vec![]);
    };
    let mut xs = Vec::with_capacity(ranks.len() + 1);
    let mut ys = Vec::with_capacity(ranks.len() + 1);
    xs.push(first);
    ys.push(0.0);
    for (&r, &x) in ranks.iter().zip(&picked) {
        xs.push(x);
        ys.push((r + 1) as f64 / n as f64);
    }
    (xs, ys)
}

/// The ranks [`cdf_points_unsorted`] reads: every `step`-th from 0, and the last.
fn cdf_ranks(n: usize, max: usize) -> Vec<usize> {
    if n == 0 {
        return vec![];
    }
    let step = n.div_ceil(max.max(2)).max(1);
    let mut ranks: Vec<usize> = (0..n).step_by(step).collect();
    if ranks.last().is_some_and(|&r| r + 1 < n) {
        ranks.push(n - 1);
    }
    ranks
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// The CDF's points read off `sorted` (ascending), the rule
    /// [`cdf_points_unsorted`] must give without sorting.
    fn cdf_points(sorted: &[f64], max: usize) -> (Vec<f64>, Vec<f64>) {
        let n = sorted.len();
        if n == 0 {
            return (vec![], vec![]);
        }
        let step = n.div_ceil(max.max(2)).max(1);
        let mut xs = Vec::with_capacity(n / step + 2);
        let mut ys = Vec::with_capacity(n / step + 2);
        xs.push(sorted[0]);
        ys.push(0.0);
        let mut i = 0;
        while i < n {
            xs.push(sorted[i]);
            ys.push((i + 1) as f64 / n as f64);
            i += step;
        }
        if *ys.last().unwrap_or(&0.0) < 1.0 {
            xs.push(sorted[n - 1]);
            ys.push(1.0);
        }
        (xs, ys)
    }

    /// Selecting the ranks gives exactly the points of sorting first, for
    /// sizes around the selection's sort threshold and with ties.
    #[wasm_bindgen_test]
    fn selected_cdf_points_equal_the_sorted_ones() {
        let mut x: u64 = 7;
        for n in [0usize, 1, 2, 5, 1499, 1500, 6000, 6001, 20_000, 123_457] {
            let values: Vec<f64> = (0..n)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((x >> 40) % 5000) as f64 / 8.0
                })
                .collect();
            let mut sorted = values.clone();
            sorted.sort_unstable_by(f64::total_cmp);
            assert_eq!(
                cdf_points_unsorted(&values, CDF_POINTS),
                cdf_points(&sorted, CDF_POINTS),
                "n = {n}"
            );
        }
    }
}
