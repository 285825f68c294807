//! The main thread's copy of a result: Gantt drawing, zoom/pan state and
//! hover hit-tests.
//!
//! Drawing cost is bounded by the canvas width, not the number of slices:
//! each lane's segments are sorted by time, so the visible ones are found by
//! binary search, and neighbouring slices narrower than a few pixels are
//! merged into one rectangle per colour.

use crate::text::Lang;
use js_sys::{Array, Float64Array, Reflect, Uint16Array, Uint32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::canvas::{context, fmt_ms, nice_step};
use super::palette::{self, Theme};

/// Layout in CSS pixels.
const PAD_L: f64 = 8.0;
const PAD_R: f64 = 8.0;
const LABEL_H: f64 = 18.0;
const BLOCK_GAP: f64 = 8.0;
const AXIS_H: f64 = 22.0;
/// Slices at least this wide (device px) are drawn one by one with a gap.
const DISTINCT_PX: f64 = 4.0;
/// Lanes thinner than this (device px) are painted as pixels (see
/// `View::raster_lanes`): too thin for gaps or stripes anyway.
const RASTER_BELOW_PX: f64 = 4.0;

pub(crate) struct Run {
    pub policy: String,
    // Per task, left in JavaScript: only a tooltip reads them (one value
    // each), so copying a million of each into wasm memory would be a
    // long task for nothing.
    pub completion: Float64Array,
    pub first_start: Float64Array,
    pub slices: Uint32Array,
    /// The segments as they came from the worker, copied into the vectors
    /// below in chunks ([`View::load_segments`]) so that no single task
    /// copies millions of them.
    seg_js: Option<(Uint32Array, Uint32Array, Float64Array, Float64Array)>,
    /// Segments copied so far (the rest of the vectors is zero).
    loaded: usize,
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

/// Segments copied per [`View::load_segments`] call: a few ms in a browser.
const LOAD_CHUNK: usize = 100_000;

/// The duration histogram, binned in the worker (`result::histogram`).
pub(crate) struct Hist {
    pub hi: f64,
    pub cut: bool,
    pub counts: Vec<u32>,
}

/// A result as the page shows it.
#[wasm_bindgen]
pub struct View {
    pub(crate) runs: Vec<Run>,
    pub(crate) work: Float64Array,
    pub(crate) arrival: Float64Array,
    pub(crate) class: Vec<u16>,
    pub(crate) classes: Vec<String>,
    pub(crate) cores: usize,
    /// The named machine ("m1 (4 P + 4 E cores at 0.3×)"), or empty for
    /// identical cores; and in Chinese.
    machine: String,
    machine_zh: String,
    /// Per core: an efficiency core (its lane is marked).
    efficiency: Vec<bool>,
    pub(crate) gantt: bool,
    /// The class drawn as "long" (largest mean work), from the worker.
    pub(crate) long_class: Option<u16>,
    pub(crate) hist: Hist,
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

#[wasm_bindgen]
impl View {
    /// Takes the worker's result object (see `result::build`).
    #[wasm_bindgen(constructor)]
    pub fn new(result: JsValue) -> Result<View, JsError> {
        let typed = |obj: &JsValue, key: &str| -> Result<JsValue, JsError> { get(obj, key) };
        let work: Float64Array = typed(&result, "work")?
            .dyn_into()
            .map_err(|_| JsError::new("work is not a Float64Array"))?;
        let arrival: Float64Array = typed(&result, "arrival")?
            .dyn_into()
            .map_err(|_| JsError::new("arrival is not a Float64Array"))?;
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
        let machine = get(&result, "machine")?.as_string().unwrap_or_default();
        let machine_zh = get(&result, "machine_zh")?.as_string().unwrap_or_default();
        let efficiency: Vec<bool> = get(&result, "core_kinds")?
            .as_string()
            .unwrap_or_default()
            .chars()
            .map(|k| k == 'E')
            .collect();
        let gantt = get(&result, "gantt")?.as_bool().unwrap_or(false);
        let f64a = |obj: &JsValue, key: &str| -> Result<Float64Array, JsError> {
            get(obj, key)?
                .dyn_into::<Float64Array>()
                .map_err(|_| JsError::new(&format!("{key} is not a Float64Array")))
        };
        let u32a = |obj: &JsValue, key: &str| -> Result<Uint32Array, JsError> {
            get(obj, key)?
                .dyn_into::<Uint32Array>()
                .map_err(|_| JsError::new(&format!("{key} is not a Uint32Array")))
        };
        let mut runs = Vec::new();
        for r in get(&result, "runs")?
            .dyn_into::<Array>()
            .map_err(|_| JsError::new("runs"))?
            .iter()
        {
            let seg_core = u32a(&r, "seg_core")?;
            let seg_task = u32a(&r, "seg_task")?;
            let seg_start = f64a(&r, "seg_start")?;
            let seg_end = f64a(&r, "seg_end")?;
            let n = seg_start.length() as usize;
            runs.push(Run {
                policy: get(&r, "policy")?.as_string().unwrap_or_default(),
                completion: f64a(&r, "completion")?,
                first_start: f64a(&r, "first_start")?,
                slices: u32a(&r, "slices")?,
                seg_js: Some((seg_core, seg_task, seg_start, seg_end)),
                loaded: 0,
                // Reserved, not zeroed: filled chunk by chunk.
                seg_task: Vec::with_capacity(n),
                seg_start: Vec::with_capacity(n),
                seg_end: Vec::with_capacity(n),
                lanes: vec![Vec::new(); cores],
                cdf_x: f64s(&r, "cdf_x")?,
                cdf_y: f64s(&r, "cdf_y")?,
                p50: num(&r, "p50")?,
                p95: num(&r, "p95")?,
                makespan: num(&r, "makespan")?,
            });
        }
        let long = num(&result, "long_class")?;
        let long_class = (long >= 0.0).then_some(long as u16);
        let hist = Hist {
            hi: num(&result, "hist_hi")?,
            cut: get(&result, "hist_cut")?.as_bool().unwrap_or(false),
            counts: u32s(&result, "hist_counts")?,
        };
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
            machine,
            machine_zh,
            efficiency,
            gantt,
            long_class,
            hist,
            horizon,
            t0: 0.0,
            t1: horizon,
            highlight: None,
        })
    }

    /// Copies the next chunk of segments from the worker's arrays into
    /// wasm memory; returns `true` once all are there. The page calls it
    /// in successive tasks, so a result of millions of slices never blocks
    /// the main thread in one piece; the Gantt chart appears when done.
    #[wasm_bindgen(js_name = loadSegments)]
    pub fn load_segments(&mut self) -> bool {
        let mut budget = LOAD_CHUNK;
        for run in &mut self.runs {
            let Some((core, task, start, end)) = &run.seg_js else {
                continue;
            };
            let n = start.length() as usize;
            let a = run.loaded;
            let b = (a + budget).min(n);
            let (a32, b32) = (a as u32, b as u32);
            run.seg_task.resize(b, 0);
            run.seg_start.resize(b, 0.0);
            run.seg_end.resize(b, 0.0);
            task.subarray(a32, b32).copy_to(&mut run.seg_task[a..b]);
            start.subarray(a32, b32).copy_to(&mut run.seg_start[a..b]);
            end.subarray(a32, b32).copy_to(&mut run.seg_end[a..b]);
            let cores = core.subarray(a32, b32).to_vec();
            for (i, c) in (a..b).zip(cores) {
                if let Some(l) = run.lanes.get_mut(c as usize) {
                    l.push(i as u32);
                }
            }
            run.loaded = b;
            budget -= b - a;
            if b == n {
                run.seg_js = None;
            }
            if budget == 0 {
                break;
            }
        }
        self.segments_loaded()
    }

    /// Whether every segment is in wasm memory (see `loadSegments`).
    #[wasm_bindgen(getter, js_name = segmentsLoaded)]
    pub fn segments_loaded(&self) -> bool {
        self.runs.iter().all(|r| r.seg_js.is_none())
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

    /// Draws the whole Gantt chart at once. The canvas's bitmap must already
    /// be sized to its CSS size times `dpr`.
    #[wasm_bindgen(js_name = drawGantt)]
    pub fn draw_gantt(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
    ) -> Result<(), JsError> {
        let mut from = 0;
        while from >= 0 {
            from = self.draw_gantt_part(canvas, dpr, dark, from as u32, u32::MAX)?;
        }
        Ok(())
    }

    /// Draws part of the Gantt chart, so that millions of slices never
    /// block the main thread in one task: `from` 0 clears the canvas and
    /// draws the axis and titles, then lanes (policy by policy, core by
    /// core) until about `budget` segments were visited. Returns the lane
    /// to continue from, or -1 when the chart is complete.
    #[wasm_bindgen(js_name = drawGanttPart)]
    pub fn draw_gantt_part(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
        from: u32,
        budget: u32,
    ) -> Result<i32, JsError> {
        let ctx = context(canvas)?;
        let theme = Theme::new(dark);
        let (w, h) = (canvas.width() as f64, canvas.height() as f64);
        ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok();
        let css_w = w / dpr;
        let x0 = PAD_L * dpr;
        let plot_w = (css_w - PAD_L - PAD_R).max(1.0) * dpr;
        let span = (self.t1 - self.t0).max(1e-12);
        let scale = plot_w / span;
        let lane_h = self.lane_h() * dpr;
        if from == 0 {
            ctx.clear_rect(0.0, 0.0, w, h);
            self.draw_frame(&ctx, &theme, dpr, w, css_w, x0, plot_w, scale)?;
        }
        let mut visited = 0u64;
        let lanes = self.cores;
        let mut k = from as usize;
        if lane_h < RASTER_BELOW_PX {
            // Lanes a few pixels tall: painted into a pixel buffer, one
            // put per part, instead of a canvas call per slice and pixel
            // (256 cores made that half a million calls).
            while k < self.runs.len() * lanes {
                let (b, c0) = (k / lanes, k % lanes);
                let run = &self.runs[b];
                let mut c1 = c0;
                let mut part = 0u64;
                while c1 < lanes && part < u64::from(budget) {
                    part += run.lanes[c1].len() as u64;
                    c1 += 1;
                }
                k = b * lanes + c1;
                if !self.gantt || run.seg_js.is_some() {
                    continue;
                }
                let lanes_top = b as f64 * self.block_h() * dpr + LABEL_H * dpr;
                visited += self.raster_lanes(
                    &ctx,
                    &theme,
                    run,
                    c0..c1,
                    x0,
                    scale,
                    lanes_top,
                    lane_h,
                    plot_w,
                )?;
                if visited >= u64::from(budget) && k < self.runs.len() * lanes {
                    return Ok(k as i32);
                }
            }
            return Ok(-1);
        }
        while k < self.runs.len() * lanes {
            let (b, c) = (k / lanes, k % lanes);
            let run = &self.runs[b];
            k += 1;
            if !self.gantt || run.seg_js.is_some() {
                continue;
            }
            let lanes_top = b as f64 * self.block_h() * dpr + LABEL_H * dpr;
            let y = lanes_top + c as f64 * lane_h;
            let inner_h = if lane_h >= 4.0 {
                lane_h - dpr.max(1.0)
            } else {
                lane_h
            };
            visited += self.draw_lane(&ctx, run, &run.lanes[c], x0, scale, y, inner_h, plot_w, dpr);
            if visited >= u64::from(budget) && k < self.runs.len() * lanes {
                return Ok(k as i32);
            }
        }
        Ok(-1)
    }

    /// The chart's frame: time grid and axis, policy titles, lane
    /// backgrounds (or the note that the Gantt is not drawn).
    #[allow(clippy::too_many_arguments)]
    fn draw_frame(
        &self,
        ctx: &CanvasRenderingContext2d,
        theme: &Theme,
        dpr: f64,
        w: f64,
        css_w: f64,
        x0: f64,
        plot_w: f64,
        scale: f64,
    ) -> Result<(), JsError> {
        let span = (self.t1 - self.t0).max(1e-12);
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
            let title = if !self.machine.is_empty() {
                let machine = match words.lang {
                    Lang::En => &self.machine,
                    Lang::Zh => &self.machine_zh,
                };
                format!("{} · {}", run.policy.to_ascii_uppercase(), machine)
            } else if self.cores > 1 {
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
            // The note starts after the title, whatever its length.
            let title_w = ctx
                .measure_text(&title)
                .map(|m| m.width())
                .unwrap_or(60.0 * dpr);
            if !self.gantt || run.seg_js.is_some() {
                ctx.set_font(&font(12.0));
                ctx.set_fill_style_str(&theme.muted.css());
                let note = if self.gantt {
                    "…"
                } else {
                    &words.gantt_too_many
                };
                ctx.fill_text(
                    note,
                    x0 + 12.0 * dpr + title_w + 10.0 * dpr,
                    top + 9.5 * dpr,
                )
                .ok();
                continue;
            }
            let lanes_top = top + LABEL_H * dpr;
            ctx.set_fill_style_str(&theme.grid.css());
            ctx.fill_rect(
                x0,
                lanes_top,
                plot_w,
                self.lane_h() * dpr * self.cores as f64,
            );
            // P and E lanes: a mark in the left margin, solid for a
            // performance core, pale for an efficiency core.
            if self.efficiency.iter().any(|&e| e) {
                let lane_h = self.lane_h() * dpr;
                for (c, &e) in self.efficiency.iter().enumerate() {
                    let colour = if e { &theme.muted } else { &theme.fg };
                    ctx.set_fill_style_str(&colour.css());
                    ctx.set_global_alpha(if e { 0.45 } else { 0.8 });
                    ctx.fill_rect(
                        x0 - 5.0 * dpr,
                        lanes_top + c as f64 * lane_h,
                        3.0 * dpr,
                        (lane_h - dpr).max(1.0),
                    );
                }
                ctx.set_global_alpha(1.0);
            }
        }
        Ok(())
    }

    /// Paints lanes `cores` of `run` into one pixel buffer and puts it on
    /// the canvas: each lane row shows, per device pixel, the class of the
    /// first slice that covers it (what the merged rectangles show too).
    #[allow(clippy::too_many_arguments)]
    fn raster_lanes(
        &self,
        ctx: &CanvasRenderingContext2d,
        theme: &Theme,
        run: &Run,
        cores: std::ops::Range<usize>,
        x0: f64,
        scale: f64,
        lanes_top: f64,
        lane_h: f64,
        plot_w: f64,
    ) -> Result<u64, JsError> {
        let width = plot_w.floor().max(1.0) as usize;
        let y_top = (lanes_top + cores.start as f64 * lane_h).round();
        let y_end = (lanes_top + cores.end as f64 * lane_h).round();
        let height = (y_end - y_top).max(1.0) as usize;
        let bg = theme.grid;
        let mut buf = vec![0u8; width * height * 4];
        for px in buf.chunks_exact_mut(4) {
            px.copy_from_slice(&[bg.0, bg.1, bg.2, 255]);
        }
        let mut row = vec![u16::MAX; width];
        let mut visited = 0u64;
        for c in cores.clone() {
            row.fill(u16::MAX);
            let lane = &run.lanes[c];
            let first = lane.partition_point(|&i| run.seg_end[i as usize] <= self.t0);
            let mut filled = 0usize;
            for &i in &lane[first..] {
                let i = i as usize;
                visited += 1;
                let (s0, e0) = (run.seg_start[i], run.seg_end[i]);
                if s0 >= self.t1 {
                    break;
                }
                let a = ((s0 - self.t0) * scale).floor().max(0.0) as usize;
                let b = (((e0 - self.t0) * scale).ceil() as usize)
                    .max(a + 1)
                    .min(width);
                let k = self.class[run.seg_task[i] as usize];
                for p in row.iter_mut().take(b).skip(a.max(filled)) {
                    *p = k;
                }
                filled = filled.max(b);
            }
            let r0 = ((lanes_top + c as f64 * lane_h).round() - y_top).max(0.0) as usize;
            let r1 = (((lanes_top + (c + 1) as f64 * lane_h).round() - y_top) as usize).min(height);
            for (x, &k) in row.iter().enumerate() {
                if k == u16::MAX {
                    continue;
                }
                let col = palette::class(k as usize);
                for y in r0..r1 {
                    let o = (y * width + x) * 4;
                    buf[o..o + 4].copy_from_slice(&[col.0, col.1, col.2, 255]);
                }
            }
        }
        let image = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
            wasm_bindgen::Clamped(&buf[..]),
            width as u32,
            height as u32,
        )
        .map_err(|_| JsError::new("ImageData"))?;
        ctx.put_image_data(&image, x0.round(), y_top)
            .map_err(|_| JsError::new("putImageData"))?;
        Ok(visited)
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
    ) -> u64 {
        let first = lane.partition_point(|&i| run.seg_end[i as usize] <= self.t0);
        let mut visited = 0u64;
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
            visited += 1;
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
        visited
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
        if run.seg_js.is_some() {
            return None;
        }
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
        let i = task;
        let work = self.work.get_index(i);
        let arrival = self.arrival.get_index(i);
        let completion = run.completion.get_index(i);
        let first_start = run.first_start.get_index(i);
        let latency = completion - arrival;
        let n = run.slices.get_index(i);
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
                ("work", &f(work)),
                ("arrival", &f(arrival)),
                ("first", &f(first_start)),
                ("done", &f(completion)),
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
                (
                    "core",
                    &match self.efficiency.get(core) {
                        Some(true) => format!("{core} (E)"),
                        Some(false) if !self.machine.is_empty() => format!("{core} (P)"),
                        _ => core.to_string(),
                    },
                ),
                ("start", &f(run.seg_start[seg])),
                ("end", &f(run.seg_end[seg])),
            ],
        ))
    }

    /// Latency CDF of every policy on shared axes, p50 and p95 marked
    /// (drawn by `plots::draw_cdf`).
    #[wasm_bindgen(js_name = drawCdf)]
    pub fn draw_cdf(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
    ) -> Result<(), JsError> {
        super::plots::draw_cdf(self, canvas, dpr, dark)
    }

    /// Histogram of task durations stacked by class (`plots::draw_histogram`).
    #[wasm_bindgen(js_name = drawHistogram)]
    pub fn draw_histogram(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
    ) -> Result<(), JsError> {
        super::plots::draw_histogram(self, canvas, dpr, dark)
    }

    /// Highlights `task` and zooms to it, with room either side (the
    /// trace's "longest tasks" table links here). Returns whether the task
    /// is in the result.
    #[wasm_bindgen(js_name = showTask)]
    pub fn show_task(&mut self, task: u32) -> bool {
        let Some(run) = self.runs.first() else {
            return false;
        };
        if task >= run.completion.length() {
            return false;
        }
        let (s, e) = (
            run.first_start.get_index(task),
            run.completion.get_index(task),
        );
        let pad = (e - s) * 1.5 + 1.0;
        self.set_window(s - pad, e + pad);
        self.highlight = Some(task);
        true
    }

    /// Removes the hover highlight.
    #[wasm_bindgen(js_name = clearHighlight)]
    pub fn clear_highlight(&mut self) {
        self.highlight = None;
    }
}
