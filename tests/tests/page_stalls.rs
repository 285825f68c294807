//! Issue 8, item 4: showing a large result never blocks the main thread
//! for more than 50 ms (the Long Tasks API's entries). A test binary of its
//! own, so that no other test's browser competes for the CPU meanwhile.

use std::time::Duration;

use tailslice_e2e::page::still_usable;
use tailslice_e2e::{Browser, Result};

/// Shows `query` on the already loaded page (`window.tailslice.load`) and
/// waits for its result; returns the longest main-thread task (ms) from the
/// request to a second after the result was shown (the Gantt of a large
/// result is drawn in parts after it).
async fn longest_task_showing(b: &Browser, query: &str) -> Result<f64> {
    let before = tailslice_e2e::page::updates(b).await?;
    b.eval_js(&format!("window.tailslice.load({query:?}); return 0;"))
        .await?;
    b.wait_js(
        &format!(
            "document.body.dataset.state === 'ready' && Number(document.body.dataset.updates || 0) > {before}"
        ),
        Duration::from_secs(120),
    )
    .await?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let v = b
        .eval_js("return window.tailslice.longestTaskSince(window.tailslice.requestedAt);")
        .await?;
    Ok(v.as_f64().unwrap_or(f64::INFINITY))
}

#[tokio::test]
async fn large_results_are_drawn_without_a_long_task() -> Result<()> {
    let b = Browser::start().await?;
    for query in [
        "v=1&cores=256&n=1000000",
        "v=1&arrivals=poisson:2&n=1000000",
        "v=1&n=1000000&p=fifo,rr,sjf,srpt",
        "v=1&n=1&mix=1:pareto(1,0.5)&seed=1847&q=0.2",
        // 256 lanes that keep their Gantt (2.2 M slices): painted as pixels.
        "v=1&cores=256&n=500000&q=50",
    ] {
        // Opened as a link: the page shows it and stays usable.
        b.open(&format!("/?{query}")).await?;
        b.wait_js(
            "document.body.dataset.state === 'ready' && Number(document.body.dataset.updates || 0) >= 1",
            Duration::from_secs(120),
        )
        .await?;
        still_usable(&b).await?;
        // Shown again on the warm page: no main-thread task over 50 ms from
        // the request to the drawn chart (start-up has costs of its own).
        // A task's wall time includes any time the OS gave the CPU to
        // another process, so on a busy machine one showing can be
        // inflated. Work that really blocks the main thread does so every
        // time: the best of three showings is what the page costs.
        let mut longest = f64::INFINITY;
        for _ in 0..3 {
            longest = longest.min(longest_task_showing(&b, query).await?);
            if longest <= 50.0 {
                break;
            }
        }
        eprintln!("{query}: longest main-thread task while showing it {longest:.0} ms");
        assert!(
            longest <= 50.0,
            "{query}: a {longest:.0} ms main-thread task"
        );
        if query.contains("cores=256&n=500000") {
            b.screenshot("hardening-256-cores").await?;
        }
    }
    b.finish().await
}
