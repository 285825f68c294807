//! Chinese and English on the page: `lang=zh|en` in the URL (bad values
//! get the banner), the switch, `<html lang>`, translated labels and the
//! generated explanation; the test hooks keep plain one-decimal numbers.

use std::time::Duration;

use tailslice_e2e::page::{assert_no_sideways_scroll, open_ready};
use tailslice_e2e::{Browser, Result};

const T: Duration = Duration::from_secs(20);

fn has_han(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

async fn js_str(b: &Browser, expr: &str) -> Result<String> {
    Ok(b.eval_js(&format!("return {expr};"))
        .await?
        .as_str()
        .unwrap_or_default()
        .to_string())
}

#[tokio::test]
async fn lang_zh_shows_chinese_labels_and_explanation() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?lang=zh").await?;
    assert_eq!(js_str(&b, "document.documentElement.lang").await?, "zh-CN");
    assert_eq!(b.text("#h-table").await?, "各策略的延迟（ms）");
    assert_eq!(b.text("label[for=seed]").await?, "随机种子");
    assert_eq!(b.text("#share").await?, "分享链接");
    assert_eq!(b.text("#sweep-seeds-run").await?, "运行种子扫描");
    assert_eq!(
        js_str(&b, "document.querySelector('#lang').value").await?,
        "zh"
    );
    let explanation = b.text("#explanation").await?;
    assert!(has_han(&explanation), "{explanation}");
    assert!(explanation.contains("28%"), "{explanation}");
    assert!(explanation.contains("5209"), "{explanation}");
    assert!(
        explanation.contains("最慢的任务仍在 5209 ms"),
        "{explanation}"
    );
    // Test hooks stay plain numbers whatever the language.
    assert_eq!(
        b.text("tr[data-policy=fifo] td[data-metric=mean]").await?,
        "2661.3"
    );
    assert_eq!(
        b.text("tr[data-policy=rr] td[data-metric=p95]").await?,
        "3441.4"
    );
    // The language stays in the link, the embed snippet and the link to the
    // full page (a Chinese blog post embeds the Chinese view).
    assert_eq!(b.current_url().await?.query(), Some("v=1&lang=zh"));
    b.click("button#embed-code").await?;
    let snippet = b
        .wait_js("document.querySelector('#embed-snippet').value", T)
        .await?;
    let snippet = snippet.as_str().unwrap_or_default();
    assert!(
        snippet.contains("data-tailslice-facade=\"v=1&amp;lang=zh&amp;embed=1\""),
        "{snippet}"
    );
    assert!(snippet.contains("切换为可交互"), "{snippet}");
    b.click("#embed-close").await?;
    let full = js_str(
        &b,
        "document.querySelector('#open-full').getAttribute('href')",
    )
    .await?;
    assert!(full.ends_with("?v=1&lang=zh"), "{full}");
    assert!(b.find("#error").await?.attr("hidden").await?.is_some());
    b.screenshot("page-zh").await?;
    b.set_window_size(360, 800).await?;
    b.wait_js("document.querySelector('#gantt').clientWidth < 360", T)
        .await?;
    assert_no_sideways_scroll(&b).await?;
    b.set_window_size(1280, 900).await?;
    // The sweeps panel speaks Chinese too.
    b.eval_js("document.querySelector('#sweep-seeds').value = '1-20'; return true;")
        .await?;
    b.click("#sweep-seeds-run").await?;
    b.wait_js("document.body.dataset.sweep === 'done'", T)
        .await?;
    let stats = b.text("#seed-stats").await?;
    assert!(stats.contains("在 20 个种子"), "{stats}");
    b.eval_js("document.querySelector('#sweeps').scrollIntoView(); return true;")
        .await?;
    b.screenshot("sweep-zh").await?;
    b.finish().await
}

