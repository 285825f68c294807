//! The Responsiveness section's two charts, each one drawing function
//! generic over the plotters backend (a canvas here; SVG works the same):
//! the input-delay CDF of the recorded and the sliced schedule, and the
//! trade-off over the quantum (p98 input delay against the mean time tasks
//! finish later, the knee marked).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::palette::{self, Theme};

/// Colours and sizes shared by both charts.
#[derive(Clone, Copy, Debug)]
pub struct ChartStyle {
    pub theme: Theme,
    /// Device pixels per CSS pixel.
    pub dpr: f64,
}

impl ChartStyle {
    fn px(&self, v: f64) -> u32 {
        (v * self.dpr).round().max(1.0) as u32
    }

    fn font(&self, size: f64, color: RGBColor) -> TextStyle<'static> {
        (FontFamily::SansSerif, size * self.dpr)
            .into_font()
            .color(&color)
    }
}

/// One curve of the CDF: `P(delay ≤ t)` as `(t, P)` points from t = 0.
pub struct DelayCurve {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// The recorded schedule: drawn muted and dashed.
    pub recorded: bool,
}

/// The CDF chart's data and words.
pub struct DelayCdf {
    pub curves: Vec<DelayCurve>,
    pub x_label: String,
    pub y_label: String,
}

/// The trade-off chart's data (sliced rows in ascending quantum) and words.
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

type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// The room a legend of `items` entries takes above the plot (CSS px).
fn legend_room(items: usize) -> f64 {
    16.0 + 17.0 * items as f64 + 8.0
}

/// A legend box in the top right of `root`, above the plot (the charts
/// leave [`legend_room`] for it, so it never covers a curve): label,
/// colour, dashed.
fn legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    items: &[(String, RGBColor, bool)],
    style: &ChartStyle,
    right_margin: f64,
) -> Drawn<DB> {
    let t = &style.theme;
    let font = style
        .font(12.0, t.fg.plotters())
        .pos(Pos::new(HPos::Left, VPos::Center));
    let text_w = items
        .iter()
        .map(|(l, _, _)| root.estimate_text_size(l, &font).map_or(0, |s| s.0))
        .max()
        .unwrap_or(0) as i32;
    let (pad, swatch, line_h) = (
        style.px(8.0) as i32,
        style.px(18.0) as i32,
        style.px(17.0) as i32,
    );
    let w = pad * 3 + swatch + text_w;
    let h = pad * 2 + line_h * items.len() as i32;
    let (cw, _) = root.dim_in_pixel();
    let x0 = cw as i32 - w - style.px(right_margin) as i32;
    let y0 = style.px(4.0) as i32;
    root.draw(&Rectangle::new(
        [(x0, y0), (x0 + w, y0 + h)],
        t.bg.plotters().mix(0.9).filled(),
    ))?;
    root.draw(&Rectangle::new(
        [(x0, y0), (x0 + w, y0 + h)],
        t.muted.plotters().stroke_width(1),
    ))?;
    for (i, (label, color, dashed)) in items.iter().enumerate() {
        let cy = y0 + pad + line_h * i as i32 + line_h / 2;
        let sx = x0 + pad;
        let stroke = color.stroke_width(style.px(if *dashed { 2.0 } else { 3.0 }));
        if *dashed {
            let dash = swatch / 4;
            for k in [0, 2] {
                root.draw(&PathElement::new(
                    vec![(sx + k * dash, cy), (sx + (k + 1) * dash + dash / 2, cy)],
                    stroke,
                ))?;
            }
        } else {
            root.draw(&PathElement::new(vec![(sx, cy), (sx + swatch, cy)], stroke))?;
        }
        root.draw(&Text::new(
            label.clone(),
            (sx + swatch + pad, cy),
            font.clone(),
        ))?;
    }
    Ok(())
}

/// Rounds `v` up to a round number for an axis end.
fn nice_end(v: f64) -> f64 {
    let v = v.max(1e-6);
    let step = super::canvas::nice_step(v / 5.0);
    ((v / step).ceil() * step).max(step)
}

