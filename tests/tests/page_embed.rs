//! End-to-end tests of embedding the playground in a blog post: the Embed
//! dialog (Live and Static snippets), the live facade on a host page of
//! another origin (nothing heavy before a click, the swap by click and by
//! keyboard, the frame sized up and down), the Static snippet as a figure
//! with its link, the embed view's keys (`view`, `controls`, `theme`),
//! Share inside an embed, and an embedded scenario.

use std::path::PathBuf;
use std::time::Duration;

use fantoccini::Locator;
use serde_json::{json, Value};
use tailslice_e2e::page::{embed_snippet, open_ready, wait_ready};
use tailslice_e2e::{require_dist, run_cli, Browser, Result, StaticServer};

const T: Duration = Duration::from_secs(30);

/// The Embed dialog's snippet of `kind` (`live` or `static`) for the
/// current page.
async fn dialog_snippet(b: &Browser, kind: &str) -> Result<String> {
    embed_snippet(b, kind, T).await
}

/// A folder with `host.html`: a blog post holding `snippets`, with a
/// long-task observer first in its head.
fn host_dir(name: &str, snippets: &[String]) -> Result<PathBuf> {
    let dir = tailslice_e2e::artifacts_dir().join(name);
    std::fs::create_dir_all(&dir)?;
    std::fs::write(
        dir.join("observe.js"),
        "window.__long = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) \
         window.__long.push(e.duration); }).observe({ type: 'longtask', buffered: true });",
    )?;
    let mut html = String::from(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>A post</title><script src=\"observe.js\"></script></head>\
         <body style=\"max-width:760px;margin:0 auto;font:16px/1.5 serif\"><h1>A post</h1>\n",
    );
    for (i, s) in snippets.iter().enumerate() {
        html.push_str(&format!(
            "<p>Paragraph {i} of the post, before figure {i}.</p>\n{s}\n"
        ));
    }
    html.push_str("<p>The end.</p></body></html>\n");
    std::fs::write(dir.join("host.html"), html)?;
    Ok(dir)
}

/// Requests the browser made (chromedriver's performance log since the
/// last call): `(url, bytes on the wire)` of each finished load.
async fn requests(b: &Browser) -> Result<Vec<(String, f64)>> {
    let mut urls = std::collections::HashMap::new();
    let mut out = Vec::new();
    for e in b.performance_log().await? {
        let m: Value = serde_json::from_str(e["message"].as_str().unwrap_or("{}"))?;
        let (method, p) = (&m["message"]["method"], &m["message"]["params"]);
        match method.as_str() {
            Some("Network.requestWillBeSent") => {
                urls.insert(
                    p["requestId"].to_string(),
                    p["request"]["url"].as_str().unwrap_or("").to_string(),
                );
            }
            Some("Network.loadingFinished") => {
                let url = urls.get(&p["requestId"].to_string()).cloned();
                out.push((
                    url.unwrap_or_default(),
                    p["encodedDataLength"].as_f64().unwrap_or(0.0),
                ));
            }
            _ => {}
        }
    }
    Ok(out)
}

async fn browser_with_network_log() -> Result<Browser> {
    Browser::start_serving_with(require_dist()?, |caps| {
        caps.insert(
            "goog:loggingPrefs".into(),
            json!({ "browser": "ALL", "performance": "ALL" }),
        );
    })
    .await
}

