//! End-to-end tests of the playground page (dist/) in headless Chromium:
//! the study's numbers, agreement with `tailslice simulate --json`, live
//! edits and the URL, shared links, hostile input, embeds, canvases.

use std::time::Duration;

use serde_json::Value;
use tailslice_e2e::page::{
    assert_no_sideways_scroll, assert_ran_in_the_worker, cli_table, ink, note_states, noted_states,
    open_ready, table, wait_ready,
};
use tailslice_e2e::{Browser, Result};

const T: Duration = Duration::from_secs(20);

fn updates_of(v: &Value) -> u64 {
    v.as_str().and_then(|s| s.parse().ok()).unwrap_or(0)
}

async fn updates(b: &Browser) -> Result<u64> {
    Ok(updates_of(
        &b.eval_js("return document.body.dataset.updates || '0';")
            .await?,
    ))
}

async fn cell(b: &Browser, policy: &str, metric: &str) -> Result<String> {
    b.text(&format!(
        "table#percentiles tr[data-policy=\"{policy}\"] td[data-metric=\"{metric}\"]"
    ))
    .await
}

#[tokio::test]
async fn default_page_shows_the_studys_numbers() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    let want = [
        ("fifo", "mean", "2661.3"),
        ("fifo", "p50", "2904.8"),
        ("fifo", "p95", "4774.4"),
        ("fifo", "max", "5209.4"),
        ("rr", "mean", "1578.3"),
        ("rr", "p50", "1472.8"),
        ("rr", "p95", "3441.4"),
        ("rr", "max", "5209.4"),
    ];
    for (p, m, v) in want {
        assert_eq!(cell(&b, p, m).await?, v, "{p} {m}");
    }
    // Change versus the first policy, and the study's reading.
    let p95 = b.find("tr[data-policy=rr] td[data-metric=p95]").await?;
    assert_eq!(p95.attr("data-change").await?.as_deref(), Some("−28 %"));
    let max = b.find("tr[data-policy=rr] td[data-metric=max]").await?;
    assert_eq!(max.attr("data-change").await?.as_deref(), Some("±0 %"));
    assert!(b
        .text("#explanation")
        .await?
        .contains("the slowest task still finishes at 5209 ms"));
    // Defaults are omitted from the URL; no banner.
    assert_eq!(b.current_url().await?.query(), None);
    assert!(b.find("#error").await?.attr("hidden").await?.is_some());
    for c in ["#gantt", "#cdf", "#hist"] {
        let share = ink(&b, c).await?;
        assert!(share > 0.01, "{c} looks blank ({share})");
    }
    b.screenshot("page-default").await?;
    b.set_window_size(360, 800).await?;
    b.wait_js("document.querySelector('#gantt').clientWidth < 360", T)
        .await?;
    b.next_frame().await?;
    b.screenshot("page-360px").await?;
    assert_no_sideways_scroll(&b).await?;
    // On a phone the result comes first: the whole table is above the
    // fold, the settings are one tap away, and the DOM order is the
    // visual order (toggle, settings, results).
    let phone = b
        .eval_js(
            "const q = (s) => document.querySelector(s); \
             const before = (a, b) => !!(q(a).compareDocumentPosition(q(b)) & Node.DOCUMENT_POSITION_FOLLOWING); \
             return {table: q('#percentiles').getBoundingClientRect().bottom, fold: innerHeight, \
               controls: q('#controls').offsetParent !== null, toggle: q('#controls-toggle').offsetParent !== null, \
               expanded: q('#controls-toggle').getAttribute('aria-expanded'), \
               order: before('#controls-toggle', '#controls') && before('#controls', '#percentiles')};",
        )
        .await?;
    assert!(
        phone["table"].as_f64() <= phone["fold"].as_f64(),
        "the table ends below the fold: {phone}"
    );
    assert_eq!(phone["controls"], Value::Bool(false), "{phone}");
    assert_eq!(phone["toggle"], Value::Bool(true), "{phone}");
    assert_eq!(phone["expanded"], Value::from("false"), "{phone}");
    assert_eq!(phone["order"], Value::Bool(true), "{phone}");
    b.click("#controls-toggle").await?;
    let open = b
        .eval_js(
            "return [document.querySelector('#seed').offsetParent !== null, \
             document.querySelector('#controls-toggle').getAttribute('aria-expanded'), \
             document.querySelector('#controls').contains(document.activeElement)];",
        )
        .await?;
    assert_eq!(open, serde_json::json!([true, "true", true]));
    assert_no_sideways_scroll(&b).await?;
    b.screenshot("page-360px-settings").await?;
    b.click("#controls-toggle").await?;
    assert_eq!(
        b.eval_js("return document.querySelector('#seed').offsetParent === null;")
            .await?,
        Value::Bool(true)
    );
    // Wide again: the settings are always shown, the toggle is not.
    b.set_window_size(1280, 900).await?;
    assert_eq!(
        b.eval_js(
            "return [document.querySelector('#seed').offsetParent !== null, \
             document.querySelector('#controls-toggle').offsetParent === null];"
        )
        .await?,
        serde_json::json!([true, true])
    );
    b.finish().await
}