#[tokio::test]
async fn lang_en_shows_english_and_the_switch_changes_language() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&seed=7&lang=en").await?;
    assert_eq!(js_str(&b, "document.documentElement.lang").await?, "en");
    assert_eq!(b.text("#h-table").await?, "Latency (ms) by policy");
    assert_eq!(b.text("label[for=seed]").await?, "Seed");
    let explanation = b.text("#explanation").await?;
    assert!(
        !has_han(&explanation) && explanation.contains("p95"),
        "{explanation}"
    );
    assert_eq!(b.current_url().await?.query(), Some("v=1&seed=7&lang=en"));
    b.screenshot("page-en").await?;

    // Switch to Chinese: labels, explanation, <html lang> and the URL follow;
    // no new simulation is needed.
    let before = js_str(&b, "document.body.dataset.updates").await?;
    b.eval_js(
        "const s = document.querySelector('#lang'); s.value = 'zh'; \
         s.dispatchEvent(new Event('change')); return true;",
    )
    .await?;
    b.wait_js("document.documentElement.lang === 'zh-CN'", T)
        .await?;
    assert_eq!(b.text("label[for=seed]").await?, "随机种子");
    assert!(has_han(&b.text("#explanation").await?));
    assert!(has_han(&b.text("#status-text").await?));
    assert_eq!(b.current_url().await?.query(), Some("v=1&seed=7&lang=zh"));
    assert_eq!(js_str(&b, "document.body.dataset.updates").await?, before);
    // An edit keeps the language in the URL.
    b.eval_js(
        "const i = document.querySelector('#seed'); i.value = '8'; \
         i.dispatchEvent(new Event('input')); return true;",
    )
    .await?;
    b.wait_js("location.search === '?v=1&seed=8&lang=zh'", T)
        .await?;
    b.finish().await
}

#[tokio::test]
async fn bad_lang_shows_the_banner() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?seed=7&lang=fr").await?;
    let banner = b.text("#error").await?;
    assert!(banner.contains("invalid lang 'fr'"), "{banner}");
    assert!(banner.contains("en or zh"), "{banner}");
    // Falls back to the browser's language (English here); the rest applies.
    assert_eq!(b.text("#h-table").await?, "Latency (ms) by policy");
    assert_eq!(b.current_url().await?.query(), Some("v=1&seed=7"));
    // The refusal is Rust's (Lang::parse, as the CLI's --lang says it).
    let cli = match tailslice_e2e::run_cli(["simulate", "--lang", "fr"]) {
        Ok(out) => return Err(format!("--lang fr was accepted: {out}").into()),
        Err(e) => e.to_string(),
    };
    assert!(
        cli.contains("invalid --lang 'fr': expected en or zh"),
        "{cli}"
    );
    assert!(
        banner.contains("invalid lang 'fr': expected en or zh"),
        "{banner}"
    );
    // A region tag is a language like the CLI's (zh-CN is Chinese), and a
    // repeated lang= keeps its first value and says so (in Chinese, then).
    open_ready(&b, "/?lang=zh-CN&lang=en").await?;
    assert_eq!(b.text("#h-table").await?, "各策略的延迟（ms）");
    let banner = b.text("#error").await?;
    assert!(
        banner.contains("lang 只能给一次") && banner.contains("第一个值“zh-CN”"),
        "{banner}"
    );
    // Hostile values are text only.
    open_ready(
        &b,
        "/?lang=%3Cimg%20src%3Dx%20onerror%3D%22window.__pwned%3D1%22%3E",
    )
    .await?;
    let banner = b.text("#error").await?;
    assert!(banner.contains("<img src=x"), "{banner}");
    let ok = b
        .eval_js("return window.__pwned === undefined && !document.querySelector('#error img');")
        .await?;
    assert_eq!(ok, serde_json::json!(true));
    // The frame and Rust's message are both in the page's language.
    open_ready(&b, "/?lang=zh&q=0").await?;
    let banner = b.text("#error").await?;
    assert!(banner.contains("链接中有一项设置未被接受"), "{banner}");
    assert!(banner.contains("q 的值“0”无效"), "{banner}");
    assert!(banner.contains("→ 改用 q=16。"), "{banner}");
    b.finish().await
}
