//! The page's sweeps panel: a seed sweep or a quantum sweep run by the jobs
//! worker a chunk at a time (progress and cancel between chunks), and the
//! two charts that show them, drawn with plotters on the main thread.
//!
//! The work is `crate::experiment::sweep`'s, exactly as `tailslice sweep` does it, so
//! the page's figures equal the CLI's for the same settings.

use std::ops::RangeInclusive;

use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use super::palette;
use super::plots::{err, legend, nice_ceil, Canvas, ChartKit, Corner};
use super::query;
use super::result::to_js;
use crate::error::ParamError;
use crate::experiment::metric::Metric;
use crate::experiment::sweep::{self as core, QuantumRun, SeedRun, SweepLimits};
use crate::experiment::{Experiment, Limits};
use crate::stats::change_pct;
use crate::text::Lang;
use crate::workload::task_list;
use crate::workload::Workload;

/// Bins of the seed histogram.
const BINS: usize = 30;

/// The experiment of a (canonical) query and the language its refusals are
/// said in (`lang=` in the query; the page adds it).
fn experiment(query_text: &str) -> Result<(Experiment, Lang), JsError> {
    let (exp, page) = query::parse(query_text, &Limits::WEB);
    let lang = page.lang.and_then(Lang::from_code).unwrap_or_default();
    if let Some(e) = page.errors.first() {
        return Err(JsError::new(e.refusal.get(lang)));
    }
    Ok((exp, lang))
}

/// A refused sweep field, said in `lang` (the page shows it under the field).
fn param(lang: Lang) -> impl Fn(ParamError) -> JsError {
    move |e| JsError::new(&e.message(lang))
}

/// A seed sweep in progress.
#[cfg(not(feature = "page"))]
#[wasm_bindgen]
pub struct SeedSweep {
    exp: Experiment,
    seeds: RangeInclusive<u64>,
    next: u64,
    runs: Vec<SeedRun>,
}

#[cfg(not(feature = "page"))]
#[wasm_bindgen]
impl SeedSweep {
    /// `range` is `A-B` (as `tailslice sweep --seeds`); refused before any
    /// work when too large for a browser tab (`SweepLimits::WEB`).
    #[wasm_bindgen(constructor)]
    pub fn new(query: &str, range: &str) -> Result<SeedSweep, JsError> {
        let (exp, lang) = experiment(query)?;
        let seeds =
            core::parse_seed_range("seeds", range, &SweepLimits::WEB).map_err(param(lang))?;
        core::check_seed_sweep(&exp, "seeds", &seeds, &Limits::WEB, &SweepLimits::WEB)
            .map_err(param(lang))?;
        Ok(SeedSweep {
            next: *seeds.start(),
            runs: Vec::with_capacity((seeds.end() - seeds.start() + 1) as usize),
            exp,
            seeds,
        })
    }

    pub fn total(&self) -> u32 {
        (self.seeds.end() - self.seeds.start() + 1) as u32
    }

    pub fn done(&self) -> u32 {
        self.runs.len() as u32
    }

    /// Runs up to `count` more seeds; `true` while seeds remain.
    pub fn step(&mut self, count: u32) -> Result<bool, JsError> {
        let end = *self.seeds.end();
        if self.next > end {
            return Ok(false);
        }
        let last = self.next.saturating_add(count.max(1) as u64 - 1).min(end);
        let mut runs = core::sweep_seeds_chunk(&self.exp, self.next..=last, &Limits::WEB)
            .map_err(|e| JsError::new(&e.to_string()))?;
        self.runs.append(&mut runs);
        self.next = last + 1;
        Ok(self.next <= end)
    }

