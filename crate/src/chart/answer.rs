//! The Responsiveness section's charts as data, built once from an
//! [`Answer`] in both languages, and the three drawing functions the page's
//! canvases and the figure (`chart::figure::answer`, `tailslice
//! responsiveness --svg`) share: the input-delay CDF ([`draw_cdf`]), the
//! trade-off over the quantum ([`draw_tradeoff`]) and the interactions'
//! three-phase bars ([`draw_bars`]). [`AnswerCharts`] also carries the
//! section's table as the page shows it (recorded, then sliced at the
//! page's quantum) and the figure's headline (`<title>`, `<desc>`), so a
//! figure drawn from it says what the page says.

use plotters_backend::DrawingBackend;
use serde::{Deserialize, Serialize};

use super::delay::{self, Curve};
use super::frame::Plot;
use super::interactions::{self as bars_chart, Bar, Lane, TaskBox};
use super::pen::{DrawResult, Pen};
use super::table;
use super::tradeoff::{self, Tradeoff};
use crate::responsiveness::reading::P98_TARGET_MS;
use crate::responsiveness::text::{column, row_name, PAGE_COLUMNS};
use crate::responsiveness::{Answer, PlanRow};
use crate::text::{Filled, Lang, Text};

/// A sliced row's name.
pub(crate) const SLICED_ROW: Text = Text::new("sliced, q = {} ms", "切分，q = {} ms");
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
const BARS_X: Text = Text::new("time in the trace (ms)", "trace 中的时间（ms）");
/// The interactions' lane as recorded.
pub(crate) const BARS_RECORDED: Text = Text::new("as recorded", "按记录");
const BARS_PHASES: [Text; 3] = [
    Text::new("input delay", "输入延迟"),
    Text::new("processing", "处理"),
    Text::new("presentation delay", "呈现延迟"),
];
/// The tasks' Gantt: its lane, then its legend (task, handler).
const TASKS_WORDS: [Text; 3] = [
    Text::new("main thread, as recorded", "主线程，按记录"),
    Text::new("task", "任务"),
    Text::new("an interaction's own handler", "交互自身的处理程序"),
];
const KNEE: Text = Text::new("knee", "拐点");
const FAVOURED: Text = Text::new("favoured", "推荐");
const KNEE_AND_FAVOURED: Text = Text::new("knee, favoured", "拐点，推荐");

/// The table's headings in a figure, where no column groups stand above
/// them: each names its group.
const FIGURE_HEADS: [(&str, Text); 9] = [
    ("mean", Text::new("delay mean (ms)", "平均延迟（ms）")),
    ("p98", Text::new("delay p98 (ms)", "p98 延迟（ms）")),
    ("max", Text::new("delay max (ms)", "最大延迟（ms）")),
    ("over50", Text::new("> 50 ms (%)", "超过 50 ms（%）")),
    ("tbt", Text::new("TBT (ms)", "TBT（ms）")),
    ("long", Text::new("long tasks", "长任务")),
    (
        "later_mean",
        Text::new("later, mean (ms)", "平均晚完成（ms）"),
    ),
    (
        "later_max",
        Text::new("later, max (ms)", "最多晚完成（ms）"),
    ),
    ("yields", Text::new("yields", "让出")),
];
const ROW_HEAD: Text = Text::new("schedule", "调度");

/// The figure's `<title>` and `<desc>` lines.
const TITLE: Text = Text::new(
    "tailslice: {} tasks, p98 input delay {} ms {} → {} ms sliced at q = {} ms",
    "tailslice：{0} 个任务，p98 输入延迟 {1} ms（{2}）→ 按 q = {4} ms 切分后 {3} ms",
);
const DESC_P98: Text = Text::new(
    "p98 input delay: {} ms {} → {} ms sliced at q = {} ms.",
    "p98 输入延迟：{0} ms（{1}）→ 按 q = {3} ms 切分后 {2} ms。",
);
const DESC_TBT: Text = Text::new(
    "Total blocking time: {} ms {} → {} ms sliced.",
    "总阻塞时间：{} ms（{}）→ 切分后 {} ms。",
);
const DESC_INP: Text = Text::new(
    "INP: {} ms as recorded → {} ms sliced at q = {} ms.",
    "INP：按记录 {0} ms → 按 q = {2} ms 切分后 {1} ms。",
);

