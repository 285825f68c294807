//! The Responsiveness section's input-delay CDF: the share of inputs that
//! wait at most `t`, for the recorded schedule (muted, dashed) and each
//! sliced one, on shared axes, the legend above the plot.

use plotters_backend::DrawingBackend;

use super::axis::{self, nice_ceil};
use super::frame::{self, AxisSpec, Plot, Scale};
use super::legend::{Item, Swatch};
use super::pen::{DrawResult, Pen};
use super::theme;

/// One schedule's curve: `P(delay ≤ t)` as `(t ms, P)` points from t = 0.
pub struct Curve<'a> {
    pub name: &'a str,
    pub points: &'a [(f64, f64)],
    /// The recorded schedule: drawn muted and dashed.
    pub recorded: bool,
}

/// Draws `curves` on a `size` (CSS px) chart with the axes' titles.
pub fn draw<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    curves: &[Curve],
    x_title: &str,
    y_title: &str,
) -> DrawResult<Plot, B> {
    let theme = pen.theme;
    let last = curves
        .iter()
        .filter_map(|c| c.points.last().map(|p| p.0))
        .fold(0.0, f64::max);
    let xmax = nice_ceil((last * 1.02).max(1e-6));
    // Sliced schedules take the policies' colours in order.
    let color = |i: usize, c: &Curve| {
        if c.recorded {
            theme.muted
        } else {
            theme::policy(i.saturating_sub(1))
        }
    };
    let legend: Vec<Item> = curves
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let swatch = if c.recorded {
                Swatch::Dashed
            } else {
                Swatch::Line
            };
            Item::new(c.name, color(i, c), swatch)
        })
        .collect();
    let percent = |v: f64, _: f64| format!("{:.0} %", v * 100.0);
    let plot = frame::draw(
        pen,
        size,
        &legend,
        &AxisSpec {
            lo: 0.0,
            hi: xmax,
            scale: Scale::Linear(&axis::number_label),
            title: x_title,
            grid: true,
        },
        &AxisSpec {
            lo: 0.0,
            hi: 1.0,
            scale: Scale::Linear(&percent),
            title: y_title,
            grid: true,
        },
    )?;
    for (i, c) in curves.iter().enumerate() {
        // The atom at 0 (inputs that wait nothing) is the curve's foot; a
        // curve that ends early stays at 1 to the right edge.
        let mut pts = vec![(plot.x(0.0), plot.y(0.0))];
        pts.extend(c.points.iter().map(|&(x, y)| (plot.x(x), plot.y(y))));
        if c.points.last().is_some_and(|&(x, _)| x < xmax) {
            pts.push((plot.x(xmax), plot.y(1.0)));
        }
        let stroke = color(i, c).solid();
        if c.recorded {
            pen.dashed_path(&pts, stroke, 2.0, 6.0, 4.0)?;
        } else {
            pen.polyline(&pts, stroke, 2.0)?;
        }
    }
    Ok(plot)
}
