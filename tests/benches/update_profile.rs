//! Where the first update after a load spends the main thread's time, by
//! the browser's own accounting (printed, not a pass/fail test):
//! `scripts/bench-page.sh profile`.
//!
//! The page's User Timing measures say which of the page's phases is slow
//! (`tailslice:simulate`, `…:draw:gantt`); they cannot say how much of a
//! phase is the browser's own work inside it: style and layout forced by
//! reading a size, compiling wasm functions on their first call, garbage
//! collection. This traces `BENCH_LOADS` warm loads of the default
//! experiment (DevTools' timeline categories, V8's and wasm's) and sums,
//! for each event name, the main thread's self time (an event's duration
//! less its children's) inside each load's `tailslice:update`; it prints
//! the median per update of the names that take the most, then the page's
//! own measures that lie inside each update (summed per update).
//! `BENCH_BEFORE` names the previous build's `dist/`, profiled beside.

use std::collections::HashMap;

use serde_json::Value;
use tailslice_e2e::bench_report::{builds, env_usize, load_average, percentile, sorted, Build};
use tailslice_e2e::page::open_ready;
use tailslice_e2e::{Browser, Result};

const CATEGORIES: &str = "devtools.timeline,disabled-by-default-devtools.timeline,\
                          blink.user_timing,v8,v8.wasm,disabled-by-default-v8.compile,\
                          disabled-by-default-v8.wasm.detailed,v8.execute";

/// One complete event on the renderer's main thread: start and end (µs)
/// and its name.
struct Span {
    start: f64,
    end: f64,
    name: String,
}

/// The renderer main thread's (pid, tid): the thread named CrRendererMain
/// that recorded the page's `tailslice:update` measures.
fn main_thread(events: &[Value]) -> Option<(u64, u64)> {
    events
        .iter()
        .filter(|e| e["name"] == "tailslice:update")
        .find_map(|e| Some((e["pid"].as_u64()?, e["tid"].as_u64()?)))
        .or_else(|| {
            events
                .iter()
                .filter(|e| e["name"] == "thread_name" && e["args"]["name"] == "CrRendererMain")
                .find_map(|e| Some((e["pid"].as_u64()?, e["tid"].as_u64()?)))
        })
}

/// The `tailslice:update` windows (µs).
fn update_windows(events: &[Value]) -> Vec<(f64, f64)> {
    measure_windows(events, "tailslice:update")
}

/// The windows (µs) of the User Timing measure `name`: measures are
/// async begin/end pairs.
fn measure_windows(events: &[Value], name: &str) -> Vec<(f64, f64)> {
    let mut begins = Vec::new();
    let mut out = Vec::new();
    let mut named: Vec<&Value> = events.iter().filter(|e| e["name"] == name).collect();
    named.sort_by(|a, b| {
        a["ts"]
            .as_f64()
            .unwrap_or(0.0)
            .total_cmp(&b["ts"].as_f64().unwrap_or(0.0))
    });
    for e in named {
        let ts = e["ts"].as_f64().unwrap_or(f64::NAN);
        match e["ph"].as_str() {
            Some("b") | Some("B") | Some("S") => begins.push(ts),
            Some("e") | Some("E") | Some("F") => {
                if let Some(b) = begins.pop() {
                    out.push((b, ts));
                }
            }
            Some("X") => out.push((ts, ts + e["dur"].as_f64().unwrap_or(0.0))),
            _ => {}
        }
    }
    out
}

/// Complete events (`ph: X`) of one thread, sorted by start, parents
/// before their children.
fn spans(events: &[Value], pid: u64, tid: u64) -> Vec<Span> {
    let mut out: Vec<Span> = events
        .iter()
        .filter(|e| e["ph"] == "X" && e["pid"] == pid && e["tid"] == tid)
        .filter_map(|e| {
            let start = e["ts"].as_f64()?;
            let dur = e["dur"].as_f64().unwrap_or(0.0);
            Some(Span {
                start,
                end: start + dur,
                name: e["name"].as_str()?.to_string(),
            })
        })
        .collect();
    out.sort_by(|a, b| a.start.total_cmp(&b.start).then(b.end.total_cmp(&a.end)));
    out
}

