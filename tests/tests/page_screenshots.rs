//! Screenshots for a person to read: the study page, a trace's answer
//! (the Responsiveness section: its table, CDF and trade-off) and the
//! Live snippet in a blog post, at a 390 px phone and at 1400 px, in
//! English and Chinese. Saved in `tests/artifacts/shots/` (or the folder
//! named by `TAILSLICE_SHOTS`); the test fails when a part is not shown
//! or a canvas is blank.

use std::path::PathBuf;
use std::time::Duration;

use tailslice_e2e::page::{embed_snippet, ink, open_ready, open_trace};
use tailslice_e2e::{artifacts_dir, repo_root, Browser, Result, StaticServer};

const T: Duration = Duration::from_secs(90);
const WIDTHS: [u32; 2] = [390, 1400];

fn shots_dir() -> PathBuf {
    let dir = std::env::var_os("TAILSLICE_SHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| artifacts_dir().join("shots"));
    std::fs::create_dir_all(&dir).expect("the screenshots' folder");
    dir
}

async fn shoot(b: &Browser, name: &str) -> Result<()> {
    let png = b.client().screenshot().await?;
    let path = shots_dir().join(format!("{name}.png"));
    std::fs::write(&path, png)?;
    eprintln!("screenshot: {}", path.display());
    Ok(())
}

/// Scrolls `css` to the top of the window.
async fn scroll_to(b: &Browser, css: &str) -> Result<()> {
    let found = b
        .eval_js(&format!(
            "const e = document.querySelector('{css}'); if (!e) return false; \
             e.scrollIntoView({{block: 'start'}}); return true;"
        ))
        .await?;
    assert_eq!(found, true, "no {css}");
    Ok(())
}

/// The Responsiveness section answered for the open trace.
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

#[tokio::test]
async fn the_study_and_a_traces_answer_at_a_phone_and_a_desktop() -> Result<()> {
    let b = Browser::start().await?;
    let trace =
        repo_root().join("crate/tests/fixtures/traces/interactions-click-during-long-task.json.gz");
    for lang in ["en", "zh"] {
        for width in WIDTHS {
            b.set_window_size(width, 1000).await?;
            open_ready(&b, &format!("/?lang={lang}")).await?;
            shoot(&b, &format!("study-top-{lang}-{width}")).await?;
            scroll_to(&b, "#cdf").await?;
            assert!(ink(&b, "#cdf").await? > 0.0, "{lang} {width}: blank CDF");
            shoot(&b, &format!("study-cdf-{lang}-{width}")).await?;
            assert_eq!(open_trace(&b, &trace, T).await?, "ready");
            answered(&b).await?;
            scroll_to(&b, "#responsiveness").await?;
            shoot(&b, &format!("answer-table-{lang}-{width}")).await?;
            scroll_to(&b, "#resp-tradeoff").await?;
            assert!(
                ink(&b, "#resp-tradeoff").await? > 0.0,
                "{lang} {width}: blank trade-off"
            );
            shoot(&b, &format!("answer-tradeoff-{lang}-{width}")).await?;
        }
    }
    b.finish().await
}

#[tokio::test]
async fn the_live_snippet_in_a_post_at_a_phone_and_a_desktop() -> Result<()> {
    let b = Browser::start().await?;
    let dir = artifacts_dir().join("shots-host");
    std::fs::create_dir_all(&dir)?;
    for lang in ["en", "zh"] {
        open_ready(&b, &format!("/?lang={lang}")).await?;
        let snippet = embed_snippet(&b, "live", T).await?;
        std::fs::write(
            dir.join(format!("{lang}.html")),
            format!(
                "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
                 <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>A post</title></head>\
                 <body style=\"max-width:760px;margin:0 auto;padding:0 8px;font:16px/1.5 serif\"><p>Before.</p>\n{}\n<p>After.</p></body></html>\n",
                snippet.as_str()
            ),
        )?;
    }
    let host = StaticServer::start(dir)?;
    for lang in ["en", "zh"] {
        for width in WIDTHS {
            b.set_window_size(width, 1000).await?;
            b.client()
                .goto(&format!("{}/{lang}.html", host.base_url()))
                .await?;
            b.wait_js("document.readyState === 'complete'", T).await?;
            let shown = b
                .eval_js(
                    "return [...document.querySelectorAll('a[data-tailslice-facade] svg')] \
                     .filter((s) => s.getBoundingClientRect().width > 0).length;",
                )
                .await?;
            assert_eq!(shown, 1, "{lang} {width}");
            shoot(&b, &format!("facade-{lang}-{width}")).await?;
            // The figure's foot and the badge under it.
            b.eval_js(
                "document.querySelector('a[data-tailslice-facade] > span').scrollIntoView({block: 'end'}); return 0;",
            )
            .await?;
            shoot(&b, &format!("facade-badge-{lang}-{width}")).await?;
        }
    }
    b.finish().await
}
