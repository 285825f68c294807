//! The frame of an x–y chart: the legend in rows on top, the y axis's
//! title and labels on the left (and a second y axis on the right when a
//! chart has one), the x axis's labels and title below, the grid, and the
//! mapping from values to pixels.

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::DrawingBackend;

use super::axis::{self, Along, Tick, LABEL_SIZE};
use super::legend::{self, Item};
use super::pen::{anchor, text_width, DrawResult, Pen};

/// Size of an axis title, in px.
const TITLE_SIZE: f64 = 12.0;
const MARGIN: f64 = 10.0;

/// How an axis's ticks are chosen.
pub enum Scale<'a> {
    /// A number axis; `fmt(value, step)` writes a label.
    Linear(&'a dyn Fn(f64, f64) -> String),
    /// A count: whole steps only.
    Count,
    /// Time in ms, labelled in the unit that suits the step.
    Time,
    /// A log axis over log10 values; `fmt(value)` writes a label.
    Log(&'a dyn Fn(f64) -> String),
}

/// One axis: its range (log10 of it for [`Scale::Log`]), ticks and title.
pub(crate) struct AxisSpec<'a> {
    pub lo: f64,
    pub hi: f64,
    pub scale: Scale<'a>,
    pub title: &'a str,
    /// Grid lines across the plot at each tick.
    pub grid: bool,
}

/// A drawn frame: where the plot is (px) and its ranges.
pub struct Plot {
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
    pub x: (f64, f64),
    pub y: (f64, f64),
    /// The right axis's range, if the chart has one.
    pub y2: Option<(f64, f64)>,
}

impl Plot {
    pub(crate) fn x(&self, v: f64) -> f64 {
        self.left + (v - self.x.0) / (self.x.1 - self.x.0) * (self.right - self.left)
    }

    pub(crate) fn y(&self, v: f64) -> f64 {
        self.bottom - (v - self.y.0) / (self.y.1 - self.y.0) * (self.bottom - self.top)
    }

    /// `v` on the right axis (the left one without a right axis).
    pub(crate) fn y2(&self, v: f64) -> f64 {
        let (lo, hi) = self.y2.unwrap_or(self.y);
        self.bottom - (v - lo) / (hi - lo) * (self.bottom - self.top)
    }
}

fn ticks(spec: &AxisSpec, from: f64, to: f64, bound: (f64, f64), along: Along) -> Vec<Tick> {
    match spec.scale {
        Scale::Linear(fmt) => axis::value_ticks(spec.lo, spec.hi, from, to, bound, along, 0.0, fmt),
        Scale::Count => axis::value_ticks(
            spec.lo,
            spec.hi,
            from,
            to,
            bound,
            along,
            1.0,
            &axis::number_label,
        ),
        Scale::Time => axis::time_ticks(spec.lo, spec.hi, from, to, bound),
        Scale::Log(fmt) => axis::log_ticks(spec.lo, spec.hi, from, to, bound, fmt),
    }
}

/// Draws the frame of a `width`×`height` chart (CSS px, from the pen's
/// origin) with `legend` on top; returns where the data goes.
pub(crate) fn draw<B: DrawingBackend>(
    pen: &mut Pen<B>,
    (width, height): (f64, f64),
    legend: &[Item],
    x: &AxisSpec,
    y: &AxisSpec,
) -> DrawResult<Plot, B> {
    draw_twin(pen, (width, height), legend, x, y, None)
}

/// [`draw`] with a second y axis on the right (`right`: its range, labels
/// and title; no grid of its own).
pub(crate) fn draw_twin<B: DrawingBackend>(
    pen: &mut Pen<B>,
    (width, height): (f64, f64),
    legend: &[Item],
    x: &AxisSpec,
    y: &AxisSpec,
    right: Option<&AxisSpec>,
) -> DrawResult<Plot, B> {
    let theme = pen.theme;
    let legend_h = legend::draw(pen, legend, MARGIN, MARGIN / 2.0, width - 2.0 * MARGIN)?;
    let top = MARGIN / 2.0 + legend_h + if legend_h > 0.0 { 6.0 } else { 4.0 };
    // Below the plot: tick labels, then the axis title.
    let bottom = height - (LABEL_SIZE + 6.0 + TITLE_SIZE + 8.0);
    let y_ticks = ticks(y, bottom, top, (top - 6.0, bottom + 6.0), Along::Y);
    let label_w = y_ticks
        .iter()
        .map(|t| text_width(&t.label, LABEL_SIZE))
        .fold(0.0, f64::max);
    let left = MARGIN + TITLE_SIZE + 8.0 + label_w + 6.0;
    let r_ticks = right.map(|r| ticks(r, bottom, top, (top - 6.0, bottom + 6.0), Along::Y));
    let r_label_w = r_ticks.as_ref().map_or(0.0, |t| {
        t.iter()
            .map(|t| text_width(&t.label, LABEL_SIZE))
            .fold(0.0, f64::max)
    });
    let right_edge = match right {
        Some(_) => width - (MARGIN + TITLE_SIZE + 8.0 + r_label_w + 6.0),
        None => width - MARGIN - 8.0,
    };
    // With a right axis, the x labels end before its labels begin.
    let x_bound = (
        0.0,
        if right.is_some() {
            right_edge + 4.0
        } else {
            width
        },
    );
    let x_ticks = ticks(x, left, right_edge, x_bound, Along::X);
    let plot = Plot {
        left,
        right: right_edge,
        top,
        bottom,
        x: (x.lo, x.hi),
        y: (y.lo, y.hi),
        y2: right.map(|r| (r.lo, r.hi)),
    };
    let right = right.zip(r_ticks);
    let hair = 1.0 / pen.scale;
    for t in &y_ticks {
        if y.grid {
            pen.fill(left, t.at, plot.right, t.at + hair, theme.grid.solid())?;
        }
        pen.text(
            &t.label,
            left - 6.0,
            t.at,
            LABEL_SIZE,
            theme.fg,
            anchor(HPos::Right, VPos::Center),
        )?;
    }
    for t in &x_ticks {
        if x.grid {
            pen.fill(t.at, top, t.at + hair, bottom, theme.grid.solid())?;
        }
        let (a, _) = axis::label_span(t, x_bound, &Along::X);
        pen.text(
            &t.label,
            a,
            bottom + 5.0,
            LABEL_SIZE,
            theme.fg,
            anchor(HPos::Left, VPos::Top),
        )?;
    }
    // The axes themselves.
    pen.fill(left, top, left + hair, bottom + hair, theme.muted.solid())?;
    pen.fill(left, bottom, plot.right, bottom + hair, theme.muted.solid())?;
    if let Some((spec, ticks)) = &right {
        let r = plot.right;
        pen.fill(r, top, r + hair, bottom + hair, theme.muted.solid())?;
        for t in ticks {
            pen.text(
                &t.label,
                r + 6.0,
                t.at,
                LABEL_SIZE,
                theme.fg,
                anchor(HPos::Left, VPos::Center),
            )?;
        }
        pen.vertical(
            spec.title,
            width - MARGIN - TITLE_SIZE / 2.0,
            (top + bottom) / 2.0,
            TITLE_SIZE,
            theme.fg,
        )?;
    }
    pen.text(
        x.title,
        (left + plot.right) / 2.0,
        height - 6.0,
        TITLE_SIZE,
        theme.fg,
        anchor(HPos::Center, VPos::Bottom),
    )?;
    pen.vertical(
        y.title,
        MARGIN + TITLE_SIZE / 2.0,
        (top + bottom) / 2.0,
        TITLE_SIZE,
        theme.fg,
    )?;
    Ok(plot)
}
