//! A large trace opened on the page until its Responsiveness section is
//! shown: the time from the file input to the section, and every
//! main-thread task over 50 ms meanwhile (Long Tasks API). Printed beside
//! the goal, never a pass/fail test: `scripts/bench-responsiveness.sh`
//! (the trace path in `TRACE`).

use std::time::{Duration, Instant};

use tailslice_e2e::page::open_ready;
use tailslice_e2e::{Browser, Result};

#[tokio::main]
async fn main() -> Result<()> {
    let path = std::env::var("TRACE").map_err(|_| "set TRACE to a trace file")?;
    let bytes = std::fs::metadata(&path)?.len();
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&p=fifo,rr").await?;
    let t0 = b
        .eval_js("return performance.now();")
        .await?
        .as_f64()
        .unwrap_or(0.0);
    let started = Instant::now();
    b.eval_js("document.querySelector('#tasks-panel').open = true; return true;")
        .await?;
    b.find("#trace-file").await?.send_keys(&path).await?;
    let state = b
        .wait_js(
            "(document.body.dataset.trace === 'error' && 'error') || \
             (document.body.dataset.state === 'ready' && document.body.dataset.trace === 'ready' && \
              document.querySelector('#responsiveness').dataset.query === document.body.dataset.query && 'ready')",
            Duration::from_secs(900),
        )
        .await?;
    let secs = started.elapsed().as_secs_f64();
    if state.as_str() != Some("ready") {
        let msg = b.text("#trace-error").await.unwrap_or_default();
        return Err(format!("the trace did not open: {msg}").into());
    }
    let count = b.eval_js("return window.tailslice.trace.count;").await?;
    let stalls = b
        .eval_js(&format!(
            "return window.tailslice.longTaskLog.filter(([s]) => s >= {t0}).map(([s, d]) => [Math.round(s - {t0}), Math.round(d)]);"
        ))
        .await?;
    let longest = b
        .eval_js(&format!("return window.tailslice.longestTaskSince({t0});"))
        .await?
        .as_f64()
        .unwrap_or(f64::NAN);
    let render = b
        .eval_js("return ['tailslice:render:view','tailslice:render:table','tailslice:render:gantt','tailslice:render:plots'].map(n => { const e = performance.getEntriesByName(n); return n.slice(17) + ' ' + Math.round(e.length ? e[e.length - 1].duration : -1); }).join(', ');")
        .await?;
    let rows = b.text("table#responsiveness-results tbody").await?;
    println!(
        "\n{:.0} MB trace: {count} tasks; file input to Responsiveness section {secs:.1} s",
        bytes as f64 / 1e6
    );
    println!(
        "  last render (ms): {}",
        render.as_str().unwrap_or_default()
    );
    println!("  section rows:\n    {}", rows.replace('\n', "\n    "));
    println!("  main-thread tasks over 50 ms meanwhile ([start ms after the input, duration ms]): {stalls}");
    println!(
        "  longest main-thread task: {longest:.0} ms (goal: at most 50 ms) {}",
        if longest <= 50.0 { "met" } else { "NOT met" }
    );
    b.finish().await
}
