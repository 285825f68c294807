//! Axis ticks and their labels, for every chart: the finest "nice" step
//! whose labels, measured, do not touch (a wider canvas gets more ticks, a
//! narrow one fewer, never "5000 ms5200 ms"), and time labels in the unit
//! that suits the step, from nanoseconds to hours.

use super::pen::text_width;

/// Space between two labels, in px.
pub(crate) const LABEL_GAP: f64 = 10.0;
/// Size of tick labels, in px.
pub(crate) const LABEL_SIZE: f64 = 11.0;

/// One tick: its value, its position (px) and its label.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tick {
    pub value: f64,
    pub at: f64,
    pub label: String,
}

/// A "nice" step (1, 2 or 5 × 10^k) at least `raw`.
pub(crate) fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    let m = raw / p;
    let k = if m <= 1.0 + 1e-9 {
        1.0
    } else if m <= 2.0 + 1e-9 {
        2.0
    } else if m <= 5.0 + 1e-9 {
        5.0
    } else {
        10.0
    };
    p * k
}

/// The next nice step after `step` (1 → 2 → 5 → 10).
fn next_nice(step: f64) -> f64 {
    nice_step(step * 1.000_001)
}

/// Rounds `v` up to a multiple of a nice step (for axis ends).
pub(crate) fn nice_ceil(v: f64) -> f64 {
    let step = nice_step(v / 5.0);
    ((v / step).ceil() * step).max(step)
}

/// Time steps (ms) past a second: the clock's own divisions.
const CLOCK_STEPS: [f64; 16] = [
    1e3, 2e3, 5e3, 1e4, 15e3, 3e4, 6e4, 12e4, 3e5, 6e5, 9e5, 18e5, 36e5, 72e5, 108e5, 216e5,
];

/// The step after `step` for a time axis: nice steps below a second, then
/// the clock's (seconds, minutes, hours), then nice multiples of an hour.
fn next_time_step(step: f64) -> f64 {
    if step < 1e3 * 0.999_999 {
        return next_nice(step).min(1e3);
    }
    match CLOCK_STEPS.iter().find(|&&s| s > step * 1.000_001) {
        Some(&s) => s,
        None => next_nice(step / 36e5) * 36e5,
    }
}

/// The first step to try for a time axis: the finest sensible one.
fn first_time_step(raw: f64) -> f64 {
    if raw < 1e3 {
        return nice_step(raw);
    }
    let mut s = 1e3;
    while s < raw {
        s = next_time_step(s);
    }
    s
}

/// A time in ms as a label for ticks `step` ms apart: `250 µs`, `9.5 s`,
/// `1500 ms`, `2 min`, `1.5 h`; enough decimals to tell ticks apart, no more.
pub(crate) fn time_label(t: f64, step: f64, hi: f64) -> String {
    const UNITS: [(f64, &str); 6] = [
        (36e5, "h"),
        (6e4, "min"),
        (1e3, "s"),
        (1.0, "ms"),
        (1e-3, "µs"),
        (1e-6, "ns"),
    ];
    // The largest unit the step is at least a tenth of (one decimal at
    // most), and ms while the axis stays under ten seconds (the page's
    // times are in ms).
    let unit = UNITS
        .iter()
        .find(|(u, _)| {
            let ok = step >= *u / 10.0 * 0.999_999;
            match *u as i64 {
                1000 => ok && (step >= 1e3 || hi >= 1e4),
                60_000 => ok && step >= 6e4,
                3_600_000 => ok && step >= 36e5,
                _ => ok,
            }
        })
        .unwrap_or(&UNITS[5]);
    let v = t / unit.0;
    let s = step / unit.0;
    let decimals = decimals_for(s);
    format!("{} {}", fmt_fixed(v, decimals), unit.1)
}

/// Decimals needed to tell values `step` apart.
pub(crate) fn decimals_for(step: f64) -> usize {
    let mut d = 0;
    let mut s = step;
    while d < 9 && (s - s.round()).abs() > 1e-6 * s.max(1.0) {
        s *= 10.0;
        d += 1;
    }
    d
}

