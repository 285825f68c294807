//! The main thread's copy of a study result's plots: the latency CDF of
//! every policy and the duration histogram by class, drawn by the charts'
//! own functions ([`crate::chart::cdf`], [`crate::chart::histogram`]) on
//! canvases. The schedules are a [`super::gantt::Gantt`] of their own.
//!
//! A plot whose canvas already shows what it would draw (the same curves or
//! bins, size, theme and language: [`super::shown`]) is not drawn again: a
//! quantum edit leaves the histogram of the same durations as it is.

use std::cell::RefCell;

use js_sys::{Array, Float64Array, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

use super::canvas::{err, Canvas};
use super::chart_lang::lang;
use super::shown;
use crate::chart::cdf;
use crate::chart::fingerprint::Fingerprint;
use crate::chart::histogram::{self, Bins};
use crate::chart::pen::{Pen, Spot};
use crate::chart::theme::Palette;
use crate::text::{Filled, Lang};

/// One policy's latency CDF.
struct Curve {
    policy: String,
    x: Vec<f64>,
    y: Vec<f64>,
    p50: f64,
    p95: f64,
}

/// A result's plots as the page shows them.
#[wasm_bindgen]
pub struct View {
    curves: Vec<Curve>,
    bins: Bins,
    classes: Vec<Filled>,
    /// What the last drawing of each plot left for pointers (shortened
    /// legend entries): the CDF's, the histogram's.
    spots: RefCell<[Vec<Spot>; 2]>,
    /// What each plot draws, without the drawing conditions: the CDF's,
    /// the histogram's.
    prints: [Fingerprint; 2],
}

fn get(obj: &JsValue, key: &str) -> Result<JsValue, JsError> {
    Reflect::get(obj, &JsValue::from_str(key))
        .map_err(|_| JsError::new(&format!("result has no {key}")))
}

fn f64s(obj: &JsValue, key: &str) -> Result<Vec<f64>, JsError> {
    Ok(get(obj, key)?
        .dyn_into::<Float64Array>()
        .map_err(|_| JsError::new(&format!("{key} is not a Float64Array")))?
        .to_vec())
}

fn num(obj: &JsValue, key: &str) -> Result<f64, JsError> {
    get(obj, key)?
        .as_f64()
        .ok_or_else(|| JsError::new(&format!("{key} is not a number")))
}

/// Which plot a pointer is over.
fn plot_index(which: &str) -> usize {
    usize::from(which == "hist")
}

#[wasm_bindgen]
impl View {
    /// Takes the worker's result object (see `result::build`).
    #[wasm_bindgen(constructor)]
    pub fn new(result: JsValue) -> Result<View, JsError> {
        let mut curves = Vec::new();
        for r in get(&result, "runs")?
            .dyn_into::<Array>()
            .map_err(|_| JsError::new("runs is not an array"))?
            .iter()
        {
            curves.push(Curve {
                policy: get(&r, "policy")?.as_string().unwrap_or_default(),
                x: f64s(&r, "cdf_x")?,
                y: f64s(&r, "cdf_y")?,
                p50: num(&r, "p50")?,
                p95: num(&r, "p95")?,
            });
        }
        let classes: Vec<Filled> = serde_wasm_bindgen::from_value(get(&result, "class_names")?)
            .map_err(|e| JsError::new(&format!("class_names: {e}")))?;
        let bins = Bins {
            hi: num(&result, "hist_hi")?,
            cut: get(&result, "hist_cut")?.as_bool().unwrap_or(false),
            counts: get(&result, "hist_counts")?
                .dyn_into::<Uint32Array>()
                .map_err(|_| JsError::new("hist_counts is not a Uint32Array"))?
                .to_vec(),
        };
        if bins.counts.len() != classes.len().max(1) * histogram::BINS {
            return Err(JsError::new("histogram counts do not match the classes"));
        }
        let mut cdf_print = Fingerprint::new();
        for c in &curves {
            cdf_print
                .text(&c.policy)
                .nums(&c.x)
                .nums(&c.y)
                .num(c.p50)
                .num(c.p95);
        }
        let mut hist_print = Fingerprint::new();
        hist_print.num(bins.hi).word(u64::from(bins.cut));
        for &n in &bins.counts {
            hist_print.word(u64::from(n));
        }
        for c in &classes {
            hist_print.text(c.get(Lang::En)).text(c.get(Lang::Zh));
        }
        Ok(View {
            curves,
            bins,
            classes,
            spots: RefCell::default(),
            prints: [cdf_print, hist_print],
        })
    }

    /// Takes the hover spots of `old`'s plots that draw the same data (a
    /// plot this view will not draw again keeps what its canvas shows).
    #[wasm_bindgen(js_name = keepSpots)]
    pub fn keep_spots(&self, old: &View) {
        let theirs = old.spots.borrow();
        let mut mine = self.spots.borrow_mut();
        for i in 0..2 {
            if self.prints[i] == old.prints[i] {
                mine[i] = theirs[i].clone();
            }
        }
    }

    /// Whether `canvas` needs drawing for plot `i` and, if so, the
    /// fingerprint to record once it is drawn.
    fn stale(&self, i: usize, canvas: &HtmlCanvasElement, dpr: f64, dark: bool) -> Option<String> {
        let mut f = shown::surface(canvas, dpr, dark, lang());
        f.word(i as u64).word(self.prints[i].value());
        let hex = f.hex();
        (shown::get(canvas).as_deref() != Some(hex.as_str())).then_some(hex)
    }

    /// Latency CDF of every policy on shared axes, p50 and p95 marked.
    /// Returns whether it drew (`false`: the canvas already shows it).
    #[wasm_bindgen(js_name = drawCdf)]
    pub fn draw_cdf(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
    ) -> Result<bool, JsError> {
        let Some(print) = self.stale(0, canvas, dpr, dark) else {
            return Ok(false);
        };
        shown::set(canvas, None);
        let mut backend = Canvas::clear(canvas)?;
        let mut pen = Pen::new(&mut backend, dpr, Palette::dark(dark), lang());
        let series: Vec<cdf::Series> = self
            .curves
            .iter()
            .map(|c| cdf::Series {
                name: &c.policy,
                x: &c.x,
                y: &c.y,
                p50: c.p50,
                p95: c.p95,
            })
            .collect();
        let size = pen.size();
        cdf::draw(&mut pen, size, &series).map_err(err)?;
        self.spots.borrow_mut()[0] = std::mem::take(&mut pen.spots);
        shown::set(canvas, Some(&print));
        Ok(true)
    }

    /// Histogram of task durations stacked by class, the classes named
    /// above it. Returns whether it drew (`false`: the canvas already
    /// shows it).
    #[wasm_bindgen(js_name = drawHistogram)]
    pub fn draw_histogram(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
    ) -> Result<bool, JsError> {
        let Some(print) = self.stale(1, canvas, dpr, dark) else {
            return Ok(false);
        };
        shown::set(canvas, None);
        let mut backend = Canvas::clear(canvas)?;
        let lang = lang();
        let mut pen = Pen::new(&mut backend, dpr, Palette::dark(dark), lang);
        let names: Vec<String> = self
            .classes
            .iter()
            .map(|c| c.get(lang).to_string())
            .collect();
        let size = pen.size();
        histogram::draw(&mut pen, size, &self.bins, &names).map_err(err)?;
        self.spots.borrow_mut()[1] = std::mem::take(&mut pen.spots);
        shown::set(canvas, Some(&print));
        Ok(true)
    }

    /// The full text of a shortened legend entry under (`x`, `y`) CSS px
    /// on plot `which` (`cdf` or `hist`), as last drawn.
    #[wasm_bindgen(js_name = noteAt)]
    pub fn note_at(&self, which: &str, x: f64, y: f64) -> Option<String> {
        self.spots.borrow()[plot_index(which)]
            .iter()
            .find(|s| s.contains(x, y))
            .map(|s| s.text.clone())
    }
}
