//! The latency CDF and the task-duration histogram, drawn with plotters on
//! an HTML canvas (`plotters_canvas::CanvasBackend`).

use plotters::chart::MeshStyle;
use plotters::prelude::*;
use plotters_backend::{BackendColor, BackendCoord, BackendTextStyle, DrawingErrorKind};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use super::canvas::{context, nice_step};
use super::palette::{self, Theme};
use super::view::View;
use crate::stats::{self, percentile_rank};

/// Bins of the duration histogram.
const BINS: usize = 40;

/// `CanvasBackend`, except that text is measured with the canvas's own
/// `measureText`. (plotters' web font code measures by inserting a styled
/// `<span>` into the page: a forced layout per label, and an inline style
/// the page's Content-Security-Policy rightly refuses.)
// `plotters_backend::BackendStyle` is spelled out, not imported: its
// `stroke_width` would clash with plotters' `Color::stroke_width`.
pub(crate) struct Canvas {
    inner: CanvasBackend,
    ctx: web_sys::CanvasRenderingContext2d,
}

impl Canvas {
    pub(crate) fn new(canvas: &HtmlCanvasElement) -> Result<Canvas, JsError> {
        Ok(Canvas {
            inner: CanvasBackend::with_canvas_object(canvas.clone())
                .ok_or_else(|| JsError::new("no canvas backend"))?,
            ctx: context(canvas)?,
        })
    }
}

type Err = DrawingErrorKind<<CanvasBackend as DrawingBackend>::ErrorType>;

impl DrawingBackend for Canvas {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), Err> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), Err> {
        self.inner.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Err> {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: plotters_backend::BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Err> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: plotters_backend::BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Err> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: plotters_backend::BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Err> {
        self.inner.draw_path(path, style)
    }
    fn draw_circle<S: plotters_backend::BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Err> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: plotters_backend::BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Err> {
        self.inner.fill_polygon(vert, style)
    }
    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<(), Err> {
        self.inner.draw_text(text, style, pos)
    }
    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Result<(u32, u32), Err> {
        // The same font string CanvasBackend::draw_text sets.
        self.ctx.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str()
        ));
        let width = self
            .ctx
            .measure_text(text)
            .map(|m| m.width())
            .unwrap_or(0.0);
        Ok((width.ceil() as u32, style.size().ceil() as u32))
    }
}

pub(crate) enum Corner {
    UpperRight,
    LowerRight,
}

/// A legend box drawn from plain elements (plotters' own series labels
/// measure text through the DOM; see [`Canvas`]). `items`: label, colour,
/// line (true) or box swatch.
pub(crate) fn legend(
    root: &DrawingArea<Canvas, plotters::coord::Shift>,
    canvas: &HtmlCanvasElement,
    items: &[(String, RGBColor, bool)],
    dpr: f64,
    theme: &Theme,
    corner: Corner,
) -> Result<(), JsError> {
    if items.is_empty() {
        return Ok(());
    }
    let ctx = context(canvas)?;
    let size = 12.0 * dpr;
    ctx.set_font(&format!("normal {size}px sans-serif"));
    let text_w = items
        .iter()
        .map(|(l, _, _)| ctx.measure_text(l).map(|m| m.width()).unwrap_or(0.0))
        .fold(0.0, f64::max);
    let (pad, swatch, line_h) = (8.0 * dpr, 18.0 * dpr, 17.0 * dpr);
    let w = (pad * 3.0 + swatch + text_w).ceil() as i32;
    let h = (pad * 2.0 + line_h * items.len() as f64).ceil() as i32;
    let (cw, ch) = root.dim_in_pixel();
    // Inside the plot: clear of the y labels on the left and the x labels below.
    let x0 = cw as i32 - w - (20.0 * dpr) as i32;
    let y0 = match corner {
        Corner::UpperRight => (20.0 * dpr) as i32,
        Corner::LowerRight => ch as i32 - h - (56.0 * dpr) as i32,
    };
    root.draw(&Rectangle::new(
        [(x0, y0), (x0 + w, y0 + h)],
        theme.bg.plotters().mix(0.9).filled(),
    ))
    .map_err(err)?;
    root.draw(&Rectangle::new(
        [(x0, y0), (x0 + w, y0 + h)],
        theme.muted.plotters().stroke_width(1),
    ))
    .map_err(err)?;
    let font = (FontFamily::SansSerif, size)
        .into_font()
        .color(&theme.fg.plotters())
        .pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Left,
            plotters::style::text_anchor::VPos::Center,
        ));
    for (i, (label, color, line)) in items.iter().enumerate() {
        let cy = y0 + (pad + line_h * (i as f64 + 0.5)) as i32;
        let sx = x0 + pad as i32;
        if *line {
            root.draw(&PathElement::new(
                vec![(sx, cy), (sx + swatch as i32, cy)],
                color.stroke_width((3.0 * dpr) as u32),
            ))
            .map_err(err)?;
        } else {
            let r = (5.0 * dpr) as i32;
            root.draw(&Rectangle::new(
                [(sx + 2, cy - r), (sx + 2 * r + 2, cy + r)],
                color.filled(),
            ))
            .map_err(err)?;
        }
        root.draw(&Text::new(
            label.clone(),
            (sx + (swatch + pad) as i32, cy),
            font.clone(),
        ))
        .map_err(err)?;
    }
    Ok(())
}

