//! The top-level tasks of one thread.
//!
//! - Task events are the names Chrome has used across versions: `RunTask`
//!   (71+), `ThreadControllerImpl::RunTask` (69–70),
//!   `ThreadControllerImpl::DoWork` (66–68) and
//!   `TaskQueueManager::ProcessTaskFromWorkQueue` (≤ 65, nested inside
//!   `MessageLoop::RunTask`, which is not itself a task).
//! - Only the outermost count: a task inside another (a legacy name nested
//!   in `RunTask`) would count the same work twice.
//! - Complete (`X`) and begin/end (`B`/`E`) events; at equal timestamps an
//!   end sorts before a begin, so back-to-back pairs match correctly.
//!   Instant (`I`) task events are not tasks.
//! - A task without an end (`B` without `E`, `X` without `dur`) is clipped
//!   at the trace's last timestamp and flagged; a task overlapping the next
//!   one (seen from about Chrome 122) is clipped to the next one's start.
//! - Times are µs around 10^11; the workload is in ms from the first task.

use std::collections::HashMap;

use super::events::{Ev, Events};
use super::{TraceArrivals, TraceError};
use crate::text::Text;
use crate::workload::mix::{MAX_CLASSES, MAX_TASK_MS};
use crate::workload::task_list::{MAX_ARRIVAL_MS, MAX_LABEL_CHARS};
use crate::workload::Workload;

/// Event names that are a task, newest first.
pub(crate) const TASK_NAMES: [&str; 4] = [
    "RunTask",
    "ThreadControllerImpl::RunTask",
    "ThreadControllerImpl::DoWork",
    "TaskQueueManager::ProcessTaskFromWorkQueue",
];

/// Wrappers around a task, never its class label.
const WRAPPERS: [&str; 1] = ["MessageLoop::RunTask"];

pub(crate) fn is_task_name(name: &str) -> bool {
    TASK_NAMES.contains(&name)
}

/// One top-level task, in µs as recorded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Task {
    pub start: f64,
    pub end: f64,
    /// The task event's name (an index into `Events::names`).
    pub name: u32,
    /// The first event inside it, if any (its class label).
    pub child: Option<u32>,
    /// It had no end in the trace and was clipped at the trace's end.
    pub unterminated: bool,
    /// It overlapped the next task and was clipped to that task's start.
    pub clipped: bool,
}

/// A thread's tasks and what was done to get them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct TaskList {
    pub tasks: Vec<Task>,
    /// Task events inside another task, not counted.
    pub nested: usize,
    /// `E` events without a matching `B`.
    pub stray_ends: usize,
}

fn ph_rank(e: &Ev) -> u8 {
    if e.ph == b'E' {
        0
    } else {
        1
    }
}

/// Sorts events by thread, then time; at equal times ends first, then the
/// longer event first (a `B`, of unknown length, before any `X`).
pub(crate) fn sort(ev: &mut Events) {
    let len = |e: &Ev| match e.ph {
        b'X' if !e.dur.is_nan() => e.dur,
        _ => f64::INFINITY,
    };
    ev.events.sort_by(|a, b| {
        a.thread
            .cmp(&b.thread)
            .then(a.ts.total_cmp(&b.ts))
            .then(ph_rank(a).cmp(&ph_rank(b)))
            .then(len(b).total_cmp(&len(a)))
    });
}

/// The events of one thread (after [`sort`]), in time order.
pub(crate) fn thread_events(ev: &Events, thread: u32) -> &[Ev] {
    let lo = ev.events.partition_point(|e| e.thread < thread);
    let hi = ev.events.partition_point(|e| e.thread <= thread);
    &ev.events[lo..hi]
}

/// An interval: a paired `B`/`E` or an `X`.
#[derive(Clone, Copy)]
struct Span {
    start: f64,
    end: f64,
    name: u32,
    task: bool,
    unterminated: bool,
}

/// The thread's top-level tasks, in start order.
pub(crate) fn extract(ev: &Events, thread: u32) -> Result<TaskList, TraceError> {
    let task_ids: Vec<bool> = ev.names.iter().map(|n| is_task_name(n)).collect();
    let wrapper_ids: Vec<bool> = ev
        .names
        .iter()
        .map(|n| WRAPPERS.contains(&n.as_str()))
        .collect();
    let end_of_trace = ev.end;
    let mut spans: Vec<Span> = Vec::new();
    let mut open: Vec<&Ev> = Vec::new();
    let mut list = TaskList::default();
    for e in thread_events(ev, thread) {
        match e.ph {
            b'X' => spans.push(Span {
                start: e.ts,
                end: if e.dur.is_nan() {
                    end_of_trace
                } else {
                    e.ts + e.dur
                },
                name: e.name,
                task: task_ids[e.name as usize],
                unterminated: e.dur.is_nan(),
            }),
            b'B' => open.push(e),
            _ => match open.pop() {
                Some(b) => spans.push(Span {
                    start: b.ts,
                    end: e.ts.max(b.ts),
                    name: b.name,
                    task: task_ids[b.name as usize],
                    unterminated: false,
                }),
                None => list.stray_ends += 1,
            },
        }
    }
    for b in open {
        spans.push(Span {
            start: b.ts,
            end: end_of_trace.max(b.ts),
            name: b.name,
            task: task_ids[b.name as usize],
            unterminated: true,
        });
    }
    // Outer before inner: earlier start, then later end, then a task before
    // a non-task of the same bounds (its single child).
    spans.sort_by(|a, b| {
        a.start
            .total_cmp(&b.start)
            .then(b.end.total_cmp(&a.end))
            .then(b.task.cmp(&a.task))
    });
    for s in spans {
        let current = list.tasks.last_mut();
        if s.task {
            if let Some(cur) = current {
                if s.start < cur.end {
                    if s.end <= cur.end {
                        list.nested += 1;
                        continue;
                    }
                    cur.end = s.start;
                    cur.clipped = true;
                }
            }
            list.tasks.push(Task {
                start: s.start,
                end: s.end,
                name: s.name,
                child: None,
                unterminated: s.unterminated,
                clipped: false,
            });
        } else if let Some(cur) = current {
            if cur.child.is_none()
                && s.start >= cur.start
                && s.start < cur.end
                && !wrapper_ids[s.name as usize]
            {
                cur.child = Some(s.name);
            }
        }
    }
    Ok(list)
}

