//! No shared link may kill the page, hang a run or freeze the tab. Each
//! such URL is opened in headless Chromium; the page must stay usable (a
//! later edit is answered), heavy work must run in the worker, and an edit
//! must cancel a long run rather than wait for it. How long those take, and
//! the longest main-thread task meanwhile, `scripts/bench-page.sh` prints
//! (`tests/benches/responsiveness.rs`).

use std::time::Duration;

use tailslice_e2e::page::{
    assert_ran_in_the_worker, assert_read_in_the_worker, note_states, noted_states, open_ready,
    still_usable, wait_ready,
};
use tailslice_e2e::{Browser, Result};

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
    // Progress shows once the page knows the run is large: from then on
    // the next edit cancels it instead of waiting for it.
    b.wait_js(
        "document.body.dataset.state === 'running' && !document.querySelector('#progress').hidden",
        Duration::from_secs(10),
    )
    .await?;
    b.eval_js(
        "const s = document.querySelector('#seed'); s.value = '1'; \
         s.dispatchEvent(new Event('input', {bubbles: true})); return 0;",
    )
    .await?;
    b.wait_js(
        "document.body.dataset.state === 'ready' && document.body.dataset.query.includes('seed=1&')",
        Duration::from_secs(120),
    )
    .await?;
    // The edit's result is the only one the page received (each result
    // that arrives is measured as tailslice:simulate): the 27.7 M-slice run
    // was cancelled, not waited for.
    assert_eq!(
        b.eval_js("return performance.getEntriesByName('tailslice:simulate').length;")
            .await?,
        1,
        "the long run's result arrived too: it was waited for, not cancelled"
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
    assert!(msg.contains("first value '8'"), "{msg}");
    assert!(msg.contains("q=8 is used"), "{msg}");
    assert!(!msg.contains("default"), "{msg}");
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

#[tokio::test]
async fn a_huge_paste_stays_out_of_the_text_box_and_is_parsed_off_the_main_thread() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    // 200,000 lines (about 1.4 MB) pasted as a visitor's Ctrl+V would.
    b.eval_js(
        "document.querySelector('#tasks-panel').open = true; \
         const lines = []; for (let i = 0; i < 200000; i++) lines.push(String(1 + (i % 7))); \
         const dt = new DataTransfer(); dt.setData('text/plain', lines.join('\\n')); \
         const area = document.querySelector('#tasks-text'); \
         area.dispatchEvent(new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true})); \
         return 0;",
    )
    .await?;
    let v = b
        .eval_js(
            "const a = document.querySelector('#tasks-text'); return [a.value.length, a.placeholder];",
        )
        .await?;
    assert_eq!(v[0].as_u64(), Some(0), "the text box holds the paste");
    assert!(
        v[1].as_str().unwrap_or_default().contains("MB"),
        "no note: {v}"
    );
    note_states(&b).await?;
    b.click("#tasks-use").await?;
    b.wait_js(
        "document.body.dataset.tasks === '200000' && document.body.dataset.state === 'ready'",
        Duration::from_secs(60),
    )
    .await?;
    // Read, checked and run in the worker, never on the main thread.
    let notes = noted_states(&b).await?;
    assert_read_in_the_worker(&notes)?;
    assert_ran_in_the_worker(&notes)?;
    b.finish().await
}

#[tokio::test]
async fn a_panicking_worker_is_replaced_and_the_page_goes_on() -> Result<()> {
    let b = Browser::start().await?;
    // Large enough for the worker (not an inline run).
    open_ready(&b, "/?v=1&n=30000").await?;
    let before = tailslice_e2e::page::updates(&b).await?;
    b.eval_js("window.tailslice.crashWorker(); return 0;")
        .await?;
    b.wait_js(
        "window.tailslice.workerRestarts === 1",
        Duration::from_secs(20),
    )
    .await?;
    // The retried run is shown; later edits still work.
    wait_ready(&b, before + 1).await?;
    still_usable(&b).await?;
    // Twice in a row, with no good answer between: the visitor is told
    // what happened and what to do, with a Reload button.
    b.eval_js("window.tailslice.crashWorker(); return 0;")
        .await?;
    b.wait_js(
        "window.tailslice.workerRestarts === 2",
        Duration::from_secs(20),
    )
    .await?;
    b.eval_js("window.tailslice.crashWorker(); return 0;")
        .await?;
    b.wait_js(
        "window.tailslice.workerRestarts === 3",
        Duration::from_secs(20),
    )
    .await?;
    let msg = banner(&b).await?;
    assert!(msg.contains("deliberate panic"), "{msg}");
    assert!(msg.contains("Reload the page"), "{msg}");
    b.find("#error #reload").await?;
    b.finish().await
}

