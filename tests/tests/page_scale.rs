//! A 1,000,000-task experiment on the page: an imported 1,000,000-line
//! list is read, checked and run in the worker and drawn, a large run's
//! policies are run side by side by the worker's helpers with the CLI's
//! figures, and the worker protocol's cancel stops a job without replacing
//! the worker. A test binary of its own, so that no other test's browser
//! competes for the CPU meanwhile.
//!
//! How long these take, natively and on the page side by side, and the
//! longest main-thread task meanwhile: `scripts/bench-scale.sh`
//! (`tests/benches/scale.rs`).

use std::time::Duration;

use serde_json::Value;
use tailslice_e2e::page::{
    assert_ran_in_the_worker, assert_read_in_the_worker, note_states, noted_states, open_ready,
    updates, upload_tasks, wait_large, wait_ready,
};
use tailslice_e2e::{million_line_task_list, run_cli, Browser, Result};

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

/// Every figure of `page` (the page's `report`) equals the CLI's (its
/// `--json`), compared as numbers: the same bits, whichever way each side
/// writes them.
fn assert_same_report(page: &Value, cli: &Value, what: &str) {
    let rows = |v: &Value| v["results"].as_array().cloned().unwrap_or_default();
    let (p, c) = (rows(page), rows(cli));
    assert_eq!(p.len(), c.len(), "{what}: rows");
    assert!(!c.is_empty(), "{what}: the CLI gave no rows");
    for (p, c) in p.iter().zip(&c) {
        let fields = c.as_object().expect("a row is an object");
        for (key, want) in fields {
            let got = &p[key];
            match want.as_f64() {
                Some(w) => assert_eq!(
                    got.as_f64().map(f64::to_bits),
                    Some(w.to_bits()),
                    "{what}: {key} of {}",
                    c["policy"]
                ),
                None => assert_eq!(got, want, "{what}: {key}"),
            }
        }
    }
    for key in ["tasks", "total_work_ms"] {
        assert_eq!(page[key].as_f64(), cli[key].as_f64(), "{what}: {key}");
    }
}

#[tokio::test]
async fn a_large_runs_policies_run_side_by_side_with_the_clis_figures() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1").await?;
    let cores = b
        .eval_js("return navigator.hardwareConcurrency || 1;")
        .await?
        .as_u64()
        .unwrap_or(1);
    for (query, args, policies, gantt) in [
        // No Gantt (3.4 M slices): the parts are figures only.
        ("v=1&n=1000000", vec!["--tasks", "1000000"], 2, false),
        // A Gantt: the parts carry every slice and task outcome.
        (
            "v=1&n=100000&q=4&p=fifo,rr,srpt",
            vec![
                "--tasks",
                "100000",
                "--quantum",
                "4",
                "--policies",
                "fifo,rr,srpt",
            ],
            3,
            true,
        ),
    ] {
        let before = updates(&b).await?;
        b.eval_js(&format!("window.tailslice.load({query:?}); return 0;"))
            .await?;
        wait_large(&b, before).await?;
        let parts = b
            .eval_js("return window.tailslice.parts;")
            .await?
            .as_u64()
            .unwrap_or(0);
        // Each helper (one per core beyond the first) takes a policy at a
        // time from the back; the worker runs the rest from the front.
        let helpers = (cores - 1).min(policies - 1);
        assert!(
            parts >= helpers && parts < policies,
            "{query}: {parts} of {policies} policies run by {helpers} helpers"
        );
        let page = b.eval_js("return window.tailslice.report;").await?;
        let mut all = vec!["simulate", "--json"];
        all.extend_from_slice(&args);
        let cli: Value = serde_json::from_str(&run_cli(&all)?)?;
        assert_same_report(&page, &cli, query);
        let segments = b
            .eval_js("return window.tailslice.segments;")
            .await?
            .as_u64()
            .unwrap_or(0);
        assert_eq!(segments > 0, gantt, "{query}: {segments} slices drawn");
    }
    // An edit while a split run goes on: the run stops (its helpers with
    // it) and the next is split and right again.
    b.eval_js("window.tailslice.load('v=1&n=1000000&seed=7'); return 0;")
        .await?;
    b.wait_js(
        "document.body.dataset.state === 'running'",
        Duration::from_secs(10),
    )
    .await?;
    let before = updates(&b).await?;
    b.eval_js("window.tailslice.load('v=1&n=1000000&seed=8'); return 0;")
        .await?;
    wait_large(&b, before).await?;
    assert_eq!(
        b.eval_js("return document.body.dataset.query.includes('seed=8');")
            .await?,
        true
    );
    let page = b.eval_js("return window.tailslice.report;").await?;
    let cli: Value = serde_json::from_str(&run_cli([
        "simulate", "--json", "--tasks", "1000000", "--seed", "8",
    ])?)?;
    assert_same_report(&page, &cli, "after an edit");
    assert_eq!(
        b.eval_js("return window.tailslice.workerRestarts;").await?,
        0
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
