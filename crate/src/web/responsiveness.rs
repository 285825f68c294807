//! The Responsiveness section: computed in the worker with a run on a
//! trace's or a timed task list's tasks ([`section`], the result's
//! `responsiveness` object), drawn on the main thread ([`RespView`]: the
//! input-delay CDF and the trade-off chart), and the "use my measured
//! yield cost" conversion ([`measured_yield_cost`]).

use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use super::canvas::{err, Canvas};
use super::result::to_js;
use crate::chart::answer::{self as charts, AnswerCharts, SLICED_ROW};
use crate::chart::pen::Pen;
use crate::chart::theme::Palette;
use crate::experiment::{Experiment, Limits};
use crate::responsiveness::interactions::InteractionModel;
use crate::responsiveness::interactions_text as itext;
use crate::responsiveness::text::{self, column, row_name, PAGE_COLUMNS};
use crate::responsiveness::yielding;
use crate::responsiveness::{Answer, PlanRow, Settings, Source, Task};
use crate::text::{Filled, Lang};
use crate::trace::interactions::Carried;
use crate::workload::Workload;

/// The interactions table's cells after the id and kind, by
/// `td[data-metric]` key (the sliced latency at the page's quantum last).
const INTERACTION_KEYS: [&str; 7] = [
    "start",
    "latency",
    "input_delay",
    "processing",
    "presentation",
    "model_input_delay",
    "sliced_latency",
];
/// One row of the section's table.
#[derive(Serialize)]
struct TableRow {
    /// `recorded`, or the quantum as written (`16`): `tr[data-quantum]`.
    quantum: String,
    name: Filled<String>,
    /// Each page column's figure as shown, by `td[data-metric]` key.
    cells: std::collections::BTreeMap<&'static str, String>,
    favoured: bool,
    knee: bool,
}

/// One row of the interactions table (`tr[data-interaction]`).
#[derive(Serialize)]
struct InteractionRow {
    id: String,
    kind: Filled<String>,
    cells: std::collections::BTreeMap<&'static str, String>,
}

/// The section's interactions part, when the tasks are a trace's at their
/// recorded starts.
#[derive(Serialize)]
struct InteractionsPart {
    /// What was found, or plainly that there are none.
    found: Filled<Vec<String>>,
    /// The headline `[data-inp]`: INP recorded → sliced at the page's quantum.
    inp: Option<Filled<String>>,
    caption: Filled<String>,
    /// Headings: id, kind, then one per key of `keys`.
    heads: Filled<Vec<String>>,
    keys: [&'static str; 7],
    rows: Vec<InteractionRow>,
    /// The worst interaction's reading and the model's check.
    reading: Filled<Vec<String>>,
    /// The bars chart's caption (also its accessible name).
    bars_caption: Filled<String>,
    /// The caption of the tasks' Gantt under the bars.
    tasks_caption: Filled<String>,
}

/// The section's object.
#[derive(Serialize)]
struct Section<'a> {
    interactions: Option<InteractionsPart>,
    about: Filled<Vec<String>>,
    rows: Vec<TableRow>,
    tbt: Filled<String>,
    reading: Filled<Vec<String>>,
    assumptions: Filled<String>,
    chart: AnswerCharts,
    /// The CLI's `--json` object (English reading), for scripts and tests.
    answer: crate::responsiveness::answer::Json<'a>,
}

/// Whether the section applies ([`crate::responsiveness::applies`]).
/// Never in the page's own module (`page`): it runs no imported tasks, and
/// saying so here leaves the section's code out of it.
pub(crate) fn applies(workload: &Workload, trace: bool) -> bool {
    !cfg!(feature = "page") && crate::responsiveness::applies(&workload.arrival, trace)
}

fn q(v: f64) -> String {
    crate::error::fmt_number(v)
}

fn cells(row: &PlanRow) -> std::collections::BTreeMap<&'static str, String> {
    PAGE_COLUMNS
        .iter()
        .filter_map(|&k| column(k))
        .map(|c| (c.key, c.cell(row)))
        .collect()
}

