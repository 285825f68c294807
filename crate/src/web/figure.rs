//! The SVG figure of an experiment, in the worker's wasm (the page's main
//! thread never writes SVG): the page's "Figure (SVG)" export and
//! [`svg_figure`], the function blog-embed facades call.

use wasm_bindgen::prelude::*;

use super::io::{experiment, tasks_for};
use crate::catalog::BROWSER_LIMITS;
use crate::chart::answer::AnswerCharts;
use crate::chart::figure::{self, Figure, Options};
use crate::chart::theme::Theme;
use crate::experiment::{Experiment, Limits};
use crate::text::Lang;
use crate::workload::Workload;

/// The figure of `exp` on `workload` (its own tasks when `None`): the
/// Gantt chart when the run is small enough for the page to draw it;
/// `answer`, the Responsiveness section the page shows for these tasks,
/// above it.
pub(crate) fn svg(
    exp: &Experiment,
    workload: Option<Workload>,
    answer: Option<&AnswerCharts>,
    options: &Options,
) -> Result<String, JsError> {
    let mut all = svg_widths(exp, workload, answer, options, &[options.width])?;
    Ok(all.pop().unwrap_or_default())
}

/// [`svg`] drawn at each of `widths` (CSS px) from one run.
pub(crate) fn svg_widths(
    exp: &Experiment,
    workload: Option<Workload>,
    answer: Option<&AnswerCharts>,
    options: &Options,
    widths: &[f64],
) -> Result<Vec<String>, JsError> {
    let generated = workload.is_none();
    let w = workload.unwrap_or_else(|| Workload::generate(&exp.workload_spec()));
    let record = exp.slices_on(&w) <= BROWSER_LIMITS.gantt_max_slices;
    let outcome = exp
        .run_on(w, &Limits::WEB, record)
        .map_err(|e| JsError::new(&e.to_string()))?;
    let study = figure::Study {
        exp,
        outcome: &outcome,
        recorded: None,
        generated,
    };
    Ok(widths
        .iter()
        .map(|&width| {
            let options = Options { width, ..*options };
            match answer {
                Some(a) => figure::answer(a, Some(&study), &options),
                None => figure::study(&study, &options),
            }
        })
        .collect())
}

/// Reads a figure's options: `view` (`table`, `gantt`, `cdf`, `histogram`
/// or `all`), `theme` (`light` or `dark`) and `lang` (`en` or `zh`).
pub(crate) fn options(view: &str, theme: &str, lang: &str) -> Result<Options, JsError> {
    let e = |e: crate::error::ParamError| JsError::new(&e.to_string());
    Ok(Options {
        figure: Figure::parse("view", view, &Figure::STUDY).map_err(e)?,
        theme: Theme::parse("theme", theme).map_err(e)?,
        lang: Lang::parse("lang", lang).map_err(e)?,
        ..Options::default()
    })
}

/// `svgFigure(query, view, theme, lang, tasks?) -> string`: the SVG figure
/// (a complete `<svg>` document, text as `<text>`, no external fonts) of
/// the experiment of a page `query` (as in the address bar, with or
/// without `?`), showing `view` — `table`, `gantt`, `cdf`, `histogram` or
/// `all` — in `theme` (`light` or `dark`) and `lang` (`en` or `zh`);
/// `tasks` is an imported task list, if any. Fails with a one-line message
/// naming the bad argument. Exported by the worker's wasm
/// (`tailslice-worker-web.js`), not the main thread's.
#[wasm_bindgen(js_name = svgFigure)]
pub fn svg_figure(
    query: &str,
    view: &str,
    theme: &str,
    lang: &str,
    tasks: Option<String>,
) -> Result<String, JsError> {
    let options = options(view, theme, lang)?;
    let base = experiment(query)?;
    match tasks.as_deref() {
        Some(t) => {
            let (exp, w) = tasks_for(&base, t, options.lang)?;
            svg(&exp, Some(w), None, &options)
        }
        None => svg(&base, None, None, &options),
    }
}
