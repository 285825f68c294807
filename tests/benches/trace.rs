//! A 200 MB trace opened on the page: how long until its run and its
//! Responsiveness section are drawn, and every main-thread task over 50 ms
//! meanwhile (goal: none), each with the main thread's CPU time in it (the
//! DevTools profiler's samples: on a shared machine a task's wall time also
//! holds the time the OS gave other processes). Printed, not a pass/fail
//! test: `scripts/bench-trace.sh` (`TRACE_MB` sets another size). The trace
//! is generated here and deleted after.

use std::time::{Duration, Instant};

use serde_json::{json, Value};
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

/// The profiler's sampling interval, µs.
const SAMPLE_US: f64 = 250.0;

/// CPU ms the main thread spent in `[from, to]` (performance.now() ms),
/// from a CPU profile whose first sample is at `origin` (performance.now()
/// ms): its non-idle samples times the interval (a descheduled thread is
/// not sampled).
fn cpu_ms(profile: &Value, origin: f64, from: f64, to: f64) -> f64 {
    let idle: Vec<u64> = profile["nodes"]
        .as_array()
        .map(|n| {
            n.iter()
                .filter(|n| n["callFrame"]["functionName"] == "(idle)")
                .filter_map(|n| n["id"].as_u64())
                .collect()
        })
        .unwrap_or_default();
    let (Some(samples), Some(deltas)) = (
        profile["samples"].as_array(),
        profile["timeDeltas"].as_array(),
    ) else {
        return f64::NAN;
    };
    let mut t = origin;
    let mut busy = 0usize;
    for (s, d) in samples.iter().zip(deltas) {
        t += d.as_f64().unwrap_or(0.0) / 1000.0;
        if t >= from && t <= to && !idle.contains(&s.as_u64().unwrap_or(0)) {
            busy += 1;
        }
    }
    busy as f64 * SAMPLE_US / 1000.0
}

#[tokio::main]
async fn main() -> Result<()> {
    let mb = env_usize("TRACE_MB", 200);
    let path = artifacts_dir().join(format!("big-trace-{mb}mb.json"));
    std::fs::write(&path, big_trace(mb * 1_000_000))?;
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&p=fifo,rr").await?;
    b.cdp("Profiler.enable", json!({})).await?;
    b.cdp(
        "Profiler.setSamplingInterval",
        json!({ "interval": SAMPLE_US }),
    )
    .await?;
    let now = || async {
        b.eval_js("return performance.now();")
            .await
            .map(|v| v.as_f64().unwrap_or(0.0))
    };
    let t0 = now().await?;
    b.cdp("Profiler.start", json!({})).await?;
    let origin = (t0 + now().await?) / 2.0;
    let started = Instant::now();
    let state = open_trace(&b, &path, Duration::from_secs(600)).await?;
    let drawn = started.elapsed().as_secs_f64();
    let _ = std::fs::remove_file(&path);
    if state != "ready" {
        let msg = b.text("#trace-error").await.unwrap_or_default();
        return Err(format!("the {mb} MB trace did not open: {msg}").into());
    }
    // The Responsiveness section is drawn after the run.
    b.wait_js(
        "document.querySelector('#responsiveness').dataset.query === document.body.dataset.query",
        Duration::from_secs(600),
    )
    .await?;
    let section = started.elapsed().as_secs_f64();
    let profile = b.cdp("Profiler.stop", json!({})).await?;
    let profile = &profile["profile"];
    let count = b.eval_js("return window.tailslice.trace.count;").await?;
    let stalls = b
        .eval_js(&format!(
            "return window.tailslice.longTaskLog.filter(([s]) => s >= {t0});"
        ))
        .await?;
    let render = b
        .eval_js("return ['tailslice:render:view','tailslice:render:table','tailslice:render:gantt','tailslice:render:plots'].map(n => { const e = performance.getEntriesByName(n); return n.slice(17) + ' ' + Math.round(e.length ? e[e.length - 1].duration : -1); }).join(', ');")
        .await?;
    // A section refused (too many slices for the page) is drawn at once:
    // its message is printed instead of rows that would not be there.
    let refused = b
        .eval_js("const e = document.querySelector('#resp-error'); return e.hidden ? '' : e.textContent;")
        .await?;
    let refused = refused.as_str().unwrap_or_default();
    let rows = if refused.is_empty() {
        b.text("table#responsiveness-results tbody").await?
    } else {
        format!("refused: {refused}")
    };
    println!("\n{mb} MB trace on the page: {count} tasks; its run drawn after {drawn:.1} s, its Responsiveness section after {section:.1} s (from the file input)");
    println!(
        "  last render (ms): {}",
        render.as_str().unwrap_or_default()
    );
    println!(
        "  the section's rows:\n    {}",
        rows.replace('\n', "\n    ")
    );
    println!("  main-thread tasks over 50 ms meanwhile (start after the input, wall ms, main-thread CPU ms):");
    let (mut longest, mut most_cpu) = (0.0f64, 0.0f64);
    for t in stalls.as_array().into_iter().flatten() {
        let (s, d) = (t[0].as_f64().unwrap_or(0.0), t[1].as_f64().unwrap_or(0.0));
        let cpu = cpu_ms(profile, origin, s, s + d);
        longest = longest.max(d);
        most_cpu = most_cpu.max(cpu);
        println!("    {:>7.0} ms  {d:>5.0} ms  {cpu:>5.1} ms", s - t0);
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "  load average: {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    print_goals(
        "goals",
        &[
            Figure::new(
                format!("longest main-thread task opening {mb} MB, to its section (wall)"),
                longest,
                50.0,
                "ms",
            ),
            Figure::new(
                "the most main-thread CPU in one such task",
                most_cpu,
                50.0,
                "ms",
            ),
        ],
    );
    b.finish().await
}
