//! "Run for real" in headless Chromium. These tests check the runner's
//! accounting, not absolute times (the machine is shared and headless
//! Chromium is not a phone): the slices and yields are the model's `rr`
//! for the same tasks and quantum, every task spins at least its scaled
//! duration, completion order is the model's under FIFO and sliced, each
//! yield primitive runs, a hidden tab invalidates the run (DevTools
//! protocol), missing APIs say "not available", the page works cross-origin
//! isolated and not, and the settings are validated URL keys.

use std::time::Duration;

use serde_json::{json, Value};
use tailslice_e2e::page::{open_ready, wait_ready};
use tailslice_e2e::{Browser, Result};

const RUN: Duration = Duration::from_secs(60);

/// Clicks `#real-run` and waits for `done` or `invalid`; returns the run's JSON file.
async fn run(b: &Browser) -> Result<Value> {
    b.wait_js("!document.querySelector('#real-run').disabled", RUN)
        .await?;
    b.click("#real-run").await?;
    b.wait_js(
        "['done', 'invalid'].includes(document.querySelector('#real-status').dataset.state)",
        RUN,
    )
    .await?;
    let text = b.eval_js("return window.tailslice.realRun.json();").await?;
    Ok(serde_json::from_str(text.as_str().ok_or("no run JSON")?)?)
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_f64().unwrap_or(f64::NAN)).collect())
        .unwrap_or_default()
}

fn order(times: &[f64]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..times.len()).collect();
    idx.sort_by(|&a, &b| times[a].total_cmp(&times[b]).then(a.cmp(&b)));
    idx
}

/// The accounting every real run must satisfy.
fn check_accounting(file: &Value, repeats: usize) -> Result<()> {
    let work = floats(&file["work_ms"]);
    let q = file["quantum_ms"].as_f64().ok_or("quantum_ms")?;
    let plans = file["plan"].as_array().ok_or("plan")?;
    let passes = file["passes"].as_array().ok_or("passes")?;
    assert_eq!(
        passes.len(),
        2 * repeats,
        "one FIFO and one sliced pass per repeat"
    );
    for plan in plans {
        let policy = plan["policy"].as_str().unwrap_or_default();
        // `[task, length_ms, …]` pairs.
        let slices = plan["slices"].as_array().ok_or("slices")?.len() / 2;
        // Independent of the engine: at t = 0 on one core, rr gives each task
        // ceil(work / quantum) slices and FIFO one.
        let want: usize = match policy {
            "fifo" => work.len(),
            _ => work
                .iter()
                .map(|w| ((w / q) - 1e-9).ceil().max(1.0) as usize)
                .sum(),
        };
        assert_eq!(slices, want, "{policy}: slices in the plan");
        let model_order = order(&floats(&plan["simulated_completion_ms"]));
        assert_eq!(model_order.len(), work.len());
        let mine: Vec<&Value> = passes.iter().filter(|p| p["policy"] == policy).collect();
        assert_eq!(mine.len(), repeats);
        for p in mine {
            assert_eq!(
                p["slices"].as_u64(),
                Some(slices as u64),
                "{policy}: slices run"
            );
            let yields = p["yields"].as_u64().unwrap_or(u64::MAX) as usize;
            let gaps = p["gaps"].as_array().map_or(0, Vec::len);
            if policy == "rr" {
                assert_eq!(yields, slices - 1, "a yield between every two slices");
                assert_eq!(gaps, yields, "one gap per yield (no arrivals to wait for)");
                assert!(floats(&p["gaps"]).iter().all(|g| *g >= 0.0));
            } else {
                assert_eq!(yields, 0, "FIFO never yields");
                assert_eq!(gaps, 0);
            }
            let busy = floats(&p["busy"]);
            for (i, (b, w)) in busy.iter().zip(&work).enumerate() {
                assert!(b >= w, "{policy}: task {i} spun {b} ms < its {w} ms");
            }
            let completion = floats(&p["completion"]);
            assert!(completion.iter().all(|c| c.is_finite()));
            assert_eq!(
                order(&completion),
                model_order,
                "{policy}: completion order"
            );
        }
    }
    Ok(())
}

/// `table#real-results` as `(policy, kind, [6 metric texts])`.
async fn real_table(b: &Browser) -> Result<Vec<(String, String, Vec<String>)>> {
    let v = b
        .eval_js(
            "return [...document.querySelectorAll('table#real-results tr[data-policy]')].map(tr => \
             [tr.dataset.policy, tr.dataset.kind, ['mean','p50','p90','p95','p99','max'].map(m => \
             tr.querySelector(`td[data-metric=\"${m}\"]`).textContent)]);",
        )
        .await?;
    Ok(v.as_array()
        .ok_or("rows")?
        .iter()
        .map(|r| {
            (
                r[0].as_str().unwrap_or_default().to_string(),
                r[1].as_str().unwrap_or_default().to_string(),
                r[2].as_array()
                    .map(|a| {
                        a.iter()
                            .map(|c| c.as_str().unwrap_or_default().to_string())
                            .collect()
                    })
                    .unwrap_or_default(),
            )
        })
        .collect())
}

