//! Round-robin: each task runs at most one quantum, then goes to the back of
//! the queue. With every task at t = 0 on one core this is exactly the
//! study's "rounds in index order": survivors of a round re-queue in the
//! order they ran.

use std::collections::VecDeque;

use super::{Enqueue, Policy, TaskId, TaskView};

pub struct RoundRobin {
    quantum: f64,
    queue: VecDeque<TaskId>,
}

impl RoundRobin {
    /// `tasks` sizes the queue so a large run never regrows it.
    pub fn new(quantum: f64, tasks: usize) -> Self {
        RoundRobin {
            quantum,
            queue: VecDeque::with_capacity(tasks),
        }
    }
}

impl Policy for RoundRobin {
    fn enqueue(&mut self, task: TaskId, _why: Enqueue, _tasks: &TaskView) {
        self.queue.push_back(task);
    }

    fn pick_next(&mut self, _tasks: &TaskView) -> Option<TaskId> {
        self.queue.pop_front()
    }

    fn has_queued(&self) -> bool {
        !self.queue.is_empty()
    }

    fn time_slice(&self, _task: TaskId) -> f64 {
        self.quantum
    }
}
