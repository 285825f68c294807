//! The sweeps panel in headless Chromium: a seed sweep's histogram and
//! p5/p50/p95 equal what `tailslice sweep --seeds A-B --json` gives, Cancel
//! stops a long sweep, and a quantum sweep's best quantum equals the CLI's.
//! `scripts/bench-page.sh` times the 1000-seed sweep.

use std::time::Duration;

use serde_json::Value;
use tailslice_e2e::page::{ink, open_ready};
use tailslice_e2e::{run_cli, Browser, Result};

const T: Duration = Duration::from_secs(30);

async fn set_value(b: &Browser, css: &str, value: &str) -> Result<()> {
    b.eval_js(&format!(
        "document.querySelector('{css}').value = {}; return true;",
        serde_json::to_string(value)?
    ))
    .await?;
    Ok(())
}

async fn run_sweep(b: &Browser, button: &str) -> Result<()> {
    b.click(button).await?;
    b.wait_js("document.body.dataset.sweep === 'done'", T)
        .await?;
    Ok(())
}

/// The study's nearest-rank percentile.
fn pct(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 * p / 100.0) as usize).min(sorted.len() - 1)]
}

fn data_f64(v: &Value, key: &str) -> f64 {
    v[key]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or(f64::NAN)
}

#[tokio::test]
async fn seed_sweep_matches_the_cli() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&cs=0.1").await?;
    set_value(&b, "#sweep-seeds", "1-40").await?;
    run_sweep(&b, "#sweep-seeds-run").await?;
    let stats = b
        .eval_js("return Object.assign({}, document.querySelector('#seed-stats').dataset);")
        .await?;
    assert_eq!(stats["metric"], "p95");
    assert_eq!(stats["kind"], "change");
    assert_eq!(stats["seeds"], "40");

    // The same figures from the CLI's runs: p95 change of rr vs fifo per seed.
    let out = run_cli(["sweep", "--seeds", "1-40", "--switch-cost", "0.1", "--json"])?;
    let v: Value = serde_json::from_str(&out)?;
    let mut changes: Vec<f64> = v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let base = r["results"][0]["p95"].as_f64().unwrap();
            let rr = r["results"][1]["p95"].as_f64().unwrap();
            (rr - base) / base * 100.0
        })
        .collect();
    assert_eq!(changes.len(), 40);
    changes.sort_by(f64::total_cmp);
    for (key, p) in [("p5", 5.0), ("p50", 50.0), ("p95", 95.0)] {
        let page = data_f64(&stats, key);
        let cli = pct(&changes, p);
        assert!((page - cli).abs() < 1e-9, "{key}: page {page}, CLI {cli}");
    }
    // The current seed (42) is outside 1-40: its own run is marked.
    let own = run_cli(["simulate", "--switch-cost", "0.1", "--json"])?;
    let own: Value = serde_json::from_str(&own)?;
    let (b95, r95) = (
        own["results"][0]["p95"].as_f64().unwrap(),
        own["results"][1]["p95"].as_f64().unwrap(),
    );
    assert!((data_f64(&stats, "current") - (r95 - b95) / b95 * 100.0).abs() < 1e-9);

    let share = ink(&b, "#sweep-hist").await?;
    assert!(share > 0.01, "the histogram looks blank ({share})");
    let text = b.text("#seed-stats").await?;
    assert!(text.contains("Over 40 seeds"), "{text}");

    // Another figure from the selector: the p50 change.
    b.eval_js(
        "const s = document.querySelector('#sweep-metric'); s.value = 'p50'; \
         s.dispatchEvent(new Event('change')); return true;",
    )
    .await?;
    let p50 = b
        .eval_js("return document.querySelector('#seed-stats').dataset.metric;")
        .await?;
    assert_eq!(p50, "p50");
    b.find("#seeds-result, #seed-result").await?;
    b.eval_js("document.querySelector('#sweeps').scrollIntoView(); return true;")
        .await?;
    b.screenshot("sweep-seeds").await?;
    b.finish().await
}

#[tokio::test]
async fn cancel_stops_a_sweep() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    set_value(&b, "#sweep-seeds", "1-60000").await?;
    b.click("#sweep-seeds-run").await?;
    b.wait_js(
        "document.body.dataset.sweep === 'running' && !document.querySelector('#sweep-cancel').hidden",
        T,
    )
    .await?;
    b.wait_js("document.querySelector('#sweep-progress').value > 0", T)
        .await?;
    b.click("#sweep-cancel").await?;
    b.wait_js("document.body.dataset.sweep === 'cancelled'", T)
        .await?;
    let hidden = b
        .eval_js(
            "return [document.querySelector('#sweep-cancel').hidden, \
             document.querySelector('#seed-result').hidden, \
             document.querySelector('#sweep-seeds-run').disabled];",
        )
        .await?;
    assert_eq!(hidden, serde_json::json!([true, true, false]));
    // The panel works again after a cancel.
    set_value(&b, "#sweep-seeds", "1-5").await?;
    run_sweep(&b, "#sweep-seeds-run").await?;
    assert_eq!(
        b.eval_js("return document.querySelector('#seed-stats').dataset.seeds;")
            .await?,
        "5"
    );
    // A bad range is refused with the reason.
    set_value(&b, "#sweep-seeds", "9-3").await?;
    b.click("#sweep-seeds-run").await?;
    b.wait_js("document.body.dataset.sweep === 'error'", T)
        .await?;
    let msg = b.text("#sweep-error").await?;
    assert!(msg.contains("invalid seeds '9-3'"), "{msg}");
    b.finish().await
}

