//! Round-robin: each task runs at most one quantum, then goes to the back of
//! the queue. With every task at t = 0 on one core this is exactly the
//! study's "rounds in index order": survivors of a round re-queue in the
//! order they ran.
//!
//! First in, first out is the same class with an endless quantum: tasks run
//! to completion in arrival order (ties by index, as the study's list), as
//! the kernel's SCHED_FIFO and SCHED_RR share one class and differ only in
//! the time slice.

use super::run_queue::RunQueue;
use crate::sim::{Enqueue, Policy, TaskView, ThreadId};

pub(crate) struct RoundRobin {
    quantum: f64,
    queue: RunQueue,
}

impl RoundRobin {
    /// `tasks` is the workload's size; the run queue stores consecutive ids
    /// as one entry, so it needs no room reserved up front.
    pub(crate) fn new(quantum: f64, _tasks: usize) -> Self {
        RoundRobin {
            quantum,
            queue: RunQueue::default(),
        }
    }

    /// First in, first out: no quantum ends a task's turn.
    pub(crate) fn fifo(tasks: usize) -> Self {
        RoundRobin::new(f64::INFINITY, tasks)
    }
}

impl Policy for RoundRobin {
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
        self.quantum
    }
}
