//! The Responsiveness section's trade-off over the quantum: p98 input
//! delay (left axis) and the mean time tasks finish later (right axis)
//! against q, with the recorded p98 and the target as reference lines, the
//! page's quantum as a vertical line, and the knee and the favoured row
//! ringed.

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::DrawingBackend;

use super::axis::{self, nice_ceil};
use super::frame::{self, AxisSpec, Plot, Scale};
use super::legend::{Item, Swatch};
use super::pen::{anchor, DrawResult, Pen};
use super::place::{self, Candidate, Placer, Rect};
use super::theme;

/// The chart's data (sliced rows in ascending quantum) and words.
pub struct Tradeoff {
    pub quanta: Vec<f64>,
    pub p98: Vec<f64>,
    pub cost: Vec<f64>,
    pub recorded_p98: f64,
    pub target_ms: f64,
    /// Index into `quanta` of the knee and of the favoured row.
    pub knee: Option<usize>,
    pub favoured: Option<usize>,
    /// The page's quantum (a vertical line).
    pub page_q: f64,
    pub x_label: String,
    pub p98_label: String,
    pub cost_label: String,
    pub recorded_label: String,
    pub target_label: String,
    pub knee_label: String,
    pub favoured_label: String,
}

/// A label to place: its text, candidate places, size, and the point it
/// names (none for a reference line's).
type Word<'a> = (&'a str, Vec<Candidate>, f64, Option<(f64, f64)>);

/// Draws `t` on a `size` (CSS px) chart.
pub fn draw<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    t: &Tradeoff,
) -> DrawResult<Plot, B> {
    let theme = pen.theme;
    let qmax = t
        .quanta
        .iter()
        .copied()
        .chain([t.page_q])
        .fold(1.0, f64::max);
    let xmax = nice_ceil(qmax * 1.05);
    let ymax = nice_ceil(
        (t.p98
            .iter()
            .copied()
            .chain([t.recorded_p98, t.target_ms])
            .fold(0.0, f64::max)
            * 1.08)
            .max(1e-6),
    );
    let cmin = t.cost.iter().copied().fold(0.0, f64::min);
    let cmax = t.cost.iter().copied().fold(0.0, f64::max);
    let cmax = if cmax - cmin < 0.01 {
        cmin + 1.0
    } else {
        cmax + (cmax - cmin) * 0.08
    };
    let (p98_color, cost_color) = (theme::policy(0), theme::policy(1));
    let legend = [
        Item::new(t.p98_label.as_str(), p98_color, Swatch::Line),
        Item::new(t.cost_label.as_str(), cost_color, Swatch::Line),
    ];
    let plot = frame::draw_twin(
        pen,
        size,
        &legend,
        &AxisSpec {
            lo: 0.0,
            hi: xmax,
            scale: Scale::Linear(&axis::number_label),
            title: &t.x_label,
            grid: true,
        },
        &AxisSpec {
            lo: 0.0,
            hi: ymax,
            scale: Scale::Linear(&axis::number_label),
            title: &t.p98_label,
            grid: true,
        },
        Some(&AxisSpec {
            lo: cmin,
            hi: cmax,
            scale: Scale::Linear(&axis::number_label),
            title: &t.cost_label,
            grid: false,
        }),
    )?;
    let muted = theme.muted;
    // Reference lines: the recorded p98, the target, the page's quantum.
    let rec_y = plot.y(t.recorded_p98);
    pen.dashed(
        (plot.left, rec_y),
        (plot.right, rec_y),
        muted.solid(),
        2.0,
        6.0,
        4.0,
    )?;
    let target_y = plot.y(t.target_ms);
    pen.line(
        (plot.left, target_y),
        (plot.right, target_y),
        muted.solid(),
        1.0,
    )?;
    let x = plot.x(t.page_q);
    pen.line((x, plot.top), (x, plot.bottom), muted.solid(), 1.0)?;
    let p98: Vec<(f64, f64)> = t
        .quanta
        .iter()
        .zip(&t.p98)
        .map(|(&q, &v)| (plot.x(q), plot.y(v)))
        .collect();
    let cost: Vec<(f64, f64)> = t
        .quanta
        .iter()
        .zip(&t.cost)
        .map(|(&q, &v)| (plot.x(q), plot.y2(v)))
        .collect();
    let mut placer = Placer::new(Rect::new(plot.left, plot.top, plot.right, plot.bottom));
    placer.line(&[(plot.left, rec_y), (plot.right, rec_y)]);
    placer.line(&[(plot.left, target_y), (plot.right, target_y)]);
    placer.line(&[(x, plot.top), (x, plot.bottom)]);
    for (pts, color) in [(&p98, p98_color), (&cost, cost_color)] {
        pen.polyline(pts, color.solid(), 2.0)?;
        placer.line(pts);
        for &p in pts.iter() {
            pen.circle(p, 3.5, color.solid(), true, 1.0)?;
            placer.mark(Rect::around(p, 4.5));
        }
    }
    // The knee and the favoured row, ringed: their words go round the
    // rings first (the knee's below left, the favoured row's above right),
    // then the reference lines' names along their lines.
    let mut words: Vec<Word> = Vec::new();
    for (at, label, first) in [
        (t.knee, &t.knee_label, anchor(HPos::Right, VPos::Top)),
        (
            t.favoured,
            &t.favoured_label,
            anchor(HPos::Left, VPos::Bottom),
        ),
    ] {
        let Some(&p) = at.and_then(|i| p98.get(i)) else {
            continue;
        };
        pen.circle(p, 8.0, theme.fg.solid(), false, 2.0)?;
        placer.mark(Rect::around(p, 9.0));
        placer.named(p);
        words.push((
            label.as_str(),
            place::around_point(p, 10.0, first),
            12.0,
            Some(p),
        ));
    }
    for (label, y) in [(&t.recorded_label, rec_y), (&t.target_label, target_y)] {
        words.push((
            label.as_str(),
            place::along_line(y, plot.left + 4.0, plot.right - 4.0, 3.0),
            11.0,
            None,
        ));
    }
    for (label, candidates, size, own) in words {
        let Some(c) = placer.place_by(label, size, &candidates, own) else {
            continue;
        };
        let color = if size > 11.0 { theme.fg } else { muted };
        pen.text(label, c.at.0, c.at.1, size, color, c.pos)?;
    }
    Ok(plot)
}
