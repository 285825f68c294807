//! Shortest remaining processing time, preemptive: the task with the least
//! work left always runs; a newcomer with strictly less work left than a
//! running task takes its core. On one core it minimises mean latency, which
//! the tests use as a check on every other policy.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::sim::time::Key;
use crate::sim::{Enqueue, Policy, Running, TaskView, ThreadId};

#[derive(Default)]
pub(crate) struct Srpt {
    queue: BinaryHeap<Reverse<(Key, ThreadId)>>,
}

impl Policy for Srpt {
    fn enqueue(&mut self, task: ThreadId, _why: Enqueue, tasks: &TaskView) {
        // Work left does not change while queued, so it is a stable key.
        self.queue
            .push(Reverse((Key(tasks.remaining[task as usize]), task)));
    }

    fn pick_next(&mut self, _core: usize, _tasks: &TaskView) -> Option<ThreadId> {
        self.queue.pop().map(|Reverse((_, t))| t)
    }

    fn has_queued(&self) -> bool {
        !self.queue.is_empty()
    }

    fn time_slice(&self, _task: ThreadId) -> f64 {
        // Runs until done or preempted by an arrival.
        f64::INFINITY
    }

    fn is_preemptive(&self) -> bool {
        true
    }

    fn preemption_victim(&mut self, running: &[Running], _tasks: &TaskView) -> Option<usize> {
        let Reverse((Key(best), _)) = *self.queue.peek()?;
        // The running task with the most work left, if strictly more than the
        // best waiting one (ties leave the running task alone: no churn).
        let (i, r) = running.iter().enumerate().max_by(|a, b| {
            a.1.remaining_now
                .total_cmp(&b.1.remaining_now)
                .then(b.0.cmp(&a.0))
        })?;
        (r.remaining_now > best).then_some(i)
    }
}
