//! Reading the playground page the way every page test does: wait for a
//! drawn result, read the percentile table, compare it with the CLI, check
//! that a canvas is not blank; and the visitor's ways in that tests and
//! benchmarks share (a query shown on a loaded page, an uploaded task list,
//! an opened trace).

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::{run_cli, Browser, Result};

/// How long a page may take to draw a result.
pub const READY: Duration = Duration::from_secs(30);

/// How long a page may take to draw a result of a million tasks or of
/// millions of slices.
pub const LARGE: Duration = Duration::from_secs(120);

/// The `td[data-metric]` columns of `table#percentiles`, in order.
pub const METRICS: [&str; 7] = ["mean", "p50", "p90", "p95", "p99", "max", "done_within"];

/// Rows of the percentile table: `(policy, [cell text; 7])`.
pub type Table = Vec<(String, Vec<String>)>;

/// Opens `path` and waits until the page has drawn a result for it.
pub async fn open_ready(b: &Browser, path: &str) -> Result<()> {
    b.open(path).await?;
    wait_ready(b, 1).await
}

/// Waits until at least `updates` results were drawn and nothing is queued.
pub async fn wait_ready(b: &Browser, updates: u64) -> Result<()> {
    b.wait_js(
        &format!(
            "document.body.dataset.state === 'ready' && Number(document.body.dataset.updates || 0) >= {updates}"
        ),
        READY,
    )
    .await?;
    Ok(())
}

/// Waits until more than `before` results were drawn and nothing is queued,
/// allowing a large result's time ([`LARGE`]).
pub async fn wait_large(b: &Browser, before: u64) -> Result<()> {
    b.wait_js(
        &format!(
            "document.body.dataset.state === 'ready' && Number(document.body.dataset.updates || 0) > {before}"
        ),
        LARGE,
    )
    .await?;
    Ok(())
}

/// Shows `query` on the loaded page (`window.tailslice.load`: the warm
/// page, no reload) and waits until its result is drawn.
pub async fn show_query(b: &Browser, query: &str) -> Result<()> {
    let before = updates(b).await?;
    b.eval_js(&format!("window.tailslice.load({query:?}); return 0;"))
        .await?;
    wait_large(b, before).await
}

/// Uploads the task list at `path` through `#tasks-file`, as a visitor
/// does (after going back to generated tasks), and waits until the run of
/// the imported list is drawn. The file input's change event is noted in
/// `window.__uploadT0` (a `performance.now()` time) for benchmarks.
pub async fn upload_tasks(b: &Browser, path: &Path) -> Result<()> {
    b.eval_js("window.tailslice.clearTasks(); return 0;")
        .await?;
    wait_ready(b, updates(b).await?).await?;
    b.eval_js("document.querySelector('#tasks-panel').open = true; return 0;")
        .await?;
    let before = updates(b).await?;
    b.eval_js(
        "window.__uploadT0 = null; document.querySelector('#tasks-file').addEventListener('change', \
         () => { window.__uploadT0 = performance.now(); }, {once: true, capture: true}); return 0;",
    )
    .await?;
    let file = path
        .to_str()
        .ok_or_else(|| format!("{} is not UTF-8", path.display()))?;
    b.find("#tasks-file").await?.send_keys(file).await?;
    wait_large(b, before).await
}

/// Opens the trace at `path` with the page's trace picker and waits for the
/// outcome: `ready` (the run with the trace's tasks is drawn) or `error`.
pub async fn open_trace(b: &Browser, path: &Path, timeout: Duration) -> Result<String> {
    let n = updates(b).await?;
    b.eval_js("document.querySelector('#tasks-panel').open = true; return true;")
        .await?;
    let file = path
        .to_str()
        .ok_or_else(|| format!("{} is not UTF-8", path.display()))?;
    b.find("#trace-file").await?.send_keys(file).await?;
    let state = b
        .wait_js(
            &format!(
                "(document.body.dataset.trace === 'error' || (document.body.dataset.trace === 'ready' \
                 && Number(document.body.dataset.updates) > {n} && document.body.dataset.state === 'ready')) \
                 && document.body.dataset.trace"
            ),
            timeout,
        )
        .await?;
    Ok(state.as_str().unwrap_or_default().to_string())
}

