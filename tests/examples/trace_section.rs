//! A large trace opened on the page until its Responsiveness section is
//! shown: the time from the file input to the section, and every
//! main-thread task over 50 ms meanwhile (Long Tasks API), each with the
//! main thread's CPU time in it (the DevTools profiler's samples: on a
//! shared machine a task's wall time also holds the time the OS ran other
//! processes). Printed beside the goal, never a pass/fail test:
//! `scripts/bench-responsiveness.sh` (the trace path in `TRACE`).

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tailslice_e2e::page::open_ready;
use tailslice_e2e::{Browser, Result};

/// The profiler's sampling interval, µs.
const SAMPLE_US: f64 = 250.0;

/// CPU ms the main thread spent in `[from, to]` (performance.now() ms),
/// from a CPU profile whose first sample is at `origin` (performance.now()
/// ms): non-idle samples times the interval.
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
    let path = std::env::var("TRACE").map_err(|_| "set TRACE to a trace file")?;
    let bytes = std::fs::metadata(&path)?.len();
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&p=fifo,rr").await?;
    b.cdp("Profiler.enable", json!({})).await?;
    b.cdp(
        "Profiler.setSamplingInterval",
        json!({ "interval": SAMPLE_US }),
    )
    .await?;
    let before = b
        .eval_js("return performance.now();")
        .await?
        .as_f64()
        .unwrap_or(0.0);
    b.cdp("Profiler.start", json!({})).await?;
    let after = b
        .eval_js("return performance.now();")
        .await?
        .as_f64()
        .unwrap_or(0.0);
    let origin = (before + after) / 2.0;
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
    let profile = b.cdp("Profiler.stop", json!({})).await?;
    let profile = &profile["profile"];
    if state.as_str() != Some("ready") {
        let msg = b.text("#trace-error").await.unwrap_or_default();
        return Err(format!("the trace did not open: {msg}").into());
    }
    let count = b.eval_js("return window.tailslice.trace.count;").await?;
    let stalls = b
        .eval_js(&format!(
            "return window.tailslice.longTaskLog.filter(([s]) => s >= {before});"
        ))
        .await?;
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
    let mut longest_wall = 0.0f64;
    let mut longest_cpu = 0.0f64;
    println!("  main-thread tasks over 50 ms meanwhile (start after the input, wall ms, main-thread CPU ms):");
    for t in stalls.as_array().into_iter().flatten() {
        let (s, d) = (t[0].as_f64().unwrap_or(0.0), t[1].as_f64().unwrap_or(0.0));
        let cpu = cpu_ms(profile, origin, s, s + d);
        longest_wall = longest_wall.max(d);
        longest_cpu = longest_cpu.max(cpu);
        println!("    {:>7.0} ms  {d:>5.0} ms  {cpu:>5.1} ms", s - before);
    }
    let verdict = |v: f64| if v <= 50.0 { "met" } else { "NOT met" };
    println!(
        "  longest main-thread task: {longest_wall:.0} ms wall (goal: at most 50 ms) {}; the most CPU in one: {longest_cpu:.1} ms {}",
        verdict(longest_wall),
        verdict(longest_cpu)
    );
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "  load average while measured: {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    b.finish().await
}
