//! Real traces: headless Chromium runs a test page with known tasks
//! (busy-waits of 120, 30 and 5 ms in separate timer tasks, a setTimeout
//! chain and a click handler) while chromedriver traces it through the
//! DevTools protocol's Tracing domain (its performance log with
//! `traceCategories`). The recorded trace is then imported on the CLI and on
//! the page, and every known task must come back with its duration, as the
//! page itself measured it, within 1 ms.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value};
use tailslice_e2e::page::open_ready;
use tailslice_e2e::{artifacts_dir, run_cli, Browser, Result};

const T: Duration = Duration::from_secs(60);

/// The test page: each task measures itself with `performance.now()`.
const TASKS_PAGE: &str = r#"<!doctype html>
<html><head><meta charset="utf-8"><title>known tasks</title></head>
<body><button id="go">click me</button>
<script>
window.known = [];
// Each callback measures itself from its first statement to its last, so
// everything it does (scheduling the next timer included) is on the page's
// side of the comparison.
function spin(t, ms) { while (performance.now() - t < ms) { /* busy-wait */ } }
function task(label, ms, after) {
  return () => {
    const t = performance.now();
    spin(t, ms);
    if (after) after();
    window.known.push({ label, start: t, dur: performance.now() - t });
  };
}
window.stage = 'timers';
addEventListener('load', () => {
  setTimeout(task('busy-120', 120), 150);
  setTimeout(task('busy-30', 30), 450);
  setTimeout(task('busy-5', 5), 600);
  let step = 0;
  const chain = () => task('chain-' + step, 12, () => {
    step += 1;
    if (step < 4) setTimeout(chain, 25); else window.stage = 'click';
  })();
  setTimeout(chain, 700);
});
// chromedriver's click is one task (pointerdown … click, then the
// browser's own input handling and rendering); its first handler marks
// the start.
let released = null;
addEventListener('pointerdown', () => { released = performance.now(); }, { capture: true });
document.getElementById('go').addEventListener('click', () => {
  const t = released ?? performance.now();
  spin(t, 20);
  window.stage = 'done';
  window.known.push({ label: 'click', start: t, dur: performance.now() - t });
});
</script></body></html>
"#;

/// A task as the page measured it (ms, page clock).
#[derive(Debug, Clone)]
struct Known {
    label: String,
    start: f64,
    dur: f64,
}

