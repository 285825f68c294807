//! The main thread's copy of a result: Gantt drawing, zoom/pan state and
//! hover hit-tests.
//!
//! Drawing cost is bounded by the canvas width, not the number of slices:
//! each lane's segments are sorted by time, so the visible ones are found by
//! binary search, and neighbouring slices narrower than a few pixels are
//! merged into one rectangle per colour.

use js_sys::{Array, Float64Array, Reflect, Uint16Array, Uint32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::palette::{self, Theme};

/// Layout in CSS pixels.
const PAD_L: f64 = 8.0;
const PAD_R: f64 = 8.0;
const LABEL_H: f64 = 18.0;
const BLOCK_GAP: f64 = 8.0;
const AXIS_H: f64 = 22.0;
/// Slices at least this wide (device px) are drawn one by one with a gap.
const DISTINCT_PX: f64 = 4.0;

pub(crate) struct Run {
    pub policy: String,
    pub completion: Vec<f64>,
    pub first_start: Vec<f64>,
    pub slices: Vec<u32>,
    pub seg_task: Vec<u32>,
    pub seg_start: Vec<f64>,
    pub seg_end: Vec<f64>,
    /// Per core, indices of its segments in time order.
    pub lanes: Vec<Vec<u32>>,
    pub cdf_x: Vec<f64>,
    pub cdf_y: Vec<f64>,
    pub p50: f64,
    pub p95: f64,
    pub makespan: f64,
}

/// A result as the page shows it.
#[wasm_bindgen]
pub struct View {
    pub(crate) runs: Vec<Run>,
    pub(crate) work: Vec<f64>,
    pub(crate) arrival: Vec<f64>,
    pub(crate) class: Vec<u16>,
    pub(crate) classes: Vec<String>,
    pub(crate) cores: usize,
    pub(crate) gantt: bool,
    /// The class drawn as "long" (largest mean work).
    pub(crate) long_class: Option<u16>,
    horizon: f64,
    t0: f64,
    t1: f64,
    highlight: Option<u32>,
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

fn u32s(obj: &JsValue, key: &str) -> Result<Vec<u32>, JsError> {
    Ok(get(obj, key)?
        .dyn_into::<Uint32Array>()
        .map_err(|_| JsError::new(&format!("{key} is not a Uint32Array")))?
        .to_vec())
}

fn num(obj: &JsValue, key: &str) -> Result<f64, JsError> {
    get(obj, key)?
        .as_f64()
        .ok_or_else(|| JsError::new(&format!("{key} is not a number")))
}

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

#[wasm_bindgen]
impl View {
    /// Takes the worker's result object (see `result::build`).
    #[wasm_bindgen(constructor)]
    pub fn new(result: JsValue) -> Result<View, JsError> {
        let work = f64s(&result, "work")?;
        let arrival = f64s(&result, "arrival")?;
        let class = get(&result, "class")?
            .dyn_into::<Uint16Array>()
            .map_err(|_| JsError::new("class is not a Uint16Array"))?
            .to_vec();
        let classes: Vec<String> = get(&result, "classes")?
            .dyn_into::<Array>()
            .map_err(|_| JsError::new("classes is not an array"))?
            .iter()
            .map(|v| v.as_string().unwrap_or_default())
            .collect();
        let cores = num(&result, "cores")?.max(1.0) as usize;
        let gantt = get(&result, "gantt")?.as_bool().unwrap_or(false);
        let mut runs = Vec::new();
        for r in get(&result, "runs")?
            .dyn_into::<Array>()
            .map_err(|_| JsError::new("runs"))?
            .iter()
        {
            let seg_core = u32s(&r, "seg_core")?;
            let mut lanes = vec![Vec::new(); cores];
            for (i, &c) in seg_core.iter().enumerate() {
                if let Some(l) = lanes.get_mut(c as usize) {
                    l.push(i as u32);
                }
            }
            runs.push(Run {
                policy: get(&r, "policy")?.as_string().unwrap_or_default(),
                completion: f64s(&r, "completion")?,
                first_start: f64s(&r, "first_start")?,
                slices: u32s(&r, "slices")?,
                seg_task: u32s(&r, "seg_task")?,
                seg_start: f64s(&r, "seg_start")?,
                seg_end: f64s(&r, "seg_end")?,
                lanes,
                cdf_x: f64s(&r, "cdf_x")?,
                cdf_y: f64s(&r, "cdf_y")?,
                p50: num(&r, "p50")?,
                p95: num(&r, "p95")?,
                makespan: num(&r, "makespan")?,
            });
        }
        // The long class: the one with the largest mean work.
        let mut sums = vec![(0.0f64, 0usize); classes.len()];
        for (&c, &w) in class.iter().zip(&work) {
            if let Some(s) = sums.get_mut(c as usize) {
                s.0 += w;
                s.1 += 1;
            }
        }
        let long_class = (sums.len() > 1)
            .then(|| {
                sums.iter()
                    .enumerate()
                    .filter(|(_, s)| s.1 > 0)
                    .max_by(|a, b| (a.1 .0 / a.1 .1 as f64).total_cmp(&(b.1 .0 / b.1 .1 as f64)))
                    .map(|(i, _)| i as u16)
            })
            .flatten();
        let horizon = runs
            .iter()
            .map(|r| r.makespan)
            .fold(0.0, f64::max)
            .max(1e-9);
        Ok(View {
            runs,
            work,
            arrival,
            class,
            classes,
            cores,
            gantt,
            long_class,
            horizon,
            t0: 0.0,
            t1: horizon,
            highlight: None,
        })
    }

    /// The latest completion over all policies (ms).
    pub fn horizon(&self) -> f64 {
        self.horizon
    }

    /// Index of the class drawn as "long" (largest mean work), or -1.
    #[wasm_bindgen(getter, js_name = longClass)]
    pub fn long_class_index(&self) -> i32 {
        self.long_class.map_or(-1, i32::from)
    }

    /// Whether segments were recorded (small enough to draw).
    #[wasm_bindgen(getter)]
    pub fn gantt(&self) -> bool {
        self.gantt
    }

    /// The visible time window `[t0, t1]`.
    #[wasm_bindgen(getter)]
    pub fn t0(&self) -> f64 {
        self.t0
    }

    #[wasm_bindgen(getter)]
    pub fn t1(&self) -> f64 {
        self.t1
    }

    /// Keeps the window when a new result arrives for the same experiment
    /// shape (e.g. while dragging the quantum), clamped to the new horizon.
    #[wasm_bindgen(js_name = setWindow)]
    pub fn set_window(&mut self, t0: f64, t1: f64) {
        let min_span = (self.horizon * 1e-6).max(1e-6);
        let span = (t1 - t0).clamp(min_span, self.horizon);
        let t0 = t0.clamp(0.0, self.horizon - span);
        self.t0 = t0;
        self.t1 = t0 + span;
    }

    /// Shows the whole schedule.
    pub fn reset(&mut self) {
        self.t0 = 0.0;
        self.t1 = self.horizon;
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the time under `x` (CSS px
    /// from the canvas's left edge) in place.
    pub fn zoom(&mut self, factor: f64, x: f64, width: f64) {
        let at = self.time_at(x, width);
        let span = (self.t1 - self.t0) / factor.max(1e-3);
        let frac = ((x - PAD_L) / (width - PAD_L - PAD_R)).clamp(0.0, 1.0);
        self.set_window(at - frac * span, at - frac * span + span);
    }

    /// Pans by `dx` CSS px (positive moves the view to earlier times).
    pub fn pan(&mut self, dx: f64, width: f64) {
        let dt = dx / (width - PAD_L - PAD_R).max(1.0) * (self.t1 - self.t0);
        self.set_window(self.t0 - dt, self.t1 - dt);
    }

    fn time_at(&self, x: f64, width: f64) -> f64 {
        self.t0 + (x - PAD_L) / (width - PAD_L - PAD_R).max(1.0) * (self.t1 - self.t0)
    }

    fn lane_h(&self) -> f64 {
        (160.0 / self.cores as f64).clamp(1.0, 22.0).floor()
    }

    fn block_h(&self) -> f64 {
        LABEL_H + self.lane_h() * self.cores as f64 + BLOCK_GAP
    }

    /// The Gantt chart's height in CSS px.
    #[wasm_bindgen(js_name = ganttHeight)]
    pub fn gantt_height(&self) -> f64 {
        self.block_h() * self.runs.len() as f64 + AXIS_H
    }

    /// Draws the Gantt chart. The canvas's bitmap must already be sized to
    /// its CSS size times `dpr`.
    #[wasm_bindgen(js_name = drawGantt)]
    pub fn draw_gantt(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
    ) -> Result<(), JsError> {
        let ctx = context(canvas)?;
        let theme = Theme::new(dark);
        let (w, h) = (canvas.width() as f64, canvas.height() as f64);
        ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok();
        ctx.clear_rect(0.0, 0.0, w, h);
        let css_w = w / dpr;
        let x0 = PAD_L * dpr;
        let plot_w = (css_w - PAD_L - PAD_R).max(1.0) * dpr;
        let span = (self.t1 - self.t0).max(1e-12);
        let scale = plot_w / span;
        let lane_h = self.lane_h() * dpr;
        let font = |px: f64| format!("{}px system-ui, sans-serif", (px * dpr).round());

        // Time grid and axis.
        let step = nice_step(span / (css_w / 90.0).max(1.0));
        let axis_y = self.block_h() * self.runs.len() as f64 * dpr;
        ctx.set_font(&font(11.0));
        ctx.set_text_baseline("top");
        ctx.set_text_align("center");
        let mut t = (self.t0 / step).ceil() * step;
        while t <= self.t1 + step * 1e-9 {
            let x = (x0 + (t - self.t0) * scale).round() + 0.5;
            ctx.set_fill_style_str(&theme.grid.css());
            ctx.fill_rect(x - 0.5, 0.0, dpr.max(1.0), axis_y);
            ctx.set_fill_style_str(&theme.muted.css());
            let label = fmt_ms(t, step);
            // Keep the end labels inside the canvas.
            let half = ctx
                .measure_text(&label)
                .map(|m| m.width() / 2.0)
                .unwrap_or(0.0);
            let lx = x.clamp(half + dpr, (w - half - dpr).max(half + dpr));
            ctx.fill_text(&label, lx, axis_y + 4.0 * dpr).ok();
            t += step;
        }

        let words = super::labels::get();
        for (b, run) in self.runs.iter().enumerate() {
            let top = b as f64 * self.block_h() * dpr;
            ctx.set_text_align("left");
            ctx.set_text_baseline("middle");
            ctx.set_font(&format!("600 {}", font(12.0)));
            ctx.set_fill_style_str(&palette::policy(b).css());
            ctx.fill_rect(x0, top + 5.0 * dpr, 8.0 * dpr, 8.0 * dpr);
            ctx.set_fill_style_str(&theme.fg.css());
            let title = if self.cores > 1 {
                super::labels::fill(
                    &words.gantt_cores,
                    &[
                        ("policy", &run.policy.to_ascii_uppercase()),
                        ("cores", &self.cores.to_string()),
                    ],
                )
            } else {
                run.policy.to_ascii_uppercase()
            };
            ctx.fill_text(&title, x0 + 12.0 * dpr, top + 9.5 * dpr).ok();
            if !self.gantt {
                ctx.set_font(&font(12.0));
                ctx.set_fill_style_str(&theme.muted.css());
                ctx.fill_text(&words.gantt_too_many, x0 + 70.0 * dpr, top + 9.5 * dpr)
                    .ok();
                continue;
            }
            let lanes_top = top + LABEL_H * dpr;
            ctx.set_fill_style_str(&theme.grid.css());
            ctx.fill_rect(x0, lanes_top, plot_w, lane_h * self.cores as f64);
            for (c, lane) in run.lanes.iter().enumerate() {
                let y = lanes_top + c as f64 * lane_h;
                let inner_h = if lane_h >= 4.0 {
                    lane_h - dpr.max(1.0)
                } else {
                    lane_h
                };
                self.draw_lane(&ctx, run, lane, x0, scale, y, inner_h, plot_w, dpr);
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn draw_lane(
        &self,
        ctx: &CanvasRenderingContext2d,
        run: &Run,
        lane: &[u32],
        x0: f64,
        scale: f64,
        y: f64,
        h: f64,
        plot_w: f64,
        dpr: f64,
    ) {
        let first = lane.partition_point(|&i| run.seg_end[i as usize] <= self.t0);
        // Pending merged rectangle: (x from, x to, class).
        let mut pending: Option<(f64, f64, u16)> = None;
        let stripe_h = (h * 0.3).max(1.0).min(4.0 * dpr);
        let long = self.long_class;
        let flush = |p: (f64, f64, u16)| {
            let (a, b, k) = p;
            let (a, b) = (a.max(x0), b.min(x0 + plot_w));
            if b <= a {
                return;
            }
            ctx.set_fill_style_str(&palette::class(k as usize).css());
            ctx.fill_rect(a, y, b - a, h);
            if Some(k) == long && h >= 6.0 {
                ctx.set_fill_style_str("rgba(0,0,0,0.45)");
                ctx.fill_rect(a, y, b - a, stripe_h);
            }
        };
        let mut highlighted = Vec::new();
        for &i in &lane[first..] {
            let i = i as usize;
            let (s, e) = (run.seg_start[i], run.seg_end[i]);
            if s >= self.t1 {
                break;
            }
            let task = run.seg_task[i];
            let k = self.class[task as usize];
            let a = (x0 + (s - self.t0) * scale).floor();
            let b = (x0 + (e - self.t0) * scale).ceil().max(a + 1.0);
            if self.highlight == Some(task) {
                highlighted.push((a, b));
            }
            if b - a >= DISTINCT_PX {
                if let Some(p) = pending.take() {
                    flush(p);
                }
                flush((a, b - dpr.max(1.0), k));
                continue;
            }
            pending = match pending {
                Some((pa, pb, pk)) if pk == k && a <= pb + 0.5 => Some((pa, pb.max(b), pk)),
                Some((pa, pb, pk)) => {
                    flush((pa, pb, pk));
                    if b <= pb {
                        // Entirely inside a pixel already painted.
                        Some((pb, pb, k))
                    } else {
                        Some((a.max(pb), b, k))
                    }
                }
                None => Some((a, b, k)),
            };
        }
        if let Some(p) = pending {
            flush(p);
        }
        if !highlighted.is_empty() {
            ctx.set_stroke_style_str("#000000");
            ctx.set_line_width(2.0 * dpr);
            for (a, b) in highlighted {
                ctx.stroke_rect(a, y + dpr, (b - a).max(2.0), h - 2.0 * dpr);
            }
        }
    }

    /// The task under (`x`, `y`) CSS px on a Gantt canvas `width` CSS px
    /// wide, as tooltip text, and highlights it; `None` (and no highlight)
    /// if there is none.
    pub fn hit(&mut self, x: f64, y: f64, width: f64) -> Option<String> {
        self.highlight = None;
        if !self.gantt || x < PAD_L || x > width - PAD_R {
            return None;
        }
        let block = (y / self.block_h()).floor();
        if block < 0.0 || block as usize >= self.runs.len() {
            return None;
        }
        let b = block as usize;
        let in_block = y - block * self.block_h() - LABEL_H;
        let lane_h = self.lane_h();
        if in_block < 0.0 || in_block >= lane_h * self.cores as f64 {
            return None;
        }
        let core = (in_block / lane_h) as usize;
        let run = &self.runs[b];
        let lane = &run.lanes[core];
        let t = self.time_at(x, width);
        let tol = 2.0 / (width - PAD_L - PAD_R).max(1.0) * (self.t1 - self.t0);
        let i = lane.partition_point(|&i| run.seg_end[i as usize] < t - tol);
        let &seg = lane.get(i)?;
        let seg = seg as usize;
        if run.seg_start[seg] > t + tol {
            return None;
        }
        let task = run.seg_task[seg];
        self.highlight = Some(task);
        let ti = task as usize;
        let k = self.class[ti] as usize;
        let words = super::labels::get();
        let long = if self.long_class == Some(k as u16) {
            words.tip_long.as_str()
        } else {
            ""
        };
        let latency = run.completion[ti] - self.arrival[ti];
        let n = run.slices[ti];
        let f = |v: f64| format!("{v:.1}");
        Some(super::labels::fill(
            &words.tip,
            &[
                ("task", &task.to_string()),
                (
                    "class",
                    self.classes.get(k).map(String::as_str).unwrap_or("?"),
                ),
                ("long", long),
                ("work", &f(self.work[ti])),
                ("arrival", &f(self.arrival[ti])),
                ("first", &f(run.first_start[ti])),
                ("done", &f(run.completion[ti])),
                ("latency", &f(latency)),
                (
                    "slices",
                    &super::labels::fill(
                        if n == 1 {
                            &words.slice_one
                        } else {
                            &words.slice_many
                        },
                        &[("n", &n.to_string())],
                    ),
                ),
                ("policy", &run.policy.to_ascii_uppercase()),
                ("core", &core.to_string()),
                ("start", &f(run.seg_start[seg])),
                ("end", &f(run.seg_end[seg])),
            ],
        ))
    }

    /// Removes the hover highlight.
    #[wasm_bindgen(js_name = clearHighlight)]
    pub fn clear_highlight(&mut self) {
        self.highlight = None;
    }

    /// Number of segments over all policies (for the status line).
    #[wasm_bindgen(js_name = segmentCount)]
    pub fn segment_count(&self) -> usize {
        self.runs.iter().map(|r| r.seg_start.len()).sum()
    }
}