#[tokio::test]
async fn the_embed_dialog_offers_live_then_static() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?seed=9&q=12").await?;
    b.click("button#embed-code").await?;
    b.wait_js("document.querySelector('#embed-dialog').open", T)
        .await?;
    // Live is the default; its snippet is the figure in a link, one loader.
    let first = b
        .eval_js(
            "return [document.querySelector('input[name=\"embed-kind\"]:checked').value, \
             document.activeElement && document.activeElement.name];",
        )
        .await?;
    assert_eq!(first, json!(["live", "embed-kind"]));
    let live = b
        .wait_js(
            "document.querySelector('#embed-snippet').dataset.state === 'ready' && \
             document.querySelector('#embed-snippet').value",
            T,
        )
        .await?;
    let live = live.as_str().unwrap();
    let base = b.url("/");
    assert!(
        live.contains(&format!("href=\"{base}?v=1&amp;seed=9&amp;q=12\"")),
        "{live}"
    );
    assert!(
        live.contains("data-tailslice-facade=\"v=1&amp;seed=9&amp;q=12&amp;embed=1\""),
        "{live}"
    );
    assert!(
        live.contains(&format!("<script async src=\"{base}facade.js\"></script>")),
        "{live}"
    );
    assert_eq!(live.matches("<script").count(), 1, "{live}");
    assert!(
        live.contains("<svg ") && !live.contains("<iframe"),
        "{live}"
    );
    b.screenshot("embed-dialog").await?;

    // The pickers go into the live embed's query.
    b.eval_js(
        "for (const [id, v] of [['#embed-view', 'table'], ['#embed-controls', '0'], ['#embed-theme', 'dark']]) { \
         const s = document.querySelector(id); s.value = v; s.dispatchEvent(new Event('change', {bubbles: true})); } return 1;",
    )
    .await?;
    let v = b
        .wait_js(
            "document.querySelector('#embed-snippet').dataset.state === 'ready' && \
             document.querySelector('#embed-snippet').value",
            T,
        )
        .await?;
    assert!(
        v.as_str().unwrap().contains(
            "data-tailslice-facade=\"v=1&amp;seed=9&amp;q=12&amp;embed=1&amp;view=table&amp;controls=0&amp;theme=dark\""
        ),
        "{v}"
    );

    // Static: the figure and its link, no script, no frame, no loader.
    b.click("#embed-kind-static").await?;
    let st = b
        .wait_js(
            "document.querySelector('#embed-snippet').dataset.kind === 'static' && \
             document.querySelector('#embed-snippet').dataset.state === 'ready' && \
             document.querySelector('#embed-snippet').value",
            T,
        )
        .await?;
    let st = st.as_str().unwrap();
    assert!(
        !st.contains("<script") && !st.contains("<iframe") && !st.contains("facade"),
        "{st}"
    );
    assert!(
        st.contains("<svg ") && st.contains(&format!("href=\"{base}?v=1&amp;seed=9&amp;q=12\"")),
        "{st}"
    );
    assert!(
        b.eval_js("return document.querySelector('#embed-controls').disabled;")
            .await?
            == json!(true),
        "settings mean nothing without a live embed"
    );

    // Copy answers (the clipboard, or the text selected to copy by hand).
    b.click("#embed-copy").await?;
    b.wait_js(
        "document.querySelector('#embed-status').textContent.length > 0",
        T,
    )
    .await?;
    b.click("#embed-close").await?;
    b.wait_js("!document.querySelector('#embed-dialog').open", T)
        .await?;
    b.finish().await
}

/// The figure of `args` as the CLI's `--svg` writes it.
fn cli_figure(name: &str, args: &[&str]) -> Result<String> {
    let dir = tailslice_e2e::artifacts_dir().join("embed-figures");
    std::fs::create_dir_all(&dir)?;
    let p = dir.join(name);
    let mut all: Vec<&str> = args.to_vec();
    let path = p.to_string_lossy().into_owned();
    all.extend(["--svg", &path]);
    run_cli(&all)?;
    Ok(std::fs::read_to_string(&p)?)
}

/// The first (widest) `<svg>…</svg>` a snippet holds: the page-wide
/// figure, as the CLI draws it.
fn svg_of(snippet: &str) -> &str {
    let start = snippet.find("<svg").expect("a figure");
    let end = start + snippet[start..].find("</svg>").expect("a whole figure") + "</svg>".len();
    &snippet[start..end]
}

