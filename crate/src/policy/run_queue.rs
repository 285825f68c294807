//! A first-in-first-out queue of task ids that stores a stretch of
//! consecutive ids as one entry.
//!
//! Why: a study-sized run enqueues every task at t = 0 in index order, so a
//! plain queue of ids holds a million entries (4 MB touched) before the
//! first slice; here that is one entry. Tasks re-queued one at a time (a
//! round-robin task whose quantum expired) cost one entry each, as before.
//! The order of ids is exactly a plain queue's.

use std::collections::VecDeque;

use super::TaskId;

#[derive(Clone, Debug, Default)]
pub struct RunQueue {
    /// Half-open stretches `start..end` of ids, front first; never empty.
    runs: VecDeque<(TaskId, TaskId)>,
}

impl RunQueue {
    /// Task ids index a workload (at most a few million), so `task + 1`
    /// cannot overflow.
    #[inline]
    pub fn push_back(&mut self, task: TaskId) {
        if let Some(back) = self.runs.back_mut() {
            if back.1 == task {
                back.1 += 1;
                return;
            }
        }
        self.runs.push_back((task, task + 1));
    }

    #[inline]
    pub fn pop_front(&mut self) -> Option<TaskId> {
        let front = self.runs.front_mut()?;
        let task = front.0;
        front.0 += 1;
        if front.0 == front.1 {
            self.runs.pop_front();
        }
        Some(task)
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                let id = if x < 0.35 { next } else { (x * 1e4) as TaskId };
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
    fn consecutive_ids_take_one_entry() {
        let mut q = RunQueue::default();
        for t in 0..1_000_000 {
            q.push_back(t);
        }
        assert_eq!(q.runs.len(), 1);
        q.push_back(0);
        assert_eq!(q.runs.len(), 2);
    }
}
