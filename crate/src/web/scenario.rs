//! The page's Apple QoS scenarios: URL keys, the worker's run and
//! what it sends the page.
//!
//! - On the **main thread**, [`parse_scenario_query`] reads `s=<name>` and
//!   the knobs' URL keys ([`Knob::url_key`]) from untrusted URL text and
//!   validates them with [`Knobs::set`], the CLI's own parser, so a bad value
//!   gets the CLI's words in the page's `#error` banner.
//! - In the **worker**, [`ScenarioRun`] runs the scenario once and then hands
//!   out a small summary (the CLI's `--json` object without the recorded
//!   runs) and, per run, a compact timeline: one `Float64Array` (transferred,
//!   not copied) plus a little metadata. Only the key threads' states are
//!   sent, and recording is capped by [`PAGE_MAX_RECORDS`].

use std::collections::HashMap;

use js_sys::{Float64Array, Object};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::query::{decode_pairs, percent_encode, BadParam};
use super::result::{set, to_js};
use crate::error::{Instead, ParamError};
use crate::scenario::simulation::{PriSeries, RunResult, State};
use crate::scenario::{self, Knob, Knobs, RunView, Scenario, ScenarioResult};
use crate::sim::machine::CoreKind;
use crate::sim::qos::BASEPRI_FOREGROUND;
use crate::text::{Filled, Text};

/// Segments and state intervals kept per run (each). Enough for the Feishu demo's
/// 10 s on two cores; longer runs are cut and say so on the page.
pub const PAGE_MAX_RECORDS: usize = 20_000;

/// Threads of a run whose states the page draws, at most.
pub const MAX_STATE_LANES: usize = 6;

/// XNU's priority decay band limit (`MAXPRI_... - 18`): the main thread's
/// floor is `47 - 18` with the limit on.
const BAND_LIMIT: u8 = 18;

/// The URL key of the scenario name.
pub const SCENARIO_KEY: &str = "s";
/// The URL key of the run the charts show (page only; not a CLI flag).
pub const RUN_KEY: &str = "run";

/// A parsed scenario query.
#[derive(Clone, Debug)]
pub struct ScenarioQuery {
    pub name: Option<&'static str>,
    /// The scenario `name` names, from the registry.
    pub scenario: Option<&'static dyn Scenario>,
    pub knobs: Knobs,
    /// Which run the Gantt chart and the timelines show.
    pub run: usize,
    pub errors: Vec<BadParam>,
}

/// The page's knob defaults: the CLI's, except that timelines are on.
pub fn page_defaults() -> Knobs {
    Knobs {
        timeline: true,
        max_records: PAGE_MAX_RECORDS,
        ..Knobs::default()
    }
}

/// Parses the scenario keys of a page query (untrusted). Bad values are
/// reported and keep their defaults; an unknown `s` means "no scenario".
pub fn parse(query: &str) -> ScenarioQuery {
    let mut q = ScenarioQuery {
        name: None,
        scenario: None,
        knobs: page_defaults(),
        run: 0,
        errors: Vec::new(),
    };
    let mut run = None;
    let mut refused: Vec<ParamError> = Vec::new();
    for (k, v) in decode_pairs(query) {
        if k == SCENARIO_KEY {
            match scenario::find(v.trim()) {
                Some(s) => {
                    q.name = Some(s.name());
                    q.scenario = Some(s);
                }
                None => refused.push(ParamError::new(SCENARIO_KEY, &v, scenario::allowed_names())),
            }
        } else if k == RUN_KEY {
            match v.trim().parse::<usize>() {
                Ok(r) if r < 64 => run = Some(r),
                _ => refused.push(ParamError::new(RUN_KEY, &v, RUNS)),
            }
        } else if let Some(knob) = Knob::from_url_key(&k) {
            if let Err(e) = q.knobs.set(knob, &k, &v) {
                refused.push(e);
            }
        }
    }
    q.run = run.unwrap_or_else(|| q.default_run());
    // What each refusal leaves in effect, read off the parsed state.
    let run_text = q.run.to_string();
    q.errors = refused
        .into_iter()
        .map(|e| {
            let knob_text = Knob::from_url_key(&e.field).map(|k| q.knobs.text(k));
            let instead = match (e.field.as_str(), &knob_text) {
                (SCENARIO_KEY, _) if q.name.is_none() => Instead::Said(NO_SCENARIO),
                (SCENARIO_KEY, _) => Instead::Value(q.name.unwrap_or_default()),
                (RUN_KEY, _) => Instead::Value(&run_text),
                (_, Some(Some(text))) => Instead::Value(text),
                _ => Instead::Said(SCENARIO_DEFAULT),
            };
            BadParam::new(e, instead)
        })
        .collect();
    q
}