/// One change of the page's run state, as [`note_states`] saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct StateNote {
    /// `body[data-state]` after the change.
    pub state: String,
    /// Whether `body[data-importing]` was set (a task list being read).
    pub importing: bool,
    /// Jobs sent to the page's worker and not yet answered
    /// (`window.tailslice.workerJobs`) at that moment.
    pub worker_jobs: u64,
}

/// Starts noting the changes of `body[data-state]` and
/// `body[data-importing]` on the current page, with the worker jobs pending
/// at that moment: a MutationObserver, so no change is missed however
/// quickly it passes (changes made in one task are noted once, as they
/// stand at its end). Read them with [`noted_states`].
pub async fn note_states(b: &Browser) -> Result<()> {
    b.eval_js(
        "window.__stateNotes = []; \
         new MutationObserver(() => window.__stateNotes.push([document.body.dataset.state || '', \
           'importing' in document.body.dataset, window.tailslice.workerJobs])) \
           .observe(document.body, {attributes: true, attributeFilter: ['data-state', 'data-importing']}); \
         return 0;",
    )
    .await?;
    Ok(())
}

/// The changes noted since [`note_states`], in order.
pub async fn noted_states(b: &Browser) -> Result<Vec<StateNote>> {
    let v = b.eval_js("return window.__stateNotes || null;").await?;
    let notes = v
        .as_array()
        .ok_or("no state notes on this page: call note_states first")?;
    Ok(notes
        .iter()
        .map(|n| StateNote {
            state: n[0].as_str().unwrap_or_default().to_string(),
            importing: n[1].as_bool().unwrap_or(false),
            worker_jobs: n[2].as_u64().unwrap_or(0),
        })
        .collect())
}

/// Fails unless the page said it was running at least once, and each time
/// the run was a job in its worker: the heavy part ran off the main thread.
pub fn assert_ran_in_the_worker(notes: &[StateNote]) -> Result<()> {
    assert_in_worker(notes, "running", |n| n.state == "running")
}

/// Fails unless the page said it was reading a task list at least once, and
/// each time the reading was a job in its worker.
pub fn assert_read_in_the_worker(notes: &[StateNote]) -> Result<()> {
    assert_in_worker(notes, "reading a task list", |n| n.importing)
}

fn assert_in_worker(
    notes: &[StateNote],
    what: &str,
    busy: impl Fn(&StateNote) -> bool,
) -> Result<()> {
    let busy: Vec<&StateNote> = notes.iter().filter(|n| busy(n)).collect();
    if busy.is_empty() {
        return Err(format!("the page never said it was {what}: {notes:?}").into());
    }
    if let Some(n) = busy.iter().find(|n| n.worker_jobs == 0) {
        return Err(format!("{what} with no job in the worker ({n:?}) in {notes:?}").into());
    }
    Ok(())
}

/// The page still answers: an edit of the seed gets a new result.
pub async fn still_usable(b: &Browser) -> Result<()> {
    let before = updates(b).await?;
    b.eval_js(
        "const s = document.querySelector('#seed'); s.value = '7'; \
         s.dispatchEvent(new Event('input', {bubbles: true})); return 0;",
    )
    .await?;
    wait_ready(b, before + 1).await
}

/// How many results the page has drawn (`body[data-updates]`).
pub async fn updates(b: &Browser) -> Result<u64> {
    Ok(
        b.eval_js("return Number(document.body.dataset.updates || 0);")
            .await?
            .as_u64()
            .unwrap_or(0),
    )
}

