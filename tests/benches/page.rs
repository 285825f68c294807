//! The page's speed and size (printed, not a pass/fail test):
//! `scripts/bench-page.sh`.
//!
//! * **First view**: the files the page fetched up to its first drawn
//!   result, gzipped (`gzip -9`), against the goal of 250 KB; every other
//!   file of `dist/` is listed as fetched on demand.
//! * **Loads**: the default experiment opened `BENCH_LOADS` times (default
//!   10) from a server that lets the browser cache (as a deployment does):
//!   the first load cold, the others warm. Navigation to the first table and
//!   Gantt (the end of the first `tailslice:update`, from navigation start;
//!   goal ≤ 100 ms p95 warm) and the first update itself (request to table
//!   and Gantt; goal ≤ 16 ms p95), with p50/p95 of every User Timing
//!   measure of the page, the phases of an update among them.
//! * **Phases**: where an update's time goes — `tailslice:simulate`
//!   (request to result), `tailslice:transfer` (a worker's run: the round
//!   trip beyond the job's own time), `tailslice:draw:table`,
//!   `tailslice:draw:gantt` (one measure per part drawn), `…:draw:cdf`,
//!   `…:draw:histogram` — printed with their p50 and p95 for the loads and
//!   the slider drag.
//! * The load average before and after, printed beside the figures.
//! * **Dragging**: the quantum slider through `BENCH_DRAG` values (default
//!   100), one animation frame apart: p50/p95 of each update (goal ≤ 16 ms
//!   p95) and the main-thread tasks over 50 ms (goal: none).
//! * **Sweep**: the sweeps panel's 1000-seed × 400-task × 2-policy sweep,
//!   request to drawn summary (worker included), median of five.

use std::time::Duration;

use serde_json::Value;
use tailslice_e2e::bench_report::{
    env_usize, load_average, percentile, print_goals, sorted, Figure,
};
use tailslice_e2e::page::open_ready;
use tailslice_e2e::{dist_dir, Browser, Result};

const T: Duration = Duration::from_secs(30);

/// The page's User Timing measures, the render's parts included (which one
/// a slow first update spends its time in).
const MEASURES: [&str; 12] = [
    "simulate",
    "render",
    "update",
    "render:view",
    "render:table",
    "render:gantt",
    "render:plots",
    // The phases.
    "transfer",
    "draw:table",
    "draw:gantt",
    "draw:cdf",
    "draw:histogram",
];

/// Durations of each measure on the page so far: `{name: [ms]}`.
async fn measures(b: &Browser) -> Result<Value> {
    b.eval_js(&format!(
        "const m = {{}}; for (const n of {MEASURES:?}) \
         m[n] = performance.getEntriesByName('tailslice:' + n).map(e => e.duration); return m;"
    ))
    .await
}

/// Adds the durations in `v` to `into`, measure by measure.
fn collect(into: &mut Vec<(String, Vec<f64>)>, v: &Value) {
    for name in MEASURES {
        let vals: Vec<f64> = v[name]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        match into.iter_mut().find(|(n, _)| n == name) {
            Some((_, all)) => all.extend(vals),
            None => into.push((name.to_string(), vals)),
        }
    }
}

fn report(label: &str, all: &[(String, Vec<f64>)]) {
    println!("\n{label}");
    println!(
        "  {:<24} {:>6} {:>9} {:>9} {:>9}",
        "measure", "n", "p50 ms", "p95 ms", "max ms"
    );
    for (name, v) in all {
        let v = sorted(v);
        println!(
            "  {:<24} {:>6} {:>9.2} {:>9.2} {:>9.2}",
            format!("tailslice:{name}"),
            v.len(),
            percentile(&v, 50.0),
            percentile(&v, 95.0),
            v.last().copied().unwrap_or(f64::NAN)
        );
    }
}

/// `gzip -9` size of a file (what the README has always quoted).
fn gzip_size(path: &std::path::Path) -> Result<u64> {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("gzip -9c '{}' | wc -c", path.display()))
        .output()?;
    Ok(String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or(0))
}

