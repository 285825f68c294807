//! A trace's answer, shared: Export → Figure (SVG) holds the Responsiveness
//! table, its CDF and the trade-off with the headline numbers in its
//! `<title>` and `<desc>` (in the page's language); Figure (PNG) is that
//! figure at twice its size and not blank; the Embed dialog's snippets
//! embed it and say where the live page needs the file; "Share these
//! tasks" gives a link that reopens the same answer in a fresh page, and
//! refuses a trace too large for a link.

use std::time::Duration;

use serde_json::{json, Value};
use tailslice_e2e::page::{open_ready, open_trace};
use tailslice_e2e::{artifacts_dir, Browser, Result};

const T: Duration = Duration::from_secs(90);

/// One main thread's tasks: `durations` ms, 10 ms apart.
fn a_trace(durations: &[f64]) -> Vec<u8> {
    let mut ev = vec![
        json!({"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "CrRendererMain"}}),
    ];
    let mut t = 0.0;
    for d in durations {
        ev.push(json!({"ph": "X", "name": "RunTask", "pid": 1, "tid": 1, "ts": t * 1000.0, "dur": d * 1000.0}));
        t += d + 10.0;
    }
    serde_json::to_vec(&json!({ "traceEvents": ev })).unwrap()
}

const TASKS: [f64; 6] = [120.0, 30.0, 5.0, 275.0, 8.0, 61.3];

/// Opens the page with a trace of `durations` (file `name`) and waits for
/// the Responsiveness section to answer for it.
async fn with_trace(b: &Browser, name: &str, durations: &[f64]) -> Result<()> {
    open_ready(b, "/").await?;
    let path = artifacts_dir().join(name);
    std::fs::write(&path, a_trace(durations))?;
    assert_eq!(open_trace(b, &path, T).await?, "ready");
    answered(b).await
}

async fn answered(b: &Browser) -> Result<()> {
    b.wait_js(
        "!document.querySelector('#responsiveness').hidden && \
         document.querySelector('#responsiveness').dataset.query === document.body.dataset.query && \
         document.querySelector('#responsiveness-results tbody tr') !== null",
        T,
    )
    .await?;
    Ok(())
}

/// The Responsiveness table: `[quantum, {metric: cell}]` per row.
async fn resp_table(b: &Browser) -> Result<Value> {
    b.eval_js(
        "return [...document.querySelectorAll('#responsiveness-results tbody tr')].map((tr) => \
         [tr.dataset.quantum, Object.fromEntries([...tr.querySelectorAll('td[data-metric]')] \
         .map((td) => [td.dataset.metric, td.textContent]))]);",
    )
    .await
}

async fn set_lang(b: &Browser, lang: &str) -> Result<()> {
    b.eval_js(&format!(
        "const s = document.querySelector('#lang'); s.value = '{lang}'; s.dispatchEvent(new Event('change')); return 0;"
    ))
    .await?;
    b.wait_js(
        &format!("document.querySelector('#responsiveness').dataset.lang === '{lang}'"),
        T,
    )
    .await?;
    Ok(())
}

/// Clicks `button` and waits for its download: `[name, type, text or null]`.
async fn download(b: &Browser, button: &str) -> Result<Value> {
    let before = b
        .eval_js("return window.tailslice.downloads || 0;")
        .await?
        .as_u64()
        .unwrap_or(0);
    b.click(button).await?;
    b.wait_js(&format!("(window.tailslice.downloads || 0) > {before}"), T)
        .await?;
    b.eval_js_async(
        "const done = arguments[arguments.length - 1]; const d = window.tailslice.lastDownload; \
         if (d.type === 'image/png') done([d.name, d.type, null]); else d.blob.text().then((t) => done([d.name, d.type, t]));",
    )
    .await
}

fn between<'a>(s: &'a str, open: &str, close: &str) -> &'a str {
    let a = s.find(open).unwrap_or_else(|| panic!("no {open}")) + open.len();
    &s[a..a + s[a..].find(close).unwrap()]
}

