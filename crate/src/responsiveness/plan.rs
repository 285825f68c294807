//! A slicing plan and the one-thread event loop that runs it.
//!
//! Every task becomes runnable at its start and runs in pieces of at most
//! the quantum; between pieces it yields (see [`super::yielding`]). When the
//! thread is free it releases every task whose start has come, then picks:
//! with `scheduler` a runnable continuation first, otherwise whichever
//! piece of work became runnable first (a continuation winning a tie: it
//! was queued at its yield). With nothing runnable it idles until the next
//! start or continuation.
//!
//! So a task still running, or queued, at the next task's start delays
//! that task, the delay passes on to the rest of the busy period, and the
//! first idle gap long enough absorbs it.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

use super::yielding::{YieldKind, Yielding};
use crate::stats::accurate_sum;

/// One main-thread task: when it became runnable and how long it ran (ms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Task {
    pub start: f64,
    pub duration: f64,
}

impl Task {
    pub fn new(start: f64, duration: f64) -> Task {
        Task { start, duration }
    }

    /// Tasks from two columns (a trace's recorded starts and durations, a
    /// workload's arrivals and work), in order.
    pub fn from_columns(starts: &[f64], durations: &[f64]) -> Vec<Task> {
        starts
            .iter()
            .zip(durations)
            .map(|(&s, &d)| Task::new(s, d))
            .collect()
    }
}

/// What the thread does with each task.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Plan {
    /// Every task runs whole, in the order it became runnable: exactly as
    /// recorded for a trace (whose tasks never overlap), first come first
    /// served for a task list whose tasks queue.
    Recorded,
    /// Every task runs in pieces of at most `quantum_ms`, yielding between.
    Sliced { quantum_ms: f64, yielding: Yielding },
}

impl Plan {
    pub(crate) fn quantum_ms(&self) -> Option<f64> {
        match self {
            Plan::Recorded => None,
            Plan::Sliced { quantum_ms, .. } => Some(*quantum_ms),
        }
    }

    pub(crate) fn yielding(&self) -> Option<Yielding> {
        match self {
            Plan::Recorded => None,
            Plan::Sliced { yielding, .. } => Some(*yielding),
        }
    }
}

/// How a task of `duration` splits at `quantum`: the number of pieces and
/// the last piece's length. Every other piece is exactly `quantum`; the
/// last is in `(0, quantum]` (a task of 0 ms is one piece of 0).
pub fn pieces(duration: f64, quantum: Option<f64>) -> (u64, f64) {
    let Some(q) = quantum else {
        return (1, duration);
    };
    if duration <= q {
        return (1, duration);
    }
    let rest = |k: u64| duration - (k - 1) as f64 * q;
    let mut k = (duration / q).ceil() as u64;
    // `duration / q` may round across a whole number (0.3 / 0.1 is
    // 2.9999999999999996): settle on the k whose remainder is in (0, q].
    if rest(k) > q {
        k += 1;
    }
    if k > 1 && rest(k) <= 0.0 {
        k -= 1;
    }
    (k, rest(k).min(q))
}

/// The number of chunks `plan` at `quantum` cuts `tasks` into (saturating).
pub(crate) fn chunk_count(tasks: &[Task], quantum: Option<f64>) -> u64 {
    tasks
        .iter()
        .map(|t| pieces(t.duration, quantum).0)
        .fold(0u64, u64::saturating_add)
}

/// A stretch of one task running on the thread, ms.
///
/// Its length is kept as planned rather than recomputed as `end − start`,
/// which rounds: a 50 ms piece starting at 1234.567 would measure
/// 50.00000000000006 and count as blocking.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chunk {
    /// The task's index in the input.
    pub task: usize,
    pub start: f64,
    pub len: f64,
}

impl Chunk {
    pub fn end(&self) -> f64 {
        self.start + self.len
    }
}

/// What a plan did to each task, besides the chunks it ran.
#[derive(Clone, Debug, PartialEq)]
pub struct Completion {
    /// Each task's end, in input order.
    pub ends: Vec<f64>,
    /// Yields taken, all tasks together.
    pub yields: u64,
    /// When the last chunk ended (0 with no chunks).
    pub last_end: f64,
}

