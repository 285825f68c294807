//! Drawing one scenario run on the main thread: the per-core Gantt chart
//! coloured by QoS, the key threads' states over time and `sched_pri` over
//! time. Takes the worker's `{meta, packed}` object (see
//! [`super::scenario::ScenarioRun::timeline`]) and copies `packed` into wasm
//! memory once.
//!
//! Cost is bounded by the canvas width: a rectangle narrower than a device
//! pixel that would land on the column and colour of the previous one in its
//! lane is skipped.

use js_sys::{Float64Array, Reflect};
use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::canvas::{context, fmt_ms, nice_step};
use super::palette::{Rgb, Theme};
use crate::text::Filled;

/// Layout in CSS pixels.
const PAD_L: f64 = 112.0;
const PAD_R: f64 = 10.0;
const PAD_T: f64 = 6.0;
const LANE_H: f64 = 18.0;
const AXIS_H: f64 = 22.0;
const PRI_H: f64 = 240.0;

/// Okabe–Ito colours by QoS (readable with the common colour blindnesses);
/// the main thread has its own colour, other system work is grey.
const MAIN: Rgb = Rgb(0x56, 0xb4, 0xe9);
const SYSTEM: Rgb = Rgb(0x99, 0x99, 0x99);

/// Colour of a QoS class (`qos_class_self` number); 0 is other system work.
pub fn qos_rgb(qos: u8) -> Rgb {
    match qos {
        33 => Rgb(0xd5, 0x5e, 0x00),
        25 => Rgb(0xe6, 0x9f, 0x00),
        21 => Rgb(0xf0, 0xe4, 0x42),
        17 => Rgb(0x00, 0x9e, 0x73),
        9 => Rgb(0x00, 0x72, 0xb2),
        5 => Rgb(0xcc, 0x79, 0xa7),
        _ => SYSTEM,
    }
}

/// Thread states: running, runnable, preempted (blocked is the lane's
/// background).
const STATES: [Rgb; 3] = [
    Rgb(0x00, 0x72, 0xb2),
    Rgb(0xe6, 0x9f, 0x00),
    Rgb(0xd5, 0x5e, 0x00),
];
/// Priority lines: main thread, then one queue / worker.
const PRI: [Rgb; 2] = [Rgb(0x00, 0x72, 0xb2), Rgb(0xd5, 0x5e, 0x00)];

/// CSS colour of a QoS class, for the page's legend (0: other system work).
#[wasm_bindgen(js_name = qosColor)]
pub fn qos_color(qos: u8) -> String {
    qos_rgb(qos).css()
}

/// CSS colour of the main thread in the Gantt chart.
#[wasm_bindgen(js_name = mainThreadColor)]
pub fn main_thread_color() -> String {
    MAIN.css()
}

/// CSS colour of a thread state (0 running, 1 runnable, 2 preempted,
/// 3 blocked: `null`, drawn as the lane's background).
#[wasm_bindgen(js_name = stateColor)]
pub fn state_color(state: usize) -> Option<String> {
    STATES.get(state).map(|c| c.css())
}

/// CSS colour of the `i`-th priority line.
#[wasm_bindgen(js_name = priColor)]
pub fn pri_color(i: usize) -> String {
    PRI[i % PRI.len()].css()
}

#[derive(Deserialize)]
struct CoreIn {
    kind: String,
    speed: f64,
}

#[derive(Deserialize)]
struct PriIn {
    name: Filled,
    points: usize,
}

#[derive(Deserialize)]
struct Meta {
    label: String,
    cores: Vec<CoreIn>,
    lanes: Vec<Filled>,
    main_thread: Option<usize>,
    horizon: f64,
    truncated: bool,
    segments: usize,
    intervals: usize,
    pri: Vec<PriIn>,
    floor: Option<u8>,
}

struct Seg {
    core: usize,
    qos: u8,
    start: f64,
    end: f64,
    thread: usize,
}

struct Int {
    lane: usize,
    state: usize,
    start: f64,
    end: f64,
}