pub(crate) fn err<E: std::fmt::Debug>(e: E) -> JsError {
    JsError::new(&format!("plot: {e:?}"))
}

/// What every plotters chart on the page starts from: a cleared canvas and
/// the theme's colours, with sizes scaled by the device pixel ratio.
pub(crate) struct ChartKit {
    pub theme: Theme,
    pub fg: RGBColor,
    pub muted: RGBColor,
    pub grid: RGBColor,
    pub dpr: f64,
}

impl ChartKit {
    pub fn begin(canvas: &HtmlCanvasElement, dpr: f64, dark: bool) -> Result<ChartKit, JsError> {
        clear(canvas)?;
        let theme = Theme::new(dark);
        Ok(ChartKit {
            fg: theme.fg.plotters(),
            muted: theme.muted.plotters(),
            grid: theme.grid.plotters(),
            theme,
            dpr,
        })
    }

    /// CSS pixels to device pixels.
    pub fn px(&self, v: f64) -> u32 {
        (v * self.dpr).round() as u32
    }

    /// The page's look for a chart's axes and grid: no light lines, the
    /// theme's grid and axis colours, 11 px labels and 12 px descriptions.
    pub fn style_mesh<'m, 'a, 'b, X, Y, DB>(
        &self,
        mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
    ) -> &'m mut MeshStyle<'a, 'b, X, Y, DB>
    where
        X: Ranged,
        Y: Ranged,
        DB: DrawingBackend,
    {
        mesh.light_line_style(TRANSPARENT)
            .bold_line_style(self.grid)
            .axis_style(self.muted)
            .label_style(self.font(11.0))
            .axis_desc_style(self.font(12.0))
    }

    /// The page's sans-serif at `size` CSS pixels, in the foreground colour.
    pub fn font(&self, size: f64) -> TextStyle<'static> {
        (FontFamily::SansSerif, size * self.dpr)
            .into_font()
            .color(&self.fg)
    }
}

pub(crate) fn clear(canvas: &HtmlCanvasElement) -> Result<(), JsError> {
    let ctx = context(canvas)?;
    ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok();
    ctx.clear_rect(0.0, 0.0, canvas.width() as f64, canvas.height() as f64);
    Ok(())
}

/// Rounds `v` up to a multiple of a nice step (for axis ends).
pub(crate) fn nice_ceil(v: f64) -> f64 {
    let step = nice_step(v / 5.0);
    ((v / step).ceil() * step).max(step)
}

/// Bins of the duration histogram, counted in the worker (a million
/// durations sorted on the main thread took a quarter of a second): `BINS`
/// bins from 0 to `hi` per class (`counts[class * BINS + bin]`), the last
/// bin holding everything above. A heavy tail would squash everything into
/// the first bin: past 3 × p99 the axis is cut at p99 (`cut`).
pub(crate) fn histogram(work: &[f64], class: &[u16], classes: usize) -> (f64, bool, Vec<u32>) {
    let n = work.len();
    // p99 and the maximum by selection, not a sort: three passes over a
    // million durations instead of twenty.
    let (p99, max) = if n == 0 {
        (1.0, 1.0)
    } else {
        let v = stats::at_ranks(work, &[percentile_rank(n, 99.0), n - 1]);
        (v[0], v[1])
    };
    let hi = nice_ceil(if max > 3.0 * p99 { p99 } else { max }.max(1e-6));
    let width = hi / BINS as f64;
    let k = classes.max(1);
    let mut counts = vec![0u32; k * BINS];
    for (&w, &c) in work.iter().zip(class) {
        let b = ((w / width) as usize).min(BINS - 1);
        counts[(c as usize).min(k - 1) * BINS + b] += 1;
    }
    (hi, max > hi, counts)
}

// The View's CDF and histogram (its wasm methods are in `view.rs`).

