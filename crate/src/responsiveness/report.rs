//! One row per plan: the recorded tasks first, then every quantum with the
//! chosen yield, all over one window (so every row describes the same
//! inputs).

use super::blocking::BlockingCounter;
use super::cost::FinishLater;
use super::delay::{DelayBuilder, Window};
use super::plan::{chunk_count, pieces, run_each, Plan, Task};
use super::settings::Settings;
use super::yielding::Yielding;
use crate::error::{fmt_number, ParamError};
use crate::stats::accurate_sum;
use crate::text::Text;

/// The thresholds of the "delayed over" shares, ms.
pub(crate) const DELAYED_OVER_MS: [f64; 3] = [50.0, 100.0, 200.0];
/// The most chunks one plan may cut the tasks into on the command line
/// (a second or two of work; the page allows fewer, see `Limits`).
pub const MAX_CHUNKS: u64 = 20_000_000;
/// Points of each row's input-delay CDF kept for charts.
pub(crate) const CDF_POINTS: usize = 400;

/// Input delay figures of one row, ms.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct DelayStats {
    pub mean: f64,
    pub p50: f64,
    pub p75: f64,
    pub p95: f64,
    pub p98: f64,
    pub max: f64,
}

/// One plan's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanRow {
    /// `None` for the recorded row.
    pub quantum_ms: Option<f64>,
    /// `None` for the recorded row.
    pub yielding: Option<Yielding>,
    pub input_delay_ms: DelayStats,
    /// The share of inputs that wait at all (busy time in the window / W).
    pub busy_share: f64,
    /// `(threshold ms, share of inputs delayed more)` for each of
    /// [`DELAYED_OVER_MS`].
    pub delayed_over: [(f64, f64); 3],
    pub tbt_ms: f64,
    pub long_tasks: usize,
    pub finish_later_ms: FinishLater,
    pub yields: u64,
    /// The most yields one task takes (the `timeout` clamp's reach).
    pub most_yields: u64,
    /// When the plan's last chunk ends (may be past the window's end).
    pub end_ms: f64,
    /// `P(delay ≤ t)` as `(t, P)` points, at most [`CDF_POINTS`].
    pub cdf: Vec<(f64, f64)>,
}

/// Every row over one window.
#[derive(Clone, Debug, PartialEq)]
pub struct ResponsivenessReport {
    pub window: Window,
    /// The window was given (else it is the recorded tasks' span).
    pub window_given: bool,
    pub tasks: usize,
    pub busy_ms: f64,
    /// The transit added to every input delay of the rows, ms.
    pub transit_ms: f64,
    /// The recorded row first, then one per quantum, ascending.
    pub rows: Vec<PlanRow>,
}

impl ResponsivenessReport {
    pub fn recorded(&self) -> &PlanRow {
        &self.rows[0]
    }

    /// The sliced row at `quantum` (exactly), if it was computed.
    pub(crate) fn at(&self, quantum: f64) -> Option<&PlanRow> {
        self.rows.iter().find(|r| r.quantum_ms == Some(quantum))
    }
}

/// A plan that would cut the tasks into more chunks than allowed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TooManyChunks {
    pub quantum_ms: f64,
    pub chunks: u64,
    pub max: u64,
}

impl TooManyChunks {
    /// The refusal under `field` (the flag or URL key that set the quantum).
    pub fn error(&self, field: &str) -> ParamError {
        const LARGER: Text = Text::new(
            "a larger quantum: at {} ms the tasks are cut into {} chunks, and at most {} are simulated per quantum",
            "更大的时间片：{} ms 时任务被切成 {} 块，每个时间片最多模拟 {} 块",
        );
        let q = fmt_number(self.quantum_ms);
        ParamError::new(
            field,
            &q,
            LARGER.both(&[&q, &self.chunks.to_string(), &self.max.to_string()]),
        )
    }
}

/// Refuses a quantum that would cut `tasks` into more than `max_chunks`.
pub(crate) fn check_size(
    tasks: &[Task],
    quanta: &[f64],
    max_chunks: u64,
) -> Result<(), TooManyChunks> {
    for &q in quanta {
        let chunks = chunk_count(tasks, Some(q));
        if chunks > max_chunks {
            return Err(TooManyChunks {
                quantum_ms: q,
                chunks,
                max: max_chunks,
            });
        }
    }
    Ok(())
}

