//! How the page answers while it works hard (printed, not a pass/fail
//! test): `scripts/bench-page.sh` runs it after the page's speed.
//!
//! * The longest main-thread task (Long Tasks API) while a large result is
//!   shown on the warm page, best of three per experiment (a task's wall
//!   time includes time the OS gave another process; work that really
//!   blocks the main thread does so every time). Goal: none over 50 ms.
//! * The same for 200,000 pasted lines, read, checked and run.
//! * How soon an edit is answered during a long run (a 27.7 M-slice draw)
//!   and during a scenario of minutes, and how soon the page answers a
//!   script while a 300,000-task run is in the worker.
//!
//! `BENCH_BEFORE` names the previous build's `dist/`, measured beside the
//! current one in the same run.
//!
//! The e2e tests check what these do (each result appears, the work runs
//! in the worker, an edit cancels the run); this prints how fast.

use std::time::{Duration, Instant};

use tailslice_e2e::bench_report::{builds, load_average, print_side_by_side, Build, Figure};
use tailslice_e2e::page::{open_ready, show_query, wait_large, LARGE};
use tailslice_e2e::{Browser, Result};

/// The large results of the stalls test (`tests/tests/page_stalls.rs`).
const LARGE_RESULTS: [&str; 5] = [
    "v=1&cores=256&n=1000000",
    "v=1&arrivals=poisson:2&n=1000000",
    "v=1&n=1000000&p=fifo,rr,sjf,srpt",
    "v=1&n=1&mix=1:pareto(1,0.5)&seed=1847&q=0.2",
    // 256 lanes that keep their Gantt (2.2 M slices): painted as pixels.
    "v=1&cores=256&n=500000&q=50",
];

/// The longest main-thread task (ms) from the request of the shown result
/// to a second after it was drawn (a large Gantt is drawn in parts after).
async fn longest_task_showing(b: &Browser, query: &str) -> Result<f64> {
    show_query(b, query).await?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    Ok(
        b.eval_js("return window.tailslice.longestTaskSince(window.tailslice.requestedAt);")
            .await?
            .as_f64()
            .unwrap_or(f64::NAN),
    )
}

/// ms from typing seed 1 during a 27.7 M-slice run to its drawn result.
async fn edit_during_a_long_run(b: &Browser) -> Result<f64> {
    b.open("/?v=1&n=1&mix=1:pareto(1,0.5)&seed=1847&q=0.13")
        .await?;
    // The run is known to be large: the next edit cancels it.
    b.wait_js(
        "document.body.dataset.state === 'running' && !document.querySelector('#progress').hidden",
        Duration::from_secs(30),
    )
    .await?;
    let t = Instant::now();
    b.eval_js(
        "const s = document.querySelector('#seed'); s.value = '1'; \
         s.dispatchEvent(new Event('input', {bubbles: true})); return 0;",
    )
    .await?;
    b.wait_js(
        "document.body.dataset.state === 'ready' && document.body.dataset.query.includes('seed=1&')",
        LARGE,
    )
    .await?;
    Ok(t.elapsed().as_secs_f64() * 1000.0)
}

/// ms from an edit during a scenario of minutes to the edited scenario's result.
async fn edit_during_a_huge_scenario(b: &Browser) -> Result<f64> {
    b.open("/?v=1&s=feishu-demo&nq=1000&secs=60&m=64p&groups=33,25,21,17,9,5")
        .await?;
    b.wait_js(
        "!document.querySelector('#scenario-progress').hidden && \
         document.querySelector('#scenario-status').textContent.includes('%')",
        Duration::from_secs(60),
    )
    .await?;
    let t = Instant::now();
    b.eval_js(
        "const q = document.querySelector('#sc-nq'); q.value = '20'; \
         q.dispatchEvent(new Event('input', {bubbles: true})); \
         q.dispatchEvent(new Event('change', {bubbles: true})); return 0;",
    )
    .await?;
    b.wait_js(
        "(() => { const r = document.querySelector('#scenario-results'); \
         return r.dataset.state === 'ready' && (r.dataset.query || '').includes('nq=20'); })()",
        LARGE,
    )
    .await?;
    Ok(t.elapsed().as_secs_f64() * 1000.0)
}