/// The section for `workload` under `settings`, the page's quantum added
/// to the quanta tried. `trace`: the tasks are a trace's at their recorded
/// starts. Too fine a quantum for the browser's limit gives `{error: {en, zh}}`.
pub(crate) fn section(
    exp: &Experiment,
    workload: &Workload,
    trace: bool,
    settings: &Settings,
    interactions: Option<&Carried>,
) -> JsValue {
    let tasks = Task::from_columns(&workload.arrival, &workload.work);
    let mut s = settings.clone();
    if !s.quanta.contains(&exp.quantum) {
        s.quanta.push(exp.quantum);
        s.quanta.sort_unstable_by(f64::total_cmp);
    }
    let source = Source::of(trace);
    // The browser's slice budget, shared by every row.
    let per_plan = Limits::WEB.max_slices / (s.quanta.len() as u64 + 1);
    let answer = Answer::new(&tasks, &s, source, per_plan).and_then(|a| match interactions {
        Some(c) => a.with_interactions(&tasks, &c.interactions, &c.handler, per_plan),
        None => Ok(a),
    });
    let answer = match answer {
        Ok(a) => a,
        Err(e) => {
            let field = if e.quantum_ms == exp.quantum {
                "q"
            } else {
                "resp_quanta"
            };
            return to_js(&serde_json::json!({ "error": e.error(field).messages() }));
        }
    };
    let r = &answer.report;
    let rec = r.recorded();
    let sliced = r.at(exp.quantum).expect("the page's quantum was added");
    let favoured = answer.favoured.map(|f| f.row);
    let knee = answer.knee.ok().map(|k| k.row);
    let index = |row: &PlanRow| r.rows.iter().position(|x| std::ptr::eq(x, row));
    let table_row = |row: &PlanRow| TableRow {
        quantum: row.quantum_ms.map_or("recorded".to_string(), q),
        name: Filled::each(|lang| match row.quantum_ms {
            None => row_name(row, source, lang),
            Some(v) => SLICED_ROW.fill(lang, &[&q(v)]),
        }),
        cells: cells(row),
        favoured: favoured.is_some() && index(row) == favoured,
        knee: knee.is_some() && index(row) == knee,
    };
    let mut chart = AnswerCharts::new(&answer, exp.quantum);
    if let (Some(c), true) = (interactions, chart.has_bars()) {
        chart.tasks = tasks
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let handler = c.handler.get(i).copied().unwrap_or(false);
                [t.start, t.duration, if handler { 1.0 } else { 0.0 }]
            })
            .collect();
    }
    let page_row = r
        .rows
        .iter()
        .position(|row| row.quantum_ms == Some(exp.quantum))
        .unwrap_or(0);
    let part = answer
        .interactions
        .as_ref()
        .map(|m| interactions_part(&answer, m, page_row, exp.quantum));
    let span = text::span_word(r);
    to_js(&Section {
        interactions: part,
        about: Filled::each(|lang| text::about(&answer, lang)),
        rows: vec![table_row(rec), table_row(sliced)],
        tbt: Filled::each(|lang| {
            text::TBT_BEFORE_AFTER.fill(
                lang,
                &[
                    &format!("{:.1}", rec.tbt_ms),
                    &row_name(rec, source, lang),
                    &format!("{:.1}", sliced.tbt_ms),
                    &q(exp.quantum),
                ],
            )
        }),
        reading: Filled::each(|lang| answer.reading(lang)),
        assumptions: Filled::each(|lang| text::ASSUMPTIONS.fill(lang, &[span.get(lang)])),
        chart,
        answer: answer.json(Lang::En),
    })
}

/// The interactions' table, headline and reading; `page_row`: the row of
/// the page's quantum.
fn interactions_part(
    answer: &Answer,
    m: &InteractionModel,
    page_row: usize,
    quantum: f64,
) -> InteractionsPart {
    let at = page_row.saturating_sub(1);
    let ms = |v: f64| format!("{v:.1}");
    let rows = m
        .recorded
        .list
        .iter()
        .zip(&m.modelled)
        .map(|(i, x)| {
            let sliced = x.sliced.get(at).map_or(String::new(), |s| ms(s.latency_ms));
            let values = [
                ms(i.start_ms),
                ms(i.latency_ms),
                ms(i.input_delay_ms),
                ms(i.processing_ms),
                ms(i.presentation_ms),
                ms(x.model_input_delay_ms),
                sliced,
            ];
            InteractionRow {
                id: i.id.to_string(),
                kind: Filled::each(|lang| i.kind.label().get(lang).to_string()),
                cells: INTERACTION_KEYS.iter().copied().zip(values).collect(),
            }
        })
        .collect();
    let inp = match (answer.inp(0), answer.inp(page_row)) {
        (Some(rec), Some(sliced)) => Some(Filled::each(|lang| {
            text::INP_HEADLINE.fill(lang, &[&ms(rec), &q(quantum), &ms(sliced)])
        })),
        _ => None,
    };
    InteractionsPart {
        found: Filled::each(|lang| m.recorded.lines(lang)),
        inp,
        caption: Filled::each(|lang| itext::CAPTION.get(lang).to_string()),
        heads: Filled::each(|lang| {
            let mut h: Vec<String> = itext::HEADS
                .iter()
                .map(|t| t.get(lang).to_string())
                .collect();
            h.push(itext::SLICED_HEAD.fill(lang, &[&q(quantum)]));
            h
        }),
        keys: INTERACTION_KEYS,
        rows,
        reading: Filled::each(|lang| itext::reading(answer, lang)),
        bars_caption: Filled::each(|lang| text::BARS_CAPTION.fill(lang, &[&q(quantum)])),
        tasks_caption: Filled::each(|lang| text::TASKS_CAPTION.get(lang).to_string()),
    }
}

