//! The discrete-event engine: N identical cores, one policy, one workload.
//!
//! The engine owns the clock, the cores and all accounting; the policy owns
//! the run queue (see `crate::policy`). Time jumps from event to event:
//! a slice ending on some core, a task arriving, or a policy timer.
//!
//! Order of work at one instant `t` (documented because it decides ties):
//! 1. slices ending at `t` are accounted; finished tasks complete at `t`;
//! 2. tasks arriving at `t` are enqueued (in index order);
//! 3. tasks whose slice expired at `t` are enqueued after them — a newcomer
//!    gets ahead of a task that just used its quantum, as in most textbooks;
//! 4. a due policy timer fires;
//! 5. free cores pick work (lowest core first), then a preemptive policy may
//!    take cores from running tasks.
//!
//! Slices are charged exactly as the study's code does (`run = min(remaining,
//! slice)`, `clock += run`, done when `remaining <= 1e-9`), so on one core
//! with every task at t = 0 and free switches the completion times are
//! bit-identical to the study's Python.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::policy::{Enqueue, Key, Leave, Policy, Running, TaskId, TaskView};
use crate::workload::Workload;

/// Work below this is "done", as in the study's `rem[i] <= 1e-9`.
pub const DONE_EPSILON: f64 = 1e-9;

/// Machine and recording settings for one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineConfig {
    /// Identical cores, at least 1.
    pub cores: usize,
    /// Time in ms a core spends whenever it starts a task other than the one
    /// it ran last (the first task a core ever runs costs nothing).
    pub switch_cost: f64,
    /// Keep every run segment (for Gantt charts and traces). Off for very
    /// large runs: memory then stays O(tasks).
    pub record_segments: bool,
    /// Refuse to go on past this many slices (a safety net behind the
    /// up-front estimate in `crate::experiment`).
    pub max_slices: u64,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            cores: 1,
            switch_cost: 0.0,
            record_segments: true,
            max_slices: u64::MAX,
        }
    }
}

/// A stretch of time in which one core ran one task.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Segment {
    pub core: u32,
    pub task: TaskId,
    pub start: f64,
    pub end: f64,
}

/// What happened to one task.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct TaskOutcome {
    /// When it first got a core (after any switch cost).
    pub first_start: f64,
    pub completion: f64,
    /// How many times it was put on a core.
    pub slices: u32,
}

/// The result of one run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schedule {
    pub outcomes: Vec<TaskOutcome>,
    /// Empty unless `record_segments` was set.
    pub segments: Vec<Segment>,
    pub context_switches: u64,
    /// Time of the last completion.
    pub makespan: f64,
    /// Core time spent running tasks (ms), summed over cores.
    pub busy_time: f64,
    /// Core time spent switching (ms), summed over cores.
    pub switch_time: f64,
    pub cores: usize,
}

/// Why a run was stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    TooManySlices { limit: u64 },
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::TooManySlices { limit } => write!(
                f,
                "the run needs more than {limit} slices; use a larger quantum or fewer tasks"
            ),
        }
    }
}

impl std::error::Error for EngineError {}

#[derive(Clone, Copy)]
struct CoreState {
    /// The task on the core, if busy.
    task: Option<TaskId>,
    /// The task it ran last, for switch costs.
    last: Option<TaskId>,
    /// When the task's work (after switching) started.
    run_start: f64,
    /// Work the current slice will do if not preempted.
    run_amount: f64,
    /// Bumped when a slice is cut short, so its heap entry goes stale.
    generation: u32,
}

