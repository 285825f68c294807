//! Tables on a 390 px phone: the latency table's p95 column and the
//! Responsiveness table's p95 and p98 columns are in view without
//! scrolling sideways, in English and Chinese, and Chinese headings wrap
//! between words, never one character per line.

use std::time::Duration;

use serde_json::{json, Value};
use tailslice_e2e::page::{open_ready, open_trace};
use tailslice_e2e::{artifacts_dir, Browser, Result};

const T: Duration = Duration::from_secs(60);

/// A main thread with long tasks (the Responsiveness section shows).
fn a_trace() -> Vec<u8> {
    let mut ev = vec![
        json!({"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "CrRendererMain"}}),
    ];
    let mut t = 0.0;
    for d in [120.0, 30.0, 5.0, 275.0, 8.0, 60.0, 12.0, 180.0] {
        ev.push(json!({"ph": "X", "name": "RunTask", "pid": 1, "tid": 1, "ts": t * 1000.0, "dur": d * 1000.0}));
        t += d + 20.0;
    }
    serde_json::to_vec(&json!({ "traceEvents": ev })).unwrap()
}

/// For each of `metrics` in `table`: whether its every cell lies within
/// the table's scroll box and the viewport (no sideways scroll needed), and
/// each heading cell's lines: its height over its line height.
const MEASURE: &str = r#"
const [table, metrics] = arguments;
const t = document.querySelector(table);
const wrap = t.closest('.table-wrap') || t.parentElement;
wrap.scrollLeft = 0;
const box = wrap.getBoundingClientRect();
const right = Math.min(box.right, document.documentElement.clientWidth);
const out = {};
for (const m of metrics) {
  const cells = [...t.querySelectorAll(`td[data-metric="${m}"]`)];
  out[m] = cells.length > 0 && cells.every((c) => c.getBoundingClientRect().right <= right + 0.5);
}
const heads = [...t.querySelectorAll('thead th')].filter((th) => th.textContent.trim());
out.lines = heads.map((th) => {
  const r = document.createRange();
  r.selectNodeContents(th);
  const rects = [...r.getClientRects()];
  const lines = new Set(rects.map((x) => Math.round(x.top))).size;
  const chars = [...th.textContent.trim()].length;
  return [th.textContent.trim(), lines, chars];
});
out.scrolls = document.documentElement.scrollWidth > document.documentElement.clientWidth;
return out;
"#;

async fn measure(b: &Browser, table: &str, metrics: &[&str]) -> Result<Value> {
    Ok(b.client()
        .execute(MEASURE, vec![json!(table), json!(metrics)])
        .await?)
}

fn check(lang: &str, table: &str, m: &Value, metrics: &[&str]) {
    for k in metrics {
        assert_eq!(m[k], true, "{lang} {table}: {k} out of view: {m}");
    }
    assert_eq!(m["scrolls"], false, "{lang}: the page scrolls sideways");
    // A heading of several characters never takes one line per character.
    for h in m["lines"].as_array().unwrap() {
        let (text, lines, chars) = (
            h[0].as_str().unwrap(),
            h[1].as_u64().unwrap(),
            h[2].as_u64().unwrap(),
        );
        assert!(
            lines <= 3 && (chars < 3 || lines < chars),
            "{lang} {table}: '{text}' on {lines} lines: {m}"
        );
    }
}

#[tokio::test]
async fn p95_and_p98_stay_in_view_on_a_phone() -> Result<()> {
    let b = Browser::start().await?;
    b.set_window_size(390, 844).await?;
    let path = artifacts_dir().join("phone-tables-trace.json");
    std::fs::write(&path, a_trace())?;
    for lang in ["en", "zh"] {
        open_ready(&b, &format!("/?lang={lang}")).await?;
        let m = measure(&b, "#percentiles", &["p95"]).await?;
        check(lang, "#percentiles", &m, &["p95"]);
        assert_eq!(open_trace(&b, &path, T).await?, "ready");
        b.wait_js("!document.querySelector('#responsiveness').hidden && document.querySelectorAll('#responsiveness-results td').length > 0", T)
            .await?;
        let keys = b
            .eval_js("return [...new Set([...document.querySelectorAll('#responsiveness-results td[data-metric]')].map((td) => td.dataset.metric))];")
            .await?;
        let keys: Vec<String> = keys
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap().to_string())
            .collect();
        let wanted: Vec<&str> = keys
            .iter()
            .map(String::as_str)
            .filter(|k| k.contains("p95") || k.contains("p98"))
            .collect();
        assert!(!wanted.is_empty(), "{keys:?}");
        let m = measure(&b, "#responsiveness-results", &wanted).await?;
        check(lang, "#responsiveness-results", &m, &wanted);
        let m = measure(&b, "#percentiles", &["p95"]).await?;
        check(lang, "#percentiles", &m, &["p95"]);
        b.eval_js("document.querySelector('#responsiveness-results').scrollIntoView(); return 0;")
            .await?;
        b.screenshot(&format!("phone-tables-{lang}")).await?;
    }
    b.finish().await
}
