//! Which thread is the inspected page's main thread, found as DevTools and
//! Lighthouse find it:
//!
//! 1. the main frame from the first `TracingStartedInBrowser` (the entry of
//!    `args.data.frames` without a `parent`) and its renderer process;
//! 2. more renderer processes that frame committed in
//!    (`FrameCommittedInBrowser`, `ProcessReadyInBrowser`: `args.data.processId`);
//! 3. failing that, the process of `TracingStartedInPage`, or of the
//!    main-frame navigations (`navigationStart` with `isLoadingMainFrame`,
//!    `CommitLoad` of an outermost main frame: what a trace recorded
//!    through chromedriver's performance log has);
//! 4. then the `CrRendererMain` thread of those processes (`CrBrowserMain`
//!    in single-process traces).
//!
//! Threads are keyed by (pid, tid), since tids repeat across processes.
//! Every renderer or browser main thread with tasks is a candidate, so the
//! visitor can pick another (a second tab, an iframe's process).

use std::collections::HashSet;

use serde::Serialize;

use super::events::{Events, ThreadKey};
use super::{tasks, TraceError};
use crate::text::{Filled, Lang, Text};

/// A thread one could import.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    #[serde(skip)]
    pub key: ThreadKey,
    /// `PID:TID`, the `--thread` value that picks it.
    pub id: String,
    pub pid: i64,
    pub tid: i64,
    /// `CrRendererMain`, `CrBrowserMain`, or "" when the trace names none.
    pub thread_name: String,
    /// The process's name (`Renderer`, `Browser`), or "".
    pub process_name: String,
    /// Top-level tasks on it.
    pub tasks: usize,
    /// It belongs to a process the inspected page's main frame ran in.
    pub main_frame: bool,
    #[serde(skip)]
    pub thread: u32,
}

/// How the main thread was identified.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum How {
    /// From `TracingStartedInBrowser`'s main frame.
    MainFrame,
    /// From `TracingStartedInPage` or main-frame navigations.
    Page,
    /// No such event: the busiest renderer (or browser) main thread.
    Busiest,
}

