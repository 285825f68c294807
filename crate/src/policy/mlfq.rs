//! Multi-level feedback queue, after the rules in Arpaci-Dusseau's
//! "Operating Systems: Three Easy Pieces", ch. 8:
//!
//! 1. a task at a higher level runs before one at a lower level, and a newly
//!    runnable higher-level task preempts a lower-level one;
//! 2. tasks at the same level take turns (round-robin);
//! 3. a new task starts at the top level;
//! 4. once a task has used its allotment at a level (one quantum, however
//!    many times it was interrupted) it moves one level down;
//! 5. every `boost` ms all tasks move back to the top level.
//!
//! Level `i`'s quantum is `quantum × 2^i`, so `--quantum` sets the top
//! level's slice as it does for `rr`. Defaults: 3 levels, boost every
//! 1000 ms.

use std::collections::VecDeque;

use crate::sim::{Enqueue, Leave, Policy, Running, TaskView, ThreadId};

/// Tunables of [`Mlfq`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MlfqParams {
    /// Number of levels, 1 to 8.
    pub levels: u8,
    /// Priority boost period in ms; `f64::INFINITY` disables boosting.
    pub boost: f64,
}

impl Default for MlfqParams {
    fn default() -> Self {
        MlfqParams {
            levels: 3,
            boost: 1000.0,
        }
    }
}

pub struct Mlfq {
    quanta: Vec<f64>,
    queues: Vec<VecDeque<ThreadId>>,
    level: Vec<u8>,
    /// Work done at the current level since the task got there.
    used: Vec<f64>,
    /// Boost generation in which `level`/`used` were last written; older
    /// entries read as "top level, nothing used", so a boost is O(queued)
    /// rather than O(all tasks).
    epoch_of: Vec<u32>,
    epoch: u32,
    boost: f64,
    next_boost: f64,
}

impl Mlfq {
    pub(crate) fn new(tasks: usize, quantum: f64, params: &MlfqParams) -> Self {
        let levels = params.levels.max(1) as usize;
        Mlfq {
            quanta: (0..levels).map(|i| quantum * (1u64 << i) as f64).collect(),
            queues: vec![VecDeque::new(); levels],
            level: vec![0; tasks],
            used: vec![0.0; tasks],
            epoch_of: vec![0; tasks],
            epoch: 0,
            boost: params.boost,
            next_boost: params.boost,
        }
    }

    fn level_of(&self, t: usize) -> usize {
        if self.epoch_of[t] == self.epoch {
            self.level[t] as usize
        } else {
            0
        }
    }

    fn used_of(&self, t: usize) -> f64 {
        if self.epoch_of[t] == self.epoch {
            self.used[t]
        } else {
            0.0
        }
    }

    fn best_queued_level(&self) -> Option<usize> {
        self.queues.iter().position(|q| !q.is_empty())
    }
}

impl Policy for Mlfq {
    fn enqueue(&mut self, task: ThreadId, why: Enqueue, _tasks: &TaskView) {
        let l = self.level_of(task as usize);
        let q = &mut self.queues[l];
        match why {
            // A preempted task keeps its place at the head of its level.
            Enqueue::Preempted => q.push_front(task),
            Enqueue::Arrived | Enqueue::Expired => q.push_back(task),
        }
    }

    fn pick_next(&mut self, _core: usize, _tasks: &TaskView) -> Option<ThreadId> {
        let l = self.best_queued_level()?;
        self.queues[l].pop_front()
    }

    fn has_queued(&self) -> bool {
        self.queues.iter().any(|q| !q.is_empty())
    }

    fn time_slice(&self, task: ThreadId) -> f64 {
        let t = task as usize;
        (self.quanta[self.level_of(t)] - self.used_of(t)).max(0.0)
    }

    fn on_descheduled(&mut self, task: ThreadId, ran: f64, why: Leave) {
        let t = task as usize;
        let (mut l, mut used) = (self.level_of(t), self.used_of(t) + ran);
        // Rule 4: the allotment is spent (within rounding) → one level down.
        if why != Leave::Done && used >= self.quanta[l] * (1.0 - 1e-12) {
            l = (l + 1).min(self.quanta.len() - 1);
            used = 0.0;
        }
        self.level[t] = l as u8;
        self.used[t] = used;
        self.epoch_of[t] = self.epoch;
    }

    fn is_preemptive(&self) -> bool {
        self.quanta.len() > 1
    }

    fn preemption_victim(&mut self, running: &[Running], _tasks: &TaskView) -> Option<usize> {
        let best = self.best_queued_level()?;
        let (i, r) = running.iter().enumerate().max_by(|a, b| {
            let (la, lb) = (
                self.level_of(a.1.task as usize),
                self.level_of(b.1.task as usize),
            );
            la.cmp(&lb).then(b.0.cmp(&a.0))
        })?;
        (self.level_of(r.task as usize) > best).then_some(i)
    }

    fn next_timer(&self) -> Option<f64> {
        self.boost.is_finite().then_some(self.next_boost)
    }

    fn on_timer(&mut self, now: f64, _running: &[Running]) {
        // Rule 5: everything back to the top, keeping the levels' order.
        // Only the lower levels move, so a boost costs O(tasks demoted since
        // the last one), not O(all queued tasks).
        if let Some((top, lower)) = self.queues.split_first_mut() {
            for q in lower {
                top.append(q);
            }
        }
        self.epoch = self.epoch.wrapping_add(1);
        while self.next_boost <= now {
            self.next_boost += self.boost;
        }
    }
}
