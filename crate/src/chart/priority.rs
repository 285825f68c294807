//! `sched_pri` over time in a scenario run: step lines (the main thread,
//! then one queue or worker), the band limit's floor dashed when it
//! applies, the legend above the plot.

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::DrawingBackend;
use serde::{Deserialize, Serialize};

use super::frame::{self, AxisSpec, Scale};
use super::legend::{Item, Swatch};
use super::pen::{anchor, DrawResult, Pen};
use super::theme;
use super::words;
use crate::policy::KernelFlavour;
use crate::scenario::{RunView, ScenarioResult};
use crate::text::Filled;

/// A series: its name and `(time ms, priority)` at every change.
pub(crate) struct Series<'a> {
    pub name: &'a str,
    pub points: &'a [(f64, f64)],
}

/// What the chart shows besides the series.
pub(crate) struct Floor {
    /// The main thread's floor with the band limit on.
    pub floor: Option<u8>,
    /// The band limit is off (the legend says there is no floor).
    pub off: bool,
}

fn legend_of<'a>(
    names: impl Iterator<Item = &'a str>,
    floor: &Floor,
    fg: super::theme::Rgb,
    lang: crate::text::Lang,
) -> Vec<Item> {
    let mut legend: Vec<Item> = names
        .enumerate()
        .map(|(i, name)| Item::new(name, theme::priority(i), Swatch::Line))
        .collect();
    if let Some(f) = floor.floor {
        legend.push(Item::new(
            words::FLOOR.fill(lang, &[&f.to_string()]),
            fg,
            Swatch::Dashed,
        ));
    } else if floor.off {
        legend.push(Item::new(words::NO_FLOOR.get(lang), fg, Swatch::Text));
    }
    legend
}

/// The legend of a run's priorities.
pub(crate) fn legend(p: &Priorities, lang: crate::text::Lang) -> Vec<Item> {
    legend_of(
        p.names.iter().map(|n| n.get(lang).as_str()),
        &Floor {
            floor: p.floor,
            off: !p.band_limit,
        },
        super::theme::Rgb(0, 0, 0),
        lang,
    )
}

/// Draws `series` over `[0, horizon]` ms on a `size` (CSS px) chart.
pub(crate) fn draw<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    series: &[Series],
    horizon: f64,
    floor: &Floor,
) -> DrawResult<(), B> {
    let theme = pen.theme;
    let lang = pen.lang;
    let (mut lo, mut hi) = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if let Some(f) = floor.floor {
        lo = lo.min(f as f64);
        hi = hi.max(f as f64);
    }
    if !lo.is_finite() {
        (lo, hi) = (0.0, 64.0);
    }
    let (lo, hi) = ((lo - 3.0).max(0.0).floor(), (hi + 3.0).ceil());
    let legend = legend_of(series.iter().map(|s| s.name), floor, theme.fg, lang);
    let horizon = if horizon > 0.0 { horizon } else { 1.0 };
    let plot = frame::draw(
        pen,
        size,
        &legend,
        &AxisSpec {
            lo: 0.0,
            hi: horizon,
            scale: Scale::Time,
            title: "",
            grid: true,
        },
        &AxisSpec {
            lo,
            hi: hi.max(lo + 1.0),
            scale: Scale::Count,
            title: "sched_pri",
            grid: true,
        },
    )?;
    if let Some(f) = floor.floor {
        let y = plot.y(f as f64);
        pen.dashed(
            (plot.left, y),
            (plot.right, y),
            theme.fg.solid(),
            1.5,
            6.0,
            4.0,
        )?;
        pen.text(
            &words::FLOOR_MARK.fill(lang, &[&f.to_string()]),
            plot.left + 4.0,
            y + 3.0,
            11.0,
            theme.fg,
            anchor(HPos::Left, VPos::Top),
        )?;
    }
    let x = |t: f64| plot.x(t.clamp(0.0, horizon));
    for (i, s) in series.iter().enumerate().rev() {
        let Some(&(t0, p0)) = s.points.first() else {
            continue;
        };
        let mut pts = vec![(x(t0), plot.y(p0))];
        let mut prev = p0;
        for &(t, p) in &s.points[1..] {
            if t > horizon {
                break;
            }
            pts.push((x(t), plot.y(prev)));
            pts.push((x(t), plot.y(p)));
            prev = p;
        }
        pts.push((x(horizon), plot.y(prev)));
        let w = if i == 0 { 2.0 } else { 1.5 };
        pen.polyline(&pts, theme::priority(i).solid(), w)?;
    }
    Ok(())
}

/// The main thread's `sched_pri` floor with the band limit on.
pub(crate) fn priority_floor(band_limit: bool) -> Option<u8> {
    band_limit.then_some(crate::sim::qos::BASEPRI_FOREGROUND - crate::policy::timeshare::BAND_LIMIT)
}

/// The `sched_pri` series of run `run` of a scenario's result, with the
/// chart's span and floor.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Priorities {
    /// The threads' names in both languages (see [`super::timeline::thread_title`]).
    pub names: Vec<Filled>,
    pub points: Vec<Vec<(f64, f64)>>,
    pub horizon: f64,
    pub floor: Option<u8>,
    pub band_limit: bool,
}

/// Whether the band limit was on in a scenario's result (its own answer,
/// or its first run's machine).
pub(crate) fn band_limit(result: &ScenarioResult, runs: &[RunView]) -> bool {
    result.outcome().band_limit().unwrap_or_else(|| {
        runs.first()
            .is_some_and(|v| KernelFlavour::of(&v.machine).band_limit)
    })
}

/// The priorities of run `run` of a scenario's result.
pub(crate) fn of_run(result: &ScenarioResult, runs: &[RunView], run: usize) -> Priorities {
    let view = runs.get(run);
    let series: Vec<&crate::sim::trace::PriSeries> = result
        .outcome()
        .pri_series(run)
        .unwrap_or_else(|| view.map(|v| v.run.pri.iter().collect()).unwrap_or_default());
    let mut horizon = view.map_or(0.0, super::gantt::scenario_horizon);
    if horizon == 0.0 {
        horizon = series
            .iter()
            .filter_map(|s| s.points.last().map(|p| p.0))
            .next()
            .unwrap_or(0.0);
    }
    if let Some(ms) = result.outcome().simulated_ms() {
        if horizon == 0.0 || view.is_none() {
            horizon = ms;
        }
    }
    let band = band_limit(result, runs);
    Priorities {
        names: series
            .iter()
            .map(|s| super::timeline::thread_title(&s.name))
            .collect(),
        points: series
            .iter()
            .map(|s| s.points.iter().map(|&(t, p)| (t, p as f64)).collect())
            .collect(),
        horizon,
        floor: if series.is_empty() {
            None
        } else {
            priority_floor(band)
        },
        band_limit: band,
    }
}

/// Draws a run's [`Priorities`].
// Only the worker's module draws a scenario's priorities (web::scenario_view).
#[cfg_attr(feature = "page", allow(dead_code))]
pub(crate) fn draw_run<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    p: &Priorities,
) -> DrawResult<(), B> {
    let lang = pen.lang;
    let series: Vec<Series> = p
        .names
        .iter()
        .zip(&p.points)
        .map(|(name, points)| Series {
            name: name.get(lang),
            points,
        })
        .collect();
    draw(
        pen,
        size,
        &series,
        p.horizon,
        &Floor {
            floor: p.floor,
            off: !p.band_limit,
        },
    )
}
