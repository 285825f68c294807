//! The one lane chart: the study's Gantt (a block per policy, a lane per
//! core), a scenario's cores coloured by QoS and its threads' states are
//! all [`Lanes`] — one wire format from the worker to the page, one layout,
//! one renderer, one hit test.
//!
//! Drawing cost is bounded by the width, not the number of slices: each
//! lane's segments are in time order, so the visible ones are found by
//! binary search, neighbouring slices narrower than a few pixels are merged
//! into one rectangle per colour, and on a canvas lanes too thin for gaps
//! are painted as a bitmap. A chart of millions of slices is drawn in parts
//! ([`draw_part`]) so that no part blocks a page for long.

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::DrawingBackend;
use serde::{Deserialize, Serialize};

use super::axis::{self, Along, LABEL_SIZE};
use super::legend::{self, Item, Swatch};
use super::pen::{anchor, shorten, text_width, DrawResult, Pen, Spot};
use super::theme::{Palette, Rgb};
use crate::text::Filled;
use crate::text::Lang;

/// Left and right padding without lane labels, CSS px.
const PAD: f64 = 8.0;
/// A block's title row.
const TITLE_H: f64 = 18.0;
/// Above a block without a title.
const BARE_H: f64 = 6.0;
const BLOCK_GAP: f64 = 8.0;
const AXIS_H: f64 = 22.0;
/// Slices at least this wide (device px) are drawn one by one with a gap.
const DISTINCT_PX: i32 = 4;
/// Lanes thinner than this (device px) are painted as a bitmap where the
/// backend can (see [`Pen::raster`]).
const RASTER_BELOW_PX: f64 = 4.0;
/// Lane labels are cut to this width.
const LABEL_MAX: f64 = 150.0;

/// A lane's mark in the left margin: a performance or efficiency core.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    #[default]
    None,
    Performance,
    Efficiency,
}

/// One lane: its label (may be empty) and mark.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Lane {
    pub label: Filled,
    pub mark: Mark,
}

/// A group of lanes under one title (the study: one per policy).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Block {
    /// A short name for tooltips (the policy).
    pub name: String,
    pub title: Filled,
    /// A swatch before the title (the policy's colour).
    pub color: Option<Rgb>,
    pub lanes: Vec<Lane>,
}

/// What a segment's colour means.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Key {
    pub label: Filled,
    pub color: Rgb,
    /// Drawn with a dark band on top (the study's long class).
    pub striped: bool,
    /// Listed in the legend.
    pub legend: bool,
}

/// Everything but the segments: small, sent as one object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    pub blocks: Vec<Block>,
    pub keys: Vec<Key>,
    /// The legend entry for an empty lane (a thread state chart's
    /// "blocked"), if it means something.
    pub blank: Option<Filled>,
    /// Names of the segments' items (threads) for tooltips; empty when
    /// items are study tasks.
    pub items: Vec<Filled>,
    /// The time the chart spans, ms.
    pub horizon: f64,
    /// Whether segments were kept (a run too large keeps none: a note says so).
    pub drawn: bool,
    pub note: Filled,
}

/// The segments, one entry per slice: which lane (counted over all
/// blocks), which item (task or thread), which key (colour), when.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Segments {
    pub lane: Vec<u32>,
    pub item: Vec<u32>,
    pub key: Vec<u16>,
    pub start: Vec<f64>,
    pub end: Vec<f64>,
}

impl Segments {
    pub(crate) fn push(&mut self, lane: u32, item: u32, key: u16, start: f64, end: f64) {
        self.lane.push(lane);
        self.item.push(item);
        self.key.push(key);
        self.start.push(start);
        self.end.push(end);
    }

    pub(crate) fn len(&self) -> usize {
        self.start.len()
    }
}

/// A lane chart's data: the one wire format.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lanes {
    pub meta: Meta,
    pub segs: Segments,
}

impl Meta {
    pub(crate) fn lane_count(&self) -> usize {
        self.blocks.iter().map(|b| b.lanes.len()).sum()
    }

