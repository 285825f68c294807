//! "What was found": the thread, its tasks, their span and busy time, the
//! ten longest, the long tasks (≥ 50 ms) and their total blocking time,
//! shown before the results. Numbers and sentences are made here, in
//! English and Chinese, for the CLI and the page alike.

use serde::Serialize;

use super::tasks::TaskList;
use super::threads::{Candidate, How};
use super::TraceArrivals;
use crate::text::{Lang, Text};
use crate::workload::Workload;

/// A task of 50 ms or more is a long task (the browsers' definition); its
/// time beyond 50 ms is blocking time.
pub(crate) const LONG_TASK_MS: f64 = 50.0;
/// How many of the longest tasks are listed.
pub(crate) const LONGEST_SHOWN: usize = 10;
/// The headings of the longest tasks' table: start, duration, first event.
pub const LONGEST_HEADS: [Text; 3] = [
    Text::new("start (ms)", "开始（ms）"),
    Text::new("duration (ms)", "时长（ms）"),
    Text::new("first event", "第一个事件"),
];
/// The longest tasks' table's caption.
pub const LONGEST_CAPTION: Text = Text::new(
    "The longest tasks (select one to see it in the schedule)",
    "最长的任务（选择一个可在调度图中查看）",
);

const HOW_MAIN_FRAME: Text = Text::new("the inspected page's main frame", "被检查页面的主框架");
const HOW_PAGE: Text = Text::new(
    "the traced page (TracingStartedInPage or its main-frame navigation)",
    "被记录的页面（TracingStartedInPage 或其主框架导航）",
);
const HOW_BUSIEST: Text = Text::new(
    "the busiest main thread (the trace does not say which page was inspected)",
    "最忙的主线程（trace 未说明检查的是哪个页面）",
);
const UNNAMED: Text = Text::new("unnamed", "未命名");
// Thread, its name, its process, how it was found.
const THREAD: Text = Text::new(
    "thread {} ({}, process {}), found from {}",
    "线程 {}（{}，进程 {}），依据：{}",
);
// Tasks, span, busy, busy %, long tasks, total blocking time.
const TASKS: Text = Text::new(
    "{} tasks over {} ms, busy {} ms ({} %); {} long tasks (≥ 50 ms), total blocking time {} ms",
    "{} 个任务，历时 {} ms，忙碌 {} ms（{}%）；长任务（≥ 50 ms）{} 个，总阻塞时间 {} ms",
);
const UNTERMINATED: Text = Text::new(
    "{} without an end, clipped at the trace's end",
    "{} 个没有结束，截至 trace 末尾",
);
const CLIPPED: Text = Text::new(
    "{} overlapping the next task, clipped to its start",
    "{} 个与下一任务重叠，截至其开始",
);
const NESTED: Text = Text::new(
    "{} nested task events not counted twice",
    "{} 个嵌套的任务事件未重复计算",
);
const NOTE_GAP: Text = Text::new("; ", "；");
const TASK_NOTES: Text = Text::new("tasks: {}", "任务：{}");
const ARRIVALS_T0: Text = Text::new(
    "arrivals: all at t = 0 (the recorded starts are not used)",
    "到达：全部在 t = 0（不使用记录的开始时间）",
);
const ARRIVALS_RECORDED: Text = Text::new(
    "arrivals: each task at its recorded start",
    "到达：每个任务在其记录的开始时间",
);
const LONGEST: Text = Text::new(
    "longest tasks (start ms, duration ms, first event):",
    "最长的任务（开始 ms，时长 ms，第一个事件）：",
);
/// After a longest task that is an interaction's own handler.
pub const HANDLER_MARK: Text = Text::new(
    "  (an interaction's own handler)",
    "  （某个交互自身的处理程序）",
);
const OTHERS: Text = Text::new(
    "other threads (pick with --thread PID:TID): {}",
    "其他线程（用 --thread PID:TID 选择）：{}",
);

/// One of the longest tasks.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Longest {
    /// The task's index in the imported tasks (its row in the task list).
    pub task: usize,
    /// Recorded start, ms from the first task.
    pub start_ms: f64,
    pub duration_ms: f64,
    pub label: String,
    /// It is an interaction's own handler (its event listeners ran in it).
    pub handler: bool,
}

/// The summary of an import.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Found {
    /// The imported thread (`PID:TID`), as `--thread` takes it.
    pub thread: String,
    pub pid: i64,
    pub tid: i64,
    pub thread_name: String,
    pub process_name: String,
    /// How the thread was identified.
    pub how: How,
    pub tasks: usize,
    /// First task's start to the last task's end, ms.
    pub span_ms: f64,
    /// Sum of the tasks' durations, ms.
    pub busy_ms: f64,
    pub longest: Vec<Longest>,
    /// Tasks of 50 ms or more.
    pub long_tasks: usize,
    /// Sum over long tasks of their time beyond 50 ms.
    pub total_blocking_ms: f64,
    /// Tasks without an end, clipped at the trace's end.
    pub unterminated: usize,
    /// Tasks that overlapped the next one, clipped to its start.
    pub clipped: usize,
    /// Task events inside another task, not counted again.
    pub nested: usize,
    /// Instant task events, not tasks.
    pub instant_skipped: usize,
    pub arrivals: TraceArrivals,
    /// Every thread one could pick instead (this one included).
    pub threads: Vec<Candidate>,
}

