//! The two judgements the plain-words reading is built on: the quantum the
//! rows favour, and the knee of the trade-off between p98 input delay and
//! the time slicing adds to each task.

use super::report::PlanRow;

/// The p98 input delay a row should reach, ms: the long-task threshold,
/// and RAIL's budget for starting to handle input (so that a response can
/// come within 100 ms). INP's "good" line (200 ms) is for the whole
/// interaction, of which input delay is only the first part.
pub(crate) const P98_TARGET_MS: f64 = 50.0;
/// The least bend that counts as a knee: the point's distance below the
/// chord, with both axes scaled to [0, 1] (a right-angled corner is 0.71).
pub(crate) const MIN_KNEE_DISTANCE: f64 = 0.1;
/// Ranges narrower than this (ms) are flat: no knee on them.
const FLAT_MS: f64 = 1e-6;

/// The row the tasks favour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Favoured {
    /// Its index in the rows.
    pub row: usize,
    /// Its p98 input delay is within [`P98_TARGET_MS`].
    pub meets_target: bool,
}

/// The row the tasks favour: of the rows whose p98 input delay is within
/// [`P98_TARGET_MS`], the cheapest (least mean finish-later, then the
/// largest quantum, the recorded row counting as the largest); if no row
/// reaches the target, the row with the least p98 (then the cheapest).
/// `None` without rows.
///
/// Not simply "the best p98": a sliced row's p98 is at most its quantum, so
/// the smallest quantum would always win and the answer would never depend
/// on the tasks. With a target, a light trace favours the recorded row, a
/// heavy one the coarsest quantum that gets under it, and frame-aligned
/// yields can make a finer quantum the cheaper one.
pub(crate) fn favoured(rows: &[PlanRow]) -> Option<Favoured> {
    let quantum = |r: &PlanRow| r.quantum_ms.unwrap_or(f64::INFINITY);
    let cheaper = |a: &PlanRow, b: &PlanRow| {
        a.finish_later_ms
            .mean
            .total_cmp(&b.finish_later_ms.mean)
            .then(quantum(b).total_cmp(&quantum(a)))
    };
    let meeting = (0..rows.len())
        .filter(|&i| rows[i].input_delay_ms.p98 <= P98_TARGET_MS)
        .min_by(|&a, &b| cheaper(&rows[a], &rows[b]));
    if let Some(row) = meeting {
        return Some(Favoured {
            row,
            meets_target: true,
        });
    }
    (0..rows.len())
        .min_by(|&a, &b| {
            let (ra, rb) = (&rows[a], &rows[b]);
            ra.input_delay_ms
                .p98
                .total_cmp(&rb.input_delay_ms.p98)
                .then(cheaper(ra, rb))
        })
        .map(|row| Favoured {
            row,
            meets_target: false,
        })
}

/// The knee of the trade-off curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Knee {
    /// Its index in the rows.
    pub row: usize,
    /// How far below the chord it lies, both axes scaled to [0, 1].
    pub distance: f64,
}

/// Why a curve has no knee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoKnee {
    /// Fewer than three rows: no interior point.
    TooFewRows,
    /// Slicing costs (next to) nothing at every quantum.
    FreeYields,
    /// p98 is the same in every row (an idle page: 0 everywhere).
    FlatDelay,
    /// No row bends [`MIN_KNEE_DISTANCE`] below the chord.
    Straight,
}