    /// `{seeds, from, to, seed, policies, summary, current}`: the
    /// summary of `sweep::summarize_seeds` and the experiment's own seed's
    /// figures (`current.values[policy][metric]`, `current.changes[policy][metric]`).
    pub fn summary(&self) -> Result<JsValue, JsError> {
        let summary = core::summarize_seeds(&self.runs, BINS);
        let own = match self.runs.iter().find(|r| r.seed == self.exp.seed) {
            Some(r) => r.clone(),
            None => core::run_seed(&self.exp, self.exp.seed, &Limits::WEB)
                .map_err(|e| JsError::new(&e.to_string()))?,
        };
        let metric = |r: &crate::experiment::PolicyReport, m: &str| -> f64 {
            Metric::from_name(m).map_or(f64::NAN, |m| m.of(&r.summary))
        };
        let values: Vec<Vec<f64>> = own
            .results
            .iter()
            .map(|r| core::METRICS.iter().map(|m| metric(r, m)).collect())
            .collect();
        let changes: Vec<Vec<Option<f64>>> = own.results[1..]
            .iter()
            .map(|r| {
                core::METRICS
                    .iter()
                    .map(|m| change_pct(metric(&own.results[0], m), metric(r, m)))
                    .collect()
            })
            .collect();
        #[derive(Serialize)]
        struct Out<'a> {
            from: u64,
            to: u64,
            seed: u64,
            metrics: [&'static str; 5],
            summary: &'a core::SeedSummary,
            current_values: Vec<Vec<f64>>,
            current_changes: Vec<Vec<Option<f64>>>,
        }
        Ok(to_js(&Out {
            from: *self.seeds.start(),
            to: *self.seeds.end(),
            seed: self.exp.seed,
            metrics: core::METRICS,
            summary: &summary,
            current_values: values,
            current_changes: changes,
        }))
    }
}

/// Reads the quanta of a sweep (see [`core::parse_quanta_spec`]).
fn parse_quanta(text: &str, steps: u32) -> Result<Vec<f64>, ParamError> {
    core::parse_quanta_spec("quanta", text, steps, &SweepLimits::WEB)
}

/// A quantum sweep in progress (on the experiment's workload, drawn once,
/// or on imported tasks).
#[cfg(not(feature = "page"))]
#[wasm_bindgen]
pub struct QuantumSweep {
    exp: Experiment,
    workload: Workload,
    quanta: Vec<f64>,
    runs: Vec<QuantumRun>,
}

#[cfg(not(feature = "page"))]
#[wasm_bindgen]
impl QuantumSweep {
    #[wasm_bindgen(constructor)]
    pub fn new(
        query: &str,
        range: &str,
        steps: u32,
        tasks: Option<String>,
    ) -> Result<QuantumSweep, JsError> {
        let (mut exp, lang) = experiment(query)?;
        let quanta = parse_quanta(range, steps).map_err(param(lang))?;
        let (workload, known) = match tasks.as_deref() {
            Some(t) => {
                let w = task_list::parse_task_list(t, Limits::WEB.max_tasks)
                    .map_err(|e| JsError::new(&e.to_string()))?;
                exp = exp.for_workload(&w);
                (w, true)
            }
            None => (Workload::default(), false),
        };
        core::check_quantum_sweep(
            &exp,
            "quanta",
            &quanta,
            known.then_some(&workload),
            &Limits::WEB,
            &SweepLimits::WEB,
        )
        .map_err(param(lang))?;
        let workload = if known {
            workload
        } else {
            Workload::generate(&exp.workload_spec())
        };
        Ok(QuantumSweep {
            exp,
            workload,
            runs: Vec::with_capacity(quanta.len()),
            quanta,
        })
    }

    pub fn total(&self) -> u32 {
        self.quanta.len() as u32
    }

    pub fn done(&self) -> u32 {
        self.runs.len() as u32
    }

    /// Runs up to `count` more quanta; `true` while quanta remain.
    pub fn step(&mut self, count: u32) -> Result<bool, JsError> {
        let from = self.runs.len();
        let to = (from + count.max(1) as usize).min(self.quanta.len());
        let mut runs = core::sweep_quanta(
            &self.exp,
            &self.workload,
            &self.quanta[from..to],
            &Limits::WEB,
            &mut |_, _| true,
        )
        .map_err(|e| JsError::new(&e.to_string()))?;
        self.runs.append(&mut runs);
        Ok(self.runs.len() < self.quanta.len())
    }

