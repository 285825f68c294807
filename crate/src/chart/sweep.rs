//! The sweeps' charts: one figure's histogram over seeds (p5, p50, p95 and
//! the experiment's own seed marked) and each policy's figure against the
//! quantum on a log axis (best quantum marked), legends above the plots.

use crate::experiment::reading::policy_title;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::DrawingBackend;
use serde::Deserialize;

use super::axis::{self, nice_ceil};
use super::frame::{self, AxisSpec, Plot, Scale};
use super::legend::{Item, Swatch};
use super::pen::{anchor, text_width, DrawResult, Pen};
use super::theme;

/// What the seed histogram shows.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct SeedHistogram {
    pub edges: Vec<f64>,
    pub counts: Vec<u32>,
    pub p5: f64,
    pub p50: f64,
    pub p95: f64,
    /// The experiment's own seed's value, if known.
    pub current: Option<f64>,
    pub x_desc: String,
    pub y_desc: String,
    pub current_label: String,
}

/// Two significant digits: 1, 3.2, 10, 32, 100 …
fn two_digits(q: f64) -> String {
    if !(q.is_finite() && q > 0.0) {
        return format!("{q}");
    }
    let mag = 10f64.powf(q.log10().floor() - 1.0);
    format!("{}", ((q / mag).round() * mag * 1e6).round() / 1e6)
}

/// Draws the seed histogram on a `size` (CSS px) chart.
pub(crate) fn draw_seeds<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    s: &SeedHistogram,
) -> DrawResult<Plot, B> {
    let theme = pen.theme;
    let (mut lo, mut hi) = match (s.edges.first(), s.edges.last()) {
        (Some(&a), Some(&b)) => (a, b),
        _ => (0.0, 1.0),
    };
    if let Some(c) = s.current.filter(|c| c.is_finite()) {
        lo = lo.min(c);
        hi = hi.max(c);
    }
    if hi <= lo {
        lo -= 0.5;
        hi += 0.5;
    }
    let pad = (hi - lo) * 0.04;
    let (lo, hi) = (lo - pad, hi + pad);
    let ymax = nice_ceil(s.counts.iter().copied().max().unwrap_or(1).max(1) as f64 * 1.2);
    let plot = frame::draw(
        pen,
        size,
        &[],
        &AxisSpec {
            lo,
            hi,
            scale: Scale::Linear(&axis::number_label),
            title: &s.x_desc,
            grid: false,
        },
        &AxisSpec {
            lo: 0.0,
            hi: ymax,
            scale: Scale::Count,
            title: &s.y_desc,
            grid: true,
        },
    )?;
    let bar = theme::policy(1).alpha(0.75);
    for (i, &c) in s.counts.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let x0 = s.edges.get(i).copied().unwrap_or(lo);
        let x1 = s.edges.get(i + 1).copied().unwrap_or(x0);
        let x1 = if x1 > x0 { x1 } else { x0 + (hi - lo) * 0.01 };
        pen.fill(plot.x(x0), plot.y(c as f64), plot.x(x1), plot.y(0.0), bar)?;
    }
    let marks = [
        ("p5", s.p5, theme.muted),
        ("p50", s.p50, theme.fg),
        ("p95", s.p95, theme.muted),
    ];
    for (i, (name, x, color)) in marks.iter().enumerate() {
        if !x.is_finite() {
            continue;
        }
        let px = plot.x(*x);
        pen.line(
            (px, plot.y(0.0)),
            (px, plot.y(ymax)),
            color.solid(),
            if *name == "p50" { 2.0 } else { 1.0 },
        )?;
        let label = format!(" {name} {} ", (x * 10.0).round() / 10.0);
        // Near the right edge the label goes to the left of its line.
        let h = if px + text_width(&label, 11.0) > plot.right {
            HPos::Right
        } else {
            HPos::Left
        };
        let y = plot.y(ymax * (0.99 - 0.07 * i as f64));
        pen.text(&label, px, y, 11.0, *color, anchor(h, VPos::Top))?;
    }
    if let Some(c) = s.current.filter(|c| c.is_finite()) {
        let color = theme::policy(0);
        let px = plot.x(c);
        pen.line(
            (px, plot.y(0.0)),
            (px, plot.y(ymax * 0.75)),
            color.solid(),
            2.0,
        )?;
        pen.circle((px, plot.y(ymax * 0.75)), 4.0, color.solid(), true, 1.0)?;
        pen.text(
            &s.current_label,
            px,
            plot.y(ymax * 0.72),
            11.0,
            color,
            anchor(HPos::Center, VPos::Top),
        )?;
    }
    Ok(plot)
}

