//! The one Gantt on the page: the study's schedules, a scenario's cores
//! and its threads' states are each a [`Gantt`] made from the one wire
//! format ([`wire`]: [`Lanes`] as a small `meta` object and typed arrays
//! that `postMessage` transfers). JS only forwards pointer, wheel and key
//! events; this type answers what is under the pointer, zooms, pans and
//! draws ([`crate::chart::lanes`]).
//!
//! A study's segments are copied into wasm memory a chunk per call
//! ([`Gantt::load_segments`]) and drawn in parts ([`Gantt::draw_part`]), so
//! that a result of millions of slices never blocks the main thread long.
//!
//! A chart drawn over one of the same frame (the same lanes, words,
//! window, size, theme and language: [`super::shown`]) draws only the
//! blocks whose segments differ: a quantum edit leaves FIFO's lanes as
//! they are.

use std::cell::RefCell;

use js_sys::{Array, Float64Array, Object, Reflect, Uint16Array, Uint32Array};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

use super::canvas::{context, err, Canvas};
use super::chart_lang::lang;
use super::result::{set, to_js};
use super::shown;
use crate::chart::fingerprint::Fingerprint;
use crate::chart::gantt::{self, TaskFacts};
use crate::chart::lanes::{self, Chart, Index, Lanes, Layout, Mark, Meta, Segments, Window};
use crate::chart::legend;
use crate::chart::pen::Pen;
use crate::chart::theme::{Palette, Rgb};
use crate::experiment::RunOutcome;
use crate::text::{Filled, Lang};

/// Segments copied at a time by [`Gantt::load_segments`], which copies
/// chunks until [`LOAD_BUDGET_MS`] have passed: a chunk is well under a
/// millisecond, so a call ends soon after its budget on a fast machine and
/// on a slow one alike (a fixed count took 50 ms and more on a busy one).
const LOAD_CHUNK: usize = 10_000;

/// The main thread's time one [`Gantt::load_segments`] call may take, ms.
const LOAD_BUDGET_MS: f64 = 8.0;

/// What a study's tooltips tell about a task, sent beside its lanes.
#[derive(Serialize, Deserialize)]
struct TaskInfo {
    /// Class names (without the long mark).
    classes: Vec<Filled>,
    long_class: Option<u16>,
}

/// `lanes` as the wire object `{meta, lane, item, key, start, end}`.
pub(crate) fn wire(lanes: &Lanes) -> Object {
    let o = Object::new();
    let s = &lanes.segs;
    set(&o, "meta", &to_js(&lanes.meta));
    set(&o, "lane", &Uint32Array::from(&s.lane[..]).into());
    set(&o, "item", &Uint32Array::from(&s.item[..]).into());
    set(&o, "key", &Uint16Array::from(&s.key[..]).into());
    set(&o, "start", &Float64Array::from(&s.start[..]).into());
    set(&o, "end", &Float64Array::from(&s.end[..]).into());
    o
}

/// The study's lanes with what its tooltips need: per task work, arrival
/// and, per policy, completion, first start and slice count (left as typed
/// arrays: a tooltip reads one value each, copying a million into wasm
/// memory would be a long task for nothing). Without slices drawn there is
/// nothing to hover: no tasks are sent.
pub(crate) fn study_wire(lanes: &Lanes, outcome: &RunOutcome, generated: bool) -> Object {
    let o = wire(lanes);
    if !lanes.meta.drawn {
        return o;
    }
    let w = &outcome.workload;
    let tasks = Object::new();
    let info = TaskInfo {
        classes: gantt::class_names(w, generated),
        long_class: gantt::long_class(w),
    };
    set(&tasks, "info", &to_js(&info));
    set(&tasks, "work", &Float64Array::from(&w.work[..]).into());
    set(
        &tasks,
        "arrival",
        &Float64Array::from(&w.arrival[..]).into(),
    );
    let runs = Array::new();
    for r in &outcome.runs {
        let ro = Object::new();
        let s = &r.schedule;
        let completion: Vec<f64> = s.outcomes.iter().map(|o| o.completion).collect();
        let first: Vec<f64> = s.outcomes.iter().map(|o| o.first_start).collect();
        let slices: Vec<u32> = s.outcomes.iter().map(|o| o.slices).collect();
        set(
            &ro,
            "completion",
            &Float64Array::from(&completion[..]).into(),
        );
        set(&ro, "first_start", &Float64Array::from(&first[..]).into());
        set(&ro, "slices", &Uint32Array::from(&slices[..]).into());
        runs.push(&ro);
    }
    set(&tasks, "runs", &runs);
    set(&o, "tasks", &tasks.into());
    o
}