/// The input-delay CDF: the share of inputs that wait at most `t`, for
/// each schedule, on shared axes (on a clear area: the caller paints any
/// background).
pub fn draw_delay_cdf<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &DelayCdf,
    style: &ChartStyle,
) -> Drawn<DB> {
    let t = &style.theme;
    let xmax = nice_end(
        chart
            .curves
            .iter()
            .filter_map(|c| c.points.last().map(|p| p.0))
            .fold(0.0, f64::max)
            * 1.02,
    );
    let mut c = ChartBuilder::on(root)
        .margin(style.px(10.0))
        .margin_right(style.px(24.0))
        .margin_top(style.px(legend_room(chart.curves.len())))
        .x_label_area_size(style.px(34.0))
        .y_label_area_size(style.px(58.0))
        .build_cartesian_2d(0f64..xmax, 0f64..1f64)?;
    c.configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(t.grid.plotters())
        .axis_style(t.muted.plotters())
        .label_style(style.font(11.0, t.fg.plotters()))
        .axis_desc_style(style.font(12.0, t.fg.plotters()))
        .x_labels(6)
        .y_labels(6)
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.y_label.as_str())
        .y_label_formatter(&|v| format!("{:.0} %", v * 100.0))
        .x_label_formatter(&|v| format!("{v}"))
        .draw()?;
    let mut items = Vec::new();
    for (i, curve) in chart.curves.iter().enumerate() {
        let color = if curve.recorded {
            t.muted.plotters()
        } else {
            palette::policy(i.saturating_sub(1)).plotters()
        };
        // The atom at 0 (inputs that wait nothing) is the curve's foot.
        let mut pts = vec![(0.0, 0.0)];
        pts.extend(curve.points.iter().copied());
        if let Some(&(x, _)) = curve.points.last() {
            if x < xmax {
                pts.push((xmax, 1.0));
            }
        }
        let width = style.px(2.0);
        if curve.recorded {
            c.draw_series(DashedLineSeries::new(
                pts,
                style.px(6.0),
                style.px(4.0),
                color.stroke_width(width),
            ))?;
        } else {
            c.draw_series(LineSeries::new(pts, color.stroke_width(width)))?;
        }
        items.push((curve.name.clone(), color, curve.recorded));
    }
    legend(root, &items, style, 24.0)?;
    root.present()
}

