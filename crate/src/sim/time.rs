//! Time in the loop: one total order for times and amounts of work in
//! heaps, and the tolerances every part of the core shares.

/// Work below this is "done", as in the study's `rem[i] <= 1e-9`.
pub(crate) const DONE_EPSILON: f64 = 1e-9;

/// Events of the scenarios' programs less than this far apart (ms) are
/// one instant; a quantum left over after a preemption shorter than this
/// is not kept. (The study's tasks use exact times.)
pub(crate) const SAME_INSTANT_MS: f64 = 1e-9;

/// `f64` with a total order, for run-queue heaps keyed by time or work.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Key(pub f64);

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}