fn get(obj: &JsValue, key: &str) -> Result<JsValue, JsError> {
    Reflect::get(obj, &JsValue::from_str(key))
        .map_err(|_| JsError::new(&format!("lanes without {key}")))
}

fn typed<T: JsCast>(obj: &JsValue, key: &str) -> Result<T, JsError> {
    get(obj, key)?
        .dyn_into::<T>()
        .map_err(|_| JsError::new(&format!("lanes: {key} has the wrong type")))
}

/// A study's per-task arrays, read by tooltips only.
struct TaskTips {
    info: TaskInfo,
    work: Float64Array,
    arrival: Float64Array,
    runs: Vec<(Float64Array, Float64Array, Uint32Array)>,
}

/// The segments as they came, copied into `Gantt::lanes` chunk by chunk.
struct Incoming {
    lane: Uint32Array,
    item: Uint32Array,
    key: Uint16Array,
    start: Float64Array,
    end: Float64Array,
}

/// A lane chart on a canvas (see the module's documentation).
#[wasm_bindgen]
pub struct Gantt {
    lanes: Lanes,
    incoming: Option<Incoming>,
    loaded: usize,
    index: Index,
    window: Window,
    highlight: Option<u32>,
    tasks: Option<TaskTips>,
    /// The block of each lane, and what each block's segments draw
    /// (folded in as they are loaded).
    block_of: Vec<u32>,
    block_prints: Vec<Fingerprint>,
    /// The meta object as it came (blocks, lanes, keys, words).
    meta_print: Fingerprint,
    /// The drawing under way (see [`Drawing`]).
    drawing: RefCell<Option<Drawing>>,
}

/// A drawing in parts under way: what the canvas shows once it is done,
/// and the blocks it draws again (`None`: the whole chart).
struct Drawing {
    shown: String,
    stale: Option<Vec<bool>>,
    blocks: Vec<u32>,
}

