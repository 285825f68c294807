//! Latency statistics, computed with the study's rules so its figures come
//! out to the digit.

use serde::{Deserialize, Serialize};

use crate::sim::Schedule;
use crate::stats::{percentile, percentiles_unsorted, Neumaier};
use crate::workload::Workload;

/// The percentiles reported everywhere.
pub(crate) const PERCENTILES: [f64; 4] = [50.0, 90.0, 95.0, 99.0];

/// One policy's figures, the CLI's and the page's row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub mean: f64,
    pub p50: f64,
    pub p90: f64,
    pub p95: f64,
    pub p99: f64,
    pub max: f64,
    /// Tasks whose latency is strictly below the threshold.
    pub done_within: u64,
    pub context_switches: u64,
    pub makespan: f64,
    /// Mean time spent waiting (latency − work).
    pub mean_wait: f64,
    /// Share of core time spent running tasks, 0 to 1.
    pub utilisation: f64,
}

/// Latencies (completion − arrival) of every task, in task order.
pub fn latencies(workload: &Workload, schedule: &Schedule) -> Vec<f64> {
    schedule
        .completions
        .iter()
        .zip(&workload.arrival)
        .map(|(c, a)| c - a)
        .collect()
}

/// What a run's figures need besides its tasks' times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RunTotals {
    pub context_switches: u64,
    /// When the last task ended; `None`: the largest latency (a run whose
    /// tasks all start at time 0, as Run for real measures them).
    pub makespan: Option<f64>,
    /// Core time spent running tasks (ms), summed over cores.
    pub busy_time: f64,
    pub cores: usize,
}

impl RunTotals {
    pub(crate) fn of(schedule: &Schedule) -> RunTotals {
        RunTotals {
            context_switches: schedule.context_switches,
            makespan: Some(schedule.makespan),
            busy_time: schedule.busy_time,
            cores: schedule.cores,
        }
    }
}

/// Summarises a run. `within` is the "done within" threshold in ms.
pub fn summarize(workload: &Workload, schedule: &Schedule, within: f64) -> Summary {
    let mut lat = schedule.completions.clone();
    figures(
        &mut lat,
        &workload.arrival,
        &workload.work,
        within,
        RunTotals::of(schedule),
    )
}

/// [`summarize`] for a schedule that is not needed afterwards: the latencies
/// are computed in the completions' own storage instead of a copy (a
/// million-task run then allocates nothing here). Same figures, bit for bit.
pub fn summarize_owned(workload: &Workload, schedule: Schedule, within: f64) -> Summary {
    let totals = RunTotals::of(&schedule);
    let mut lat = schedule.completions;
    figures(&mut lat, &workload.arrival, &workload.work, within, totals)
}

/// The figures of a run from its tasks' completion times in task order,
/// which are turned into latencies (completion − `arrival`) in place, then
/// reordered: the one summary of simulated and measured runs alike.
pub(crate) fn figures(
    lat: &mut [f64],
    arrival: &[f64],
    work: &[f64],
    within: f64,
    totals: RunTotals,
) -> Summary {
    let n = lat.len();
    if n == 0 {
        return Summary {
            mean: 0.0,
            p50: 0.0,
            p90: 0.0,
            p95: 0.0,
            p99: 0.0,
            max: 0.0,
            done_within: 0,
            context_switches: totals.context_switches,
            makespan: 0.0,
            mean_wait: 0.0,
            utilisation: 0.0,
        };
    }
    // One pass for the latencies, the sums and the count (each sum in task
    // order, as before), which also notices latencies that are already in order
    // (FIFO with every task at t = 0 on one core): their percentiles are
    // then read off directly instead of selected.
    let (mut lat_sum, mut wait_sum) = (Neumaier::default(), Neumaier::default());
    let mut done_within = 0u64;
    let mut sorted = true;
    let mut prev = f64::NEG_INFINITY;
    for ((slot, &a), &w) in lat.iter_mut().zip(arrival).zip(work) {
        *slot -= a;
        let l = *slot;
        lat_sum.add(l);
        wait_sum.add(l - w);
        done_within += u64::from(l < within);
        sorted &= prev <= l;
        prev = l;
    }
    let mean = lat_sum.total() / n as f64;
    let mean_wait = wait_sum.total() / n as f64;
    // Ascending by `<=` from a first value above zero: no NaN (it compares
    // false) and no zero of either sign (which `<=` would tie but
    // `total_cmp` orders), so this is the order the selection uses, and the
    // last latency is the maximum.
    let ([p50, p90, p95, p99], max) = if sorted && lat[0] > 0.0 {
        (PERCENTILES.map(|p| percentile(lat, p)), lat[n - 1])
    } else {
        let ps = percentiles_unsorted(lat, PERCENTILES);
        (ps, lat.iter().copied().fold(f64::NEG_INFINITY, f64::max))
    };
    let makespan = totals.makespan.unwrap_or(max);
    let span = makespan * totals.cores as f64;
    Summary {
        mean,
        p50,
        p90,
        p95,
        p99,
        max,
        done_within,
        context_switches: totals.context_switches,
        makespan,
        mean_wait,
        utilisation: if span > 0.0 {
            totals.busy_time / span
        } else {
            0.0
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_agrees_with_sorting() {
        let mut r = crate::rng::PyRandom::new(9);
        use crate::rng::UniformSource;
        for n in [1usize, 2, 3, 10, 99, 400, 1001] {
            let v: Vec<f64> = (0..n).map(|_| (r.random() * 50.0).floor()).collect();
            let mut sorted = v.clone();
            sorted.sort_unstable_by(f64::total_cmp);
            let want = PERCENTILES.map(|p| percentile(&sorted, p));
            assert_eq!(
                percentiles_unsorted(&mut v.clone(), PERCENTILES),
                want,
                "n={n}"
            );
        }
    }

    #[test]
    fn latencies_already_in_order_give_the_selected_figures() {
        // The shortcut for sorted latencies (FIFO at t = 0) against the
        // selection: with ties, with a zero (or −0) first, with one value
        // out of order.
        for n in [1usize, 2, 3, 10, 401, 1000] {
            for (disorder, first) in [(false, 0.0), (false, 0.25), (true, 0.25), (false, -0.0)] {
                let mut completions: Vec<f64> =
                    (0..n).map(|i| (i / 3) as f64 * 1.5 + first).collect();
                if disorder && n > 2 {
                    completions.swap(1, n - 1);
                }
                let w = Workload {
                    arrival: vec![0.0; n],
                    work: vec![0.0; n],
                    ..Default::default()
                };
                let s = Schedule {
                    completions: completions.clone(),
                    cores: 1,
                    ..Default::default()
                };
                let m = summarize(&w, &s, 10.0);
                let mut v = completions.clone();
                let want = percentiles_unsorted(&mut v, PERCENTILES);
                assert_eq!([m.p50, m.p90, m.p95, m.p99], want, "n={n}");
                let max = completions
                    .iter()
                    .copied()
                    .fold(f64::NEG_INFINITY, f64::max);
                assert_eq!(m.max.to_bits(), max.to_bits(), "n={n}");
            }
        }
    }
}