    /// `{quanta, policies, series, best, switch_cost, quantum}`:
    /// `series[k][metric]` is policy k's figure per quantum (`mean`, `p50`,
    /// `p95`, `p99`); `best` is `sweep::best_quanta`.
    pub fn summary(&self) -> JsValue {
        let policies: Vec<&str> = self.exp.policies.iter().map(|p| p.name()).collect();
        let series: Vec<Series> = (0..policies.len())
            .map(|k| {
                let col = |f: fn(&crate::experiment::summary::Summary) -> f64| -> Vec<f64> {
                    self.runs.iter().map(|r| f(&r.results[k].summary)).collect()
                };
                Series {
                    mean: col(|s| s.mean),
                    p50: col(|s| s.p50),
                    p95: col(|s| s.p95),
                    p99: col(|s| s.p99),
                }
            })
            .collect();
        #[derive(Serialize)]
        struct Out<'a> {
            quanta: Vec<f64>,
            policies: Vec<&'a str>,
            series: Vec<Series>,
            best: Vec<core::BestQuantum>,
            switch_cost: f64,
            quantum: f64,
        }
        to_js(&Out {
            quanta: self.runs.iter().map(|r| r.quantum).collect(),
            policies,
            series,
            best: core::best_quanta(&self.runs),
            switch_cost: self.exp.switch_cost,
            quantum: self.exp.quantum,
        })
    }
}

#[derive(Serialize, Deserialize)]
struct Series {
    mean: Vec<f64>,
    p50: Vec<f64>,
    p95: Vec<f64>,
    p99: Vec<f64>,
}

/// What the seed histogram shows (built by `www/sweep.js` from a summary).
#[derive(Deserialize)]
struct HistSpec {
    edges: Vec<f64>,
    counts: Vec<u32>,
    p5: f64,
    p50: f64,
    p95: f64,
    /// The experiment's own seed's value, if known.
    current: Option<f64>,
    x_desc: String,
    y_desc: String,
    current_label: String,
}

fn spec<T: for<'de> Deserialize<'de>>(v: JsValue) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(v).map_err(|e| JsError::new(&format!("chart spec: {e}")))
}

fn anchored(
    size: f64,
    color: &RGBColor,
    h: plotters::style::text_anchor::HPos,
) -> TextStyle<'static> {
    (FontFamily::SansSerif, size).into_font().color(color).pos(
        plotters::style::text_anchor::Pos::new(h, plotters::style::text_anchor::VPos::Top),
    )
}

