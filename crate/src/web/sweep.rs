//! The page's sweeps panel: a seed sweep or a quantum sweep run by the jobs
//! worker a chunk at a time (progress and cancel between chunks), and the
//! two charts that show them ([`crate::chart::sweep`]), drawn on the main
//! thread.
//!
//! The work is `crate::experiment::sweep`'s, exactly as `tailslice sweep` does it, so
//! the page's figures equal the CLI's for the same settings.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use super::canvas::{err, Canvas};
use super::chart_lang::lang;
use super::query;
use super::result::to_js;
use crate::chart::{self, pen::Pen, theme::Theme};
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
    let mut pen = Pen::new(&mut backend, dpr, Theme::dark(dark), lang());
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
    let mut pen = Pen::new(&mut backend, dpr, Theme::dark(dark), lang());
    let size = pen.size();
    chart::sweep::draw_quanta(&mut pen, size, &s).map_err(err)?;
    Ok(())
}