/// What the thread ran under a plan, chunks kept (for tests and small
/// inputs; [`run_each`] streams them instead).
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// Every chunk of positive length, in time order (they never overlap).
    pub chunks: Vec<Chunk>,
    pub completion: Completion,
}

impl Schedule {
    /// When the last chunk ends (0 with no chunks).
    pub fn end(&self) -> f64 {
        self.completion.last_end
    }

    /// Time spent running chunks (the yields' cost is not in it).
    pub fn busy(&self) -> f64 {
        accurate_sum(self.chunks.iter().map(|c| c.len))
    }
}

/// Runs `tasks` under `plan`, keeping every chunk.
pub fn run(tasks: &[Task], plan: &Plan) -> Schedule {
    let mut chunks = Vec::new();
    let completion = run_each(tasks, plan, |c| chunks.push(c));
    Schedule { chunks, completion }
}

/// A continuation waiting to run: ordered by when it becomes runnable, then
/// by when it was made.
#[derive(Clone, Copy, Debug)]
struct Continuation {
    ready: f64,
    /// Creation order, for ties.
    seq: u64,
    task: usize,
    /// Pieces of the task already run (and so yields taken).
    done: u64,
}

impl PartialEq for Continuation {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Continuation {}

impl PartialOrd for Continuation {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Continuation {
    /// Reversed, so `BinaryHeap` (a max-heap) pops the earliest first.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .ready
            .total_cmp(&self.ready)
            .then(other.seq.cmp(&self.seq))
    }
}

/// Runs `tasks` under `plan` on one thread, handing each chunk of positive
/// length to `on_chunk` in time order (memory stays O(tasks) however fine
/// the slicing).
///
/// Tasks must have finite starts and finite, non-negative durations; a
/// sliced plan needs a positive quantum, a non-negative cost and a positive
/// frame period ([`super::settings`] and the task readers check these).
pub(crate) fn run_each(tasks: &[Task], plan: &Plan, mut on_chunk: impl FnMut(Chunk)) -> Completion {
    let n = tasks.len();
    let quantum = plan.quantum_ms();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| tasks[a].start.total_cmp(&tasks[b].start).then(a.cmp(&b)));

    let mut ends = vec![f64::NAN; n];
    let mut yields = 0u64;
    let mut last_end = 0.0f64;
    let mut released = 0;
    let mut waiting: VecDeque<usize> = VecDeque::new();
    let mut continuations: BinaryHeap<Continuation> = BinaryHeap::new();
    let mut seq = 0u64;
    let mut now = order.first().map_or(0.0, |&i| tasks[i].start);

    loop {
        while released < n && tasks[order[released]].start <= now {
            waiting.push_back(order[released]);
            released += 1;
        }
        let ready = continuations.peek().filter(|c| c.ready <= now).copied();
        let take_continuation = match (ready, waiting.front()) {
            (None, None) => {
                // Idle until a task is released or a continuation is due.
                let release = (released < n).then(|| tasks[order[released]].start);
                let due = continuations.peek().map(|c| c.ready);
                now = match (release, due) {
                    (Some(r), Some(d)) => r.min(d),
                    (Some(t), None) | (None, Some(t)) => t,
                    (None, None) => break,
                };
                continue;
            }
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(c), Some(&first)) => match plan {
                Plan::Sliced { yielding, .. } if yielding.kind == YieldKind::Scheduler => true,
                _ => c.ready <= tasks[first].start,
            },
        };
        let (task, done) = if take_continuation {
            let c = continuations.pop().expect("peeked above");
            (c.task, c.done)
        } else {
            (waiting.pop_front().expect("checked above"), 0)
        };