/// Latency CDF of every policy on shared axes, p50 and p95 marked.
pub(crate) fn draw_cdf(
    view: &View,
    canvas: &HtmlCanvasElement,
    dpr: f64,
    dark: bool,
) -> Result<(), JsError> {
    let kit = ChartKit::begin(canvas, dpr, dark)?;
    let muted = kit.muted;
    let px = |v: f64| kit.px(v);
    let words = super::labels::get();
    let root = Canvas::new(canvas)?.into_drawing_area();
    let xmax = nice_ceil(
        view.runs
            .iter()
            .filter_map(|r| r.cdf_x.last().copied())
            .fold(0.0, f64::max)
            .max(1e-6),
    );
    // Room for "100 %" beside the axis title, and for the last x label
    // (it is centred on the right edge).
    let mut chart = ChartBuilder::on(&root)
        .margin(px(10.0))
        .margin_right(px(24.0))
        .x_label_area_size(px(34.0))
        .y_label_area_size(px(58.0))
        .build_cartesian_2d(0f64..xmax, 0f64..1f64)
        .map_err(err)?;
    kit.style_mesh(&mut chart.configure_mesh())
        .x_labels(6)
        .y_labels(6)
        .x_desc(words.cdf_x.as_str())
        .y_desc(words.cdf_y.as_str())
        .y_label_formatter(&|v| format!("{:.0} %", v * 100.0))
        .x_label_formatter(&|v| format!("{v}"))
        .draw()
        .map_err(err)?;
    // p50 / p95 guides.
    for (y, name) in [(0.5, "p50"), (0.95, "p95")] {
        chart
            .draw_series(LineSeries::new(
                vec![(0.0, y), (xmax, y)],
                muted.mix(0.6).stroke_width(px(1.0).max(1)),
            ))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Text::new(
                name.to_string(),
                (xmax * 0.005, y - 0.015),
                (FontFamily::SansSerif, 11.0 * dpr)
                    .into_font()
                    .color(&muted)
                    .pos(plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Left,
                        plotters::style::text_anchor::VPos::Bottom,
                    )),
            )))
            .map_err(err)?;
    }
    for (i, r) in view.runs.iter().enumerate() {
        let color = palette::policy(i).plotters();
        let mut pts = Vec::with_capacity(r.cdf_x.len() * 2);
        // Steps: horizontal then vertical.
        let mut prev_y = 0.0;
        for (&x, &y) in r.cdf_x.iter().zip(&r.cdf_y) {
            pts.push((x, prev_y));
            pts.push((x, y));
            prev_y = y;
        }
        let style = color.stroke_width(px(2.0).max(1));
        chart
            .draw_series(LineSeries::new(pts, style))
            .map_err(err)?;
        let radius = px(4.0) as i32;
        chart
            .draw_series(
                [(r.p50, 0.5), (r.p95, 0.95)]
                    .into_iter()
                    .map(|(x, y)| Circle::new((x, y), radius, color.filled())),
            )
            .map_err(err)?;
    }
    let items: Vec<(String, RGBColor, bool)> = view
        .runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            (
                r.policy.to_ascii_uppercase(),
                palette::policy(i).plotters(),
                true,
            )
        })
        .collect();
    legend(&root, canvas, &items, dpr, &kit.theme, Corner::LowerRight)?;
    root.present().map_err(err)?;
    Ok(())
}

/// Histogram of task durations, stacked by class (the Gantt's legend),
/// from the bins the worker counted ([`histogram`]).
pub(crate) fn draw_histogram(
    view: &View,
    canvas: &HtmlCanvasElement,
    dpr: f64,
    dark: bool,
) -> Result<(), JsError> {
    let kit = ChartKit::begin(canvas, dpr, dark)?;
    let px = |v: f64| kit.px(v);
    let words = super::labels::get();
    let hi = view.hist.hi;
    let width = hi / BINS as f64;
    let k = view.classes.len().max(1);
    let counts = &view.hist.counts;
    if counts.len() != k * BINS {
        return Err(JsError::new("histogram counts do not match the classes"));
    }
    let ymax = (0..BINS)
        .map(|b| (0..k).map(|c| counts[c * BINS + b]).sum::<u32>())
        .max()
        .unwrap_or(1)
        .max(1) as f64
        * 1.08;
    let root = Canvas::new(canvas)?.into_drawing_area();
    let mut chart = ChartBuilder::on(&root)
        .margin(px(10.0))
        .x_label_area_size(px(34.0))
        .y_label_area_size(px(44.0))
        .build_cartesian_2d(0f64..hi, 0f64..ymax)
        .map_err(err)?;
    kit.style_mesh(&mut chart.configure_mesh())
        .disable_x_mesh()
        .x_labels(6)
        .y_labels(5)
        .x_desc(if view.hist.cut {
            words.hist_x_cut.as_str()
        } else {
            words.hist_x.as_str()
        })
        .y_desc(words.hist_y.as_str())
        .y_label_formatter(&|v| format!("{v:.0}"))
        .x_label_formatter(&|v| format!("{v}"))
        .draw()
        .map_err(err)?;
    let mut base = [0u32; BINS];
    for c in 0..k {
        let color = palette::class(c).plotters();
        let bars: Vec<_> = (0..BINS)
            .filter(|&b| counts[c * BINS + b] > 0)
            .map(|b| {
                let (x0, x1) = (b as f64 * width, (b + 1) as f64 * width);
                let y0 = base[b] as f64;
                let y1 = y0 + counts[c * BINS + b] as f64;
                base[b] += counts[c * BINS + b];
                Rectangle::new([(x0, y0), (x1 - width * 0.08, y1)], color.filled())
            })
            .collect();
        chart.draw_series(bars).map_err(err)?;
    }
    let items: Vec<(String, RGBColor, bool)> = (0..k)
        .map(|c| {
            let label = view.classes.get(c).cloned().unwrap_or_default();
            (format!("{label} ms"), palette::class(c).plotters(), false)
        })
        .collect();
    legend(&root, canvas, &items, dpr, &kit.theme, Corner::UpperRight)?;
    root.present().map_err(err)?;
    Ok(())
}
