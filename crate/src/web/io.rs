//! Your own tasks, exports and the generated reading, for the page.
//!
//! - [`tasks_for`]: a pasted or uploaded task list (`task_list::parse_task_list`)
//!   sized for the browser, for `Runner::with_tasks` (`runner.rs`).
//! - [`TaskList`] ([`check_tasks`] in one call): the page validates a list
//!   before sending it, so a bad line is reported with its number at once;
//!   the worker keeps the parsed list for `Runner::with_list`, so a run of a
//!   million lines does not parse them again.
//! - [`export_file`]: Chrome trace, per-task CSV and experiment JSON, as
//!   text (the page wraps it in a Blob). Run in the jobs worker: the trace
//!   needs the schedule's segments, so the experiment is run again with
//!   them recorded rather than shipping them back from the main thread.
//! - [`open_experiment`]: an experiment file back to a page query (and the
//!   task list, as CSV text, when it carried one).
//! - [`add_explanation`]: `reading::explain` in both languages, attached to
//!   every result so switching language needs no new run.

use js_sys::{Float64Array, Object, Uint16Array};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::query;
use super::result::{set, to_js};

use crate::experiment::export;
use crate::experiment::reading::explain;
use crate::experiment::{Experiment, Limits, RunOutcome};
use crate::text::{Filled, Lang};
use crate::workload::task_list;
use crate::workload::Workload;

/// Adds `explain: {en, zh}` to a result object.
pub(crate) fn add_explanation(obj: &JsValue, exp: &Experiment, outcome: &RunOutcome) {
    let e = Object::new();
    set(&e, "en", &explain(exp, outcome, Lang::En).into());
    set(&e, "zh", &explain(exp, outcome, Lang::Zh).into());
    set(obj.unchecked_ref(), "explain", &e.into());
}

/// The experiment of a canonical query; the page only sends valid ones.
pub(crate) fn experiment(query_text: &str) -> Result<Experiment, JsError> {
    let (exp, page) = query::parse(query_text, &Limits::WEB);
    if !page.errors.is_empty() {
        let msgs: Vec<String> = page.errors.into_iter().map(|e| e.message).collect();
        return Err(JsError::new(&msgs.join("; ")));
    }
    Ok(exp)
}

/// Parses `text` and checks the run's size against the browser's limit;
/// a refusal is said in `lang`.
pub(crate) fn tasks_for(
    exp: &Experiment,
    text: &str,
    lang: Lang,
) -> Result<(Experiment, Workload), JsError> {
    sized_tasks(exp, text, lang).map(|s| (s.exp, s.workload))
}

/// [`tasks_for`], with the slices the check found.
pub(crate) fn sized_tasks(exp: &Experiment, text: &str, lang: Lang) -> Result<Sized, JsError> {
    let w = task_list::parse_task_list(text, Limits::WEB.max_tasks)
        .map_err(|e| JsError::new(&e.said(lang)))?;
    sized_for(exp, w, lang)
}

/// An experiment on imported tasks, checked against the browser's size
/// limit: `slices`, its slices over all policies, is what the check found.
pub(crate) struct Sized {
    pub exp: Experiment,
    pub workload: Workload,
    pub slices: f64,
}

/// The experiment to run on the tasks `w`, refused (in `lang`) past the
/// browser's size limit.
fn sized_for(exp: &Experiment, w: Workload, lang: Lang) -> Result<Sized, JsError> {
    let exp = exp.for_workload(&w);
    let slices = exp
        .imported_slices(&w, &Limits::WEB)
        .map_err(|e| JsError::new(&e.message(lang)))?;
    Ok(Sized {
        exp,
        workload: w,
        slices,
    })
}

/// A task list parsed once and kept in the worker: it is checked when the
/// visitor brings it ([`TaskList::check`]) and every run of it (the first,
/// then one per edit) starts from the parsed tasks instead of the text.
#[cfg(not(feature = "page"))]
#[wasm_bindgen]
pub struct TaskList {
    parsed: Result<Workload, task_list::ImportError>,
}

