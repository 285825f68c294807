//! The workload side of the loop: what each thread does once its CPU step
//! is done, and when threads become runnable. The loop ([`super::core`])
//! owns time, cores and accounting; a [`Threads`] owns the programs.
//!
//! Two kinds implement it: [`Tasks`] (the study's tasks: a thread with one
//! CPU step that arrives at its arrival time, kept as parallel arrays so a
//! million of them cost three vectors) and the scenarios' programs
//! (`crate::workload::programs`: serial queues of work items with I/O waits
//! and dependencies, chunk pools, spinning and periodic threads).

use std::ops::Range;

use super::class::TaskView;
use super::trace::ThreadId;

/// What a thread does after finishing a CPU step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Next {
    /// It is finished for good (a study task completes).
    Exit,
    /// It waits (I/O, a dependency, an empty queue); [`Threads::wake_due`]
    /// hands it back when it is runnable again.
    Block,
    /// More CPU work right away: it keeps its core and what is left of its
    /// slice.
    Cpu(f64),
}

/// A workload of threads as the loop sees it.
pub trait Threads {
    fn len(&self) -> usize;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What a class may read about each thread (see [`TaskView`]): when it last became runnable and the
    /// work of its current CPU step.
    fn arrival(&self) -> &[f64];
    fn work(&self) -> &[f64];

    /// Each thread's CPU work left at the start (the loop's `remaining`).
    fn initial_remaining(&self) -> Vec<f64>;

    /// When a thread next becomes runnable (an arrival, an I/O completion,
    /// a release), if ever.
    fn next_wake(&self) -> Option<f64>;

    /// Calls `enqueue` with the threads runnable by `now` (within
    /// [`Threads::same_instant`]), in order and as ranges of consecutive
    /// ids where it can (a million tasks at t = 0 are one call), having set
    /// their CPU work in `remaining`, with what a class may read of the
    /// threads then.
    fn wake_due<F: FnMut(Range<ThreadId>, &TaskView)>(
        &mut self,
        now: f64,
        remaining: &mut [f64],
        enqueue: F,
    );

    /// Thread `t` finished its CPU step at `now`.
    fn step_done(&mut self, t: ThreadId, now: f64) -> Next;

    /// Events less than this far apart (ms) are one instant. The study's
    /// tasks use 0 (exact times, as the study's code); the scenarios'
    /// programs 1e-9, so that cores whose slices end a rounding error apart
    /// are decided together.
    fn same_instant(&self) -> f64 {
        0.0
    }

    /// Whether the run is over, `exited` threads having exited.
    fn finished(&self, exited: usize) -> bool;

    /// The simulated time limit (`f64::INFINITY`: none).
    fn until(&self) -> f64 {
        f64::INFINITY
    }
}

/// The study's tasks: each thread is one CPU step of `work[i]` ms that
/// becomes runnable at `arrival[i]` and then exits.
pub struct Tasks<'w> {
    arrival: &'w [f64],
    work: &'w [f64],
    order: ArrivalOrder,
    next: usize,
}

impl<'w> Tasks<'w> {
    /// Task `i` arrives at `arrival[i]` with `work[i]` ms of work (on a
    /// speed-1 core); the two have the same length.
    pub fn new(arrival: &'w [f64], work: &'w [f64]) -> Self {
        debug_assert_eq!(arrival.len(), work.len());
        Tasks {
            arrival,
            work,
            order: ArrivalOrder::new(arrival),
            next: 0,
        }
    }
}

impl Threads for Tasks<'_> {
    fn len(&self) -> usize {
        self.work.len()
    }

    fn arrival(&self) -> &[f64] {
        self.arrival
    }

    fn work(&self) -> &[f64] {
        self.work
    }

    fn initial_remaining(&self) -> Vec<f64> {
        self.work.to_vec()
    }

    #[inline]
    fn next_wake(&self) -> Option<f64> {
        self.order.get(self.next).map(|i| self.arrival[i as usize])
    }

    /// Arrivals in arrival order, ties by id.
    #[inline]
    fn wake_due<F: FnMut(Range<ThreadId>, &TaskView)>(
        &mut self,
        now: f64,
        remaining: &mut [f64],
        mut enqueue: F,
    ) {
        let due_end = self.order.due_end(self.next, now, self.arrival);
        let view = TaskView {
            arrival: self.arrival,
            work: self.work,
            remaining,
        };
        match &self.order {
            ArrivalOrder::Identity(_) => {
                if due_end > self.next {
                    enqueue(self.next as ThreadId..due_end as ThreadId, &view);
                }
            }
            ArrivalOrder::Sorted(ids) => {
                for &i in &ids[self.next..due_end] {
                    enqueue(i..i + 1, &view);
                }
            }
        }
        self.next = due_end;
    }

    #[inline]
    fn step_done(&mut self, _t: ThreadId, _now: f64) -> Next {
        Next::Exit
    }

    #[inline]
    fn finished(&self, exited: usize) -> bool {
        exited >= self.work.len()
    }
}

