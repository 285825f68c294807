//! The "Run for real" panel's bindings (`www/realrun.js`).
//!
//! [`RealRunPlan`] is made from the page's query (and an imported task
//! list, if any): it hands the page the scaled tasks and every slice of the
//! model's one-core `fifo` and `rr` schedules in one flat typed array, takes
//! back what each pass measured, and answers with the table, the yield cost,
//! the comparisons and every sentence in both languages. The page only
//! spins, yields and reads clocks.
//!
//! Results are built as JS objects field by field (no serde): the page's
//! transfer budget is tight and generic serialisation code is not small.

use js_sys::{Array, Float64Array, Object};
use wasm_bindgen::prelude::*;

use super::query;
use super::result::set;
use crate::experiment::Limits;
use crate::realrun::measure::{Sample, Spread};
use crate::realrun::report::{Compare, Row, METRICS};
use crate::realrun::text::PanelText;
use crate::realrun::{
    plan, text, Environment, Pass, PassCounts, Plan, PlanError, RealSettings, Report,
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

fn spread(s: Option<Spread>) -> JsValue {
    let Some(s) = s else { return JsValue::NULL };
    let o = Object::new();
    set(&o, "median", &s.median.into());
    set(&o, "min", &s.min.into());
    set(&o, "max", &s.max.into());
    set(&o, "n", &(s.n as u32).into());
    o.into()
}

fn sample(s: Option<Sample>) -> JsValue {
    let Some(s) = s else { return JsValue::NULL };
    let o = Object::new();
    set(&o, "n", &(s.n as u32).into());
    set(&o, "p50", &s.p50.into());
    set(&o, "p95", &s.p95.into());
    set(&o, "max", &s.max.into());
    set(&o, "total", &s.total.into());
    o.into()
}

fn row(r: &Row) -> JsValue {
    let (values, spreads, change) = (Object::new(), Object::new(), Object::new());
    for (i, m) in METRICS.iter().enumerate() {
        if let Some(v) = r.values[i] {
            set(&values, m, &v.into());
        }
        if let Some((lo, hi)) = r.spread[i] {
            set(&spreads, m, &Array::of2(&lo.into(), &hi.into()).into());
        }
        if let Some(c) = r.change[i] {
            set(&change, m, &c.into());
        }
    }
    let o = Object::new();
    set(&o, "policy", &r.policy.name().into());
    set(&o, "kind", &r.kind().into());
    set(&o, "values", &values.into());
    set(&o, "spread", &spreads.into());
    set(&o, "repeats", &(r.repeats as u32).into());
    set(&o, "change", &change.into());
    o.into()
}

fn compare(c: &Compare) -> JsValue {
    let o = Object::new();
    set(&o, "policy", &c.policy.name().into());
    set(&o, "frames", &spread(c.frames));
    set(&o, "wall_ms", &spread(c.wall_ms));
    set(&o, "probe", &sample(c.probe));
    set(&o, "longtasks", &spread(c.longtasks));
    set(&o, "longtask_ms", &spread(c.longtask_ms));
    set(&o, "loafs", &spread(c.loafs));
    set(&o, "loaf_blocking_ms", &spread(c.loaf_blocking_ms));
    let input = c.input.map_or(JsValue::NULL, |i| {
        let io = Object::new();
        set(&io, "n", &(i.n as u32).into());
        set(&io, "sample", &sample(i.sample));
        io.into()
    });
    set(&o, "input", &input);
    set(&o, "input_yields", &c.input_yields.into());
    o.into()
}

fn text_js(t: &PanelText) -> JsValue {
    let o = Object::new();
    set(&o, "status", &t.status.as_str().into());
    set(&o, "reading", &t.reading.as_str().into());
    set(&o, "notes", &strings(&t.notes));
    set(&o, "na", &t.na.as_str().into());
    o.into()
}

/// The report as the page reads it (`www/README.md`, Run for real).
fn report_js(r: &Report) -> JsValue {
    let o = Object::new();
    set(&o, "state", &r.state.name().into());
    set(&o, "scale", &r.scale.into());
    set(&o, "quantum", &r.quantum.into());
    set(&o, "within", &r.within.into());
    set(&o, "yield_used", &r.yield_used.as_str().into());
    let complete = Object::new();
    set(&complete, "fifo", &(r.complete[0] as u32).into());
    set(&complete, "rr", &(r.complete[1] as u32).into());
    set(&o, "complete", &complete.into());
    set(&o, "rows", &array(&r.rows, row));
    let yc = r.yield_cost.map_or(JsValue::NULL, |y| {
        let yo = Object::new();
        set(&yo, "gaps", &sample(Some(y.gaps)));
        set(&yo, "pass_median", &spread(Some(y.pass_median)));
        set(&yo, "per_pass", &y.per_pass.into());
        yo.into()
    });
    set(&o, "yield_cost", &yc);
    set(&o, "compare", &array(&r.compare, compare));
    let t = Object::new();
    set(&t, "en", &text_js(&r.text.en));
    set(&t, "zh", &text_js(&r.text.zh));
    set(&o, "text", &t.into());
    o.into()
}

fn lines(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'\n').count() + 1
}

/// A planned real run and the passes measured so far.
#[wasm_bindgen]
pub struct RealRunPlan {
    plan: Plan,
    passes: Vec<Pass>,
}

