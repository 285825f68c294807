//! First in, first out: tasks run to completion in arrival order (ties by
//! index, as the study's list).

use std::collections::VecDeque;

use super::{Enqueue, Policy, TaskId, TaskView};

#[derive(Default)]
pub struct Fifo {
    queue: VecDeque<TaskId>,
}

impl Fifo {
    /// A queue sized for `tasks`, so a million-task run never regrows it.
    pub fn with_capacity(tasks: usize) -> Self {
        Fifo {
            queue: VecDeque::with_capacity(tasks),
        }
    }
}

impl Policy for Fifo {
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
        f64::INFINITY
    }
}
