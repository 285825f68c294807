//! A 1,000,000-task experiment on the page: an imported 1,000,000-line
//! list is read, checked and run in the worker and drawn, and the worker
//! protocol's cancel stops a job without replacing the worker. A test
//! binary of its own, so that no other test's browser competes for the CPU
//! meanwhile.
//!
//! How long these take, natively and on the page side by side, and the
//! longest main-thread task meanwhile: `scripts/bench-scale.sh`
//! (`tests/benches/scale.rs`).

use std::time::Duration;

use tailslice_e2e::page::{
    assert_ran_in_the_worker, assert_read_in_the_worker, note_states, noted_states, open_ready,
    updates, upload_tasks, wait_large, wait_ready,
};
use tailslice_e2e::{million_line_task_list, Browser, Result};

#[tokio::test]
async fn a_million_imported_lines_are_read_and_run_in_the_worker() -> Result<()> {
    let path = million_line_task_list();
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1").await?;
    note_states(&b).await?;
    upload_tasks(&b, &path).await?;
    let tasks = b.eval_js("return document.body.dataset.tasks;").await?;
    assert_eq!(tasks, "1000000", "the imported list is in use");
    assert_eq!(
        b.eval_js("return document.querySelectorAll('table#percentiles tr[data-policy]').length;")
            .await?,
        serde_json::json!(2),
        "fifo and rr drawn for the imported list"
    );
    // Reading and checking the list, then running it: each a job in the
    // worker while the page said so, so the main thread stayed free.
    let notes = noted_states(&b).await?;
    assert_read_in_the_worker(&notes)?;
    assert_ran_in_the_worker(&notes)?;
    // The page answers the next edit with a new run of the same list.
    let before = updates(&b).await?;
    b.eval_js(
        "const q = document.querySelector('#quantum'); q.value = '8'; \
         q.dispatchEvent(new Event('input', {bubbles: true})); return 0;",
    )
    .await?;
    wait_large(&b, before).await?;
    assert_eq!(
        b.eval_js("return document.body.dataset.tasks;").await?,
        "1000000"
    );
    b.finish().await
}

#[tokio::test]
async fn cancel_stops_a_job_in_the_same_worker() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1").await?;
    b.eval_js(
        "document.querySelector('#sweep-seeds').value = '1-60000'; \
         window.tailslice.startSweep('seeds'); return 0;",
    )
    .await?;
    b.wait_js(
        "document.body.dataset.sweep === 'running' && document.querySelector('#sweep-progress').value > 0",
        Duration::from_secs(60),
    )
    .await?;
    let started = b.eval_js("return window.tailslice.workersStarted;").await?;
    b.click("#sweep-cancel").await?;
    assert_eq!(
        b.eval_js("return document.body.dataset.sweep;").await?,
        "cancelled"
    );
    // The worker confirms: the sweep's job ends as cancelled, not killed.
    b.wait_js("window.tailslice.workerJobs === 0", Duration::from_secs(10))
        .await?;
    // The same worker (no replacement) answers the next jobs: a run that
    // needs the worker and a short sweep.
    let before = updates(&b).await?;
    b.eval_js("window.tailslice.load('v=1&n=100000'); return 0;")
        .await?;
    wait_ready(&b, before + 1).await?;
    b.eval_js(
        "document.querySelector('#sweep-seeds').value = '1-20'; \
         window.tailslice.startSweep('seeds'); return 0;",
    )
    .await?;
    b.wait_js(
        "document.body.dataset.sweep === 'done'",
        Duration::from_secs(60),
    )
    .await?;
    assert_eq!(
        b.eval_js("return window.tailslice.workersStarted;").await?,
        started,
        "cancel replaced the worker instead of stopping the job"
    );
    assert_eq!(
        b.eval_js("return window.tailslice.workerRestarts;").await?,
        0
    );
    b.finish().await
}