    /// The legend: the keys marked for it, then the blank lane's meaning.
    pub(crate) fn legend(&self, lang: Lang) -> Vec<Item> {
        let mut items: Vec<Item> = self
            .keys
            .iter()
            .filter(|k| k.legend)
            .map(|k| {
                let swatch = if k.striped {
                    Swatch::Striped
                } else {
                    Swatch::Box
                };
                Item::new(k.label.get(lang), k.color, swatch)
            })
            .collect();
        if let Some(b) = &self.blank {
            items.push(Item::new(b.get(lang), Rgb(0, 0, 0), Swatch::Hollow));
        }
        items
    }
}

/// Per lane, the indices of its segments in time order.
#[derive(Clone, Debug, Default)]
pub struct Index {
    pub by_lane: Vec<Vec<u32>>,
    last: Vec<f64>,
    unsorted: Vec<bool>,
}

impl Index {
    pub(crate) fn new(lanes: usize) -> Index {
        Index {
            by_lane: vec![Vec::new(); lanes],
            last: vec![f64::NEG_INFINITY; lanes],
            unsorted: vec![false; lanes],
        }
    }

    /// Adds segment `i` of `lane` starting at `start` (any order; see
    /// [`Index::finish`]).
    pub(crate) fn add(&mut self, i: u32, lane: u32, start: f64) {
        let l = lane as usize;
        if let Some(list) = self.by_lane.get_mut(l) {
            list.push(i);
            if start < self.last[l] {
                self.unsorted[l] = true;
            }
            self.last[l] = self.last[l].max(start);
        }
    }

    /// Sorts the lanes whose segments came out of order.
    pub(crate) fn finish(&mut self, start: &[f64]) {
        for (l, list) in self.by_lane.iter_mut().enumerate() {
            if self.unsorted[l] {
                // By start, then by index (as they came): a stable sort's order.
                list.sort_unstable_by(|&a, &b| {
                    start[a as usize]
                        .total_cmp(&start[b as usize])
                        .then(a.cmp(&b))
                });
                self.unsorted[l] = false;
            }
        }
    }

    pub fn build(lanes: &Lanes) -> Index {
        let s = &lanes.segs;
        let mut ix = Index::new(lanes.meta.lane_count());
        for i in 0..s.len() {
            ix.add(i as u32, s.lane[i], s.start[i]);
        }
        ix.finish(&s.start);
        ix
    }
}

/// The visible time window `[t0, t1]` of a chart spanning `[0, horizon]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    pub t0: f64,
    pub t1: f64,
    pub horizon: f64,
}

impl Window {
    pub fn new(horizon: f64) -> Window {
        let horizon = if horizon.is_finite() && horizon > 0.0 {
            horizon
        } else {
            1e-9
        };
        Window {
            t0: 0.0,
            t1: horizon,
            horizon,
        }
    }

    /// Shows `[t0, t1]`, clamped into the chart (at least a millionth of it).
    pub(crate) fn set(&mut self, t0: f64, t1: f64) {
        let min_span = (self.horizon * 1e-6).max(1e-6);
        let span = (t1 - t0).clamp(min_span, self.horizon.max(min_span));
        let t0 = if t0.is_finite() { t0 } else { 0.0 };
        let t0 = t0.clamp(0.0, (self.horizon - span).max(0.0));
        self.t0 = t0;
        self.t1 = t0 + span;
    }

    pub(crate) fn reset(&mut self) {
        self.t0 = 0.0;
        self.t1 = self.horizon;
    }

