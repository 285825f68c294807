//! What the panels say and where, as a visitor reads it: one reading under
//! the latency table; Run for real's empty tables before a run, its time
//! estimate per yield method, its yield cost with the coarse clock of a
//! page that is not cross-origin isolated, and its comparison after Stop;
//! a sweep's status under its own column. The sentences are Rust's (their
//! wording is tested there); these tests check that the page shows them
//! where and when it should, waiting on the page's own state.

use std::time::Duration;

use serde_json::Value;
use tailslice_e2e::page::{open_ready, updates, wait_ready};
use tailslice_e2e::{artifacts_dir, Browser, Result};

const RUN: Duration = Duration::from_secs(90);

/// Saves a PNG of the element `css` to `tests/artifacts/<name>.png`.
async fn shot(b: &Browser, css: &str, name: &str) -> Result<()> {
    b.eval_js(&format!(
        "document.querySelector('{css}').scrollIntoView({{block: 'center'}}); return true;"
    ))
    .await?;
    let png = b.find(css).await?.screenshot().await?;
    std::fs::write(artifacts_dir().join(format!("{name}.png")), png)?;
    Ok(())
}

async fn js_str(b: &Browser, expr: &str) -> Result<String> {
    Ok(b.eval_js(&format!("return {expr};"))
        .await?
        .as_str()
        .unwrap_or_default()
        .to_string())
}

#[tokio::test]
async fn one_reading_under_the_latency_table() -> Result<()> {
    let b = Browser::start().await?;
    for query in ["/", "/?p=fifo,rr,sjf,srpt", "/?lang=zh"] {
        open_ready(&b, query).await?;
        // Every paragraph with text between the table and the Schedule.
        let readings = b
            .eval_js(
                "const s = document.querySelector('#percentiles').closest('section'); \
                 return [...s.querySelectorAll('p')].filter(p => p.offsetParent !== null && p.textContent.trim()).map(p => p.textContent);",
            )
            .await?;
        let readings = readings.as_array().ok_or("readings")?;
        assert_eq!(readings.len(), 1, "{query}: {readings:?}");
    }
    open_ready(&b, "/").await?;
    let text = b.text("#explanation").await?;
    assert!(
        text.contains("the slowest task still finishes at 5209 ms"),
        "{text}"
    );
    b.finish().await
}

/// Clicks Run for real and waits for the run to end (`done` or `invalid`).
async fn run(b: &Browser) -> Result<()> {
    b.wait_js("!document.querySelector('#real-run').disabled", RUN)
        .await?;
    b.click("#real-run").await?;
    b.wait_js(
        "['done', 'invalid'].includes(document.querySelector('#real-status').dataset.state)",
        RUN,
    )
    .await?;
    Ok(())
}

/// Whether the table `css` is displayed (its box is rendered).
/// The yield cost Rust computes natively from the run's own raw
/// measurements (its file): the median of every gap of the complete
/// sliced passes when the clock resolves one gap (`resolved`), else the
/// median of the batches' cost per yield.
async fn rust_yield_cost(b: &Browser, resolved: bool) -> Result<f64> {
    use tailslice::realrun::measure::{Sample, YieldBatch};
    let file = b.eval_js("return window.tailslice.realRun.json();").await?;
    let file: Value = serde_json::from_str(file.as_str().ok_or("the run's file")?)?;
    let numbers = |v: &Value| -> Vec<f64> {
        v.as_array()
            .map(|a| a.iter().map(|x| x.as_f64().unwrap_or(f64::NAN)).collect())
            .unwrap_or_default()
    };
    let sample = if resolved {
        let gaps: Vec<f64> = file["passes"]
            .as_array()
            .ok_or("passes")?
            .iter()
            .filter(|p| {
                p["policy"] == "rr"
                    && p["stopped"] == Value::Bool(false)
                    && numbers(&p["completion"]).iter().all(|c| c.is_finite())
            })
            .flat_map(|p| numbers(&p["gaps"]))
            .collect();
        Sample::of(gaps)
    } else {
        let per_yield: Vec<f64> = file["yield_batches"]
            .as_array()
            .ok_or("yield_batches")?
            .iter()
            .filter_map(|x| {
                YieldBatch {
                    yields: x["yields"].as_u64()? as u32,
                    ms: x["ms"].as_f64()?,
                }
                .per_yield()
            })
            .collect();
        Sample::of(per_yield)
    };
    Ok(sample.ok_or("no yield was timed")?.p50)
}