#[tokio::test]
async fn small_things_a_visitor_sees() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&seed=4294967295").await?;
    let v = b
        .eval_js(
            "const s = document.querySelector('#seed'); \
             const sw = document.querySelector('#policy-sjf').parentElement.querySelector('.swatch'); \
             const up = document.querySelector('#tasks-file'); \
             document.querySelector('#tasks-panel').open = true; up.focus(); \
             const ring = getComputedStyle(up.closest('.file-button')).outlineStyle; \
             return [s.scrollWidth <= s.clientWidth, getComputedStyle(sw).visibility, ring, \
                     !!document.querySelector('link[rel=icon]'), document.querySelector('#preset').title];",
        )
        .await?;
    assert_eq!(v[0], true, "the seed field clips 4294967295");
    assert_eq!(v[1], "hidden", "an unchecked policy shows a hollow swatch");
    assert_ne!(v[2], "none", "Upload… shows no focus ring");
    assert_eq!(v[3], true, "no icon link: every load logs a favicon 404");
    assert!(
        !v[4].as_str().unwrap_or_default().is_empty(),
        "the preset has no full name"
    );
    // The Gantt's tooltip by keyboard: Shift+arrows move a cursor.
    b.eval_js(
        "const g = document.querySelector('#gantt'); g.focus(); \
         g.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', shiftKey: true, bubbles: true})); return 0;",
    )
    .await?;
    let tip = b
        .eval_js(
            "const t = document.querySelector('#tooltip'); return t.hidden ? '' : t.textContent;",
        )
        .await?;
    assert!(tip.as_str().unwrap_or_default().contains("task #"), "{tip}");
    b.finish().await
}

#[tokio::test]
async fn a_huge_scenario_link_shows_progress_and_an_edit_cancels_it() -> Result<()> {
    let b = Browser::start().await?;
    // Every knob inside its documented range: minutes of work natively.
    b.open("/?v=1&s=feishu-demo&nq=1000&secs=60&m=64p&groups=33,25,21,17,9,5")
        .await?;
    b.wait_js(
        // The panel is built once the scenario's module has loaded.
        "document.querySelector('#scenario-progress')?.hidden === false && \
         document.querySelector('#scenario-status').textContent.includes('%')",
        Duration::from_secs(60),
    )
    .await?;
    // Every state the scenario view passes through from here on.
    b.eval_js(
        "window.__scenarioStates = []; const r = document.querySelector('#scenario-results'); \
         new MutationObserver(() => window.__scenarioStates.push(r.dataset.state)) \
           .observe(r, {attributes: true, attributeFilter: ['data-state']}); return 0;",
    )
    .await?;
    b.eval_js(
        "const q = document.querySelector('#sc-nq'); q.value = '20'; \
         q.dispatchEvent(new Event('input', {bubbles: true})); \
         q.dispatchEvent(new Event('change', {bubbles: true})); return 0;",
    )
    .await?;
    b.wait_js(
        "(() => { const r = document.querySelector('#scenario-results'); \
         return r.dataset.state === 'ready' && (r.dataset.query || '').includes('nq=20'); })()",
        Duration::from_secs(120),
    )
    .await?;
    // The huge run was cancelled: neither drawn before the edit's result
    // nor ended in an error (its work budget) first.
    let r = b
        .eval_js(
            "return [document.querySelector('#scenario-results').dataset.updates, window.__scenarioStates];",
        )
        .await?;
    assert_eq!(r[0], "1", "the huge run was drawn before the edit's: {r}");
    assert!(
        !r[1].as_array().unwrap().iter().any(|s| s == "error"),
        "the huge run ended in an error first: {r}"
    );
    b.finish().await
}

#[tokio::test]
async fn a_multibyte_machine_value_is_refused_not_fatal() -> Result<()> {
    let b = Browser::start().await?;
    for path in [
        "/?v=1&s=feishu-demo&m=%C3%A9",
        "/?v=1&s=feishu-demo&m=2p%2B4%E4%B8%AD",
    ] {
        b.open(path).await?;
        b.wait_js(
            "(() => { const r = document.querySelector('#scenario-results'); \
             return r && r.dataset.state === 'ready'; })()",
            Duration::from_secs(60),
        )
        .await?;
        let msg = banner(&b).await?;
        assert!(msg.contains("invalid m '"), "{path}: {msg}");
        assert!(!msg.contains("could not start"), "{path}: {msg}");
    }
    b.finish().await
}
