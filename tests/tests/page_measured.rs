//! `tailslice measure --json` output opened on the page through "Open
//! experiment": the experiment is set up as measured (the URL links to
//! it), a measured row sits under each measured policy's model row with
//! the JSON's figures and spreads, the environment line under the table,
//! Chinese words, and an edit that leaves the experiment drops the rows
//! with a note. The output is the committed fixture
//! `crate/tests/fixtures/measure/fifo-rr-30-tasks.json`, written by
//! `tailslice measure --json --tasks 30 --mix 1:1-5 --repeats 3` as root.

use std::time::Duration;

use serde_json::Value;
use tailslice_e2e::page::{open_ready, updates, wait_ready};
use tailslice_e2e::{Browser, Result};

const T: Duration = Duration::from_secs(30);

fn fixture() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crate/tests/fixtures/measure/fifo-rr-30-tasks.json")
}

/// The cells of the measured row under `policy`: by metric, its
/// `data-value`, text and `data-spread`.
async fn measured_cells(b: &Browser, policy: &str) -> Result<Value> {
    b.eval_js(&format!(
        "const tr = document.querySelector('#percentiles tr[data-measured={policy}]'); \
         if (!tr) return null; \
         return {{title: tr.querySelector('th').textContent, \
           prev: tr.previousElementSibling.dataset.policy || tr.previousElementSibling.dataset.measured, \
           cells: Object.fromEntries([...tr.querySelectorAll('td')].map(td => \
             [td.dataset.metric, [td.dataset.value ?? null, td.firstChild ? td.firstChild.textContent : '', td.dataset.spread ?? null]]))}};"
    ))
    .await
}

#[tokio::test]
async fn a_measure_output_opens_with_its_measured_rows() -> Result<()> {
    let path = fixture();
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&path)?)?;
    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    b.eval_js("document.querySelector('#tasks-panel').open = true; return true;")
        .await?;
    let n = updates(&b).await?;
    b.find("#experiment-file")
        .await?
        .send_keys(path.canonicalize()?.to_str().unwrap())
        .await?;
    wait_ready(&b, n + 1).await?;
    b.wait_js(
        "document.querySelectorAll('#percentiles tr[data-measured]').length === 2",
        T,
    )
    .await?;
    // The experiment as measured, in the URL.
    let url = b.current_url().await?;
    let query = url.query().unwrap_or("");
    for pair in ["n=30", "mix=1:1-5"] {
        assert!(query.split('&').any(|p| p == pair), "{query}");
    }
    // The model rows are the JSON's own.
    for r in json["results"].as_array().unwrap() {
        let policy = r["policy"].as_str().unwrap();
        let shown = b
            .text(&format!(
                "#percentiles tr[data-policy={policy}] td[data-metric=p95]"
            ))
            .await?;
        assert_eq!(
            shown,
            format!("{:.1}", r["p95"].as_f64().unwrap()),
            "{policy}"
        );
    }
    // Each measured row under its model row, with the JSON's figures.
    for row in json["measured"].as_array().unwrap() {
        let policy = row["policy"].as_str().unwrap();
        let cells = measured_cells(&b, policy).await?;
        assert_eq!(cells["prev"], policy, "under its model row");
        let kernel = row["kernel_policy"].as_str().unwrap();
        assert_eq!(cells["title"], format!("{kernel} measured"));
        for m in ["mean", "p50", "p90", "p95", "p99", "max"] {
            let [value, text, spread] = [0, 1, 2].map(|i| cells["cells"][m][i].clone());
            let figure = row[m].as_f64().unwrap();
            assert_eq!(
                value.as_str().unwrap().parse::<f64>()?,
                figure,
                "{policy} {m}"
            );
            assert_eq!(text, format!("{figure:.1}"), "{policy} {m}");
            let [lo, hi] = [0, 1].map(|i| row["spread"][m][i].as_f64().unwrap());
            assert_eq!(spread, format!("{lo:.1}–{hi:.1}"), "{policy} {m}");
        }
        assert_eq!(
            cells["cells"]["done_within"][1],
            row["done_within"].to_string()
        );
    }
    let env = &json["environment"];
    let note = b.text("#measured-note").await?;
    assert!(note.contains(env["kernel"].as_str().unwrap()), "{note}");
    assert!(note.contains(&format!("HZ {}", env["hz"])), "{note}");

    // Chinese: the rows and the line in Rust's Chinese words.
    b.eval_js(
        "const s = document.querySelector('#lang'); s.value = 'zh'; \
         s.dispatchEvent(new Event('change')); return true;",
    )
    .await?;
    b.wait_js("document.documentElement.lang === 'zh-CN'", T)
        .await?;
    b.wait_js(
        "(document.querySelector('#percentiles tr[data-measured=fifo] th') || {}).textContent === 'SCHED_FIFO 实测'",
        T,
    )
    .await?;
    assert!(b.text("#measured-note").await?.starts_with("实测于 Linux"));

    // An edit that changes the experiment drops the rows with a note.
    let n = updates(&b).await?;
    b.eval_js(
        "const q = document.querySelector('#quantum'); q.value = '8'; \
         q.dispatchEvent(new Event('input', {bubbles: true})); \
         q.dispatchEvent(new Event('change', {bubbles: true})); return true;",
    )
    .await?;
    wait_ready(&b, n + 1).await?;
    b.wait_js(
        "document.querySelector('#measured-note').dataset.measured === 'dropped'",
        T,
    )
    .await?;
    let rows = b
        .eval_js("return document.querySelectorAll('#percentiles tr[data-measured]').length;")
        .await?;
    assert_eq!(rows, 0);
    assert!(b.text("#measured-note").await?.starts_with("测量行已隐藏"));
    b.finish().await
}