/// What follows `<svg` in a figure (a snippet adds its own style first).
fn after_tag(svg: &str) -> &str {
    svg.trim().strip_prefix("<svg").expect("an svg")
}

#[tokio::test]
async fn the_snippets_figure_is_the_charts_own_svg() -> Result<()> {
    let b = Browser::start().await?;
    // The default experiment: the CLI's figure, byte for byte, and small.
    open_ready(&b, "/").await?;
    let st = dialog_snippet(&b, "static").await?;
    let figure = svg_of(&st);
    let cli = cli_figure("default-all.svg", &["simulate", "--figure", "all"])?;
    assert!(figure.ends_with(after_tag(&cli)), "{figure}");
    println!(
        "the default experiment's `all` figure: {} bytes",
        figure.len()
    );
    assert!(figure.len() <= 60 * 1024, "{} bytes", figure.len());
    // With its narrower layouts, the whole snippet stays small.
    println!("the static snippet: {} bytes", st.len());
    assert!(st.len() <= 160 * 1024, "{} bytes", st.len());
    // The dialog's part and colours: the table alone, dark.
    b.eval_js(
        "for (const [id, v] of [['#embed-view', 'table'], ['#embed-theme', 'dark']]) { \
         const s = document.querySelector(id); s.value = v; s.dispatchEvent(new Event('change', {bubbles: true})); } return 1;",
    )
    .await?;
    let st = b
        .wait_js(
            "document.querySelector('#embed-snippet').dataset.state === 'ready' && \
             document.querySelector('#embed-snippet').value",
            T,
        )
        .await?;
    let cli = cli_figure(
        "default-table-dark.svg",
        &["simulate", "--figure", "table", "--theme", "dark"],
    )?;
    assert!(
        svg_of(st.as_str().unwrap()).ends_with(after_tag(&cli)),
        "{st}"
    );
    // In Chinese, the figure's words are Chinese.
    b.click("#embed-close").await?;
    b.open("/?lang=zh").await?;
    wait_ready(&b, 1).await?;
    let st = dialog_snippet(&b, "static").await?;
    let cli = cli_figure(
        "default-all-zh.svg",
        &["simulate", "--figure", "all", "--lang", "zh"],
    )?;
    assert!(svg_of(&st).ends_with(after_tag(&cli)), "{st}");
    b.finish().await
}

