//! A first-in-first-out queue of task ids that stores a stretch of
//! consecutive ids as one entry.
//!
//! Why: a study-sized run enqueues every task at t = 0 in index order, so a
//! plain queue of ids holds a million entries (4 MB touched) before the
//! first slice; here that is one entry. Tasks re-queued one at a time (a
//! round-robin task whose quantum expired) cost one entry each, as before.
//! The order of ids is exactly a plain queue's.

use crate::sim::ThreadId;

#[derive(Clone, Debug, Default)]
pub(crate) struct RunQueue {
    /// Half-open stretches `start..end` of ids; the queue is
    /// `runs[head..]`, front first, each stretch non-empty. A `Vec` with a
    /// moving head rather than a `VecDeque`: no wrap-around arithmetic on
    /// every push and pop (the engine's hottest path), and the consumed
    /// front is reclaimed in bulk.
    runs: Vec<(ThreadId, ThreadId)>,
    head: usize,
}

impl RunQueue {
    /// Task ids index a workload (at most a few million), so `task + 1`
    /// cannot overflow.
    #[inline]
    pub(crate) fn push_back(&mut self, task: ThreadId) {
        if self.runs.len() > self.head {
            if let Some(back) = self.runs.last_mut() {
                if back.1 == task {
                    back.1 += 1;
                    return;
                }
            }
        } else if self.head > 0 {
            // Empty: start over at the beginning of the buffer.
            self.runs.clear();
            self.head = 0;
        }
        if self.head >= 1024 && self.head * 2 >= self.runs.len() {
            // Half the buffer is consumed: move the live part to the front
            // (amortised O(1) per entry).
            self.runs.drain(..self.head);
            self.head = 0;
        }
        self.runs.push((task, task + 1));
    }

    /// Pushes `start..end` in order, as `end - start` calls of
    /// [`RunQueue::push_back`] would (one entry, or one longer one).
    pub(crate) fn push_back_range(&mut self, start: ThreadId, end: ThreadId) {
        if start >= end {
            return;
        }
        self.push_back(start);
        if let Some(back) = self.runs.last_mut() {
            back.1 = end;
        }
    }

    #[inline]
    pub(crate) fn pop_front(&mut self) -> Option<ThreadId> {
        let front = self.runs.get_mut(self.head)?;
        let task = front.0;
        front.0 += 1;
        if front.0 == front.1 {
            self.head += 1;
        }
        Some(task)
    }

    /// About the `ahead`-th id from the front, when the front is single
    /// ids (round-robin's re-queued tasks): the start of the entry `ahead`
    /// on, exact if those are single ids too. `None` inside a stretch of
    /// consecutive ids: their state is read in memory order, which the CPU
    /// prefetches by itself, so there is nothing to hint.
    #[inline]
    pub(crate) fn upcoming(&self, ahead: usize) -> Option<ThreadId> {
        let &(start, end) = self.runs.get(self.head)?;
        if end - start > 1 {
            return None;
        }
        self.runs.get(self.head + ahead).map(|r| r.0)
    }

    /// The front entry `start..end` when it holds more than one id: the
    /// next `end - start` pops return them in order, whatever is pushed
    /// meanwhile (pushes go behind it).
    #[inline]
    pub(crate) fn front_stretch(&self) -> Option<(ThreadId, ThreadId)> {
        let &(start, end) = self.runs.get(self.head)?;
        (end - start > 1).then_some((start, end))
    }

