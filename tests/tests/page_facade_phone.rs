//! A snippet on a phone reads as well as on a desktop: in a blog post at
//! 390 px and at 1400 px, in English and Chinese, the Live and Static
//! snippets show one figure laid out for the column, every one of its
//! texts at least 11 px tall as rendered, nothing wider than the page, and
//! the "Make it live" badge clear of every text of the figure.

use std::time::Duration;

use serde_json::Value;
use tailslice_e2e::page::{embed_snippet, open_ready};
use tailslice_e2e::{Browser, Result, StaticServer};

const T: Duration = Duration::from_secs(60);

/// The snippet of `kind` (`live` or `static`) the Embed dialog writes for
/// the page open in `b`.
async fn snippet(b: &Browser, kind: &str) -> Result<String> {
    let v = embed_snippet(b, kind, T).await?;
    b.eval_js("document.querySelector('#embed-dialog').close(); return 0;")
        .await?;
    Ok(v)
}

/// What the host page measures: the shown figures' widths, the smallest
/// text height, the badge's overlaps with texts, the page's width.
const MEASURE: &str = "\
    const shown = [...document.querySelectorAll('.post svg')].filter((s) => s.getBoundingClientRect().width > 0); \
    const texts = shown.flatMap((s) => [...s.querySelectorAll('text')]).map((t) => t.getBoundingClientRect()); \
    const small = texts.filter((r) => r.height < 11).length; \
    const minH = Math.min(...texts.map((r) => r.height)); \
    const badge = document.querySelector('a[data-tailslice-facade] > span'); \
    const g = badge ? badge.getBoundingClientRect() : null; \
    const hit = g ? texts.filter((r) => r.left < g.right && g.left < r.right && r.top < g.bottom && g.top < r.bottom).length : 0; \
    return { shown: shown.map((s) => s.getBoundingClientRect().width), drawn: shown.map((s) => Number(s.getAttribute('width'))), \
             texts: texts.length, small, minH, hit, badge: !!badge, \
             right: Math.max(...shown.map((s) => s.getBoundingClientRect().right)), page: document.documentElement.clientWidth };";

#[tokio::test]
async fn a_snippets_figure_is_laid_out_for_a_phone() -> Result<()> {
    let b = Browser::start().await?;
    let dir = tailslice_e2e::artifacts_dir().join("embed-host-phone");
    std::fs::create_dir_all(&dir)?;
    let mut pages = Vec::new();
    for lang in ["en", "zh"] {
        open_ready(&b, &format!("/?lang={lang}")).await?;
        for kind in ["live", "static"] {
            let html = snippet(&b, kind).await?;
            let name = format!("host-{lang}-{kind}.html");
            std::fs::write(
                dir.join(&name),
                format!(
                    "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
                     <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>A post</title></head>\
                     <body style=\"margin:0\"><main class=\"post\" style=\"max-width:760px;margin:0 auto;padding:0 8px;font:16px/1.5 serif\">\
                     <p>Before.</p>\n{html}\n<p>After.</p></main></body></html>\n"
                ),
            )?;
            pages.push((lang, kind, name));
        }
    }
    let host = StaticServer::start(dir)?;
    for (lang, kind, name) in &pages {
        for width in [390, 1400] {
            b.set_window_size(width, 900).await?;
            b.client()
                .goto(&format!("{}/{name}", host.base_url()))
                .await?;
            b.wait_js("document.readyState === 'complete'", T).await?;
            let m: Value = b.eval_js(MEASURE).await?;
            let at = format!("{lang} {kind} at {width} px: {m}");
            assert_eq!(m["shown"].as_array().map(Vec::len), Some(1), "{at}");
            assert!(m["texts"].as_u64().unwrap_or(0) > 10, "{at}");
            assert_eq!(m["small"], 0, "text under 11 px: {at}");
            assert!(
                m["right"].as_f64().unwrap() <= m["page"].as_f64().unwrap() + 0.5,
                "wider than the page: {at}"
            );
            assert_eq!(m["badge"], *kind == "live", "{at}");
            assert_eq!(m["hit"], 0, "the badge covers a text: {at}");
            if width == 390 {
                // A phone's layout, not the page-wide figure shrunk.
                assert!(m["drawn"][0].as_f64().unwrap() <= 400.0, "{at}");
            }
            b.screenshot(&format!("facade-phone-{lang}-{kind}-{width}"))
                .await?;
        }
    }
    b.finish().await
}
