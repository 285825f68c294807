//! The "Run for real" panel's bindings (`www/realrun.js`).
//!
//! [`RealRunPlan`] is made from the page's query (and an imported task
//! list, if any): it hands the page the scaled tasks and every slice of the
//! model's one-core `fifo` and `rr` schedules in one flat typed array, takes
//! back what each pass measured, and answers with the table, the yield cost,
//! the comparisons and every sentence in both languages. The page only
//! spins, yields and reads clocks.

use js_sys::{Float64Array, Object, Uint32Array};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::query;
use super::result::{set, to_js};
use crate::experiment::Limits;
use crate::explain::Lang;
use crate::import;
use crate::policy::PolicyKind;
use crate::realrun::{plan, text, Environment, Pass, PassCounts, Plan, RealSettings, Report};
use crate::workload::Workload;

fn both(f: impl Fn(Lang) -> String) -> JsValue {
    let o = Object::new();
    set(&o, "en", &f(Lang::En).into());
    set(&o, "zh", &f(Lang::Zh).into());
    o.into()
}

fn policy(name: &str) -> Result<PolicyKind, JsError> {
    plan::POLICIES
        .into_iter()
        .find(|p| p.name() == name)
        .ok_or_else(|| JsError::new(&format!("unknown real-run policy '{name}'")))
}

fn environment(env: JsValue) -> Result<Environment, JsError> {
    serde_wasm_bindgen::from_value(env).map_err(|e| JsError::new(&e.to_string()))
}

/// A planned real run and the passes measured so far.
#[wasm_bindgen]
pub struct RealRunPlan {
    plan: Plan,
    query: String,
    passes: Vec<Pass>,
}

#[derive(Serialize)]
struct DownloadFile<'a> {
    tailslice: &'static str,
    version: u32,
    query: &'a str,
    settings: &'a RealSettings,
    environment: &'a Environment,
    scale: f64,
    quantum_ms: f64,
    within_ms: f64,
    switch_cost_ms: f64,
    arrival_ms: &'a [f64],
    work_ms: &'a [f64],
    plan: Vec<PlanOut<'a>>,
    passes: &'a [Pass],
    report: &'a Report,
}

#[derive(Serialize)]
struct PlanOut<'a> {
    policy: &'static str,
    /// `[task, length_ms]` in the model's order.
    slices: &'a [(u32, f64)],
    completion_order: Vec<u32>,
    simulated_completion_ms: Vec<f64>,
}

#[wasm_bindgen]
impl RealRunPlan {
    /// Plans a real run of the page query `page_query` (its `real_*` keys
    /// included) on the imported `tasks`, or on the drawn workload when
    /// `tasks` is absent. Throws `{en, zh}` when no run can be planned.
    #[wasm_bindgen(constructor)]
    pub fn new(page_query: &str, tasks: Option<String>) -> Result<RealRunPlan, JsValue> {
        let (exp, page) = query::parse(page_query, &Limits::WEB);
        if !page.errors.is_empty() {
            let msgs: Vec<String> = page.errors.into_iter().map(|e| e.message).collect();
            let m = msgs.join("; ");
            return Err(both(|_| m.clone()));
        }
        let (exp, workload) = match tasks {
            Some(text) => {
                let w = import::parse_task_list(&text, &Limits::WEB).map_err(|e| {
                    let m = e.to_string();
                    both(|_| m.clone())
                })?;
                (import::experiment_for(&exp, &w), w)
            }
            None => {
                let w = Workload::generate(&exp.workload_spec());
                (exp, w)
            }
        };
        let plan = Plan::build(&exp, &workload, page.real)
            .map_err(|e| both(|lang| text::plan_error(&e, lang)))?;
        Ok(RealRunPlan {
            plan,
            query: page.query,
            passes: Vec::new(),
        })
    }

    /// `{scale, quantum, within, pass_ms, tasks, fifo_slices, rr_slices,
    /// repeats, yield, cores, notes: {en: [...], zh: [...]}}`.
    pub fn info(&self) -> JsValue {
        let p = &self.plan;
        let o = Object::new();
        set(&o, "scale", &p.scale.into());
        set(&o, "quantum", &p.quantum.into());
        set(&o, "within", &p.within.into());
        set(&o, "pass_ms", &p.pass_ms().into());
        set(&o, "tasks", &(p.workload.len() as u32).into());
        set(&o, "fifo_slices", &(p.passes[0].slices.len() as u32).into());
        set(&o, "rr_slices", &(p.passes[1].slices.len() as u32).into());
        set(&o, "repeats", &p.settings.repeats.into());
        set(&o, "yield", &p.settings.yield_kind.name().into());
        set(&o, "cores", &(p.experiment_cores as u32).into());
        let notes = Object::new();
        for lang in [Lang::En, Lang::Zh] {
            set(
                &notes,
                lang.code(),
                &to_js(&text::plan_notes(p, p.settings.repeats, lang)),
            );
        }
        set(&o, "notes", &notes.into());
        o.into()
    }