/// Top-level tasks of a thread, for the candidate list.
pub(crate) fn count(ev: &Events, thread: u32) -> usize {
    extract(ev, thread).map_or(0, |l| l.tasks.len())
}

/// A label safe for a task list and for display: no separators, comment
/// marks, control or bidirectional formatting characters (which would
/// reorder the text around a label), at most [`MAX_LABEL_CHARS`]
/// characters.
fn clean_label(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if matches!(c, ',' | '#' | '"') || crate::error::is_hidden_char(c) {
                ' '
            } else {
                c
            }
        })
        .collect();
    s.trim()
        .chars()
        .take(MAX_LABEL_CHARS)
        .collect::<String>()
        .trim()
        .to_string()
}

/// The label of the tasks in the small classes merged together.
pub(crate) const OTHER_LABEL: &str = "other";

/// Each task's label: its first child's name, or the task event's name.
pub(crate) fn labels(list: &TaskList, names: &[String]) -> Vec<String> {
    list.tasks
        .iter()
        .map(|t| {
            let child = t.child.map(|c| clean_label(&names[c as usize]));
            match child {
                Some(c) if !c.is_empty() => c,
                _ => clean_label(&names[t.name as usize]),
            }
        })
        .collect()
}

/// The workload (ms from the first task), each task's recorded latency and
/// its recorded start.
pub(crate) fn workload(
    list: &TaskList,
    names: &[String],
    arrivals: TraceArrivals,
) -> Result<(Workload, Vec<f64>, Vec<f64>), TraceError> {
    let Some(first) = list.tasks.first() else {
        return Err(TraceError::new(Text::new(
            "the chosen thread has no tasks",
            "所选线程没有任务",
        )));
    };
    let t0 = first.start;
    let labels = labels(list, names);
    // The most frequent labels get a class each; the rest share "other".
    let mut freq: HashMap<&str, usize> = HashMap::new();
    for l in &labels {
        *freq.entry(l.as_str()).or_default() += 1;
    }
    let mut by_freq: Vec<(&str, usize)> = freq.into_iter().collect();
    by_freq.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let room = if by_freq.len() > MAX_CLASSES {
        MAX_CLASSES - 1
    } else {
        MAX_CLASSES
    };
    let kept: HashMap<&str, u16> = by_freq
        .iter()
        .take(room)
        .enumerate()
        .map(|(i, (l, _))| (*l, i as u16))
        .collect();
    let mut w = Workload {
        class_labels: by_freq
            .iter()
            .take(room)
            .map(|(l, _)| l.to_string())
            .collect(),
        ..Workload::default()
    };
    if by_freq.len() > room {
        w.class_labels.push(OTHER_LABEL.to_string());
    }
    let mut recorded = Vec::with_capacity(list.tasks.len());
    let mut starts = Vec::with_capacity(list.tasks.len());
    for (t, label) in list.tasks.iter().zip(&labels) {
        let start = (t.start - t0) / 1000.0;
        let dur = (t.end - t.start) / 1000.0;
        if dur > MAX_TASK_MS {
            return Err(TraceError::new(
                Text::new(
                    "the task at {} ms lasts {} ms; at most {} ms per task are accepted",
                    "位于 {} ms 的任务持续 {} ms；每个任务最多接受 {} ms",
                )
                .both(&[
                    &format!("{start:.3}"),
                    &format!("{dur:.0}"),
                    &MAX_TASK_MS.to_string(),
                ]),
            ));
        }
        if start > MAX_ARRIVAL_MS {
            return Err(TraceError::new(
                Text::new(
                    "the trace spans {} ms; at most {} ms are accepted",
                    "trace 跨越 {} ms；最多接受 {} ms",
                )
                .both(&[&format!("{start:.0}"), &MAX_ARRIVAL_MS.to_string()]),
            ));
        }
        w.arrival.push(match arrivals {
            TraceArrivals::Recorded => start,
            TraceArrivals::T0 => 0.0,
        });
        w.work.push(dur);
        w.class.push(
            kept.get(label.as_str())
                .copied()
                .unwrap_or((w.class_labels.len() - 1) as u16),
        );
        recorded.push(dur);
        starts.push(start);
    }
    Ok((w, recorded, starts))
}