/// One run of a scenario, ready to draw.
#[wasm_bindgen]
pub struct ScenarioView {
    meta: Meta,
    segs: Vec<Seg>,
    ints: Vec<Int>,
    pri: Vec<Vec<(f64, f64)>>,
}

/// Maps times to device x over `[0, horizon]`.
struct Axis {
    x0: f64,
    w: f64,
    span: f64,
}

impl Axis {
    fn x(&self, t: f64) -> f64 {
        self.x0 + t.clamp(0.0, self.span) / self.span * self.w
    }
}

fn font(px: f64, dpr: f64) -> String {
    format!("{}px system-ui, sans-serif", (px * dpr).round())
}

/// Skips rectangles that would repaint the same device column and colour.
struct Lane {
    last_px: f64,
    last_key: u32,
}

impl Lane {
    fn new() -> Lane {
        Lane {
            last_px: f64::NEG_INFINITY,
            last_key: u32::MAX,
        }
    }

    fn fill(
        &mut self,
        ctx: &CanvasRenderingContext2d,
        key: u32,
        css: &str,
        (x1, x2): (f64, f64),
        (y, h): (f64, f64),
    ) {
        let (a, b) = (x1.floor(), x2.ceil().max(x1.floor() + 1.0));
        if b <= self.last_px && key == self.last_key {
            return;
        }
        if key != self.last_key {
            ctx.set_fill_style_str(css);
        }
        ctx.fill_rect(a, y, b - a, h);
        self.last_px = b;
        self.last_key = key;
    }
}

/// Lanes laid out by [`ScenarioView::lane_frame`].
struct LaneFrame {
    top: f64,
    lane_h: f64,
    bar_h: f64,
    lanes: Vec<Lane>,
}

impl LaneFrame {
    /// Paints `[start, end]` on lane `lane` in `css` (`key` names the colour).
    #[allow(clippy::too_many_arguments)]
    fn fill(
        &mut self,
        ctx: &CanvasRenderingContext2d,
        axis: &Axis,
        lane: usize,
        key: u32,
        css: &str,
        start: f64,
        end: f64,
    ) {
        let y = self.top + lane as f64 * self.lane_h + 1.0;
        self.lanes[lane].fill(ctx, key, css, (axis.x(start), axis.x(end)), (y, self.bar_h));
    }
}

impl ScenarioView {
    fn axis(&self, canvas: &HtmlCanvasElement, dpr: f64) -> Axis {
        let css_w = canvas.width() as f64 / dpr;
        Axis {
            x0: PAD_L * dpr,
            w: (css_w - PAD_L - PAD_R).max(1.0) * dpr,
            span: self.meta.horizon.max(1e-9),
        }
    }

    /// Clears the canvas and draws the time grid and axis labels below `bottom`
    /// (device px).
    fn time_axis(
        &self,
        ctx: &CanvasRenderingContext2d,
        axis: &Axis,
        top: f64,
        bottom: f64,
        dpr: f64,
        theme: &Theme,
    ) {
        let css_w = axis.w / dpr;
        let step = nice_step(axis.span / (css_w / 90.0).max(1.0));
        ctx.set_font(&font(11.0, dpr));
        ctx.set_text_baseline("top");
        ctx.set_text_align("center");
        let canvas_w = axis.x0 + axis.w + PAD_R * dpr;
        let mut t = 0.0;
        while t <= axis.span + step * 1e-9 {
            let x = axis.x(t).round() + 0.5;
            ctx.set_fill_style_str(&theme.grid.css());
            ctx.fill_rect(x - 0.5, top, dpr.max(1.0), bottom - top);
            ctx.set_fill_style_str(&theme.muted.css());
            let label = fmt_ms(t, step);
            let half = ctx
                .measure_text(&label)
                .map(|m| m.width() / 2.0)
                .unwrap_or(0.0);
            let lx = x.clamp(axis.x0 + half, (canvas_w - half - dpr).max(axis.x0 + half));
            ctx.fill_text(&label, lx, bottom + 4.0 * dpr).ok();
            t += step;
        }
    }