    /// Every slice of both passes: `[task, length_ms, …]`, the `fifo`
    /// pass's `info().fifo_slices` pairs first, then `rr`'s.
    pub fn slices(&self) -> Float64Array {
        Float64Array::from(&self.plan.packed_slices()[..])
    }

    /// Arrival of each task at the run's scale (ms from the pass's start).
    pub fn arrival(&self) -> Float64Array {
        Float64Array::from(&self.plan.workload.arrival[..])
    }

    /// Work of each task at the run's scale (ms).
    pub fn work(&self) -> Float64Array {
        Float64Array::from(&self.plan.workload.work[..])
    }

    /// Task ids in the model's completion order under `policy`.
    #[wasm_bindgen(js_name = completionOrder)]
    pub fn completion_order(&self, policy_name: &str) -> Result<Uint32Array, JsError> {
        let order = self.plan.completion_order(policy(policy_name)?);
        Ok(Uint32Array::from(&order[..]))
    }

    /// Records one measured pass. `counts` is a [`PassCounts`] object;
    /// `input` is `undefined` where Event Timing is not available.
    #[wasm_bindgen(js_name = addPass)]
    #[allow(clippy::too_many_arguments)]
    pub fn add_pass(
        &mut self,
        policy_name: &str,
        repeat: u32,
        completion: Vec<f64>,
        busy: Vec<f64>,
        gaps: Vec<f64>,
        probe: Vec<f64>,
        input: Option<Vec<f64>>,
        counts: JsValue,
    ) -> Result<(), JsError> {
        let n = self.plan.workload.len();
        if completion.len() != n || busy.len() != n {
            return Err(JsError::new(&format!(
                "a pass needs {n} completions and busy times"
            )));
        }
        let counts: PassCounts =
            serde_wasm_bindgen::from_value(counts).map_err(|e| JsError::new(&e.to_string()))?;
        self.passes.push(Pass {
            policy: policy(policy_name)?,
            repeat,
            completion,
            busy,
            gaps,
            probe_late: probe,
            input_delay: input,
            counts,
        });
        Ok(())
    }

    /// The panel's figures and sentences for the passes so far (see
    /// `crate::realrun::Report`).
    pub fn report(&self, env: JsValue) -> Result<JsValue, JsError> {
        let env = environment(env)?;
        Ok(to_js(&Report::build(&self.plan, &self.passes, &env)))
    }

    /// The run as a JSON file: settings, environment, the scaled tasks, the
    /// plan, every raw measurement (latencies, busy times, gaps, probe and
    /// input delays) and the report.
    pub fn json(&self, env: JsValue) -> Result<String, JsError> {
        let env = environment(env)?;
        let report = Report::build(&self.plan, &self.passes, &env);
        let p = &self.plan;
        let file = DownloadFile {
            tailslice: "real-run",
            version: 1,
            query: &self.query,
            settings: &p.settings,
            environment: &env,
            scale: p.scale,
            quantum_ms: p.quantum,
            within_ms: p.within,
            switch_cost_ms: p.switch_cost,
            arrival_ms: &p.workload.arrival,
            work_ms: &p.workload.work,
            plan: p
                .passes
                .iter()
                .map(|pp| PlanOut {
                    policy: pp.policy.name(),
                    slices: &pp.slices,
                    completion_order: p.completion_order(pp.policy),
                    simulated_completion_ms: pp
                        .schedule
                        .outcomes
                        .iter()
                        .map(|o| o.completion)
                        .collect(),
                })
                .collect(),
            passes: &self.passes,
            report: &report,
        };
        serde_json::to_string(&file).map_err(|e| JsError::new(&e.to_string()))
    }
}

/// Isolation and the clock's step, in words: `{en, zh}`.
#[wasm_bindgen(js_name = realRunEnvironment)]
pub fn real_run_environment(isolated: bool, resolution_ms: f64) -> JsValue {
    both(|lang| text::environment(isolated, resolution_ms, lang))
}

/// "not available" in both languages: `{en, zh}`.
#[wasm_bindgen(js_name = realRunNotAvailable)]
pub fn real_run_not_available() -> JsValue {
    both(|lang| text::na(lang).to_string())
}
