//! Reading the playground page the way every page test does: wait for a
//! drawn result, read the percentile table, compare it with the CLI, check
//! that a canvas is not blank.

use std::time::Duration;

use serde_json::Value;

use crate::{run_cli, Browser, Result};

/// How long a page may take to draw a result.
pub const READY: Duration = Duration::from_secs(30);

/// The `td[data-metric]` columns of `table#percentiles`, in order.
pub const METRICS: [&str; 7] = ["mean", "p50", "p90", "p95", "p99", "max", "done_within"];

/// Rows of the percentile table: `(policy, [cell text; 7])`.
pub type Table = Vec<(String, Vec<String>)>;

/// Opens `path` and waits until the page has drawn a result for it.
pub async fn open_ready(b: &Browser, path: &str) -> Result<()> {
    b.open(path).await?;
    wait_ready(b, 1).await
}

/// Waits until at least `updates` results were drawn and nothing is queued.
pub async fn wait_ready(b: &Browser, updates: u64) -> Result<()> {
    b.wait_js(
        &format!(
            "document.body.dataset.state === 'ready' && Number(document.body.dataset.updates || 0) >= {updates}"
        ),
        READY,
    )
    .await?;
    Ok(())
}

/// The page still answers: an edit of the seed gets a new result.
pub async fn still_usable(b: &Browser) -> Result<()> {
    let before = updates(b).await?;
    b.eval_js(
        "const s = document.querySelector('#seed'); s.value = '7'; \
         s.dispatchEvent(new Event('input', {bubbles: true})); return 0;",
    )
    .await?;
    wait_ready(b, before + 1).await
}

/// How many results the page has drawn (`body[data-updates]`).
pub async fn updates(b: &Browser) -> Result<u64> {
    Ok(
        b.eval_js("return Number(document.body.dataset.updates || 0);")
            .await?
            .as_u64()
            .unwrap_or(0),
    )
}

/// The percentile table, read from the DOM.
pub async fn table(b: &Browser) -> Result<Table> {
    let v = b
        .eval_js(
            "return [...document.querySelectorAll('table#percentiles tr[data-policy]')].map(tr => \
             [tr.dataset.policy, ['mean','p50','p90','p95','p99','max','done_within'].map(m => \
             tr.querySelector(`td[data-metric=\"${m}\"]`).textContent)]);",
        )
        .await?;
    let rows = v.as_array().ok_or("the table is not an array")?;
    Ok(rows
        .iter()
        .map(|r| {
            let cells = r[1].as_array().map(Vec::as_slice).unwrap_or_default();
            (
                r[0].as_str().unwrap_or_default().to_string(),
                cells
                    .iter()
                    .map(|c| c.as_str().unwrap_or_default().to_string())
                    .collect(),
            )
        })
        .collect())
}

/// `tailslice simulate --json ARGS`, formatted as the page shows it (one
/// decimal, an integer for done_within).
pub fn cli_table(args: &[&str]) -> Result<Table> {
    let mut all = vec!["simulate", "--json"];
    all.extend_from_slice(args);
    let out = run_cli(&all)?;
    let v: Value = serde_json::from_str(&out).map_err(|e| format!("CLI JSON: {e}\n{out}"))?;
    let results = v["results"]
        .as_array()
        .ok_or("no results in the CLI JSON")?;
    Ok(results
        .iter()
        .map(|r| {
            let cells = METRICS
                .iter()
                .map(|m| {
                    if *m == "done_within" {
                        r[m].as_u64().unwrap_or(u64::MAX).to_string()
                    } else {
                        format!("{:.1}", r[m].as_f64().unwrap_or(f64::NAN))
                    }
                })
                .collect();
            (r["policy"].as_str().unwrap_or_default().to_string(), cells)
        })
        .collect())
}

/// Share of non-transparent pixels of a canvas (0 if it is missing or has
/// no size): a blank-canvas check that does not depend on what is drawn.
pub async fn ink(b: &Browser, css: &str) -> Result<f64> {
    let v = b
        .eval_js(&format!(
            "const c = document.querySelector('{css}'); if (!c || c.width < 2) return 0; \
             const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; \
             for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n / (d.length / 4);"
        ))
        .await?;
    Ok(v.as_f64().unwrap_or(0.0))
}

/// Fails if the page scrolls sideways at the current window size (a wide
/// table may scroll inside its own box), naming what sticks out.
pub async fn assert_no_sideways_scroll(b: &Browser) -> Result<()> {
    let overflow = b
        .eval_js(
            "const de = document.documentElement, vw = de.clientWidth; \
             if (de.scrollWidth <= vw) return []; \
             const clipped = (e) => { for (let p = e.parentElement; p; p = p.parentElement) { \
               if (getComputedStyle(p).overflowX !== 'visible') return true; } return false; }; \
             return [...document.querySelectorAll('body *')].filter(e => { \
               const r = e.getBoundingClientRect(); return r.width > 0 && r.right > vw + 0.5 && !clipped(e); }) \
             .slice(0, 8).map(e => `${e.tagName.toLowerCase()}#${e.id}.${e.className} right=${Math.round(e.getBoundingClientRect().right)} viewport=${vw}`);",
        )
        .await?;
    match overflow.as_array() {
        Some(a) if a.is_empty() => Ok(()),
        _ => Err(format!("the page is wider than the viewport: {overflow}").into()),
    }
}
