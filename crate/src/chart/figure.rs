//! Figures: the charts of one experiment or scenario run stacked into one
//! SVG document, each drawn by the same function that draws it on the page;
//! a trace's or a timed task list's Responsiveness answer ([`answer`]) first
//! when the page shows one.

use plotters_backend::text_anchor::{HPos, VPos};

use super::answer::{self as resp, AnswerCharts};
use super::lanes::{self, Chart, Index, Lanes, Window};
use super::pen::{anchor, DrawResult, Pen};
use super::svg::Svg;
use super::theme::{Palette, Theme};
use super::words;
use super::{cdf, gantt, histogram, priority, table, timeline};
use crate::error::ParamError;
use crate::experiment::reading::policy_title;
use crate::experiment::recorded::RECORDED;
use crate::experiment::summary::Summary;
use crate::experiment::{Experiment, RunOutcome};
use crate::scenario::{RunView, ScenarioKind, ScenarioResult};
use crate::text::{Filled, Lang, Text};

/// Which part of a result a figure shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    Table,
    Gantt,
    Cdf,
    Histogram,
    States,
    Priority,
    /// The Responsiveness answer's trade-off over the quantum.
    Tradeoff,
    /// A trace's interactions as three-phase bars.
    Interactions,
    All,
}

impl Figure {
    /// What an experiment's figure can show.
    pub const STUDY: [Figure; 5] = [
        Figure::Table,
        Figure::Gantt,
        Figure::Cdf,
        Figure::Histogram,
        Figure::All,
    ];
    /// What a scenario's figure can show (`table`: its tables).
    pub const SCENARIO: [Figure; 5] = [
        Figure::Table,
        Figure::Gantt,
        Figure::States,
        Figure::Priority,
        Figure::All,
    ];

    /// What a Responsiveness answer's figure can show (`table`: the
    /// section's table, `cdf`: its input-delay CDF).
    pub const ANSWER: [Figure; 5] = [
        Figure::Table,
        Figure::Cdf,
        Figure::Tradeoff,
        Figure::Interactions,
        Figure::All,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Figure::Table => "table",
            Figure::Gantt => "gantt",
            Figure::Cdf => "cdf",
            Figure::Histogram => "histogram",
            Figure::States => "states",
            Figure::Priority => "priority",
            Figure::Tradeoff => "tradeoff",
            Figure::Interactions => "interactions",
            Figure::All => "all",
        }
    }

    /// One of `allowed`, by name.
    pub fn parse(field: &str, text: &str, allowed: &[Figure]) -> Result<Figure, ParamError> {
        let t = text.trim().to_ascii_lowercase();
        allowed
            .iter()
            .copied()
            .find(|f| f.name() == t)
            .ok_or_else(|| {
                let names: Vec<&str> = allowed.iter().map(|f| f.name()).collect();
                // The CLI's refusal lists them as its help does.
                let allowed = Filled {
                    en: names.join(", "),
                    zh: names.join("、"),
                };
                ParamError::new(field, text, allowed)
            })
    }

    fn shows(self, part: Figure) -> bool {
        self == Figure::All || self == part
    }
}

/// How a figure is drawn.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub figure: Figure,
    pub theme: Theme,
    pub lang: Lang,
    /// CSS px (the page's content width by default).
    pub width: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            figure: Figure::All,
            theme: Theme::Light,
            lang: Lang::En,
            width: DEFAULT_WIDTH,
        }
    }
}

/// The page's content width.
pub(crate) const DEFAULT_WIDTH: f64 = 960.0;
const MARGIN: f64 = 16.0;
const HEADING_H: f64 = 26.0;
const PLOT_H: f64 = 280.0;
/// The interactions' bars: two lanes.
const BARS_H: f64 = 200.0;
const SECTION_GAP: f64 = 12.0;

/// One part of a figure: its heading and height, and where it goes;
/// `answer`: one of the Responsiveness answer's parts.
struct FigurePart {
    heading: String,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    what: Figure,
    answer: bool,
}

/// A part to place: heading, height, what, whether the answer's.
type Planned = (String, f64, Figure, bool);

/// Whether part `b` goes beside part `a` when there is room: the study's
/// CDF and histogram, the answer's CDF and trade-off (as the page has them).
fn pairs(a: &Planned, b: &Planned) -> bool {
    a.3 == b.3
        && a.2 == Figure::Cdf
        && matches!(
            (b.2, b.3),
            (Figure::Histogram, false) | (Figure::Tradeoff, true)
        )
}