        let (count, last) = pieces(tasks[task].duration, quantum);
        let len = match quantum {
            Some(q) if done + 1 < count => q,
            _ => last,
        };
        let chunk = Chunk {
            task,
            start: now,
            len,
        };
        let end = chunk.end();
        if len > 0.0 {
            on_chunk(chunk);
            last_end = end;
        }
        if done + 1 == count {
            ends[task] = end;
            now = end;
            continue;
        }
        let Plan::Sliced { yielding, .. } = plan else {
            unreachable!("a recorded task is one piece");
        };
        yields += 1;
        seq += 1;
        // The task's (done + 1)-th piece just ended: its (done + 1)-th yield.
        let nth = u32::try_from(done + 1).unwrap_or(u32::MAX);
        continuations.push(Continuation {
            ready: yielding.continuation_ready(end, nth),
            seq,
            task,
            done: done + 1,
        });
        // The yield itself: event-loop time in which no chunk runs.
        now = end + yielding.cost_ms;
    }
    Completion {
        ends,
        yields,
        last_end,
    }
}

#[cfg(test)]
mod tests {
    use super::super::yielding::{FRAME_MS, HTML_CLAMP_FROM};
    use super::*;

    fn sliced(q: f64, kind: YieldKind, c: f64) -> Plan {
        Plan::Sliced {
            quantum_ms: q,
            yielding: Yielding::new(kind, c),
        }
    }

    fn assert_spans(got: &Schedule, want: &[(usize, f64, f64)]) {
        let got: Vec<(usize, f64, f64)> = got
            .chunks
            .iter()
            .map(|c| (c.task, c.start, c.end()))
            .collect();
        assert_eq!(got.len(), want.len(), "{got:?}");
        for (g, w) in got.iter().zip(want) {
            assert_eq!(g.0, w.0, "{got:?}");
            assert!(
                (g.1 - w.1).abs() < 1e-9 && (g.2 - w.2).abs() < 1e-9,
                "{got:?}"
            );
        }
    }

    /// A 100 ms task at 0 and a 20 ms task released at 30.
    fn two() -> Vec<Task> {
        vec![Task::new(0.0, 100.0), Task::new(30.0, 20.0)]
    }

    #[test]
    fn pieces_are_the_quantum_then_the_rest() {
        assert_eq!(pieces(100.0, Some(25.0)), (4, 25.0));
        assert_eq!(pieces(101.0, Some(25.0)), (5, 1.0));
        assert_eq!(pieces(10.0, Some(25.0)), (1, 10.0));
        assert_eq!(pieces(10.0, None), (1, 10.0));
        assert_eq!(pieces(0.0, Some(4.0)), (1, 0.0));
        // 0.3 / 0.1 is 2.9999999999999996 in floats: still three pieces.
        let (k, last) = pieces(0.3, Some(0.1));
        assert_eq!(k, 3);
        assert!((last - 0.1).abs() < 1e-15 && last <= 0.1);
        for (d, q) in [(150.0, 50.0), (1.0, 1.0 / 3.0), (7.7, 1.1), (1e6, 0.7)] {
            let (k, last) = pieces(d, Some(q));
            assert!(last > 0.0 && last <= q, "{d} {q} {k} {last}");
            assert!(((k - 1) as f64 * q + last - d).abs() <= 1e-9 * d);
        }
        assert_eq!(chunk_count(&two(), Some(25.0)), 5);
        assert_eq!(
            chunk_count(&[Task::new(0.0, 3.6e6); 3], Some(1e-3)),
            1.08e10 as u64
        );
    }

    #[test]
    fn recorded_runs_each_task_whole_at_its_start() {
        let s = run(&two(), &Plan::Recorded);
        // The second task was posted at 30 but the first held the thread:
        // as a task list (not a trace) it queues.
        assert_spans(&s, &[(0, 0.0, 100.0), (1, 100.0, 120.0)]);
        let trace = [Task::new(0.0, 10.0), Task::new(15.0, 5.0)];
        assert_spans(
            &run(&trace, &Plan::Recorded),
            &[(0, 0.0, 10.0), (1, 15.0, 20.0)],
        );
    }

    #[test]
    fn scheduler_continues_ahead_of_the_waiting_task() {
        let s = run(&two(), &sliced(25.0, YieldKind::Scheduler, 1.0));
        assert_spans(
            &s,
            &[
                (0, 0.0, 25.0),
                (0, 26.0, 51.0),
                (0, 52.0, 77.0),
                (0, 78.0, 103.0),
                (1, 103.0, 123.0),
            ],
        );
        assert_eq!(s.completion.yields, 3);
        assert_eq!(s.completion.ends, vec![103.0, 123.0]);
    }