#[tokio::test]
async fn controls_are_built_from_the_catalog() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?p=fifo,mlfq").await?;
    // The policy checkboxes are the core's policies: the same list the
    // CLI's own refusal names.
    let refusal = match tailslice_e2e::run_cli(["simulate", "--policies", "nope"]) {
        Ok(out) => return Err(format!("--policies nope was accepted: {out}").into()),
        Err(e) => e.to_string(),
    };
    let listed = refusal
        .split(" from ")
        .nth(1)
        .and_then(|s| s.split(" joined").next())
        .ok_or_else(|| format!("no policy list in {refusal}"))?
        .replace(' ', "");
    let boxes = b
        .eval_js(
            "return [...document.querySelectorAll('#policy-boxes input')].map((i) => i.value).join(',');",
        )
        .await?;
    assert_eq!(boxes, Value::from(listed));
    // The table's columns are the core's figures, headed in the page's language.
    let heads = b
        .eval_js(
            "return [...document.querySelectorAll('#percentiles thead th')].map((t) => t.textContent);",
        )
        .await?;
    assert_eq!(
        heads,
        serde_json::json!([
            "policy",
            "mean",
            "p50",
            "p90",
            "p95",
            "p99",
            "max",
            "done < 100 ms"
        ])
    );
    // Labels, help and ranges are the catalog's (the parser's words).
    let quantum = b
        .eval_js(
            "const q = document.querySelector('#quantum'); \
             return [document.querySelector('label[for=quantum]').textContent, q.min, q.max, q.title];",
        )
        .await?;
    assert_eq!(quantum[0], Value::from("Quantum (ms)"));
    assert_eq!(quantum[1], Value::from("0.001"));
    assert_eq!(quantum[2], Value::from("100000"));
    assert!(
        quantum[3]
            .as_str()
            .unwrap_or("")
            .contains("a number of ms from 0.001 to 100000"),
        "{quantum}"
    );
    // A parameter the markup has no place for (the MLFQ knobs) gets an
    // input of its own, which edits the experiment like any other.
    let n = updates(&b).await?;
    b.eval_js(
        "const i = document.querySelector('#controls [data-param=mlfq_levels]'); i.value = '5'; \
         i.dispatchEvent(new Event('input', {bubbles: true})); return 1;",
    )
    .await?;
    wait_ready(&b, n + 1).await?;
    b.wait_js("location.search.includes('mlfq_levels=5')", T)
        .await?;
    assert_eq!(
        table(&b).await?,
        cli_table(&["--policies", "fifo,mlfq", "--mlfq-levels", "5"])?
    );
    // A bad value there is refused in Rust's words, and marked.
    b.eval_js(
        "const i = document.querySelector('#controls [data-param=mlfq_levels]'); i.value = '9'; \
         i.dispatchEvent(new Event('input', {bubbles: true})); return 1;",
    )
    .await?;
    b.wait_js("!document.querySelector('#form-error').hidden", T)
        .await?;
    assert!(b
        .text("#form-error")
        .await?
        .contains("invalid mlfq_levels '9': expected a whole number from 1 to 8"));
    assert_eq!(
        b.attr("#controls [data-param=mlfq_levels]", "aria-invalid")
            .await?
            .as_deref(),
        Some("true")
    );
    // In Chinese, the labels and headings are the catalog's Chinese.
    open_ready(&b, "/?lang=zh").await?;
    let zh = b
        .eval_js(
            "return [document.querySelector('label[for=seed]').textContent, \
             document.querySelector('#percentiles thead th[id=within-head]').textContent];",
        )
        .await?;
    assert_eq!(zh, serde_json::json!(["随机种子", "100 ms 内完成"]));
    b.finish().await
}