/// The figures of `plan` over `window`, against the recorded ends; every
/// input delay `transit` ms longer (the input's way to the main thread).
fn row(
    tasks: &[Task],
    plan: &Plan,
    window: Window,
    recorded_end: &[f64],
    transit: f64,
) -> (PlanRow, Vec<f64>) {
    let mut delay = DelayBuilder::new(window);
    let mut blocking = BlockingCounter::new(window);
    let done = run_each(tasks, plan, |c| {
        delay.add(&c);
        blocking.add(&c);
    });
    let dist = delay.build();
    let b = blocking.total();
    let finish_later = if recorded_end.is_empty() {
        FinishLater::default()
    } else {
        FinishLater::new(&done.ends, recorded_end)
    };
    let most_yields = tasks
        .iter()
        .map(|t| pieces(t.duration, plan.quantum_ms()).0 - 1)
        .max()
        .unwrap_or(0);
    let r = PlanRow {
        quantum_ms: plan.quantum_ms(),
        yielding: plan.yielding(),
        input_delay_ms: DelayStats {
            mean: dist.mean() + transit,
            p50: dist.quantile(0.50) + transit,
            p75: dist.quantile(0.75) + transit,
            p95: dist.quantile(0.95) + transit,
            p98: dist.quantile(0.98) + transit,
            max: dist.max() + transit,
        },
        busy_share: dist.busy_share(),
        delayed_over: DELAYED_OVER_MS.map(|t| (t, shifted_survival(&dist, t, transit))),
        tbt_ms: b.tbt_ms,
        long_tasks: b.long_tasks,
        finish_later_ms: finish_later,
        yields: done.yields,
        most_yields,
        end_ms: done.last_end,
        cdf: shifted_cdf(dist.cdf_points(CDF_POINTS), transit),
    };
    (r, done.ends)
}

/// P(delay > t) when every delay is `transit` longer.
fn shifted_survival(dist: &super::delay::DelayDistribution, t: f64, transit: f64) -> f64 {
    if t < transit {
        if dist.window_len() > 0.0 {
            1.0
        } else {
            0.0
        }
    } else {
        dist.survival(t - transit)
    }
}

/// The CDF's points moved right by `transit` (no input waits less).
fn shifted_cdf(points: Vec<(f64, f64)>, transit: f64) -> Vec<(f64, f64)> {
    if transit == 0.0 {
        return points;
    }
    let mut out = Vec::with_capacity(points.len() + 1);
    out.push((0.0, 0.0));
    out.extend(points.into_iter().map(|(t, p)| (t + transit, p)));
    out
}