    /// The time under `x` CSS px.
    pub fn time_at(&self, layout: &Layout, x: f64) -> f64 {
        self.t0 + (x - layout.left) / (layout.right - layout.left).max(1.0) * (self.t1 - self.t0)
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the time under `x` in place.
    pub fn zoom(&mut self, layout: &Layout, factor: f64, x: f64) {
        let at = self.time_at(layout, x);
        let span = (self.t1 - self.t0) / factor.max(1e-3);
        let frac = ((x - layout.left) / (layout.right - layout.left).max(1.0)).clamp(0.0, 1.0);
        self.set(at - frac * span, at - frac * span + span);
    }

    /// Pans by `dx` CSS px (positive shows earlier times).
    pub(crate) fn pan(&mut self, layout: &Layout, dx: f64) {
        let dt = dx / (layout.right - layout.left).max(1.0) * (self.t1 - self.t0);
        self.set(self.t0 - dt, self.t1 - dt);
    }
}

/// Where everything goes for a width, CSS px.
#[derive(Clone, Debug)]
pub struct Layout {
    pub width: f64,
    /// The lanes' left and right edges.
    pub left: f64,
    pub right: f64,
    pub lane_h: f64,
    /// Per block: its top and its lanes' top.
    pub blocks: Vec<(f64, f64)>,
    pub axis_y: f64,
    pub legend_y: f64,
    pub height: f64,
    pub legend: Vec<Item>,
    /// Lane labels as drawn (shortened to fit), per lane over all blocks.
    labels: Vec<String>,
}

/// Lays out `meta` `width` CSS px wide in `lang`.
pub fn layout(meta: &Meta, width: f64, lang: Lang) -> Layout {
    let width = if width.is_finite() {
        width.max(60.0)
    } else {
        600.0
    };
    let labels: Vec<String> = meta
        .blocks
        .iter()
        .flat_map(|b| &b.lanes)
        .map(|l| shorten(l.label.get(lang), LABEL_SIZE, LABEL_MAX.min(width * 0.3)))
        .collect();
    let label_w = labels
        .iter()
        .map(|l| text_width(l, LABEL_SIZE))
        .fold(0.0, f64::max);
    let left = if label_w > 0.0 {
        PAD + label_w + 8.0
    } else {
        PAD
    };
    let right = (width - PAD).max(left + 1.0);
    let most = meta
        .blocks
        .iter()
        .map(|b| b.lanes.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let lane_h = (160.0 / most as f64).clamp(1.0, 22.0).floor();
    let mut blocks = Vec::with_capacity(meta.blocks.len());
    let mut y = 0.0;
    for b in &meta.blocks {
        let title_h = if b.title.is_empty() { BARE_H } else { TITLE_H };
        blocks.push((y, y + title_h));
        y += title_h + lane_h * b.lanes.len() as f64 + BLOCK_GAP;
    }
    let axis_y = y;
    let legend_y = axis_y + AXIS_H;
    let legend = meta.legend(lang);
    let legend_h = legend::height(&legend, width - 2.0 * PAD);
    Layout {
        width,
        left,
        right,
        lane_h,
        blocks,
        axis_y,
        legend_y,
        height: legend_y + legend_h + if legend_h > 0.0 { 4.0 } else { 0.0 },
        legend,
        labels,
    }
}

/// A lane chart ready to draw: data, index, window and the highlighted item.
pub struct Chart<'a> {
    pub lanes: &'a Lanes,
    pub index: &'a Index,
    pub window: Window,
    /// Whether the segments are all in place (a large result's arrive in
    /// parts; until then the blocks say "…").
    pub ready: bool,
    pub highlight: Option<u32>,
}

/// What is under a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    pub block: usize,
    /// The lane within its block.
    pub lane: usize,
    /// The segment's index.
    pub seg: usize,
}

impl<'a> Chart<'a> {
    /// The first lane of each block, counted over all blocks.
    fn first_lane(&self, block: usize) -> usize {
        self.lanes.meta.blocks[..block]
            .iter()
            .map(|b| b.lanes.len())
            .sum()
    }

    fn lanes_drawn(&self) -> bool {
        self.lanes.meta.drawn && self.ready
    }

    /// The segment under `(x, y)` CSS px, if any.
    pub fn hit(&self, layout: &Layout, x: f64, y: f64) -> Option<Hit> {
        if !self.lanes_drawn() || x < layout.left || x > layout.right {
            return None;
        }
        let meta = &self.lanes.meta;
        let block = layout
            .blocks
            .partition_point(|&(top, _)| y >= top)
            .checked_sub(1)?;
        let lanes_top = layout.blocks[block].1;
        let n = meta.blocks[block].lanes.len();
        let in_block = y - lanes_top;
        if in_block < 0.0 || in_block >= layout.lane_h * n as f64 {
            return None;
        }
        let lane = (in_block / layout.lane_h) as usize;
        let list = self.index.by_lane.get(self.first_lane(block) + lane)?;
        let s = &self.lanes.segs;
        let t = self.window.time_at(layout, x);
        let tol = 2.0 / (layout.right - layout.left).max(1.0) * (self.window.t1 - self.window.t0);
        let i = list.partition_point(|&i| s.end[i as usize] < t - tol);
        let &seg = list.get(i)?;
        if s.start[seg as usize] > t + tol {
            return None;
        }
        Some(Hit {
            block,
            lane,
            seg: seg as usize,
        })
    }

