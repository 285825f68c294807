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
use tailslice_e2e::page::{
    assert_no_sideways_scroll, cli_table, ink, open_ready, open_trace, table, updates,
};
use tailslice_e2e::{artifacts_dir, run_cli, Browser, Result, TIMELINE_CATEGORIES};

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
// The release of chromedriver's click is one task (pointerup, mouseup,
// click, then the browser's own input handling and rendering; the press
// may share it or come in a task of its own): pointerup marks the start.
let released = null;
addEventListener('pointerup', () => { released = performance.now(); }, { capture: true });
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
    let b = Browser::start_tracing(&dir, TIMELINE_CATEGORIES).await?;
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
    let events = b.trace_events().await?;
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

/// How much longer than its callback a known task may be in the trace:
/// 1 ms plus 5 % (the click's task also holds input handling and a
/// rendering update, so it has no bound).
fn slack(k: &Known) -> f64 {
    if k.label == "click" {
        f64::INFINITY
    } else {
        1.0 + 0.05 * k.dur
    }
}

/// Checks every known task against the imported (arrival, duration) pairs:
/// the 120 ms task aligns the clocks, then each task must start where the
/// page says (±3 ms: the callback starts a little after its task) and last
/// at least as long.
/// Returns the tasks longer than the slack allows (the check that a busy
/// machine can break; see the caller), after asserting everything else.
fn check_tasks(known: &[Known], imported: &[(f64, f64)]) -> Vec<String> {
    let mut too_long = Vec::new();
    let anchor = known.iter().find(|k| k.label == "busy-120").unwrap();
    let (a_start, a_dur) = imported
        .iter()
        .copied()
        // Not shorter than the callback; the closest such (a stretched one
        // is then reported by the duration check below).
        .filter(|&(_, d)| d >= anchor.dur - 0.2)
        .min_by(|a, b| {
            (a.1 - anchor.dur)
                .abs()
                .total_cmp(&(b.1 - anchor.dur).abs())
        })
        .unwrap_or_else(|| panic!("no imported task as long as {anchor:?}"));
    // A stretched anchor cannot align the clocks: the recording is one the
    // machine stretched, which the caller records again.
    if a_dur - anchor.dur > slack(anchor) {
        return vec![format!(
            "{} (the clocks' anchor): the page measured {:.3} ms, the import says {a_dur:.3} ms",
            anchor.label, anchor.dur
        )];
    }
    let offset = a_start - anchor.start;
    for k in known {
        let want = k.start + offset;
        // The imported task that overlaps the page's measurement most (the
        // clocks are aligned to within the start check's 3 ms: the page's
        // is coarsened, and each callback, the anchor's too, starts a
        // little after its task, more so on a loaded machine); it must
        // cover all of it but that misalignment.
        let overlap = |&(s, d): &(f64, f64)| (s + d).min(want + k.dur) - s.max(want);
        let found = imported
            .iter()
            .copied()
            .filter(|t| overlap(t) >= k.dur - 3.0)
            .max_by(|a, b| overlap(a).total_cmp(&overlap(b)));
        let (start, dur) = found.unwrap_or_else(|| {
            let near: Vec<_> = imported
                .iter()
                .filter(|t| (t.0 - want).abs() < 30.0)
                .collect();
            panic!("no imported task holds {want:.1} ms for {k:?}; near: {near:?}")
        });
        if k.label != "click" {
            assert!(
                (start - want).abs() < 3.0,
                "{}: starts at {start:.3}, the page says {want:.3}",
                k.label
            );
        }
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
        assert!(
            dur >= k.dur - 0.2,
            "{}: the page measured {:.3} ms, the import says {dur:.3} ms (start {start:.3})",
            k.label,
            k.dur
        );
        if dur - k.dur > slack(k) {
            too_long.push(format!(
                "{}: the page measured {:.3} ms, the import says {dur:.3} ms",
                k.label, k.dur
            ));
        }
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
    too_long
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

/// One recording, imported on the CLI and then on the page (one after the
/// other: two browsers at once on a busy machine would stretch the tasks).
#[tokio::test]
async fn a_trace_recorded_by_chromium_opens_on_the_cli_and_the_page() -> Result<()> {
    // Every check holds on every recording but one: that no task is more
    // than 1 ms + 5 % longer than its callback. A busy machine deschedules
    // the renderer after a callback returns, so a recording may be
    // stretched; up to three recordings are made and the first that meets
    // it is used (each failed one is printed).
    let mut attempt = 0;
    let (path, known) = loop {
        attempt += 1;
        let (path, known) = record_trace("real").await?;
        let too_long = on_the_cli(&path, &known)?;
        if too_long.is_empty() {
            break (path, known);
        }
        eprintln!("recording {attempt} stretched by the machine: {too_long:?}");
        assert!(
            attempt < 3,
            "three recordings in a row were stretched: {too_long:?}"
        );
    };
    on_the_page(&path, &known).await
}

fn on_the_cli(path: &std::path::Path, known: &[Known]) -> Result<Vec<String>> {
    let csv = artifacts_dir().join("recorded-trace-real-tasks.csv");
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
    let too_long = check_tasks(known, &tasks);
    // The 120 ms task is a long task: the summary counts it.
    assert!(report["trace"]["long_tasks"].as_u64().unwrap() >= 1);
    assert!(
        report["trace"]["longest"][0]["duration_ms"]
            .as_f64()
            .unwrap()
            >= 119.8
    );

    // The same trace gzip-compressed, under a name that does not say so.
    let gz = artifacts_dir().join("recorded-trace-real.trace");
    {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&std::fs::read(path)?)?;
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
    Ok(too_long)
}

/// The page's table against the CLI's. Trace durations are whole µs, so a
/// figure can end in exactly 5 at the second decimal, which the page
/// (`toFixed`) rounds up and Rust rounds to even: cells may differ by 0.1.
fn same_table(got: &[(String, Vec<String>)], want: &[(String, Vec<String>)]) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g.0, w.0);
        for (a, b) in g.1.iter().zip(&w.1) {
            let (x, y): (f64, f64) = (a.parse().unwrap(), b.parse().unwrap());
            assert!(
                (x - y).abs() < 0.1 + 1e-9,
                "{}: {a} vs {b} in {got:?} vs {want:?}",
                g.0
            );
        }
    }
}

