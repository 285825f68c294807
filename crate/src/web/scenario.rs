//! The page's Apple QoS scenarios: URL keys, the worker's run and
//! what it sends the page.
//!
//! - On the **main thread**, [`parse_scenario_query`] reads `s=<name>` and
//!   the knobs' URL keys ([`Knob::url_key`]) from untrusted URL text and
//!   validates them with [`Knobs::set`], the CLI's own parser, so a bad value
//!   gets the CLI's words in the page's `#error` banner.
//! - In the **worker**, [`ScenarioRun`] runs the scenario once and then hands
//!   out a small summary (the CLI's `--json` object without the recorded
//!   runs) and, per run, its charts' data: the cores and the key threads'
//!   states as lane charts in the one wire format (typed arrays, transferred
//!   not copied) and `sched_pri` over time, and the Embed dialog's SVG
//!   figure of a run. Recording is capped by
//!   [`crate::params::scenario_query::PAGE_MAX_RECORDS`].

use std::collections::HashMap;

use js_sys::Object;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::query::BadParam;
use super::result::{set, to_js};
use crate::chart;
use crate::param_spec::Params;
pub use crate::params::scenario_query::{parse, ScenarioQuery};
use crate::scenario::{self, Knob, RunView, ScenarioKind, ScenarioResult};
use crate::text::Filled;

#[derive(Serialize)]
struct ParsedScenario<'a> {
    scenario: Option<&'static str>,
    /// Canonical scenario query (see [`ScenarioQuery::canonical`]).
    query: String,
    /// Canonical query without `run`.
    key: String,
    /// The runs the charts can pick from (one line each): a knob edit that
    /// keeps them keeps `run`.
    runs: String,
    run: usize,
    /// Every knob as URL text; `""` for "the scenario's default".
    knobs: HashMap<&'static str, String>,
    errors: &'a [BadParam],
}

/// Parses a page query's scenario keys. Returns `{scenario, query, key,
/// runs, run, knobs, errors}`: `scenario` is `null` without a valid `s`;
/// `runs` names the runs the charts can pick from (equal for two queries
/// whose runs are the same); `knobs`
/// maps every URL key (`bl`, `nq`, ...) to its text, `""` meaning the
/// scenario's default; `errors` lists rejected values like `parseQuery`.
#[wasm_bindgen(js_name = parseScenarioQuery)]
pub fn parse_scenario_query(query: &str) -> JsValue {
    let q = parse(query);
    let knobs = Knob::ALL
        .into_iter()
        .map(|k| (k.url_key(), q.knobs.text(k).unwrap_or_default()))
        .collect();
    to_js(&ParsedScenario {
        scenario: q.name,
        query: q.canonical(),
        key: q.run_key(),
        runs: q.runs(),
        run: q.run,
        knobs,
        errors: &q.errors,
    })
}

/// A scenario run, kept in the worker so that showing another of its runs
/// costs no new simulation.
#[cfg(not(feature = "page"))]
#[wasm_bindgen]
pub struct ScenarioRun {
    scenario: ScenarioKind,
    /// The result without its recorded runs (those are in `runs`), so the
    /// summary serialises only what the tables need.
    result: ScenarioResult,
    runs: Vec<RunView>,
}

/// Runs the scenario of a (canonical) query. Fails on any bad value: the
/// page only sends queries it parsed, so that is a bug, not user input.
///
/// The run is bounded by [`scenario::WEB_WORK_BUDGET`]; `progress`, if a
/// function, is called now and then with `{run, frac, units, budget}` (the
/// simulation under way, 1-based, the share of its simulated time done, and
/// the work done against the budget), so the worker can tell the page.
#[cfg(not(feature = "page"))]
#[wasm_bindgen(js_name = runScenario)]
pub fn run_scenario(query: &str, progress: JsValue) -> Result<ScenarioRun, JsError> {
    let q = parse(query);
    if let Some(e) = q.errors.first() {
        return Err(JsError::new(&e.message));
    }
    let scenario = q
        .scenario
        .ok_or_else(|| JsError::new("no scenario in the query (s=...)"))?;
    let name = scenario.name();
    let hook: Option<Box<dyn FnMut(crate::sim::budget::Progress)>> =
        progress.dyn_into::<js_sys::Function>().ok().map(|f| {
            Box::new(move |p: crate::sim::budget::Progress| {
                #[derive(Serialize)]
                struct P {
                    run: u32,
                    frac: f64,
                    units: u64,
                    budget: u64,
                }
                let v = super::result::to_js(&P {
                    run: p.run,
                    frac: p.frac,
                    units: p.units,
                    budget: p.budget,
                });
                let _ = f.call1(&JsValue::NULL, &v);
            }) as Box<dyn FnMut(_)>
        });
    let mut result = scenario::run_metered(name, &q.knobs, scenario::WEB_WORK_BUDGET, hook)
        .map_err(|e| JsError::new(&e.to_string()))?;
    let runs = std::mem::take(result.outcome_mut().runs_mut());
    Ok(ScenarioRun {
        scenario,
        result,
        runs,
    })
}