#[tokio::test]
async fn parameterised_urls_match_the_cli() -> Result<()> {
    let b = Browser::start().await?;
    let cases: [(&str, &[&str]); 4] = [
        ("/?v=1&seed=7&q=8", &["--seed", "7", "--quantum", "8"]),
        (
            "/?n=1000&p=fifo,rr,sjf,srpt&cs=0.5&within=50",
            &[
                "--tasks",
                "1000",
                "--policies",
                "fifo,rr,sjf,srpt",
                "--switch-cost",
                "0.5",
                "--within",
                "50",
            ],
        ),
        (
            "/?cores=4&n=2000&arrivals=poisson:0.9&p=rr,mlfq,srpt",
            &[
                "--cores",
                "4",
                "--tasks",
                "2000",
                "--arrivals",
                "poisson:0.9",
                "--policies",
                "rr,mlfq,srpt",
            ],
        ),
        (
            "/?mix=1:pareto(2,1.5),1:1-8&rng=fast&seed=3&q=4",
            &[
                "--mix",
                "1:pareto(2,1.5),1:1-8",
                "--rng",
                "fast",
                "--seed",
                "3",
                "--quantum",
                "4",
            ],
        ),
    ];
    for (url, args) in cases {
        open_ready(&b, url).await?;
        assert_eq!(table(&b).await?, cli_table(args)?, "{url}");
        assert!(
            b.find("#error").await?.attr("hidden").await?.is_some(),
            "{url}: banner shown"
        );
    }
    b.finish().await
}

#[tokio::test]
async fn editing_seed_and_quantum_updates_table_and_url() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    let before = table(&b).await?;

    let n = updates(&b).await?;
    let seed = b.find("input#seed").await?;
    seed.clear().await?;
    seed.send_keys("7").await?;
    wait_ready(&b, n + 1).await?;
    b.wait_js("location.search.includes('seed=7')", T).await?;
    let after_seed = table(&b).await?;
    assert_ne!(before, after_seed);

    let n = updates(&b).await?;
    b.eval_js(
        "const q = document.querySelector('input#quantum'); q.value = '8'; \
         q.dispatchEvent(new Event('input', {bubbles: true})); return 1;",
    )
    .await?;
    wait_ready(&b, n + 1).await?;
    b.wait_js("location.search.includes('q=8')", T).await?;
    let after_q = table(&b).await?;
    assert_eq!(after_q, cli_table(&["--seed", "7", "--quantum", "8"])?);
    let url = b.current_url().await?;
    assert_eq!(url.query(), Some("v=1&seed=7&q=8"));

    // The slider drives the same parameter.
    let n = updates(&b).await?;
    b.eval_js(
        "const s = document.querySelector('#quantum-slider'); s.value = '50'; \
         s.dispatchEvent(new Event('input', {bubbles: true})); return 1;",
    )
    .await?;
    wait_ready(&b, n + 1).await?;
    b.wait_js("location.search.includes('q=50')", T).await?;
    assert_eq!(
        b.find("input#quantum")
            .await?
            .prop("value")
            .await?
            .as_deref(),
        Some("50")
    );

    // Reopening the shared URL gives the same table.
    let shared = b.current_url().await?;
    let shown = table(&b).await?;
    let path = format!("/?{}", shared.query().unwrap());
    open_ready(&b, &path).await?;
    assert_eq!(table(&b).await?, shown);
    assert_eq!(
        b.find("input#seed").await?.prop("value").await?.as_deref(),
        Some("7")
    );
    b.finish().await
}