#[tokio::test]
async fn sliced_and_fifo_runs_follow_the_models_schedule() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(
        &b,
        "/?n=40&q=8&real_scale=0.05&real_repeats=2&real_yield=message",
    )
    .await?;
    let file = run(&b).await?;
    assert_eq!(
        b.attr("#real-status", "data-state").await?.as_deref(),
        Some("done")
    );
    check_accounting(&file, 2)?;
    assert_eq!(file["environment"]["yield_used"], "message");
    assert_eq!(file["scale"].as_f64(), Some(0.05));
    assert_eq!(file["quantum_ms"].as_f64(), Some(0.4));

    // The table: simulated and measured rows for fifo and rr, numbers in ms.
    let rows = real_table(&b).await?;
    let keys: Vec<(String, String)> = rows.iter().map(|r| (r.0.clone(), r.1.clone())).collect();
    assert_eq!(
        keys,
        [
            ("fifo", "simulated"),
            ("fifo", "measured"),
            ("rr", "simulated"),
            ("rr", "measured")
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    let report = &file["report"];
    for (policy, kind, cells) in &rows {
        let want = report["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["policy"] == *policy && r["kind"] == *kind)
            .unwrap();
        for (m, text) in ["mean", "p50", "p90", "p95", "p99", "max"]
            .iter()
            .zip(cells)
        {
            let v: f64 = text
                .parse()
                .map_err(|_| format!("{policy} {kind} {m}: '{text}'"))?;
            let w = want["values"][m].as_f64().unwrap();
            assert!(
                (v - w).abs() <= 0.005 + 1e-9,
                "{policy} {kind} {m}: {v} vs {w}"
            );
            if kind == "measured" {
                // Real slices are never shorter than the model's: no measured
                // latency percentile can undercut the simulated one by more
                // than the clock's step.
                let sim = report["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|r| r["policy"] == *policy && r["kind"] == "simulated")
                    .unwrap();
                assert!(
                    w >= sim["values"][m].as_f64().unwrap() - 0.2,
                    "{policy} {m}"
                );
            }
        }
    }
    let median = b
        .attr("#real-yield-cost", "data-median-ms")
        .await?
        .ok_or("median")?;
    let p95 = b
        .attr("#real-yield-cost", "data-p95-ms")
        .await?
        .ok_or("p95")?;
    let (median, p95): (f64, f64) = (median.parse()?, p95.parse()?);
    assert!(median >= 0.0 && p95 >= median, "{median} {p95}");
    assert!(!b.text("#real-reading").await?.is_empty());
    b.eval_js("document.querySelector('#real').scrollIntoView(); return true;")
        .await?;
    b.screenshot("realrun-panel").await?;

    // Results are not in the URL; the settings are.
    let url = b.current_url().await?;
    let q = url.query().unwrap_or_default().to_string();
    assert!(
        q.contains("real_scale=0.05")
            && q.contains("real_repeats=2")
            && q.contains("real_yield=message"),
        "{q}"
    );

    // Download: the raw data as JSON.
    b.click("#real-download").await?;
    b.wait_js("(window.tailslice.downloads || 0) >= 1", RUN)
        .await?;
    let name = b
        .eval_js("return window.tailslice.lastDownload.name;")
        .await?;
    assert!(
        name.as_str().unwrap_or_default().ends_with(".json"),
        "{name}"
    );

    // Feed the measured yield cost back into the model.
    b.click("#real-use-cost").await?;
    wait_ready(&b, 2).await?;
    let url = b.current_url().await?;
    let cs: f64 = url
        .query_pairs()
        .find(|(k, _)| k == "cs")
        .map(|(_, v)| v.parse().unwrap_or(f64::NAN))
        .unwrap_or(0.0);
    assert!(
        (cs - (median * 1e4).round() / 1e4).abs() < 1e-9,
        "cs={cs} median={median}"
    );
    b.finish().await
}

#[tokio::test]
async fn every_yield_primitive_runs() -> Result<()> {
    let b = Browser::start().await?;
    for y in ["scheduler", "message", "timeout", "raf"] {
        open_ready(
            &b,
            &format!("/?n=12&real_scale=0.02&real_repeats=1&real_yield={y}"),
        )
        .await?;
        let avail = b
            .eval_js(&format!(
                "return window.tailslice.realRun.available()['{y}'];"
            ))
            .await?;
        assert_eq!(avail, json!(true), "{y} is available in this Chromium");
        let file = run(&b).await?;
        assert_eq!(file["environment"]["yield_used"], y);
        check_accounting(&file, 1)?;
        let text = b.text("#real-status").await?;
        assert!(text.contains("Done"), "{y}: {text}");
    }
    b.finish().await
}

#[tokio::test]
async fn a_hidden_tab_invalidates_the_run() -> Result<()> {
    let b = Browser::start().await?;
    // Sliced first would be nicer, but FIFO comes first in repeat 0; with
    // 400 tasks at 0.2× the FIFO pass is about 1 s, then the sliced pass.
    open_ready(&b, "/?real_scale=0.2&real_repeats=2&real_yield=message").await?;
    b.click("#real-run").await?;
    b.wait_js(
        "document.querySelector('#real-status').dataset.state === 'running'",
        RUN,
    )
    .await?;
    // Freezing a page through the DevTools protocol hides it first (its
    // visibilitychange fires before the freeze); waking it afterwards
    // comes after that in the page's own order of events.
    b.cdp("Page.setWebLifecycleState", json!({ "state": "frozen" }))
        .await?;
    b.cdp("Page.setWebLifecycleState", json!({ "state": "active" }))
        .await?;
    b.wait_js(
        "document.querySelector('#real-status').dataset.state === 'invalid'",
        RUN,
    )
    .await?;
    let text = b.text("#real-status").await?;
    assert!(text.contains("hidden"), "{text}");
    // No measured numbers for an invalid run.
    let rows = real_table(&b).await?;
    for (policy, kind, cells) in rows {
        if kind == "measured" {
            assert!(cells.iter().all(|c| c == "—"), "{policy}: {cells:?}");
        }
    }
    let file: Value = serde_json::from_str(
        b.eval_js("return window.tailslice.realRun.json();")
            .await?
            .as_str()
            .unwrap_or("{}"),
    )?;
    assert_eq!(file["environment"]["invalid"], "hidden");
    b.finish().await
}

#[tokio::test]
async fn missing_apis_say_not_available() -> Result<()> {
    let b = Browser::start().await?;
    b.open("/").await?;
    // Before any script of the page runs: no scheduler.yield, no observers
    // of long tasks, long animation frames or events.
    b.cdp(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": "try { delete Scheduler.prototype.yield; } catch (e) {} \
            Object.defineProperty(PerformanceObserver, 'supportedEntryTypes', { get: () => ['mark', 'measure'] });" }),
    )
    .await?;
    open_ready(&b, "/?n=12&real_scale=0.02&real_repeats=1").await?;
    let opt = b
        .eval_js(
            "const o = document.querySelector('#real-yield option[value=scheduler]'); \
             return [o.disabled, o.textContent];",
        )
        .await?;
    assert_eq!(opt[0], json!(true));
    assert!(
        opt[1]
            .as_str()
            .unwrap_or_default()
            .contains("not available"),
        "{opt}"
    );
    let file = run(&b).await?;
    // auto falls back to a MessageChannel message.
    assert_eq!(file["environment"]["yield_used"], "message");
    check_accounting(&file, 1)?;
    for row in ["longtasks", "loafs", "input"] {
        for p in ["fifo", "rr"] {
            let t = b
                .text(&format!(
                    "#real-compare tr[data-row={row}] td[data-policy={p}]"
                ))
                .await?;
            assert_eq!(t, "not available", "{row} {p}");
        }
    }
    assert!(b
        .text("#real-reading")
        .await?
        .contains("Real input delay: not available"));
    // A bad setting in the URL: the banner names the key; the default is used.
    open_ready(&b, "/?real_repeats=0&real_yield=fast").await?;
    let banner = b.text("#error").await?;
    assert!(
        banner.contains("invalid real_repeats '0': expected a whole number from 1 to 20"),
        "{banner}"
    );
    assert!(banner.contains("invalid real_yield 'fast'"), "{banner}");
    assert_eq!(
        b.eval_js("return document.querySelector('#real-repeats').value;")
            .await?,
        "3"
    );
    b.finish().await
}

#[tokio::test]
async fn the_page_works_cross_origin_isolated_and_the_clock_is_fine() -> Result<()> {
    let b = Browser::start_isolated().await?;
    // A run big enough to go through the worker, so workers load isolated too.
    open_ready(&b, "/?n=200000&q=8").await?;
    assert_eq!(b.eval_js("return crossOriginIsolated;").await?, json!(true));
    open_ready(&b, "/?n=12&real_scale=0.02&real_repeats=1&lang=zh").await?;
    assert!(b.text("#real-env").await?.contains("跨源隔离：是"));
    let file = run(&b).await?;
    assert_eq!(file["environment"]["isolated"], json!(true));
    let step = file["environment"]["resolution_ms"].as_f64().unwrap_or(1.0);
    assert!(step <= 0.02, "isolated clock step {step} ms");
    assert!(b.text("#real-status").await?.contains("完成"));
    b.finish().await?;

    let b = Browser::start().await?;
    open_ready(&b, "/?n=12&real_scale=0.02&real_repeats=1").await?;
    assert_eq!(
        b.eval_js("return crossOriginIsolated;").await?,
        json!(false)
    );
    assert!(b
        .text("#real-env")
        .await?
        .contains("Cross-origin isolated: no"));
    b.finish().await
}

#[tokio::test]
async fn stop_takes_effect_at_a_slice_boundary() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?real_scale=0.1&real_repeats=3&real_yield=message").await?;
    b.click("#real-run").await?;
    // Wait for the first sliced pass (the FIFO pass blocks the page first).
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
    let text = b.text("#real-status").await?;
    assert!(text.starts_with("Stopped"), "{text}");
    b.finish().await
}

#[tokio::test]
async fn an_imported_task_list_with_arrivals_runs_for_real() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?q=4&real_scale=1&real_repeats=1&real_yield=message").await?;
    // Tasks arriving over time: the runner waits for them (not a yield).
    let list = "arrival_ms,duration_ms\n0,9\n0,3\n5,6\n300,2\n301,5\n";
    b.eval_js(&format!(
        "document.querySelector('#tasks-panel').open = true; \
         document.querySelector('#tasks-text').value = {}; return true;",
        serde_json::to_string(list)?
    ))
    .await?;
    b.click("#tasks-use").await?;
    wait_ready(&b, 2).await?;
    let file = run(&b).await?;
    assert_eq!(floats(&file["arrival_ms"]), [0.0, 0.0, 5.0, 300.0, 301.0]);
    assert_eq!(floats(&file["work_ms"]), [9.0, 3.0, 6.0, 2.0, 5.0]);
    let arrival = floats(&file["arrival_ms"]);
    let work = floats(&file["work_ms"]);
    for plan in file["plan"].as_array().ok_or("plan")? {
        let policy = plan["policy"].as_str().unwrap_or_default();
        let slices = plan["slices"].as_array().ok_or("slices")?.len() / 2;
        let model = order(&floats(&plan["simulated_completion_ms"]));
        let pass = file["passes"]
            .as_array()
            .and_then(|p| p.iter().find(|p| p["policy"] == policy))
            .ok_or("pass")?;
        assert_eq!(pass["slices"].as_u64(), Some(slices as u64), "{policy}");
        assert!(
            pass["idle_waits"].as_u64().unwrap_or(0) >= 1,
            "{policy}: waited for arrivals"
        );
        let completion = floats(&pass["completion"]);
        assert_eq!(order(&completion), model, "{policy}: completion order");
        for i in 0..work.len() {
            assert!(floats(&pass["busy"])[i] >= work[i], "{policy} task {i}");
            assert!(completion[i] - arrival[i] >= work[i], "{policy} task {i}");
        }
        if policy == "rr" {
            assert_eq!(pass["yields"].as_u64(), Some(slices as u64 - 1));
        }
    }
    // A list far longer than a real run allows is refused before it is
    // parsed on the main thread, with a sentence that says why.
    b.eval_js("document.querySelector('#tasks-text').value = '1\\n'.repeat(120000); return true;")
        .await?;
    b.click("#tasks-use").await?;
    b.wait_js(
        "document.querySelector('#real-notes').textContent.includes('at most 50000')",
        RUN,
    )
    .await?;
    assert_eq!(
        b.eval_js("return document.querySelector('#real-run').disabled;")
            .await?,
        json!(true)
    );
    b.finish().await
}

#[tokio::test]
async fn an_uploaded_task_list_runs_for_real() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?q=4&real_scale=1&real_repeats=1&real_yield=message").await?;
    // An upload stays a File (the worker reads it); the real run's plan is
    // made on the main thread from the same file's text.
    b.eval_js(
        "window.tailslice.useTasksFile(new File(['7\\n2\\n4\\n'], 'three.txt', { type: 'text/plain' })); \
         return true;",
    )
    .await?;
    wait_ready(&b, 2).await?;
    let file = run(&b).await?;
    assert_eq!(floats(&file["work_ms"]), [7.0, 2.0, 4.0]);
    check_accounting(&file, 1)?;
    b.finish().await
}