/// The recorded row, then one row per quantum of `settings` (ascending)
/// with its yield, all over its window (default: the recorded tasks'
/// span). Refuses a quantum that cuts the tasks into more than
/// `max_chunks`.
///
/// Tasks must have finite starts and finite, non-negative durations (every
/// reader of tasks guarantees it).
pub fn evaluate(
    tasks: &[Task],
    settings: &Settings,
    max_chunks: u64,
) -> Result<ResponsivenessReport, TooManyChunks> {
    check_size(tasks, &settings.quanta, max_chunks)?;
    let recorded_end = run_each(tasks, &Plan::Recorded, |_| {});
    let span = settings
        .window
        .unwrap_or_else(|| Window::span(tasks, &recorded_end));
    let transit = settings.transit_ms;
    let (first, _) = row(tasks, &Plan::Recorded, span, &recorded_end.ends, transit);
    let mut rows = vec![first];
    let mut quanta = settings.quanta.clone();
    quanta.sort_unstable_by(f64::total_cmp);
    quanta.dedup();
    for quantum_ms in quanta {
        let plan = Plan::Sliced {
            quantum_ms,
            yielding: settings.yielding,
        };
        rows.push(row(tasks, &plan, span, &recorded_end.ends, transit).0);
    }
    Ok(ResponsivenessReport {
        window: span,
        window_given: settings.window.is_some(),
        tasks: tasks.len(),
        busy_ms: accurate_sum(tasks.iter().map(|t| t.duration)),
        transit_ms: transit,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::super::yielding::YieldKind;
    use super::*;

    fn trace() -> Vec<Task> {
        vec![
            Task::new(0.0, 275.0),
            Task::new(300.0, 20.0),
            Task::new(400.0, 80.0),
            Task::new(900.0, 5.0),
        ]
    }

    fn settings(kind: YieldKind, cost: f64, quanta: &[f64]) -> Settings {
        Settings {
            yielding: Yielding::new(kind, cost),
            quanta: quanta.to_vec(),
            transit_ms: 0.0,
            ..Settings::default()
        }
    }

    fn no_transit() -> Settings {
        Settings {
            transit_ms: 0.0,
            ..Settings::default()
        }
    }

    #[test]
    fn the_transit_moves_every_delay_by_itself() {
        let base = evaluate(&trace(), &no_transit(), MAX_CHUNKS).unwrap();
        let moved = evaluate(
            &trace(),
            &Settings {
                transit_ms: 2.0,
                ..no_transit()
            },
            MAX_CHUNKS,
        )
        .unwrap();
        for (a, b) in base.rows.iter().zip(&moved.rows) {
            let (d, e) = (a.input_delay_ms, b.input_delay_ms);
            for (x, y) in [
                (d.mean, e.mean),
                (d.p50, e.p50),
                (d.p98, e.p98),
                (d.max, e.max),
            ] {
                assert!((y - x - 2.0).abs() < 1e-9, "{d:?} {e:?}");
            }
            assert_eq!(a.busy_share, b.busy_share);
            assert_eq!(a.tbt_ms, b.tbt_ms);
        }
        // P(delay > 50) with 2 ms more is P(delay > 48) without.
        let rec = &moved.rows[0];
        let want = ((275.0 - 48.0) + (80.0 - 48.0)) / 905.0;
        assert!((rec.delayed_over[0].1 - want).abs() < 1e-12);
        assert_eq!(rec.cdf[0], (0.0, 0.0));
        assert_eq!(rec.cdf[1].0, 2.0);
    }

    #[test]
    fn the_recorded_row_reads_the_trace() {
        let r = evaluate(&trace(), &no_transit(), MAX_CHUNKS).unwrap();
        assert_eq!(r.window, Window::new(0.0, 905.0));
        assert!(!r.window_given);
        assert_eq!(r.rows.len(), 9);
        let rec = r.recorded();
        assert_eq!(rec.quantum_ms, None);
        assert_eq!(rec.tbt_ms, 225.0 + 30.0);
        assert_eq!(rec.long_tasks, 2);
        assert_eq!(rec.finish_later_ms.total, 0.0);
        assert_eq!(rec.yields, 0);
        let want = (275.0f64.powi(2) + 400.0 + 6400.0 + 25.0) / (2.0 * 905.0);
        assert!((rec.input_delay_ms.mean - want).abs() < 1e-9);
        assert_eq!(rec.input_delay_ms.max, 275.0);
        // Only the 275 ms task has room for delays over 200 ms.
        assert!((rec.delayed_over[2].1 - 75.0 / 905.0).abs() < 1e-12);
        // Rows ascend by quantum.
        let q: Vec<f64> = r.rows[1..].iter().map(|r| r.quantum_ms.unwrap()).collect();
        assert_eq!(q, [4.0, 8.0, 16.0, 24.0, 32.0, 48.0, 64.0, 100.0]);
        assert!(r.at(16.0).is_some() && r.at(17.0).is_none());
    }

    #[test]
    fn slicing_trades_delay_for_finish_time() {
        let r = evaluate(
            &trace(),
            &settings(YieldKind::Message, 1.0, &[16.0]),
            MAX_CHUNKS,
        )
        .unwrap();
        let (rec, q16) = (&r.rows[0], &r.rows[1]);
        assert!(q16.input_delay_ms.max <= 16.0);
        assert!(q16.input_delay_ms.p98 < rec.input_delay_ms.p98);
        assert_eq!(q16.tbt_ms, 0.0);
        // 275 ms → 18 pieces, 17 yields; 20 ms → 2 pieces, 1 yield; 80 ms →
        // 5 pieces, 4 yields. Idle time follows each, so nothing queues.
        assert_eq!(q16.yields, 22);
        assert_eq!(q16.most_yields, 17);
        assert!((q16.finish_later_ms.max - 17.0).abs() < 1e-9);
        assert!((q16.finish_later_ms.total - 22.0).abs() < 1e-9);
    }

    #[test]
    fn a_queueing_list_can_finish_short_tasks_earlier() {
        // As a task list, B (posted at 30) waits behind A as recorded; a
        // message yield lets it in after A's second piece.
        let list = [Task::new(0.0, 100.0), Task::new(30.0, 20.0)];
        let r = evaluate(
            &list,
            &settings(YieldKind::Message, 1.0, &[25.0]),
            MAX_CHUNKS,
        )
        .unwrap();
        assert_eq!(r.window, Window::new(0.0, 120.0));
        let f = r.rows[1].finish_later_ms;
        // A: 123 − 100 = 23; B: 72 − 120 = −48.
        assert!((f.total - (23.0 - 48.0)).abs() < 1e-9, "{f:?}");
        assert!((f.max - 23.0).abs() < 1e-9);
        // The work ends 3 ms past the span: 120 → 123.
        assert!((r.rows[1].end_ms - 123.0).abs() < 1e-9);
    }

    #[test]
    fn too_fine_a_quantum_is_refused_by_name() {
        let huge = [Task::new(0.0, 3_600_000.0)];
        let e = evaluate(
            &huge,
            &settings(YieldKind::Raf, 0.1, &[4.0, 0.001]),
            MAX_CHUNKS,
        )
        .unwrap_err();
        assert_eq!(
            e.error("--quanta").to_string(),
            "invalid --quanta '0.001': expected a larger quantum: at 0.001 ms the tasks are cut into 3600000000 chunks, and at most 20000000 are simulated per quantum"
        );
        let none = evaluate(&[], &no_transit(), MAX_CHUNKS).unwrap();
        assert_eq!(none.recorded().input_delay_ms.mean, 0.0);
        assert_eq!(none.tasks, 0);
    }
}