#[tokio::test]
async fn bad_and_hostile_parameters_show_the_banner_and_run_nothing() -> Result<()> {
    let b = Browser::start().await?;
    // Bad values: banner names the parameter, the value and what is allowed;
    // that parameter falls back, the rest still applies.
    open_ready(&b, "/?seed=7&q=0&n=abc").await?;
    let banner = b.text("#error").await?;
    assert!(banner.contains("invalid q '0'"), "{banner}");
    assert!(banner.contains("from 0.001 to 100000"), "{banner}");
    assert!(banner.contains("q=16 is used"), "{banner}");
    assert!(banner.contains("invalid n 'abc'"), "{banner}");
    assert_eq!(b.attr("#error", "role").await?.as_deref(), Some("alert"));
    assert_eq!(table(&b).await?, cli_table(&["--seed", "7"])?);
    assert_eq!(b.current_url().await?.query(), Some("v=1&seed=7"));

    // Too big for a tab: refused with a message, default used.
    open_ready(&b, "/?n=5000000").await?;
    assert!(b.text("#error").await?.contains("invalid n '5000000'"));
    assert_eq!(cell(&b, "fifo", "mean").await?, "2661.3");

    // Hostile values are shown as text, never run.
    let hostile = [
        "/?seed=%3Cimg%20src%3Dx%20onerror%3D%22window.__pwned%3D1%22%3E",
        "/?mix=%3Cscript%3Ewindow.__pwned%3D2%3C%2Fscript%3E&p=%3Cimg%20src=x%20onerror=window.__pwned=3%3E",
        "/?q=%22%3E%3Csvg%20onload%3Dwindow.__pwned%3D4%3E&embed=%3Cb%3E",
    ];
    for url in hostile {
        open_ready(&b, url).await?;
        let banner = b.text("#error").await?;
        assert!(banner.contains("invalid"), "{url}: {banner}");
        let check = b
            .eval_js(
                "return [window.__pwned === undefined, \
                 document.querySelectorAll('#error img, #error script, #error svg, #error b').length];",
            )
            .await?;
        assert_eq!(check, serde_json::json!([true, 0]), "{url}");
        assert_eq!(
            cell(&b, "fifo", "mean").await?,
            "2661.3",
            "{url}: defaults run"
        );
    }
    let shown = b.text("#error").await?;
    assert!(
        shown.contains("<svg onload"),
        "the value is echoed as text: {shown}"
    );
    b.finish().await
}

#[tokio::test]
async fn embed_mode_is_compact_and_posts_its_height() -> Result<()> {
    let b = Browser::start().await?;
    // Top level (parent === window): the page posts to itself; listen first.
    open_ready(&b, "/?v=1&seed=5&embed=1").await?;
    let compact = b
        .eval_js(
            "return [document.body.classList.contains('embed'), \
             document.querySelector('#mix-rows').offsetParent === null, \
             !!document.querySelector('table#percentiles tr[data-policy]'), \
             document.querySelector('#open-full').hidden, \
             document.querySelector('#open-full').getAttribute('href')];",
        )
        .await?;
    assert_eq!(compact[0], true);
    assert_eq!(compact[1], true, "the mix editor is hidden in embeds");
    assert_eq!(compact[2], true);
    assert_eq!(compact[3], false, "open in tailslice link visible");
    let href = compact[4].as_str().unwrap();
    assert!(
        href.ends_with("?v=1&seed=5") && !href.contains("embed"),
        "{href}"
    );
    assert!(b.find("input#seed").await?.is_displayed().await?);
    assert!(b.find("input#quantum").await?.is_displayed().await?);
    b.screenshot("page-embed").await?;

    // In an iframe: the host receives {type: "tailslice:height", height}.
    b.eval_js(
        "window.__heights = []; \
         const f = document.createElement('iframe'); f.src = './?seed=5&embed=1'; f.width = '600'; f.height = '300'; \
         addEventListener('message', e => { if (e.source === f.contentWindow && e.data && e.data.type === 'tailslice:height') window.__heights.push(e.data.height); }); \
         document.body.append(f); return 1;",
    )
    .await?;
    let h = b
        .wait_js(
            "window.__heights.length > 0 && window.__heights[window.__heights.length - 1]",
            T,
        )
        .await?;
    let h = h.as_f64().unwrap();
    assert!((300.0..4000.0).contains(&h), "height {h}");
    b.finish().await
}

#[tokio::test]
async fn share_and_embed_buttons_give_the_current_experiment() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?seed=9&q=12").await?;
    b.click("button#embed-code").await?;
    let snippet = b
        .wait_js("document.querySelector('#embed-snippet').value", T)
        .await?;
    let snippet = snippet.as_str().unwrap();
    assert!(
        snippet.contains("data-tailslice-facade=\"v=1&amp;seed=9&amp;q=12&amp;embed=1\""),
        "{snippet}"
    );
    b.click("#embed-close").await?;
    b.click("button#share").await?;
    b.wait_js(
        "document.querySelector('#copy-status').textContent.length > 0",
        T,
    )
    .await?;
    b.finish().await
}