/// What the section's charts and its figure draw, in both languages (the
/// page's `responsiveness.chart` object; fields may be added, none renamed).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct AnswerCharts {
    /// Recorded first, then sliced at the page's quantum.
    pub cdf_names: Filled<Vec<String>>,
    pub cdf_x: Vec<Vec<f64>>,
    pub cdf_y: Vec<Vec<f64>>,
    pub quanta: Vec<f64>,
    pub p98: Vec<f64>,
    pub cost: Vec<f64>,
    pub recorded_p98: f64,
    pub knee: Option<usize>,
    pub favoured: Option<usize>,
    pub page_q: f64,
    pub recorded_name: Filled<String>,
    /// The interactions' bars: `[start, input delay, processing,
    /// presentation]`, recorded and sliced at the page's quantum.
    pub bars: Vec<Vec<[f64; 4]>>,
    pub bar_names: Filled<Vec<String>>,
    /// The tasks' timeline, ms, through the end of the last bar: the bars
    /// and the tasks' Gantt share it.
    pub span: (f64, f64),
    /// The recorded tasks for their Gantt under the bars: `[start, length,
    /// 1 if an interaction's own handler else 0]`, ms (filled by whoever
    /// holds the tasks).
    #[serde(default)]
    pub tasks: Vec<[f64; 3]>,
    /// The table as the page shows it: headings, then one row per
    /// schedule (its name and its cells).
    #[serde(default)]
    pub table_heads: Filled<Vec<String>>,
    #[serde(default)]
    pub table_rows: Vec<(Filled<String>, Vec<String>)>,
    /// The figure's `<title>` and `<desc>`: the headline numbers.
    #[serde(default)]
    pub title: Filled<String>,
    #[serde(default)]
    pub desc: Filled<String>,
}

fn q(v: f64) -> String {
    crate::error::fmt_number(v)
}

fn one(v: f64) -> String {
    format!("{v:.1}")
}