fn size_of(svg: &str) -> (u64, u64) {
    let head = between(svg, "<svg", ">");
    let attr = |k: &str| -> u64 { between(head, &format!(" {k}=\""), "\"").parse().unwrap() };
    (attr("width"), attr("height"))
}

#[tokio::test]
async fn a_traces_figure_is_its_answer_in_svg_and_png() -> Result<()> {
    let b = Browser::start().await?;
    with_trace(&b, "answer-figure.json", &TASKS).await?;
    let rows = resp_table(&b).await?;
    let p98 = |q: &str| -> String {
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r[0] == q)
            .map(|r| r[1]["p98"].as_str().unwrap().to_string())
            .unwrap()
    };
    let (rec, sliced) = (p98("recorded"), p98("16"));
    assert_ne!(rec, sliced);
    let d = download(&b, "#export-svg").await?;
    let svg = d[2].as_str().unwrap().to_string();
    for part in [
        "Responsiveness: input delay, blocking and cost",
        "Input delay CDF",
        "p98 input delay and cost over the quantum",
        // The study's parts stay, below the answer.
        "Schedule",
    ] {
        assert!(svg.contains(&format!(">{part}</text>")), "no {part}");
    }
    let title = between(&svg, "<title>", "</title>");
    assert!(
        title.contains(&format!(
            "p98 input delay {rec} ms as recorded → {sliced} ms sliced at q = 16 ms"
        )),
        "{title}"
    );
    let desc = between(&svg, "<desc>", "</desc>");
    assert!(desc.contains("Total blocking time:"), "{desc}");
    let (w, h) = size_of(&svg);

    // The PNG: the same figure at twice the pixels, not blank.
    let d = download(&b, "#export-png-figure").await?;
    assert_eq!(d[1], "image/png");
    assert!(d[0].as_str().unwrap().ends_with(".png"), "{d:?}");
    let png = b
        .eval_js_async(
            "const done = arguments[arguments.length - 1]; \
             createImageBitmap(window.tailslice.lastDownload.blob).then((img) => { \
               const c = document.createElement('canvas'); c.width = img.width; c.height = img.height; \
               const g = c.getContext('2d'); g.drawImage(img, 0, 0); \
               const px = g.getImageData(0, 0, img.width, img.height).data; \
               const bg = [px[0], px[1], px[2]]; let other = 0; \
               for (let i = 0; i < px.length; i += 4) if (px[i] !== bg[0] || px[i + 1] !== bg[1] || px[i + 2] !== bg[2]) other++; \
               done([img.width, img.height, other / (img.width * img.height)]); });",
        )
        .await?;
    assert_eq!(png[0].as_u64(), Some(2 * w), "{png:?} for {w}×{h}");
    assert_eq!(png[1].as_u64(), Some(2 * h), "{png:?} for {w}×{h}");
    assert!(png[2].as_f64().unwrap() > 0.01, "blank PNG: {png:?}");

    // In Chinese, the headline is Chinese.
    set_lang(&b, "zh").await?;
    let d = download(&b, "#export-svg").await?;
    let svg = d[2].as_str().unwrap();
    let title = between(svg, "<title>", "</title>");
    assert!(title.contains("个任务"), "{title}");
    assert!(
        title.contains(&format!("按 q = 16 ms 切分后 {sliced} ms")),
        "{title}"
    );
    assert!(between(svg, "<desc>", "</desc>").contains("总阻塞时间"));
    assert!(svg.contains(">响应性：输入延迟、阻塞与开销</text>"));
    b.finish().await
}

/// The study's figure as a PNG too, without a trace.
#[tokio::test]
async fn the_study_figure_as_a_png_at_twice_its_size() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    let d = download(&b, "#export-svg").await?;
    let (w, h) = size_of(d[2].as_str().unwrap());
    let d = download(&b, "#export-png-figure").await?;
    assert_eq!(d[1], "image/png");
    let png = b
        .eval_js_async(
            "const done = arguments[arguments.length - 1]; \
             createImageBitmap(window.tailslice.lastDownload.blob).then((img) => done([img.width, img.height]));",
        )
        .await?;
    assert_eq!(png, json!([2 * w, 2 * h]));
    b.finish().await
}