/// Places `parts` top to bottom; pairs (see [`pairs`]) side by side when
/// there is room.
fn place(parts: Vec<Planned>, width: f64) -> (Vec<FigurePart>, f64) {
    let inner = width - 2.0 * MARGIN;
    let room = inner >= 700.0;
    let half = (inner - MARGIN) / 2.0;
    let mut out = Vec::new();
    let mut y = MARGIN;
    let mut parts = parts.into_iter().peekable();
    while let Some(a) = parts.next() {
        let beside = match parts.peek() {
            Some(b) if room && pairs(&a, b) => parts.next(),
            _ => None,
        };
        let mut h = a.1;
        let w = if beside.is_some() { half } else { inner };
        out.push(FigurePart {
            heading: a.0,
            x: MARGIN,
            y,
            w,
            h: a.1,
            what: a.2,
            answer: a.3,
        });
        if let Some(b) = beside {
            h = h.max(b.1);
            out.push(FigurePart {
                heading: b.0,
                x: MARGIN + half + MARGIN,
                y,
                w: half,
                h: b.1,
                what: b.2,
                answer: b.3,
            });
        }
        y += HEADING_H + h + SECTION_GAP;
    }
    (out, y - SECTION_GAP + MARGIN)
}

fn heading(pen: &mut Pen<Svg>, part: &FigurePart) {
    let fg = pen.theme.fg;
    pen.origin = (part.x, part.y);
    let _ = pen.bold(
        &part.heading,
        0.0,
        9.0,
        14.0,
        fg,
        anchor(HPos::Left, VPos::Center),
    );
    pen.origin = (part.x, part.y + HEADING_H);
}

/// An experiment's result, as a figure shows it.
pub struct Study<'a> {
    pub exp: &'a Experiment,
    pub outcome: &'a RunOutcome,
    /// A trace's tasks as they ran (the table's first row).
    pub recorded: Option<&'a Summary>,
    /// Tasks drawn from the mix (class names are ranges in ms).
    pub generated: bool,
}

/// The SVG figure of an experiment's result. The Gantt chart needs the
/// schedules' segments (`Experiment::run` with `record_segments`); without
/// them it says the run was too large to draw.
pub fn study(s: &Study, o: &Options) -> String {
    compose(None, Some(s), o)
}

/// The SVG figure of a Responsiveness answer (the section's table, its
/// input-delay CDF, the trade-off over the quantum and, when the trace has
/// interactions, their three-phase bars), above the study's figure of the
/// same tasks when `study` is given (as the page shows them). `<title>` and
/// `<desc>` carry the answer's headline numbers.
pub fn answer(a: &AnswerCharts, study: Option<&Study>, o: &Options) -> String {
    compose(Some(a), study, o)
}

/// The study's charts, ready to draw.
struct StudyCharts<'a> {
    s: &'a Study<'a>,
    tbl: table::Table,
    lanes: Lanes,
    lane_layout: lanes::Layout,
}