/// Self time (ms) by name of the spans overlapping `window`, each cut to
/// it: a span's duration less its children's. The window's time in no
/// span at all is counted as "(no event: the thread idle or not scheduled)".
fn self_times(spans: &[Span], window: (f64, f64)) -> HashMap<String, f64> {
    let cut: Vec<(f64, f64, &str)> = spans
        .iter()
        .filter(|s| s.end > window.0 && s.start < window.1)
        .map(|s| (s.start.max(window.0), s.end.min(window.1), s.name.as_str()))
        .collect();
    let mut total: HashMap<String, f64> = HashMap::new();
    // (end, index) of the open ancestors.
    let mut stack: Vec<(f64, usize)> = Vec::new();
    let mut child_time = vec![0.0; cut.len()];
    let mut top_level = 0.0;
    for (i, &(start, end, _)) in cut.iter().enumerate() {
        while stack.last().is_some_and(|&(e, _)| e <= start) {
            stack.pop();
        }
        match stack.last() {
            Some(&(_, parent)) => child_time[parent] += end - start,
            None => top_level += end - start,
        }
        stack.push((end, i));
    }
    for (i, &(start, end, name)) in cut.iter().enumerate() {
        let own = (end - start - child_time[i]).max(0.0) / 1000.0;
        *total.entry(name.to_string()).or_default() += own;
    }
    total.insert(
        "(no event: the thread idle or not scheduled)".to_string(),
        ((window.1 - window.0 - top_level) / 1000.0).max(0.0),
    );
    total
}

async fn profile(build: &Build, loads: usize) -> Result<()> {
    let b = Browser::start_tracing(&build.dist, CATEGORIES).await?;
    // A cold load first: the warm loads after it find the files cached.
    open_ready(&b, "/").await?;
    for _ in 0..loads {
        open_ready(&b, "/").await?;
    }
    let events = b.trace_events().await?;
    b.finish().await?;
    let Some((pid, tid)) = main_thread(&events) else {
        return Err("the trace has no tailslice:update on a renderer main thread".into());
    };
    let spans = spans(&events, pid, tid);
    // The first window is the cold load's.
    let windows: Vec<(f64, f64)> = update_windows(&events).into_iter().skip(1).collect();
    let mut by_name: HashMap<String, Vec<f64>> = HashMap::new();
    let mut wall = Vec::new();
    for (k, &w) in windows.iter().enumerate() {
        wall.push((w.1 - w.0) / 1000.0);
        for (name, ms) in self_times(&spans, w) {
            let v = by_name.entry(name).or_default();
            v.resize(k, 0.0);
            v.push(ms);
        }
    }
    for v in by_name.values_mut() {
        v.resize(windows.len(), 0.0);
    }
    // The page's own measures inside each update: which phase the time is in.
    let mut names: Vec<&str> = events
        .iter()
        .filter_map(|e| e["name"].as_str())
        .filter(|n| n.starts_with("tailslice:") && *n != "tailslice:update")
        .collect();
    names.sort_unstable();
    names.dedup();
    let mut phases: Vec<(String, f64, f64)> = names
        .into_iter()
        .map(|n| {
            let spans = measure_windows(&events, n);
            let per_update: Vec<f64> = windows
                .iter()
                .map(|w| {
                    spans
                        .iter()
                        .filter(|s| s.0 >= w.0 && s.1 <= w.1)
                        .map(|s| (s.1 - s.0) / 1000.0)
                        .sum()
                })
                .collect();
            let v = sorted(&per_update);
            (n.to_string(), percentile(&v, 50.0), percentile(&v, 95.0))
        })
        .filter(|r| r.2 > 0.0)
        .collect();
    phases.sort_by(|a, b| a.0.cmp(&b.0));
    let mut rows: Vec<(String, f64, f64)> = by_name
        .into_iter()
        .map(|(n, v)| {
            let v = sorted(&v);
            (n, percentile(&v, 50.0), percentile(&v, 95.0))
        })
        .collect();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1));
    let wall = sorted(&wall);
    println!(
        "\n{}: the first update of {} warm loads, main-thread self time by event (median per update)",
        build.label,
        windows.len()
    );
    println!(
        "  {:<44} {:>9.2} {:>9.2}",
        "tailslice:update (wall)",
        percentile(&wall, 50.0),
        percentile(&wall, 95.0)
    );
    for (name, p50, p95) in rows.iter().take(16) {
        println!("  {name:<44} {p50:>9.2} {p95:>9.2}");
    }
    println!("  the page's measures inside it (summed per update):");
    for (name, p50, p95) in &phases {
        println!("    {name:<42} {p50:>9.2} {p95:>9.2}");
    }
    Ok(())
}

#[tokio::main]
async fn main() -> Result<()> {
    let loads = env_usize("BENCH_LOADS", 10).max(2);
    println!("load average before: {}", load_average());
    println!("  {:<44} {:>9} {:>9}", "", "p50 ms", "p95 ms");
    for build in builds() {
        profile(&build, loads).await?;
    }
    println!("\nload average after: {}", load_average());
    Ok(())
}