#[wasm_bindgen]
impl RealRunPlan {
    /// The refusal of a real run of `count` imported tasks, too many to
    /// plan (each task is at least one slice), given before their text is
    /// read and parsed on the main thread; `undefined` when they may be.
    #[wasm_bindgen(js_name = tooManyTasks)]
    pub fn too_many_tasks(count: f64) -> JsValue {
        if count > (2 * plan::MAX_REAL_SLICES) as f64 {
            let e = PlanError::TooManySlices {
                slices: count as usize,
            };
            both(|lang| text::plan_error(&e, lang))
        } else {
            JsValue::UNDEFINED
        }
    }

    /// Plans a real run of the page query `page_query` (its `real_*` keys
    /// included) on the imported `tasks`, or on the drawn workload when
    /// `tasks` is absent. Throws `{en, zh}` when no run can be planned.
    #[wasm_bindgen(constructor)]
    pub fn new(page_query: &str, tasks: Option<String>) -> Result<RealRunPlan, JsValue> {
        let (exp, page) = query::parse(page_query, &Limits::WEB);
        if let Some(e) = page.errors.first() {
            let m = e.message.clone();
            return Err(both(|_| m.clone()));
        }
        let pairs = query::decode_pairs(page_query);
        let (settings, _) =
            RealSettings::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let workload = match tasks {
            // A list of more lines than a run's slices is refused before it
            // is parsed on the main thread (a task is at least one slice).
            Some(list) if lines(&list) > 2 * plan::MAX_REAL_SLICES => {
                let e = PlanError::TooManySlices {
                    slices: lines(&list),
                };
                return Err(both(|lang| text::plan_error(&e, lang)));
            }
            Some(list) => {
                task_list::parse_task_list(&list, Limits::WEB.max_tasks).map_err(|e| {
                    let m = e.to_string();
                    both(|_| m.clone())
                })?
            }
            None => {
                // Every task is at least one slice: refuse before drawing a
                // million tasks on the main thread.
                if exp.tasks > plan::MAX_REAL_SLICES {
                    let e = PlanError::TooManySlices { slices: exp.tasks };
                    return Err(both(|lang| text::plan_error(&e, lang)));
                }
                Workload::generate(&exp.workload_spec())
            }
        };
        let plan = Plan::build(&exp, &workload, settings)
            .map_err(|e| both(|lang| text::plan_error(&e, lang)))?;
        Ok(RealRunPlan {
            plan,
            passes: Vec::new(),
        })
    }

    /// `{scale, quantum, within, switch_cost, pass_ms, tasks, fifo_slices,
    /// rr_slices, repeats, yield, cores, notes: {en: [...], zh: [...]}}`.
    pub fn info(&self) -> JsValue {
        let p = &self.plan;
        let o = Object::new();
        set(&o, "scale", &p.scale.into());
        set(&o, "quantum", &p.quantum.into());
        set(&o, "within", &p.within.into());
        set(&o, "switch_cost", &p.switch_cost.into());
        set(&o, "pass_ms", &p.pass_ms().into());
        set(&o, "tasks", &(p.workload.len() as u32).into());
        set(&o, "fifo_slices", &(p.passes[0].slices.len() as u32).into());
        set(&o, "rr_slices", &(p.passes[1].slices.len() as u32).into());
        set(&o, "repeats", &p.settings.repeats.into());
        set(&o, "yield", &p.settings.yield_kind.name().into());
        set(&o, "cores", &(p.experiment_cores as u32).into());
        let notes = Object::new();
        for lang in [Lang::En, Lang::Zh] {
            let n = text::plan_notes(p, p.settings.repeats, lang);
            set(&notes, lang.code(), &strings(&n));
        }
        set(&o, "notes", &notes.into());
        o.into()
    }

    /// The run's arrays: `{slices, arrival, work, simulated_fifo,
    /// simulated_rr}`. `slices` is every slice of both passes as
    /// `[task, length_ms, …]`, the `fifo` pass's `info().fifo_slices` pairs
    /// first, then `rr`'s; `arrival` and `work` are the tasks at the run's
    /// scale (ms from a pass's start); `simulated_*` the model's completion
    /// of each task.
    pub fn arrays(&self) -> JsValue {
        let p = &self.plan;
        let o = Object::new();
        let f = |v: &[f64]| JsValue::from(Float64Array::from(v));
        set(&o, "slices", &f(&p.packed_slices()));
        set(&o, "arrival", &f(&p.workload.arrival));
        set(&o, "work", &f(&p.workload.work));
        for (key, pass) in [
            ("simulated_fifo", &p.passes[0]),
            ("simulated_rr", &p.passes[1]),
        ] {
            let c: Vec<f64> = pass
                .schedule
                .outcomes
                .iter()
                .map(|o| o.completion)
                .collect();
            set(&o, key, &f(&c));
        }
        o.into()
    }

    /// Records one measured pass (`pass`: 0 `fifo`, 1 `rr`). `counts` holds
    /// `PassCounts::LAYOUT` in order, NaN where the browser reports nothing;
    /// `input` is `undefined` where Event Timing is not available.
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
        counts: Vec<f64>,
    ) -> Result<(), JsError> {
        let n = self.plan.workload.len();
        if completion.len() != n || busy.len() != n {
            return Err(JsError::new(
                "a pass needs one completion and busy time per task",
            ));
        }
        self.passes.push(Pass {
            policy: plan::POLICIES[pass.min(1)],
            repeat,
            completion,
            busy,
            gaps,
            probe_late: probe,
            input_delay: input,
            counts: PassCounts::from_slice(&counts),
        });
        Ok(())
    }

    /// The panel's figures and sentences for the passes so far (see
    /// `www/README.md`). `invalid` is why the run does not count (`hidden`).
    #[allow(clippy::too_many_arguments)]
    pub fn report(
        &self,
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
        report_js(&Report::build(&self.plan, &self.passes, &env))
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
