//! The Responsiveness section: computed in the worker with a run on a
//! trace's or a timed task list's tasks ([`section`], the result's
//! `responsiveness` object), drawn on the main thread ([`RespView`]: the
//! input-delay CDF and the trade-off chart), and the "use my measured
//! yield cost" conversion ([`measured_yield_cost`]).

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use super::canvas::{err, Canvas};
use super::result::to_js;
use crate::chart::delay::{self, Curve};
use crate::chart::interactions::{self as bars_chart, Bar, Lane, TaskBox};
use crate::chart::pen::Pen;
use crate::chart::theme::Theme;
use crate::chart::tradeoff::{self, Tradeoff};
use crate::experiment::{Experiment, Limits};
use crate::responsiveness::interactions::InteractionModel;
use crate::responsiveness::interactions_text as itext;
use crate::responsiveness::reading::P98_TARGET_MS;
use crate::responsiveness::text::{self, column, row_name, PAGE_COLUMNS};
use crate::responsiveness::yielding::{self, YieldKind};
use crate::responsiveness::{Answer, Row, Settings, Source, Task};
use crate::text::{Filled, Lang, Text};
use crate::trace::interactions::Carried;
use crate::workload::Workload;

const SLICED_ROW: Text = Text::new("sliced, q = {} ms", "切分，q = {} ms");
const TBT_BEFORE_AFTER: Text = Text::new(
    "Total blocking time: {} ms {}, {} ms sliced at q = {} ms.",
    "总阻塞时间：{} ms（{}），切分后 {} ms（q = {} ms）。",
);
const CDF_X: Text = Text::new("input delay (ms)", "输入延迟（ms）");
const CDF_Y: Text = Text::new(
    "share of inputs waiting at most",
    "等待不超过该时长的输入比例",
);
const TRADE_X: Text = Text::new("quantum q (ms)", "时间片 q（ms）");
const TRADE_P98: Text = Text::new("p98 input delay (ms)", "p98 输入延迟（ms）");
const TRADE_COST: Text = Text::new("tasks finish later, mean (ms)", "任务平均晚完成（ms）");
const TRADE_RECORDED: Text = Text::new("{}: p98 {} ms", "{}：p98 {} ms");
const TRADE_TARGET: Text = Text::new("target: p98 ≤ {} ms", "目标：p98 ≤ {} ms");
const INP_HEADLINE: Text = Text::new(
    "INP {} ms as recorded → sliced at q = {} ms: {} ms",
    "INP：按记录 {} ms → 按 q = {} ms 切分后 {} ms",
);
const BARS_X: Text = Text::new("time in the trace (ms)", "trace 中的时间（ms）");
const BARS_CAPTION: Text = Text::new(
    "Each interaction's input delay, processing and presentation delay from its input, as recorded and as the model predicts them sliced at q = {} ms",
    "每个交互从输入起的输入延迟、处理与呈现延迟：按记录，以及模型预测的按 q = {} ms 切分后",
);
const BARS_RECORDED: Text = Text::new("as recorded", "按记录");
const TASKS_CAPTION: Text = Text::new(
    "The trace's main-thread tasks on the same timeline, as recorded; an interaction's own handlers marked",
    "同一时间轴上 trace 的主线程任务（按记录）；标出交互自身的处理程序",
);
/// The tasks' Gantt: its lane, then its legend (task, handler).
const TASKS_WORDS: [Text; 3] = [
    Text::new("main thread, as recorded", "主线程，按记录"),
    Text::new("task", "任务"),
    Text::new("an interaction's own handler", "交互自身的处理程序"),
];
const BARS_PHASES: [Text; 3] = [
    Text::new("input delay", "输入延迟"),
    Text::new("processing", "处理"),
    Text::new("presentation delay", "呈现延迟"),
];
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
const KNEE: Text = Text::new("knee", "拐点");
const FAVOURED: Text = Text::new("favoured", "推荐");
const KNEE_AND_FAVOURED: Text = Text::new("knee, favoured", "拐点，推荐");

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