/// ms for a script to be answered while a 300,000-task run is in the worker
/// (NaN if the run was over before the script was sent).
async fn script_during_a_large_run(b: &Browser) -> Result<f64> {
    b.open("/?n=300000&q=4&p=fifo,rr,srpt").await?;
    b.wait_js(
        "!document.querySelector('#progress').hidden || document.body.dataset.state === 'ready'",
        Duration::from_secs(30),
    )
    .await?;
    let t = Instant::now();
    let state = b.eval_js("return document.body.dataset.state;").await?;
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    wait_large(b, 0).await?;
    Ok(if state == "running" { ms } else { f64::NAN })
}

/// The longest main-thread task (ms) from using 200,000 pasted lines to
/// their drawn run.
async fn paste(b: &Browser) -> Result<f64> {
    open_ready(b, "/").await?;
    b.eval_js(
        "document.querySelector('#tasks-panel').open = true; \
         const lines = []; for (let i = 0; i < 200000; i++) lines.push(String(1 + (i % 7))); \
         const dt = new DataTransfer(); dt.setData('text/plain', lines.join('\\n')); \
         const area = document.querySelector('#tasks-text'); \
         area.dispatchEvent(new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true})); \
         return 0;",
    )
    .await?;
    let t0 = b
        .eval_js("return performance.now();")
        .await?
        .as_f64()
        .unwrap_or(f64::NAN);
    b.click("#tasks-use").await?;
    b.wait_js(
        "document.body.dataset.tasks === '200000' && document.body.dataset.state === 'ready'",
        LARGE,
    )
    .await?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    Ok(
        b.eval_js(&format!("return window.tailslice.longestTaskSince({t0});"))
            .await?
            .as_f64()
            .unwrap_or(f64::NAN),
    )
}

/// Every figure on one build.
async fn figures(build: &Build) -> Result<Vec<Figure>> {
    let b = Browser::start_serving(&build.dist).await?;
    let mut figures = Vec::new();
    println!(
        "\n{}: longest main-thread task while a large result is shown on the warm page (ms, three showings)",
        build.label
    );
    for query in LARGE_RESULTS {
        // Opened as a link first: start-up has costs of its own.
        b.open(&format!("/?{query}")).await?;
        wait_large(&b, 0).await?;
        let mut runs = Vec::new();
        for _ in 0..3 {
            runs.push(longest_task_showing(&b, query).await?);
        }
        let best = runs.iter().copied().fold(f64::INFINITY, f64::min);
        println!("  {query:<48} {runs:?}");
        figures.push(Figure::new(
            format!("longest task showing {query}"),
            best,
            50.0,
            "ms",
        ));
    }
    let pasted = paste(&b).await?;
    figures.push(Figure::new(
        "longest task using 200,000 pasted lines",
        pasted,
        50.0,
        "ms",
    ));
    figures.push(Figure::new(
        "edit during a 27.7 M-slice run, to its result",
        edit_during_a_long_run(&b).await?,
        3000.0,
        "ms",
    ));
    figures.push(Figure::new(
        "edit during a scenario of minutes, to its result",
        edit_during_a_huge_scenario(&b).await?,
        10000.0,
        "ms",
    ));
    figures.push(Figure::new(
        "a script answered during a 300,000-task run",
        script_during_a_large_run(&b).await?,
        500.0,
        "ms",
    ));
    b.finish().await?;
    Ok(figures)
}

#[tokio::main]
async fn main() -> Result<()> {
    let load_before = load_average();
    let mut all = Vec::new();
    for build in builds() {
        all.push(figures(&build).await?);
    }
    let now = all.pop().unwrap_or_default();
    let before = all.pop();
    print_side_by_side(
        &format!(
            "goals (longest tasks: best of three showings; load average {load_before} before, {} after)",
            load_average()
        ),
        &now,
        before.as_deref(),
    );
    Ok(())
}
