//! Your own tasks and exports in headless Chromium: a pasted list gives the
//! same table as `tailslice simulate --tasks-file`, a bad line is reported
//! with its number, uploads work, the experiment file restores the view,
//! and the Chrome trace / CSV / PNG downloads are what they should be
//! (captured from the page's download hook, `window.tailslice.lastDownload`).

use std::collections::HashMap;
use std::time::Duration;

use serde_json::Value;
use tailslice_e2e::page::{cli_table, open_ready, table, updates, wait_ready};
use tailslice_e2e::{run_cli, Browser, Result};

const T: Duration = Duration::from_secs(30);

/// A task list with arrivals and classes, written to a temporary file.
fn task_list(tag: &str) -> (String, std::path::PathBuf) {
    let mut text = String::from("arrival_ms,duration_ms,class\n# a comment\n");
    for i in 0..300u32 {
        let arrival = (i * 7 % 500) as f64 * 1.5;
        let dur = match i % 10 {
            0 => 120.0 + (i % 7) as f64 * 13.25,
            1 | 2 => 15.5 + (i % 5) as f64,
            _ => 1.0 + (i % 9) as f64 * 0.75,
        };
        let class = match i % 10 {
            0 => "batch",
            1 | 2 => "io",
            _ => "ui",
        };
        text.push_str(&format!("{arrival},{dur},{class}\n"));
    }
    let path = std::env::temp_dir().join(format!(
        "tailslice-e2e-tasks-{tag}-{}.csv",
        std::process::id()
    ));
    std::fs::write(&path, &text).unwrap();
    (text, path)
}

async fn paste_tasks(b: &Browser, text: &str) -> Result<()> {
    b.eval_js(&format!(
        "document.querySelector('#tasks-panel').open = true; \
         document.querySelector('#tasks-text').value = {}; return true;",
        serde_json::to_string(text)?
    ))
    .await?;
    b.click("#tasks-use").await?;
    Ok(())
}

/// Clicks `button` and returns the text of the file it downloads.
async fn download_text(b: &Browser, button: &str) -> Result<(String, String)> {
    let before = b
        .eval_js("return window.tailslice.downloads || 0;")
        .await?
        .as_u64()
        .unwrap_or(0);
    b.click(button).await?;
    b.wait_js(&format!("(window.tailslice.downloads || 0) > {before}"), T)
        .await?;
    let v = b
        .eval_js_async(
            "const done = arguments[arguments.length - 1]; const d = window.tailslice.lastDownload; \
             d.blob.text().then(t => done([d.name, t]));",
        )
        .await?;
    Ok((
        v[0].as_str().unwrap().to_string(),
        v[1].as_str().unwrap().to_string(),
    ))
}

#[tokio::test]
async fn pasted_tasks_give_the_clis_table() -> Result<()> {
    let (text, path) = task_list("paste");
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&q=8&p=fifo,rr,srpt&cs=0.2").await?;
    let n = updates(&b).await?;
    paste_tasks(&b, &text).await?;
    wait_ready(&b, n + 1).await?;
    let want = cli_table(&[
        "--tasks-file",
        path.to_str().unwrap(),
        "--quantum",
        "8",
        "--policies",
        "fifo,rr,srpt",
        "--switch-cost",
        "0.2",
    ])?;
    assert_eq!(table(&b).await?, want);
    // Not in the URL, and the page says so.
    assert_eq!(
        b.current_url().await?.query(),
        Some("v=1&q=8&p=fifo,rr,srpt&cs=0.2")
    );
    let note = b.text("#tasks-note").await?;
    assert!(
        note.contains("300 imported tasks") && note.contains("not in the link"),
        "{note}"
    );
    // The legend is drawn on the canvas by Rust; its words describe the
    // canvas (aria-describedby) in a visually hidden element.
    let legend = b
        .eval_js("return document.querySelector('#legend').textContent;")
        .await?
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        legend.contains("batch") && legend.contains("ui"),
        "{legend}"
    );
    // Names of imported classes are names, not ranges in ms.
    assert!(!legend.contains(" ms"), "{legend}");
    b.screenshot("io-imported").await?;

    // Back to generated tasks.
    let n = updates(&b).await?;
    b.click("#tasks-clear").await?;
    wait_ready(&b, n + 1).await?;
    assert_eq!(
        table(&b).await?,
        cli_table(&[
            "--quantum",
            "8",
            "--policies",
            "fifo,rr,srpt",
            "--switch-cost",
            "0.2"
        ])?
    );
    assert!(b.find("#tasks-note").await?.attr("hidden").await?.is_some());

    // Upload the same list as a file.
    b.eval_js("document.querySelector('#tasks-panel').open = true; return true;")
        .await?;
    let n = updates(&b).await?;
    b.find("#tasks-file")
        .await?
        .send_keys(path.to_str().unwrap())
        .await?;
    wait_ready(&b, n + 1).await?;
    assert_eq!(table(&b).await?, want);
    let note = b.text("#tasks-note").await?;
    assert!(note.contains("tailslice-e2e-tasks-"), "{note}");
    let _ = std::fs::remove_file(&path);
    b.finish().await
}