async fn shown(b: &Browser, css: &str) -> Result<bool> {
    Ok(b.eval_js(&format!(
        "return document.querySelector('{css}').getClientRects().length > 0;"
    ))
    .await?
        == Value::Bool(true))
}

#[tokio::test]
async fn real_run_tables_appear_with_a_run_and_its_yield_cost_is_timed() -> Result<()> {
    // Not cross-origin isolated: performance.now() steps by 100 µs, longer
    // than a MessageChannel yield.
    let b = Browser::start().await?;
    open_ready(
        &b,
        "/?n=30&q=4&real_scale=0.05&real_repeats=1&real_yield=message",
    )
    .await?;
    // The panel's plan (and its notes) loads when the panel is reached.
    b.eval_js("document.querySelector('#real').scrollIntoView(); return true;")
        .await?;
    b.wait_js(
        "document.querySelector('#real-notes').textContent.length > 0",
        RUN,
    )
    .await?;
    assert!(
        !shown(&b, "#real-results").await?,
        "no empty table before a run"
    );
    assert!(
        !shown(&b, "#real-compare").await?,
        "no empty table before a run"
    );
    shot(&b, "#real", "panels-real-before-run").await?;
    run(&b).await?;
    assert!(shown(&b, "#real-results").await?);
    assert!(shown(&b, "#real-compare").await?);
    // The headings are Rust's: a row heading, then every figure, the
    // threshold at the run's scale (100 ms × 0.05).
    let heads = b
        .eval_js("return [...document.querySelectorAll('#real-results thead th')].map(th => th.textContent);")
        .await?;
    let heads: Vec<&str> = heads
        .as_array()
        .ok_or("heads")?
        .iter()
        .map(|h| h.as_str().unwrap_or_default())
        .collect();
    assert_eq!(heads.len(), 8, "{heads:?}");
    assert_eq!(heads[7], "done < 5 ms", "{heads:?}");
    let compare = b
        .eval_js("return [...document.querySelectorAll('#real-compare thead th')].map(th => th.textContent);")
        .await?;
    assert_eq!(compare.as_array().map(Vec::len), Some(3), "{compare}");
    // The yield cost: every yield of every complete sliced pass timed,
    // the cost the median of the gaps when the clock resolves one gap and
    // of the batches when it does not (the same figure, not a recount),
    // above zero, and the sentence shows it with the same digits rather
    // than 0.00.
    let report = b
        .eval_js("return window.tailslice.realRun.report.yield_cost;")
        .await?;
    let sliced_passes = b
        .eval_js(
            "return window.tailslice.realRun.report.compare.find(c => c.policy === 'rr').passes;",
        )
        .await?
        .as_f64()
        .ok_or("complete sliced passes")?;
    let per_pass = report["per_pass"].as_f64().ok_or("yields per pass")?;
    assert!(per_pass >= 1.0, "{report}");
    assert_eq!(
        report["gaps"]["n"].as_f64(),
        Some(per_pass * sliced_passes),
        "{report}"
    );
    let timed = if report["resolved"] == Value::Bool(true) {
        &report["gaps"]
    } else {
        &report["batches"]
    };
    assert_eq!(report["ms"], timed["p50"], "{report}");
    assert_eq!(report["p95"], timed["p95"], "{report}");
    let ms = report["ms"].as_f64().ok_or("a yield cost")?;
    assert_eq!(
        ms,
        rust_yield_cost(&b, report["resolved"] == Value::Bool(true)).await?,
        "{report}"
    );
    let step = report["step_ms"].as_f64().unwrap_or(0.0);
    let text = b.text("#real-yield-cost").await?;
    assert!(!text.contains(" 0.00 ms"), "{text}");
    // Compared in the page: the JSON that brings numbers out of the
    // browser may round a figure's last bit.
    let median = b
        .attr("#real-yield-cost", "data-median-ms")
        .await?
        .ok_or("data-median-ms")?;
    let same = b
        .eval_js(
            "return String(window.tailslice.realRun.report.yield_cost.ms) === \
             document.querySelector('#real-yield-cost').dataset.medianMs;",
        )
        .await?;
    assert_eq!(same, Value::Bool(true), "{median} vs {ms}");
    if report["resolved"] == Value::Bool(false) {
        // Timed in batches: the sentence names them and the clock's step.
        assert!(
            report["batches"]["n"].as_u64().unwrap_or(0) >= 1,
            "{report}"
        );
        assert!(text.contains("batches of"), "{text}");
        assert!(step >= 0.05, "a coarse clock: {step}");
    }
    let reading = b.text("#real-reading").await?;
    assert!(!reading.contains("Each yield cost"), "said once: {reading}");
    shot(&b, "#real", "panels-real-after-run").await?;
    b.finish().await
}