/// Whether `v` never decreases (`v[i] <= v[i + 1]` for every pair), checked
/// in blocks without an early exit per pair so the compiler can vectorise
/// it: a million arrivals are read once per policy.
fn is_ascending(v: &[f64]) -> bool {
    const BLOCK: usize = 256;
    let mut start = 0;
    while start + 1 < v.len() {
        let end = (start + BLOCK).min(v.len() - 1);
        let ok = v[start..end]
            .iter()
            .zip(&v[start + 1..end + 1])
            .fold(true, |ok, (a, b)| ok & (a <= b));
        if !ok {
            return false;
        }
        start = end;
    }
    true
}

/// Task ids in arrival order, ties by id.
enum ArrivalOrder {
    /// Arrivals are already sorted (the study's case): no index needed.
    Identity(usize),
    Sorted(Vec<ThreadId>),
}

impl ArrivalOrder {
    fn new(arrival: &[f64]) -> Self {
        if is_ascending(arrival) {
            return ArrivalOrder::Identity(arrival.len());
        }
        let mut order: Vec<ThreadId> = (0..arrival.len() as ThreadId).collect();
        // By arrival, then by id: the order a stable sort gives, from the
        // smaller unstable sort.
        order.sort_unstable_by(|&a, &b| {
            arrival[a as usize]
                .total_cmp(&arrival[b as usize])
                .then(a.cmp(&b))
        });
        ArrivalOrder::Sorted(order)
    }

    #[inline]
    fn get(&self, k: usize) -> Option<ThreadId> {
        match self {
            ArrivalOrder::Identity(n) => (k < *n).then_some(k as ThreadId),
            ArrivalOrder::Sorted(v) => v.get(k).copied(),
        }
    }

    /// The position after the tasks that are due at `now` from position
    /// `next` on: positions `next..end` arrive no later than `now`. A
    /// galloping search (the positions are in arrival order), so a batch
    /// of k arrivals costs about 2 log2(k) comparisons instead of k: the
    /// study's million tasks at t = 0 are found in 40, a lone Poisson
    /// arrival in 2.
    fn due_end(&self, next: usize, now: f64, arrival: &[f64]) -> usize {
        let due = |k: usize| self.get(k).is_some_and(|i| arrival[i as usize] <= now);
        if !due(next) {
            return next;
        }
        // `due(lo)` holds; `hi` is the end or a position not due.
        let (mut lo, mut step) = (next, 1);
        let mut hi = loop {
            let probe = next.saturating_add(step);
            if !due(probe) {
                break probe;
            }
            lo = probe;
            step *= 2;
        };
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if due(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        hi
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn due_end_finds_every_batch_of_arrivals() {
        // In order (no index) and out of order (sorted index), with ties.
        for arrival in [
            vec![0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 5.0],
            vec![5.0, 1.0, 0.0, 2.0, 0.0, 1.0, 0.0],
        ] {
            let order = ArrivalOrder::new(&arrival);
            let due = |next, now| order.due_end(next, now, &arrival);
            assert_eq!(due(0, -1.0), 0);
            assert_eq!(due(0, 0.0), 3);
            assert_eq!(due(3, 0.5), 3);
            assert_eq!(due(3, 1.0), 5);
            assert_eq!(due(5, 4.0), 6);
            assert_eq!(due(5, 10.0), 7);
            assert_eq!(due(7, 10.0), 7);
            // Against a plain scan, from every start and instant.
            for next in 0..=arrival.len() {
                for now in [-1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 5.0, 9.0] {
                    let mut k = next;
                    while order.get(k).is_some_and(|i| arrival[i as usize] <= now) {
                        k += 1;
                    }
                    assert_eq!(due(next, now), k, "next {next}, now {now}");
                }
            }
        }
        // A million at t = 0.
        let arrival = vec![0.0; 1_000_000];
        assert_eq!(
            ArrivalOrder::new(&arrival).due_end(0, 0.0, &arrival),
            1_000_000
        );
    }
}