/// Runs `workload` under `policy`.
pub fn simulate(
    workload: &Workload,
    policy: &mut dyn Policy,
    config: &EngineConfig,
) -> Result<Schedule, EngineError> {
    let n = workload.len();
    let cores = config.cores.max(1);
    let mut remaining = workload.work.clone();
    let mut outcomes = vec![
        TaskOutcome {
            first_start: f64::NAN,
            completion: f64::NAN,
            slices: 0,
        };
        n
    ];
    let mut segments = Vec::new();
    let mut core = vec![
        CoreState {
            task: None,
            last: None,
            run_start: 0.0,
            run_amount: 0.0,
            generation: 0,
        };
        cores
    ];
    // Slice ends: (end time, core, generation), earliest first.
    let mut ends: BinaryHeap<Reverse<(Key, usize, u32)>> = BinaryHeap::new();
    // Free cores, lowest index first.
    let mut idle: BinaryHeap<Reverse<usize>> = (0..cores).map(Reverse).collect();

    let order = arrival_order(&workload.arrival);
    let mut next_arrival = 0;
    let mut expired: Vec<TaskId> = Vec::new();
    let mut sched = Schedule {
        cores,
        ..Schedule::default()
    };
    let mut slices: u64 = 0;
    let mut done = 0usize;

    macro_rules! view {
        () => {
            TaskView {
                arrival: &workload.arrival,
                work: &workload.work,
                remaining: &remaining,
            }
        };
    }

    while done < n {
        // 1. The next instant anything happens.
        let t_arrival = order
            .get(next_arrival)
            .map(|&i| workload.arrival[i as usize]);
        let t_end = ends.peek().map(|Reverse((Key(t), _, _))| *t);
        let t_timer = policy.next_timer();
        let now = [t_arrival, t_end, t_timer]
            .into_iter()
            .flatten()
            .fold(f64::INFINITY, f64::min);
        if !now.is_finite() {
            // Nothing can happen any more; only reachable if a policy loses
            // a task, which the tests guard against.
            break;
        }

        // 2. Slices ending now.
        while let Some(&Reverse((Key(t), c, gen))) = ends.peek() {
            if t > now {
                break;
            }
            ends.pop();
            if gen != core[c].generation {
                continue;
            }
            let task = core[c].task.take().expect("a scheduled end has a task");
            let ran = core[c].run_amount;
            let i = task as usize;
            remaining[i] -= ran;
            sched.busy_time += ran;
            if config.record_segments {
                segments.push(Segment {
                    core: c as u32,
                    task,
                    start: core[c].run_start,
                    end: t,
                });
            }
            if remaining[i] <= DONE_EPSILON {
                remaining[i] = 0.0;
                outcomes[i].completion = t;
                sched.makespan = sched.makespan.max(t);
                done += 1;
                policy.on_descheduled(task, ran, Leave::Done);
            } else {
                policy.on_descheduled(task, ran, Leave::Expired);
                expired.push(task);
            }
            idle.push(Reverse(c));
        }

        // 3. Arrivals now, then the expired tasks behind them.
        while let Some(&i) = order.get(next_arrival) {
            if workload.arrival[i as usize] > now {
                break;
            }
            policy.enqueue(i, Enqueue::Arrived, &view!());
            next_arrival += 1;
        }
        for task in expired.drain(..) {
            policy.enqueue(task, Enqueue::Expired, &view!());
        }

        // 4. Policy timer.
        if t_timer.is_some_and(|t| t <= now) {
            policy.on_timer(now);
        }

        // 5. Fill free cores, then let a preemptive policy take busy ones.
        let mut preemptions_left = cores;
        loop {
            while let Some(&Reverse(c)) = idle.peek() {
                let Some(task) = policy.pick_next(&view!()) else {
                    break;
                };
                idle.pop();
                slices += 1;
                if slices > config.max_slices {
                    return Err(EngineError::TooManySlices {
                        limit: config.max_slices,
                    });
                }
                let i = task as usize;
                let mut start = now;
                if core[c].last.is_some_and(|l| l != task) {
                    start += config.switch_cost;
                    sched.switch_time += config.switch_cost;
                    sched.context_switches += 1;
                }
                let amount = remaining[i].min(policy.time_slice(task));
                let st = &mut core[c];
                st.task = Some(task);
                st.last = Some(task);
                st.run_start = start;
                st.run_amount = amount;
                ends.push(Reverse((Key(start + amount), c, st.generation)));
                let o = &mut outcomes[i];
                if o.slices == 0 {
                    o.first_start = start;
                }
                o.slices += 1;
            }
            if !idle.is_empty()
                || !policy.is_preemptive()
                || !policy.has_queued()
                || preemptions_left == 0
            {
                break;
            }
            let running: Vec<Running> = core
                .iter()
                .enumerate()
                .filter_map(|(c, st)| {
                    st.task.map(|task| Running {
                        core: c,
                        task,
                        remaining_now: remaining[task as usize]
                            - (now - st.run_start).clamp(0.0, st.run_amount),
                    })
                })
                .collect();
            let Some(v) = policy.preemption_victim(&running, &view!()) else {
                break;
            };
            preemptions_left -= 1;
            let c = running[v].core;
            let st = &mut core[c];
            let task = st.task.take().expect("a running core has a task");
            let ran = (now - st.run_start).clamp(0.0, st.run_amount);
            st.generation = st.generation.wrapping_add(1);
            remaining[task as usize] -= ran;
            sched.busy_time += ran;
            if config.record_segments && ran > 0.0 {
                segments.push(Segment {
                    core: c as u32,
                    task,
                    start: st.run_start,
                    end: now,
                });
            }
            policy.on_descheduled(task, ran, Leave::Preempted);
            policy.enqueue(task, Enqueue::Preempted, &view!());
            idle.push(Reverse(c));
        }
    }

    sched.outcomes = outcomes;
    sched.segments = segments;
    Ok(sched)
}

/// Task ids by arrival time, ties by id (stable); the identity when already
/// sorted, which is the study's case.
fn arrival_order(arrival: &[f64]) -> Vec<TaskId> {
    let mut order: Vec<TaskId> = (0..arrival.len() as TaskId).collect();
    if !arrival.windows(2).all(|w| w[0] <= w[1]) {
        order.sort_by(|&a, &b| arrival[a as usize].total_cmp(&arrival[b as usize]));
    }
    order
}
