//! The Responsiveness section in headless Chromium: a trace opened through
//! `input#trace-file` shows it first, above the latency table, with the
//! recorded row and the row sliced at the page's quantum equal to
//! `tailslice responsiveness --json`, its two charts drawn and its reading,
//! in English and Chinese; its settings live in the URL; the ten longest
//! tasks select their task in the Gantt; all at t = 0 compares the
//! policies with each other; a task list with arrival times has the
//! section, one of durations alone does not; "Use my measured yield cost"
//! takes Run for real's cost of one yield into the URL and the rows.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value};
use tailslice_e2e::page::{ink, open_ready, updates};
use tailslice_e2e::{artifacts_dir, run_cli, Browser, Result};

const T: Duration = Duration::from_secs(60);

/// A trace: one renderer main thread with long and short tasks and idle
/// gaps between them (a second renderer has a few tasks of its own).
fn trace_file() -> PathBuf {
    const T0: f64 = 98_765_432_000.0;
    let mut ev = vec![
        json!({"ph": "M", "name": "thread_name", "pid": 20, "tid": 1, "args": {"name": "CrRendererMain"}}),
        json!({"ph": "M", "name": "process_name", "pid": 20, "args": {"name": "Renderer"}}),
    ];
    let mut t = 0.0;
    for i in 0..60u32 {
        let d = match i {
            7 => 275.0,
            _ if i % 9 == 4 => 55.0 + f64::from(i % 4) * 35.0,
            _ => 1.0 + f64::from((i * 37) % 13),
        };
        ev.push(json!({"ph": "X", "name": "RunTask", "pid": 20, "tid": 1, "ts": T0 + t * 1000.0, "dur": d * 1000.0}));
        ev.push(json!({"ph": "X", "name": if i % 2 == 0 { "FunctionCall" } else { "EventDispatch" }, "pid": 20, "tid": 1, "ts": T0 + t * 1000.0 + 3.0, "dur": d * 800.0}));
        t += d + 6.0 + f64::from((i * 53) % 50);
    }
    let path = artifacts_dir().join("responsiveness-trace.json");
    std::fs::write(
        &path,
        serde_json::to_vec(&json!({ "traceEvents": ev })).unwrap(),
    )
    .unwrap();
    path
}

/// Opens `path` with the page's trace picker and waits until its run and
/// its Responsiveness section are shown.
async fn open_trace(b: &Browser, path: &std::path::Path) -> Result<()> {
    let n = updates(b).await?;
    b.eval_js("document.querySelector('#tasks-panel').open = true; return true;")
        .await?;
    b.find("#trace-file")
        .await?
        .send_keys(path.to_str().unwrap())
        .await?;
    b.wait_js(
        &format!(
            "document.body.dataset.trace === 'ready' && Number(document.body.dataset.updates) > {n} \
             && document.body.dataset.state === 'ready'"
        ),
        T,
    )
    .await?;
    section_ready(b).await
}

/// Waits until the section shows the current result.
async fn section_ready(b: &Browser) -> Result<()> {
    b.wait_js(
        "document.body.dataset.state === 'ready' && \
         document.querySelector('#responsiveness').dataset.query === document.body.dataset.query",
        T,
    )
    .await?;
    Ok(())
}

/// `tr[data-quantum] → {metric: text}` of the section's table.
async fn section_table(b: &Browser) -> Result<Vec<(String, Value)>> {
    let v = b
        .eval_js(
            "return [...document.querySelectorAll('table#responsiveness-results tr[data-quantum]')].map(tr => \
             [tr.dataset.quantum, Object.fromEntries([...tr.querySelectorAll('td[data-metric]')].map(td => [td.dataset.metric, td.textContent]))]);",
        )
        .await?;
    Ok(v.as_array()
        .ok_or("no table")?
        .iter()
        .map(|r| (r[0].as_str().unwrap_or("").to_string(), r[1].clone()))
        .collect())
}

/// The CLI's rows for the same tasks: `responsiveness --trace-in … --json`.
fn cli(args: &[&str]) -> Result<Value> {
    let mut all = vec!["responsiveness", "--json"];
    all.extend_from_slice(args);
    let out = run_cli(&all)?;
    Ok(serde_json::from_str(&out)?)
}

/// The page's row equals the CLI's, as the table formats it.
fn same_row(page: &Value, cli: &Value, what: &str) {
    let d = &cli["input_delay_ms"];
    let want = [
        ("mean", format!("{:.2}", d["mean"].as_f64().unwrap())),
        ("p98", format!("{:.1}", d["p98"].as_f64().unwrap())),
        ("max", format!("{:.1}", d["max"].as_f64().unwrap())),
        ("tbt", format!("{:.1}", cli["tbt_ms"].as_f64().unwrap())),
        ("long", cli["long_tasks"].to_string()),
        ("yields", cli["yields"].to_string()),
    ];
    for (k, v) in want {
        assert_eq!(page[k].as_str(), Some(v.as_str()), "{what}: {k} in {page}");
    }
}

