//! A trace's interactions as three-phase bars on its timeline: each
//! interaction's input delay, processing and presentation delay laid end
//! to end from the moment of its input, one lane as recorded and one as
//! the model predicts it sliced; the phases share their colours across the
//! lanes, so what slicing shortens shows as the difference between them.

use plotters_backend::DrawingBackend;

use super::axis;
use super::frame::{self, AxisSpec, Plot, Scale};
use super::legend::{Item, Swatch};
use plotters_backend::text_anchor::{HPos, VPos};

use super::pen::{anchor, DrawResult, Pen};
use super::theme::{self, Rgb};

/// One interaction's bar: when its input happened (ms on the trace's
/// timeline) and its three phases (ms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bar {
    pub start: f64,
    pub phases: [f64; 3],
}

/// One lane of bars (recorded, or sliced at a quantum) and its name.
pub struct Lane<'a> {
    pub name: &'a str,
    pub bars: &'a [Bar],
}

/// The tallest a bar is drawn, CSS px.
const BAR_PX: f64 = 28.0;

/// The phases' colours: input delay, processing, presentation delay.
pub const PHASE_COLORS: [Rgb; 3] = theme::STATES;

/// Draws `lanes` top to bottom over the timeline `span` (ms), the legend
/// naming `phases`; a bar narrower than a pixel is still drawn one wide.
pub fn draw<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    lanes: &[Lane],
    phases: [&str; 3],
    span: (f64, f64),
    x_title: &str,
) -> DrawResult<Plot, B> {
    let legend: Vec<Item> = phases
        .iter()
        .zip(PHASE_COLORS)
        .map(|(name, c)| Item::new(*name, c, Swatch::Box))
        .collect();
    let end = lanes
        .iter()
        .flat_map(|l| l.bars.iter())
        .map(|b| b.start + b.phases.iter().sum::<f64>())
        .fold(span.1, f64::max);
    let hi = if end > span.0 { end } else { span.0 + 1.0 };
    let none = |_: f64, _: f64| String::new();
    let plot = frame::draw(
        pen,
        size,
        &legend,
        &AxisSpec {
            lo: span.0,
            hi: axis::nice_ceil(hi),
            scale: Scale::Time,
            title: x_title,
            grid: true,
        },
        &AxisSpec {
            lo: 0.0,
            hi: lanes.len().max(1) as f64,
            scale: Scale::Linear(&none),
            title: "",
            grid: false,
        },
    )?;
    let fg = pen.theme.fg;
    let n = lanes.len() as f64;
    for (k, lane) in lanes.iter().enumerate() {
        // Lane k (from the top) spans y ∈ [n − k − 1, n − k].
        // A bar at most BAR_PX tall, under the lane's name.
        let top = plot.y(n - k as f64) + 16.0;
        let bottom = (plot.y(n - k as f64 - 1.0) - 4.0).min(top + BAR_PX);
        pen.text(
            lane.name,
            plot.left + 4.0,
            top - 2.0,
            11.0,
            fg,
            anchor(HPos::Left, VPos::Bottom),
        )?;
        for b in lane.bars {
            let mut t = b.start;
            for (len, color) in b.phases.iter().zip(PHASE_COLORS) {
                let x0 = plot.x(t);
                let x1 = plot.x(t + len.max(0.0)).max(x0 + 1.0);
                pen.fill(x0, top, x1.min(plot.right), bottom, color.solid())?;
                t += len.max(0.0);
            }
        }
    }
    Ok(plot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::svg::Svg;
    use crate::chart::theme::Theme;
    use crate::text::Lang;

    #[test]
    fn every_phase_of_every_bar_is_drawn_in_its_colour() {
        let bars = [Bar {
            start: 100.0,
            phases: [60.0, 30.0, 40.0],
        }];
        let lanes = [Lane {
            name: "recorded",
            bars: &bars,
        }];
        let mut svg = Svg::new(600, 200, None);
        {
            let mut pen = Pen::new(&mut svg, 1.0, Theme::dark(false), Lang::En);
            draw(
                &mut pen,
                (600.0, 200.0),
                &lanes,
                ["input delay", "processing", "presentation delay"],
                (0.0, 400.0),
                "time (ms)",
            )
            .unwrap();
        }
        let out = svg.finish("bars", &[]);
        for c in PHASE_COLORS {
            assert!(out.contains(&c.css()), "{} missing", c.css());
        }
    }
}