/// A thread's name as the page shows it. The scenarios name their threads
/// `main`, `job J worker K` and after the study's queues (`serialQueue N`,
/// the start-up's `network`, …); the CLI and `--json` keep those names, the
/// page says the first two in words.
fn thread_title(name: &str) -> Filled {
    const MAIN: Text = Text::new("main", "主线程");
    const WORKER: Text = Text::new("job {} worker {}", "任务 {} 工作线程 {}");
    if name == "main" {
        return MAIN.into();
    }
    if let Some((job, worker)) = name
        .strip_prefix("job ")
        .and_then(|rest| rest.split_once(" worker "))
    {
        return WORKER.both(&[job, worker]);
    }
    Filled {
        en: name.to_string(),
        zh: name.to_string(),
    }
}

const RUNS: Text = Text::new(
    "a whole number from 0 to 63 (which run the charts show)",
    "0 到 63 之间的整数（图表显示哪一次运行）",
);
const NO_SCENARIO: Text = Text::new(
    "no scenario: the experiment page is shown",
    "不打开场景，显示实验页面",
);
const SCENARIO_DEFAULT: Text = Text::new("the scenario's default is used", "使用场景的默认值");

impl ScenarioQuery {
    /// The run the charts show by default (the scenario's choice).
    fn default_run(&self) -> usize {
        self.scenario.map_or(0, |s| s.default_run(&self.knobs))
    }

    /// The canonical scenario part of the URL (no `v`, no `embed`): `s`,
    /// then every knob that differs from the page's default in
    /// [`Knob::ALL`] order, then `run`. Empty without a scenario.
    pub fn canonical(&self) -> String {
        let Some(name) = self.name else {
            return String::new();
        };
        let defaults = page_defaults();
        let mut parts = vec![format!("{SCENARIO_KEY}={name}")];
        for knob in Knob::ALL {
            let v = self.knobs.text(knob);
            if v.is_some() && v != defaults.text(knob) {
                let v = v.unwrap_or_default();
                parts.push(format!("{}={}", knob.url_key(), percent_encode(&v)));
            }
        }
        if self.run != self.default_run() {
            parts.push(format!("{RUN_KEY}={}", self.run));
        }
        parts.join("&")
    }

    /// The same query without `run` (what the worker's cached result is
    /// keyed by).
    pub fn run_key(&self) -> String {
        ScenarioQuery {
            run: self.default_run(),
            ..self.clone()
        }
        .canonical()
    }

    /// The runs the charts can pick from with these knobs, one line each:
    /// two queries with the same runs keep the chosen `run` across an edit.
    pub fn runs(&self) -> String {
        self.scenario.map_or(String::new(), |s| {
            s.run_labels(&self.knobs)
                .into_iter()
                .map(|l| l.en)
                .collect::<Vec<_>>()
                .join("\n")
        })
    }
}

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
    scenario: &'static dyn Scenario,
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

/// Threads whose states are drawn: the main thread and the first few of
/// each other group (queues, workers), as many per group as the scenario
/// asks, never the "system work" threads.
fn key_threads(scenario: &dyn Scenario, run: &RunResult) -> Vec<usize> {
    let per_group = scenario.lanes_per_group();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, t) in run.threads.iter().enumerate() {
        if t.group == "system" || t.group == "other processes" {
            continue;
        }
        let n = seen.entry(t.group.as_str()).or_insert(0);
        if *n < per_group && out.len() < MAX_STATE_LANES {
            *n += 1;
            out.push(i);
        }
    }
    out
}

fn state_index(s: State) -> f64 {
    match s {
        State::Running => 0.0,
        State::Runnable => 1.0,
        State::Preempted => 2.0,
        State::Blocked => 3.0,
    }
}

#[derive(Serialize)]
struct CoreMeta {
    kind: CoreKind,
    speed: f64,
}

#[derive(Serialize)]
struct PriMeta {
    name: Filled,
    points: usize,
}

/// What [`ScenarioRun::timeline`] returns besides the packed numbers.
#[derive(Serialize)]
struct TimelineMeta {
    scenario: &'static str,
    run: usize,
    label: String,
    machine: String,
    cores: Vec<CoreMeta>,
    /// Names of the threads drawn in the state timeline (lane order), in
    /// both languages.
    lanes: Vec<Filled>,
    /// Their QoS numbers (the main thread is 33 at base 47).
    lane_qos: Vec<u8>,
    /// Index of the main thread among `lanes`, if drawn.
    main_lane: Option<usize>,
    /// Thread id of the main thread (segments carry thread ids).
    main_thread: Option<usize>,
    /// Time the charts cover, ms: the run's end, or where recording stopped.
    horizon: f64,
    end: f64,
    truncated: bool,
    segments: usize,
    intervals: usize,
    pri: Vec<PriMeta>,
    band_limit: bool,
    /// The main thread's `sched_pri` floor with the band limit on.
    floor: Option<u8>,
}