    /// Removes the first `count` ids of [`RunQueue::front_stretch`], as
    /// `count` pops would. The front entry stays at `runs[head]` while ids
    /// are pushed (a push never empties or compacts past a live entry).
    #[inline]
    pub(crate) fn take_front(&mut self, count: ThreadId) {
        let front = &mut self.runs[self.head];
        debug_assert!(count <= front.1 - front.0);
        front.0 += count;
        if front.0 == front.1 {
            self.head += 1;
        }
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.head == self.runs.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    #[test]
    fn same_order_as_a_plain_queue() {
        let mut r = crate::rng::PyRandom::new(3);
        use crate::rng::UniformSource;
        let mut plain = VecDeque::new();
        let mut runs = RunQueue::default();
        let mut next = 0;
        for _ in 0..10_000 {
            let x = r.random();
            if x < 0.45 {
                // Mostly consecutive ids, sometimes a jump or a repeat.
                let id = if x < 0.35 {
                    next
                } else {
                    (x * 1e4) as ThreadId
                };
                next = id + 1;
                plain.push_back(id);
                runs.push_back(id);
            } else {
                assert_eq!(plain.pop_front(), runs.pop_front());
            }
            assert_eq!(plain.is_empty(), runs.is_empty());
        }
        while let Some(t) = plain.pop_front() {
            assert_eq!(Some(t), runs.pop_front());
        }
        assert_eq!(runs.pop_front(), None);
    }

    #[test]
    fn a_long_lived_queue_keeps_its_order_through_compaction() {
        // Round-robin's shape: many separate ids, each popped and pushed
        // back, so the consumed front is reclaimed many times.
        let mut plain: VecDeque<ThreadId> = (0..5000).map(|i| i * 2).collect();
        let mut runs = RunQueue::default();
        for &t in &plain {
            runs.push_back(t);
        }
        for round in 0..20_000u32 {
            let (a, b) = (plain.pop_front(), runs.pop_front());
            assert_eq!(a, b);
            if round % 7 != 0 {
                plain.push_back(a.unwrap());
                runs.push_back(b.unwrap());
            }
            assert!(runs.runs.len() <= 2 * 5000 + 1024, "{}", runs.runs.len());
        }
        while let Some(t) = plain.pop_front() {
            assert_eq!(Some(t), runs.pop_front());
        }
        assert!(runs.is_empty());
    }

    #[test]
    fn upcoming_is_exact_over_single_ids_and_silent_in_a_stretch() {
        let mut q = RunQueue::default();
        assert_eq!(q.upcoming(0), None);
        for t in [10, 11, 12, 40, 7, 90] {
            q.push_back(t);
        }
        assert_eq!(q.upcoming(1), None);
        q.pop_front();
        q.pop_front();
        q.pop_front();
        // Now single ids: exact.
        assert_eq!(q.upcoming(0), Some(40));
        assert_eq!(q.upcoming(2), Some(90));
        assert_eq!(q.upcoming(3), None);
    }

    #[test]
    fn taking_the_front_stretch_is_popping_it() {
        // Pushes between the look and the take (round-robin re-queueing
        // the stretch's own tasks) go behind it, as they would between pops.
        let mut plain: VecDeque<ThreadId> = VecDeque::new();
        let mut runs = RunQueue::default();
        for t in 0..3000 {
            plain.push_back(t);
            runs.push_back(t);
        }
        let mut r = crate::rng::PyRandom::new(5);
        use crate::rng::UniformSource;
        while let Some((start, end)) = runs.front_stretch() {
            let count = 1 + (r.random() * f64::from(end - start)) as ThreadId;
            let count = count.min(end - start);
            for k in start..start + count {
                assert_eq!(plain.pop_front(), Some(k));
                if k % 3 == 0 {
                    plain.push_back(k);
                    runs.push_back(k);
                }
            }
            runs.take_front(count);
            while runs.front_stretch().is_none() {
                let (a, b) = (plain.pop_front(), runs.pop_front());
                assert_eq!(a, b);
                if a.is_none() {
                    return;
                }
            }
        }
        while let Some(t) = plain.pop_front() {
            assert_eq!(Some(t), runs.pop_front());
        }
        assert!(runs.is_empty());
    }

    #[test]
    fn pushing_a_range_is_pushing_its_ids() {
        for (before, range) in [
            (vec![], (0, 5)),
            (vec![3], (4, 9)),
            (vec![3], (7, 9)),
            (vec![1, 2], (2, 3)),
            (vec![8], (8, 8)),
        ] {
            let (mut one, mut bulk) = (RunQueue::default(), RunQueue::default());
            for &t in &before {
                one.push_back(t);
                bulk.push_back(t);
            }
            for t in range.0..range.1 {
                one.push_back(t);
            }
            bulk.push_back_range(range.0, range.1);
            let drain = |q: &mut RunQueue| std::iter::from_fn(|| q.pop_front()).collect::<Vec<_>>();
            assert_eq!(drain(&mut one), drain(&mut bulk), "{before:?} {range:?}");
        }
    }

    #[test]
    fn consecutive_ids_take_one_entry() {
        let mut q = RunQueue::default();
        for t in 0..1_000_000 {
            q.push_back(t);
        }
        assert_eq!(q.runs.len() - q.head, 1);
        q.push_back(0);
        assert_eq!(q.runs.len() - q.head, 2);
    }
}