    /// The full text of a shortened label under `(x, y)` (a legend entry or
    /// a lane label).
    pub(crate) fn note_at(&self, layout: &Layout, x: f64, y: f64, lang: Lang) -> Option<String> {
        spots(self.lanes, layout, lang)
            .into_iter()
            .find(|s| s.contains(x, y))
            .map(|s| s.text)
    }
}

/// The notes a chart leaves for pointers: shortened lane labels and legend
/// entries, with their full text.
fn spots(lanes: &Lanes, layout: &Layout, lang: Lang) -> Vec<Spot> {
    let mut out = legend::spots(
        &layout.legend,
        PAD,
        layout.legend_y,
        layout.width - 2.0 * PAD,
    );
    let mut k = 0;
    for (b, block) in lanes.meta.blocks.iter().enumerate() {
        for (c, lane) in block.lanes.iter().enumerate() {
            let full = lane.label.get(lang);
            if layout.labels[k] != *full {
                let y = layout.blocks[b].1 + c as f64 * layout.lane_h;
                out.push(Spot {
                    x: 0.0,
                    y,
                    w: layout.left,
                    h: layout.lane_h,
                    text: full.to_string(),
                });
            }
            k += 1;
        }
    }
    out
}

/// Draws the whole chart.
pub fn draw<B: DrawingBackend>(
    pen: &mut Pen<B>,
    chart: &Chart,
    layout: &Layout,
) -> DrawResult<(), B> {
    let mut from = 0;
    loop {
        match draw_part(pen, chart, layout, from, u32::MAX)? {
            next if next < 0 => return Ok(()),
            next => from = next as u32,
        }
    }
}

/// Draws part of the chart: `from` 0 draws the frame (axis, titles, lane
/// backgrounds, legend) and then lanes, block by block and lane by lane,
/// until about `budget` segments were visited. Returns the lane to
/// continue from, or -1 when the chart is complete.
pub fn draw_part<B: DrawingBackend>(
    pen: &mut Pen<B>,
    chart: &Chart,
    layout: &Layout,
    from: u32,
    budget: u32,
) -> DrawResult<i32, B> {
    if from == 0 {
        draw_frame(pen, chart, layout)?;
    }
    draw_lanes(pen, chart, layout, from, budget, None)
}

/// Draws again, over a chart of the same frame (layout, window, lanes,
/// keys, theme) already on the canvas, only the blocks marked in `stale`:
/// each one's title row (which the caller has cleared: a backend cannot
/// clear) with the time grid under it, its lanes' background, its lanes. The other blocks'
/// pixels stay as they are. Parts and the returned value as in
/// [`draw_part`]; `from` 0 starts.
pub fn redraw_blocks<B: DrawingBackend>(
    pen: &mut Pen<B>,
    chart: &Chart,
    layout: &Layout,
    stale: &[bool],
    from: u32,
    budget: u32,
) -> DrawResult<i32, B> {
    draw_lanes(pen, chart, layout, from, budget, Some(stale))
}