/// (arrival, duration) of each task of the page's imported task list.
fn list_tasks(text: &str) -> Vec<(f64, f64)> {
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].parse().unwrap(), f[1].parse().unwrap())
        })
        .collect()
}

async fn on_the_page(path: &std::path::Path, known: &[Known]) -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&p=fifo,rr,srpt").await?;
    assert_eq!(open_trace(&b, path, T).await?, "ready");
    // The tasks the page runs are the CLI's, and the known ones are there.
    let tasks = b.eval_js("return window.tailslice.trace.tasks;").await?;
    let tasks = list_tasks(tasks.as_str().unwrap());
    assert_eq!(check_tasks(known, &tasks), Vec::<String>::new());
    let want = cli_table(&[
        "--trace-in",
        path.to_str().unwrap(),
        "--policies",
        "fifo,rr,srpt",
    ])?;
    let got = table(&b).await?;
    same_table(&got, &want);
    assert_eq!(got[0].0, "recorded");
    responsiveness_section(&b, path).await?;
    // What was found, before the results, and the promise about privacy.
    let found = b.text("#trace-lines").await?;
    assert!(
        found.contains("CrRendererMain") && found.contains("long tasks (≥ 50 ms)"),
        "{found}"
    );
    let panel = b.text("#tasks-panel").await?;
    assert!(panel.contains("never leaves your browser"), "{panel}");
    // Not in the URL.
    assert_eq!(b.current_url().await?.query(), Some("v=1&p=fifo,rr,srpt"));
    // The thread picker lists every candidate; all at t = 0 is one click.
    let options = b
        .eval_js("return document.querySelectorAll('#trace-thread option').length;")
        .await?;
    assert!(options.as_u64().unwrap() >= 1);
    let n = updates(&b).await?;
    b.click("#trace-t0").await?;
    b.wait_js(&format!("Number(document.body.dataset.updates) > {n} && document.body.dataset.state === 'ready' && document.body.dataset.trace === 'ready'"), T).await?;
    let t0 = cli_table(&[
        "--trace-in",
        path.to_str().unwrap(),
        "--policies",
        "fifo,rr,srpt",
        "--arrivals",
        "t0",
    ])?;
    same_table(&table(&b).await?, &t0);
    // Done: no status line left, and the page's summary does not speak of
    // the CLI's --thread (it has the picker).
    let status_shown = b
        .eval_js("return document.querySelector('#trace-status').offsetParent !== null;")
        .await?;
    assert_eq!(status_shown, Value::Bool(false));
    assert!(!b.text("#trace-lines").await?.contains("--thread"));
    // In Chinese, the summary is Rust's Chinese text.
    b.eval_js("document.querySelector('#lang').value = 'zh'; document.querySelector('#lang').dispatchEvent(new Event('change')); return true;").await?;
    let zh = b.text("#trace-lines").await?;
    assert!(zh.contains("个任务") && zh.contains("总阻塞时间"), "{zh}");
    // (All at t = 0 is on here: the first row runs the tasks whole.)
    let zh = b.text("#resp-reading").await?;
    assert!(zh.starts_with("每个任务整体运行时，输入平均等待"), "{zh}");
    b.screenshot("trace-imported").await?;
    // On a phone the summary wraps instead of widening the page.
    b.set_window_size(360, 800).await?;
    assert_no_sideways_scroll(&b).await?;
    b.set_window_size(1280, 900).await?;

    // The same trace gzip-compressed (inflated by the browser), then bad
    // files: each gets one message, and the page keeps working.
    let dir = artifacts_dir();
    let gz = dir.join("recorded-trace-real.json.gz");
    {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&std::fs::read(path)?)?;
        std::fs::write(&gz, enc.finish()?)?;
    }
    b.eval_js("document.querySelector('#lang').value = 'en'; document.querySelector('#lang').dispatchEvent(new Event('change')); document.querySelector('#trace-t0').checked = false; return true;").await?;
    assert_eq!(open_trace(&b, &gz, T).await?, "ready");
    same_table(&table(&b).await?, &want);
    let full = std::fs::read(path)?;
    let bad: Vec<(&str, Vec<u8>, &str)> = vec![
        ("cut.json", full[..full.len() / 2].to_vec(), "cut short"),
        (
            "profile.cpuprofile",
            br#"{"nodes":[],"startTime":0,"samples":[]}"#.to_vec(),
            "CPU profile",
        ),
        (
            "random.json",
            br#"{"hello":"world"}"#.to_vec(),
            "traceEvents",
        ),
        (
            "broken.json.gz",
            vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3, 4],
            "gzip",
        ),
        (
            "nomain.json",
            br#"[{"ph":"X","name":"RunTask","pid":1,"tid":2,"ts":1,"dur":1}]"#.to_vec(),
            "no renderer main thread",
        ),
        (
            "badts.json",
            br#"[{"ph":"X","name":"RunTask","pid":1,"tid":2,"ts":"x","dur":1}]"#.to_vec(),
            "'ts' must be a number",
        ),
    ];
    // A 1 GB file (sparse: no disk used) is refused before it is read.
    let huge = dir.join("bad-huge.json");
    std::fs::File::create(&huge)?.set_len(1 << 30)?;
    assert_eq!(open_trace(&b, &huge, T).await?, "error");
    let msg = b.text("#trace-error").await?;
    assert!(msg.contains("at most 268435456 bytes"), "{msg}");
    let _ = std::fs::remove_file(&huge);
    for (name, bytes, want_msg) in bad {
        let p = dir.join(format!("bad-{name}"));
        std::fs::write(&p, bytes)?;
        assert_eq!(open_trace(&b, &p, T).await?, "error", "{name}");
        let msg = b.text("#trace-error").await?;
        assert!(msg.contains(want_msg), "{name}: {msg}");
        // Still responsive: the last good run is still shown.
        same_table(&table(&b).await?, &want);
    }
    b.finish().await
}