#[cfg(not(feature = "page"))]
#[wasm_bindgen]
impl TaskList {
    /// Parses `text` (`import::parse_task_list`, the browser's task limit).
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str) -> TaskList {
        TaskList {
            parsed: task_list::parse_task_list(text, Limits::WEB.max_tasks),
        }
    }

    /// The list checked against the experiment of `query`: `checkTasks`'
    /// answer.
    pub fn check(&self, query: &str) -> Result<JsValue, JsError> {
        let exp = experiment(query)?;
        let out = match &self.parsed {
            Err(e) => to_js(&TasksCheck {
                ok: false,
                line: e.line,
                message: e.message.clone(),
                tasks: 0,
                classes: &[],
                total_work_ms: 0.0,
            }),
            Ok(w) => {
                let run = exp.for_workload(w);
                let (ok, message) = match run.check_imported_size(w, &Limits::WEB) {
                    Ok(()) => (true, Default::default()),
                    Err(e) => (false, e.messages()),
                };
                to_js(&TasksCheck {
                    ok,
                    line: None,
                    message,
                    tasks: w.len(),
                    classes: &w.class_labels,
                    total_work_ms: w.total_work(),
                })
            }
        };
        Ok(out)
    }
}

/// Tasks as `{work, arrival, class, labels}` typed arrays (see
/// [`TaskList::arrays`]).
#[cfg(not(feature = "page"))]
fn workload_arrays(w: &Workload) -> JsValue {
    let o = Object::new();
    set(&o, "work", &Float64Array::from(&w.work[..]).into());
    let at_zero = w.arrival.iter().all(|&a| a.to_bits() == 0);
    let arrival = if at_zero {
        JsValue::NULL
    } else {
        Float64Array::from(&w.arrival[..]).into()
    };
    set(&o, "arrival", &arrival);
    set(&o, "class", &Uint16Array::from(&w.class[..]).into());
    set(&o, "labels", &to_js(&w.class_labels));
    o.into()
}

/// A parsed list handed from worker to worker: its tasks as typed arrays
/// (transferred) and its class names.
#[cfg(not(feature = "page"))]
#[wasm_bindgen]
impl TaskList {
    /// The tasks as `{work, arrival, class, labels}` (see
    /// `TaskList.fromArrays`; `arrival` is `null` when every task arrives
    /// at 0, as in a list of durations); `null` for a list that did not
    /// parse.
    pub fn arrays(&self) -> JsValue {
        match &self.parsed {
            Ok(w) => workload_arrays(w),
            Err(_) => JsValue::NULL,
        }
    }

    /// The list of `arrays()` (another worker's parse): refused unless
    /// every task has its three values and a named class.
    #[wasm_bindgen(js_name = fromArrays)]
    pub fn from_arrays(
        work: Vec<f64>,
        arrival: Option<Vec<f64>>,
        class: Vec<u16>,
        labels: Vec<String>,
    ) -> Result<TaskList, JsError> {
        let arrival = arrival.unwrap_or_else(|| vec![0.0; work.len()]);
        if arrival.len() != work.len()
            || class.len() != work.len()
            || class.iter().any(|&c| usize::from(c) >= labels.len())
        {
            return Err(JsError::new("a task list's arrays do not match"));
        }
        Ok(TaskList {
            parsed: Ok(Workload {
                arrival,
                work,
                class,
                class_labels: labels,
            }),
        })
    }
}

#[cfg(not(feature = "page"))]
impl TaskList {
    /// The experiment of `query` on these tasks, sized for the browser (a
    /// refusal in `lang`).
    pub(crate) fn sized(&self, exp: &Experiment, lang: Lang) -> Result<Sized, JsError> {
        let w = self
            .parsed
            .as_ref()
            .map_err(|e| JsError::new(&e.said(lang)))?;
        sized_for(exp, w.clone(), lang)
    }
}

#[derive(Serialize)]
struct TasksCheck<'a> {
    ok: bool,
    /// 1-based line of the first problem (absent when the whole list is wrong).
    line: Option<usize>,
    /// What is wrong, in English and in Chinese.
    #[serde(flatten, serialize_with = "crate::text::pair::message")]
    message: Filled,
    tasks: usize,
    classes: &'a [String],
    total_work_ms: f64,
}

/// Checks a task list against the experiment of `query`:
/// `{ok, tasks, classes, total_work_ms}` or `{ok: false, line, message}`.
#[cfg(not(feature = "page"))]
#[wasm_bindgen(js_name = checkTasks)]
pub fn check_tasks(query: &str, text: &str) -> Result<JsValue, JsError> {
    TaskList::new(text).check(query)
}

