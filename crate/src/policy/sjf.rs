//! Shortest job first, non-preemptive: when a core frees up, the waiting
//! task with the least total work runs to completion (ties by index).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::sim::time::Key;
use crate::sim::{Enqueue, Policy, TaskView, ThreadId};

#[derive(Default)]
pub(crate) struct Sjf {
    queue: BinaryHeap<Reverse<(Key, ThreadId)>>,
}

impl Policy for Sjf {
    fn enqueue(&mut self, task: ThreadId, _why: Enqueue, tasks: &TaskView) {
        self.queue
            .push(Reverse((Key(tasks.work[task as usize]), task)));
    }

    fn pick_next(&mut self, _core: usize, _tasks: &TaskView) -> Option<ThreadId> {
        self.queue.pop().map(|Reverse((_, t))| t)
    }

    fn has_queued(&self) -> bool {
        !self.queue.is_empty()
    }

    fn time_slice(&self, _task: ThreadId) -> f64 {
        f64::INFINITY
    }
}