    fn begin(
        canvas: &HtmlCanvasElement,
        dark: bool,
    ) -> Result<(CanvasRenderingContext2d, Theme), JsError> {
        super::plots::clear(canvas)?;
        Ok((context(canvas)?, Theme::new(dark)))
    }

    /// The time axis and one labelled, shaded lane per label: what the core
    /// Gantt and the thread-state timeline share.
    fn lane_frame(
        &self,
        ctx: &CanvasRenderingContext2d,
        axis: &Axis,
        labels: &[String],
        dpr: f64,
        theme: &Theme,
    ) -> LaneFrame {
        let top = PAD_T * dpr;
        let lane_h = LANE_H * dpr;
        let bar_h = lane_h - 2.0 * dpr.max(1.0);
        self.time_axis(
            ctx,
            axis,
            top,
            top + lane_h * labels.len() as f64,
            dpr,
            theme,
        );
        for (l, label) in labels.iter().enumerate() {
            let y = top + l as f64 * lane_h;
            Self::lane_label(ctx, label, y + lane_h / 2.0, dpr, theme);
            ctx.set_fill_style_str(&theme.grid.css());
            ctx.fill_rect(axis.x0, y + 1.0, axis.w, bar_h);
        }
        LaneFrame {
            top,
            lane_h,
            bar_h,
            lanes: labels.iter().map(|_| Lane::new()).collect(),
        }
    }

    fn lane_label(ctx: &CanvasRenderingContext2d, text: &str, y: f64, dpr: f64, theme: &Theme) {
        ctx.set_text_align("right");
        ctx.set_text_baseline("middle");
        ctx.set_font(&font(11.0, dpr));
        ctx.set_fill_style_str(&theme.fg.css());
        ctx.fill_text(text, (PAD_L - 6.0) * dpr, y).ok();
    }
}

