//! The measured input delays of a run (`input_delay.rs`) beside tailslice's
//! model on the pieces that actually ran: the crate's own exact
//! distribution (`responsiveness::delay`) over the window the presses
//! arrived in, with and without the measured transit time, and the
//! sampling spread that a sample of this many presses has.

use tailslice::responsiveness::plan::run;
use tailslice::responsiveness::{
    Chunk, DelayDistribution, Plan, Task, Window, YieldKind, Yielding,
};

use crate::bench_report::{percentile, sorted};
use crate::input_delay::{planned_span, BusyTask, Mode, RanPiece, Recorded};

/// Measured beside modelled, for one mode, ms.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Presses measured.
    pub n: usize,
    /// Handler-side input delay (`performance.now()` in the handler −
    /// `event.timeStamp`).
    pub mean: f64,
    pub p50: f64,
    pub p98: f64,
    /// Presses that got an Event Timing entry (duration ≥ 16 ms).
    pub event_timing_n: usize,
    /// p98 from Event Timing alone, counting unreported presses as short:
    /// exact when it is at least the threshold (every press that long was
    /// reported), NaN otherwise.
    pub event_timing_p98: f64,
    /// Median and largest |Event Timing delay − handler-side delay| over
    /// reported presses (the two readings are taken microseconds apart;
    /// only a thread descheduled between them widens the gap).
    pub event_timing_gap_p50: f64,
    pub event_timing_gap_max: f64,
    /// The model's mean and p98 on the pieces as they ran, no transit.
    pub model_mean: f64,
    pub model_p98: f64,
    /// The model's standard deviation of one press's delay.
    pub model_sd: f64,
    /// The model's quantiles at the p98's sampling bounds (±3 standard
    /// errors of the rank for this n): a measured p98 between them is as
    /// close as this many presses can tell.
    pub model_p98_low: f64,
    pub model_p98_high: f64,
    /// Transit time added to the model's delays, ms.
    pub transit: f64,
    /// Presses that arrived inside a piece followed by its own continuation.
    pub at_yield_eligible: usize,
    /// …of which the handler ran before the continuation started.
    pub at_yield_first: usize,
    /// The arrival window's length, ms.
    pub window_len: f64,
}

impl Comparison {
    pub fn model_mean_with_transit(&self) -> f64 {
        self.model_mean + self.transit
    }
    pub fn model_p98_with_transit(&self) -> f64 {
        self.model_p98 + self.transit
    }
    /// Measured mean / model mean with transit.
    pub fn mean_ratio(&self) -> f64 {
        self.mean / self.model_mean_with_transit()
    }
    /// The standard error of the measured mean if the model holds.
    pub fn mean_standard_error(&self) -> f64 {
        self.model_sd / (self.n as f64).sqrt()
    }
    /// Share of presses arriving inside a piece that were handled at its
    /// yield, before the continuation.
    pub fn at_yield_share(&self) -> f64 {
        if self.at_yield_eligible == 0 {
            f64::NAN
        } else {
            self.at_yield_first as f64 / self.at_yield_eligible as f64
        }
    }
}

/// The window the presses arrived in, estimated from their timestamps: the
/// unbiased estimate of a uniform distribution's ends from n samples is the
/// sample's range widened by one gap, `(max − min)/(n − 1)`, at each end.
pub fn arrival_window(stamps: &[f64]) -> Window {
    let lo = stamps.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = stamps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if stamps.len() < 2 || hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater) {
        return Window::new(0.0, 0.0);
    }
    let gap = (hi - lo) / (stamps.len() - 1) as f64;
    Window::new(lo - gap, hi + gap)
}

/// The model's distribution for one run: its pieces, its presses' window.
pub fn model_of(pieces: &[RanPiece], stamps: &[f64]) -> DelayDistribution {
    let chunks: Vec<Chunk> = pieces
        .iter()
        .map(|p| Chunk {
            task: p.task,
            start: p.start,
            len: p.end - p.start,
        })
        .collect();
    DelayDistribution::new(&chunks, arrival_window(stamps))
}

