//! The "Run for real" panel's bindings (`www/realrun.js`).
//!
//! [`RealRunPlan`] is made from the page's query (and an imported task
//! list, if any): it hands the page the scaled tasks, the passes to run
//! (each with its name, its label, whether it yields between slices, and
//! its slices as parallel arrays of task and length) and the order to run
//! them in; it takes back what each pass measured and the yield timed in
//! batches, and answers with the tables (headings, labels and cells), the
//! yield cost, the comparisons, every sentence in both languages and the
//! run as a file. The page only spins, yields, reads clocks and lays out.
//!
//! The plan's small answers are built as JS objects field by field; the
//! report and the run file are the core's JSON (`realrun::file`),
//! converted here.

use js_sys::{Array, Float64Array, Object, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;

use super::query;
use super::result::{set, to_js};
use crate::experiment::Limits;
use crate::realrun::file::RunFile;
use crate::realrun::{
    plan, text, Environment, Pass, PassCounts, Plan, PlanError, RealRunReport, RealSettings,
    YieldBatch,
};
use crate::text::Lang;
use crate::workload::task_list;
use crate::workload::Workload;

fn both(f: impl Fn(Lang) -> String) -> JsValue {
    let o = Object::new();
    set(&o, "en", &f(Lang::En).into());
    set(&o, "zh", &f(Lang::Zh).into());
    o.into()
}

/// A JS array of `f(item)` (a push loop: `collect::<Array>()` brings in
/// more generic code than this).
fn array<T>(items: &[T], f: impl Fn(&T) -> JsValue) -> JsValue {
    let a = Array::new();
    for x in items {
        a.push(&f(x));
    }
    a.into()
}

fn strings(v: &[String]) -> JsValue {
    array(v, |s| JsValue::from_str(s))
}

/// A planned real run and what was measured so far.
#[cfg(not(feature = "page"))]
#[wasm_bindgen]
pub struct RealRunPlan {
    plan: Plan,
    passes: Vec<Pass>,
    batches: Vec<YieldBatch>,
    /// The environment of the last report.
    env: Option<Environment>,
}

// The plan, the runs and the report are the worker module's: the page
// loads it when the panel is reached (www/realrun.js).
#[cfg(not(feature = "page"))]
#[wasm_bindgen]
impl RealRunPlan {
    /// The refusal of a real run of `count` imported tasks, too many to
    /// plan (each task is at least one slice), given before their text is
    /// read and parsed on the main thread; `undefined` when they may be.
    #[wasm_bindgen(js_name = tooManyTasks)]
    pub fn too_many_tasks(count: f64) -> JsValue {
        match plan::check_task_count(count as usize) {
            Err(e) => both(|lang| text::plan_error(&e, lang)),
            Ok(()) => JsValue::UNDEFINED,
        }
    }

    /// Plans a real run of the page query `page_query` (its `real_*` keys
    /// included) on the imported `tasks`, or on the drawn workload when
    /// `tasks` is absent. Throws `{en, zh}` when no run can be planned.
    #[wasm_bindgen(constructor)]
    pub fn new(page_query: &str, tasks: Option<String>) -> Result<RealRunPlan, JsValue> {
        let (exp, page) = query::parse(page_query, &Limits::WEB);
        if let Some(e) = page.errors.first() {
            return Err(both(|lang| e.refusal.get(lang).to_string()));
        }
        let pairs = query::decode_pairs(page_query);
        let (settings, _) =
            RealSettings::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let refused = |e: PlanError| both(|lang| text::plan_error(&e, lang));
        let workload = match tasks {
            Some(list) => {
                plan::check_task_list(&list).map_err(refused)?;
                task_list::parse_task_list(&list, Limits::WEB.max_tasks)
                    .map_err(|e| both(|lang| e.said(lang)))?
            }
            None => {
                plan::check_task_count(exp.tasks).map_err(refused)?;
                Workload::generate(&exp.workload_spec())
            }
        };
        let plan = Plan::build(&exp, &workload, settings).map_err(refused)?;
        Ok(RealRunPlan {
            plan,
            passes: Vec::new(),
            batches: Vec::new(),
            env: None,
        })
    }

    /// `{scale, quantum, within, switch_cost, pass_ms, tasks, repeats,
    /// yield, cores, estimate_ms, pause_ms, settle_ms, probe_ms,
    /// event_threshold_ms, batches: {count,
    /// clock_steps, max_yields}, notes: {en: [...], zh: [...]}}`: pause
    /// `pause_ms` before each pass and `settle_ms` after the last; time the
    /// yield in `count` batches, each of at least `clock_steps` steps of
    /// the clock and at most `max_yields` yields; the probe timer fires
    /// every `probe_ms`; Event Timing reports inputs from
    /// `event_threshold_ms`.
    pub fn info(&self) -> JsValue {
        let p = &self.plan;
        let o = Object::new();
        set(&o, "scale", &p.scale.into());
        set(&o, "quantum", &p.quantum.into());
        set(&o, "within", &p.within.into());
        set(&o, "switch_cost", &p.switch_cost.into());
        set(&o, "pass_ms", &p.pass_ms().into());
        set(&o, "tasks", &(p.workload.len() as u32).into());
        set(&o, "repeats", &p.settings.repeats.into());
        set(&o, "yield", &p.settings.yield_kind.name().into());
        set(&o, "cores", &(p.experiment_cores as u32).into());
        set(&o, "estimate_ms", &p.estimate_ms().into());
        set(&o, "pause_ms", &plan::PAUSE_MS.into());
        set(&o, "settle_ms", &plan::SETTLE_MS.into());
        set(&o, "probe_ms", &plan::PROBE_MS.into());
        set(&o, "event_threshold_ms", &plan::EVENT_THRESHOLD_MS.into());
        let b = Object::new();
        set(&b, "count", &plan::YIELD_BATCHES.into());
        set(&b, "clock_steps", &plan::BATCH_CLOCK_STEPS.into());
        set(&b, "max_yields", &plan::BATCH_MAX_YIELDS.into());
        set(&o, "batches", &b.into());
        let notes = Object::new();
        for lang in [Lang::En, Lang::Zh] {
            let n = text::plan_notes(p, p.settings.repeats, lang);
            set(&notes, lang.code(), &strings(&n));
        }
        set(&o, "notes", &notes.into());
        o.into()
    }

    /// The passes to run: `[{name, label: {en, zh}, yields, tasks,
    /// lengths, simulated}]`. `yields`: yield to the event loop between
    /// slices; slice `i` spins `lengths[i]` ms for task `tasks[i]`;
    /// `simulated` is the model's completion of each task.
    pub fn passes(&self) -> JsValue {
        array(&self.plan.passes, |pp| {
            let o = Object::new();
            set(&o, "name", &pp.policy.name().into());
            set(&o, "label", &both(|lang| text::pass_label(pp, lang)));
            set(&o, "yields", &pp.yields.into());
            let tasks: Vec<u32> = pp.slices.iter().map(|s| s.0).collect();
            let lengths: Vec<f64> = pp.slices.iter().map(|s| s.1).collect();
            set(&o, "tasks", &Uint32Array::from(&tasks[..]).into());
            set(&o, "lengths", &Float64Array::from(&lengths[..]).into());
            let c: Vec<f64> = pp.schedule.outcomes.iter().map(|o| o.completion).collect();
            set(&o, "simulated", &Float64Array::from(&c[..]).into());
            o.into()
        })
    }

    /// The order of the run: `[{pass, repeat}]`, `pass` an index into
    /// `passes()`.
    pub fn order(&self) -> JsValue {
        array(&self.plan.run_order(), |&(pass, repeat)| {
            let o = Object::new();
            set(&o, "pass", &(pass as u32).into());
            set(&o, "repeat", &repeat.into());
            o.into()
        })
    }

    /// The tasks at the run's scale: `{arrival, work}` (ms from a pass's
    /// start).
    pub fn arrays(&self) -> JsValue {
        let p = &self.plan;
        let o = Object::new();
        set(
            &o,
            "arrival",
            &Float64Array::from(&p.workload.arrival[..]).into(),
        );
        set(&o, "work", &Float64Array::from(&p.workload.work[..]).into());
        o.into()
    }

    /// Records one measured pass (`pass`: an index into `passes()`).
    /// `counts` is an object of the counts the page has (named as
    /// `PassCounts::LAYOUT`; a missing one is "not reported"); `input` is
    /// `undefined` where Event Timing is not available.
    #[wasm_bindgen(js_name = addPass)]
    #[allow(clippy::too_many_arguments)]
    pub fn add_pass(
        &mut self,
        pass: usize,
        repeat: u32,
        completion: Vec<f64>,
        busy: Vec<f64>,
        gaps: Vec<f64>,
        probe: Vec<f64>,
        input: Option<Vec<f64>>,
        counts: &JsValue,
    ) -> Result<(), JsError> {
        let n = self.plan.workload.len();
        if completion.len() != n || busy.len() != n {
            return Err(JsError::new(
                "a pass needs one completion and busy time per task",
            ));
        }
        let Some(planned) = self.plan.passes.get(pass) else {
            return Err(JsError::new("no such pass in the plan"));
        };
        let counts = PassCounts::from_named(|name| {
            let v = Reflect::get(counts, &JsValue::from_str(name)).ok()?;
            v.as_f64().or_else(|| v.as_bool().map(f64::from))
        });
        self.passes.push(Pass {
            policy: planned.policy,
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

    /// Records `yields` back-to-back yields that took `ms` in all.
    #[wasm_bindgen(js_name = addYieldBatch)]
    pub fn add_yield_batch(&mut self, yields: u32, ms: f64) {
        self.batches.push(YieldBatch { yields, ms });
    }

    /// The panel's figures and sentences for what was measured so far (see
    /// `docs/page-internals.md`). `invalid` is why the run does not count (`hidden`).
    #[allow(clippy::too_many_arguments)]
    pub fn report(
        &mut self,
        isolated: bool,
        resolution_ms: f64,
        yield_used: String,
        invalid: Option<String>,
        stopped: bool,
        event_timing: bool,
    ) -> JsValue {
        let env = Environment {
            isolated,
            resolution_ms,
            yield_used,
            invalid,
            stopped,
            event_timing,
        };
        let r = to_js(&RealRunReport::build(
            &self.plan,
            &self.passes,
            &self.batches,
            &env,
        ));
        self.env = Some(env);
        r
    }

    /// The run as a file (`JSON.stringify` it): the query, the settings,
    /// the environment, the scaled tasks, each pass's plan, every raw
    /// measurement and the report. `null` before a report.
    pub fn file(&self, query: &str) -> JsValue {
        let Some(env) = &self.env else {
            return JsValue::NULL;
        };
        to_js(&RunFile::new(
            query,
            &self.plan,
            &self.passes,
            &self.batches,
            env,
        ))
    }
}

/// Isolation and the clock's step in words, and "not available":
/// `{env: {en, zh}, na: {en, zh}}`.
#[wasm_bindgen(js_name = realRunText)]
pub fn real_run_text(isolated: bool, resolution_ms: f64) -> JsValue {
    let o = Object::new();
    set(
        &o,
        "env",
        &both(|lang| text::environment(isolated, resolution_ms, lang)),
    );
    set(&o, "na", &both(|lang| text::na(lang).to_string()));
    o.into()
}