/// The lanes from global lane `from`, of every block or (`only`) of the
/// marked blocks with their background first.
fn draw_lanes<B: DrawingBackend>(
    pen: &mut Pen<B>,
    chart: &Chart,
    layout: &Layout,
    from: u32,
    budget: u32,
    only: Option<&[bool]>,
) -> DrawResult<i32, B> {
    let meta = &chart.lanes.meta;
    let total = meta.lane_count();
    if !chart.lanes_drawn() {
        return Ok(-1);
    }
    let lane_h = layout.lane_h * pen.scale;
    let x0 = pen.dx(layout.left);
    let plot_w = ((layout.right - layout.left) * pen.scale).max(1.0);
    let mut visited = 0u64;
    let mut k = from as usize;
    // Blocks and their first lane.
    let starts: Vec<usize> = meta
        .blocks
        .iter()
        .scan(0, |acc, b| {
            let s = *acc;
            *acc += b.lanes.len();
            Some(s)
        })
        .collect();
    while k < total {
        let b = starts.partition_point(|&s| s <= k) - 1;
        let c0 = k - starts[b];
        let n = meta.blocks[b].lanes.len();
        if let Some(only) = only {
            if !only.get(b).copied().unwrap_or(true) {
                k = starts[b] + n;
                continue;
            }
            if c0 == 0 {
                // The block's title row (the caller cleared it) over the
                // time grid, then the title and the lanes' background.
                let (top, lanes_top) = layout.blocks[b];
                let hair = 1.0 / pen.scale;
                let w = chart.window;
                let grid = pen.theme.grid.solid();
                for t in
                    axis::time_ticks(w.t0, w.t1, layout.left, layout.right, (0.0, layout.width))
                {
                    let x = t.at.clamp(layout.left, layout.right - hair);
                    pen.fill(x, top, x + hair, lanes_top, grid)?;
                }
                block_head(pen, chart, layout, b)?;
            }
        }
        let lanes_top = pen.dy(layout.blocks[b].1);
        if pen.raster && lane_h < RASTER_BELOW_PX {
            // Lanes a few pixels tall: one bitmap per part instead of a
            // call per slice and pixel.
            let mut c1 = c0;
            let mut part = 0u64;
            while c1 < n && part < u64::from(budget) {
                part += chart.index.by_lane[starts[b] + c1].len() as u64;
                c1 += 1;
            }
            visited += raster(pen, chart, starts[b], c0..c1, x0, plot_w, lanes_top, lane_h)?;
            k = starts[b] + c1;
        } else {
            let y = lanes_top + c0 as f64 * lane_h;
            let inner = if lane_h >= 4.0 {
                lane_h - pen.scale.max(1.0)
            } else {
                lane_h
            };
            visited += lane(pen, chart, k, x0, plot_w, y, inner)?;
            k += 1;
        }
        if visited >= u64::from(budget) && k < total {
            return Ok(k as i32);
        }
    }
    Ok(-1)
}

fn draw_frame<B: DrawingBackend>(
    pen: &mut Pen<B>,
    chart: &Chart,
    layout: &Layout,
) -> DrawResult<(), B> {
    let theme: Palette = pen.theme;
    let meta = &chart.lanes.meta;
    let w = chart.window;
    let hair = 1.0 / pen.scale;
    // Time grid and axis, under everything.
    let ticks = axis::time_ticks(w.t0, w.t1, layout.left, layout.right, (0.0, layout.width));
    for t in &ticks {
        let x = t.at.clamp(layout.left, layout.right - hair);
        pen.fill(x, 0.0, x + hair, layout.axis_y, theme.grid.solid())?;
        let (a, _) = axis::label_span(t, (0.0, layout.width), &Along::X);
        pen.text(
            &t.label,
            a,
            layout.axis_y + 4.0,
            LABEL_SIZE,
            theme.muted,
            anchor(HPos::Left, VPos::Top),
        )?;
    }
    let mut k = 0;
    for (b, block) in meta.blocks.iter().enumerate() {
        let lanes_top = layout.blocks[b].1;
        block_head(pen, chart, layout, b)?;
        for (c, l) in block.lanes.iter().enumerate() {
            let y = lanes_top + c as f64 * layout.lane_h;
            let label = &layout.labels[k];
            k += 1;
            if !label.is_empty() {
                pen.text(
                    label,
                    layout.left - 8.0,
                    y + layout.lane_h / 2.0,
                    LABEL_SIZE,
                    theme.fg,
                    anchor(HPos::Right, VPos::Center),
                )?;
            }
            // P and E lanes: a mark in the margin, solid for a performance
            // core, pale for an efficiency core.
            let (color, alpha) = match l.mark {
                Mark::None => continue,
                Mark::Performance => (theme.fg, 0.8),
                Mark::Efficiency => (theme.muted, 0.45),
            };
            let a = (
                pen.dx(layout.left - 5.0).round() as i32,
                pen.dy(y).round() as i32,
            );
            let b2 = (
                a.0 + (3.0 * pen.scale).round() as i32,
                a.1 + ((layout.lane_h * pen.scale - pen.scale).max(1.0)).round() as i32,
            );
            pen.fill_px(a, b2, color.alpha(alpha))?;
        }
    }
    legend::draw(
        pen,
        &layout.legend,
        PAD,
        layout.legend_y,
        layout.width - 2.0 * PAD,
    )?;
    Ok(())
}