/// What the charts draw (also what [`RespView`] reads back).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct ChartData {
    /// Recorded first, then sliced at the page's quantum.
    cdf_names: Filled<Vec<String>>,
    cdf_x: Vec<Vec<f64>>,
    cdf_y: Vec<Vec<f64>>,
    quanta: Vec<f64>,
    p98: Vec<f64>,
    cost: Vec<f64>,
    recorded_p98: f64,
    knee: Option<usize>,
    favoured: Option<usize>,
    page_q: f64,
    recorded_name: Filled<String>,
    /// The interactions' bars: `[start, input delay, processing,
    /// presentation]`, recorded and sliced at the page's quantum.
    bars: Vec<Vec<[f64; 4]>>,
    bar_names: Filled<Vec<String>>,
    /// The tasks' timeline, ms, through the end of the last bar: the bars
    /// and the tasks' Gantt share it.
    span: (f64, f64),
    /// The recorded tasks for their Gantt under the bars: `[start, length,
    /// 1 if an interaction's own handler else 0]`, ms.
    tasks: Vec<[f64; 3]>,
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
    chart: ChartData,
    /// The CLI's `--json` object (English reading), for scripts and tests.
    answer: crate::responsiveness::answer::Json<'a>,
}

/// Whether the section applies: a trace's tasks, or an imported list with
/// arrival times (a list of durations alone, all at t = 0, is not a
/// timeline). Never in the page's own module (`page`): it runs no imported
/// tasks, and saying so here leaves the section's code out of it.
pub(crate) fn applies(workload: &Workload, trace: bool) -> bool {
    !cfg!(feature = "page") && (trace || workload.arrival.iter().any(|&a| a > 0.0))
}

fn q(v: f64) -> String {
    crate::error::fmt_number(v)
}

