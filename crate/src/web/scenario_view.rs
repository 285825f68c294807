//! One scenario run on the main thread: what it is and its `sched_pri`
//! over time ([`crate::chart::priority`]). Its cores and its threads'
//! states are [`super::gantt::Gantt`]s of their own, made from the same
//! wire object (see [`super::scenario::ScenarioRun::timeline`]).

use js_sys::Reflect;
use serde::Deserialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use super::canvas::{err, Canvas};
use super::chart_lang::lang;
use crate::chart::legend;
use crate::chart::pen::Pen;
use crate::chart::priority::{self, Priorities};
use crate::chart::theme::Palette;

/// Height of the priority chart, CSS px.
const PRI_H: f64 = 260.0;

#[derive(Deserialize)]
struct Meta {
    label: String,
    horizon: f64,
    truncated: bool,
    #[serde(default)]
    cut_note: crate::text::Filled,
}

/// One run of a scenario, ready to draw.
#[wasm_bindgen]
pub struct ScenarioView {
    meta: Meta,
    pri: Priorities,
}

fn field<T: for<'de> Deserialize<'de>>(timeline: &JsValue, key: &str) -> Result<T, JsError> {
    let v = Reflect::get(timeline, &key.into())
        .map_err(|_| JsError::new(&format!("timeline without {key}")))?;
    serde_wasm_bindgen::from_value(v).map_err(|e| JsError::new(&format!("timeline {key}: {e}")))
}

#[wasm_bindgen]
impl ScenarioView {
    /// Takes the worker's timeline object (`{meta, pri, gantt, states}`).
    #[wasm_bindgen(constructor)]
    pub fn new(timeline: JsValue) -> Result<ScenarioView, JsError> {
        Ok(ScenarioView {
            meta: field(&timeline, "meta")?,
            pri: field(&timeline, "pri")?,
        })
    }

    pub fn label(&self) -> String {
        self.meta.label.clone()
    }

    /// The charts' time span, ms.
    pub fn horizon(&self) -> f64 {
        self.meta.horizon
    }

    /// Recording stopped before the run ended.
    pub fn truncated(&self) -> bool {
        self.meta.truncated
    }

    /// Where the charts stop and why (`{en, zh}`, empty when they cover
    /// the whole run).
    #[wasm_bindgen(js_name = cutNote)]
    pub fn cut_note(&self) -> JsValue {
        super::result::to_js(&self.meta.cut_note)
    }

    /// Whether a priority trace exists.
    #[wasm_bindgen(js_name = hasPri)]
    pub fn has_pri(&self) -> bool {
        self.pri.points.iter().any(|p| !p.is_empty())
    }

    #[wasm_bindgen(js_name = priHeight)]
    pub fn pri_height(&self) -> f64 {
        PRI_H
    }

    /// The priority chart's legend, one entry per line (the canvas's
    /// description).
    #[wasm_bindgen(js_name = priLegendText)]
    pub fn pri_legend_text(&self) -> String {
        legend::text(&priority::legend(&self.pri, lang()))
    }

    /// `sched_pri` over time as step lines (main thread, then one queue or
    /// worker), with the band-limit floor dashed when it applies.
    #[wasm_bindgen(js_name = drawPri)]
    pub fn draw_pri(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
    ) -> Result<(), JsError> {
        let mut backend = Canvas::clear(canvas)?;
        let mut pen = Pen::new(&mut backend, dpr, Palette::dark(dark), lang());
        let size = pen.size();
        priority::draw_run(&mut pen, size, &self.pri).map_err(err)
    }
}
