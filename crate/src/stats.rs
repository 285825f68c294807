//! Statistics with the study's rules: its nearest-rank percentile, sums
//! that stay within rounding of CPython's exact mean over a million values,
//! and relative change.

mod select;

pub(crate) use select::at_ranks;

/// The study's percentile: `sorted[min(n-1, floor(n*P/100))]` (nearest
/// rank, rounding up). `sorted` must be ascending and not empty.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[percentile_rank(sorted.len(), p)]
}

/// The rank [`percentile`] reads among `n` values (`n` > 0).
pub(crate) fn percentile_rank(n: usize, p: f64) -> usize {
    (((n as f64) * p / 100.0) as usize).min(n - 1)
}

/// The study's percentiles of unsorted `values` (reordered in place), by
/// successive selection: each pick only searches above the previous one, so
/// four percentiles cost about two passes instead of a full sort.
/// `ps` must be ascending; `values` must not be empty.
pub(crate) fn percentiles_unsorted<const K: usize>(values: &mut [f64], ps: [f64; K]) -> [f64; K] {
    let n = values.len();
    let mut out = [0.0; K];
    let mut lo = 0;
    for (slot, p) in out.iter_mut().zip(ps) {
        let k = (((n as f64) * p / 100.0) as usize).min(n - 1).max(lo);
        let (_, v, _) = values[lo..].select_nth_unstable_by(k - lo, f64::total_cmp);
        *slot = *v;
        lo = k;
    }
    out
}

/// Sum with Neumaier's compensation: the mean of a million latencies stays
/// within rounding of CPython's exact `statistics.mean`.
pub(crate) fn accurate_sum(values: impl IntoIterator<Item = f64>) -> f64 {
    let mut s = Neumaier::default();
    for v in values {
        s.add(v);
    }
    s.total()
}

/// The running state of [`accurate_sum`], for summing several sequences in
/// one pass.
#[derive(Clone, Copy, Default)]
pub(crate) struct Neumaier {
    sum: f64,
    comp: f64,
}

impl Neumaier {
    #[inline(always)]
    pub(crate) fn add(&mut self, v: f64) {
        let t = self.sum + v;
        if self.sum.abs() >= v.abs() {
            self.comp += (self.sum - t) + v;
        } else {
            self.comp += (v - t) + self.sum;
        }
        self.sum = t;
    }

    pub(crate) fn total(self) -> f64 {
        self.sum + self.comp
    }
}

/// Relative change from `base` to `value` in %, e.g. −28.0 for the study's
/// p95; `None` when `base` is 0.
pub fn change_pct(base: f64, value: f64) -> Option<f64> {
    (base != 0.0).then(|| (value - base) / base * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentile_rule_is_the_studys() {
        let s: Vec<f64> = (0..400).map(|i| i as f64).collect();
        assert_eq!(percentile(&s, 95.0), 380.0);
        assert_eq!(percentile(&s, 99.0), 396.0);
        assert_eq!(percentile(&[1.0], 99.0), 1.0);
        assert_eq!(percentile(&[1.0, 2.0], 50.0), 2.0);
    }

    #[test]
    fn compensated_sum_beats_naive() {
        let v = [1e16, 1.0, -1e16, 1.0];
        assert_eq!(accurate_sum(v), 2.0);
    }

    #[test]
    fn change() {
        assert_eq!(change_pct(200.0, 150.0), Some(-25.0));
        assert_eq!(change_pct(0.0, 1.0), None);
    }
}
