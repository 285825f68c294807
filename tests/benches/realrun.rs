//! The study run for real (printed, not a pass/fail test):
//! `scripts/bench-realrun.sh`.
//!
//! Opens the study's experiment in headless Chromium, served cross-origin
//! isolated (as `scripts/serve.sh` does), once per yield primitive, presses
//! "Run for real" and prints measured against simulated p50/p95 for FIFO
//! and sliced, the p95 change, the yield cost, frames and the probe delay.
//! `BENCH_REAL_SCALE` (default 0.1) and `BENCH_REAL_REPEATS` (default 3).

use std::time::Duration;

use serde_json::Value;
use tailslice_e2e::bench_report::env_str;
use tailslice_e2e::page::open_ready;
use tailslice_e2e::{Browser, Result};

fn row<'a>(report: &'a Value, policy: &str, kind: &str) -> &'a Value {
    report["rows"]
        .as_array()
        .and_then(|rows| {
            rows.iter()
                .find(|r| r["policy"] == policy && r["kind"] == kind)
        })
        .unwrap_or(&Value::Null)
}

fn f(v: &Value) -> String {
    v.as_f64().map_or("–".to_string(), |x| format!("{x:.1}"))
}

#[tokio::main]
async fn main() -> Result<()> {
    let scale = env_str("BENCH_REAL_SCALE", "0.1");
    let repeats = env_str("BENCH_REAL_REPEATS", "3");
    let b = Browser::start_isolated().await?;
    println!(
        "\nThe study (400 tasks, FIFO vs RR 16 ms) run for real in headless Chromium, scale {scale}x, {repeats} repeats, cross-origin isolated"
    );
    println!(
        "{:<10} {:>9} {:>9} {:>9} {:>9} | {:>9} {:>9} {:>9} {:>9} | {:>8} {:>8} | {:>7} {:>7} | {:>6} {:>6} | {:>8} {:>8}",
        "yield", "fifo p50", "(sim)", "fifo p95", "(sim)", "rr p50", "(sim)", "rr p95", "(sim)",
        "Δp95", "(sim)", "gap p50", "gap p95", "fr F", "fr RR", "probe F", "probe RR"
    );
    for y in ["scheduler", "message", "timeout", "raf"] {
        open_ready(
            &b,
            &format!("/?real_scale={scale}&real_repeats={repeats}&real_yield={y}"),
        )
        .await?;
        b.click("#real-run").await?;
        b.wait_js(
            "['done', 'invalid'].includes(document.querySelector('#real-status').dataset.state)",
            Duration::from_secs(600),
        )
        .await?;
        let report = b.eval_js("return window.tailslice.realRun.report;").await?;
        if report["state"] != "done" {
            println!(
                "{y:<10} run {}: {}",
                report["state"], report["text"]["en"]["status"]
            );
            continue;
        }
        let (fs, fm) = (
            row(&report, "fifo", "simulated"),
            row(&report, "fifo", "measured"),
        );
        let (rs, rm) = (
            row(&report, "rr", "simulated"),
            row(&report, "rr", "measured"),
        );
        let yc = &report["yield_cost"]["gaps"];
        let cmp = |p: &str, k: &str| -> String {
            report["compare"]
                .as_array()
                .and_then(|c| c.iter().find(|c| c["policy"] == p))
                .map(|c| match k {
                    "frames" => f(&c["frames"]["median"]),
                    _ => f(&c["probe"]["max"]),
                })
                .unwrap_or_default()
        };
        println!(
            "{:<10} {:>9} {:>9} {:>9} {:>9} | {:>9} {:>9} {:>9} {:>9} | {:>7}% {:>7}% | {:>7.3} {:>7.3} | {:>6} {:>6} | {:>8} {:>8}",
            y,
            f(&fm["values"]["p50"]), f(&fs["values"]["p50"]),
            f(&fm["values"]["p95"]), f(&fs["values"]["p95"]),
            f(&rm["values"]["p50"]), f(&rs["values"]["p50"]),
            f(&rm["values"]["p95"]), f(&rs["values"]["p95"]),
            f(&rm["change"]["p95"]), f(&rs["change"]["p95"]),
            yc["p50"].as_f64().unwrap_or(f64::NAN), yc["p95"].as_f64().unwrap_or(f64::NAN),
            cmp("fifo", "frames"), cmp("rr", "frames"),
            cmp("fifo", "probe"), cmp("rr", "probe"),
        );
        println!(
            "           {}",
            report["text"]["en"]["reading"].as_str().unwrap_or_default()
        );
    }
    println!("(ms at the run's scale; measured = median over repeats; gap = yield cost; fr = frames drawn; probe = worst lateness of a 50 ms timer)");
    b.finish().await
}