#[tokio::test]
async fn five_live_snippets_cost_a_host_page_one_small_script_until_a_click() -> Result<()> {
    let b = browser_with_network_log().await?;
    // The snippets as the dialog writes them, for five seeds.
    let mut snippets = Vec::new();
    for seed in 1..=5 {
        open_ready(&b, &format!("/?seed={seed}")).await?;
        snippets.push(dialog_snippet(&b, "live").await?);
    }
    let host = StaticServer::start(host_dir("embed-host-live", &snippets)?)?;
    requests(&b).await?; // forget the app's own loads
    b.client()
        .goto(&format!("{}/host.html", host.base_url()))
        .await?;
    b.wait_js("document.readyState === 'complete'", T).await?;
    b.wait_js(
        "document.querySelectorAll('a[data-tailslice-facade]').length === 5 && \
         !!window[`tailslice:${new URL('./', document.querySelector('script[src$=\"facade.js\"]').src).href}`]",
        T,
    )
    .await?;
    // Before any click: the loader and nothing else of the deployment.
    let before = requests(&b).await?;
    let app_base = b.url("/");
    let of_app: Vec<&(String, f64)> = before
        .iter()
        .filter(|(u, _)| u.starts_with(&app_base))
        .collect();
    assert!(
        !before.iter().any(|(u, _)| u.ends_with(".wasm")),
        "{before:?}"
    );
    assert!(
        !of_app.is_empty() && of_app.iter().all(|(u, _)| u.ends_with("/facade.js")),
        "{before:?}"
    );
    let embed_bytes: f64 = of_app.iter().map(|(_, n)| n).sum();
    assert!(
        embed_bytes <= 100.0 * 1024.0,
        "{embed_bytes} bytes: {before:?}"
    );
    // (Its main-thread tasks while loading are a benchmark figure:
    // scripts/bench-embed.sh.)
    b.screenshot("embed-host-facades").await?;
    assert_eq!(
        b.eval_js("return document.querySelectorAll('iframe').length;")
            .await?,
        json!(0)
    );

    // A click swaps the third figure for the live embed of its own seed.
    let facades = b
        .client()
        .find_all(Locator::Css("a[data-tailslice-facade]"))
        .await?;
    let facade_h = b
        .eval_js("return document.querySelectorAll('a[data-tailslice-facade]')[2].getBoundingClientRect().height;")
        .await?
        .as_f64()
        .unwrap();
    facades[2].click().await?;
    let src = b
        .wait_js("document.querySelector('iframe[data-tailslice-frame]') && document.querySelector('iframe[data-tailslice-frame]').src", T)
        .await?;
    assert_eq!(
        src.as_str().unwrap(),
        format!("{app_base}?v=1&seed=3&embed=1"),
        "the frame loads the deployment's own page"
    );
    assert_eq!(
        b.eval_js("return [document.querySelectorAll('a[data-tailslice-facade]').length, document.activeElement.tagName];")
            .await?,
        json!([4, "IFRAME"])
    );
    let frame = b.find("iframe[data-tailslice-frame]").await?;
    frame.clone().enter_frame().await?;
    wait_ready(&b, 1).await?;
    let inside = b
        .eval_js(
            "return [document.body.classList.contains('embed'), \
             document.querySelectorAll('table#percentiles tr[data-policy]').length, \
             new URLSearchParams(location.search).get('seed')];",
        )
        .await?;
    assert_eq!(inside, json!([true, 2, "3"]));
    let body_h = b
        .eval_js("return Math.ceil(document.body.getBoundingClientRect().bottom);")
        .await?
        .as_f64()
        .unwrap();
    // Sized to its content: the frame shows all of it, with no scroll bar.
    b.wait_js(
        "document.documentElement.scrollHeight <= innerHeight + 1 && innerHeight >= document.body.getBoundingClientRect().bottom - 1",
        T,
    )
    .await?;
    b.client().enter_parent_frame().await?;
    // The loader sizes the frame to the embed's body.
    let h = b
        .wait_js(
            &format!(
                "(() => {{ const h = parseFloat(document.querySelector('iframe[data-tailslice-frame]').style.height); \
                 return Math.abs(h - {body_h}) <= 2 && h; }})()"
            ),
            T,
        )
        .await?;
    assert!(
        h.as_f64().unwrap() > facade_h.min(200.0),
        "{h} vs facade {facade_h}"
    );
    b.screenshot("embed-host-live").await?;

    // Four policies, then FIFO only: the frame grows, then shrinks.
    frame.clone().enter_frame().await?;
    let grow = b
        .eval_js("window.tailslice.load('v=1&seed=3&p=fifo,rr,sjf,mlfq&embed=1'); return 1;")
        .await;
    grow?;
    wait_ready(&b, 2).await?;
    let tall = b
        .eval_js("return Math.ceil(document.body.getBoundingClientRect().bottom);")
        .await?
        .as_f64()
        .unwrap();
    b.eval_js("window.tailslice.load('v=1&seed=3&p=fifo&embed=1'); return 1;")
        .await?;
    wait_ready(&b, 3).await?;
    let short = b
        .eval_js("return Math.ceil(document.body.getBoundingClientRect().bottom);")
        .await?
        .as_f64()
        .unwrap();
    b.client().enter_parent_frame().await?;
    assert!(short < tall, "{short} < {tall}");
    b.wait_js(
        &format!(
            "Math.abs(parseFloat(document.querySelector('iframe[data-tailslice-frame]').style.height) - {short}) <= 2"
        ),
        T,
    )
    .await?;

    // The keyboard: Enter on the fourth facade, Space on the fifth.
    let facades = b
        .client()
        .find_all(Locator::Css("a[data-tailslice-facade]"))
        .await?;
    assert_eq!(facades.len(), 4);
    facades[2].send_keys("\u{E007}").await?;
    b.wait_js(
        "document.querySelectorAll('iframe[data-tailslice-frame]').length === 2",
        T,
    )
    .await?;
    let facades = b
        .client()
        .find_all(Locator::Css("a[data-tailslice-facade]"))
        .await?;
    facades[2].send_keys(" ").await?;
    b.wait_js(
        "document.querySelectorAll('iframe[data-tailslice-frame]').length === 3",
        T,
    )
    .await?;
    let seeds = b
        .eval_js(
            "return [...document.querySelectorAll('iframe[data-tailslice-frame]')].map(f => new URL(f.src).searchParams.get('seed'));",
        )
        .await?;
    assert_eq!(seeds, json!(["3", "4", "5"]));
    assert!(host.failed_requests().is_empty());
    b.finish().await
}