/// A block's title row (swatch, title, note) and, once its lanes are
/// ready, their background: what the frame draws of block `b` over the
/// time grid.
fn block_head<B: DrawingBackend>(
    pen: &mut Pen<B>,
    chart: &Chart,
    layout: &Layout,
    b: usize,
) -> DrawResult<(), B> {
    let theme: Palette = pen.theme;
    let lang = pen.lang;
    let meta = &chart.lanes.meta;
    let block = &meta.blocks[b];
    let (top, lanes_top) = layout.blocks[b];
    let n = block.lanes.len();
    let mut tx = layout.left;
    if !block.title.is_empty() {
        if let Some(c) = block.color {
            pen.fill(
                layout.left,
                top + 5.0,
                layout.left + 8.0,
                top + 13.0,
                c.solid(),
            )?;
            tx += 12.0;
        }
        let title = block.title.get(lang);
        pen.bold(
            title,
            tx,
            top + 9.5,
            12.0,
            theme.fg,
            anchor(HPos::Left, VPos::Center),
        )?;
        tx += text_width(title, 12.0) * 1.08 + 10.0;
    }
    let note = if !meta.drawn {
        meta.note.get(lang)
    } else if !chart.ready {
        super::words::GANTT_LOADING.get(lang)
    } else {
        ""
    };
    if !note.is_empty() {
        let y = if block.title.is_empty() {
            lanes_top + 9.0
        } else {
            top + 9.5
        };
        pen.text(
            note,
            tx,
            y,
            12.0,
            theme.muted,
            anchor(HPos::Left, VPos::Center),
        )?;
    }
    if meta.drawn && chart.ready {
        pen.fill(
            layout.left,
            lanes_top,
            layout.right,
            lanes_top + layout.lane_h * n as f64,
            theme.grid.solid(),
        )?;
    }
    Ok(())
}

/// Draws one lane (global index `k`) at device `y`, `h` device px tall.
/// Returns the segments visited.
fn lane<B: DrawingBackend>(
    pen: &mut Pen<B>,
    chart: &Chart,
    k: usize,
    x0: f64,
    plot_w: f64,
    y: f64,
    h: f64,
) -> DrawResult<u64, B> {
    let s = &chart.lanes.segs;
    let keys = &chart.lanes.meta.keys;
    let list = &chart.index.by_lane[k];
    let w = chart.window;
    let scale = plot_w / (w.t1 - w.t0).max(1e-12);
    let first = list.partition_point(|&i| s.end[i as usize] <= w.t0);
    let (ya, yb) = (
        y.round() as i32,
        (y + h).round().max(y.round() + 1.0) as i32,
    );
    let stripe = (h * 0.3).max(1.0).min(4.0 * pen.scale).round() as i32;
    let gap = pen.scale.max(1.0).round() as i32;
    let (left, right) = (x0.floor() as i32, (x0 + plot_w).ceil() as i32);
    let mut visited = 0u64;
    // Pending merged rectangle: (x from, x to, key).
    let mut pending: Option<(i32, i32, u16)> = None;
    let mut highlighted = Vec::new();
    let flush = |pen: &mut Pen<B>, (a, b, key): (i32, i32, u16)| -> DrawResult<(), B> {
        let (a, b) = (a.max(left), b.min(right));
        if b <= a {
            return Ok(());
        }
        let Some(k) = keys.get(key as usize) else {
            return Ok(());
        };
        pen.fill_px((a, ya), (b, yb), k.color.solid())?;
        if k.striped && yb - ya >= 6 {
            pen.fill_px((a, ya), (b, ya + stripe), Rgb(0, 0, 0).alpha(0.45))?;
        }
        Ok(())
    };
    for &i in &list[first..] {
        let i = i as usize;
        visited += 1;
        let (t0, t1) = (s.start[i], s.end[i]);
        if t0 >= w.t1 {
            break;
        }
        let key = s.key[i];
        let a = (x0 + (t0 - w.t0) * scale).floor() as i32;
        let b = ((x0 + (t1 - w.t0) * scale).ceil() as i32).max(a + 1);
        if chart.highlight == Some(s.item[i]) {
            highlighted.push((a, b));
        }
        if b - a >= DISTINCT_PX {
            if let Some(p) = pending.take() {
                flush(pen, p)?;
            }
            flush(pen, (a, b - gap, key))?;
            continue;
        }
        pending = match pending {
            Some((pa, pb, pk)) if pk == key && a <= pb => Some((pa, pb.max(b), pk)),
            Some(p) => {
                flush(pen, p)?;
                if b <= p.1 {
                    // Entirely inside a pixel already painted.
                    Some((p.1, p.1, key))
                } else {
                    Some((a.max(p.1), b, key))
                }
            }
            None => Some((a, b, key)),
        };
    }
    if let Some(p) = pending {
        flush(pen, p)?;
    }
    let line = (2.0 * pen.scale).round().max(1.0) as u32;
    let fg = pen.theme.fg;
    for (a, b) in highlighted {
        pen.outline_px(
            (a, ya + gap),
            (a + (b - a).max(2), yb - gap),
            fg.solid(),
            line,
        )?;
    }
    Ok(visited)
}