fn compose(a: Option<&AnswerCharts>, s: Option<&Study>, o: &Options) -> String {
    let lang = o.lang;
    let title = |t: Text| t.get(lang).to_string();
    let mut parts: Vec<Planned> = Vec::new();
    // A table wider than the figure turns on its side where that fits.
    let answer_table = a.map(|a| table::fit(a.table(lang), o.width - 2.0 * MARGIN));
    if let (Some(a), Some(tbl)) = (a, &answer_table) {
        if o.figure.shows(Figure::Table) {
            parts.push((
                title(words::RESP_TABLE),
                table::size(tbl).1,
                Figure::Table,
                true,
            ));
        }
        if o.figure.shows(Figure::Cdf) {
            parts.push((title(words::RESP_CDF), PLOT_H, Figure::Cdf, true));
        }
        if o.figure.shows(Figure::Tradeoff) {
            parts.push((title(words::RESP_TRADEOFF), PLOT_H, Figure::Tradeoff, true));
        }
        if o.figure.shows(Figure::Interactions) && a.has_bars() {
            parts.push((title(words::RESP_BARS), BARS_H, Figure::Interactions, true));
        }
    }
    // A table still wider than the page widens the figure rather than run
    // off its edge.
    let width = answer_table
        .as_ref()
        .map_or(o.width, |t| o.width.max(table::size(t).0 + 2.0 * MARGIN));
    let inner = width - 2.0 * MARGIN;
    let study = s.map(|s| {
        let drawn = s
            .outcome
            .runs
            .iter()
            .any(|r| !r.schedule.segments.is_empty());
        let lanes = gantt::study(s.exp, s.outcome, drawn, s.generated);
        let lane_layout = lanes::layout(&lanes.meta, inner, lang);
        StudyCharts {
            s,
            tbl: table::fit(table::study(s.exp, s.outcome, s.recorded, lang), inner),
            lanes,
            lane_layout,
        }
    });
    if let Some(c) = &study {
        if o.figure.shows(Figure::Table) {
            parts.push((
                title(words::TABLE_TITLE),
                table::size(&c.tbl).1,
                Figure::Table,
                false,
            ));
        }
        if o.figure.shows(Figure::Gantt) {
            parts.push((
                title(words::SCHEDULE),
                c.lane_layout.height,
                Figure::Gantt,
                false,
            ));
        }
        if o.figure.shows(Figure::Cdf) {
            parts.push((title(words::CDF_TITLE), PLOT_H, Figure::Cdf, false));
        }
        if o.figure.shows(Figure::Histogram) {
            parts.push((title(words::HIST_TITLE), PLOT_H, Figure::Histogram, false));
        }
    }
    let (parts, height) = place(parts, width);
    let theme = Palette::new(o.theme);
    let mut svg = Svg::new(width.round() as u32, height.ceil() as u32, Some(theme.bg));
    let mut pen = Pen::new(&mut svg, 1.0, theme, lang);
    for part in &parts {
        heading(&mut pen, part);
        let size = (part.w, part.h);
        // Drawing into a string cannot fail.
        let _ = match (part.answer, a, &study) {
            (true, Some(a), _) => match part.what {
                Figure::Table => answer_table
                    .as_ref()
                    .map_or(Ok(()), |t| table::draw(&mut pen, t)),
                Figure::Cdf => resp::draw_cdf(&mut pen, size, a).map(|_| ()),
                Figure::Tradeoff => resp::draw_tradeoff(&mut pen, size, a).map(|_| ()),
                _ => resp::draw_bars(&mut pen, size, a).map(|_| ()),
            },
            (false, _, Some(c)) => draw_study_part(&mut pen, part, c),
            _ => Ok(()),
        };
    }
    let spots = std::mem::take(&mut pen.spots);
    let (title, desc) = match (a, s) {
        (Some(a), None) => (a.title.get(lang).clone(), a.desc.get(lang).clone()),
        (Some(a), Some(s)) => {
            let (st, sd) = study_words(s, lang);
            let rest = [a.desc.get(lang).clone(), format!("{st}: {sd}")];
            (a.title.get(lang).clone(), lang.join(&rest))
        }
        (None, Some(s)) => study_words(s, lang),
        (None, None) => (String::new(), String::new()),
    };
    svg.finish_described(&title, &desc, &spots)
}

fn draw_study_part(pen: &mut Pen<Svg>, part: &FigurePart, c: &StudyCharts) -> DrawResult<(), Svg> {
    let s = c.s;
    let lang = pen.lang;
    match part.what {
        Figure::Table => table::draw(pen, &c.tbl),
        Figure::Gantt => {
            let index = Index::build(&c.lanes);
            let chart = Chart {
                lanes: &c.lanes,
                index: &index,
                window: Window::new(c.lanes.meta.horizon),
                ready: true,
                highlight: None,
            };
            lanes::draw(pen, &chart, &c.lane_layout)
        }
        Figure::Cdf => cdf::draw_study(pen, (part.w, part.h), s.outcome).map(|_| ()),
        Figure::Histogram => {
            let w = &s.outcome.workload;
            let bins = histogram::bins(&w.work, &w.class, w.class_labels.len());
            let names: Vec<String> = gantt::class_names(w, s.generated)
                .into_iter()
                .map(|n| n.get(lang).to_string())
                .collect();
            histogram::draw(pen, (part.w, part.h), &bins, &names).map(|_| ())
        }
        _ => Ok(()),
    }
}

/// A study figure's `<title>` (the tasks and the policies) and `<desc>`
/// (each row's headline figures, then the reading), in `lang`.
fn study_words(s: &Study, lang: Lang) -> (String, String) {
    const TITLE: Text = Text::new("tailslice: {} tasks, {}", "tailslice：{} 个任务，{}");
    const COMMA: Text = Text::new(", ", "、");
    const ROW: Text = Text::new(
        "{}: mean {} ms, p50 {} ms, p95 {} ms, p99 {} ms, max {} ms; {} of {} within {} ms.",
        "{}：平均 {} ms，p50 {} ms，p95 {} ms，p99 {} ms，最大 {} ms；{7} 个中 {6} 个在 {8} ms 内完成。",
    );
    let n = s.outcome.workload.len().to_string();
    let policies: Vec<String> = s
        .outcome
        .runs
        .iter()
        .map(|r| policy_title(r.policy.name(), lang))
        .collect();
    let title = TITLE.fill(lang, &[&n, &policies.join(COMMA.get(lang))]);
    let one = |v: f64| format!("{v:.1}");
    let within = crate::error::fmt_number(s.exp.within);
    let rows = s
        .recorded
        .map(|r| (policy_title(RECORDED, lang), r))
        .into_iter()
        .chain(
            s.outcome
                .runs
                .iter()
                .map(|r| (policy_title(r.policy.name(), lang), &r.summary)),
        );
    let mut parts: Vec<String> = rows
        .map(|(name, m)| {
            ROW.fill(
                lang,
                &[
                    &name,
                    &one(m.mean),
                    &one(m.p50),
                    &one(m.p95),
                    &one(m.p99),
                    &one(m.max),
                    &m.done_within.to_string(),
                    &n,
                    &within,
                ],
            )
        })
        .collect();
    let reading = crate::experiment::reading::explain(s.exp, s.outcome, lang);
    if !reading.is_empty() {
        parts.push(reading);
    }
    (title, lang.join(&parts))
}

