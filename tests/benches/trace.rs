//! A 200 MB trace opened on the page: how long until its run is drawn, and
//! the main-thread tasks meanwhile (goal: none over 50 ms). Printed, not a
//! pass/fail test: `scripts/bench-trace.sh` (`TRACE_MB` sets another size).

use std::time::{Duration, Instant};

use tailslice_e2e::bench_report::{env_usize, print_goals, Figure};
use tailslice_e2e::page::{open_ready, open_trace};
use tailslice_e2e::{artifacts_dir, Browser, Result};

/// A generated trace of about `bytes` bytes: a main thread with tasks of
/// 0.05 to 60 ms and their first children, and a second thread.
fn big_trace(bytes: usize) -> Vec<u8> {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes + 4096);
    s.push_str(r#"{"traceEvents":[{"args":{"data":{"frames":[{"frame":"M","processId":20}]}},"name":"TracingStartedInBrowser","ph":"I","pid":1,"tid":1,"ts":1e11},"#);
    s.push_str(
        r#"{"args":{"name":"CrRendererMain"},"name":"thread_name","ph":"M","pid":20,"tid":20},"#,
    );
    let mut ts = 100_000_000_000u64;
    let mut i = 0u64;
    while s.len() < bytes {
        let d = 50 + (i * 7919) % 60_000 * (i % 3) / 2;
        let tid = if i % 4 == 3 { 31 } else { 20 };
        let _ = write!(
            s,
            r#"{{"args":{{}},"cat":"disabled-by-default-devtools.timeline","name":"RunTask","ph":"X","pid":20,"tid":{tid},"ts":{ts},"dur":{d},"tdur":{d}}},{{"args":{{"data":{{"frame":"M","url":"https://example.com/app.js"}}}},"cat":"devtools.timeline","name":"FunctionCall","ph":"X","pid":20,"tid":{tid},"ts":{},"dur":{}}},"#,
            ts + 1,
            d / 2
        );
        ts += d + 100;
        i += 1;
    }
    s.push_str(r#"{"name":"end","ph":"I","pid":1,"tid":1,"ts":1e11}]}"#);
    s.into_bytes()
}

#[tokio::main]
async fn main() -> Result<()> {
    let mb = env_usize("TRACE_MB", 200);
    let path = artifacts_dir().join(format!("big-trace-{mb}mb.json"));
    std::fs::write(&path, big_trace(mb * 1_000_000))?;
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&p=fifo,rr").await?;
    let t0 = b
        .eval_js("return performance.now();")
        .await?
        .as_f64()
        .unwrap_or(0.0);
    let started = Instant::now();
    let state = open_trace(&b, &path, Duration::from_secs(600)).await?;
    let secs = started.elapsed().as_secs_f64();
    let _ = std::fs::remove_file(&path);
    if state != "ready" {
        let msg = b.text("#trace-error").await.unwrap_or_default();
        return Err(format!("the {mb} MB trace did not open: {msg}").into());
    }
    let count = b.eval_js("return window.tailslice.trace.count;").await?;
    let stalls = b
        .eval_js(&format!(
            "return window.tailslice.longTaskLog.filter(([s]) => s >= {t0}).map(([, d]) => Math.round(d));"
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
    println!("\n{mb} MB trace on the page: {count} tasks, ready after {secs:.1} s (file input to drawn run)");
    println!(
        "  last render (ms): {}",
        render.as_str().unwrap_or_default()
    );
    println!("  main-thread long tasks meanwhile (ms): {stalls}");
    print_goals(
        "goals",
        &[Figure::new(
            format!("longest main-thread task opening {mb} MB"),
            longest,
            50.0,
            "ms",
        )],
    );
    b.finish().await
}