#[tokio::test]
async fn the_loader_ignores_strangers() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?seed=2").await?;
    let live = dialog_snippet(&b, "live").await?;
    let app_base = b.url("/");
    // A facade whose link leads elsewhere is not ours; a forged query can
    // only ever load the deployment's own page; a height message from
    // another frame or origin changes nothing.
    let stranger = live.replace(&format!("href=\"{app_base}"), "href=\"https://example.org/");
    let forged = live.replace(
        "data-tailslice-facade=\"v=1&amp;seed=2&amp;embed=1\"",
        "data-tailslice-facade=\"//evil.example/x?seed=2#frag\"",
    );
    let host = StaticServer::start(host_dir("embed-host-strangers", &[stranger, forged])?)?;
    b.client()
        .goto(&format!("{}/host.html", host.base_url()))
        .await?;
    b.wait_js("document.readyState === 'complete' && document.querySelectorAll('a[data-tailslice-facade]').length === 2", T)
        .await?;
    b.wait_js(
        "!!window[`tailslice:${new URL('./', document.querySelector('script[src$=\"facade.js\"]').src).href}`]",
        T,
    )
    .await?;
    let facades = b
        .client()
        .find_all(Locator::Css("a[data-tailslice-facade]"))
        .await?;
    // The stranger's click is left to its link: seen last (on window),
    // nothing has prevented its navigation (stopped here, to stay on the page).
    b.eval_js(
        "const a = document.querySelectorAll('a[data-tailslice-facade]')[0]; \
         addEventListener('click', (e) => { if (e.target.closest('a') === a) { \
           window.__navigated = !e.defaultPrevented; e.preventDefault(); } }); return 1;",
    )
    .await?;
    facades[0].click().await?;
    b.wait_js("window.__navigated !== undefined", T).await?;
    assert_eq!(
        b.eval_js("return [window.__navigated, document.querySelectorAll('iframe').length];")
            .await?,
        json!([true, 0])
    );
    facades[1].click().await?;
    let src = b
        .wait_js(
            "document.querySelector('iframe') && document.querySelector('iframe').src",
            T,
        )
        .await?;
    let src = url::Url::parse(src.as_str().unwrap())?;
    assert_eq!(src.origin(), url::Url::parse(&app_base)?.origin(), "{src}");
    assert_eq!(src.path(), "/", "{src}");
    assert_eq!(src.fragment(), None, "{src}");
    assert!(src.query_pairs().any(|(k, v)| k == "embed" && v == "1"));
    // Messages from the host page itself do not size the frame.
    b.eval_js("window.postMessage({type: 'tailslice:height', height: 5}, '*'); return 1;")
        .await?;
    b.wait_js(
        "parseFloat(document.querySelector('iframe').style.height) >= 80",
        T,
    )
    .await?;
    b.finish().await
}

