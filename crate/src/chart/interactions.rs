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
pub(crate) struct Bar {
    pub start: f64,
    pub phases: [f64; 3],
}

/// One lane of bars (recorded, or sliced at a quantum) and its name.
pub(crate) struct Lane<'a> {
    pub name: &'a str,
    pub bars: &'a [Bar],
}

/// The tallest a bar is drawn, CSS px.
const BAR_PX: f64 = 28.0;

/// The phases' colours: input delay, processing, presentation delay.
pub(crate) const PHASE_COLORS: [Rgb; 3] = theme::STATES;

/// Draws `lanes` top to bottom over the timeline `span` (ms), the legend
/// naming `phases`; a bar narrower than a pixel is still drawn one wide.
pub(crate) fn draw<B: DrawingBackend>(
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

/// One recorded task on the trace's timeline (ms), and whether it is an
/// interaction's own handler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TaskBox {
    pub start: f64,
    pub len: f64,
    pub handler: bool,
}

/// A plain task's colour (the main thread's), and an interaction's own
/// handler's: processing's colour, as the bars above draw processing.
pub(crate) const TASK_COLOR: Rgb = theme::MAIN_THREAD;
pub(crate) const HANDLER_COLOR: Rgb = PHASE_COLORS[1];

/// The recorded tasks as a one-lane Gantt over the timeline `span` (ms),
/// drawn under the bars on the same axis (the same `span` and size give
/// the same x scale): each task a box, an interaction's own handler in
/// [`HANDLER_COLOR`] with a dark band on top and an outline, so it stands
/// out at any width. `words`: the lane's name, then the legend's two
/// entries (task, handler). Returns the plot and how many handler tasks
/// were drawn (those inside the span).
pub fn draw_tasks<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    tasks: &[TaskBox],
    words: [&str; 3],
    span: (f64, f64),
    x_title: &str,
) -> DrawResult<(Plot, usize), B> {
    let mut legend = vec![Item::new(words[1], TASK_COLOR, Swatch::Box)];
    if tasks.iter().any(|t| t.handler) {
        legend.push(Item::new(words[2], HANDLER_COLOR, Swatch::Striped));
    }
    let hi = if span.1 > span.0 {
        span.1
    } else {
        span.0 + 1.0
    };
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
            hi: 1.0,
            scale: Scale::Linear(&none),
            title: "",
            grid: false,
        },
    )?;
    let fg = pen.theme.fg;
    let top = plot.y(1.0) + 16.0;
    let bottom = (plot.y(0.0) - 4.0).min(top + BAR_PX);
    pen.text(
        words[0],
        plot.left + 4.0,
        top - 2.0,
        11.0,
        fg,
        anchor(HPos::Left, VPos::Bottom),
    )?;
    let (lo, hi) = (plot.x.0, plot.x.1);
    let mut handlers = 0;
    // Plain tasks first, handlers over them.
    for pass in [false, true] {
        for t in tasks.iter().filter(|t| t.handler == pass) {
            let end = t.start + t.len.max(0.0);
            if end < lo || t.start > hi || !t.start.is_finite() || !end.is_finite() {
                continue;
            }
            let x0 = plot.x(t.start.max(lo));
            let x1 = plot.x(end.min(hi)).max(x0 + 1.0).min(plot.right);
            let color = if t.handler { HANDLER_COLOR } else { TASK_COLOR };
            pen.fill(x0, top, x1, bottom, color.solid())?;
            if t.handler {
                handlers += 1;
                let band = ((bottom - top) / 4.0).max(2.0);
                pen.fill(x0, top, x1, top + band, fg.solid())?;
                let a = (pen.dx(x0).floor() as i32, pen.dy(top).floor() as i32);
                let b = (pen.dx(x1).ceil() as i32, pen.dy(bottom).ceil() as i32);
                let w = pen.width(1.0);
                pen.outline_px(a, b, fg.solid(), w)?;
            }
        }
    }
    Ok((plot, handlers))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::svg::Svg;
    use crate::chart::theme::Palette;
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
            let mut pen = Pen::new(&mut svg, 1.0, Palette::dark(false), Lang::En);
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

    fn tasks_svg(tasks: &[TaskBox]) -> (String, usize, Plot) {
        let mut svg = Svg::new(600, 160, None);
        let (plot, n) = {
            let mut pen = Pen::new(&mut svg, 1.0, Palette::dark(false), Lang::En);
            draw_tasks(
                &mut pen,
                (600.0, 160.0),
                tasks,
                ["main thread", "task", "an interaction's own handler"],
                (0.0, 400.0),
                "time (ms)",
            )
            .unwrap()
        };
        (svg.finish("tasks", &[]), n, plot)
    }

    #[test]
    fn handler_tasks_are_drawn_apart_and_counted() {
        let tasks = [
            TaskBox {
                start: 10.0,
                len: 50.0,
                handler: false,
            },
            TaskBox {
                start: 100.0,
                len: 120.0,
                handler: true,
            },
            TaskBox {
                start: 300.0,
                len: 5.0,
                handler: true,
            },
            // Outside the span: not drawn, not counted.
            TaskBox {
                start: 900.0,
                len: 5.0,
                handler: true,
            },
        ];
        let (out, n, _) = tasks_svg(&tasks);
        assert_eq!(n, 2);
        assert!(out.contains(&TASK_COLOR.css()));
        assert!(out.contains(&HANDLER_COLOR.css()));
        assert!(
            out.contains("an interaction&#39;s own handler")
                || out.contains("an interaction's own handler"),
            "{out}"
        );
        // Without handlers: no handler colour, no legend entry.
        let plain: Vec<TaskBox> = tasks
            .iter()
            .map(|t| TaskBox {
                handler: false,
                ..*t
            })
            .collect();
        let (out, n, _) = tasks_svg(&plain);
        assert_eq!(n, 0);
        assert!(!out.contains(&HANDLER_COLOR.css()));
        assert!(!out.contains("own handler"));
    }

    #[test]
    fn the_tasks_share_the_bars_time_axis() {
        // Same size and span: the same x scale, so a task and the bar of
        // the interaction it handled line up.
        let bars = [Bar {
            start: 100.0,
            phases: [10.0, 120.0, 20.0],
        }];
        let lanes = [Lane {
            name: "recorded",
            bars: &bars,
        }];
        let mut svg = Svg::new(600, 160, None);
        let bar_plot = {
            let mut pen = Pen::new(&mut svg, 1.0, Palette::dark(false), Lang::En);
            draw(
                &mut pen,
                (600.0, 160.0),
                &lanes,
                ["a", "b", "c"],
                (0.0, 400.0),
                "time (ms)",
            )
            .unwrap()
        };
        let (_, _, task_plot) = tasks_svg(&[TaskBox {
            start: 110.0,
            len: 120.0,
            handler: true,
        }]);
        assert_eq!(bar_plot.x, task_plot.x);
        assert_eq!(
            (bar_plot.left, bar_plot.right),
            (task_plot.left, task_plot.right)
        );
        assert_eq!(bar_plot.x(110.0), task_plot.x(110.0));
    }
}
