//! Issue 8: no shared link may kill the page, hang a run or freeze the tab.
//! Every URL the issue reports is opened in headless Chromium; the page must
//! stay usable (a later edit is answered) and, where it applies, no
//! main-thread task may exceed 50 ms (the Long Tasks API's entries).

use std::time::Duration;

use tailslice_e2e::page::{open_ready, wait_ready};
use tailslice_e2e::{Browser, Result};

/// The page still answers: an edit of the seed gets a new result.
async fn still_usable(b: &Browser) -> Result<()> {
    let before = tailslice_e2e::page::updates(b).await?;
    b.eval_js(
        "const s = document.querySelector('#seed'); s.value = '7'; \
         s.dispatchEvent(new Event('input', {bubbles: true})); return 0;",
    )
    .await?;
    wait_ready(b, before + 1).await
}

async fn banner(b: &Browser) -> Result<String> {
    Ok(b.eval_js(
        "const e = document.querySelector('#error'); return e.hidden ? '' : e.textContent;",
    )
    .await?
    .as_str()
    .unwrap_or_default()
    .to_string())
}

#[tokio::test]
async fn a_heavy_tailed_draw_runs_off_the_main_thread_and_edits_cancel_it() -> Result<()> {
    let b = Browser::start().await?;
    // Estimated at ~19,000 slices from the mix's mean, but seed 1847 draws a
    // one-hour task: 18 M slices. It must not run (or be drawn) inline.
    b.open("/?v=1&n=1&mix=1:pareto(1,0.5)&seed=1847&q=0.2")
        .await?;
    b.wait_js(
        "document.body.dataset.state === 'ready' && Number(document.body.dataset.updates || 0) >= 1",
        Duration::from_secs(120),
    )
    .await?;
    // It ran in the worker: the status line says so, and no Gantt of 18 M
    // slices was kept.
    let gantt = b.eval_js("return window.tailslice.segments;").await?;
    assert_eq!(
        gantt.as_u64(),
        Some(0),
        "segments kept for an 18 M-slice run"
    );
    // At q=0.13 (27.7 M slices) an edit arriving mid-run cancels it.
    b.open("/?v=1&n=1&mix=1:pareto(1,0.5)&seed=1847&q=0.13")
        .await?;
    b.wait_js(
        "document.body.dataset.state === 'running'",
        Duration::from_secs(10),
    )
    .await?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let t = std::time::Instant::now();
    b.eval_js(
        "const s = document.querySelector('#seed'); s.value = '1'; \
         s.dispatchEvent(new Event('input', {bubbles: true})); return 0;",
    )
    .await?;
    b.wait_js(
        "document.body.dataset.state === 'ready' && document.body.dataset.query.includes('seed=1&')",
        Duration::from_secs(30),
    )
    .await?;
    let waited = t.elapsed();
    eprintln!("edit during a 27.7 M-slice run answered after {waited:?}");
    assert!(
        waited < Duration::from_secs(3),
        "the edit waited {waited:?}"
    );
    b.finish().await
}

#[tokio::test]
async fn wrong_values_get_accurate_refusals() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&q=1e-308").await?;
    let msg = banner(&b).await?;
    assert!(msg.contains("invalid q '1e-308'"), "{msg}");
    assert!(!msg.contains("inf") && !msg.contains("quantum '"), "{msg}");
    open_ready(&b, "/?v=1&n=1000000&q=0.001").await?;
    let msg = banner(&b).await?;
    assert!(msg.contains("invalid q '0.001'"), "{msg}");
    let n = b
        .eval_js("return document.querySelector('#tasks').value;")
        .await?;
    assert_eq!(n, "1000000", "n must keep the link's value");
    open_ready(&b, "/?v=1&q=8&q=0").await?;
    let msg = banner(&b).await?;
    assert!(msg.contains("'8' is used"), "{msg}");
    let q = b
        .eval_js("return document.querySelector('#quantum').value;")
        .await?;
    assert_eq!(q, "8");
    open_ready(&b, "/?v=1&q=8&q=9").await?;
    assert!(banner(&b).await?.contains("only once"));
    open_ready(&b, "/?v=1&mlfq_boost=0.5").await?;
    let msg = banner(&b).await?;
    assert_eq!(msg.matches("off").count(), 1, "{msg}");
    for (path, key) in [("/?v=1&within=1e-308", "within"), ("/?v=1&cs=1e-308", "cs")] {
        open_ready(&b, path).await?;
        let msg = banner(&b).await?;
        assert!(msg.contains(&format!("invalid {key} '1e-308'")), "{msg}");
        let url = b.current_url().await?;
        assert!(url.as_str().len() < 120, "{url}");
    }
    open_ready(&b, "/?v=1&cs=-0").await?;
    let url = b.current_url().await?;
    assert!(!url.as_str().contains("cs="), "{url}");
    still_usable(&b).await?;
    b.finish().await
}

#[tokio::test]
async fn bidi_controls_never_reverse_the_page() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&q=%E2%80%AEevil%20link").await?;
    let text = banner(&b).await?;
    assert!(!text.contains('\u{202E}'), "{text:?}");
    assert!(text.contains("\\u{202e}evil link"), "{text:?}");
    let form = b
        .eval_js(
            "const q = document.querySelector('#arrivals'); q.value = '\\u202Eevil'; \
             q.dispatchEvent(new Event('input', {bubbles: true})); \
             return new Promise(r => requestAnimationFrame(() => setTimeout(() => \
             r(document.querySelector('#form-error').textContent), 50)));",
        )
        .await?;
    let form = form.as_str().unwrap_or_default();
    assert!(
        !form.contains('\u{202E}') && form.contains("\\u{202e}"),
        "{form:?}"
    );
    b.finish().await
}
