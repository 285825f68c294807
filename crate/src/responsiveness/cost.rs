//! What slicing costs: how much later each task finishes than under the
//! recorded plan. Its own pieces, the yields between them and the queueing
//! behind other tasks' pieces all add up here.

use serde::Serialize;

use crate::stats::{accurate_sum, percentile};

/// Each task's end under a plan minus its end as recorded, summarised (ms).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct FinishLater {
    pub mean: f64,
    /// The study's percentile rule (index `floor(0.95 n)` of the sorted).
    pub p95: f64,
    pub max: f64,
    pub total: f64,
}

impl FinishLater {
    /// `plan` and `recorded` are each task's end, in the same task order.
    /// Negative values are kept: in a task list whose tasks queue, a short
    /// task can finish earlier once a long one ahead of it yields, and
    /// hiding that would misstate what slicing does.
    pub(crate) fn new(plan: &[f64], recorded: &[f64]) -> FinishLater {
        debug_assert_eq!(plan.len(), recorded.len(), "one end per task in both");
        let mut later: Vec<f64> = plan.iter().zip(recorded).map(|(p, r)| p - r).collect();
        if later.is_empty() {
            return FinishLater::default();
        }
        let total = accurate_sum(later.iter().copied());
        later.sort_unstable_by(f64::total_cmp);
        FinishLater {
            mean: total / later.len() as f64,
            p95: percentile(&later, 95.0),
            max: *later.last().expect("not empty"),
            total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summarises_each_tasks_delay() {
        let rec: Vec<f64> = (0..20).map(|i| f64::from(i) * 10.0).collect();
        let plan: Vec<f64> = rec.iter().enumerate().map(|(i, r)| r + i as f64).collect();
        let f = FinishLater::new(&plan, &rec);
        assert_eq!(f.total, 190.0);
        assert_eq!(f.mean, 9.5);
        assert_eq!(f.p95, 19.0);
        assert_eq!(f.max, 19.0);
        assert_eq!(FinishLater::new(&[], &[]), FinishLater::default());
        // Earlier ends are kept, not clipped to 0.
        let f = FinishLater::new(&[5.0, 20.0], &[10.0, 10.0]);
        assert_eq!((f.total, f.max), (5.0, 10.0));
    }
}