#[tokio::test]
async fn gantt_hover_zoom_and_pan() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    // Hover the first lane near its start: FIFO runs task 0 first.
    let tip = b
        .eval_js(
            "const c = document.querySelector('#gantt'); const r = c.getBoundingClientRect(); \
             c.dispatchEvent(new PointerEvent('pointermove', {clientX: r.left + 9, clientY: r.top + 26, pointerType: 'mouse', bubbles: true})); \
             const t = document.querySelector('#tooltip'); return t.hidden ? '' : t.textContent;",
        )
        .await?;
    let tip = tip.as_str().unwrap();
    assert!(tip.starts_with("task #0 "), "{tip}");
    assert!(tip.contains("latency"), "{tip}");
    let before = ink(&b, "#gantt").await?;
    b.eval_js(
        "const c = document.querySelector('#gantt'); const r = c.getBoundingClientRect(); \
         for (let i = 0; i < 5; i++) c.dispatchEvent(new WheelEvent('wheel', {clientX: r.left + 100, clientY: r.top + 30, deltaY: -200, bubbles: true, cancelable: true})); return 1;",
    )
    .await?;
    // The zoom is drawn in the next animation frame.
    b.next_frame().await?;
    let after = ink(&b, "#gantt").await?;
    assert!(
        after > 0.01 && (after - before).abs() > 1e-4,
        "zoom changed nothing ({before} → {after})"
    );
    b.finish().await
}

#[tokio::test]
async fn large_runs_show_progress_and_keep_the_page_responsive() -> Result<()> {
    let b = Browser::start().await?;
    b.open("/?n=300000&q=4&p=fifo,rr,srpt").await?;
    // Progress shows while the worker runs.
    b.wait_js(
        "!document.querySelector('#progress').hidden || document.body.dataset.state === 'ready'",
        T,
    )
    .await?;
    // Editing while a large run is going cancels it and runs the new one,
    // in the worker all the while the page says it is running (the main
    // thread stays free; how soon it answers, the benchmark prints).
    note_states(&b).await?;
    let seed = b.find("input#seed").await?;
    seed.clear().await?;
    seed.send_keys("5").await?;
    b.wait_js(
        "document.body.dataset.state === 'ready' && document.body.dataset.query.includes('seed=5')",
        Duration::from_secs(90),
    )
    .await?;
    assert_eq!(
        b.eval_js("return document.querySelectorAll('tr[data-policy]').length;")
            .await?,
        serde_json::json!(3)
    );
    assert_ran_in_the_worker(&noted_states(&b).await?)?;
    assert!(ink(&b, "#cdf").await? > 0.01);
    b.screenshot("page-large").await?;
    b.finish().await
}

#[tokio::test]
async fn policies_mix_and_presets_edit_the_experiment() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    // Add SRPT: a third row, the URL lists it after the baseline.
    let n = updates(&b).await?;
    b.click("#policy-srpt").await?;
    wait_ready(&b, n + 1).await?;
    b.wait_js("location.search.includes('p=fifo,rr,srpt')", T)
        .await?;
    b.wait_for("tr[data-policy=srpt]", T).await?;
    // A fourth policy fills the list: the fifth box is disabled.
    let n = updates(&b).await?;
    b.click("#policy-sjf").await?;
    wait_ready(&b, n + 1).await?;
    assert_eq!(
        b.find("#policy-mlfq")
            .await?
            .prop("disabled")
            .await?
            .as_deref(),
        Some("true")
    );
    // Mix editor: add a class, then an invalid edit is refused inline.
    let n = updates(&b).await?;
    b.click("#mix-add").await?;
    wait_ready(&b, n + 1).await?;
    b.wait_js(
        "location.search.includes('mix=85:1-8,12:10-40,3:80-200,1:10-20')",
        T,
    )
    .await?;
    let n = updates(&b).await?;
    b.eval_js(
        "const lo = document.querySelectorAll('#mix-rows .mix-lo')[3]; lo.value = '50'; \
         lo.dispatchEvent(new Event('input', {bubbles: true})); return 1;",
    )
    .await?;
    let msg = b.wait_js("!document.querySelector('#form-error').hidden && document.querySelector('#form-error').textContent", T).await?;
    assert!(msg.as_str().unwrap().contains("invalid mix"), "{msg}");
    assert_eq!(updates(&b).await?, n, "an invalid edit does not run");
    // A preset replaces the experiment and clears the message.
    b.eval_js(
        "const s = document.querySelector('#preset'); s.value = ''; \
         s.dispatchEvent(new Event('change', {bubbles: true})); return 1;",
    )
    .await?;
    wait_ready(&b, n + 1).await?;
    assert_eq!(b.current_url().await?.query(), None);
    assert_eq!(cell(&b, "rr", "p95").await?, "3441.4");
    assert!(b.find("#form-error").await?.attr("hidden").await?.is_some());
    b.finish().await
}
