//! The task-duration histogram, stacked by class in the Gantt's colours,
//! the classes' legend above the plot (never over the bars).

use plotters_backend::DrawingBackend;

use super::axis;
use super::frame::{self, AxisSpec, Plot, Scale};
use super::legend::{Item, Swatch};
use super::pen::{DrawResult, Pen};
use super::theme;
use super::words;
use crate::stats::{self, percentile_rank};

/// Bins of the duration histogram.
pub(crate) const BINS: usize = 40;

/// Durations binned by class: `BINS` bins from 0 to `hi` per class
/// (`counts[class * BINS + bin]`), the last bin holding everything above
/// when `cut`.
#[derive(Clone, Debug, PartialEq)]
pub struct Bins {
    pub hi: f64,
    pub cut: bool,
    pub counts: Vec<u32>,
}

/// Bins `work` by `class` (`classes` of them). A heavy tail would squash
/// everything into the first bin: past 3 × p99 the axis is cut at p99.
pub fn bins(work: &[f64], class: &[u16], classes: usize) -> Bins {
    // p99 and the maximum by selection, not a sort: three passes over a
    // million durations instead of twenty.
    let n = work.len();
    let (p99, max) = if n == 0 {
        (1.0, 1.0)
    } else {
        let v = stats::at_ranks(work, &[percentile_rank(n, 99.0), n - 1]);
        (v[0], v[1])
    };
    let hi = axis::nice_ceil(if max > 3.0 * p99 { p99 } else { max }.max(1e-6));
    let width = hi / BINS as f64;
    let k = classes.max(1);
    let mut counts = vec![0u32; k * BINS];
    for (&w, &c) in work.iter().zip(class) {
        let b = ((w / width) as usize).min(BINS - 1);
        counts[(c as usize).min(k - 1) * BINS + b] += 1;
    }
    Bins {
        hi,
        cut: max > hi,
        counts,
    }
}

/// Draws `bins` stacked by class, `classes` naming them (the legend), on a
/// `size` (CSS px) chart; returns where the bars went.
pub fn draw<B: DrawingBackend>(
    pen: &mut Pen<B>,
    size: (f64, f64),
    bins: &Bins,
    classes: &[String],
) -> DrawResult<Plot, B> {
    let lang = pen.lang;
    let k = classes.len().max(1);
    let counts = &bins.counts;
    let width = bins.hi / BINS as f64;
    let whole = counts.len() == k * BINS;
    let ymax = (0..BINS)
        .map(|b| {
            (0..k)
                .map(|c| counts.get(c * BINS + b).copied().unwrap_or(0))
                .sum::<u32>()
        })
        .max()
        .unwrap_or(1)
        .max(1) as f64
        * 1.08;
    let legend: Vec<Item> = classes
        .iter()
        .enumerate()
        .map(|(i, c)| Item::new(c.clone(), theme::class(i), Swatch::Box))
        .collect();
    let plot = frame::draw(
        pen,
        size,
        &legend,
        &AxisSpec {
            lo: 0.0,
            hi: bins.hi,
            scale: Scale::Linear(&axis::number_label),
            title: if bins.cut {
                words::HIST_X_CUT.get(lang)
            } else {
                words::HIST_X.get(lang)
            },
            grid: false,
        },
        &AxisSpec {
            lo: 0.0,
            hi: ymax,
            scale: Scale::Count,
            title: words::HIST_Y.get(lang),
            grid: true,
        },
    )?;
    let mut base = [0u32; BINS];
    // Counts of another shape than the classes' draw the frame alone.
    for c in (0..k).filter(|_| whole) {
        let color = theme::class(c).solid();
        for b in 0..BINS {
            let n = counts[c * BINS + b];
            if n == 0 {
                continue;
            }
            let (x0, x1) = (b as f64 * width, (b as f64 + 0.92) * width);
            let (y0, y1) = (base[b] as f64, (base[b] + n) as f64);
            base[b] += n;
            pen.fill(plot.x(x0), plot.y(y1), plot.x(x1), plot.y(y0), color)?;
        }
    }
    Ok(plot)
}