#[wasm_bindgen]
impl Gantt {
    /// Takes a wire object (see [`wire`]).
    #[wasm_bindgen(constructor)]
    pub fn new(wire: JsValue) -> Result<Gantt, JsError> {
        let meta: Meta = serde_wasm_bindgen::from_value(get(&wire, "meta")?)
            .map_err(|e| JsError::new(&format!("lanes: {e}")))?;
        let incoming = Incoming {
            lane: typed(&wire, "lane")?,
            item: typed(&wire, "item")?,
            key: typed(&wire, "key")?,
            start: typed(&wire, "start")?,
            end: typed(&wire, "end")?,
        };
        let n = incoming.start.length() as usize;
        if [
            incoming.lane.length(),
            incoming.item.length(),
            incoming.key.length(),
            incoming.end.length(),
        ]
        .iter()
        .any(|&l| l as usize != n)
        {
            return Err(JsError::new("lanes: the segment arrays differ in length"));
        }
        // The frame: everything in meta but the blocks' titles, which
        // belong to their blocks, and the horizon, which the window covers
        // (see `start_drawing`).
        let meta_print = frame_print(&meta);
        let tasks = match get(&wire, "tasks")? {
            t if t.is_object() => {
                let info: TaskInfo = serde_wasm_bindgen::from_value(get(&t, "info")?)
                    .map_err(|e| JsError::new(&format!("lanes: {e}")))?;
                let mut runs = Vec::new();
                for r in typed::<Array>(&t, "runs")?.iter() {
                    runs.push((
                        typed(&r, "completion")?,
                        typed(&r, "first_start")?,
                        typed(&r, "slices")?,
                    ));
                }
                Some(TaskTips {
                    info,
                    work: typed(&t, "work")?,
                    arrival: typed(&t, "arrival")?,
                    runs,
                })
            }
            _ => None,
        };
        let index = Index::new(meta.lane_count());
        let block_of: Vec<u32> = meta
            .blocks
            .iter()
            .enumerate()
            .flat_map(|(b, block)| std::iter::repeat_n(b as u32, block.lanes.len()))
            .collect();
        let block_prints: Vec<Fingerprint> = meta
            .blocks
            .iter()
            .map(|b| {
                *Fingerprint::new()
                    .text(b.title.get(Lang::En))
                    .text(b.title.get(Lang::Zh))
            })
            .collect();
        let window = Window::new(meta.horizon);
        let segs = Segments {
            // Reserved, not zeroed: filled chunk by chunk.
            lane: Vec::with_capacity(n),
            item: Vec::with_capacity(n),
            key: Vec::with_capacity(n),
            start: Vec::with_capacity(n),
            end: Vec::with_capacity(n),
        };
        Ok(Gantt {
            lanes: Lanes { meta, segs },
            incoming: Some(incoming),
            loaded: 0,
            index,
            window,
            highlight: None,
            tasks,
            block_of,
            block_prints,
            meta_print,
            drawing: RefCell::new(None),
        })
    }

    /// Copies segments into wasm memory for at most about
    /// [`LOAD_BUDGET_MS`]; returns `true` once all are there. Call it in
    /// successive tasks: the chart shows "…" until done.
    #[wasm_bindgen(js_name = loadSegments)]
    pub fn load_segments(&mut self) -> bool {
        let started = js_sys::Date::now();
        while !self.load_chunk() {
            if js_sys::Date::now() - started >= LOAD_BUDGET_MS {
                return false;
            }
        }
        true
    }

    /// Copies the next [`LOAD_CHUNK`] segments; `true` once all are there.
    fn load_chunk(&mut self) -> bool {
        let Some(inc) = &self.incoming else {
            return true;
        };
        let n = inc.start.length() as usize;
        let (a, b) = (self.loaded, (self.loaded + LOAD_CHUNK).min(n));
        let (a32, b32) = (a as u32, b as u32);
        let s = &mut self.lanes.segs;
        s.lane.resize(b, 0);
        s.item.resize(b, 0);
        s.key.resize(b, 0);
        s.start.resize(b, 0.0);
        s.end.resize(b, 0.0);
        inc.lane.subarray(a32, b32).copy_to(&mut s.lane[a..b]);
        inc.item.subarray(a32, b32).copy_to(&mut s.item[a..b]);
        inc.key.subarray(a32, b32).copy_to(&mut s.key[a..b]);
        inc.start.subarray(a32, b32).copy_to(&mut s.start[a..b]);
        inc.end.subarray(a32, b32).copy_to(&mut s.end[a..b]);
        for i in a..b {
            self.index.add(i as u32, s.lane[i], s.start[i]);
            if let Some(&block) = self.block_of.get(s.lane[i] as usize) {
                self.block_prints[block as usize]
                    .word(u64::from(s.lane[i]))
                    .word(u64::from(s.item[i]))
                    .word(u64::from(s.key[i]))
                    .num(s.start[i])
                    .num(s.end[i]);
            }
        }
        self.loaded = b;
        if b == n {
            self.index.finish(&s.start);
            self.incoming = None;
        }
        self.incoming.is_none()
    }

    /// Whether every segment is in wasm memory (see `loadSegments`).
    #[wasm_bindgen(getter, js_name = segmentsLoaded)]
    pub fn segments_loaded(&self) -> bool {
        self.incoming.is_none()
    }

    /// Whether segments were kept (a run too large to draw keeps none).
    #[wasm_bindgen(getter)]
    pub fn drawn(&self) -> bool {
        self.lanes.meta.drawn
    }