/// Paints lanes `cores` of the block starting at global lane `first` into
/// one bitmap: each lane row shows, per device pixel, the colour of the
/// first slice that covers it (what the merged rectangles show too).
#[allow(clippy::too_many_arguments)]
fn raster<B: DrawingBackend>(
    pen: &mut Pen<B>,
    chart: &Chart,
    first: usize,
    cores: std::ops::Range<usize>,
    x0: f64,
    plot_w: f64,
    lanes_top: f64,
    lane_h: f64,
) -> DrawResult<u64, B> {
    let s = &chart.lanes.segs;
    let keys = &chart.lanes.meta.keys;
    let w = chart.window;
    let scale = plot_w / (w.t1 - w.t0).max(1e-12);
    let width = plot_w.floor().max(1.0) as usize;
    let y_top = (lanes_top + cores.start as f64 * lane_h).round();
    let y_end = (lanes_top + cores.end as f64 * lane_h).round();
    let height = (y_end - y_top).max(1.0) as usize;
    let bg = pen.theme.grid;
    let mut buf = vec![0u8; width * height * 3];
    for px in buf.chunks_exact_mut(3) {
        px.copy_from_slice(&[bg.0, bg.1, bg.2]);
    }
    let mut row = vec![u16::MAX; width];
    let mut visited = 0u64;
    for c in cores {
        row.fill(u16::MAX);
        let list = &chart.index.by_lane[first + c];
        let from = list.partition_point(|&i| s.end[i as usize] <= w.t0);
        let mut filled = 0usize;
        for &i in &list[from..] {
            let i = i as usize;
            visited += 1;
            if s.start[i] >= w.t1 {
                break;
            }
            let a = ((s.start[i] - w.t0) * scale).floor().max(0.0) as usize;
            let b = (((s.end[i] - w.t0) * scale).ceil() as usize)
                .max(a + 1)
                .min(width);
            for p in row.iter_mut().take(b).skip(a.max(filled)) {
                *p = s.key[i];
            }
            filled = filled.max(b);
        }
        let r0 = ((lanes_top + c as f64 * lane_h).round() - y_top).max(0.0) as usize;
        let r1 = (((lanes_top + (c + 1) as f64 * lane_h).round() - y_top) as usize).min(height);
        for (x, &k) in row.iter().enumerate() {
            let Some(key) = keys.get(k as usize) else {
                continue;
            };
            let col = key.color;
            for y in r0..r1 {
                let o = (y * width + x) * 3;
                buf[o..o + 3].copy_from_slice(&[col.0, col.1, col.2]);
            }
        }
    }
    pen.bitmap(
        (x0.round() as i32, y_top as i32),
        (width as u32, height as u32),
        &buf,
    )?;
    Ok(visited)
}
