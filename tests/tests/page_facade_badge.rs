//! The live snippet's "Make it live" badge sits under the figure, never
//! over its plot (a histogram's axis, its title), on a 390 px phone and at
//! 1400 px.

use std::time::Duration;

use tailslice_e2e::page::{embed_snippet, open_ready};
use tailslice_e2e::{Browser, Result, StaticServer};

const T: Duration = Duration::from_secs(30);

#[tokio::test]
async fn the_badge_is_under_the_figure() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    let snippet = embed_snippet(&b, "live", T).await?;
    let dir = tailslice_e2e::artifacts_dir().join("embed-host-badge");
    std::fs::create_dir_all(&dir)?;
    std::fs::write(
        dir.join("host.html"),
        format!(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>A post</title></head>\
             <body style=\"max-width:760px;margin:0 auto;padding:0 8px;font:16px/1.5 serif\"><p>Before.</p>\n{}\n<p>After.</p></body></html>\n",
            snippet.as_str()
        ),
    )?;
    let host = StaticServer::start(dir)?;
    for width in [390, 1400] {
        b.set_window_size(width, 900).await?;
        b.client()
            .goto(&format!("{}/host.html", host.base_url()))
            .await?;
        b.wait_js("document.readyState === 'complete'", T).await?;
        let boxes = b
            .eval_js(
                "const a = document.querySelector('a[data-tailslice-facade]'); \
                 const s = [...a.querySelectorAll('svg')].map((e) => e.getBoundingClientRect()).find((r) => r.width > 0); \
                 const g = a.querySelector('span').getBoundingClientRect(); \
                 return [s.bottom, g.top, g.right, document.documentElement.clientWidth, s.width];",
            )
            .await?;
        let v: Vec<f64> = boxes
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert!(
            v[0] <= v[1],
            "{width} px: the badge's top {} is above the figure's bottom {}",
            v[1],
            v[0]
        );
        assert!(
            v[2] <= v[3],
            "{width} px: the badge runs off the page: {v:?}"
        );
        assert!(v[4] > 0.0, "{v:?}");
        b.screenshot(&format!("facade-badge-{width}")).await?;
    }
    b.finish().await
}