/// What the quantum chart shows.
#[derive(Clone, Debug, Deserialize)]
pub struct QuantumChart {
    pub quanta: Vec<f64>,
    pub policies: Vec<String>,
    /// Per policy: the chosen figure per quantum.
    pub values: Vec<Vec<f64>>,
    /// Per policy: the best quantum for the figure (None when the policy
    /// ignores the quantum).
    pub best: Vec<Option<f64>>,
    /// The experiment's own quantum.
    pub quantum: f64,
    pub x_desc: String,
    pub y_desc: String,
}

/// Draws one line per policy against the quantum (log axis), best marked.
pub fn draw_quanta<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    s: &QuantumChart,
) -> DrawResult<Plot, B> {
    let theme = pen.theme;
    let qlo = s.quanta.iter().copied().fold(f64::INFINITY, f64::min);
    let qhi = s.quanta.iter().copied().fold(0.0, f64::max);
    let (qlo, qhi) = if qlo.is_finite() && qlo > 0.0 && qhi > qlo {
        (qlo / 1.15, qhi * 1.15)
    } else {
        let q = if qlo.is_finite() && qlo > 0.0 {
            qlo
        } else {
            1.0
        };
        (q / 2.0, q * 2.0)
    };
    let lx = |q: f64| q.log10();
    let ymax = nice_ceil(
        s.values
            .iter()
            .flatten()
            .copied()
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max)
            .max(1e-6)
            * 1.05,
    );
    let legend: Vec<Item> = s
        .policies
        .iter()
        .enumerate()
        .map(|(i, p)| Item::new(policy_title(p, pen.lang), theme::policy(i), Swatch::Line))
        .collect();
    let plot = frame::draw(
        pen,
        size,
        &legend,
        &AxisSpec {
            lo: lx(qlo),
            hi: lx(qhi),
            scale: Scale::Log(&two_digits),
            title: &s.x_desc,
            grid: true,
        },
        &AxisSpec {
            lo: 0.0,
            hi: ymax,
            scale: Scale::Linear(&axis::number_label),
            title: &s.y_desc,
            grid: true,
        },
    )?;
    if s.quantum.is_finite() && s.quantum > qlo && s.quantum < qhi {
        let x = plot.x(lx(s.quantum));
        pen.line(
            (x, plot.y(0.0)),
            (x, plot.y(ymax)),
            theme.muted.alpha(0.6),
            1.0,
        )?;
    }
    for (k, vals) in s.values.iter().enumerate() {
        let color = theme::policy(k);
        let pts: Vec<(f64, f64)> = s
            .quanta
            .iter()
            .zip(vals)
            .filter(|(q, v)| v.is_finite() && **q > 0.0)
            .map(|(&q, &v)| (plot.x(lx(q)), plot.y(v)))
            .collect();
        pen.polyline(&pts, color.solid(), 2.0)?;
        for &p in &pts {
            pen.circle(p, 2.0, color.solid(), true, 1.0)?;
        }
        if let Some(Some(bq)) = s.best.get(k) {
            if let Some(i) = s.quanta.iter().position(|q| q == bq) {
                let p = (plot.x(lx(*bq)), plot.y(vals[i]));
                pen.circle(p, 7.0, color.solid(), false, 2.0)?;
                pen.text(
                    &format!("{bq} ms"),
                    p.0,
                    p.1 - 8.0,
                    11.0,
                    color,
                    anchor(HPos::Center, VPos::Bottom),
                )?;
            }
        }
    }
    Ok(plot)
}