/// The histogram of one figure over seeds, p5/p50/p95 and the current seed
/// marked.
#[wasm_bindgen(js_name = drawSeedHistogram)]
pub fn draw_seed_histogram(
    canvas: &HtmlCanvasElement,
    dpr: f64,
    dark: bool,
    spec_js: JsValue,
) -> Result<(), JsError> {
    let s: HistSpec = spec(spec_js)?;
    let kit = ChartKit::begin(canvas, dpr, dark)?;
    let (fg, muted) = (kit.fg, kit.muted);
    let px = |v: f64| kit.px(v);
    let (mut lo, mut hi) = match (s.edges.first(), s.edges.last()) {
        (Some(&a), Some(&b)) => (a, b),
        _ => (0.0, 1.0),
    };
    if let Some(c) = s.current.filter(|c| c.is_finite()) {
        lo = lo.min(c);
        hi = hi.max(c);
    }
    if hi <= lo {
        lo -= 0.5;
        hi += 0.5;
    }
    let pad = (hi - lo) * 0.04;
    let (lo, hi) = (lo - pad, hi + pad);
    let ymax = nice_ceil(s.counts.iter().copied().max().unwrap_or(1).max(1) as f64 * 1.2);
    let root = Canvas::new(canvas)?.into_drawing_area();
    let mut chart = ChartBuilder::on(&root)
        .margin(px(10.0))
        .x_label_area_size(px(34.0))
        .y_label_area_size(px(44.0))
        .build_cartesian_2d(lo..hi, 0f64..ymax)
        .map_err(err)?;
    kit.style_mesh(&mut chart.configure_mesh())
        .disable_x_mesh()
        .x_labels(7)
        .y_labels(5)
        .x_desc(s.x_desc.as_str())
        .y_desc(s.y_desc.as_str())
        .y_label_formatter(&|v| format!("{v:.0}"))
        .x_label_formatter(&|v| format!("{}", (v * 100.0).round() / 100.0))
        .draw()
        .map_err(err)?;
    let bar = palette::policy(1).plotters();
    chart
        .draw_series(
            s.counts
                .iter()
                .enumerate()
                .filter(|(_, &c)| c > 0)
                .map(|(i, &c)| {
                    let (x0, x1) = (s.edges[i], s.edges[(i + 1).min(s.edges.len() - 1)]);
                    let x1 = if x1 > x0 { x1 } else { x0 + (hi - lo) * 0.01 };
                    Rectangle::new([(x0, 0.0), (x1, c as f64)], bar.mix(0.75).filled())
                }),
        )
        .map_err(err)?;
    let marks = [
        ("p5", s.p5, muted),
        ("p50", s.p50, fg),
        ("p95", s.p95, muted),
    ];
    for (i, (name, x, color)) in marks.iter().enumerate() {
        if !x.is_finite() {
            continue;
        }
        chart
            .draw_series(LineSeries::new(
                vec![(*x, 0.0), (*x, ymax)],
                color.stroke_width(px(if *name == "p50" { 2.0 } else { 1.0 }).max(1)),
            ))
            .map_err(err)?;
        let y = ymax * (0.99 - 0.07 * i as f64);
        chart
            .draw_series(std::iter::once(Text::new(
                format!(" {name} {} ", (x * 10.0).round() / 10.0),
                (*x, y),
                // Near the right edge the label goes to the left of its line.
                anchored(
                    11.0 * dpr,
                    color,
                    if *x > lo + (hi - lo) * 0.8 {
                        plotters::style::text_anchor::HPos::Right
                    } else {
                        plotters::style::text_anchor::HPos::Left
                    },
                ),
            )))
            .map_err(err)?;
    }
    if let Some(c) = s.current.filter(|c| c.is_finite()) {
        let color = palette::policy(0).plotters();
        chart
            .draw_series(LineSeries::new(
                vec![(c, 0.0), (c, ymax * 0.75)],
                color.stroke_width(px(2.0).max(1)),
            ))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Circle::new(
                (c, ymax * 0.75),
                px(4.0) as i32,
                color.filled(),
            )))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Text::new(
                s.current_label.clone(),
                (c, ymax * 0.72),
                anchored(
                    11.0 * dpr,
                    &color,
                    plotters::style::text_anchor::HPos::Center,
                ),
            )))
            .map_err(err)?;
    }
    root.present().map_err(err)?;
    Ok(())
}

#[derive(Deserialize)]
struct QuantumSpec {
    quanta: Vec<f64>,
    policies: Vec<String>,
    /// Per policy: the chosen figure per quantum.
    values: Vec<Vec<f64>>,
    /// Per policy: the best quantum for the figure (None when the policy
    /// ignores the quantum).
    best: Vec<Option<f64>>,
    /// The experiment's own quantum.
    quantum: f64,
    x_desc: String,
    y_desc: String,
}