    #[test]
    fn message_lets_the_waiting_task_in() {
        let s = run(&two(), &sliced(25.0, YieldKind::Message, 1.0));
        // At 26 the second task is not released yet (30): the continuation
        // runs. At 52 the task (runnable since 30) is ahead of it.
        assert_spans(
            &s,
            &[
                (0, 0.0, 25.0),
                (0, 26.0, 51.0),
                (1, 52.0, 72.0),
                (0, 72.0, 97.0),
                (0, 98.0, 123.0),
            ],
        );
        assert_eq!(s.completion.ends, vec![123.0, 72.0]);
    }

    #[test]
    fn timeout_clamps_from_the_fifth_yield_of_a_task() {
        let one = [Task::new(0.0, 70.0)];
        let s = run(&one, &sliced(10.0, YieldKind::Timeout, 0.5));
        let starts: Vec<f64> = s.chunks.iter().map(|c| c.start).collect();
        // Yields 1–4 cost 0.5 ms; yields 5 and 6 take 0.5 + 4 ms.
        let want = [0.0, 10.5, 21.0, 31.5, 42.0, 56.5, 71.0];
        assert_eq!(starts.len(), want.len());
        for (g, w) in starts.iter().zip(want) {
            assert!((g - w).abs() < 1e-9, "{starts:?}");
        }
        let spec = Plan::Sliced {
            quantum_ms: 10.0,
            yielding: Yielding {
                clamp_from: HTML_CLAMP_FROM,
                ..Yielding::new(YieldKind::Timeout, 0.5)
            },
        };
        // By the letter of HTML only the 7th yield on is clamped: none here.
        assert!((run(&one, &spec).end() - 73.0).abs() < 1e-9);
        // The clamp counts per task: a second task starts its chain afresh.
        let two = [Task::new(0.0, 60.0), Task::new(200.0, 60.0)];
        let s = run(&two, &sliced(10.0, YieldKind::Timeout, 0.5));
        assert!((s.completion.ends[0] - 66.5).abs() < 1e-9);
        assert!((s.completion.ends[1] - 266.5).abs() < 1e-9);
    }

    #[test]
    fn raf_continues_at_the_next_frame_and_lets_waiting_work_in() {
        let p = FRAME_MS;
        let s = run(&two(), &sliced(25.0, YieldKind::Raf, 1.0));
        // 25 + 1 → frame 2 (33.3); the task released at 30 runs while the
        // thread waits for it; then each piece waits for a frame.
        assert_spans(
            &s,
            &[
                (0, 0.0, 25.0),
                (1, 30.0, 50.0),
                (0, 50.0, 75.0),
                (0, 5.0 * p, 5.0 * p + 25.0),
                (0, 7.0 * p, 7.0 * p + 25.0),
            ],
        );
    }

    #[test]
    fn a_task_pushed_past_the_next_start_delays_it_and_idle_absorbs_it() {
        let tasks = [
            Task::new(0.0, 60.0),
            Task::new(65.0, 5.0),
            Task::new(200.0, 10.0),
        ];
        let s = run(&tasks, &sliced(10.0, YieldKind::Timeout, 0.5));
        assert!(s.completion.ends[0] > 65.0);
        let second = s.chunks.iter().find(|c| c.task == 1).unwrap();
        assert!(second.start > 65.0, "{:?}", s.chunks);
        assert_eq!(s.completion.ends[2], 210.0);
    }

    #[test]
    fn zero_length_tasks_complete_without_chunks() {
        let s = run(
            &[Task::new(0.0, 0.0), Task::new(1.0, 2.0)],
            &sliced(1.0, YieldKind::Message, 0.0),
        );
        assert_eq!(s.completion.ends, vec![0.0, 3.0]);
        assert_eq!(s.chunks.len(), 2);
        assert_eq!(s.completion.yields, 1);
        let none = run(&[], &Plan::Recorded);
        assert_eq!((none.end(), none.chunks.len()), (0.0, 0));
    }
}
