//! Helpers every 2D-canvas drawer shares (the Gantt of `View`, the plots,
//! `ScenarioView`): the context of a canvas and the time axis's steps and
//! labels.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

pub(crate) fn context(canvas: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, JsError> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        .ok_or_else(|| JsError::new("no 2d canvas context"))
}

/// A "nice" step (1, 2 or 5 × 10^k) near `raw`.
pub(crate) fn nice_step(raw: f64) -> f64 {
    if raw.is_nan() || raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    let m = raw / p;
    p * if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    }
}

/// `1 234.5 ms` style label for a time.
pub(crate) fn fmt_ms(t: f64, step: f64) -> String {
    if step >= 1000.0 && t.abs() >= 1000.0 {
        let s = t / 1000.0;
        let dec = if (step / 1000.0).fract() == 0.0 { 0 } else { 1 };
        format!("{s:.dec$} s")
    } else {
        let dec = if step >= 1.0 {
            0
        } else if step >= 0.1 {
            1
        } else {
            2
        };
        format!("{t:.dec$} ms")
    }
}