fn row_at(cli: &Value, q: Option<f64>) -> &Value {
    cli["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["quantum_ms"].as_f64() == q)
        .unwrap()
}

#[tokio::test]
async fn a_trace_shows_its_responsiveness_first() -> Result<()> {
    let path = trace_file();
    let p = path.to_str().unwrap();
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&p=fifo,rr").await?;
    assert_eq!(
        b.eval_js("return document.querySelector('#responsiveness').hidden;")
            .await?,
        Value::Bool(true),
        "no section before a trace is open"
    );
    open_trace(&b, &path).await?;

    // First, above the latency table.
    let order = b
        .eval_js(
            "const s = document.querySelector('section#responsiveness'); \
             return !s.hidden && !!(s.compareDocumentPosition(document.querySelector('#percentiles')) & Node.DOCUMENT_POSITION_FOLLOWING);",
        )
        .await?;
    assert_eq!(order, Value::Bool(true));

    // The recorded row and the row at the page's quantum (16 ms) are the CLI's.
    let want = cli(&["--trace-in", p])?;
    let rows = section_table(&b).await?;
    let keys: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(keys, ["recorded", "16"]);
    same_row(&rows[0].1, row_at(&want, None), "recorded");
    same_row(&rows[1].1, row_at(&want, Some(16.0)), "q = 16");
    // The recorded TBT is the trace summary's.
    let sim: Value = serde_json::from_str(&run_cli(["simulate", "--trace-in", p, "--json"])?)?;
    assert_eq!(
        rows[0].1["tbt"].as_str().unwrap(),
        format!("{:.1}", sim["trace"]["total_blocking_ms"].as_f64().unwrap())
    );
    assert_eq!(rows[1].1["tbt"].as_str(), Some("0.0"));

    // Both charts are drawn; the reading is the CLI's.
    for c in ["#resp-cdf", "#resp-tradeoff"] {
        assert!(ink(&b, c).await? > 0.01, "{c} is blank");
    }
    let reading = b.text("#resp-reading").await?;
    let first = want["reading"][0].as_str().unwrap();
    assert!(reading.starts_with(first), "{reading}\nvs {first}");
    assert!(
        reading.contains("Your trace favours yielding every"),
        "{reading}"
    );
    let tbt = b.text("#resp-tbt").await?;
    assert!(tbt.starts_with("Total blocking time:"), "{tbt}");
    b.eval_js("document.querySelector('#resp-body .plots').scrollIntoView(); return true;")
        .await?;
    b.screenshot("responsiveness-en").await?;

    // In Chinese: Rust's Chinese reading, headings and charts.
    b.eval_js("document.querySelector('#lang').value = 'zh'; document.querySelector('#lang').dispatchEvent(new Event('change')); return true;").await?;
    b.wait_js(
        "document.querySelector('#responsiveness').dataset.lang === 'zh'",
        T,
    )
    .await?;
    let zh = b.text("#resp-reading").await?;
    assert!(zh.starts_with("按记录，输入平均等待"), "{zh}");
    assert!(zh.contains("你的 trace 适合"), "{zh}");
    assert_eq!(b.text("#h-resp").await?, "响应性");
    let heads = b.text("table#responsiveness-results thead").await?;
    assert!(heads.contains("输入延迟"), "{heads}");
    for c in ["#resp-cdf", "#resp-tradeoff"] {
        assert!(ink(&b, c).await? > 0.01, "{c} is blank in Chinese");
    }
    b.eval_js("document.querySelector('#resp-body .plots').scrollIntoView(); return true;")
        .await?;
    b.screenshot("responsiveness-zh").await?;
    b.eval_js("document.querySelector('#lang').value = 'en'; document.querySelector('#lang').dispatchEvent(new Event('change')); return true;").await?;

    // The settings are in the URL (not the trace) and reach the rows.
    let n = updates(&b).await?;
    b.eval_js("const s = document.querySelector('#resp-yield'); s.value = 'timeout'; s.dispatchEvent(new Event('change')); return true;").await?;
    b.wait_js(&format!("Number(document.body.dataset.updates) > {n}"), T)
        .await?;
    section_ready(&b).await?;
    let url = b.current_url().await?;
    let query = url.query().unwrap_or_default().to_string();
    assert!(query.starts_with("v=1&resp_yield=timeout"), "{query}");
    let want = cli(&["--trace-in", p, "--yield", "timeout"])?;
    let rows = section_table(&b).await?;
    same_row(&rows[1].1, row_at(&want, Some(16.0)), "timeout, q = 16");
    let reading = b.text("#resp-reading").await?;
    assert!(
        reading.contains("setTimeout(0) is clamped to 4 ms"),
        "{reading}"
    );
    // A bad cost is refused by name and changes nothing.
    b.eval_js("const c = document.querySelector('#resp-cost'); c.value = '-1'; c.dispatchEvent(new Event('change')); return true;").await?;
    let err = b.text("#resp-form-error").await?;
    assert!(err.contains("invalid resp_cost '-1'"), "{err}");
    assert_eq!(b.current_url().await?.query(), Some(query.as_str()));

    // "Use my measured yield cost" before any real run says what to do.
    b.click("#resp-use-measured").await?;
    let err = b.text("#resp-form-error").await?;
    assert!(err.contains("Run for real first"), "{err}");

    // The ten longest tasks: a row selects its task in the Gantt.
    let longest = b
        .eval_js("return document.querySelectorAll('#trace-longest tbody tr').length;")
        .await?;
    assert_eq!(longest.as_u64(), Some(10));
    let first = b.text("#trace-longest tbody tr:first-child").await?;
    assert!(first.contains("275.0"), "{first}");
    b.click("#trace-longest tbody tr:first-child").await?;
    let selected = b
        .eval_js("return document.querySelector('#trace-longest tbody tr:first-child').getAttribute('aria-selected');")
        .await?;
    assert_eq!(selected, Value::String("true".into()));
    let summary = b.text("#trace-lines").await?;
    assert!(
        summary.contains("CrRendererMain") && summary.contains("long tasks (≥ 50 ms)"),
        "{summary}"
    );
    assert!(
        !summary.contains("longest tasks (start ms"),
        "the longest tasks are a table, not lines: {summary}"
    );

    // All at t = 0: the recorded row is no baseline; the policies are
    // compared with the first policy, and the reading says so.
    let n = updates(&b).await?;
    b.click("#trace-t0").await?;
    b.wait_js(&format!("Number(document.body.dataset.updates) > {n} && document.body.dataset.trace === 'ready'"), T)
        .await?;
    section_ready(&b).await?;
    let changes = b
        .eval_js("return [...document.querySelectorAll('table#percentiles tr[data-policy]')].map(tr => [tr.dataset.policy, !!tr.querySelector('td[data-change]')]);")
        .await?;
    assert_eq!(
        changes,
        json!([["recorded", false], ["fifo", false], ["rr", true]])
    );
    let title = b
        .eval_js("return document.querySelector('table#percentiles tr[data-policy=rr] td[data-metric=mean]').title;")
        .await?;
    assert!(title.as_str().unwrap().contains("FIFO"), "{title}");
    let reading = b.text("#explanation").await?;
    assert!(reading.contains("not with that row"), "{reading}");
    // The section then describes the tasks all posted at once.
    let want = cli(&["--trace-in", p, "--arrivals", "t0", "--yield", "timeout"])?;
    let rows = section_table(&b).await?;
    same_row(&rows[0].1, row_at(&want, None), "t0 whole tasks");
    b.finish().await
}

#[tokio::test]
async fn task_lists_with_arrival_times_have_the_section() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&p=fifo,rr&q=8&resp_quanta=4,48").await?;
    let mut text = String::from("arrival_ms,duration_ms\n");
    for i in 0..40u32 {
        let d = if i % 8 == 3 {
            90.0
        } else {
            2.0 + f64::from(i % 5)
        };
        text.push_str(&format!("{},{d}\n", f64::from(i) * 40.0));
    }
    let n = updates(&b).await?;
    b.eval_js(&format!(
        "document.querySelector('#tasks-panel').open = true; document.querySelector('#tasks-text').value = {}; return true;",
        serde_json::to_string(&text)?
    ))
    .await?;
    b.click("#tasks-use").await?;
    b.wait_js(&format!("Number(document.body.dataset.updates) > {n}"), T)
        .await?;
    section_ready(&b).await?;
    let list = artifacts_dir().join("responsiveness-list.csv");
    std::fs::write(&list, &text)?;
    let want = cli(&["--tasks-file", list.to_str().unwrap(), "--quanta", "4,48,8"])?;
    let rows = section_table(&b).await?;
    let keys: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(keys, ["recorded", "8"]);
    same_row(&rows[0].1, row_at(&want, None), "whole tasks");
    same_row(&rows[1].1, row_at(&want, Some(8.0)), "q = 8");
    let name = b
        .text("table#responsiveness-results tr[data-quantum=recorded] th")
        .await?;
    assert_eq!(name, "whole tasks");
    // Durations alone (all at t = 0) are no timeline: no section.
    let n = updates(&b).await?;
    b.eval_js("document.querySelector('#tasks-text').value = '5\\n12\\n80\\n'; return true;")
        .await?;
    b.click("#tasks-use").await?;
    b.wait_js(&format!("Number(document.body.dataset.updates) > {n} && document.body.dataset.state === 'ready'"), T)
        .await?;
    b.wait_js(
        "document.querySelector('#responsiveness').hidden === true",
        T,
    )
    .await?;
    b.finish().await
}