/// What [`ScenarioRun::timeline`] says besides the charts' data.
#[derive(Serialize)]
struct TimelineMeta {
    scenario: &'static str,
    run: usize,
    label: String,
    /// Time the charts cover, ms: the run's end, or where recording stopped.
    horizon: f64,
    truncated: bool,
    /// Where the charts stop and why, when `truncated` (`{en, zh}`).
    cut_note: Filled,
}

#[cfg(not(feature = "page"))]
impl ScenarioRun {
    /// Labels of the runs the charts can show, in both languages.
    fn run_labels(&self) -> Vec<Filled> {
        if !self.runs.is_empty() {
            return self.runs.iter().map(|r| r.label.clone()).collect();
        }
        // Some scenarios trace priorities even without timelines.
        self.result.outcome().pri_labels()
    }
}

#[cfg(not(feature = "page"))]
#[wasm_bindgen]
impl ScenarioRun {
    /// The scenario's result as the CLI's `--json` prints it, with `runs`
    /// empty (each is sent by `timeline`), plus `run_labels`: one `{en, zh}`
    /// label per run the charts can show; `page`: `{reading, pri_caption}`,
    /// each `{en, zh}`; and `tables`: the tables as the page shows them
    /// (`[{id, title, columns: [{key, label, class}], rows: [{key, cells:
    /// [{en, zh, qos}]}], reading}]`, the first cell of a row heading it).
    pub fn summary(&self) -> JsValue {
        // Straight to a JS object (no serde_json::Value on the way: less code
        // in the wasm); `runs` is empty here, they were taken at the start.
        let v = to_js(&self.result);
        if let Some(obj) = v.dyn_ref::<Object>() {
            set(obj, "run_labels", &to_js(&self.run_labels()));
            let outcome = self.result.outcome();
            set(obj, "page", &to_js(&outcome.page_text()));
            set(obj, "tables", &to_js(&outcome.tables()));
        }
        v
    }

    /// One run's timeline: `{meta, gantt, states, pri}` where `gantt` (the
    /// cores, by QoS) and `states` (the key threads' states) are lane
    /// charts in the one wire format (`null` without a recorded run) and
    /// `pri` the `sched_pri` series. A `run` past the last shows the last;
    /// `null` when the scenario recorded nothing to draw.
    pub fn timeline(&self, run: usize) -> JsValue {
        let labels = self.run_labels();
        if labels.is_empty() {
            return JsValue::NULL;
        }
        // A shared link may name a run that no longer exists: show the last.
        let run = run.min(labels.len() - 1);
        let view = self.runs.get(run);
        let pri = chart::priority::of_run(&self.result, &self.runs, run);
        let meta = TimelineMeta {
            scenario: self.scenario.name(),
            run,
            label: labels[run].en.clone(),
            horizon: view.map_or(pri.horizon, chart::gantt::scenario_horizon),
            truncated: view.is_some_and(|v| v.run.truncated),
            cut_note: view.map(chart::timeline::cut_note).unwrap_or_default(),
        };
        let out = Object::new();
        set(&out, "meta", &to_js(&meta));
        let lanes = |l: Option<chart::lanes::Lanes>| -> JsValue {
            l.map_or(JsValue::NULL, |l| super::gantt::wire(&l).into())
        };
        set(
            &out,
            "gantt",
            &lanes(view.map(chart::gantt::scenario_cores)),
        );
        set(
            &out,
            "states",
            &lanes(view.map(|v| chart::timeline::states(self.scenario, v))),
        );
        set(&out, "pri", &to_js(&pri));
        out.into()
    }

    /// `embedFigure(run, view_query, dark, lang) -> string`: the figure an
    /// Embed dialog's snippet shows of run `run` (its part and colours as
    /// for an experiment, see `web::embed::figure_options`), drawn by the
    /// charts' own code as `<svg>` elements, one at each of the snippet's
    /// widths (`crate::embed::figures::WIDTHS`, widest first).
    #[wasm_bindgen(js_name = embedFigure)]
    pub fn embed_figure(
        &self,
        run: usize,
        view_query: &str,
        dark: bool,
        lang: &str,
    ) -> Result<String, JsError> {
        let options = super::embed::figure_options(view_query, dark, lang, true)?;
        let all = crate::embed::figures::WIDTHS
            .iter()
            .map(|&width| {
                let o = chart::figure::Options { width, ..options };
                chart::figure::scenario(self.scenario, &self.result, &self.runs, run, &o)
            })
            .collect::<Result<Vec<String>, String>>()
            .map_err(|e| JsError::new(&e))?;
        Ok(crate::embed::figures::join(&all))
    }
}