/// The knee of the trade-off curve, by the largest distance to its chord
/// (the "Kneedle" idea: Satopää et al., ICDCS-W 2011).
///
/// The curve has one point per row, x = mean finish-later (what slicing
/// costs), y = p98 input delay (what it buys), ordered from the recorded
/// row through decreasing quanta. Both axes are scaled to [0, 1], so the
/// answer needs no exchange rate between the two and does not depend on
/// units; the chord joins the recorded row to the smallest quantum; the
/// knee is the row furthest below it, if that is at least
/// [`MIN_KNEE_DISTANCE`]. It is always one of the rows tried.
pub(crate) fn knee(rows: &[PlanRow]) -> Result<Knee, NoKnee> {
    if rows.len() < 3 {
        return Err(NoKnee::TooFewRows);
    }
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let quantum = |i: usize| rows[i].quantum_ms.unwrap_or(f64::INFINITY);
    order.sort_by(|&a, &b| quantum(b).total_cmp(&quantum(a)));
    let x = |i: usize| rows[i].finish_later_ms.mean;
    let y = |i: usize| rows[i].input_delay_ms.p98;
    let range = |f: &dyn Fn(usize) -> f64| {
        let lo = order.iter().map(|&i| f(i)).fold(f64::INFINITY, f64::min);
        let hi = order
            .iter()
            .map(|&i| f(i))
            .fold(f64::NEG_INFINITY, f64::max);
        (lo, hi - lo)
    };
    let (x0, xr) = range(&x);
    let (y0, yr) = range(&y);
    if xr.is_nan() || xr <= FLAT_MS {
        return Err(NoKnee::FreeYields);
    }
    if yr.is_nan() || yr <= FLAT_MS {
        return Err(NoKnee::FlatDelay);
    }
    let point = |i: usize| ((x(i) - x0) / xr, (y(i) - y0) / yr);
    let a = point(order[0]);
    let b = point(*order.last().expect("three rows or more"));
    let (ux, uy) = (b.0 - a.0, b.1 - a.1);
    let chord = ux.hypot(uy);
    if chord <= 0.0 {
        return Err(NoKnee::Straight);
    }
    // Distance below the chord: positive where the curve bulges towards
    // less delay for the same cost.
    let below = |i: usize| {
        let (px, py) = point(i);
        -(ux * (py - a.1) - uy * (px - a.0)) / chord
    };
    order[1..order.len() - 1]
        .iter()
        .copied()
        .map(|i| (i, below(i)))
        .filter(|&(_, d)| d >= MIN_KNEE_DISTANCE)
        .max_by(|p, q| p.1.total_cmp(&q.1))
        .map(|(row, distance)| Knee { row, distance })
        .ok_or(NoKnee::Straight)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::cost::FinishLater;
    use super::super::report::DelayStats;
    use super::*;

    pub(crate) fn row(q: Option<f64>, cost: f64, p98: f64) -> PlanRow {
        PlanRow {
            quantum_ms: q,
            yielding: None,
            input_delay_ms: DelayStats {
                p98,
                max: p98,
                ..DelayStats::default()
            },
            busy_share: 0.5,
            delayed_over: [(50.0, 0.0), (100.0, 0.0), (200.0, 0.0)],
            tbt_ms: 0.0,
            long_tasks: 0,
            finish_later_ms: FinishLater {
                mean: cost,
                p95: cost,
                max: cost,
                total: cost,
            },
            yields: 0,
            most_yields: 0,
            end_ms: 0.0,
            cdf: Vec::new(),
        }
    }

    /// p98 falls with q while the cost rises as 1/q: a hyperbola.
    fn hyperbola() -> Vec<PlanRow> {
        let mut rows = vec![row(None, 0.0, 250.0)];
        for q in [100.0, 64.0, 48.0, 32.0, 24.0, 16.0, 8.0, 4.0] {
            rows.push(row(Some(q), 50.0 / q, 0.9 * q));
        }
        rows
    }

    #[test]
    fn the_knee_is_where_the_hyperbola_bends() {
        let rows = hyperbola();
        let k = knee(&rows).expect("a clear bend");
        assert_eq!(rows[k.row].quantum_ms, Some(32.0));
        // By hand: scaled, 32 ms sits at x = 1.5625/12.5 = 0.125 and
        // y = (28.8 − 3.6)/246.4 = 0.1023; the chord runs from (0, 1) to
        // (1, 0), so it is (1 − x − y)/√2 = 0.5464 below it.
        assert!((k.distance - 0.5464).abs() < 1e-4, "{k:?}");
        // Row order in the input does not matter.
        let mut shuffled = rows.clone();
        shuffled.reverse();
        let k2 = knee(&shuffled).unwrap();
        assert_eq!(shuffled[k2.row].quantum_ms, Some(32.0));
    }

    #[test]
    fn a_straight_trade_off_has_no_knee() {
        let mut rows = vec![row(None, 0.0, 100.0)];
        for (i, q) in [64.0, 32.0, 16.0, 8.0].into_iter().enumerate() {
            let s = (i + 1) as f64 / 4.0;
            rows.push(row(Some(q), 10.0 * s, 100.0 * (1.0 - s)));
        }
        assert_eq!(knee(&rows), Err(NoKnee::Straight));
    }

    #[test]
    fn flat_axes_have_no_knee() {
        let rows: Vec<PlanRow> = [None, Some(32.0), Some(8.0)]
            .into_iter()
            .zip([90.0, 30.0, 8.0])
            .map(|(q, p)| row(q, 0.0, p))
            .collect();
        assert_eq!(knee(&rows), Err(NoKnee::FreeYields));
        let rows: Vec<PlanRow> = [None, Some(32.0), Some(8.0)]
            .into_iter()
            .zip([0.0, 1.0, 5.0])
            .map(|(q, c)| row(q, c, 0.0))
            .collect();
        assert_eq!(knee(&rows), Err(NoKnee::FlatDelay));
        assert_eq!(knee(&rows[..2]), Err(NoKnee::TooFewRows));
    }

    #[test]
    fn favoured_is_the_cheapest_row_within_the_target() {
        // 48 ms is the cheapest row under 50 ms (the finer ones cost more).
        let rows = vec![
            row(None, 0.0, 240.0),
            row(Some(64.0), 0.5, 60.0),
            row(Some(48.0), 1.0, 45.0),
            row(Some(8.0), 3.0, 8.0),
            row(Some(4.0), 6.0, 4.0),
        ];
        let f = favoured(&rows).unwrap();
        assert_eq!((rows[f.row].quantum_ms, f.meets_target), (Some(48.0), true));
        // Frame-aligned yields can make a finer quantum cheaper: it wins.
        let rows = vec![
            row(None, 0.0, 240.0),
            row(Some(24.0), 7.2, 22.0),
            row(Some(16.0), 2.1, 15.0),
        ];
        assert_eq!(rows[favoured(&rows).unwrap().row].quantum_ms, Some(16.0));
        // A light trace favours the recorded row: slicing buys nothing.
        let idle = vec![row(None, 0.0, 12.0), row(Some(8.0), 0.2, 7.0)];
        assert_eq!(favoured(&idle).unwrap().row, 0);
        // Free yields: equal cost, the largest quantum within the target.
        let free = vec![
            row(None, 0.0, 90.0),
            row(Some(32.0), 0.0, 30.0),
            row(Some(8.0), 0.0, 8.0),
        ];
        assert_eq!(free[favoured(&free).unwrap().row].quantum_ms, Some(32.0));
        // Nothing reaches the target: the least p98.
        let far = vec![row(None, 0.0, 400.0), row(Some(100.0), 1.0, 90.0)];
        assert_eq!(
            favoured(&far),
            Some(Favoured {
                row: 1,
                meets_target: false
            })
        );
        assert_eq!(favoured(&[]), None);
    }
}
