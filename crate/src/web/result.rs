//! What the worker sends the page after a run: the report (the CLI's JSON
//! object), the figures the charts need, and the raw schedules as typed
//! arrays so that `postMessage` can transfer them without copying.

use js_sys::{Array, Float64Array, Object, Reflect, Uint32Array};
use serde::Serialize;
use wasm_bindgen::JsValue;

use crate::chart;
use crate::experiment::{Experiment, RunOutcome};
use crate::workload::Workload;
use std::collections::BTreeMap;

use crate::experiment::metric::Metric;
use crate::experiment::reading;
use crate::experiment::summary;
use crate::stats::change_pct;
use crate::text::{Filled, Lang};

pub(crate) fn set(obj: &Object, key: &str, value: &JsValue) {
    // Setting a property on a plain object cannot fail.
    let _ = Reflect::set(obj, &JsValue::from_str(key), value);
}

pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

/// One table row: the summary plus its change against the first policy.
#[derive(Serialize)]
struct Row<'a> {
    policy: &'a str,
    /// The row's heading (`FIFO`, …, or "as recorded").
    title: Filled,
    /// The index of the policy's colour (the Gantt's and the CDF's);
    /// `null` for a trace's "as recorded" row, which is not a policy.
    colour: Option<usize>,
    /// Whether the quantum shapes this policy (the table names it beside).
    uses_quantum: bool,
    #[serde(flatten)]
    summary: &'a summary::Summary,
    /// % change of each metric versus the baseline row (`null` for it and
    /// any row before it, or where the base is 0).
    change: Option<BTreeMap<&'static str, Option<f64>>>,
    /// The baseline row's policy (`recorded` for a trace's "as recorded"
    /// row), for the cells' tooltips; `null` where there is no change.
    base: Option<&'a str>,
    /// The change as the cell shows it (`−28 %`, `±0 %`), and whether it
    /// is `better`, `worse` or `same`: one threshold, `reading::SAME_PCT`.
    change_text: Option<BTreeMap<&'static str, String>>,
    verdict: Option<BTreeMap<&'static str, &'static str>>,
}

/// The table's rows as `(policy, figures)`: an "as recorded" row first (a
/// trace's tasks as they ran) when given, the baseline of every change.
fn entries<'a>(
    outcome: &'a RunOutcome,
    recorded: Option<&'a summary::Summary>,
) -> Vec<(&'a str, &'a summary::Summary)> {
    recorded
        .map(|s| (crate::experiment::recorded::RECORDED, s))
        .into_iter()
        .chain(outcome.runs.iter().map(|r| (r.policy.name(), &r.summary)))
        .collect()
}

/// The page's table, as plain data.
pub fn table(outcome: &RunOutcome) -> JsValue {
    table_with(outcome, None)
}

/// The table with an "as recorded" row first, the baseline of every
/// change.
pub fn table_with(outcome: &RunOutcome, recorded: Option<&summary::Summary>) -> JsValue {
    table_against(outcome, &entries(outcome, recorded), 0)
}

/// The table with an "as recorded" row first that is not the baseline (the
/// policies ran the tasks at other arrivals): the first policy is.
pub fn table_beside_recorded(outcome: &RunOutcome, recorded: &summary::Summary) -> JsValue {
    table_against(outcome, &entries(outcome, Some(recorded)), 1)
}

/// The rows, each after row `base` with its change against that row.
fn table_against(outcome: &RunOutcome, all: &[(&str, &summary::Summary)], base: usize) -> JsValue {
    let base_row = all.get(base).copied();
    let rows: Vec<Row> = all
        .iter()
        .enumerate()
        .map(|(i, &(policy, s))| {
            let changes: Option<Vec<(Metric, Option<f64>)>> = (i > base).then(|| {
                let b = base_row.expect("a baseline row exists").1;
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
                base: changes.as_ref().and(base_row).map(|b| b.0),
                title: Filled::each(|lang| reading::policy_title(policy, lang)),
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
pub fn reading_with(outcome: &RunOutcome, recorded: Option<&summary::Summary>) -> JsValue {
    let all = entries(outcome, recorded);
    let o = Object::new();
    set(&o, "en", &reading::comparison(&all, Lang::En).into());
    set(&o, "zh", &reading::comparison(&all, Lang::Zh).into());
    o.into()
}

/// What the result shows of the workload itself: the durations'
/// histogram. Computed once the workload is drawn, while other workers run
/// policies (see `Runner::prepare`), so that building the result walks
/// fewer tasks.
pub(crate) struct WorkloadFigures {
    bins: chart::histogram::Bins,
}

impl WorkloadFigures {
    pub fn of(w: &Workload) -> WorkloadFigures {
        WorkloadFigures {
            bins: chart::histogram::bins(&w.work, &w.class, w.class_labels.len()),
        }
    }
}

/// The full result object (see `www/jobs.js` for its use): `segments`
/// says whether the schedules' segments were recorded (small enough to
/// draw); `generated` whether the tasks came from the mix (their classes
/// are ranges of durations); `cdfs` are the runs' CDF points
/// (`chart::cdf::points_unsorted` of each one's latencies, computed where
/// the policy ran), `figures` the workload's.
pub fn build(
    exp: &Experiment,
    outcome: &RunOutcome,
    segments: bool,
    generated: bool,
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
    set(&obj, "classes", &to_js(&w.class_labels));
    set(
        &obj,
        "class_names",
        &to_js(&chart::gantt::class_names(w, generated)),
    );
    // Computed in the worker, so the main thread never walks every task.
    let bins = &figures.bins;
    set(&obj, "hist_hi", &bins.hi.into());
    set(&obj, "hist_cut", &bins.cut.into());
    set(
        &obj,
        "hist_counts",
        &Uint32Array::from(&bins.counts[..]).into(),
    );
    let lanes = chart::gantt::study(exp, outcome, segments, generated);
    set(
        &obj,
        "gantt",
        &super::gantt::study_wire(&lanes, outcome, generated).into(),
    );

    let runs = Array::new();
    for (r, (xs, ys)) in outcome.runs.iter().zip(cdfs) {
        let ro = Object::new();
        set(&ro, "policy", &r.policy.name().into());
        set(&ro, "makespan", &r.schedule.makespan.into());
        set(&ro, "cdf_x", &Float64Array::from(&xs[..]).into());
        set(&ro, "cdf_y", &Float64Array::from(&ys[..]).into());
        set(&ro, "p50", &r.summary.p50.into());
        set(&ro, "p95", &r.summary.p95.into());
        runs.push(&ro);
    }
    set(&obj, "runs", &runs);
    obj.into()
}