/// Paths (relative to `dist/`) of the files the current page has fetched:
/// the document and every resource.
async fn fetched(b: &Browser) -> Result<(Vec<String>, Vec<String>)> {
    // A file belongs to the first view when its response ended before the
    // first table and Gantt were drawn (the first `tailslice:update`); the
    // document itself always does.
    let v = b
        .eval_js(
            "const u = performance.getEntriesByName('tailslice:update')[0]; \
             const end = u ? u.startTime + u.duration : Infinity; \
             const path = (n) => { const u = new URL(n); \
               return u.origin !== location.origin ? null \
                 : u.pathname.endsWith('/') ? u.pathname + 'index.html' : u.pathname; }; \
             const out = [[path(location.href), true]]; \
             for (const e of performance.getEntriesByType('resource')) { \
               const p = path(e.name); if (p) out.push([p, e.responseEnd <= end]); } \
             return out;",
        )
        .await?;
    let (mut first, mut after) = (Vec::new(), Vec::new());
    for pair in v.as_array().into_iter().flatten() {
        let (Some(p), Some(in_first)) = (pair[0].as_str(), pair[1].as_bool()) else {
            continue;
        };
        let name = p.trim_start_matches('/').to_string();
        if in_first {
            first.push(name);
        } else {
            after.push(name);
        }
    }
    for list in [&mut first, &mut after] {
        list.sort();
        list.dedup();
    }
    after.retain(|n| !first.contains(n));
    Ok((first, after))
}

/// Every file of `dist/` the page can load (html, css, js — `strings/`
/// included — and wasm), relative to `dist/`.
fn dist_files() -> Vec<String> {
    let dist = dist_dir();
    let mut names = Vec::new();
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
    names
}

/// Prints every file, raw and gzipped, marked first view or on demand;
/// returns the first view's gzipped bytes and its file count.
fn transfer(first_view: &[String], after_first: &[String]) -> Result<(u64, usize)> {
    let dist = dist_dir();
    println!("\ntransfer (gzip -9): the first view is what the first load fetched up to its first result");
    let (mut total, mut total_gz, mut files) = (0u64, 0u64, 0usize);
    let mut after_gz = 0u64;
    let mut names = dist_files();
    for f in first_view {
        if !names.contains(f) {
            names.push(f.clone());
        }
    }
    names.sort();
    for name in &names {
        let path = dist.join(name);
        let Ok(meta) = std::fs::metadata(&path) else {
            println!("  {name:<28} fetched but not in dist/");
            continue;
        };
        let raw = meta.len();
        let gz = gzip_size(&path)?;
        if first_view.contains(name) {
            println!("  {name:<28} {raw:>8} B  {gz:>8} B gz  first view");
            total += raw;
            total_gz += gz;
            files += 1;
        } else if after_first.contains(name) {
            println!("  {name:<28} {raw:>8} B  {gz:>8} B gz  after the first result");
            after_gz += gz;
        } else {
            println!("  {name:<28} {raw:>8} B  {gz:>8} B gz  on demand");
        }
    }
    println!(
        "  {:<28} {total:>8} B  {total_gz:>8} B gz  first view, {files} files",
        "total"
    );
    println!(
        "  {:<28} {:>8}    {after_gz:>8} B gz  fetched after the first result, while the page got ready",
        "", ""
    );
    Ok((total_gz, files))
}

/// One load of `/` until the first result is drawn; returns (navigation
/// start to the first table and Gantt, the first update) in ms.
async fn load(b: &Browser, all: &mut Vec<(String, Vec<f64>)>) -> Result<(f64, f64)> {
    open_ready(b, "/").await?;
    let v = b
        .eval_js(
            "const u = performance.getEntriesByName('tailslice:update')[0]; \
             return u ? [u.startTime + u.duration, u.duration] : null;",
        )
        .await?;
    collect(all, &measures(b).await?);
    Ok((
        v[0].as_f64().unwrap_or(f64::NAN),
        v[1].as_f64().unwrap_or(f64::NAN),
    ))
}

/// Drags the quantum slider 1 → 200 through `drag` values, one per frame;
/// returns the update measures and (long tasks, the longest task in ms).
async fn drag_slider(b: &Browser, drag: usize) -> Result<(Vec<(String, Vec<f64>)>, f64, f64)> {
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
    collect(&mut warm, &measures(b).await?);
    Ok((
        warm,
        v["longTasks"].as_f64().unwrap_or(f64::NAN),
        v["longest"].as_f64().unwrap_or(f64::NAN),
    ))
}