#[tokio::test]
async fn a_bad_line_is_reported_with_its_number() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    let n = updates(&b).await?;
    paste_tasks(&b, "5\n12.5\n\n# comment\nabc\n7\n").await?;
    b.wait_js("!document.querySelector('#tasks-error').hidden", T)
        .await?;
    let msg = b.text("#tasks-error").await?;
    assert!(msg.starts_with("Line 5:"), "{msg}");
    assert!(msg.contains("'abc'"), "{msg}");
    assert_eq!(
        b.attr("#tasks-error", "data-line").await?.as_deref(),
        Some("5")
    );
    // Nothing ran; the table is still the study's.
    assert_eq!(updates(&b).await?, n);
    assert_eq!(
        b.text("tr[data-policy=fifo] td[data-metric=mean]").await?,
        "2661.3"
    );
    // Chinese frame around the line number.
    open_ready(&b, "/?lang=zh").await?;
    paste_tasks(&b, "1\n2\n0,1\n").await?;
    b.wait_js("!document.querySelector('#tasks-error').hidden", T)
        .await?;
    let msg = b.text("#tasks-error").await?;
    assert!(msg.starts_with("第 3 行："), "{msg}");
    // Hostile content stays text.
    paste_tasks(&b, "<img src=x onerror=window.__pwned=1>\n").await?;
    b.wait_js(
        "document.querySelector('#tasks-error').textContent.includes('<img')",
        T,
    )
    .await?;
    assert_eq!(
        b.eval_js(
            "return window.__pwned === undefined && !document.querySelector('#tasks-error img');"
        )
        .await?,
        serde_json::json!(true)
    );
    b.finish().await
}