impl Found {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        chosen: &Candidate,
        candidates: &[Candidate],
        how: How,
        list: &TaskList,
        workload: &Workload,
        recorded: &[f64],
        arrivals: TraceArrivals,
        instant_skipped: usize,
    ) -> Found {
        let first = list.tasks.first().map_or(0.0, |t| t.start);
        let last = list.tasks.iter().map(|t| t.end).fold(first, f64::max);
        let mut order: Vec<usize> = (0..recorded.len()).collect();
        order.sort_by(|&a, &b| recorded[b].total_cmp(&recorded[a]).then(a.cmp(&b)));
        let longest = order
            .iter()
            .take(LONGEST_SHOWN)
            .map(|&i| Longest {
                task: i,
                start_ms: (list.tasks[i].start - first) / 1000.0,
                duration_ms: recorded[i],
                label: workload
                    .class_labels
                    .get(workload.class[i] as usize)
                    .cloned()
                    .unwrap_or_default(),
                handler: false,
            })
            .collect();
        let long: Vec<f64> = recorded
            .iter()
            .copied()
            .filter(|&d| d >= LONG_TASK_MS)
            .collect();
        Found {
            thread: chosen.id.clone(),
            pid: chosen.pid,
            tid: chosen.tid,
            thread_name: chosen.thread_name.clone(),
            process_name: chosen.process_name.clone(),
            how: if chosen.main_frame { how } else { How::Busiest },
            tasks: recorded.len(),
            span_ms: (last - first) / 1000.0,
            busy_ms: crate::stats::accurate_sum(recorded.iter().copied()),
            longest,
            long_tasks: long.len(),
            total_blocking_ms: crate::stats::accurate_sum(long.iter().map(|d| d - LONG_TASK_MS)),
            unterminated: list.tasks.iter().filter(|t| t.unterminated).count(),
            clipped: list.tasks.iter().filter(|t| t.clipped).count(),
            nested: list.nested,
            instant_skipped,
            arrivals,
            threads: candidates.to_vec(),
        }
    }

    /// The summary as lines of text, as the CLI prints it (ending with how
    /// to pick another thread with `--thread`).
    pub fn lines(&self, lang: Lang) -> Vec<String> {
        self.lines_for(lang, true)
    }

    /// The summary as lines of text; `thread_hint`: end with the other
    /// threads and the `--thread` flag (the page has a picker instead).
    pub fn lines_for(&self, lang: Lang, thread_hint: bool) -> Vec<String> {
        let ms = |v: f64| format!("{v:.1}");
        let mut out = Vec::new();
        let how = match self.how {
            How::MainFrame => HOW_MAIN_FRAME,
            How::Page => HOW_PAGE,
            How::Busiest => HOW_BUSIEST,
        };
        let thread_name = if self.thread_name.is_empty() {
            UNNAMED.get(lang).to_string()
        } else {
            self.thread_name.clone()
        };
        let process = if self.process_name.is_empty() {
            self.pid.to_string()
        } else {
            self.process_name.clone()
        };
        out.push(THREAD.fill(lang, &[&self.thread, &thread_name, &process, how.get(lang)]));
        let busy_pct = if self.span_ms > 0.0 {
            100.0 * self.busy_ms / self.span_ms
        } else {
            100.0
        };
        out.push(TASKS.fill(
            lang,
            &[
                &self.tasks.to_string(),
                &ms(self.span_ms),
                &ms(self.busy_ms),
                &format!("{busy_pct:.0}"),
                &self.long_tasks.to_string(),
                &ms(self.total_blocking_ms),
            ],
        ));
        let notes: Vec<String> = [
            (self.unterminated, UNTERMINATED),
            (self.clipped, CLIPPED),
            (self.nested, NESTED),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, note)| note.fill(lang, &[&n.to_string()]))
        .collect();
        if !notes.is_empty() {
            out.push(TASK_NOTES.fill(lang, &[&notes.join(NOTE_GAP.get(lang))]));
        }
        out.push(
            match self.arrivals {
                TraceArrivals::T0 => ARRIVALS_T0,
                TraceArrivals::Recorded => ARRIVALS_RECORDED,
            }
            .get(lang)
            .to_string(),
        );
        out.push(LONGEST.get(lang).to_string());
        for l in &self.longest {
            let mark = if l.handler {
                HANDLER_MARK.get(lang)
            } else {
                ""
            };
            out.push(format!(
                "  {:>10} {:>9}  {}{mark}",
                ms(l.start_ms),
                ms(l.duration_ms),
                l.label
            ));
        }
        if thread_hint && self.threads.len() > 1 {
            out.push(OTHERS.fill(lang, &[&self.others(lang)]));
        }
        out
    }

    /// The summary without the list of the longest tasks (which the page
    /// shows as a table, headed by [`LONGEST_HEADS`]).
    pub fn summary_lines(&self, lang: Lang) -> Vec<String> {
        let mut lines = self.lines_for(lang, false);
        lines.truncate(lines.len().saturating_sub(1 + self.longest.len()));
        lines
    }

    fn others(&self, lang: Lang) -> String {
        let rest: Vec<Candidate> = self
            .threads
            .iter()
            .filter(|c| c.id != self.thread)
            .cloned()
            .collect();
        super::threads::list(&rest, lang)
    }
}