#[tokio::test]
async fn the_time_estimate_follows_the_yield_method() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?real_repeats=1&real_yield=message").await?;
    // The panel's plan (and its notes) loads when the panel is reached.
    b.eval_js("document.querySelector('#real').scrollIntoView(); return true;")
        .await?;
    let notes = || js_str(&b, "document.querySelector('#real-notes').textContent");
    b.wait_js(
        "document.querySelector('#real-notes').textContent.includes('a turn of the event loop')",
        RUN,
    )
    .await?;
    let message = notes().await?;
    assert!(message.contains("1 repeat of FIFO and sliced"), "{message}");
    assert!(!message.contains("1 repeats"), "{message}");
    for (kind, why) in [("raf", "a frame at 60 Hz"), ("timeout", "at least 4 ms")] {
        let n = updates(&b).await?;
        b.eval_js(&format!(
            "const s = document.querySelector('#real-yield'); s.value = '{kind}'; \
             s.dispatchEvent(new Event('change', {{bubbles: true}})); return true;"
        ))
        .await?;
        wait_ready(&b, n + 1).await?;
        b.wait_js(
            &format!("document.querySelector('#real-notes').textContent.includes('{why}')"),
            RUN,
        )
        .await?;
        let text = notes().await?;
        assert_ne!(text, message, "{kind}");
    }
    b.finish().await
}

#[tokio::test]
async fn after_stop_the_comparison_says_the_pass_was_stopped() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?real_scale=0.1&real_repeats=3&real_yield=message").await?;
    b.click("#real-run").await?;
    // The first sliced pass (the FIFO pass blocks the page first).
    b.wait_js(
        "document.querySelector('#real-status').textContent.includes('2 of 6')",
        RUN,
    )
    .await?;
    b.eval_js("document.querySelector('#real-stop').click(); return true;")
        .await?;
    b.wait_js(
        "document.querySelector('#real-status').dataset.state === 'done'",
        RUN,
    )
    .await?;
    let status = b.text("#real-status").await?;
    assert!(status.starts_with("Stopped"), "{status}");
    let cells = b
        .eval_js(
            "return [...document.querySelectorAll('#real-compare tbody tr')].map(tr => tr.querySelectorAll('td')[1].textContent);",
        )
        .await?;
    let cells = cells.as_array().ok_or("cells")?;
    assert_eq!(cells.len(), 6);
    for c in cells {
        let c = c.as_str().unwrap_or_default();
        assert!(c.starts_with("no complete pass"), "{c}");
    }
    shot(&b, "#real-compare", "panels-real-after-stop").await?;
    b.finish().await
}

#[tokio::test]
async fn a_sweeps_status_sits_under_its_own_column() -> Result<()> {
    let b = Browser::start().await?;
    b.set_window_size(1400, 1000).await?;
    open_ready(&b, "/?n=60").await?;
    b.eval_js(
        "document.querySelector('#sweep-quanta').value = '1-100'; \
         document.querySelector('#sweep-steps').value = '5'; \
         document.querySelector('#sweep-quanta-run').click(); return true;",
    )
    .await?;
    b.wait_js("document.body.dataset.sweep === 'done'", RUN)
        .await?;
    let text = b.text("#sweep-status-text").await?;
    assert!(text.contains("5 quanta in"), "{text}");
    // Under the quanta's column, not the seeds'.
    let lr = b
        .eval_js(
            "const s = document.querySelector('#sweep-status-text').getBoundingClientRect(); \
             const q = document.querySelector('#sweep-quanta').closest('.field').getBoundingClientRect(); \
             const d = document.querySelector('#sweep-seeds').closest('.field').getBoundingClientRect(); \
             return [s.left, q.left, q.right, d.right];",
        )
        .await?;
    let n = |i: usize| lr[i].as_f64().unwrap_or(f64::NAN);
    assert!(
        n(0) >= n(1) && n(0) < n(2) && n(0) > n(3),
        "status at {} px; quanta column {}..{}, seeds column ends at {}",
        n(0),
        n(1),
        n(2),
        n(3)
    );
    shot(&b, "#sweeps", "panels-sweep-status").await?;
    b.finish().await
}