async fn snippet(b: &Browser, kind: &str) -> Result<String> {
    b.eval_js(&format!(
        "const i = document.querySelector('#embed-kind-{kind}'); i.checked = true; \
         i.dispatchEvent(new Event('change', {{ bubbles: true }})); return 0;"
    ))
    .await?;
    let v = b
        .wait_js(
            &format!(
                "(() => {{ const s = document.querySelector('#embed-snippet'); \
                 return s.dataset.kind === '{kind}' && s.dataset.state === 'ready' && s.value; }})()"
            ),
            T,
        )
        .await?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

#[tokio::test]
async fn the_embed_snippets_of_a_trace_embed_its_figure() -> Result<()> {
    let b = Browser::start().await?;
    with_trace(&b, "embed-trace.json", &TASKS).await?;
    b.click("#embed-code").await?;
    b.wait_js("document.querySelector('#embed-dialog').open", T)
        .await?;
    for kind in ["live", "static"] {
        let html = snippet(&b, kind).await?;
        assert!(
            html.contains(">Responsiveness: input delay, blocking and cost</text>"),
            "{kind}: {html:.400}"
        );
        assert!(html.contains("embed-trace.json"), "{kind}");
        assert!(html.contains("A link cannot carry a trace"), "{kind}");
        assert!(!html.contains("data-tailslice-facade"), "{kind}");
        assert!(!html.contains("<script"), "{kind}");
    }
    b.eval_js("document.querySelector('#embed-dialog').close(); return 0;")
        .await?;
    set_lang(&b, "zh").await?;
    b.click("#embed-code").await?;
    let html = snippet(&b, "live").await?;
    assert!(html.contains("链接无法携带 trace"), "{html:.400}");
    assert!(html.contains(">响应性：输入延迟、阻塞与开销</text>"));
    b.finish().await
}

#[tokio::test]
async fn a_share_link_reopens_the_same_answer() -> Result<()> {
    let b = Browser::start().await?;
    with_trace(&b, "share-trace.json", &TASKS).await?;
    let before = resp_table(&b).await?;
    let tbt = b.text("#resp-tbt").await?;
    b.click("#share-tasks").await?;
    b.wait_js(
        "document.querySelector('#copy-status').dataset.state === 'ready'",
        T,
    )
    .await?;
    let link = b
        .eval_js("return document.querySelector('#share-link').value;")
        .await?;
    let link = link.as_str().unwrap().to_string();
    assert!(link.contains("#main-thread=1."), "{link}");
    // A fresh page on the link.
    b.client().goto("about:blank").await?;
    b.client().goto(&link).await?;
    b.wait_js(
        &format!("document.body.dataset.tasks === '{}'", TASKS.len()),
        T,
    )
    .await?;
    answered(&b).await?;
    assert_eq!(resp_table(&b).await?, before);
    assert_eq!(b.text("#resp-tbt").await?, tbt);
    b.finish().await
}

#[tokio::test]
async fn a_trace_too_large_for_a_link_is_refused_by_name() -> Result<()> {
    let b = Browser::start().await?;
    let many: Vec<f64> = (0..3000).map(|i| 1.0 + (i % 97) as f64 * 0.731).collect();
    with_trace(&b, "large-trace.json", &many).await?;
    b.click("#share-tasks").await?;
    let v = b
        .wait_js(
            "document.querySelector('#copy-status').dataset.state === 'refused' && \
             document.querySelector('#copy-status').textContent",
            T,
        )
        .await?;
    let text = v.as_str().unwrap();
    assert!(
        text.contains("3000 tasks") && text.contains("share the trace file instead"),
        "{text}"
    );
    set_lang(&b, "zh").await?;
    b.click("#share-tasks").await?;
    let v = b
        .wait_js(
            "document.querySelector('#copy-status').textContent.includes('分享 trace 文件') && \
             document.querySelector('#copy-status').textContent",
            T,
        )
        .await?;
    assert!(v.as_str().unwrap().contains("3000 个任务"), "{v}");
    b.finish().await
}