#[tokio::test]
async fn exports_trace_csv_png_and_experiment_round_trip() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&seed=3&n=120&q=4&cores=2&p=fifo,rr,mlfq").await?;
    let segments = b
        .eval_js("return window.tailslice.segments;")
        .await?
        .as_u64()
        .unwrap();
    assert!(segments > 120);

    // Chrome trace: one slice per segment, metadata names, no overlap on a track.
    let (name, text) = download_text(&b, "#export-trace").await?;
    assert!(
        name.starts_with("tailslice-trace-") && name.ends_with(".json"),
        "{name}"
    );
    let trace: Value = serde_json::from_str(&text)?;
    let events = trace["traceEvents"].as_array().unwrap();
    let slices: Vec<&Value> = events.iter().filter(|e| e["ph"] == "X").collect();
    assert_eq!(slices.len() as u64, segments);
    assert!(events
        .iter()
        .any(|e| e["ph"] == "M" && e["name"] == "thread_name"));
    assert!(events
        .iter()
        .any(|e| e["ph"] == "M" && e["name"] == "process_name"));
    let mut tracks: HashMap<(u64, u64), Vec<(f64, f64)>> = HashMap::new();
    for s in &slices {
        tracks
            .entry((s["pid"].as_u64().unwrap(), s["tid"].as_u64().unwrap()))
            .or_default()
            .push((s["ts"].as_f64().unwrap(), s["dur"].as_f64().unwrap()));
    }
    assert_eq!(tracks.len(), 6, "3 policies × 2 cores");
    for (track, mut v) in tracks {
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        for w in v.windows(2) {
            assert!(
                w[0].0 + w[0].1 <= w[1].0 + 1e-6,
                "overlap on {track:?}: {w:?}"
            );
        }
    }
    // The same trace as the CLI's.
    let dir = std::env::temp_dir().join(format!("tailslice-e2e-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let cli_trace = dir.join("trace.json");
    run_cli([
        "simulate",
        "--seed",
        "3",
        "--tasks",
        "120",
        "--quantum",
        "4",
        "--cores",
        "2",
        "--policies",
        "fifo,rr,mlfq",
        "--trace",
        cli_trace.to_str().unwrap(),
    ])?;
    let cli: Value = serde_json::from_str(&std::fs::read_to_string(&cli_trace)?)?;
    assert_eq!(cli["traceEvents"], trace["traceEvents"]);

    // Per-task CSV: a header and one row per task and policy.
    let (name, csv) = download_text(&b, "#export-csv").await?;
    assert!(name.ends_with(".csv"));
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("policy,task,class,arrival_ms,work_ms"));
    assert_eq!(lines.len(), 1 + 120 * 3);

    // PNG of a chart.
    b.click("#export-png-cdf").await?;
    b.wait_js(
        "window.tailslice.lastDownload && window.tailslice.lastDownload.type === 'image/png'",
        T,
    )
    .await?;
    let png = b
        .eval_js("return [window.tailslice.lastDownload.name, window.tailslice.lastDownload.size];")
        .await?;
    assert!(png[0].as_str().unwrap().starts_with("tailslice-cdf-"));
    assert!(png[1].as_u64().unwrap() > 2000, "{png}");

    // Experiment file with imported tasks: download, leave, open it again.
    let (_, list) = {
        let (t, p) = task_list("export");
        let _ = std::fs::remove_file(p);
        ((), t)
    };
    let n = updates(&b).await?;
    paste_tasks(&b, &list).await?;
    wait_ready(&b, n + 1).await?;
    let imported = table(&b).await?;
    let (name, exp_json) = download_text(&b, "#tasks-download").await?;
    assert!(name.starts_with("tailslice-experiment-"), "{name}");
    let exp: Value = serde_json::from_str(&exp_json)?;
    assert_eq!(exp["format"], "tailslice-experiment");
    assert_eq!(exp["tasks"]["duration_ms"].as_array().unwrap().len(), 300);
    let file = dir.join("experiment.json");
    std::fs::write(&file, &exp_json)?;

    open_ready(&b, "/").await?;
    assert_eq!(
        b.text("tr[data-policy=fifo] td[data-metric=mean]").await?,
        "2661.3"
    );
    b.eval_js("document.querySelector('#tasks-panel').open = true; return true;")
        .await?;
    let n = updates(&b).await?;
    b.find("#experiment-file")
        .await?
        .send_keys(file.to_str().unwrap())
        .await?;
    wait_ready(&b, n + 1).await?;
    b.wait_js("document.body.dataset.tasks === '300'", T)
        .await?;
    assert_eq!(table(&b).await?, imported);
    assert_eq!(
        b.current_url().await?.query(),
        Some("v=1&seed=3&q=4&p=fifo,rr,mlfq&cores=2")
    );
    // A file that is not an experiment is refused with the reason.
    std::fs::write(
        &file,
        "{\"format\": \"nope\", \"version\": 1, \"params\": {}}",
    )?;
    b.find("#experiment-file")
        .await?
        .send_keys(file.to_str().unwrap())
        .await?;
    b.wait_js("!document.querySelector('#tasks-error').hidden", T)
        .await?;
    assert!(b.text("#tasks-error").await?.contains("format 'nope'"));
    let _ = std::fs::remove_dir_all(&dir);
    b.finish().await
}

/// "Figure (SVG)": the result as one SVG drawn by the charts' own code —
/// text as text, the table's cells the page's, small.
#[tokio::test]
async fn the_svg_figure_export() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    let (name, svg) = download_text(&b, "#export-svg").await?;
    assert!(
        name.starts_with("tailslice-figure-") && name.ends_with(".svg"),
        "{name}"
    );
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{}",
        &svg[..svg.len().min(200)]
    );
    assert!(svg.len() <= 60 * 1024, "{} bytes", svg.len());
    assert!(svg.trim_end().ends_with("</svg>"));
    for part in ["Schedule", "Latency CDF", "Task durations by class"] {
        assert!(svg.contains(&format!(">{part}</text>")), "no {part}");
    }
    // Every cell of the page's table is a text of the figure.
    for (_, cells) in table(&b).await? {
        for c in cells {
            assert!(svg.contains(&format!(">{c}</text>")), "no cell {c}");
        }
    }
    let mime = b
        .eval_js("return window.tailslice.lastDownload.type;")
        .await?;
    assert_eq!(mime, "image/svg+xml");
    b.finish().await
}