#[tokio::test]
async fn the_static_snippet_is_a_figure_with_its_link() -> Result<()> {
    let b = browser_with_network_log().await?;
    open_ready(&b, "/?seed=4").await?;
    let st = dialog_snippet(&b, "static").await?;
    let host = StaticServer::start(host_dir("embed-host-static", &[st])?)?;
    requests(&b).await?;
    b.client()
        .goto(&format!("{}/host.html", host.base_url()))
        .await?;
    b.wait_js("document.readyState === 'complete'", T).await?;
    let shown = b
        .eval_js(
            "const f = document.querySelector('figure.tailslice-figure'); const s = [...f.querySelectorAll('a > svg')].find((e) => e.getBoundingClientRect().width > 0); \
             const r = s.getBoundingClientRect(); \
             return [r.width > 200 && r.height > 50, s.querySelectorAll('text').length > 5, \
             [...f.querySelectorAll('a')].map(a => a.href), \
             document.querySelectorAll('script[src*=\"facade\"], iframe').length];",
        )
        .await?;
    let full = format!("{}?v=1&seed=4", b.url("/"));
    assert_eq!(shown, json!([true, true, [full.clone(), full], 0]));
    b.screenshot("embed-static-snippet").await?;
    let app_base = b.url("/");
    let fetched = requests(&b).await?;
    assert!(
        !fetched.iter().any(|(u, _)| u.starts_with(&app_base)),
        "the static snippet fetches nothing: {fetched:?}"
    );
    b.finish().await
}

/// Which of the embed's parts show: [table, gantt, cdf, settings].
async fn parts_shown(b: &Browser) -> Result<Value> {
    b.eval_js(
        "const on = (s) => { const e = document.querySelector(s); return !!e && e.getClientRects().length > 0; }; \
         return [on('table#percentiles'), on('canvas#gantt'), on('canvas#cdf'), on('form#controls')];",
    )
    .await
}

#[tokio::test]
async fn the_view_controls_and_theme_keys() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&seed=3&embed=1").await?;
    assert_eq!(parts_shown(&b).await?, json!([true, true, true, true]));
    assert_eq!(
        b.eval_js("return getComputedStyle(document.querySelector('#embed-code')).display;")
            .await?,
        json!("none"),
        "an embed has no Embed button of its own"
    );
    for (query, shown) in [
        ("view=table", [true, false, false, true]),
        ("view=gantt&controls=0", [false, true, false, false]),
        ("view=cdf", [false, false, true, true]),
        ("view=all&controls=0", [true, true, true, false]),
    ] {
        open_ready(&b, &format!("/?v=1&seed=3&embed=1&{query}")).await?;
        assert_eq!(parts_shown(&b).await?, json!(shown), "{query}");
        let href = b.attr("#open-full", "href").await?.unwrap_or_default();
        assert!(
            href.ends_with("?v=1&seed=3"),
            "{query}: the full page has no embed keys: {href}"
        );
    }
    // The address keeps the keys through an edit.
    open_ready(&b, "/?v=1&seed=3&embed=1&view=table&controls=1&theme=dark").await?;
    b.eval_js(
        "const s = document.querySelector('#seed'); s.value = '8'; s.dispatchEvent(new Event('input', {bubbles: true})); return 1;",
    )
    .await?;
    wait_ready(&b, 2).await?;
    assert_eq!(
        b.current_url().await?.query(),
        Some("v=1&seed=8&embed=1&view=table&theme=dark")
    );
    // theme: dark and light override the system setting, on any page.
    let bg = "return [document.documentElement.dataset.theme || '', getComputedStyle(document.body).backgroundColor];";
    assert_eq!(b.eval_js(bg).await?, json!(["dark", "rgb(22, 24, 27)"]));
    open_ready(&b, "/?theme=light").await?;
    assert_eq!(b.eval_js(bg).await?, json!(["light", "rgb(255, 255, 255)"]));
    b.cdp(
        "Emulation.setEmulatedMedia",
        json!({"features": [{"name": "prefers-color-scheme", "value": "dark"}]}),
    )
    .await?;
    assert_eq!(
        b.eval_js(bg).await?,
        json!(["light", "rgb(255, 255, 255)"]),
        "theme=light wins over a dark system"
    );
    open_ready(&b, "/?theme=auto&seed=2").await?;
    assert_eq!(b.eval_js(bg).await?, json!(["", "rgb(22, 24, 27)"]));
    assert_eq!(b.current_url().await?.query(), Some("v=1&seed=2"));
    // Bad values: a banner naming the key and what is allowed; defaults used.
    open_ready(&b, "/?embed=1&view=%3Cb%3Ex&controls=2&theme=blue").await?;
    let banner = b.text("#error").await?;
    for part in [
        "view",
        "table, gantt, cdf or all",
        "controls",
        "1 or 0",
        "theme",
        "light, dark or auto",
    ] {
        assert!(banner.contains(part), "{part}: {banner}");
    }
    assert_eq!(parts_shown(&b).await?, json!([true, true, true, true]));
    b.finish().await
}

