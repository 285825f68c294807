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
//! * **Side by side**: `BENCH_BEFORE` names the previous build's `dist/`
//!   (`scripts/build-before.sh` makes one); both builds are then measured
//!   in `BENCH_ROUNDS` rounds (default 2), each round a new browser per
//!   build, the order reversed every other round, and every goal is
//!   printed with the previous build's figure and the ratio beside it.

use std::time::Duration;

use serde_json::Value;
use tailslice_e2e::bench_report::{
    builds, env_usize, load_average, percentile, print_side_by_side, round_order, sorted, Build,
    Figure,
};
use tailslice_e2e::page::open_ready;
use tailslice_e2e::{Browser, Result};

const T: Duration = Duration::from_secs(30);

/// The page's User Timing measures, the render's parts included (which one
/// a slow first update spends its time in).
const MEASURES: [&str; 15] = [
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
    // Reading a width that was not known yet (a layout in the update's task).
    "layout",
    // The document's style brought up to date before the Gantt's first font.
    "style",
    // Building the settings, after a link's first result (once a load).
    "settings",
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
fn dist_files(dist: &std::path::Path) -> Vec<String> {
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
fn transfer(
    dist: &std::path::Path,
    first_view: &[String],
    after_first: &[String],
) -> Result<(u64, usize)> {
    println!("\ntransfer (gzip -9): the first view is what the first load fetched up to its first result");
    let (mut total, mut total_gz, mut files) = (0u64, 0u64, 0usize);
    let mut after_gz = 0u64;
    let mut names = dist_files(dist);
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

/// What dragging the slider cost: the page's measures, the long tasks, the
/// longest task and the longest gap between two animation frames (ms).
struct Drag {
    measures: Vec<(String, Vec<f64>)>,
    long_tasks: f64,
    longest: f64,
    frame_gap: f64,
}

/// Drags the quantum slider 1 → 200 through `drag` values, one per frame.
async fn drag_slider(b: &Browser, drag: usize) -> Result<Drag> {
    b.eval_js("performance.clearMeasures(); return 1;").await?;
    let v = b
        .eval_js_async(&format!(
            "const done = arguments[arguments.length - 1]; \
             const s = document.querySelector('#quantum-slider'); \
             const lt0 = window.tailslice.longTasks; \
             let longest = 0; let gap = 0; let last = null; \
             const obs = new PerformanceObserver(l => {{ for (const e of l.getEntries()) longest = Math.max(longest, e.duration); }}); \
             obs.observe({{type: 'longtask'}}); \
             let i = 0; const n = {drag}; \
             const step = (now) => {{ \
               if (last !== null) gap = Math.max(gap, now - last); last = now; \
               if (i < n) {{ s.value = String(1 + Math.round(199 * i / Math.max(1, n - 1))); \
                 s.dispatchEvent(new Event('input', {{bubbles: true}})); i++; requestAnimationFrame(step); return; }} \
               const wait = () => document.body.dataset.state === 'ready' \
                 ? setTimeout(() => {{ obs.disconnect(); done({{longTasks: window.tailslice.longTasks - lt0, longest, gap}}); }}, 200) \
                 : setTimeout(wait, 20); \
               wait(); }}; \
             requestAnimationFrame(step);"
        ))
        .await?;
    let mut warm = Vec::new();
    collect(&mut warm, &measures(b).await?);
    Ok(Drag {
        measures: warm,
        long_tasks: v["longTasks"].as_f64().unwrap_or(f64::NAN),
        longest: v["longest"].as_f64().unwrap_or(f64::NAN),
        frame_gap: v["gap"].as_f64().unwrap_or(f64::NAN),
    })
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

/// One build's figures, gathered over the rounds.
#[derive(Default)]
struct Figures {
    cold_nav: Vec<f64>,
    cold_first: Vec<f64>,
    nav: Vec<f64>,
    first: Vec<f64>,
    warm_measures: Vec<(String, Vec<f64>)>,
    dragged: Vec<(String, Vec<f64>)>,
    long_tasks: f64,
    longest: f64,
    frame_gap: f64,
    sweeps: Vec<f64>,
    first_view: Vec<String>,
    after_first: Vec<String>,
}

/// One round on `build`: a new browser, a cold load, `loads - 1` warm
/// loads, the slider dragged through `drag` frames and the seed sweeps.
async fn round(build: &Build, loads: usize, drag: usize, f: &mut Figures) -> Result<()> {
    let b = Browser::start_caching_at(&build.dist).await?;
    // The first load is cold (nothing cached); it also says what the first view fetches.
    let mut cold_measures = Vec::new();
    let (cold_nav, cold_first) = load(&b, &mut cold_measures).await?;
    f.cold_nav.push(cold_nav);
    f.cold_first.push(cold_first);
    (f.first_view, f.after_first) = fetched(&b).await?;
    for _ in 1..loads {
        let (n, first) = load(&b, &mut f.warm_measures).await?;
        f.nav.push(n);
        f.first.push(first);
    }
    let d = drag_slider(&b, drag).await?;
    for (name, v) in &d.measures {
        collect_one(&mut f.dragged, name, v);
    }
    f.long_tasks += d.long_tasks;
    f.longest = f.longest.max(d.longest);
    f.frame_gap = f.frame_gap.max(d.frame_gap);
    f.sweeps.extend(sweep(&b).await?);
    b.finish().await
}

fn collect_one(into: &mut Vec<(String, Vec<f64>)>, name: &str, vals: &[f64]) {
    match into.iter_mut().find(|(n, _)| n == name) {
        Some((_, all)) => all.extend_from_slice(vals),
        None => into.push((name.to_string(), vals.to_vec())),
    }
}

/// The `p`th percentile of measure `name` in `all`.
fn measure_p(all: &[(String, Vec<f64>)], name: &str, p: f64) -> f64 {
    all.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| percentile(&sorted(v), p))
        .unwrap_or(f64::NAN)
}

/// `a`'s and `b`'s measures together.
fn concat(a: &[(String, Vec<f64>)], b: &[(String, Vec<f64>)]) -> Vec<(String, Vec<f64>)> {
    let mut out = a.to_vec();
    for (n, v) in b {
        collect_one(&mut out, n, v);
    }
    out
}

/// One build's figures against their goals.
fn goals(f: &Figures, first_view_gz: u64, files: usize, drag: usize) -> Vec<Figure> {
    let (nav, first) = (sorted(&f.nav), sorted(&f.first));
    let mut out = vec![
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
            "first update after a load, warm p50",
            percentile(&first, 50.0),
            8.0,
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
            measure_p(&f.dragged, "update", 95.0),
            16.0,
            "ms",
        ),
        Figure::new(
            format!("longest gap between frames while dragging ({drag} a round)"),
            f.frame_gap,
            33.0,
            "ms",
        ),
        Figure::new(
            "longest main-thread task while dragging",
            f.longest,
            50.0,
            "ms",
        ),
    ];
    // Each chart's drawing, on the loads' updates and the drag together.
    let all = concat(&f.warm_measures, &f.dragged);
    for chart in ["gantt", "cdf", "histogram"] {
        out.push(Figure::new(
            format!("draw:{chart}, p95"),
            measure_p(&all, &format!("draw:{chart}"), 95.0),
            3.0,
            "ms",
        ));
    }
    out
}

fn print_build(label: &str, f: &Figures, loads: usize, drag: usize) {
    let (nav, first) = (sorted(&f.nav), sorted(&f.first));
    println!(
        "\n=== {label}: loads of the default experiment (cached by the browser after the first)"
    );
    println!(
        "  {:<44} {:>9} {:>9} {:>9}",
        "", "cold p50", "warm p50", "warm p95"
    );
    println!(
        "  {:<44} {:>9.1} {:>9.1} {:>9.1}",
        "navigation to the first table and Gantt",
        percentile(&sorted(&f.cold_nav), 50.0),
        percentile(&nav, 50.0),
        percentile(&nav, 95.0)
    );
    println!(
        "  {:<44} {:>9.1} {:>9.1} {:>9.1}",
        "first update (request to table and Gantt)",
        percentile(&sorted(&f.cold_first), 50.0),
        percentile(&first, 50.0),
        percentile(&first, 95.0)
    );
    report(
        &format!(
            "{label}: measures of the warm loads ({} a round)",
            loads - 1
        ),
        &f.warm_measures,
    );
    report(
        &format!("{label}: updates while dragging the quantum slider ({drag} frames a round)"),
        &f.dragged,
    );
    println!(
        "  long tasks (>= 50 ms) while dragging: {} (longest {:.0} ms); longest gap between frames {:.0} ms",
        f.long_tasks, f.longest, f.frame_gap
    );
    let sweeps = sorted(&f.sweeps);
    println!(
        "  seed sweep 1-1000 (400 tasks, fifo vs rr), request to drawn: median {:.0} ms of {}",
        percentile(&sweeps, 50.0),
        sweeps.len()
    );
}

#[tokio::main]
async fn main() -> Result<()> {
    let loads = env_usize("BENCH_LOADS", 10).max(2);
    let drag = env_usize("BENCH_DRAG", 100);
    let builds = builds();
    let rounds = env_usize("BENCH_ROUNDS", if builds.len() > 1 { 2 } else { 1 }).max(1);
    let load_before = load_average();
    println!("load average before: {load_before} (figures from a busy machine are not goals met or missed)");
    for b in &builds {
        println!("  {:<7} {}", b.label, b.dist.display());
    }
    let mut figures: Vec<Figures> = builds.iter().map(|_| Figures::default()).collect();
    for r in 0..rounds {
        for i in round_order(builds.len(), r) {
            round(&builds[i], loads, drag, &mut figures[i]).await?;
        }
    }
    let load_after = load_average();
    let mut sized = Vec::new();
    for (b, f) in builds.iter().zip(&figures) {
        print_build(b.label, f, loads, drag);
        println!("\n{}:", b.label);
        sized.push(transfer(&b.dist, &f.first_view, &f.after_first)?);
    }
    let heading =
        format!("goals ({rounds} rounds; load average {load_before} before, {load_after} after)");
    let now = figures.len() - 1;
    let now_goals = goals(&figures[now], sized[now].0, sized[now].1, drag);
    let before_goals = (now > 0).then(|| goals(&figures[0], sized[0].0, sized[0].1, drag));
    print_side_by_side(&heading, &now_goals, before_goals.as_deref());
    Ok(())
}
