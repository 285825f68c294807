//! With a trace open at its recorded starts, every policy replays the
//! tasks alike: the latency table says so in one line above it, pointing
//! to the Responsiveness section, and the reading under it does not say
//! that a policy "leaves p95 where" another has it.

use std::time::Duration;

use serde_json::json;
use tailslice_e2e::page::{open_ready, open_trace, table};
use tailslice_e2e::{artifacts_dir, Browser, Result};

const T: Duration = Duration::from_secs(60);

/// One main thread's tasks, one after another: 120, 30, 5, 275 and 8 ms.
fn a_trace() -> Vec<u8> {
    let mut ev = vec![
        json!({"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "CrRendererMain"}}),
    ];
    let mut t = 0.0;
    for d in [120.0, 30.0, 5.0, 275.0, 8.0] {
        ev.push(json!({"ph": "X", "name": "RunTask", "pid": 1, "tid": 1, "ts": t * 1000.0, "dur": d * 1000.0}));
        t += d + 10.0;
    }
    serde_json::to_vec(&json!({ "traceEvents": ev })).unwrap()
}

async fn set_lang(b: &Browser, lang: &str) -> Result<()> {
    b.eval_js(&format!(
        "const s = document.querySelector('#lang'); s.value = '{lang}'; s.dispatchEvent(new Event('change')); return 0;"
    ))
    .await?;
    Ok(())
}

#[tokio::test]
async fn a_replayed_trace_says_why_every_change_is_zero() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    // No such line for the study.
    assert_eq!(
        b.eval_js("return document.querySelector('#table-note').hidden;")
            .await?,
        true
    );
    let path = artifacts_dir().join("replayed-trace.json");
    std::fs::write(&path, a_trace())?;
    assert_eq!(open_trace(&b, &path, T).await?, "ready");
    // The Responsiveness section answers for this trace's run after it.
    b.wait_js(
        "!document.querySelector('#responsiveness').hidden && \
         document.querySelector('#responsiveness').dataset.query === document.body.dataset.query",
        T,
    )
    .await?;
    // Every figure of every row is the recorded one.
    let rows = table(&b).await?;
    assert!(rows.len() >= 3, "{rows:?}");
    for (policy, cells) in &rows {
        assert_eq!(cells, &rows[0].1, "{policy}");
    }
    let geometry = b
        .eval_js(
            "const n = document.querySelector('#table-note'); \
             const t = document.querySelector('#percentiles'); \
             const r = document.querySelector('#responsiveness'); \
             return [n.hidden, n.getBoundingClientRect().bottom <= t.getBoundingClientRect().top, \
                     !r.hidden && r.getBoundingClientRect().bottom <= n.getBoundingClientRect().top];",
        )
        .await?;
    assert_eq!(geometry, json!([false, true, true]));
    let note = b.text("#table-note").await?;
    assert!(
        note.contains("replays identically") && note.contains("Responsiveness"),
        "{note}"
    );
    let reading = b.text("#explanation").await?;
    assert!(!reading.contains("leaves p95 where"), "{reading}");
    assert!(reading.contains("same latency"), "{reading}");
    set_lang(&b, "zh").await?;
    let note = b.text("#table-note").await?;
    assert!(
        note.contains("原样重放") && note.contains("响应性"),
        "{note}"
    );
    let reading = b.text("#explanation").await?;
    assert!(!reading.contains("基本相同"), "{reading}");
    set_lang(&b, "en").await?;
    // Back to the study: the line goes.
    b.eval_js("window.tailslice.clearTasks(); return 0;")
        .await?;
    b.wait_js("document.querySelector('#table-note').hidden", T)
        .await?;
    b.finish().await
}