fn cells(row: &Row) -> std::collections::BTreeMap<&'static str, String> {
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
    let source = if trace { Source::Trace } else { Source::Tasks };
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
    let index = |row: &Row| r.rows.iter().position(|x| std::ptr::eq(x, row));
    let table_row = |row: &Row| TableRow {
        quantum: row.quantum_ms.map_or("recorded".to_string(), q),
        name: Filled::each(|lang| match row.quantum_ms {
            None => row_name(row, source, lang),
            Some(v) => SLICED_ROW.fill(lang, &[&q(v)]),
        }),
        cells: cells(row),
        favoured: favoured.is_some() && index(row) == favoured,
        knee: knee.is_some() && index(row) == knee,
    };
    let sliced_rows = &r.rows[1..];
    let chart = ChartData {
        cdf_names: Filled::each(|lang| {
            vec![
                row_name(rec, source, lang),
                SLICED_ROW.fill(lang, &[&q(exp.quantum)]),
            ]
        }),
        cdf_x: [rec, sliced]
            .iter()
            .map(|row| row.cdf.iter().map(|p| p.0).collect())
            .collect(),
        cdf_y: [rec, sliced]
            .iter()
            .map(|row| row.cdf.iter().map(|p| p.1).collect())
            .collect(),
        quanta: sliced_rows
            .iter()
            .filter_map(|row| row.quantum_ms)
            .collect(),
        p98: sliced_rows
            .iter()
            .map(|row| row.input_delay_ms.p98)
            .collect(),
        cost: sliced_rows
            .iter()
            .map(|row| row.finish_later_ms.mean)
            .collect(),
        recorded_p98: rec.input_delay_ms.p98,
        knee: knee.and_then(|k| k.checked_sub(1)),
        favoured: favoured.and_then(|f| f.checked_sub(1)),
        page_q: exp.quantum,
        recorded_name: Filled::each(|lang| row_name(rec, source, lang)),
        ..ChartData::default()
    };
    let page_row = r
        .rows
        .iter()
        .position(|row| row.quantum_ms == Some(exp.quantum))
        .unwrap_or(0);
    let part = answer
        .interactions
        .as_ref()
        .map(|m| interactions_part(&answer, m, page_row, exp.quantum));
    let mut chart = chart;
    if let Some(m) = &answer.interactions {
        let at = page_row.saturating_sub(1);
        chart.bars = vec![
            m.recorded
                .list
                .iter()
                .map(|i| {
                    [
                        i.start_ms,
                        i.input_delay_ms,
                        i.processing_ms,
                        i.presentation_ms,
                    ]
                })
                .collect(),
            m.recorded
                .list
                .iter()
                .zip(&m.modelled)
                .filter_map(|(i, x)| {
                    let s = x.sliced.get(at)?;
                    Some([
                        i.start_ms,
                        s.input_delay_ms,
                        i.processing_ms,
                        s.presentation_ms,
                    ])
                })
                .collect(),
        ];
        chart.bar_names = Filled::each(|lang| {
            vec![
                BARS_RECORDED.get(lang).to_string(),
                SLICED_ROW.fill(lang, &[&q(exp.quantum)]),
            ]
        });
        let last_bar = chart
            .bars
            .iter()
            .flatten()
            .map(|b| b[0] + b[1] + b[2] + b[3])
            .fold(r.window.end, f64::max);
        chart.span = (r.window.start, last_bar);
        if let Some(c) = interactions {
            chart.tasks = tasks
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let handler = c.handler.get(i).copied().unwrap_or(false);
                    [t.start, t.duration, if handler { 1.0 } else { 0.0 }]
                })
                .collect();
        }
    }
    let span = text::span_word(r);
    to_js(&Section {
        interactions: part,
        about: Filled::each(|lang| text::about(&answer, lang)),
        rows: vec![table_row(rec), table_row(sliced)],
        tbt: Filled::each(|lang| {
            TBT_BEFORE_AFTER.fill(
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
            INP_HEADLINE.fill(lang, &[&ms(rec), &q(quantum), &ms(sliced)])
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
        bars_caption: Filled::each(|lang| BARS_CAPTION.fill(lang, &[&q(quantum)])),
        tasks_caption: Filled::each(|lang| TASKS_CAPTION.get(lang).to_string()),
    }
}

/// The section's charts on the main thread (from the worker's module, which
/// the page loads when the first section arrives).
#[cfg(not(feature = "page"))]
#[wasm_bindgen]
pub struct RespView {
    data: ChartData,
}

#[cfg(not(feature = "page"))]
#[wasm_bindgen]
impl RespView {
    /// Takes the result's `responsiveness` object.
    #[wasm_bindgen(constructor)]
    pub fn new(section: JsValue) -> Result<RespView, JsError> {
        let chart = js_sys::Reflect::get(&section, &JsValue::from_str("chart"))
            .map_err(|_| JsError::new("the section has no chart"))?;
        let data: ChartData = serde_wasm_bindgen::from_value(chart)
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
        let lang = Lang::from_tag(lang);
        let d = &self.data;
        let names = d.cdf_names.get(lang);
        let points: Vec<Vec<(f64, f64)>> = d
            .cdf_x
            .iter()
            .zip(&d.cdf_y)
            .map(|(x, y)| x.iter().copied().zip(y.iter().copied()).collect())
            .collect();
        let curves: Vec<Curve> = points
            .iter()
            .enumerate()
            .map(|(i, p)| Curve {
                name: names.get(i).map_or("", String::as_str),
                points: p,
                recorded: i == 0,
            })
            .collect();
        let mut backend = Canvas::clear(canvas)?;
        let mut pen = Pen::new(&mut backend, dpr, Theme::dark(dark), lang);
        let size = pen.size();
        delay::draw(&mut pen, size, &curves, CDF_X.get(lang), CDF_Y.get(lang)).map_err(err)?;
        Ok(())
    }

    /// Whether there are interaction bars to draw.
    #[wasm_bindgen(js_name = hasBars)]
    pub fn has_bars(&self) -> bool {
        self.data.bars.first().is_some_and(|b| !b.is_empty())
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
        let lang = Lang::from_tag(lang);
        let d = &self.data;
        let names = d.bar_names.get(lang);
        let bars: Vec<Vec<Bar>> = d
            .bars
            .iter()
            .map(|lane| {
                lane.iter()
                    .map(|b| Bar {
                        start: b[0],
                        phases: [b[1], b[2], b[3]],
                    })
                    .collect()
            })
            .collect();
        let lanes: Vec<Lane> = bars
            .iter()
            .enumerate()
            .map(|(i, b)| Lane {
                name: names.get(i).map_or("", String::as_str),
                bars: b,
            })
            .collect();
        let phases = BARS_PHASES.map(|t| t.get(lang));
        let mut backend = Canvas::clear(canvas)?;
        let mut pen = Pen::new(&mut backend, dpr, Theme::dark(dark), lang);
        let size = pen.size();
        let plot = bars_chart::draw(&mut pen, size, &lanes, phases, d.span, BARS_X.get(lang))
            .map_err(err)?;
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
        let lang = Lang::from_tag(lang);
        let d = &self.data;
        let tasks: Vec<TaskBox> = d
            .tasks
            .iter()
            .map(|t| TaskBox {
                start: t[0],
                len: t[1],
                handler: t[2] != 0.0,
            })
            .collect();
        let words = TASKS_WORDS.map(|t| t.get(lang));
        let mut backend = Canvas::clear(canvas)?;
        let mut pen = Pen::new(&mut backend, dpr, Theme::dark(dark), lang);
        let size = pen.size();
        let (plot, handlers) =
            bars_chart::draw_tasks(&mut pen, size, &tasks, words, d.span, BARS_X.get(lang))
                .map_err(err)?;
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
        let lang = Lang::from_tag(lang);
        let d = &self.data;
        let same = d.knee.is_some() && d.knee == d.favoured;
        let chart = Tradeoff {
            quanta: d.quanta.clone(),
            p98: d.p98.clone(),
            cost: d.cost.clone(),
            recorded_p98: d.recorded_p98,
            target_ms: P98_TARGET_MS,
            knee: d.knee,
            favoured: if same { None } else { d.favoured },
            page_q: d.page_q,
            x_label: TRADE_X.get(lang).to_string(),
            p98_label: TRADE_P98.get(lang).to_string(),
            cost_label: TRADE_COST.get(lang).to_string(),
            recorded_label: TRADE_RECORDED.fill(
                lang,
                &[d.recorded_name.get(lang), &format!("{:.1}", d.recorded_p98)],
            ),
            target_label: TRADE_TARGET.fill(lang, &[&q(P98_TARGET_MS)]),
            knee_label: if same { KNEE_AND_FAVOURED } else { KNEE }
                .get(lang)
                .to_string(),
            favoured_label: FAVOURED.get(lang).to_string(),
        };
        let mut backend = Canvas::clear(canvas)?;
        let mut pen = Pen::new(&mut backend, dpr, Theme::dark(dark), lang);
        let size = pen.size();
        tradeoff::draw(&mut pen, size, &chart).map_err(err)?;
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
    const NO_RUN: Text = Text::new(
        "Run for real first: its measured gap between slices becomes the cost per yield.",
        "请先进行真机运行：它测得的切片间隔会成为每次让出的开销。",
    );
    const RAF: Text = Text::new(
        "Run for real used requestAnimationFrame: its gap is mostly the wait for the next frame, which the model adds itself, plus rendering, which it leaves out; pick another primitive in Run for real.",
        "真机运行用的是 requestAnimationFrame：它的间隔主要是等待下一帧（模型自己会加上）和渲染（模型不计），请在真机运行中换一种让出方式。",
    );
    const UNTIMED: Text = Text::new(
        "Run for real could not time a yield on this clock (see its yield cost line); type a cost instead.",
        "真机运行在这个时钟上测不出一次让出的耗时（见其让出开销一行），请直接输入开销。",
    );
    let message = |t: Text| to_js(&serde_json::json!({ "message": { "en": t.en, "zh": t.zh } }));
    let Some(kind) = yield_used.and_then(|u| YieldKind::parse("yield", &u).ok()) else {
        return message(NO_RUN);
    };
    if kind == YieldKind::Raf {
        return message(RAF);
    }
    match yield_ms.and_then(|ms| yielding::measured_cost(kind, ms)) {
        Some(c) => to_js(&serde_json::json!({
            "yield": kind.name(),
            "cost": crate::error::fmt_number((c * 1e4).round() / 1e4),
        })),
        None => message(UNTIMED),
    }
}
