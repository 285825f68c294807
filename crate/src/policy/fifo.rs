//! First in, first out: tasks run to completion in arrival order (ties by
//! index, as the study's list).

use super::run_queue::RunQueue;
use crate::sim::{Enqueue, Policy, TaskView, ThreadId};

#[derive(Default)]
pub struct Fifo {
    queue: RunQueue,
}

impl Fifo {
    /// `tasks` is the workload's size; the run queue stores consecutive ids
    /// as one entry, so it needs no room reserved up front.
    pub fn with_capacity(_tasks: usize) -> Self {
        Fifo {
            queue: RunQueue::default(),
        }
    }
}

impl Policy for Fifo {
    fn enqueue(&mut self, task: ThreadId, _why: Enqueue, _tasks: &TaskView) {
        self.queue.push_back(task);
    }

    fn enqueue_range(&mut self, start: ThreadId, end: ThreadId, _why: Enqueue, _tasks: &TaskView) {
        self.queue.push_back_range(start, end);
    }

    fn pick_next(&mut self, _core: usize, _tasks: &TaskView) -> Option<ThreadId> {
        self.queue.pop_front()
    }

    fn has_queued(&self) -> bool {
        !self.queue.is_empty()
    }

    fn upcoming(&self, ahead: usize) -> Option<ThreadId> {
        self.queue.upcoming(ahead)
    }

    fn front_stretch(&self) -> Option<(ThreadId, ThreadId)> {
        self.queue.front_stretch()
    }

    fn take_front(&mut self, count: ThreadId) {
        self.queue.take_front(count);
    }

    fn time_slice(&self, _task: ThreadId) -> f64 {
        f64::INFINITY
    }
}