/// One line per policy against the quantum (log axis), best marked.
///
/// The axis is a linear one over log10(quantum), labelled in ms: plotters'
/// own `log_scale()` would compile a second copy of its chart and mesh code
/// (about 20 KB of wasm) for one chart.
#[wasm_bindgen(js_name = drawQuantumChart)]
pub fn draw_quantum_chart(
    canvas: &HtmlCanvasElement,
    dpr: f64,
    dark: bool,
    spec_js: JsValue,
) -> Result<(), JsError> {
    let s: QuantumSpec = spec(spec_js)?;
    let kit = ChartKit::begin(canvas, dpr, dark)?;
    let muted = kit.muted;
    let px = |v: f64| kit.px(v);
    let qlo = s.quanta.iter().copied().fold(f64::INFINITY, f64::min);
    let qhi = s.quanta.iter().copied().fold(0.0, f64::max);
    let (qlo, qhi) = if qlo.is_finite() && qhi > qlo {
        (qlo / 1.15, qhi * 1.15)
    } else {
        (qlo.max(1e-3) / 2.0, qlo.max(1e-3) * 2.0)
    };
    let (xlo, xhi) = (qlo.log10(), qhi.log10());
    let lx = |q: f64| q.log10();
    let ymax = nice_ceil(
        s.values
            .iter()
            .flatten()
            .copied()
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max)
            .max(1e-6)
            * 1.05,
    );
    let root = Canvas::new(canvas)?.into_drawing_area();
    let mut chart = ChartBuilder::on(&root)
        .margin(px(10.0))
        .x_label_area_size(px(34.0))
        .y_label_area_size(px(50.0))
        .build_cartesian_2d(xlo..xhi, 0f64..ymax)
        .map_err(err)?;
    kit.style_mesh(&mut chart.configure_mesh())
        .x_labels(8)
        .y_labels(6)
        .x_desc(s.x_desc.as_str())
        .y_desc(s.y_desc.as_str())
        .x_label_formatter(&|v| {
            let q = 10f64.powf(*v);
            // Two significant digits: 1, 3.2, 10, 32, 100 …
            let mag = 10f64.powf(q.log10().floor() - 1.0);
            format!("{}", ((q / mag).round() * mag * 1e6).round() / 1e6)
        })
        .y_label_formatter(&|v| format!("{v:.0}"))
        .draw()
        .map_err(err)?;
    if s.quantum.is_finite() && s.quantum > qlo && s.quantum < qhi {
        chart
            .draw_series(LineSeries::new(
                vec![(lx(s.quantum), 0.0), (lx(s.quantum), ymax)],
                muted.mix(0.6).stroke_width(px(1.0).max(1)),
            ))
            .map_err(err)?;
    }
    for (k, vals) in s.values.iter().enumerate() {
        let color = palette::policy(k).plotters();
        let pts: Vec<(f64, f64)> = s
            .quanta
            .iter()
            .copied()
            .zip(vals.iter().copied())
            .filter(|(_, v)| v.is_finite())
            .map(|(q, v)| (lx(q), v))
            .collect();
        chart
            .draw_series(LineSeries::new(
                pts.clone(),
                color.stroke_width(px(2.0).max(1)),
            ))
            .map_err(err)?;
        chart
            .draw_series(
                pts.iter()
                    .map(|&p| Circle::new(p, px(2.0) as i32, color.filled())),
            )
            .map_err(err)?;
        if let Some(Some(bq)) = s.best.get(k) {
            if let Some(i) = s.quanta.iter().position(|q| q == bq) {
                let v = vals[i];
                chart
                    .draw_series(std::iter::once(Circle::new(
                        (lx(*bq), v),
                        px(7.0) as i32,
                        color.stroke_width(px(2.0).max(1)),
                    )))
                    .map_err(err)?;
                chart
                    .draw_series(std::iter::once(Text::new(
                        format!("{bq} ms"),
                        (lx(*bq), v),
                        (FontFamily::SansSerif, 11.0 * dpr)
                            .into_font()
                            .color(&color)
                            .pos(plotters::style::text_anchor::Pos::new(
                                plotters::style::text_anchor::HPos::Center,
                                plotters::style::text_anchor::VPos::Bottom,
                            )),
                    )))
                    .map_err(err)?;
            }
        }
    }
    let items: Vec<(String, RGBColor, bool)> = s
        .policies
        .iter()
        .enumerate()
        .map(|(i, p)| (p.to_ascii_uppercase(), palette::policy(i).plotters(), true))
        .collect();
    legend(&root, canvas, &items, dpr, &kit.theme, Corner::UpperRight)?;
    root.present().map_err(err)?;
    Ok(())
}