    /// Slices in the chart.
    #[wasm_bindgen(getter)]
    pub fn segments(&self) -> u32 {
        self.incoming
            .as_ref()
            .map_or(self.lanes.segs.len(), |i| i.start.length() as usize) as u32
    }

    /// The time the chart spans, ms.
    pub fn horizon(&self) -> f64 {
        self.window.horizon
    }

    /// The visible window `[t0, t1]`, ms.
    #[wasm_bindgen(getter)]
    pub fn t0(&self) -> f64 {
        self.window.t0
    }

    #[wasm_bindgen(getter)]
    pub fn t1(&self) -> f64 {
        self.window.t1
    }

    /// Shows `[t0, t1]` (clamped into the chart): keeps the zoom when a new
    /// result of the same shape arrives.
    #[wasm_bindgen(js_name = setWindow)]
    pub fn set_window(&mut self, t0: f64, t1: f64) {
        self.window.set(t0, t1);
    }

    /// Shows the whole chart.
    pub fn reset(&mut self) {
        self.window.reset();
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the time under `x` (CSS px
    /// from the canvas's left edge) in place; `width` is the canvas's CSS width.
    pub fn zoom(&mut self, factor: f64, x: f64, width: f64) {
        let l = self.layout(width);
        self.window.zoom(&l, factor, x);
    }

    /// Pans by `dx` CSS px (positive shows earlier times).
    pub fn pan(&mut self, dx: f64, width: f64) {
        let l = self.layout(width);
        self.window.pan(&l, dx);
    }

    /// The chart's height in CSS px at `width` CSS px.
    pub fn height(&self, width: f64) -> f64 {
        self.layout(width).height
    }

    /// The legend's entries, one per line (the canvas's description).
    #[wasm_bindgen(js_name = legendText)]
    pub fn legend_text(&self) -> String {
        legend::text(&self.lanes.meta.legend(lang()))
    }

    /// Draws the whole chart (the canvas's bitmap already sized to its CSS
    /// size times `dpr`).
    pub fn draw(&self, canvas: &HtmlCanvasElement, dpr: f64, dark: bool) -> Result<(), JsError> {
        let mut from = 0;
        while from >= 0 {
            from = self.draw_part(canvas, dpr, dark, from as u32, u32::MAX)?;
        }
        Ok(())
    }

    /// Draws part of the chart: `from` 0 starts a drawing — over a canvas
    /// that shows a chart of the same frame, of only the blocks whose
    /// segments differ; else it clears the canvas and draws the axis,
    /// titles and legend — then lanes until about `budget` segments were
    /// visited. Returns the lane to continue from, or -1 when done.
    #[wasm_bindgen(js_name = drawPart)]
    pub fn draw_part(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
        from: u32,
        budget: u32,
    ) -> Result<i32, JsError> {
        if from == 0 {
            self.start_drawing(canvas, dpr, dark);
        }
        let drawing = self.drawing.borrow();
        let stale = drawing.as_ref().and_then(|d| d.stale.as_deref());
        let mut backend = if from == 0 && stale.is_none() {
            Canvas::clear(canvas)?
        } else {
            Canvas::open(canvas)?
        };
        let layout = self.layout(f64::from(canvas.width()) / dpr);
        if let (0, Some(stale)) = (from, stale) {
            // The stale blocks' title rows, cleared to the device pixel.
            let ctx = context(canvas)?;
            for (b, _) in stale.iter().enumerate().filter(|(_, &s)| s) {
                let (top, lanes_top) = layout.blocks[b];
                let (y0, y1) = ((top * dpr).floor(), (lanes_top * dpr).ceil());
                ctx.clear_rect(0.0, y0, f64::from(canvas.width()), y1 - y0);
            }
        }
        let mut pen = Pen::new(&mut backend, dpr, Palette::dark(dark), lang());
        pen.raster = true;
        let chart = self.chart();
        let next = match stale {
            Some(stale) => lanes::redraw_blocks(&mut pen, &chart, &layout, stale, from, budget),
            None => lanes::draw_part(&mut pen, &chart, &layout, from, budget),
        }
        .map_err(err)?;
        if next < 0 {
            if let Some(d) = drawing.as_ref() {
                shown::set(canvas, Some(&d.shown));
            }
        }
        Ok(next)
    }

    /// The blocks the drawing last begun draws (all of them, only those
    /// that changed, or none while the segments load): the page counts
    /// them (`data-block-draws`).
    #[wasm_bindgen(js_name = drawnBlocks)]
    pub fn drawn_blocks(&self) -> Vec<u32> {
        self.drawing
            .borrow()
            .as_ref()
            .map_or_else(Vec::new, |d| d.blocks.clone())
    }

    /// What is under (`x`, `y`) CSS px on a canvas `width` CSS px wide, as
    /// tooltip text: a slice (highlighting its task or thread) or a
    /// shortened label's full text; `None` (no highlight) over nothing.
    pub fn hit(&mut self, x: f64, y: f64, width: f64) -> Option<String> {
        self.highlight = None;
        let layout = self.layout(width);
        let chart = self.chart();
        let Some(h) = chart.hit(&layout, x, y) else {
            return chart.note_at(&layout, x, y, lang());
        };
        let s = &self.lanes.segs;
        let item = s.item[h.seg];
        self.highlight = Some(item);
        Some(self.tip(&h))
    }

    /// Highlights study task `task` and shows it with room either side
    /// (the trace's "longest tasks" table links here). Returns whether the
    /// chart has that task.
    #[wasm_bindgen(js_name = showTask)]
    pub fn show_task(&mut self, task: u32) -> bool {
        let Some((completion, first_start, _)) = self.tasks.as_ref().and_then(|t| t.runs.first())
        else {
            return false;
        };
        if task >= completion.length() {
            return false;
        }
        let (s, e) = (first_start.get_index(task), completion.get_index(task));
        let pad = (e - s) * 1.5 + 1.0;
        self.window.set(s - pad, e + pad);
        self.highlight = Some(task);
        true
    }

    /// Removes the hover highlight.
    #[wasm_bindgen(js_name = clearHighlight)]
    pub fn clear_highlight(&mut self) {
        self.highlight = None;
    }
}

/// What the frame of `meta` draws: every field but the blocks' titles and
/// the horizon.
fn frame_print(meta: &Meta) -> Fingerprint {
    let mut f = Fingerprint::new();
    let both = |f: &mut Fingerprint, t: &Filled| {
        f.text(t.get(Lang::En)).text(t.get(Lang::Zh));
    };
    let colour = |f: &mut Fingerprint, c: Rgb| {
        f.word(u64::from(c.0) << 16 | u64::from(c.1) << 8 | u64::from(c.2));
    };
    f.word(meta.blocks.len() as u64);
    for b in &meta.blocks {
        f.text(&b.name).word(u64::from(b.title.is_empty()));
        f.word(u64::from(b.color.is_some()));
        if let Some(c) = b.color {
            colour(&mut f, c);
        }
        f.word(b.lanes.len() as u64);
        for l in &b.lanes {
            both(&mut f, &l.label);
            f.word(l.mark as u64);
        }
    }
    f.word(meta.keys.len() as u64);
    for k in &meta.keys {
        both(&mut f, &k.label);
        colour(&mut f, k.color);
        f.word(u64::from(k.striped)).word(u64::from(k.legend));
    }
    f.word(u64::from(meta.blank.is_some()));
    if let Some(b) = &meta.blank {
        both(&mut f, b);
    }
    f.word(meta.items.len() as u64);
    for i in &meta.items {
        both(&mut f, i);
    }
    f.word(u64::from(meta.drawn));
    both(&mut f, &meta.note);
    f
}

impl Gantt {
    /// Begins a drawing: compares what it will show with what the canvas
    /// shows (`frame:block,block,…`, hex fingerprints) and keeps which
    /// blocks to draw.
    fn start_drawing(&self, canvas: &HtmlCanvasElement, dpr: f64, dark: bool) {
        let ready = self.lanes.meta.drawn && self.incoming.is_none();
        let mut frame = shown::surface(canvas, dpr, dark, lang());
        // The window without the last 20 of its 52 bits of mantissa
        // (about 2e-10 of its value): policies' makespans that differ in
        // their last bits (sums of other slices) map every slice to the
        // same pixels. Values either side of a cut differ: a full drawing.
        let coarse = |t: f64| t.to_bits() >> 20;
        frame
            .word(self.meta_print.value())
            .word(coarse(self.window.t0))
            .word(coarse(self.window.t1))
            .word(coarse(self.window.horizon))
            .word(u64::from(ready))
            .word(self.highlight.map_or(u64::MAX, u64::from));
        let frame = frame.hex();
        let blocks: Vec<String> = self.block_prints.iter().map(Fingerprint::hex).collect();
        let before = shown::get(canvas);
        let stale = before
            .as_deref()
            .and_then(|b| b.split_once(':'))
            .filter(|(f, _)| ready && *f == frame)
            .map(|(_, old)| old.split(',').collect::<Vec<_>>())
            .filter(|old| old.len() == blocks.len())
            .map(|old| {
                old.iter()
                    .zip(&blocks)
                    .map(|(o, n)| o != n)
                    .collect::<Vec<bool>>()
            });
        let drawn: Vec<u32> = match (&stale, ready) {
            (_, false) => Vec::new(),
            (Some(st), true) => (0..st.len() as u32).filter(|&b| st[b as usize]).collect(),
            (None, true) => (0..blocks.len() as u32).collect(),
        };
        // Unknown until this drawing is complete.
        shown::set(canvas, None);
        *self.drawing.borrow_mut() = Some(Drawing {
            shown: format!("{frame}:{}", blocks.join(",")),
            stale,
            blocks: drawn,
        });
    }

    fn layout(&self, width: f64) -> Layout {
        lanes::layout(&self.lanes.meta, width, lang())
    }

    fn chart(&self) -> Chart<'_> {
        Chart {
            lanes: &self.lanes,
            index: &self.index,
            window: self.window,
            ready: self.incoming.is_none(),
            highlight: self.highlight,
        }
    }

    fn tip(&self, h: &lanes::Hit) -> String {
        let lang = lang();
        let meta = &self.lanes.meta;
        let s = &self.lanes.segs;
        let block = &meta.blocks[h.block];
        let lane = &block.lanes[h.lane];
        let item = s.item[h.seg];
        let key = meta.keys.get(s.key[h.seg] as usize);
        let Some(t) = &self.tasks else {
            let thread = meta.items.get(item as usize).map_or("?", |t| t.get(lang));
            let what = key.map_or("", |k| k.label.get(lang));
            return gantt::thread_tip(
                lang,
                what,
                thread,
                lane.label.get(lang),
                s.start[h.seg],
                s.end[h.seg],
            );
        };
        let i = item;
        let class = s.key[h.seg];
        let run = t.runs.get(h.block);
        let at = |a: Option<&Float64Array>| a.map_or(f64::NAN, |a| a.get_index(i));
        gantt::task_tip(
            lang,
            &TaskFacts {
                task: item,
                class: t
                    .info
                    .classes
                    .get(class as usize)
                    .map_or("?", |c| c.get(lang)),
                long: t.info.long_class == Some(class),
                work: t.work.get_index(i),
                arrival: t.arrival.get_index(i),
                first_start: at(run.map(|r| &r.1)),
                completion: at(run.map(|r| &r.0)),
                slices: run.map_or(0, |r| r.2.get_index(i)),
                policy: &block.name,
                core: match lane.mark {
                    Mark::Efficiency => format!("{} (E)", h.lane),
                    Mark::Performance => format!("{} (P)", h.lane),
                    Mark::None => h.lane.to_string(),
                },
                start: s.start[h.seg],
                end: s.end[h.seg],
            },
        )
    }
}