/// The sweeps panel's seed sweep `1-1000`, five times after a warm-up;
/// returns the request-to-drawn times (ms, `body[data-sweep-ms]`).
async fn sweep(b: &Browser) -> Result<Vec<f64>> {
    let run = |seeds: &'static str| async move {
        b.eval_js(&format!(
            "document.querySelector('#sweep-seeds').value = '{seeds}'; \
             document.body.dataset.sweep = 'idle'; return true;"
        ))
        .await?;
        b.click("#sweep-seeds-run").await?;
        b.wait_js("document.body.dataset.sweep === 'done'", T)
            .await?;
        let ms = b.eval_js("return document.body.dataset.sweepMs;").await?;
        let seeds_done = b
            .eval_js("return document.querySelector('#seed-stats').dataset.seeds;")
            .await?;
        Ok::<_, tailslice_e2e::Error>((
            ms.as_str().and_then(|s| s.parse().ok()).unwrap_or(f64::NAN),
            seeds_done,
        ))
    };
    // The first sweep starts the worker (its wasm is fetched and compiled),
    // as a visitor's first would: not part of the figure.
    run("1-10").await?;
    let mut times = Vec::new();
    for _ in 0..5 {
        let (ms, seeds) = run("1-1000").await?;
        if seeds != "1000" {
            return Err(format!("the sweep covered {seeds} seeds, not 1000").into());
        }
        times.push(ms);
    }
    Ok(times)
}

#[tokio::main]
async fn main() -> Result<()> {
    let loads = env_usize("BENCH_LOADS", 10).max(2);
    let drag = env_usize("BENCH_DRAG", 100);
    let load_before = load_average();
    println!("load average before: {load_before} (figures from a busy machine are not goals met or missed)");
    let b = Browser::start_caching().await?;

    // The first load is cold (nothing cached); it also says what the first view fetches.
    let mut cold_measures = Vec::new();
    let (cold_nav, cold_first) = load(&b, &mut cold_measures).await?;
    let (first_view, after_first) = fetched(&b).await?;
    let mut warm_measures = Vec::new();
    let (mut nav, mut first) = (Vec::new(), Vec::new());
    for _ in 1..loads {
        let (n, f) = load(&b, &mut warm_measures).await?;
        nav.push(n);
        first.push(f);
    }
    let (nav, first) = (sorted(&nav), sorted(&first));
    println!("\nloads of the default experiment (cached by the browser after the first)");
    println!(
        "  {:<44} {:>9} {:>9} {:>9}",
        "", "cold ms", "warm p50", "warm p95"
    );
    println!(
        "  {:<44} {cold_nav:>9.1} {:>9.1} {:>9.1}",
        "navigation to the first table and Gantt",
        percentile(&nav, 50.0),
        percentile(&nav, 95.0)
    );
    println!(
        "  {:<44} {cold_first:>9.1} {:>9.1} {:>9.1}",
        "first update (request to table and Gantt)",
        percentile(&first, 50.0),
        percentile(&first, 95.0)
    );
    report(
        &format!("measures of the {} warm loads", loads - 1),
        &warm_measures,
    );

    let (dragged, long_tasks, longest) = drag_slider(&b, drag).await?;
    report(
        &format!("updates while dragging the quantum slider ({drag} frames)"),
        &dragged,
    );
    println!("  long tasks (>= 50 ms) while dragging: {long_tasks} (longest {longest:.0} ms)");
    let drag_updates = dragged
        .iter()
        .find(|(n, _)| n == "update")
        .map(|(_, v)| sorted(v))
        .unwrap_or_default();

    let sweeps = sorted(&sweep(&b).await?);
    println!(
        "\nseed sweep 1-1000 (400 tasks, fifo vs rr), request to drawn: runs {sweeps:?} ms; median {:.0} ms",
        percentile(&sweeps, 50.0)
    );

    let (first_view_gz, files) = transfer(&first_view, &after_first)?;
    let goals = format!(
        "goals (load average {load_before} before, {} after)",
        load_average()
    );
    print_goals(
        &goals,
        &[
            Figure::new(
                format!("first view, gzipped ({files} files)"),
                first_view_gz as f64 / 1024.0,
                250.0,
                "KB",
            ),
            Figure::new(
                "navigation to the first table and Gantt, warm p95",
                percentile(&nav, 95.0),
                100.0,
                "ms",
            ),
            Figure::new(
                "first update after a load, warm p95",
                percentile(&first, 95.0),
                16.0,
                "ms",
            ),
            Figure::new(
                "update while dragging the slider, p95",
                percentile(&drag_updates, 95.0),
                16.0,
                "ms",
            ),
            Figure::new(
                "longest main-thread task while dragging",
                longest,
                50.0,
                "ms",
            ),
        ],
    );
    b.finish().await
}