/// The percentile table, read from the DOM.
pub async fn table(b: &Browser) -> Result<Table> {
    let v = b
        .eval_js(
            "return [...document.querySelectorAll('table#percentiles tr[data-policy]')].map(tr => \
             [tr.dataset.policy, ['mean','p50','p90','p95','p99','max','done_within'].map(m => \
             tr.querySelector(`td[data-metric=\"${m}\"]`).textContent)]);",
        )
        .await?;
    let rows = v.as_array().ok_or("the table is not an array")?;
    Ok(rows
        .iter()
        .map(|r| {
            let cells = r[1].as_array().map(Vec::as_slice).unwrap_or_default();
            (
                r[0].as_str().unwrap_or_default().to_string(),
                cells
                    .iter()
                    .map(|c| c.as_str().unwrap_or_default().to_string())
                    .collect(),
            )
        })
        .collect())
}

/// `tailslice simulate --json ARGS`, formatted as the page shows it (one
/// decimal, an integer for done_within).
pub fn cli_table(args: &[&str]) -> Result<Table> {
    let mut all = vec!["simulate", "--json"];
    all.extend_from_slice(args);
    let out = run_cli(&all)?;
    let v: Value = serde_json::from_str(&out).map_err(|e| format!("CLI JSON: {e}\n{out}"))?;
    let results = v["results"]
        .as_array()
        .ok_or("no results in the CLI JSON")?;
    Ok(results
        .iter()
        .map(|r| {
            let cells = METRICS
                .iter()
                .map(|m| {
                    if *m == "done_within" {
                        r[m].as_u64().unwrap_or(u64::MAX).to_string()
                    } else {
                        format!("{:.1}", r[m].as_f64().unwrap_or(f64::NAN))
                    }
                })
                .collect();
            (r["policy"].as_str().unwrap_or_default().to_string(), cells)
        })
        .collect())
}

/// Share of non-transparent pixels of a canvas (0 if it is missing or has
/// no size): a blank-canvas check that does not depend on what is drawn.
pub async fn ink(b: &Browser, css: &str) -> Result<f64> {
    let v = b
        .eval_js(&format!(
            "const c = document.querySelector('{css}'); if (!c || c.width < 2) return 0; \
             const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; \
             for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n / (d.length / 4);"
        ))
        .await?;
    Ok(v.as_f64().unwrap_or(0.0))
}

/// Fails if the page scrolls sideways at the current window size (a wide
/// table may scroll inside its own box), naming what sticks out.
pub async fn assert_no_sideways_scroll(b: &Browser) -> Result<()> {
    let overflow = b
        .eval_js(
            "const de = document.documentElement, vw = de.clientWidth; \
             if (de.scrollWidth <= vw) return []; \
             const clipped = (e) => { for (let p = e.parentElement; p; p = p.parentElement) { \
               if (getComputedStyle(p).overflowX !== 'visible') return true; } return false; }; \
             return [...document.querySelectorAll('body *')].filter(e => { \
               const r = e.getBoundingClientRect(); return r.width > 0 && r.right > vw + 0.5 && !clipped(e); }) \
             .slice(0, 8).map(e => `${e.tagName.toLowerCase()}#${e.id}.${e.className} right=${Math.round(e.getBoundingClientRect().right)} viewport=${vw}`);",
        )
        .await?;
    match overflow.as_array() {
        Some(a) if a.is_empty() => Ok(()),
        _ => Err(format!("the page is wider than the viewport: {overflow}").into()),
    }
}

/// Opens the Embed dialog on the page open in `b` and returns the snippet
/// it writes for `kind` (`live` or `static`), once written, waiting up to
/// `timeout`. The dialog stays open.
pub async fn embed_snippet(b: &Browser, kind: &str, timeout: Duration) -> Result<String> {
    b.click("button#embed-code").await?;
    b.wait_js("document.querySelector('#embed-dialog').open", timeout)
        .await?;
    b.click(&format!("#embed-kind-{kind}")).await?;
    let v = b
        .wait_js(
            &format!(
                "document.querySelector('#embed-snippet').dataset.kind === '{kind}' && \
                 document.querySelector('#embed-snippet').dataset.state === 'ready' && \
                 document.querySelector('#embed-snippet').value"
            ),
            timeout,
        )
        .await?;
    Ok(v.as_str().unwrap_or_default().to_string())
}