#[tokio::test]
async fn quantum_sweep_best_quantum_matches_the_cli() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&cs=0.5&p=fifo,rr,mlfq").await?;
    set_value(&b, "#sweep-quanta", "0.5-500").await?;
    set_value(&b, "#sweep-steps", "16").await?;
    run_sweep(&b, "#sweep-quanta-run").await?;
    let quanta = b
        .eval_js("return document.querySelector('#best-quantum').dataset.quanta;")
        .await?;
    let quanta = quanta.as_str().unwrap().to_string();
    assert_eq!(quanta.split(',').count(), 16);
    assert!(
        quanta.starts_with("0.5,") && quanta.ends_with(",500"),
        "{quanta}"
    );

    // One quanta syntax: the CLI given the page's own field and steps
    // sweeps exactly the quanta the page swept.
    let same = run_cli([
        "sweep", "--quanta", "0.5-500", "--steps", "16", "--tasks", "10", "--json",
    ])?;
    let same: Value = serde_json::from_str(&same)?;
    let cli_quanta: Vec<String> = same["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["quantum"].as_f64().unwrap().to_string())
        .collect();
    assert_eq!(cli_quanta.join(","), quanta);

    let out = run_cli([
        "sweep",
        "--quanta",
        &quanta,
        "--switch-cost",
        "0.5",
        "--policies",
        "fifo,rr,mlfq",
        "--json",
    ])?;
    let v: Value = serde_json::from_str(&out)?;
    let runs = v["runs"].as_array().unwrap();
    for (k, policy) in [(1, "rr"), (2, "mlfq")] {
        let mut best = 0;
        for (i, r) in runs.iter().enumerate() {
            if r["results"][k]["p95"].as_f64() < runs[best]["results"][k]["p95"].as_f64() {
                best = i;
            }
        }
        let want = runs[best]["quantum"].as_f64().unwrap();
        let li = b
            .eval_js(&format!(
                "const li = document.querySelector('#best-quantum li[data-policy={policy}]'); \
                 return [li.dataset.quantum, li.dataset.value, li.textContent];"
            ))
            .await?;
        let page: f64 = li[0].as_str().unwrap().parse()?;
        assert_eq!(page, want, "{policy}: {li}");
        let value: f64 = li[1].as_str().unwrap().parse()?;
        assert_eq!(value, runs[best]["results"][k]["p95"].as_f64().unwrap());
        assert!(
            li[2].as_str().unwrap().contains(&format!("{want} ms")),
            "{li}"
        );
    }
    // One sentence: each policy's best-quantum line is the CLI's, the
    // policy named by its title.
    let summary = run_cli([
        "sweep",
        "--quanta",
        &quanta,
        "--switch-cost",
        "0.5",
        "--policies",
        "fifo,rr,mlfq",
    ])?;
    for policy in ["fifo", "rr", "mlfq"] {
        let cli = summary
            .lines()
            .find(|l| l.starts_with(&format!("{policy}: ")))
            .ok_or("a best-quantum line")?;
        let page = b
            .text(&format!("#best-quantum li[data-policy={policy}]"))
            .await?;
        assert_eq!(page, cli.replacen(policy, &policy.to_uppercase(), 1));
    }
    // fifo ignores the quantum.
    let fifo = b.text("#best-quantum li[data-policy=fifo]").await?;
    assert!(fifo.contains("the quantum makes no difference"), "{fifo}");
    let share = ink(&b, "#sweep-quanta-chart").await?;
    assert!(share > 0.01, "the quantum chart looks blank ({share})");
    // The pickers are the catalog's figures; p50's best quantum is Rust's
    // (best_p50), not recomputed on the page.
    let picks = b
        .eval_js(
            "const s = document.querySelector('#sweep-qmetric'); \
             const names = [...s.options].map((o) => o.value).join(','); \
             s.value = 'p50'; s.dispatchEvent(new Event('change')); return names;",
        )
        .await?;
    assert_eq!(picks, Value::from("p95,p50,p99,mean"));
    let share = ink(&b, "#sweep-quanta-chart").await?;
    assert!(share > 0.01, "the p50 quantum chart looks blank ({share})");
    b.eval_js("document.querySelector('#quantum-result').scrollIntoView(); return true;")
        .await?;
    b.screenshot("sweep-quanta").await?;
    b.finish().await
}