#[wasm_bindgen]
impl ScenarioView {
    /// Takes the worker's `{meta, packed}` timeline object.
    #[wasm_bindgen(constructor)]
    pub fn new(timeline: JsValue) -> Result<ScenarioView, JsError> {
        let meta = Reflect::get(&timeline, &"meta".into())
            .map_err(|_| JsError::new("timeline without meta"))?;
        let meta: Meta =
            serde_wasm_bindgen::from_value(meta).map_err(|e| JsError::new(&e.to_string()))?;
        let packed = Reflect::get(&timeline, &"packed".into())
            .ok()
            .and_then(|v| v.dyn_into::<Float64Array>().ok())
            .ok_or_else(|| JsError::new("timeline without packed numbers"))?
            .to_vec();
        let need = meta.segments * 5
            + meta.intervals * 4
            + meta.pri.iter().map(|p| p.points * 2).sum::<usize>();
        if packed.len() != need {
            return Err(JsError::new(
                "timeline numbers do not match their description",
            ));
        }
        let (seg, rest) = packed.split_at(meta.segments * 5);
        let (int, mut rest) = rest.split_at(meta.intervals * 4);
        let segs = seg
            .chunks_exact(5)
            .map(|c| Seg {
                core: c[0] as usize,
                qos: c[1] as u8,
                start: c[2],
                end: c[3],
                thread: c[4] as usize,
            })
            .collect();
        let ints = int
            .chunks_exact(4)
            .map(|c| Int {
                lane: c[0] as usize,
                state: c[1] as usize,
                start: c[2],
                end: c[3],
            })
            .collect();
        let mut pri = Vec::new();
        for p in &meta.pri {
            let (this, next) = rest.split_at(p.points * 2);
            pri.push(this.chunks_exact(2).map(|c| (c[0], c[1])).collect());
            rest = next;
        }
        Ok(ScenarioView {
            meta,
            segs,
            ints,
            pri,
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

    /// Whether there are per-core segments to draw.
    #[wasm_bindgen(js_name = hasTimeline)]
    pub fn has_timeline(&self) -> bool {
        !self.meta.cores.is_empty()
    }

    /// Whether a priority trace exists.
    #[wasm_bindgen(js_name = hasPri)]
    pub fn has_pri(&self) -> bool {
        self.pri.iter().any(|p| !p.is_empty())
    }

    /// Names of the priority series (main thread first).
    #[wasm_bindgen(js_name = priNames)]
    pub fn pri_names(&self) -> Vec<String> {
        let lang = super::labels::get().lang;
        self.meta
            .pri
            .iter()
            .map(|p| p.name.get(lang).to_string())
            .collect()
    }

    /// Names of the threads in the state timeline.
    #[wasm_bindgen(js_name = laneNames)]
    pub fn lane_names(&self) -> Vec<String> {
        let lang = super::labels::get().lang;
        self.meta
            .lanes
            .iter()
            .map(|l| l.get(lang).to_string())
            .collect()
    }

    /// QoS numbers present in the Gantt chart, highest first (0: system).
    #[wasm_bindgen(js_name = qosPresent)]
    pub fn qos_present(&self) -> Vec<u8> {
        let mut q: Vec<u8> = self
            .segs
            .iter()
            .filter(|s| Some(s.thread) != self.meta.main_thread)
            .map(|s| s.qos)
            .collect();
        q.sort_unstable_by(|a, b| b.cmp(a));
        q.dedup();
        q
    }

    /// Whether the main thread appears in the Gantt chart.
    #[wasm_bindgen(js_name = hasMainThread)]
    pub fn has_main_thread(&self) -> bool {
        self.meta.main_thread.is_some()
    }

    #[wasm_bindgen(js_name = ganttHeight)]
    pub fn gantt_height(&self) -> f64 {
        PAD_T + LANE_H * self.meta.cores.len() as f64 + AXIS_H
    }

    #[wasm_bindgen(js_name = statesHeight)]
    pub fn states_height(&self) -> f64 {
        PAD_T + LANE_H * self.meta.lanes.len() as f64 + AXIS_H
    }

    #[wasm_bindgen(js_name = priHeight)]
    pub fn pri_height(&self) -> f64 {
        PRI_H
    }

    /// One lane per core (P cores first, as the machine lists them), each
    /// slice coloured by its thread's QoS; the main thread in its own colour.
    #[wasm_bindgen(js_name = drawGantt)]
    pub fn draw_gantt(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
    ) -> Result<(), JsError> {
        let words = super::labels::get();
        let (ctx, theme) = Self::begin(canvas, dark)?;
        let axis = self.axis(canvas, dpr);
        let n = self.meta.cores.len();
        let labels: Vec<String> = self
            .meta
            .cores
            .iter()
            .enumerate()
            .map(|(c, core)| {
                let kind = if core.kind == "efficiency" { "E" } else { "P" };
                let lane = super::labels::fill(
                    &words.core_lane,
                    &[("core", &c.to_string()), ("kind", kind)],
                );
                if (core.speed - 1.0).abs() > 1e-9 {
                    format!("{lane} ×{:.2}", core.speed)
                } else {
                    lane
                }
            })
            .collect();
        let mut frame = self.lane_frame(&ctx, &axis, &labels, dpr, &theme);
        let main = MAIN.css();
        for s in &self.segs {
            if s.core >= n || s.start >= axis.span {
                continue;
            }
            let is_main = Some(s.thread) == self.meta.main_thread;
            let key = if is_main { 1000 } else { u32::from(s.qos) };
            let css = if is_main {
                main.clone()
            } else {
                qos_rgb(s.qos).css()
            };
            frame.fill(&ctx, &axis, s.core, key, &css, s.start, s.end);
        }
        Ok(())
    }

    /// One lane per key thread: running, runnable and preempted stretches
    /// in colour, blocked as the lane's background.
    #[wasm_bindgen(js_name = drawStates)]
    pub fn draw_states(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
    ) -> Result<(), JsError> {
        let (ctx, theme) = Self::begin(canvas, dark)?;
        let axis = self.axis(canvas, dpr);
        let n = self.meta.lanes.len();
        let lanes = self.lane_names();
        let mut frame = self.lane_frame(&ctx, &axis, &lanes, dpr, &theme);
        let css: Vec<String> = STATES.iter().map(|c| c.css()).collect();
        for i in &self.ints {
            if i.lane >= n || i.state >= STATES.len() || i.start >= axis.span {
                continue;
            }
            frame.fill(
                &ctx,
                &axis,
                i.lane,
                i.state as u32,
                &css[i.state],
                i.start,
                i.end,
            );
        }
        Ok(())
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
        let words = super::labels::get();
        let (ctx, theme) = Self::begin(canvas, dark)?;
        let axis = self.axis(canvas, dpr);
        let top = PAD_T * dpr + 4.0 * dpr;
        let bottom = canvas.height() as f64 - AXIS_H * dpr;
        self.time_axis(&ctx, &axis, top, bottom, dpr, &theme);
        let all = self.pri.iter().flatten().map(|p| p.1);
        let (mut lo, mut hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
        if let Some(f) = self.meta.floor {
            lo = lo.min(f as f64);
            hi = hi.max(f as f64);
        }
        if !lo.is_finite() {
            (lo, hi) = (0.0, 64.0);
        }
        let (lo, hi) = ((lo - 3.0).max(0.0).floor(), (hi + 3.0).ceil());
        let y_of = |p: f64| bottom - (p - lo) / (hi - lo).max(1.0) * (bottom - top);
        // Priority grid and labels.
        let step = nice_step((hi - lo) / 6.0).max(1.0);
        ctx.set_font(&font(11.0, dpr));
        ctx.set_text_align("right");
        ctx.set_text_baseline("middle");
        let mut p = (lo / step).ceil() * step;
        while p <= hi {
            let y = y_of(p).round() + 0.5;
            ctx.set_fill_style_str(&theme.grid.css());
            ctx.fill_rect(axis.x0, y - 0.5, axis.w, dpr.max(1.0));
            ctx.set_fill_style_str(&theme.muted.css());
            ctx.fill_text(&format!("{p:.0}"), axis.x0 - 6.0 * dpr, y)
                .ok();
            p += step;
        }
        ctx.save();
        ctx.translate(12.0 * dpr, (top + bottom) / 2.0).ok();
        ctx.rotate(-std::f64::consts::FRAC_PI_2).ok();
        ctx.set_text_align("center");
        ctx.fill_text("sched_pri", 0.0, 0.0).ok();
        ctx.restore();
        if let Some(f) = self.meta.floor {
            let y = y_of(f as f64).round() + 0.5;
            ctx.set_stroke_style_str(&theme.fg.css());
            ctx.set_line_width(1.5 * dpr);
            let dash = js_sys::Array::of2(&(6.0 * dpr).into(), &(4.0 * dpr).into());
            ctx.set_line_dash(&dash).ok();
            ctx.begin_path();
            ctx.move_to(axis.x0, y);
            ctx.line_to(axis.x0 + axis.w, y);
            ctx.stroke();
            ctx.set_line_dash(&js_sys::Array::new()).ok();
            ctx.set_text_align("left");
            ctx.set_text_baseline("top");
            ctx.set_fill_style_str(&theme.fg.css());
            let floor = super::labels::fill(&words.floor, &[("floor", &f.to_string())]);
            ctx.fill_text(&floor, axis.x0 + 4.0 * dpr, y + 3.0 * dpr)
                .ok();
        }
        for (i, series) in self.pri.iter().enumerate().rev() {
            if series.is_empty() {
                continue;
            }
            ctx.set_stroke_style_str(&PRI[i % PRI.len()].css());
            ctx.set_line_width(if i == 0 { 2.0 } else { 1.5 } * dpr);
            ctx.begin_path();
            let mut last_x = f64::NEG_INFINITY;
            let mut prev = series[0].1;
            ctx.move_to(axis.x(series[0].0), y_of(prev));
            for &(t, p) in &series[1..] {
                if t > axis.span {
                    break;
                }
                let x = axis.x(t);
                // Several changes inside one device pixel: draw the column once.
                if x - last_x < 0.5 && p == prev {
                    continue;
                }
                ctx.line_to(x, y_of(prev));
                ctx.line_to(x, y_of(p));
                prev = p;
                last_x = x;
            }
            ctx.line_to(axis.x(axis.span), y_of(prev));
            ctx.stroke();
        }
        Ok(())
    }
}