impl AnswerCharts {
    /// The charts of `answer` with `page_q` (one of its quanta) the
    /// quantum the page shows.
    pub fn new(answer: &Answer, page_q: f64) -> AnswerCharts {
        let r = &answer.report;
        let source = answer.source;
        let rec = r.recorded();
        let sliced = r.at(page_q).unwrap_or(rec);
        let sliced_rows = &r.rows[1..];
        let page_row = r
            .rows
            .iter()
            .position(|row| row.quantum_ms == Some(page_q))
            .unwrap_or(0);
        let mut out = AnswerCharts {
            cdf_names: Filled::each(|lang| {
                vec![
                    row_name(rec, source, lang),
                    SLICED_ROW.fill(lang, &[&q(page_q)]),
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
            knee: answer.knee.ok().and_then(|k| k.row.checked_sub(1)),
            favoured: answer.favoured.and_then(|f| f.row.checked_sub(1)),
            page_q,
            recorded_name: Filled::each(|lang| row_name(rec, source, lang)),
            table_heads: Filled::each(|lang| {
                let mut h = vec![ROW_HEAD.get(lang).to_string()];
                h.extend(PAGE_COLUMNS.iter().map(|&k| head(k, lang)));
                h
            }),
            table_rows: [rec, sliced]
                .iter()
                .map(|row| {
                    let name = Filled::each(|lang| match row.quantum_ms {
                        None => row_name(row, source, lang),
                        Some(v) => SLICED_ROW.fill(lang, &[&q(v)]),
                    });
                    (name, cells(row))
                })
                .collect(),
            ..AnswerCharts::default()
        };
        if let Some(m) = &answer.interactions {
            let at = page_row.saturating_sub(1);
            out.bars = vec![
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
            out.bar_names = Filled::each(|lang| {
                vec![
                    BARS_RECORDED.get(lang).to_string(),
                    SLICED_ROW.fill(lang, &[&q(page_q)]),
                ]
            });
            let last_bar = out
                .bars
                .iter()
                .flatten()
                .map(|b| b[0] + b[1] + b[2] + b[3])
                .fold(r.window.end, f64::max);
            out.span = (r.window.start, last_bar);
        }
        let inp = answer.inp(0).zip(answer.inp(page_row));
        out.title = Filled::each(|lang| {
            TITLE.fill(
                lang,
                &[
                    &r.tasks.to_string(),
                    &one(rec.input_delay_ms.p98),
                    &row_name(rec, source, lang),
                    &one(sliced.input_delay_ms.p98),
                    &q(page_q),
                ],
            )
        });
        out.desc = Filled::each(|lang| {
            let name = row_name(rec, source, lang);
            let (p98_rec, p98_sliced) =
                (one(rec.input_delay_ms.p98), one(sliced.input_delay_ms.p98));
            let mut parts = vec![DESC_P98.fill(lang, &[&p98_rec, &name, &p98_sliced, &q(page_q)])];
            parts.push(DESC_TBT.fill(lang, &[&one(rec.tbt_ms), &name, &one(sliced.tbt_ms)]));
            if let Some((a, b)) = inp {
                parts.push(DESC_INP.fill(lang, &[&one(a), &one(b), &q(page_q)]));
            }
            parts.extend(answer.reading(lang));
            lang.join(&parts)
        });
        out
    }

    /// Whether there are interaction bars to draw.
    pub fn has_bars(&self) -> bool {
        self.bars.first().is_some_and(|b| !b.is_empty())
    }

    /// The table in `lang`, for [`table::draw`].
    pub(crate) fn table(&self, lang: Lang) -> table::Table {
        table::Table {
            headers: self.table_heads.get(lang).clone(),
            rows: self
                .table_rows
                .iter()
                .enumerate()
                .map(|(i, (name, cells))| table::TableRow {
                    name: name.get(lang).clone(),
                    color: (i > 0).then(|| super::theme::policy(i - 1)),
                    cells: cells.clone(),
                })
                .collect(),
        }
    }
}

/// A page column's heading in a figure.
fn head(key: &str, lang: Lang) -> String {
    FIGURE_HEADS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, t)| *t)
        .or_else(|| column(key).map(|c| c.head))
        .map_or(String::new(), |t| t.get(lang).to_string())
}

fn cells(row: &PlanRow) -> Vec<String> {
    PAGE_COLUMNS
        .iter()
        .filter_map(|&k| column(k))
        .map(|c| c.cell(row))
        .collect()
}

/// The input-delay CDF, recorded and sliced, in the pen's language.
pub(crate) fn draw_cdf<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    d: &AnswerCharts,
) -> DrawResult<Plot, B> {
    let lang = pen.lang;
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
    delay::draw(pen, size, &curves, CDF_X.get(lang), CDF_Y.get(lang))
}

/// The interactions' three-phase bars, recorded and sliced, in the pen's
/// language.
pub(crate) fn draw_bars<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    d: &AnswerCharts,
) -> DrawResult<Plot, B> {
    let lang = pen.lang;
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
    bars_chart::draw(pen, size, &lanes, phases, d.span, BARS_X.get(lang))
}

/// The recorded tasks as a Gantt on the bars' timeline, an interaction's
/// own handlers marked, in the pen's language: the plot and how many
/// handler tasks it drew.
pub(crate) fn draw_tasks<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    d: &AnswerCharts,
) -> DrawResult<(Plot, usize), B> {
    let lang = pen.lang;
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
    bars_chart::draw_tasks(pen, size, &tasks, words, d.span, BARS_X.get(lang))
}

/// The trade-off over the quantum, in the pen's language.
pub(crate) fn draw_tradeoff<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    d: &AnswerCharts,
) -> DrawResult<Plot, B> {
    let lang = pen.lang;
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
        recorded_label: TRADE_RECORDED
            .fill(lang, &[d.recorded_name.get(lang), &one(d.recorded_p98)]),
        target_label: TRADE_TARGET.fill(lang, &[&q(P98_TARGET_MS)]),
        knee_label: if same { KNEE_AND_FAVOURED } else { KNEE }
            .get(lang)
            .to_string(),
        favoured_label: FAVOURED.get(lang).to_string(),
    };
    tradeoff::draw(pen, size, &chart)
}