/// One export as text: `kind` is `trace` (Chrome Trace Event JSON of every
/// policy), `csv` (one row per task and policy), `svg` (the figure of the
/// result: `ui` is `{lang, theme, view, answer?}` as JSON text, see
/// `figure::svg_figure`; `answer` is the shown Responsiveness section's
/// `chart` object, drawn above the study) or `experiment` (the file "open experiment" reads;
/// `ui` is the page's own state as JSON text). `tasks` is the imported task
/// list, if any.
#[cfg(not(feature = "page"))]
#[wasm_bindgen(js_name = exportFile)]
pub fn export_file(
    kind: &str,
    query: &str,
    tasks: Option<String>,
    ui: Option<String>,
) -> Result<String, JsError> {
    let base = experiment(query)?;
    let (exp, workload) = match tasks.as_deref() {
        Some(t) => {
            let (e, w) = tasks_for(&base, t, Lang::En)?;
            (e, Some(w))
        }
        None => (base, None),
    };
    if kind == "experiment" {
        let ui: Option<serde_json::Value> =
            ui.as_deref().and_then(|u| serde_json::from_str(u).ok());
        return Ok(export::experiment_json(
            &exp,
            workload.as_ref(),
            ui.as_ref(),
        ));
    }
    if kind == "svg" {
        let ui: serde_json::Value = ui
            .as_deref()
            .and_then(|u| serde_json::from_str(u).ok())
            .unwrap_or_default();
        let text =
            |k: &str, d: &'static str| ui.get(k).and_then(|v| v.as_str()).unwrap_or(d).to_string();
        let options = super::figure::options(
            &text("view", "all"),
            &text("theme", "light"),
            &text("lang", "en"),
        )?;
        let answer: Option<crate::chart::answer::AnswerCharts> = match ui.get("answer") {
            Some(a) if !a.is_null() => Some(
                serde_json::from_value(a.clone())
                    .map_err(|e| JsError::new(&format!("answer: {e}")))?,
            ),
            _ => None,
        };
        return super::figure::svg(&exp, workload, answer.as_ref(), &options);
    }
    let w = workload.unwrap_or_else(|| Workload::generate(&exp.workload_spec()));
    let outcome = exp
        .run_on(w, &Limits::WEB, kind == "trace")
        .map_err(|e| JsError::new(&e.to_string()))?;
    match kind {
        "trace" => export::chrome_trace(&exp, &outcome, None),
        "csv" => export::tasks_csv(&outcome, None),
        _ => return Err(JsError::new(&format!("unknown export '{kind}'"))),
    }
    .map_err(|e| JsError::new(&e.to_string()))
}

#[cfg(not(feature = "page"))]
#[derive(Serialize)]
struct Opened {
    /// The measured rows of a `measure --json` output, worded for the
    /// table (absent for an experiment file).
    #[serde(skip_serializing_if = "Option::is_none")]
    measured: Option<super::measured::MeasuredView>,
    /// The page query of the experiment (canonical, without `v`/`embed`).
    query: String,
    /// The imported tasks as CSV text (`arrival_ms,duration_ms,class`).
    tasks: Option<String>,
    task_count: usize,
    ui: Option<serde_json::Value>,
}

/// Reads an experiment file (`export::parse_experiment_json`); fails with
/// the reason (and line) when it is not one, in the page's language `lang`.
// The worker's module only: the page loads it on the first file opened.
#[cfg(not(feature = "page"))]
#[wasm_bindgen(js_name = openExperiment)]
pub fn open_experiment(text: &str, lang: &str) -> Result<JsValue, JsError> {
    let said =
        |e: crate::workload::task_list::ImportError| JsError::new(&e.said(Lang::from_tag(lang)));
    // `measure --json` output: its experiment, with the measured rows.
    let (file, measured) = match super::measured::read(text, &Limits::WEB).map_err(said)? {
        Some((file, view)) => (file, Some(view)),
        None => (
            export::parse_experiment_json(text, &Limits::WEB).map_err(said)?,
            None,
        ),
    };
    let task_count = file.tasks.as_ref().map_or(0, Workload::len);
    let tasks = file.tasks.as_ref().map(tasks_text);
    let mut exp = file.experiment;
    if file.tasks.is_some() {
        // The list sets the task count; keep the URL's default instead.
        exp.tasks = Experiment::default().tasks;
    }
    let page = query::describe(&exp, false, vec![]);
    Ok(to_js(&Opened {
        measured,
        query: page.experiment,
        tasks,
        task_count,
        ui: file.ui,
    }))
}

fn tasks_text(w: &Workload) -> String {
    task_list::task_list_text(w)
}