/// The section's charts on the main thread (from the worker's module, which
/// the page loads when the first section arrives).
#[cfg(not(feature = "page"))]
#[wasm_bindgen]
pub struct RespView {
    data: AnswerCharts,
}

#[cfg(not(feature = "page"))]
#[wasm_bindgen]
impl RespView {
    /// Takes the result's `responsiveness` object.
    #[wasm_bindgen(constructor)]
    pub fn new(section: JsValue) -> Result<RespView, JsError> {
        let chart = js_sys::Reflect::get(&section, &JsValue::from_str("chart"))
            .map_err(|_| JsError::new("the section has no chart"))?;
        let data: AnswerCharts = serde_wasm_bindgen::from_value(chart)
            .map_err(|e| JsError::new(&format!("chart: {e}")))?;
        Ok(RespView { data })
    }

    /// The input-delay CDF, recorded and sliced, in `lang`.
    #[wasm_bindgen(js_name = drawCdf)]
    pub fn draw_cdf(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
        lang: &str,
    ) -> Result<(), JsError> {
        let mut backend = Canvas::clear(canvas)?;
        let mut pen = Pen::new(&mut backend, dpr, Palette::dark(dark), Lang::from_tag(lang));
        let size = pen.size();
        charts::draw_cdf(&mut pen, size, &self.data).map_err(err)?;
        Ok(())
    }

    /// Whether there are interaction bars to draw.
    #[wasm_bindgen(js_name = hasBars)]
    pub fn has_bars(&self) -> bool {
        self.data.has_bars()
    }

    /// The interactions' three-phase bars, recorded and sliced, in `lang`.
    /// Returns `[x from, x to (ms), plot left, plot right (CSS px)]`.
    #[wasm_bindgen(js_name = drawBars)]
    pub fn draw_bars(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
        lang: &str,
    ) -> Result<Vec<f64>, JsError> {
        let mut backend = Canvas::clear(canvas)?;
        let mut pen = Pen::new(&mut backend, dpr, Palette::dark(dark), Lang::from_tag(lang));
        let size = pen.size();
        let plot = charts::draw_bars(&mut pen, size, &self.data).map_err(err)?;
        Ok(vec![plot.x.0, plot.x.1, plot.left, plot.right])
    }

    /// The recorded tasks as a Gantt on the bars' timeline, an
    /// interaction's own handlers marked, in `lang`. Returns `[x from, x to
    /// (ms), plot left, plot right (CSS px), handler tasks drawn]`.
    #[wasm_bindgen(js_name = drawTasks)]
    pub fn draw_tasks(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
        lang: &str,
    ) -> Result<Vec<f64>, JsError> {
        let mut backend = Canvas::clear(canvas)?;
        let mut pen = Pen::new(&mut backend, dpr, Palette::dark(dark), Lang::from_tag(lang));
        let size = pen.size();
        let (plot, handlers) = charts::draw_tasks(&mut pen, size, &self.data).map_err(err)?;
        Ok(vec![
            plot.x.0,
            plot.x.1,
            plot.left,
            plot.right,
            handlers as f64,
        ])
    }

    /// The trade-off over the quantum, in `lang`.
    #[wasm_bindgen(js_name = drawTradeoff)]
    pub fn draw_tradeoff(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
        lang: &str,
    ) -> Result<(), JsError> {
        let mut backend = Canvas::clear(canvas)?;
        let mut pen = Pen::new(&mut backend, dpr, Palette::dark(dark), Lang::from_tag(lang));
        let size = pen.size();
        charts::draw_tradeoff(&mut pen, size, &self.data).map_err(err)?;
        Ok(())
    }
}

/// "Use my measured yield cost": from Run for real's primitive
/// (`environment.yield_used`, absent before a run) and its cost of one
/// yield (`yield_cost.ms`: the median gap between slices, or on a clock too
/// coarse for one gap the median of yields timed in batches; absent when
/// neither could be timed), the section's `{yield, cost}`, or
/// `{message: {en, zh}}` when no cost applies.
#[cfg(not(feature = "page"))]
#[wasm_bindgen(js_name = measuredYieldCost)]
pub fn measured_yield_cost(yield_used: Option<String>, yield_ms: Option<f64>) -> JsValue {
    match yielding::measured_choice(yield_used.as_deref(), yield_ms) {
        Ok((kind, cost)) => to_js(&serde_json::json!({
            "yield": kind.name(),
            "cost": crate::error::fmt_number(cost),
        })),
        Err(why) => to_js(&serde_json::json!({ "message": why })),
    }
}