#[tokio::test]
async fn the_measured_yield_cost_comes_from_run_for_real() -> Result<()> {
    // Cross-origin isolated: a clock fine enough to time single yields.
    let b = Browser::start_isolated().await?;
    open_ready(
        &b,
        "/?v=1&p=fifo,rr&q=8&real_scale=1&real_repeats=1&real_yield=message",
    )
    .await?;
    let mut text = String::from("arrival_ms,duration_ms\n");
    for i in 0..12u32 {
        let d = if i % 4 == 1 {
            30.0
        } else {
            2.0 + f64::from(i % 3)
        };
        text.push_str(&format!("{},{d}\n", f64::from(i) * 20.0));
    }
    let n = updates(&b).await?;
    b.eval_js(&format!(
        "document.querySelector('#tasks-panel').open = true; document.querySelector('#tasks-text').value = {}; return true;",
        serde_json::to_string(&text)?
    ))
    .await?;
    b.click("#tasks-use").await?;
    b.wait_js(&format!("Number(document.body.dataset.updates) > {n}"), T)
        .await?;
    section_ready(&b).await?;

    // Run for real with MessageChannel yields, then take its cost.
    b.wait_js("!document.querySelector('#real-run').disabled", T)
        .await?;
    b.click("#real-run").await?;
    b.wait_js(
        "['done', 'invalid'].includes(document.querySelector('#real-status').dataset.state)",
        T,
    )
    .await?;
    assert_eq!(
        b.attr("#real-status", "data-state").await?.as_deref(),
        Some("done")
    );
    let measured = b
        .eval_js(
            "const r = window.tailslice.realRun.report; return [r.yield_used, r.yield_cost.ms];",
        )
        .await?;
    assert_eq!(measured[0], "message");
    let ms = measured[1].as_f64().ok_or("no yield cost measured")?;
    let n = updates(&b).await?;
    b.click("#resp-use-measured").await?;
    b.wait_js(&format!("Number(document.body.dataset.updates) > {n}"), T)
        .await?;
    section_ready(&b).await?;

    // The URL holds the primitive, the cost (to 0.1 µs) and its origin.
    let url = b.current_url().await?;
    let keys: std::collections::HashMap<String, String> = url.query_pairs().into_owned().collect();
    assert_eq!(
        keys.get("resp_yield").map(String::as_str),
        Some("message"),
        "{url}"
    );
    assert_eq!(
        keys.get("resp_cost_from").map(String::as_str),
        Some("measured"),
        "{url}"
    );
    let cost = keys.get("resp_cost").ok_or("no resp_cost")?;
    assert!(
        (cost.parse::<f64>()? - ms).abs() <= 0.5e-4,
        "{cost} vs {ms}"
    );
    let shown = b
        .eval_js("return document.querySelector('#resp-cost').value;")
        .await?;
    assert_eq!(shown.as_str(), Some(cost.as_str()));
    // The sliced row is the CLI's at that cost.
    let list = artifacts_dir().join("responsiveness-measured.csv");
    std::fs::write(&list, &text)?;
    let want = cli(&[
        "--tasks-file",
        list.to_str().unwrap(),
        "--quanta",
        "8",
        "--yield",
        "message",
        "--yield-cost",
        cost,
    ])?;
    let rows = section_table(&b).await?;
    same_row(&rows[1].1, row_at(&want, Some(8.0)), "measured cost, q = 8");
    let about = b.text("#resp-about").await?;
    assert!(
        about.contains(&format!(
            "each yield costs {cost} ms (the median measured by Run for real)"
        )),
        "{about}"
    );
    b.finish().await
}

#[tokio::test]
async fn bad_section_keys_in_a_link_are_named() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&resp_yield=auto&resp_window=5-1").await?;
    let banner = b.text("#error").await?;
    assert!(banner.contains("resp_yield"), "{banner}");
    assert!(banner.contains("resp_window"), "{banner}");
    // The bad values fall back to the defaults and leave the link.
    let url = b.current_url().await?;
    assert!(!url.query().unwrap_or("").contains("resp_"), "{url}");
    b.finish().await
}
