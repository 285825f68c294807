//! The Embed dialog's wasm exports: the snippet for the shown experiment or
//! scenario ([`crate::embed::snippet`]) and the figure it shows
//! ([`crate::chart::figure`]).

use wasm_bindgen::prelude::*;

use crate::chart::answer::AnswerCharts;
use crate::chart::figure::{self, Figure, Options};
use crate::chart::theme::Theme;
use crate::embed::figures::{self, WIDTHS};
use crate::embed::snippet::{Snippet, SnippetKind};
use crate::embed::{EmbedTheme, EmbedView, Part};
use crate::query_string::decode_pairs;
use crate::text::Lang;

/// The dialog's `view=…&controls=…&theme=…`, read by the one parser of
/// those keys; its first refusal as the error.
fn view_of(view_query: &str) -> Result<EmbedView, JsError> {
    let pairs = decode_pairs(view_query);
    let (view, errors) = EmbedView::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    match errors.first() {
        Some(e) => Err(JsError::new(&e.to_string())),
        None => Ok(view),
    }
}

/// The HTML of one snippet. `kind`: `live` or `static`; `base`: the
/// deployment's folder (`https://…/`); `query`: the shown experiment's or
/// scenario's query, with `lang=` when the visitor chose a language (the
/// links keep it); `view_query`: the dialog's `view=…&controls=…&theme=…`
/// (read by the one parser of those keys); `lang`: the words' language;
/// `svg`: the figure; `trace`: the trace's file name when the figure is a
/// trace's answer (see [`embed_answer_figure`]): the live page cannot carry
/// it, so both snippets are the figure with a line on where the file is
/// needed.
#[wasm_bindgen(js_name = embedSnippet)]
pub fn embed_snippet(
    kind: &str,
    base: &str,
    query: &str,
    view_query: &str,
    lang: &str,
    svg: &str,
    trace: Option<String>,
) -> Result<String, JsError> {
    let kind = SnippetKind::parse(kind).ok_or_else(|| JsError::new("kind: live or static"))?;
    let view = view_of(view_query)?;
    Snippet {
        kind,
        base,
        query,
        view,
        lang: Lang::from_tag(lang),
        url_lang: decode_pairs(query)
            .iter()
            .find(|(k, _)| k == "lang")
            .and_then(|(_, l)| Lang::parse("lang", l).ok()),
        svg,
        trace: trace.as_deref(),
    }
    .html()
    .map_err(|e| JsError::new(&e.to_string()))
}

/// The figure options of an embed: its part (`view=`, read by the one
/// parser of the embed keys from the dialog's `view_query`) in its colours
/// (`theme=`; `auto` takes `dark`, the page's own scheme as the dialog is
/// open). A scenario has no CDF: `cdf` draws all of it, as its embed shows.
pub(crate) fn figure_options(
    view_query: &str,
    dark: bool,
    lang: &str,
    scenario: bool,
) -> Result<Options, JsError> {
    let view = view_of(view_query)?;
    let figure = match view.part {
        Part::Table => Figure::Table,
        Part::Gantt => Figure::Gantt,
        Part::Cdf if !scenario => Figure::Cdf,
        Part::Cdf | Part::All => Figure::All,
    };
    let dark = match view.theme {
        EmbedTheme::Light => false,
        EmbedTheme::Dark => true,
        EmbedTheme::Auto => dark,
    };
    Ok(Options {
        figure,
        theme: if dark { Theme::Dark } else { Theme::Light },
        lang: Lang::from_tag(lang),
        ..Options::default()
    })
}

/// `embedFigure(query, view_query, dark, lang) -> string`: the figure a
/// snippet shows for the experiment of a page `query`, drawn by the
/// charts' own code as `<svg>` elements, one at each of the snippet's
/// widths ([`WIDTHS`], widest first; see [`figure_options`]; a scenario's
/// is `ScenarioRun.embedFigure`). Runs the experiment once: the worker's
/// job.
#[wasm_bindgen(js_name = embedFigure)]
pub fn embed_figure(
    query: &str,
    view_query: &str,
    dark: bool,
    lang: &str,
) -> Result<String, JsError> {
    let options = figure_options(view_query, dark, lang, false)?;
    let exp = super::io::experiment(query)?;
    let all = super::figure::svg_widths(&exp, None, None, &options, &WIDTHS)?;
    Ok(figures::join(&all))
}

/// `embedAnswerFigure(chart, view_query, dark, lang) -> string`: the figure
/// a snippet shows for a trace's answer: `chart` is the shown
/// Responsiveness section's `chart` object, drawn as `tailslice
/// responsiveness --svg` draws it (the dialog's `table` and `cdf` are the
/// section's; `gantt` and `all` draw all of it), at each of the snippet's
/// widths. Draws only: no run.
#[wasm_bindgen(js_name = embedAnswerFigure)]
pub fn embed_answer_figure(
    chart: JsValue,
    view_query: &str,
    dark: bool,
    lang: &str,
) -> Result<String, JsError> {
    let charts: AnswerCharts =
        serde_wasm_bindgen::from_value(chart).map_err(|e| JsError::new(&format!("chart: {e}")))?;
    let mut options = figure_options(view_query, dark, lang, false)?;
    if options.figure == Figure::Gantt {
        options.figure = Figure::All;
    }
    let all: Vec<String> = WIDTHS
        .iter()
        .map(|&width| figure::answer(&charts, None, &Options { width, ..options }))
        .collect();
    Ok(figures::join(&all))
}
