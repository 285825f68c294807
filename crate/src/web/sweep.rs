//! The page's sweeps panel: a seed sweep or a quantum sweep run by the jobs
//! worker a chunk at a time (progress and cancel between chunks), and the
//! two charts that show them ([`crate::chart::sweep`]), drawn on the main
//! thread by this, the worker's module (the page's own leaves the file out).
//!
//! The work is `crate::experiment::sweep`'s, exactly as `tailslice sweep` does it, so
//! the page's figures equal the CLI's for the same settings.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use super::canvas::{err, Canvas};
use super::chart_lang::lang;
use super::query;
use super::result::to_js;
use crate::chart::{self, pen::Pen, theme::Palette};
use crate::error::ParamError;
use crate::experiment::metric::Metric;
use crate::experiment::sweep::{self as core, QuantumRun, SeedRun, SweepLimits};
use crate::experiment::sweep_reading;
use crate::experiment::{Experiment, Limits, RowPolicy};
use crate::text::{Filled, Lang};
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
#[wasm_bindgen]
pub struct SeedSweep {
    exp: Experiment,
    seeds: RangeInclusive<u64>,
    next: u64,
    runs: Vec<SeedRun>,
}

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

    /// `{seed, summary, readings}`: the summary of `sweep::summarize_seeds`
    /// and, per figure, what it says with the experiment's own seed placed
    /// in it (`sweep_reading::read_seeds`).
    pub fn summary(&self) -> Result<JsValue, JsError> {
        let summary = core::summarize_seeds(&self.runs, BINS);
        let own = match self.runs.iter().find(|r| r.seed == self.exp.seed) {
            Some(r) => r.clone(),
            None => core::run_seed(&self.exp, self.exp.seed, &Limits::WEB)
                .map_err(|e| JsError::new(&e.to_string()))?,
        };
        let own = sweep_reading::own_seed(&own);
        #[derive(Serialize)]
        struct Out<'a> {
            seed: u64,
            summary: &'a core::SeedSummary,
            /// One reading per figure, by the figure's name.
            readings: BTreeMap<&'static str, sweep_reading::SeedReading>,
        }
        let (from, to) = (*self.seeds.start(), *self.seeds.end());
        Ok(to_js(&Out {
            seed: self.exp.seed,
            summary: &summary,
            readings: sweep_reading::read_seeds(&summary, &own, from, to)
                .into_iter()
                .map(|r| (r.metric, r))
                .collect(),
        }))
    }
}

/// Reads the quanta of a sweep (see [`core::parse_quanta_spec`]).
fn parse_quanta(text: &str, steps: u32) -> Result<Vec<f64>, ParamError> {
    core::parse_quanta_spec("quanta", text, steps, &SweepLimits::WEB)
}

/// A quantum sweep in progress (on the experiment's workload, drawn once,
/// or on imported tasks).
#[wasm_bindgen]
pub struct QuantumSweep {
    exp: Experiment,
    workload: Workload,
    quanta: Vec<f64>,
    runs: Vec<QuantumRun>,
}

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

    /// `{quanta, policies, series, best, best_quantum, note, switch_cost,
    /// quantum}`:
    /// `series[k][metric]` is policy k's figure per quantum (`mean`, `p50`,
    /// `p95`, `p99`); `best` is each policy's best quantum as a sentence,
    /// `best_quantum[metric]` each policy's best quantum for the chart.
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
        let best = core::best_quanta(&self.runs);
        // Per figure, each policy's best quantum (none when the quantum
        // makes no difference), for the chart's marks.
        let best_quantum: BTreeMap<&str, Vec<Option<f64>>> = Metric::QUANTUM_PICK
            .iter()
            .map(|&m| {
                let per: Vec<Option<f64>> = best
                    .iter()
                    .map(|b| sweep_reading::best_quantum_of(b, m))
                    .collect();
                (m.name(), per)
            })
            .collect();
        #[derive(Serialize)]
        struct Line {
            policy: RowPolicy,
            /// The best p95's quantum and value (test hooks), when the
            /// quantum makes a difference.
            p95: Option<core::Best>,
            text: Filled,
        }
        let lines: Vec<Line> = best
            .iter()
            .map(|b| Line {
                policy: b.policy,
                p95: b.depends_on_quantum.then(|| b.best_p95.clone()),
                text: sweep_reading::best_quantum_text(b, |lang| b.policy.title(lang)),
            })
            .collect();
        #[derive(Serialize)]
        struct Out<'a> {
            quanta: Vec<f64>,
            policies: Vec<&'a str>,
            series: Vec<Series>,
            best: Vec<Line>,
            best_quantum: BTreeMap<&'a str, Vec<Option<f64>>>,
            note: Option<Filled>,
            switch_cost: f64,
            quantum: f64,
        }
        to_js(&Out {
            quanta: self.runs.iter().map(|r| r.quantum).collect(),
            policies,
            series,
            best: lines,
            best_quantum,
            note: sweep_reading::switch_cost_note(self.exp.switch_cost),
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

fn spec<T: for<'de> Deserialize<'de>>(v: JsValue) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(v).map_err(|e| JsError::new(&format!("chart spec: {e}")))
}

/// The histogram of one figure over seeds, p5/p50/p95 and the current seed
/// marked (`spec`: [`chart::sweep::SeedHistogram`], built by
/// `www/sweep.js` from a summary).
#[wasm_bindgen(js_name = drawSeedHistogram)]
pub fn draw_seed_histogram(
    canvas: &HtmlCanvasElement,
    dpr: f64,
    dark: bool,
    spec_js: JsValue,
) -> Result<(), JsError> {
    let s: chart::sweep::SeedHistogram = spec(spec_js)?;
    let mut backend = Canvas::clear(canvas)?;
    let mut pen = Pen::new(&mut backend, dpr, Palette::dark(dark), lang());
    let size = pen.size();
    chart::sweep::draw_seeds(&mut pen, size, &s).map_err(err)?;
    Ok(())
}

/// One line per policy against the quantum (log axis), best marked, the
/// legend above the curves (`spec`: [`chart::sweep::QuantumChart`]).
#[wasm_bindgen(js_name = drawQuantumChart)]
pub fn draw_quantum_chart(
    canvas: &HtmlCanvasElement,
    dpr: f64,
    dark: bool,
    spec_js: JsValue,
) -> Result<(), JsError> {
    let s: chart::sweep::QuantumChart = spec(spec_js)?;
    let mut backend = Canvas::clear(canvas)?;
    let mut pen = Pen::new(&mut backend, dpr, Palette::dark(dark), lang());
    let size = pen.size();
    chart::sweep::draw_quanta(&mut pen, size, &s).map_err(err)?;
    Ok(())
}