#[derive(serde::Deserialize)]
struct Args {
    #[serde(default)]
    data: Option<Data>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct Data {
    frames: Vec<Frame>,
    frame: Option<String>,
    #[serde(rename = "processId")]
    process_id: Option<i64>,
    #[serde(rename = "isLoadingMainFrame")]
    is_loading_main_frame: Option<bool>,
    #[serde(rename = "isOutermostMainFrame")]
    is_outermost_main_frame: Option<bool>,
    #[serde(rename = "isMainFrame")]
    is_main_frame: Option<bool>,
    url: Option<String>,
    #[serde(rename = "documentLoaderURL")]
    document_loader_url: Option<String>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct Frame {
    frame: Option<String>,
    parent: Option<String>,
    #[serde(rename = "processId")]
    process_id: Option<i64>,
}

fn data(args: &Option<String>) -> Option<Data> {
    let a: Args = serde_json::from_str(args.as_deref()?).ok()?;
    a.data
}

/// The inspected page's processes, in the order found, and how.
fn main_pids(ev: &Events) -> (Vec<i64>, How) {
    let mut pids: Vec<i64> = Vec::new();
    let mut frame: Option<String> = None;
    if let Some(started) = ev
        .page_events
        .iter()
        .find(|e| e.name == "TracingStartedInBrowser")
    {
        if let Some(main) = data(&started.args).and_then(|d| {
            d.frames
                .into_iter()
                .find(|f| f.parent.is_none() && f.frame.is_some())
        }) {
            if let Some(pid) = main.process_id {
                pids.push(pid);
            }
            frame = main.frame;
        }
    }
    if let Some(frame) = &frame {
        for e in ev
            .page_events
            .iter()
            .filter(|e| e.name == "FrameCommittedInBrowser" || e.name == "ProcessReadyInBrowser")
        {
            if let Some(d) = data(&e.args) {
                if d.frame.as_ref() == Some(frame) {
                    if let Some(pid) = d.process_id {
                        if !pids.contains(&pid) {
                            pids.push(pid);
                        }
                    }
                }
            }
        }
        if !pids.is_empty() {
            return (pids, How::MainFrame);
        }
    }
    if let Some(e) = ev
        .page_events
        .iter()
        .find(|e| e.name == "TracingStartedInPage")
    {
        return (vec![e.pid], How::Page);
    }
    // Main-frame navigations to a real page (not about:blank).
    for e in &ev.page_events {
        let Some(d) = data(&e.args) else { continue };
        let main = match e.name.as_str() {
            "navigationStart" => d.is_loading_main_frame == Some(true),
            "CommitLoad" => d.is_outermost_main_frame.or(d.is_main_frame) == Some(true),
            _ => false,
        };
        let url = d.url.or(d.document_loader_url).unwrap_or_default();
        if main && !url.is_empty() && !url.starts_with("about:") && !pids.contains(&e.pid) {
            pids.push(e.pid);
        }
    }
    if !pids.is_empty() {
        return (pids, How::Page);
    }
    (pids, How::Busiest)
}

const RENDERER_MAIN: &str = "CrRendererMain";
const BROWSER_MAIN: &str = "CrBrowserMain";

/// The candidates (main-frame threads first, then by task count), the
/// default choice, and how it was found.
pub(crate) fn find(ev: &Events) -> (Vec<Candidate>, Option<usize>, How) {
    let (pids, how) = main_pids(ev);
    let with_events: HashSet<u32> = ev.events.iter().map(|e| e.thread).collect();
    let named = |k: &ThreadKey| ev.thread_names.get(k).map_or("", String::as_str);
    let any_main = ev
        .threads
        .iter()
        .any(|k| matches!(named(k), RENDERER_MAIN | BROWSER_MAIN));
    let mut out: Vec<Candidate> = Vec::new();
    for (i, key) in ev.threads.iter().enumerate() {
        let i = i as u32;
        let name = named(key);
        // Without thread names (a hand-made trace), every thread with tasks
        // is a candidate; otherwise only the main threads.
        if !with_events.contains(&i) || (any_main && !matches!(name, RENDERER_MAIN | BROWSER_MAIN))
        {
            continue;
        }
        let n = tasks::count(ev, i);
        if n == 0 {
            continue;
        }
        out.push(Candidate {
            key: key.clone(),
            id: key.to_string(),
            pid: key.pid,
            tid: key.tid,
            thread_name: name.to_string(),
            process_name: ev.process_names.get(&key.pid).cloned().unwrap_or_default(),
            tasks: n,
            main_frame: pids.contains(&key.pid) && name == RENDERER_MAIN,
            thread: i,
        });
    }
    let rank = |c: &Candidate| {
        (
            !c.main_frame,
            c.thread_name != RENDERER_MAIN,
            c.thread_name != BROWSER_MAIN,
            usize::MAX - c.tasks,
        )
    };
    out.sort_by_key(|c| (rank(c), c.key.clone()));
    // The default: the main frame's thread; else the busiest renderer main
    // thread; else the browser's (single-process). Unnamed threads are
    // listed but never guessed.
    let default = out.first().and_then(|c| {
        (c.main_frame || c.thread_name == RENDERER_MAIN || c.thread_name == BROWSER_MAIN)
            .then_some(0)
    });
    let how = if out.first().is_some_and(|c| c.main_frame) {
        how
    } else {
        How::Busiest
    };
    (out, default, how)
}

/// `PID:TID (name, N tasks)` for each candidate, for messages.
pub(crate) fn list(cands: &[Candidate], lang: Lang) -> String {
    const NONE: Text = Text::new("none", "无");
    const UNNAMED: Text = Text::new("unnamed", "未命名");
    const ONE: Text = Text::new("{} ({}, {} tasks)", "{}（{}，{} 个任务）");
    const COMMA: Text = Text::new(", ", "、");
    if cands.is_empty() {
        return NONE.get(lang).to_string();
    }
    cands
        .iter()
        .take(20)
        .map(|c| {
            let name = if c.thread_name.is_empty() {
                UNNAMED.get(lang)
            } else {
                &c.thread_name
            };
            ONE.fill(lang, &[&c.id, name, &c.tasks.to_string()])
        })
        .collect::<Vec<_>>()
        .join(COMMA.get(lang))
}

/// Why no thread could be chosen.
pub(crate) fn none_found(ev: &Events) -> TraceError {
    let (cands, _, _) = find(ev);
    if cands.is_empty() {
        let has_tasks = ev
            .events
            .iter()
            .any(|e| tasks::is_task_name(&ev.names[e.name as usize]));
        return TraceError::new(if has_tasks {
            Text::new(
                "the trace has no renderer main thread (CrRendererMain) with tasks",
                "trace 中没有带任务的渲染器主线程（CrRendererMain）",
            )
        } else {
            Text::new(
                "the trace has no main-thread tasks (RunTask events): record it with the Performance panel, or with the devtools.timeline and disabled-by-default-devtools.timeline categories",
                "trace 中没有主线程任务（RunTask 事件）：请用“性能”面板录制，或启用 devtools.timeline 和 disabled-by-default-devtools.timeline 类别录制",
            )
        });
    }
    TraceError::new(Filled::each(|lang| {
        Text::new(
            "the trace has no renderer main thread (CrRendererMain); pick one of its threads with tasks: {}",
            "trace 中没有渲染器主线程（CrRendererMain）；请从有任务的线程中选一个：{}",
        )
        .fill(lang, &[&list(&cands, lang)])
    }))
}