/// Records a trace of the test page; returns the trace file (object form,
/// as DevTools saves it) and the tasks as the page measured them.
async fn record_trace(tag: &str) -> Result<(PathBuf, Vec<Known>)> {
    let dir =
        std::env::temp_dir().join(format!("tailslice-e2e-trace-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("tasks.html"), TASKS_PAGE)?;
    let b = Browser::start_serving_with(&dir, |caps| {
        caps.insert(
            "goog:loggingPrefs".into(),
            json!({"browser": "ALL", "performance": "ALL"}),
        );
        if let Some(chrome) = caps.get_mut("goog:chromeOptions") {
            chrome["perfLoggingPrefs"] = json!({
                "enableNetwork": false,
                "enablePage": false,
                "traceCategories": "devtools.timeline,disabled-by-default-devtools.timeline",
            });
        }
    })
    .await?;
    b.open("/tasks.html").await?;
    b.wait_js("window.stage === 'click'", T).await?;
    b.click("#go").await?;
    b.wait_js("window.stage === 'done'", T).await?;
    let known: Vec<Known> = b
        .eval_js("return window.known;")
        .await?
        .as_array()
        .ok_or("window.known is not an array")?
        .iter()
        .map(|k| Known {
            label: k["label"].as_str().unwrap_or("").to_string(),
            start: k["start"].as_f64().unwrap_or(f64::NAN),
            dur: k["dur"].as_f64().unwrap_or(f64::NAN),
        })
        .collect();
    // Reading the performance log ends the trace and returns its events.
    let mut events: Vec<Value> = Vec::new();
    for entry in b.performance_log().await? {
        let Some(text) = entry["message"].as_str() else {
            continue;
        };
        let Ok(msg) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        if msg["message"]["method"] == "Tracing.dataCollected" {
            events.push(msg["message"]["params"].clone());
        }
    }
    b.finish().await?;
    assert!(
        events.len() > 100,
        "the trace has only {} events",
        events.len()
    );
    let path = artifacts_dir().join(format!("recorded-trace-{tag}.json"));
    let file = json!({"metadata": {"source": "chromedriver performance log (Tracing domain)"}, "traceEvents": events});
    std::fs::write(&path, serde_json::to_vec(&file)?)?;
    eprintln!(
        "recorded {} trace events to {}",
        events.len(),
        path.display()
    );
    assert_eq!(known.len(), 8, "{known:?}");
    Ok((path, known))
}

/// Checks every known task against the imported (arrival, duration) pairs:
/// the 120 ms task aligns the clocks, then each task must start where the
/// page says (±3 ms: the callback starts a little after its task) and last
/// as long within 1 ms.
fn check_tasks(known: &[Known], imported: &[(f64, f64)]) {
    let anchor = known.iter().find(|k| k.label == "busy-120").unwrap();
    let (a_start, a_dur) = imported
        .iter()
        .copied()
        .filter(|&(_, d)| (d - anchor.dur).abs() < 5.0)
        .min_by(|a, b| {
            (a.1 - anchor.dur)
                .abs()
                .total_cmp(&(b.1 - anchor.dur).abs())
        })
        .unwrap_or_else(|| panic!("no imported task within 1 ms of {anchor:?}"));
    let offset = a_start - anchor.start;
    for k in known {
        let want = k.start + offset;
        let found = imported
            .iter()
            .copied()
            .filter(|&(s, _)| (s - want).abs() < 3.0)
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let (start, dur) =
            found.unwrap_or_else(|| panic!("no imported task starts near {want:.1} ms for {k:?}"));
        eprintln!(
            "{:>9}: page {:8.3} ms, trace {dur:8.3} ms (start {start:.3})",
            k.label, k.dur
        );
        // The task holds the callback and the browser's own work around it
        // (timer dispatch, long-animation-frame bookkeeping): never shorter
        // than the callback (less the 0.1 ms the page clock is coarsened
        // to), longer by 1 ms plus 5 % at most. On a quiet machine the
        // difference is 0.2–0.5 ms; on a loaded 2-core VM the thread is
        // also descheduled after the callback returns (seen: +1.1 to +5 ms
        // after the 120 ms task, whose thread time was 72 of 132 ms).
        // The click's task also holds the browser's input handling and a
        // rendering update (9–11 ms here), so it is only checked to hold
        // the handler.
        let slack = if k.label == "click" {
            f64::INFINITY
        } else {
            1.0 + 0.05 * k.dur
        };
        assert!(
            dur >= k.dur - 0.2 && dur - k.dur <= slack,
            "{}: the page measured {:.3} ms, the import says {dur:.3} ms (start {start:.3})",
            k.label,
            k.dur
        );
        let asked: f64 = k
            .label
            .trim_start_matches(|c: char| !c.is_ascii_digit())
            .parse()
            .unwrap_or(0.0);
        let asked = match k.label.as_str() {
            "click" => 20.0,
            l if l.starts_with("chain") => 12.0,
            _ => asked,
        };
        assert!(
            dur >= asked - 0.2,
            "{}: {dur} ms < the {asked} ms busy-wait",
            k.label
        );
    }
}

/// (arrival, duration) of each task from the CLI's per-task CSV.
fn csv_tasks(csv: &str) -> Vec<(f64, f64)> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).unwrap();
    let (a, w) = (col("arrival_ms"), col("work_ms"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[a].parse().unwrap(), f[w].parse().unwrap())
        })
        .collect()
}

#[tokio::test]
async fn a_trace_recorded_by_chromium_opens_on_the_cli() -> Result<()> {
    let (path, known) = record_trace("cli").await?;
    let csv = artifacts_dir().join("recorded-trace-cli-tasks.csv");
    let out = run_cli([
        "simulate".as_ref(),
        "--trace-in".as_ref(),
        path.as_os_str(),
        "--policies".as_ref(),
        "fifo".as_ref(),
        "--json".as_ref(),
        "--csv".as_ref(),
        csv.as_os_str(),
    ])?;
    let report: Value = serde_json::from_str(&out)?;
    assert_eq!(report["results"][0]["policy"], "recorded");
    assert_eq!(report["trace"]["thread_name"], "CrRendererMain");
    let tasks = csv_tasks(&std::fs::read_to_string(&csv)?);
    assert_eq!(tasks.len() as u64, report["tasks"].as_u64().unwrap());
    check_tasks(&known, &tasks);
    // The 120 ms task is a long task: the summary counts it.
    assert!(report["trace"]["long_tasks"].as_u64().unwrap() >= 1);
    assert!(
        report["trace"]["longest"][0]["duration_ms"]
            .as_f64()
            .unwrap()
            >= 119.8
    );

    // The same trace gzip-compressed, under a name that does not say so.
    let gz = artifacts_dir().join("recorded-trace-cli.trace");
    {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&std::fs::read(&path)?)?;
        std::fs::write(&gz, enc.finish()?)?;
    }
    let out_gz = run_cli([
        "simulate".as_ref(),
        "--trace-in".as_ref(),
        gz.as_os_str(),
        "--policies".as_ref(),
        "fifo".as_ref(),
        "--json".as_ref(),
    ])?;
    let v: Value = serde_json::from_str(&out_gz)?;
    assert_eq!(v["results"], report["results"]);
    Ok(())
}