/// `v` with `decimals` decimals, without a minus sign for zero.
pub(crate) fn fmt_fixed(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// What an axis runs along.
pub(crate) enum Along {
    /// Horizontal: labels are measured by width.
    X,
    /// Vertical: labels take their height.
    Y,
}

/// Ticks for values `[lo, hi]` drawn from `from` to `to` px (`to < from`
/// for a vertical axis growing upwards), their labels clamped to
/// `[bound.0, bound.1]` px: the finest step from `steps` whose labels do
/// not overlap. `steps(None)` gives the first step to try, `steps(Some(s))`
/// the next coarser one; `label(value, step)` writes a label.
#[allow(clippy::too_many_arguments)]
fn ticks_with(
    lo: f64,
    hi: f64,
    from: f64,
    to: f64,
    bound: (f64, f64),
    along: Along,
    steps: &dyn Fn(Option<f64>) -> f64,
    label: &dyn Fn(f64, f64) -> String,
) -> Vec<Tick> {
    let span = hi - lo;
    if !(span.is_finite() && span > 0.0 && (to - from).abs() > 0.0) {
        return vec![Tick {
            value: lo,
            at: from,
            label: label(lo, 1.0),
        }];
    }
    let px_per = (to - from) / span;
    // The finest step worth trying: a label every 30 px at most.
    let min_step = span * 30.0 / (to - from).abs();
    let mut step = steps(None);
    for _ in 0..200 {
        if step >= min_step {
            break;
        }
        step = steps(Some(step));
    }
    for _ in 0..64 {
        let first = (lo / step - 1e-9).ceil();
        let mut ticks = Vec::new();
        let mut k = first;
        while k * step <= hi + step * 1e-9 && ticks.len() < 10_000 {
            // `+ 0.0` turns -0 into 0 (no "-0 %" label).
            let v = k * step + 0.0;
            ticks.push(Tick {
                value: v,
                at: from + (v - lo) * px_per,
                label: label(v, step),
            });
            k += 1.0;
        }
        if ticks.len() <= 1 || fits(&ticks, bound, &along) {
            return ticks;
        }
        step = steps(Some(step));
    }
    Vec::new()
}

/// Whether no two labels of `ticks`, clamped into `bound`, come closer
/// than [`LABEL_GAP`].
fn fits(ticks: &[Tick], bound: (f64, f64), along: &Along) -> bool {
    let mut prev_end = f64::NEG_INFINITY;
    let (lo, hi) = if bound.0 <= bound.1 {
        bound
    } else {
        (bound.1, bound.0)
    };
    let mut spans: Vec<(f64, f64)> = ticks
        .iter()
        .map(|t| label_span(t, (lo, hi), along))
        .collect();
    spans.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    for (a, b) in spans {
        if a < prev_end + LABEL_GAP {
            return false;
        }
        prev_end = b;
    }
    true
}

/// Where a tick's label lies along the axis, clamped into `[lo, hi]`.
pub(crate) fn label_span(t: &Tick, (lo, hi): (f64, f64), along: &Along) -> (f64, f64) {
    let len = match along {
        Along::X => text_width(&t.label, LABEL_SIZE),
        Along::Y => LABEL_SIZE,
    };
    let a = (t.at - len / 2.0).clamp(lo, (hi - len).max(lo));
    (a, a + len)
}

/// Ticks of a time axis (ms) over `[t0, t1]` drawn from `x0` to `x1` px,
/// labels kept within `bound` px.
pub(crate) fn time_ticks(t0: f64, t1: f64, x0: f64, x1: f64, bound: (f64, f64)) -> Vec<Tick> {
    let span = t1 - t0;
    ticks_with(
        t0,
        t1,
        x0,
        x1,
        bound,
        Along::X,
        &|s| match s {
            None => first_time_step(span * 30.0 / (x1 - x0).abs().max(1.0)),
            Some(s) => next_time_step(s),
        },
        &|v, step| time_label(v, step, t1.abs().max(t0.abs())),
    )
}

/// Ticks of a plain number axis over `[lo, hi]` from `from` to `to` px,
/// at least `min_step` apart (1 for counts), labelled by `fmt(value, step)`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn value_ticks(
    lo: f64,
    hi: f64,
    from: f64,
    to: f64,
    bound: (f64, f64),
    along: Along,
    min_step: f64,
    fmt: &dyn Fn(f64, f64) -> String,
) -> Vec<Tick> {
    let span = hi - lo;
    ticks_with(
        lo,
        hi,
        from,
        to,
        bound,
        along,
        &|s| match s {
            None => nice_step(span * 30.0 / (to - from).abs().max(1.0)).max(min_step),
            Some(s) => next_nice(s),
        },
        fmt,
    )
}

/// A number with the decimals its step needs.
pub(crate) fn number_label(v: f64, step: f64) -> String {
    fmt_fixed(v, decimals_for(step))
}

