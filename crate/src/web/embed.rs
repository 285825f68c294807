//! The Embed dialog's wasm exports: the snippet for the shown experiment or
//! scenario ([`crate::embed::snippet`]) and, until the chart module's SVG
//! figures land, a placeholder figure.

use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::embed::placeholder_figure::{self, Row, COLUMNS};
use crate::embed::snippet::{Snippet, SnippetKind};
use crate::embed::EmbedView;
use crate::experiment::reading::policy_title;
use crate::query_string::decode_pairs;
use crate::text::Lang;

/// The HTML of one snippet. `kind`: `live` or `static`; `base`: the
/// deployment's folder (`https://…/`); `query`: the shown experiment's or
/// scenario's query, with `lang=` when the visitor chose a language (the
/// links keep it); `view_query`: the dialog's `view=…&controls=…&theme=…`
/// (read by the one parser of those keys); `lang`: the words' language;
/// `svg`: the figure.
#[wasm_bindgen(js_name = embedSnippet)]
pub fn embed_snippet(
    kind: &str,
    base: &str,
    query: &str,
    view_query: &str,
    lang: &str,
    svg: &str,
) -> Result<String, JsError> {
    let kind = SnippetKind::parse(kind).ok_or_else(|| JsError::new("kind: live or static"))?;
    let pairs = decode_pairs(view_query);
    let (view, errors) = EmbedView::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    if let Some(e) = errors.first() {
        return Err(JsError::new(&e.to_string()));
    }
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
    }
    .html()
    .map_err(|e| JsError::new(&e.to_string()))
}

#[derive(Deserialize)]
struct ReportRow {
    policy: String,
    mean: f64,
    p50: f64,
    p95: f64,
    p99: f64,
    max: f64,
}

#[derive(Deserialize)]
struct Report {
    results: Vec<ReportRow>,
}

/// PLACEHOLDER until the chart module's SVG figures are on main: the
/// latency table of a result's `report` as an SVG (see
/// [`crate::embed::placeholder_figure`]).
#[wasm_bindgen(js_name = placeholderFigureSvg)]
pub fn placeholder_figure_svg(report: JsValue, dark: bool, lang: &str) -> Result<String, JsError> {
    // No report (a scenario): the title and the header only.
    let report: Report = if report.is_null() || report.is_undefined() {
        Report { results: vec![] }
    } else {
        serde_wasm_bindgen::from_value(report).map_err(|e| JsError::new(&e.to_string()))?
    };
    let lang = Lang::from_tag(lang);
    debug_assert_eq!(COLUMNS.len(), 5);
    let rows: Vec<Row> = report
        .results
        .into_iter()
        .map(|r| Row {
            policy: policy_title(&r.policy, lang),
            values: [r.mean, r.p50, r.p95, r.p99, r.max],
        })
        .collect();
    Ok(placeholder_figure::table_svg(
        crate::embed::snippet::TITLE.get(lang),
        &rows,
        dark,
        lang,
    ))
}