#[tokio::test]
async fn share_inside_an_embed_gives_the_full_page() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&seed=6&q=9&embed=1&view=table").await?;
    b.click("button#share").await?;
    let link = b
        .wait_js("document.querySelector('#share-link').value", T)
        .await?;
    assert_eq!(
        link.as_str().unwrap(),
        format!("{}?v=1&seed=6&q=9", b.url("/"))
    );
    b.wait_js(
        "document.querySelector('#copy-status').textContent.length > 0",
        T,
    )
    .await?;
    b.finish().await
}

#[tokio::test]
async fn a_scenario_embeds_and_opens_in_full_with_its_knobs() -> Result<()> {
    let b = Browser::start().await?;
    // The full page in scenario mode has an Embed button.
    b.open("/?s=m1-compress&m=m1").await?;
    b.wait_js(
        "document.querySelector('#scenario-results') && document.querySelector('#scenario-results').dataset.state === 'ready'",
        Duration::from_secs(60),
    )
    .await?;
    assert!(b.find("button#embed-code").await?.is_displayed().await?);
    let live = dialog_snippet(&b, "live").await?;
    assert!(
        live.contains("data-tailslice-facade=\"v=1&amp;s=m1-compress&amp;m=m1&amp;embed=1\""),
        "{live}"
    );
    assert!(
        live.contains(&format!(
            "href=\"{}?v=1&amp;s=m1-compress&amp;m=m1\"",
            b.url("/")
        )),
        "{live}"
    );
    // Its figure: the scenario's tables and charts as the CLI draws them.
    let cli = cli_figure(
        "m1-compress-m1.svg",
        &["scenario", "m1-compress", "--machine", "m1"],
    )?;
    assert!(svg_of(&live).ends_with(after_tag(&cli)), "{live}");
    assert!(live.contains(">Job times (s)<"), "{live}");
    // The embed: "open in tailslice" keeps the scenario and its knobs.
    b.open("/?s=m1-compress&m=m1&embed=1&view=table").await?;
    b.wait_js(
        "document.querySelector('#scenario-results') && document.querySelector('#scenario-results').dataset.state === 'ready'",
        Duration::from_secs(60),
    )
    .await?;
    let href = b.attr("#open-full", "href").await?.unwrap_or_default();
    assert!(href.ends_with("?v=1&s=m1-compress&m=m1"), "{href}");
    let shown = b
        .eval_js(
            "const on = (s) => { const e = document.querySelector(s); return !!e && e.getClientRects().length > 0; }; \
             return [on('#scenario-table'), on('#qos-gantt')];",
        )
        .await?;
    assert_eq!(shown, json!([true, false]));
    assert!(b
        .current_url()
        .await?
        .query()
        .unwrap_or_default()
        .ends_with("embed=1&view=table"));
    b.finish().await
}