/// E[D²] of a distribution from its survival function, ∫ 2t·S(t) dt. S is
/// piecewise linear, so Simpson's rule on a fine grid is as good as exact.
fn second_moment(d: &DelayDistribution) -> f64 {
    let top = d.max();
    if top <= 0.0 {
        return 0.0;
    }
    let steps = 20_000;
    let h = top / steps as f64;
    let f = |t: f64| 2.0 * t * d.survival(t);
    let mut s = f(0.0) + f(top);
    for i in 1..steps {
        s += f(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
    }
    s * h / 3.0
}

/// Compares the runs of one mode (each run is its own page clock and
/// window; their presses are pooled in proportion to their count) with the
/// model, adding `transit` ms to every modelled delay.
pub fn compare(runs: &[Recorded], transit: f64) -> Comparison {
    let delays: Vec<f64> = runs
        .iter()
        .flat_map(|r| r.presses.iter().map(|p| p.delay()))
        .collect();
    let n = delays.len();
    let s = sorted(&delays);
    let mean = delays.iter().sum::<f64>() / n.max(1) as f64;

    // Event Timing: unreported presses sort first (their duration, hence
    // their delay, was under the threshold).
    let mut et: Vec<f64> = runs
        .iter()
        .flat_map(|r| {
            r.presses
                .iter()
                .map(|p| p.event_timing_delay.unwrap_or(f64::NEG_INFINITY))
        })
        .collect();
    et.sort_by(f64::total_cmp);
    let et_p98 = percentile(&et, 98.0);
    let event_timing_p98 = if et_p98 >= 16.0 { et_p98 } else { f64::NAN };
    let reported: Vec<(f64, f64)> = runs
        .iter()
        .flat_map(|r| r.presses.iter())
        .filter_map(|p| p.event_timing_delay.map(|e| (e, p.delay())))
        .collect();
    let gaps = sorted(
        &reported
            .iter()
            .map(|(e, h)| (e - h).abs())
            .collect::<Vec<f64>>(),
    );

    // The model of the pooled presses: a mixture of the runs' distributions,
    // weighted by their presses.
    let models: Vec<(DelayDistribution, f64)> = runs
        .iter()
        .map(|r| {
            let stamps: Vec<f64> = r.presses.iter().map(|p| p.time_stamp).collect();
            (
                model_of(&r.pieces, &stamps),
                r.presses.len() as f64 / n.max(1) as f64,
            )
        })
        .collect();
    let mix = |f: &dyn Fn(&DelayDistribution) -> f64| -> f64 {
        models.iter().map(|(d, w)| w * f(d)).sum()
    };
    let model_mean = mix(&|d| d.mean());
    let second = mix(&second_moment);
    let model_sd = (second - model_mean * model_mean).max(0.0).sqrt();
    let survival = |t: f64| mix(&|d| d.survival(t));
    let quantile = |p: f64| {
        mixture_quantile(
            &survival,
            models.iter().map(|(d, _)| d.max()).fold(0.0, f64::max),
            p,
        )
    };
    let spread = 3.0 * (0.98 * 0.02 / n.max(1) as f64).sqrt();
    let window_len = mix(&|d| d.window_len());

    let (mut eligible, mut first) = (0, 0);
    for r in runs {
        let (e, f) = handled_at_yield(r, transit);
        eligible += e;
        first += f;
    }
    Comparison {
        n,
        mean,
        p50: percentile(&s, 50.0),
        p98: percentile(&s, 98.0),
        event_timing_n: reported.len(),
        event_timing_p98,
        event_timing_gap_p50: percentile(&gaps, 50.0),
        event_timing_gap_max: gaps.last().copied().unwrap_or(f64::NAN),
        model_mean,
        model_p98: quantile(0.98),
        model_sd,
        model_p98_low: quantile(0.98 - spread),
        model_p98_high: quantile((0.98 + spread).min(1.0)),
        transit,
        at_yield_eligible: eligible,
        at_yield_first: first,
        window_len,
    }
}

/// The smallest t with P(delay > t) ≤ 1 − p, by bisection on a
/// non-increasing survival function over [0, top].
fn mixture_quantile(survival: &dyn Fn(f64) -> f64, top: f64, p: f64) -> f64 {
    let target = 1.0 - p;
    if survival(0.0) <= target {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0, top);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if survival(mid) <= target {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// Presses that reached the main thread while a piece ran that has a
/// continuation (timestamp inside the piece, at least `transit` before its
/// end), and how many of them were handled before that continuation.
fn handled_at_yield(r: &Recorded, transit: f64) -> (usize, usize) {
    let mut next_of: Vec<(RanPiece, f64)> = Vec::new();
    for (i, p) in r.pieces.iter().enumerate() {
        if let Some(next) = r.pieces[i + 1..].iter().find(|q| q.task == p.task) {
            next_of.push((*p, next.start));
        }
    }
    let mut eligible = 0;
    let mut first = 0;
    for press in &r.presses {
        if let Some((_, next)) = next_of
            .iter()
            .find(|(p, _)| press.time_stamp >= p.start && press.time_stamp < p.end - transit)
        {
            eligible += 1;
            if press.handled < *next {
                first += 1;
            }
        }
    }
    (eligible, first)
}

/// The idle page's transit time: the mean handler-side delay of presses
/// with nothing else running, and its median.
pub fn transit_of(idle: &Recorded) -> (f64, f64) {
    let d: Vec<f64> = idle.presses.iter().map(|p| p.delay()).collect();
    let mean = d.iter().sum::<f64>() / d.len().max(1) as f64;
    (mean, percentile(&sorted(&d), 50.0))
}

/// The model's mean and p98 from the schedule alone, as the CLI would
/// predict it: the crate's own plan of the tasks (whole, or sliced with
/// `scheduler.yield()` at its default cost) over the planned span, no
/// transit. Set beside the pieces that ran, it shows what the browser
/// added (timer lateness, pieces stretched when the thread lost its core).
pub fn planned_model(tasks: &[BusyTask], mode: Mode) -> (f64, f64) {
    let span = planned_span(tasks);
    let tasks: Vec<Task> = tasks.iter().map(|t| Task::new(t.start, t.dur)).collect();
    let plan = match mode {
        Mode::Whole => Plan::Recorded,
        Mode::Sliced(q) => Plan::Sliced {
            quantum_ms: q,
            yielding: Yielding::new(YieldKind::Scheduler, 0.1),
        },
    };
    let schedule = run(&tasks, &plan);
    let d = DelayDistribution::new(&schedule.chunks, Window::new(0.0, span));
    (d.mean(), d.quantile(0.98))
}

/// Prints one line per mode: the measured delays (handler-side and Event
/// Timing), the model without and with transit, their ratio and the share
/// of presses handled at the yield.
pub fn print_table(rows: &[(String, Comparison)]) {
    println!(
        "{:<16} {:>5} | {:>6} {:>6} {:>6} | {:>5} {:>6} {:>11} | {:>6} {:>6} | {:>6} {:>6} | {:>5} | {:>8}",
        "mode", "n", "mean", "p50", "p98", "ET n", "ET p98", "ET Δ p50/max", "model", "p98",
        "+trans", "p98", "ratio", "at yield"
    );
    for (label, c) in rows {
        println!(
            "{:<16} {:>5} | {:>6.2} {:>6.2} {:>6.1} | {:>5} {:>6.1} {:>5.2}/{:<5.2} | {:>6.2} {:>6.1} | {:>6.2} {:>6.1} | {:>5.2} | {:>8}",
            label,
            c.n,
            c.mean,
            c.p50,
            c.p98,
            c.event_timing_n,
            c.event_timing_p98,
            c.event_timing_gap_p50,
            c.event_timing_gap_max,
            c.model_mean,
            c.model_p98,
            c.model_mean_with_transit(),
            c.model_p98_with_transit(),
            c.mean_ratio(),
            if c.at_yield_eligible == 0 {
                "–".to_string()
            } else {
                format!("{:.1} %", 100.0 * c.at_yield_share())
            }
        );
    }
    println!(
        "  (ms; mean/p50/p98: handler-side delay; ET: presses with an Event Timing entry, \
         their p98 when ≥ 16 ms, median and largest gap to the handler's reading; model: tailslice's \
         distribution on the pieces that ran; +trans: with the idle page's transit added; \
         ratio: measured mean / model mean with transit; at yield: presses arriving inside \
         a piece handled before its continuation)"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input_delay::Press;

    fn press(t: f64, handled: f64) -> Press {
        Press {
            time_stamp: t,
            handled,
            event_timing_delay: None,
        }
    }

    #[test]
    fn the_plan_of_one_long_task_gives_the_residual_life_figures() {
        // One 100 ms task in a 200 ms span: whole, mean 100²/400 = 25 ms;
        // sliced at 20 ms, every piece ≤ 20 ms (yields add 0.1 ms each).
        let tasks = [BusyTask {
            start: 100.0,
            dur: 100.0,
        }];
        let (mean, p98) = planned_model(&tasks, Mode::Whole);
        assert!((mean - 25.0).abs() < 1e-9, "{mean}");
        assert!((p98 - (100.0 - 0.02 * 200.0)).abs() < 1e-9, "{p98}");
        let (mean, p98) = planned_model(&tasks, Mode::Sliced(20.0));
        assert!((mean - 5.0 * 400.0 / 400.0).abs() < 0.05, "{mean}");
        assert!(p98 <= 20.0, "{p98}");
    }

    #[test]
    fn the_window_estimate_widens_the_range_by_one_gap() {
        let w = arrival_window(&[10.0, 20.0, 30.0]);
        assert_eq!((w.start, w.end), (0.0, 40.0));
        assert!(arrival_window(&[1.0]).is_empty());
    }

    #[test]
    fn one_chunk_gives_the_residual_life_mean_and_its_variance() {
        // One 40 ms chunk in a 100 ms window: mean 40²/200 = 8 ms,
        // E[D²] = 40³/300, sd = sqrt(E[D²] − 64).
        let runs = [Recorded {
            pieces: vec![RanPiece {
                task: 0,
                start: 30.0,
                end: 70.0,
            }],
            presses: (0..=100)
                .map(|i| press(f64::from(i), f64::from(i)))
                .collect(),
            sent: 101,
        }];
        let c = compare(&runs, 1.0);
        assert!((c.window_len - 102.0).abs() < 1e-9, "{}", c.window_len);
        let w = c.window_len;
        assert!((c.model_mean - 1600.0 / (2.0 * w)).abs() < 1e-9);
        let sd = (64000.0 / (3.0 * w) - c.model_mean.powi(2)).sqrt();
        assert!((c.model_sd - sd).abs() < 1e-6, "{} vs {sd}", c.model_sd);
        // P(delay > t) = (40 − t)/W: p98 is 40 − 0.02 W.
        assert!((c.model_p98 - (40.0 - 0.02 * w)).abs() < 1e-6);
        assert!((c.model_mean_with_transit() - c.model_mean - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_press_inside_a_sliced_piece_counts_when_handled_before_the_continuation() {
        let pieces = vec![
            RanPiece {
                task: 0,
                start: 0.0,
                end: 10.0,
            },
            RanPiece {
                task: 0,
                start: 10.5,
                end: 20.0,
            },
        ];
        let r = Recorded {
            pieces,
            presses: vec![
                press(2.0, 10.2),
                press(5.0, 20.1),
                press(9.5, 20.2),
                press(15.0, 20.1),
            ],
            sent: 4,
        };
        // The third arrived within the transit of the end; the fourth's
        // piece has no continuation.
        assert_eq!(handled_at_yield(&r, 1.0), (2, 1));
    }
}