/// Ticks of a log axis: `lx` is log10 of the value; ticks at 1, 2 and 5
/// × 10^k, thinned to 1 × 10^k and then every other decade when they
/// would touch. `fmt` labels a value (not its log).
pub(crate) fn log_ticks(
    lx0: f64,
    lx1: f64,
    from: f64,
    to: f64,
    bound: (f64, f64),
    fmt: &dyn Fn(f64) -> String,
) -> Vec<Tick> {
    let px_per = (to - from) / (lx1 - lx0).max(1e-12);
    let levels: [&[f64]; 3] = [&[1.0, 2.0, 5.0], &[1.0], &[1.0]];
    for (level, mults) in levels.iter().enumerate() {
        let every = if level == 2 { 2 } else { 1 };
        let mut ticks = Vec::new();
        let mut k = lx0.floor() as i32 - 1;
        while (k as f64) <= lx1 + 1e-9 {
            if k.rem_euclid(every) == 0 {
                for m in mults.iter() {
                    let v = m * 10f64.powi(k);
                    let l = v.log10();
                    if l >= lx0 - 1e-9 && l <= lx1 + 1e-9 {
                        ticks.push(Tick {
                            value: v,
                            at: from + (l - lx0) * px_per,
                            label: fmt(v),
                        });
                    }
                }
            }
            k += 1;
        }
        if ticks.len() <= 1 || fits(&ticks, bound, &Along::X) || level == 2 {
            return ticks;
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlaps(ticks: &[Tick], bound: (f64, f64)) -> Option<String> {
        let spans: Vec<(f64, f64, &str)> = ticks
            .iter()
            .map(|t| {
                let (a, b) = label_span(t, bound, &Along::X);
                (a, b, t.label.as_str())
            })
            .collect();
        for w in spans.windows(2) {
            if w[1].0 < w[0].1 + LABEL_GAP {
                return Some(format!("{:?} and {:?}", w[0], w[1]));
            }
        }
        for s in &spans {
            if s.0 < bound.0 - 1e-9 || s.1 > bound.1 + 1e-9 {
                return Some(format!("{s:?} outside {bound:?}"));
            }
        }
        None
    }

    /// The axis of every chart: for canvases 300 to 3000 px wide and spans
    /// from a microsecond to five hours (and windows that start late), the
    /// labels never touch, stay inside, differ from each other, and there
    /// are at least two whenever two fit.
    #[test]
    fn time_labels_never_overlap() {
        let spans = [
            1e-3, 2.5e-3, 0.01, 0.37, 1.0, 7.0, 16.0, 100.0, 999.0, 4400.0, 5200.0, 10_000.0,
            12_345.0, 60_000.0, 9e5, 36e5, 1.8e7,
        ];
        for width in (300..=3000).step_by(100) {
            let width = width as f64;
            for &span in &spans {
                for t0 in [0.0, span * 3.7, 1e4] {
                    let (x0, x1) = (8.0, width - 8.0);
                    let ticks = time_ticks(t0, t0 + span, x0, x1, (0.0, width));
                    if let Some(e) = overlaps(&ticks, (0.0, width)) {
                        panic!("width {width}, span {span} from {t0}: {e}");
                    }
                    let labels: std::collections::BTreeSet<&str> =
                        ticks.iter().map(|t| t.label.as_str()).collect();
                    assert_eq!(
                        labels.len(),
                        ticks.len(),
                        "width {width}, span {span}: {ticks:?}"
                    );
                    assert!(
                        ticks.len() >= 2,
                        "width {width}, span {span} from {t0}: only {ticks:?}"
                    );
                }
            }
        }
    }

    /// The two cases seen on the page: a 1400 px embed over 10 s, the
    /// scenario embed over 10 s.
    #[test]
    fn the_reported_overlaps_are_gone() {
        for (w, pad) in [(1400.0, 8.0), (640.0, 112.0), (360.0, 112.0)] {
            let ticks = time_ticks(0.0, 10_000.0, pad, w - 10.0, (0.0, w));
            assert!(overlaps(&ticks, (0.0, w)).is_none(), "{ticks:?}");
        }
    }

    #[test]
    fn units_follow_the_step() {
        assert_eq!(time_label(9500.0, 500.0, 10_000.0), "9.5 s");
        assert_eq!(time_label(200.0, 50.0, 600.0), "200 ms");
        assert_eq!(time_label(0.25, 0.05, 1.0), "250 µs");
        assert_eq!(time_label(5_400_000.0, 1_800_000.0, 7_200_000.0), "90 min");
        assert_eq!(time_label(7_200_000.0, 3_600_000.0, 1e7), "2 h");
        assert_eq!(time_label(120_000.0, 60_000.0, 600_000.0), "2 min");
        assert_eq!(time_label(0.0, 1e-5, 1e-3), "0 ns");
    }

    #[test]
    fn value_and_log_ticks_fit() {
        for width in (300..=3000).step_by(50) {
            let w = width as f64;
            for hi in [1.0, 7.5, 400.0, 12_345.0, 1e6] {
                let t = value_ticks(
                    0.0,
                    hi,
                    50.0,
                    w - 10.0,
                    (0.0, w),
                    Along::X,
                    0.0,
                    &number_label,
                );
                assert!(overlaps(&t, (0.0, w)).is_none(), "{w} {hi}: {t:?}");
                assert!(t.len() >= 2);
            }
            let t = log_ticks(0.0f64.max(-0.3), 3.0, 50.0, w - 10.0, (0.0, w), &|v| {
                format!("{v}")
            });
            assert!(overlaps(&t, (0.0, w)).is_none(), "{w}: {t:?}");
        }
    }

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(3.0), 5.0);
        assert_eq!(nice_step(0.2), 0.2);
        assert_eq!(next_nice(2.0), 5.0);
        assert_eq!(nice_ceil(87.0), 100.0);
        assert_eq!(next_time_step(500.0), 1000.0);
        assert_eq!(next_time_step(3e4), 6e4);
    }
}