fn band_limit_of(result: &ScenarioResult, runs: &[RunView]) -> bool {
    result
        .outcome()
        .band_limit()
        .unwrap_or_else(|| runs.first().is_some_and(|v| v.machine.band_limit))
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

    /// One run's timeline: `{meta, packed}` where `packed` is a
    /// `Float64Array` holding, in order, `meta.segments` records
    /// `[core, qos, start, end, thread]`, `meta.intervals` records
    /// `[lane, state, start, end]` (state 0 running, 1 runnable,
    /// 2 preempted, 3 blocked) and, per `meta.pri` series, `points` pairs
    /// `[t, sched_pri]`. A `run` past the last shows the last; `null` when
    /// the scenario recorded nothing to draw.
    pub fn timeline(&self, run: usize) -> JsValue {
        let labels = self.run_labels();
        if labels.is_empty() {
            return JsValue::NULL;
        }
        // A shared link may name a run that no longer exists: show the last.
        let run = run.min(labels.len() - 1);
        let view = self.runs.get(run);
        let mut packed: Vec<f64> = Vec::new();
        let mut meta = TimelineMeta {
            scenario: self.scenario.name(),
            run,
            label: labels[run].en.clone(),
            machine: view.map(|v| v.machine.name.clone()).unwrap_or_default(),
            cores: view
                .map(|v| {
                    v.machine
                        .cores
                        .iter()
                        .map(|c| CoreMeta {
                            kind: c.kind,
                            speed: c.speed,
                        })
                        .collect()
                })
                .unwrap_or_default(),
            lanes: Vec::new(),
            lane_qos: Vec::new(),
            main_lane: None,
            main_thread: None,
            horizon: 0.0,
            end: 0.0,
            truncated: false,
            segments: 0,
            intervals: 0,
            pri: Vec::new(),
            band_limit: band_limit_of(&self.result, &self.runs),
            floor: None,
        };
        if let Some(v) = view {
            let r = &v.run;
            meta.end = r.end;
            meta.truncated = r.truncated;
            meta.horizon = r.end;
            if r.truncated {
                let seg_end = r.segments.iter().map(|s| s.end).fold(0.0, f64::max);
                let int_end = r.intervals.iter().map(|s| s.end).fold(0.0, f64::max);
                meta.horizon = seg_end.min(int_end).max(1.0);
            }
            meta.main_thread = r.threads.iter().position(|t| t.group == "main");
            for s in &r.segments {
                // QoS 0 marks "other system work" (drawn grey).
                let thread = s.task as usize;
                let system = r.threads.get(thread).is_some_and(|t| t.group == "system");
                packed.extend_from_slice(&[
                    s.core as f64,
                    if system { 0.0 } else { r.segment_qos(s) as f64 },
                    s.start,
                    s.end,
                    thread as f64,
                ]);
            }
            meta.segments = r.segments.len();
            let keys = key_threads(self.scenario, r);
            let lane_of: HashMap<usize, usize> =
                keys.iter().enumerate().map(|(l, &t)| (t, l)).collect();
            for i in &r.intervals {
                if let Some(&lane) = lane_of.get(&(i.thread as usize)) {
                    packed.extend_from_slice(&[lane as f64, state_index(i.state), i.start, i.end]);
                    meta.intervals += 1;
                }
            }
            meta.lanes = keys
                .iter()
                .map(|&t| thread_title(&r.threads[t].name))
                .collect();
            meta.lane_qos = keys.iter().map(|&t| r.threads[t].qos).collect();
            meta.main_lane = keys.iter().position(|&t| r.threads[t].group == "main");
        }
        let series: Vec<&PriSeries> = self
            .result
            .outcome()
            .pri_series(run)
            .unwrap_or_else(|| view.map(|v| v.run.pri.iter().collect()).unwrap_or_default());
        for s in &series {
            for &(t, p) in &s.points {
                packed.extend_from_slice(&[t, p as f64]);
            }
            meta.pri.push(PriMeta {
                name: thread_title(&s.name),
                points: s.points.len(),
            });
            if meta.horizon == 0.0 {
                meta.horizon = s.points.last().map(|p| p.0).unwrap_or(0.0);
            }
        }
        if let Some(ms) = self.result.outcome().simulated_ms() {
            if meta.horizon == 0.0 || view.is_none() {
                meta.horizon = ms;
            }
        }
        if meta.band_limit && !series.is_empty() {
            meta.floor = Some(BASEPRI_FOREGROUND - BAND_LIMIT);
        }
        let out = Object::new();
        set(&out, "meta", &to_js(&meta));
        let arr = Float64Array::new_with_length(packed.len() as u32);
        arr.copy_from(&packed);
        set(&out, "packed", &arr.into());
        out.into()
    }
}
