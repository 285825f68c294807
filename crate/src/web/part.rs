//! One policy of an experiment, run and ready for the result: its figures,
//! its schedule and its CDF's points ([`Ran`]). The page's worker runs a
//! large experiment's policies side by side, one per helper worker: a
//! helper sends its policy back as a part ([`to_js`]), and the worker that
//! builds the result takes it in ([`from_js`]) as if it had run it.
//!
//! A part carries what the result reads of a schedule: the figures, the
//! CDF's points and the schedule's totals, plus (when the Gantt is drawn)
//! each task's outcome and the slices, as typed arrays that `postMessage`
//! transfers. Without a Gantt it is a few kilobytes, whatever the task count.

use js_sys::{Float64Array, Object, Reflect, Uint32Array};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::result::{set, to_js as js_value};
use crate::chart::cdf;
use crate::experiment::summary::Summary;
use crate::experiment::PolicyRun;
use crate::policy::PolicyKind;
use crate::sim::trace::Segment;
use crate::sim::{Schedule, TaskOutcome};
use crate::workload::Workload;

/// A policy's run with its CDF's points (`cdf::run_points`), computed
/// where the policy ran.
#[derive(Clone, Debug)]
pub(crate) struct Ran {
    pub run: PolicyRun,
    pub cdf: (Vec<f64>, Vec<f64>),
}

impl Ran {
    /// `run` on `workload`, with its CDF.
    pub fn new(run: PolicyRun, workload: &Workload) -> Ran {
        let cdf = cdf::run_points(workload, &run);
        Ran { run, cdf }
    }
}

/// A part's figures and totals (the typed arrays travel beside them).
#[derive(Serialize, Deserialize)]
struct Totals {
    policy: String,
    summary: Summary,
    cdf_x: Vec<f64>,
    cdf_y: Vec<f64>,
    context_switches: u64,
    slices: u64,
    makespan: f64,
    busy_time: f64,
    switch_time: f64,
    cores: usize,
    end: f64,
}

/// The part object of `ran`: `{totals, first_start, completion, slices,
/// seg_core, seg_task, seg_start, seg_end}` (the arrays empty unless the
/// run kept outcomes and segments).
pub(crate) fn to_js(ran: &Ran) -> JsValue {
    let s = &ran.run.schedule;
    let o = Object::new();
    let totals = Totals {
        policy: ran.run.policy.name().to_string(),
        summary: ran.run.summary.clone(),
        cdf_x: ran.cdf.0.clone(),
        cdf_y: ran.cdf.1.clone(),
        context_switches: s.context_switches,
        slices: s.slices,
        makespan: s.makespan,
        busy_time: s.busy_time,
        switch_time: s.switch_time,
        cores: s.cores,
        end: s.end,
    };
    set(&o, "totals", &js_value(&totals));
    let f64s = |v: Vec<f64>| JsValue::from(Float64Array::from(&v[..]));
    let u32s = |v: Vec<u32>| JsValue::from(Uint32Array::from(&v[..]));
    let outcomes = &s.outcomes;
    set(
        &o,
        "first_start",
        &f64s(outcomes.iter().map(|t| t.first_start).collect()),
    );
    set(
        &o,
        "completion",
        &f64s(outcomes.iter().map(|t| t.completion).collect()),
    );
    set(
        &o,
        "slices",
        &u32s(outcomes.iter().map(|t| t.slices).collect()),
    );
    let segs = &s.segments;
    set(&o, "seg_core", &u32s(segs.iter().map(|g| g.core).collect()));
    set(&o, "seg_task", &u32s(segs.iter().map(|g| g.task).collect()));
    set(
        &o,
        "seg_start",
        &f64s(segs.iter().map(|g| g.start).collect()),
    );
    set(&o, "seg_end", &f64s(segs.iter().map(|g| g.end).collect()));
    o.into()
}

/// The run of `policy` that `part` (a [`to_js`] object) carries.
pub(crate) fn from_js(policy: PolicyKind, part: &JsValue) -> Result<Ran, JsError> {
    let bad = |what: &str| JsError::new(&format!("a part of {}: {what}", policy.name()));
    let get = |key: &str| Reflect::get(part, &JsValue::from_str(key)).map_err(|_| bad(key));
    let totals: Totals =
        serde_wasm_bindgen::from_value(get("totals")?).map_err(|e| bad(&e.to_string()))?;
    if totals.policy != policy.name() {
        return Err(bad(&format!("it is a part of {}", totals.policy)));
    }
    let f64s = |key: &str| -> Result<Vec<f64>, JsError> {
        Ok(get(key)?
            .dyn_into::<Float64Array>()
            .map_err(|_| bad(key))?
            .to_vec())
    };
    let u32s = |key: &str| -> Result<Vec<u32>, JsError> {
        Ok(get(key)?
            .dyn_into::<Uint32Array>()
            .map_err(|_| bad(key))?
            .to_vec())
    };
    let (first, completion, slices) = (f64s("first_start")?, f64s("completion")?, u32s("slices")?);
    if completion.len() != first.len() || slices.len() != first.len() {
        return Err(bad("its outcome arrays differ in length"));
    }
    let outcomes: Vec<TaskOutcome> = first
        .iter()
        .zip(&completion)
        .zip(&slices)
        .map(|((&first_start, &completion), &slices)| TaskOutcome {
            first_start,
            completion,
            slices,
        })
        .collect();
    let (core, task) = (u32s("seg_core")?, u32s("seg_task")?);
    let (start, end) = (f64s("seg_start")?, f64s("seg_end")?);
    if [task.len(), start.len(), end.len()]
        .iter()
        .any(|&l| l != core.len())
    {
        return Err(bad("its slice arrays differ in length"));
    }
    let segments: Vec<Segment> = (0..core.len())
        .map(|i| Segment {
            core: core[i],
            task: task[i],
            start: start[i],
            end: end[i],
        })
        .collect();
    let schedule = Schedule {
        outcomes,
        // The outcomes' (none without a Gantt): the figures and the CDF
        // came with the part, nothing else reads them.
        completions: completion,
        segments,
        context_switches: totals.context_switches,
        slices: totals.slices,
        makespan: totals.makespan,
        busy_time: totals.busy_time,
        switch_time: totals.switch_time,
        cores: totals.cores,
        end: totals.end,
    };
    Ok(Ran {
        run: PolicyRun {
            policy,
            schedule,
            summary: totals.summary,
        },
        cdf: (totals.cdf_x, totals.cdf_y),
    })
}