/// The trade-off over q: p98 input delay (left axis) and the mean time
/// tasks finish later (right axis) against the quantum, with the recorded
/// p98 and the 50 ms target as reference lines, the page's quantum as a
/// vertical line, and the knee and the favoured row marked.
pub fn draw_tradeoff<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Tradeoff,
    style: &ChartStyle,
) -> Drawn<DB> {
    let t = &style.theme;
    let qmax = chart
        .quanta
        .iter()
        .copied()
        .chain([chart.page_q])
        .fold(1.0, f64::max);
    let xmax = nice_end(qmax * 1.05);
    let ymax = nice_end(
        chart
            .p98
            .iter()
            .copied()
            .chain([chart.recorded_p98, chart.target_ms])
            .fold(0.0, f64::max)
            * 1.08,
    );
    let cmin = chart.cost.iter().copied().fold(0.0, f64::min);
    let cmax = chart.cost.iter().copied().fold(0.0, f64::max);
    let cmax = if cmax - cmin < 0.01 {
        cmin + 1.0
    } else {
        cmax + (cmax - cmin) * 0.08
    };
    let mut c = ChartBuilder::on(root)
        .margin(style.px(10.0))
        .margin_top(style.px(legend_room(2)))
        .x_label_area_size(style.px(34.0))
        .y_label_area_size(style.px(52.0))
        .right_y_label_area_size(style.px(58.0))
        .build_cartesian_2d(0f64..xmax, 0f64..ymax)?
        .set_secondary_coord(0f64..xmax, cmin..cmax);
    c.configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(t.grid.plotters())
        .axis_style(t.muted.plotters())
        .label_style(style.font(11.0, t.fg.plotters()))
        .axis_desc_style(style.font(12.0, t.fg.plotters()))
        .x_labels(8)
        .y_labels(6)
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.p98_label.as_str())
        .x_label_formatter(&|v| format!("{v}"))
        .y_label_formatter(&|v| format!("{v}"))
        .draw()?;
    c.configure_secondary_axes()
        .axis_style(t.muted.plotters())
        .label_style(style.font(11.0, t.fg.plotters()))
        .axis_desc_style(style.font(12.0, t.fg.plotters()))
        .y_desc(chart.cost_label.as_str())
        .y_label_formatter(&|v| format!("{v:.2}"))
        .draw()?;
    let muted = t.muted.plotters();
    let thin = muted.stroke_width(style.px(1.0));
    let note = style
        .font(11.0, muted)
        .pos(Pos::new(HPos::Left, VPos::Bottom));
    // Reference lines: the recorded p98, the target, the page's quantum.
    c.draw_series(DashedLineSeries::new(
        [(0.0, chart.recorded_p98), (xmax, chart.recorded_p98)],
        style.px(6.0),
        style.px(4.0),
        muted.stroke_width(style.px(2.0)),
    ))?;
    c.draw_series(std::iter::once(Text::new(
        chart.recorded_label.clone(),
        (xmax * 0.01, chart.recorded_p98),
        note.clone(),
    )))?;
    c.draw_series(LineSeries::new(
        [(0.0, chart.target_ms), (xmax, chart.target_ms)],
        thin,
    ))?;
    c.draw_series(std::iter::once(Text::new(
        chart.target_label.clone(),
        (xmax * 0.01, chart.target_ms),
        note.clone(),
    )))?;
    c.draw_series(LineSeries::new(
        [(chart.page_q, 0.0), (chart.page_q, ymax)],
        thin,
    ))?;
    let p98_color = palette::policy(0).plotters();
    let cost_color = palette::policy(1).plotters();
    let r = style.px(3.5) as i32;
    let p98: Vec<(f64, f64)> = chart
        .quanta
        .iter()
        .copied()
        .zip(chart.p98.iter().copied())
        .collect();
    let cost: Vec<(f64, f64)> = chart
        .quanta
        .iter()
        .copied()
        .zip(chart.cost.iter().copied())
        .collect();
    c.draw_series(LineSeries::new(
        p98.clone(),
        p98_color.stroke_width(style.px(2.0)),
    ))?;
    c.draw_series(p98.iter().map(|&p| Circle::new(p, r, p98_color.filled())))?;
    c.draw_secondary_series(LineSeries::new(
        cost.clone(),
        cost_color.stroke_width(style.px(2.0)),
    ))?;
    c.draw_secondary_series(cost.iter().map(|&p| Circle::new(p, r, cost_color.filled())))?;
    let mark = style
        .font(12.0, t.fg.plotters())
        .pos(Pos::new(HPos::Left, VPos::Bottom));
    for (at, label) in [
        (chart.knee, &chart.knee_label),
        (chart.favoured, &chart.favoured_label),
    ] {
        let Some(i) = at.filter(|&i| i < p98.len()) else {
            continue;
        };
        let ring = style.px(8.0) as i32;
        c.draw_series(std::iter::once(Circle::new(
            p98[i],
            ring,
            t.fg.plotters().stroke_width(style.px(2.0)),
        )))?;
        c.draw_series(std::iter::once(Text::new(
            label.clone(),
            (p98[i].0 + xmax * 0.012, p98[i].1 + ymax * 0.03),
            mark.clone(),
        )))?;
    }
    legend(
        root,
        &[
            (chart.p98_label.clone(), p98_color, false),
            (chart.cost_label.clone(), cost_color, false),
        ],
        style,
        70.0,
    )?;
    root.present()
}
