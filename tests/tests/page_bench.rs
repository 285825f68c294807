//! Page speed benchmark (not a timed test): `scripts/bench-page.sh`, or
//! `cargo test -p tailslice-e2e --test page_bench -- --ignored --nocapture`.
//!
//! Loads the default experiment `BENCH_LOADS` times (default 10), then drives
//! the quantum slider through `BENCH_DRAG` values (default 100) one animation
//! frame apart, and prints p50/p95 of the page's User Timing measures
//! (`tailslice:simulate`, `tailslice:render`, `tailslice:update`) and the
//! number of long tasks (≥ 50 ms) seen while dragging.

use std::time::Duration;

use serde_json::Value;
use tailslice_e2e::{Browser, Result};

const T: Duration = Duration::from_secs(30);

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 * p / 100.0) as usize).min(sorted.len() - 1)]
}

async fn measures(b: &Browser) -> Result<Value> {
    b.eval_js(
        "const m = {}; for (const n of ['simulate', 'render', 'update', 'render:view', 'render:table', 'render:gantt', 'render:plots']) \
         m[n] = performance.getEntriesByName('tailslice:' + n).map(e => e.duration); return m;",
    )
    .await
}

fn report(label: &str, all: &[(String, Vec<f64>)]) {
    println!("\n{label}");
    println!(
        "  {:<20} {:>6} {:>9} {:>9} {:>9}",
        "measure", "n", "p50 ms", "p95 ms", "max ms"
    );
    for (name, v) in all {
        let mut v = v.clone();
        v.sort_by(f64::total_cmp);
        println!(
            "  {:<20} {:>6} {:>9.2} {:>9.2} {:>9.2}",
            format!("tailslice:{name}"),
            v.len(),
            pct(&v, 50.0),
            pct(&v, 95.0),
            v.last().copied().unwrap_or(f64::NAN)
        );
    }
}

fn collect(into: &mut Vec<(String, Vec<f64>)>, v: &Value, skip_first: bool) {
    // The render's parts too: which one a slow first update spends its time in.
    for name in [
        "simulate",
        "render",
        "update",
        "render:view",
        "render:table",
        "render:gantt",
        "render:plots",
    ] {
        let vals: Vec<f64> = v[name]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        let vals = if skip_first {
            vals.into_iter().skip(1).collect()
        } else {
            vals
        };
        match into.iter_mut().find(|(n, _)| n == name) {
            Some((_, all)) => all.extend(vals),
            None => into.push((name.to_string(), vals)),
        }
    }
}

#[tokio::test]
#[ignore = "benchmark: run with --ignored --nocapture (scripts/bench-page.sh)"]
async fn bench_page() -> Result<()> {
    let loads = env("BENCH_LOADS", 10);
    let drag = env("BENCH_DRAG", 100);
    let b = Browser::start().await?;

    // Cold loads: the first update of each includes compiling the wasm.
    let mut first = Vec::new();
    for _ in 0..loads {
        b.open("/").await?;
        b.wait_js("document.body.dataset.state === 'ready'", T)
            .await?;
        collect(&mut first, &measures(&b).await?, false);
    }
    report(
        &format!("first update after load ({loads} loads, default experiment)"),
        &first,
    );

    // Warm updates: the quantum slider dragged 1 → 200, one step per frame.
    b.open("/").await?;
    b.wait_js("document.body.dataset.state === 'ready'", T)
        .await?;
    b.eval_js("performance.clearMeasures(); return 1;").await?;
    let v = b
        .eval_js_async(&format!(
            "const done = arguments[arguments.length - 1]; \
             const s = document.querySelector('#quantum-slider'); \
             const lt0 = window.tailslice.longTasks; \
             let longest = 0; \
             const obs = new PerformanceObserver(l => {{ for (const e of l.getEntries()) longest = Math.max(longest, e.duration); }}); \
             obs.observe({{type: 'longtask'}}); \
             let i = 0; const n = {drag}; \
             const step = () => {{ \
               if (i < n) {{ s.value = String(1 + Math.round(199 * i / Math.max(1, n - 1))); \
                 s.dispatchEvent(new Event('input', {{bubbles: true}})); i++; requestAnimationFrame(step); return; }} \
               const wait = () => document.body.dataset.state === 'ready' \
                 ? setTimeout(() => {{ obs.disconnect(); done({{longTasks: window.tailslice.longTasks - lt0, longest}}); }}, 200) \
                 : setTimeout(wait, 20); \
               wait(); }}; \
             requestAnimationFrame(step);"
        ))
        .await?;
    let mut warm = Vec::new();
    collect(&mut warm, &measures(&b).await?, false);
    report(
        &format!("updates while dragging the quantum slider ({drag} frames)"),
        &warm,
    );
    println!(
        "  long tasks (>= 50 ms) while dragging: {} (longest {:.0} ms)",
        v["longTasks"],
        v["longest"].as_f64().unwrap_or(0.0)
    );

    // Transfer size of the page's files, gzipped.
    let dist = tailslice_e2e::dist_dir();
    let mut total = 0u64;
    let mut total_gz = 0u64;
    println!("\ntransfer (gzip -9)");
    // Every file the page can load (html, css, js — strings/ included — and wasm).
    let mut names: Vec<String> = Vec::new();
    for dir in ["", "strings"] {
        let Ok(entries) = std::fs::read_dir(dist.join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if [".html", ".css", ".js", ".wasm"]
                .iter()
                .any(|x| n.ends_with(x))
            {
                names.push(if dir.is_empty() {
                    n
                } else {
                    format!("{dir}/{n}")
                });
            }
        }
    }
    names.sort();
    for name in &names {
        let path = dist.join(name);
        let raw = std::fs::metadata(&path)?.len();
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("gzip -9c '{}' | wc -c", path.display()))
            .output()?;
        let gz: u64 = String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .unwrap_or(0);
        // Fetched only when used: the trace reader's module (a trace is
        // opened) and the worker with its module (the first large run,
        // scenario, sweep, import or export).
        if [
            "tailslice-trace-web",
            "tailslice-worker-web",
            "worker.js",
            "worker-loop.js",
            "trace-worker.js",
            "trace-jobs.js",
        ]
        .iter()
        .any(|p| name.starts_with(p))
        {
            println!("  {name:<20} {raw:>8} B  {gz:>8} B gz (on demand, not in the total)");
            continue;
        }
        println!("  {name:<20} {raw:>8} B  {gz:>8} B gz");
        total += raw;
        total_gz += gz;
    }
    println!(
        "  {:<20} {total:>8} B  {total_gz:>8} B gz (budget 307200)",
        "total"
    );
    b.finish().await
}