/// The recorded trace's Responsiveness section: its recorded row is the
/// CLI's (`tailslice responsiveness --json`), with the trace summary's
/// total blocking time; both charts are drawn; the reading is the CLI's.
async fn responsiveness_section(b: &Browser, path: &std::path::Path) -> Result<()> {
    b.wait_js(
        "!document.querySelector('#responsiveness').hidden && \
         document.querySelector('#responsiveness').dataset.query === document.body.dataset.query",
        T,
    )
    .await?;
    let p = path.to_str().unwrap();
    let cli: Value =
        serde_json::from_str(&run_cli(["responsiveness", "--trace-in", p, "--json"])?)?;
    let sim: Value = serde_json::from_str(&run_cli(["simulate", "--trace-in", p, "--json"])?)?;
    let rec = &cli["rows"][0];
    assert!(rec["quantum_ms"].is_null());
    assert_eq!(rec["tbt_ms"], sim["trace"]["total_blocking_ms"]);
    let cell = |q: &str, m: &str| {
        format!("return document.querySelector('table#responsiveness-results tr[data-quantum=\"{q}\"] td[data-metric=\"{m}\"]').textContent;")
    };
    for (metric, want) in [
        (
            "mean",
            format!("{:.2}", rec["input_delay_ms"]["mean"].as_f64().unwrap()),
        ),
        (
            "p98",
            format!("{:.1}", rec["input_delay_ms"]["p98"].as_f64().unwrap()),
        ),
        ("tbt", format!("{:.1}", rec["tbt_ms"].as_f64().unwrap())),
    ] {
        assert_eq!(
            b.eval_js(&cell("recorded", metric)).await?,
            Value::String(want),
            "{metric}"
        );
    }
    // The 120 ms busy-wait is a long task as recorded, not at q = 16 ms.
    assert!(rec["tbt_ms"].as_f64().unwrap() >= 69.8);
    assert_eq!(
        b.eval_js(&cell("16", "tbt")).await?,
        Value::String("0.0".into())
    );
    for c in ["#resp-cdf", "#resp-tradeoff"] {
        assert!(ink(b, c).await? > 0.01, "{c} is blank");
    }
    let reading = b.text("#resp-reading").await?;
    assert!(
        reading.starts_with(cli["reading"][0].as_str().unwrap()),
        "{reading}"
    );
    Ok(())
}
