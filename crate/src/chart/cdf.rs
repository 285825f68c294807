//! The latency CDF: one step line per policy on shared axes, p50 and p95
//! marked, the policies' legend above the plot.

use crate::experiment::reading::policy_title;
use plotters_backend::DrawingBackend;

use super::axis::{self, nice_ceil};
use super::frame::{self, AxisSpec, Plot, Scale};
use super::legend::{Item, Swatch};
use super::pen::{DrawResult, Pen};
use super::place::{self, Placer, Rect};
use super::theme;
use super::words;
use crate::experiment::{summary, PolicyRun, RunOutcome};
use crate::stats;
use crate::workload::Workload;

/// At most this many points per CDF line (a polyline of more is invisible).
pub(crate) const MAX_POINTS: usize = 1500;

/// [`points`] of `values` in any order: the same points, found by
/// selecting only the ranks the line needs ([`stats::at_ranks`]: three
/// passes over a million latencies), not by sorting them.
pub(crate) fn points_unsorted(values: &[f64], max: usize) -> (Vec<f64>, Vec<f64>) {
    let n = values.len();
    let ranks = ranks(n, max);
    let picked = stats::at_ranks(values, &ranks);
    let Some(&first) = picked.first() else {
        return (vec![], vec![]);
    };
    let mut xs = Vec::with_capacity(ranks.len() + 1);
    let mut ys = Vec::with_capacity(ranks.len() + 1);
    xs.push(first);
    ys.push(0.0);
    for (&r, &x) in ranks.iter().zip(&picked) {
        xs.push(x);
        ys.push((r + 1) as f64 / n as f64);
    }
    (xs, ys)
}

/// The ranks [`points`] reads: every `step`-th from 0, and the last.
fn ranks(n: usize, max: usize) -> Vec<usize> {
    if n == 0 {
        return vec![];
    }
    let step = n.div_ceil(max.max(2)).max(1);
    let mut ranks: Vec<usize> = (0..n).step_by(step).collect();
    if ranks.last().is_some_and(|&r| r + 1 < n) {
        ranks.push(n - 1);
    }
    ranks
}

/// Points of the empirical CDF of `sorted` (ascending): `(x, share of tasks
/// with latency ≤ x)`, thinned to about `max` points evenly in rank.
#[cfg(test)]
pub(crate) fn points(sorted: &[f64], max: usize) -> (Vec<f64>, Vec<f64>) {
    let n = sorted.len();
    if n == 0 {
        return (vec![], vec![]);
    }
    let step = n.div_ceil(max.max(2)).max(1);
    let mut xs = Vec::with_capacity(n / step + 2);
    let mut ys = Vec::with_capacity(n / step + 2);
    xs.push(sorted[0]);
    ys.push(0.0);
    let mut i = 0;
    while i < n {
        xs.push(sorted[i]);
        ys.push((i + 1) as f64 / n as f64);
        i += step;
    }
    if *ys.last().unwrap_or(&0.0) < 1.0 {
        xs.push(sorted[n - 1]);
        ys.push(1.0);
    }
    (xs, ys)
}

/// A run's CDF: the points of its tasks' latencies on `workload`. The one
/// builder of a study's CDF, for the SVG figure and the page's worker alike.
pub(crate) fn run_points(workload: &Workload, run: &PolicyRun) -> (Vec<f64>, Vec<f64>) {
    points_unsorted(&summary::latencies(workload, &run.schedule), MAX_POINTS)
}

/// Draws the CDF of every run of a study (its policies in run order).
pub fn draw_study<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    outcome: &RunOutcome,
) -> DrawResult<Plot, B> {
    let points: Vec<(Vec<f64>, Vec<f64>)> = outcome
        .runs
        .iter()
        .map(|r| run_points(&outcome.workload, r))
        .collect();
    let series: Vec<Series> = outcome
        .runs
        .iter()
        .zip(&points)
        .map(|(r, (x, y))| Series {
            name: r.policy.name(),
            x,
            y,
            p50: r.summary.p50,
            p95: r.summary.p95,
        })
        .collect();
    draw(pen, size, &series)
}

/// One policy's latencies: the CDF's points (`x` ms, `y` share done) and
/// its p50 and p95.
pub(crate) struct Series<'a> {
    pub name: &'a str,
    pub x: &'a [f64],
    pub y: &'a [f64],
    pub p50: f64,
    pub p95: f64,
}

/// Draws the CDF of `series` on a `size` (CSS px) chart.
pub(crate) fn draw<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    series: &[Series],
) -> DrawResult<Plot, B> {
    let theme = pen.theme;
    let lang = pen.lang;
    let xmax = nice_ceil(
        series
            .iter()
            .filter_map(|s| s.x.last().copied())
            .fold(0.0, f64::max)
            .max(1e-6),
    );
    let legend: Vec<Item> = series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            Item::new(
                policy_title(s.name, pen.lang),
                theme::policy(i),
                Swatch::Line,
            )
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
            title: words::CDF_X.get(lang),
            grid: true,
        },
        &AxisSpec {
            lo: 0.0,
            hi: 1.0,
            scale: Scale::Linear(&percent),
            title: words::CDF_Y.get(lang),
            grid: true,
        },
    )?;
    // p50 / p95 guides, under the curves; their names where no curve runs.
    let guides = [(0.5, "p50"), (0.95, "p95")];
    for (y, _) in guides {
        let py = plot.y(y);
        pen.line(
            (plot.left, py),
            (plot.right, py),
            theme.muted.alpha(0.6),
            1.0,
        )?;
    }
    let mut placer = Placer::new(Rect::new(plot.left, plot.top, plot.right, plot.bottom));
    for (i, s) in series.iter().enumerate() {
        let color = theme::policy(i).solid();
        // Steps: across, then up.
        let mut pts = Vec::with_capacity(s.x.len() * 2);
        let mut prev = 0.0;
        for (&x, &y) in s.x.iter().zip(s.y) {
            pts.push((plot.x(x), plot.y(prev)));
            pts.push((plot.x(x), plot.y(y)));
            prev = y;
        }
        pen.polyline(&pts, color, 2.0)?;
        placer.line(&pts);
        for (x, y) in [(s.p50, 0.5), (s.p95, 0.95)] {
            if x.is_finite() {
                let p = (plot.x(x), plot.y(y));
                pen.circle(p, 4.0, color, true, 1.0)?;
                placer.mark(Rect::around(p, 5.0));
            }
        }
    }
    for (y, name) in guides {
        let candidates = place::along_line(plot.y(y), plot.left + 4.0, plot.right - 4.0, 2.0);
        if let Some(c) = placer.place(name, 11.0, &candidates) {
            pen.text(name, c.at.0, c.at.1, 11.0, theme.muted, c.pos)?;
        }
    }
    Ok(plot)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Selecting the ranks gives exactly the points of sorting first, for
    /// sizes around the selection's sort threshold and with ties.
    #[test]
    fn selected_cdf_points_equal_the_sorted_ones() {
        let mut x: u64 = 7;
        for n in [0usize, 1, 2, 5, 1499, 1500, 6000, 6001, 20_000, 123_457] {
            let values: Vec<f64> = (0..n)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((x >> 40) % 5000) as f64 / 8.0
                })
                .collect();
            let mut sorted = values.clone();
            sorted.sort_unstable_by(f64::total_cmp);
            assert_eq!(
                points_unsorted(&values, MAX_POINTS),
                points(&sorted, MAX_POINTS),
                "n = {n}"
            );
        }
    }
}