/// The SVG figure of run `run` of a scenario: its tables, its cores, its
/// key threads' states and `sched_pri` over time. Fails when it has
/// nothing to draw for `o.figure` (no tables, or no timeline kept).
pub fn scenario(
    scenario: ScenarioKind,
    result: &ScenarioResult,
    runs: &[RunView],
    run: usize,
    o: &Options,
) -> Result<String, String> {
    let lang = o.lang;
    let tables: Vec<(String, table::Table)> = if o.figure.shows(Figure::Table) {
        result
            .outcome()
            .tables()
            .iter()
            .map(|t| (t.title.get(lang).to_string(), table::of_page(t, lang)))
            .collect()
    } else {
        Vec::new()
    };
    // A table wider than the page widens the figure (it scales down where
    // it is shown) rather than run off its edge.
    let widest = tables
        .iter()
        .map(|(_, t)| table::size(t).0)
        .fold(0.0, f64::max);
    let width = o.width.max(widest + 2.0 * MARGIN);
    let inner = width - 2.0 * MARGIN;
    let run = run.min(runs.len().saturating_sub(1));
    let view = runs.get(run);
    let pri = priority::of_run(result, runs, run);
    let cores: Option<Lanes> = view.map(gantt::scenario_cores);
    let states: Option<Lanes> = view.map(|v| timeline::states(scenario, v));
    let mut parts = Vec::new();
    for (title, t) in &tables {
        parts.push((title.clone(), table::size(t).1, Figure::Table, false));
    }
    for (what, lanes, title) in [
        (Figure::Gantt, &cores, words::SCENARIO_GANTT),
        (Figure::States, &states, words::SCENARIO_STATES),
    ] {
        if o.figure.shows(what) {
            if let Some(l) = lanes {
                parts.push((
                    title.get(lang).to_string(),
                    lanes::layout(&l.meta, inner, lang).height,
                    what,
                    false,
                ));
            }
        }
    }
    if o.figure.shows(Figure::Priority) && !pri.names.is_empty() {
        parts.push((
            words::SCENARIO_PRI.get(lang).to_string(),
            240.0,
            Figure::Priority,
            false,
        ));
    }
    if parts.is_empty() {
        return Err(format!(
            "scenario {} recorded nothing to draw for figure '{}'",
            scenario.name(),
            o.figure.name()
        ));
    }
    let (parts, height) = place(parts, width);
    let theme = Palette::new(o.theme);
    let mut svg = Svg::new(width.round() as u32, height.ceil() as u32, Some(theme.bg));
    let mut pen = Pen::new(&mut svg, 1.0, theme, lang);
    let mut next_table = tables.iter();
    for part in &parts {
        heading(&mut pen, part);
        let lanes = match part.what {
            Figure::Gantt => cores.as_ref(),
            Figure::States => states.as_ref(),
            _ => None,
        };
        // Drawing into a string cannot fail.
        let _ = match (part.what, lanes) {
            (Figure::Table, _) => match next_table.next() {
                Some((_, t)) => table::draw(&mut pen, t),
                None => Ok(()),
            },
            (_, Some(l)) => {
                let index = Index::build(l);
                let chart = Chart {
                    lanes: l,
                    index: &index,
                    window: Window::new(l.meta.horizon),
                    ready: true,
                    highlight: None,
                };
                lanes::draw(&mut pen, &chart, &lanes::layout(&l.meta, inner, lang))
            }
            _ => priority::draw_run(&mut pen, (part.w, part.h), &pri),
        };
    }
    let spots = std::mem::take(&mut pen.spots);
    let label = view.map_or(String::new(), |v| format!(" ({})", v.label.get(lang)));
    Ok(svg.finish(&format!("tailslice: {}{label}", scenario.name()), &spots))
}
