//! What embedding costs (printed, each figure beside its goal; never a
//! pass/fail test): `scripts/bench-embed.sh`.
//!
//! * **Five live snippets** (as the Embed dialog writes them, seeds 1-5) on
//!   a host page of another origin, loaded `BENCH_LOADS` times (default 5):
//!   bytes fetched from the deployment before any click (goal ≤ 100 KB, no
//!   `.wasm`), the host page's longest main-thread task while loading (goal
//!   ≤ 50 ms), and from a click on the third figure to its live table drawn
//!   (goal ≤ 1 s; the frame's `tailslice:render:table` end against the
//!   host's click, both on the epoch clock).
//! * **The loader**: `facade.js`, gzipped (goal ≤ 5 KB).
//! * **First view of the full page, by file**: every file the page fetched
//!   up to its first drawn result, gzipped (`gzip -9`; goal ≤ 250 KB).

use std::time::Duration;

use serde_json::{json, Value};
use tailslice_e2e::bench_report::{env_usize, percentile, Figure};
use tailslice_e2e::page::open_ready;
use tailslice_e2e::{dist_dir, require_dist, Browser, Result, StaticServer};

const T: Duration = Duration::from_secs(60);

fn gz(bytes: &[u8]) -> usize {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(bytes).expect("gzip in memory");
    e.finish().expect("gzip in memory").len()
}

fn line(what: &str, value: f64, goal: f64, unit: &'static str) {
    println!("{}", Figure::new(what, value, goal, unit).line());
}

/// `(url, bytes on the wire)` of each load finished since the last call.
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
            Some("Network.loadingFinished") => out.push((
                urls.get(&p["requestId"].to_string())
                    .cloned()
                    .unwrap_or_default(),
                p["encodedDataLength"].as_f64().unwrap_or(0.0),
            )),
            _ => {}
        }
    }
    Ok(out)
}

async fn snippet(b: &Browser, seed: u32) -> Result<String> {
    open_ready(b, &format!("/?seed={seed}")).await?;
    b.click("button#embed-code").await?;
    let v = b
        .wait_js(
            "document.querySelector('#embed-snippet').dataset.kind === 'live' && document.querySelector('#embed-snippet').value",
            T,
        )
        .await?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

#[tokio::main]
async fn main() -> Result<()> {
    let loads = env_usize("BENCH_LOADS", 5);
    let b = Browser::start_serving_with(require_dist()?, |caps| {
        caps.insert(
            "goog:loggingPrefs".into(),
            json!({ "browser": "ALL", "performance": "ALL" }),
        );
    })
    .await?;

    // First view of the full page: the files fetched up to the first result.
    requests(&b).await?;
    open_ready(&b, "/").await?;
    let base = b.url("/");
    let dist = dist_dir();
    let mut first: Vec<(String, usize, usize)> = Vec::new();
    for (url, _) in requests(&b).await? {
        let Some(name) = url.strip_prefix(&base) else {
            continue;
        };
        let name = name.split('?').next().unwrap_or("");
        let file = if name.is_empty() { "index.html" } else { name };
        if first.iter().any(|(f, _, _)| f == file) {
            continue;
        }
        let bytes = std::fs::read(dist.join(file)).unwrap_or_default();
        first.push((file.to_string(), bytes.len(), gz(&bytes)));
    }
    first.sort();
    // Everything fetched until the page is ready: the first view and the
    // panels' code loaded right after the first result. The first view
    // alone, against its goal, is `scripts/bench-page.sh`'s (the files
    // whose response ended before the first table and Gantt were drawn).
    println!("\nthe full page's files fetched until it was ready (gzip -9)");
    for (f, raw, z) in &first {
        println!("  {f:<34} {raw:>9} B {z:>9} B gz");
    }
    let total: usize = first.iter().map(|(_, _, z)| z).sum();
    println!(
        "  {} files, {:.0} KiB gz (the first view's goal is checked by bench-page.sh)",
        first.len(),
        total as f64 / 1024.0
    );

    // The loader.
    let loader = std::fs::read(dist.join("facade.js"))?;
    println!("\nthe live snippet's loader");
    line(
        &format!("facade.js ({} B raw), gzipped (KiB)", loader.len()),
        gz(&loader) as f64 / 1024.0,
        5.0,
        "KiB",
    );

    // Five live snippets on a host page of another origin.
    let mut snippets = Vec::new();
    for seed in 1..=5 {
        snippets.push(snippet(&b, seed).await?);
    }
    let host_dir = tailslice_e2e::artifacts_dir().join("bench-embed-host");
    std::fs::create_dir_all(&host_dir)?;
    std::fs::write(
        host_dir.join("observe.js"),
        "window.__long = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) \
         window.__long.push(e.duration); }).observe({ type: 'longtask', buffered: true }); \
         addEventListener('click', () => { window.__clickAt = performance.timeOrigin + performance.now(); }, true);",
    )?;
    let mut html = String::from(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>A post</title>\
         <script src=\"observe.js\"></script></head><body style=\"max-width:760px;margin:0 auto\">\n",
    );
    for (i, s) in snippets.iter().enumerate() {
        html.push_str(&format!("<p>Paragraph {i}.</p>\n{s}\n"));
    }
    html.push_str("</body></html>\n");
    std::fs::write(host_dir.join("host.html"), &html)?;
    let host = StaticServer::start(&host_dir)?;
    println!(
        "\nfive live snippets on a host page ({loads} loads; the host page itself: {} B, {} B gz, the figures inline)",
        html.len(),
        gz(html.as_bytes())
    );

    let (mut bytes, mut wasm, mut longest, mut to_table) = (vec![], vec![], vec![], vec![]);
    for _ in 0..loads {
        requests(&b).await?;
        b.client()
            .goto(&format!("{}/host.html", host.base_url()))
            .await?;
        b.wait_js(
            "document.readyState === 'complete' && document.querySelectorAll('a[data-tailslice-facade]').length === 5 && \
             !!window[`tailslice:${new URL('./', document.querySelector('script[src$=\"facade.js\"]').src).href}`]",
            T,
        )
        .await?;
        // Tasks that end after the load event still count as loading.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let before = requests(&b).await?;
        let of_app: Vec<&(String, f64)> = before
            .iter()
            .filter(|(u, _)| u.starts_with(&base))
            .collect();
        bytes.push(of_app.iter().map(|(_, n)| n).sum::<f64>());
        wasm.push(before.iter().filter(|(u, _)| u.ends_with(".wasm")).count() as f64);
        longest.push(
            b.eval_js("return Math.max(0, ...window.__long);")
                .await?
                .as_f64()
                .unwrap_or(f64::NAN),
        );
        b.eval_js("document.querySelectorAll('a[data-tailslice-facade]')[2].click(); return 1;")
            .await?;
        let frame = b.wait_for("iframe[data-tailslice-frame]", T).await?;
        let click_at = b
            .eval_js("return window.__clickAt;")
            .await?
            .as_f64()
            .unwrap_or(f64::NAN);
        frame.enter_frame().await?;
        let drawn = b
            .wait_js(
                "(() => { const m = performance.getEntriesByName('tailslice:render:table')[0]; \
                 return m ? performance.timeOrigin + m.startTime + m.duration : 0; })()",
                T,
            )
            .await?
            .as_f64()
            .unwrap_or(f64::NAN);
        b.client().enter_parent_frame().await?;
        to_table.push(drawn - click_at);
    }
    let sort = |v: &mut Vec<f64>| v.sort_by(f64::total_cmp);
    for v in [&mut bytes, &mut wasm, &mut longest, &mut to_table] {
        sort(v);
    }
    line(
        "bytes from the deployment before a click, max (KiB)",
        bytes.last().copied().unwrap_or(f64::NAN) / 1024.0,
        100.0,
        "KiB",
    );
    line(
        ".wasm files fetched before a click, max",
        wasm.last().copied().unwrap_or(f64::NAN),
        0.0,
        "",
    );
    line(
        "longest main-thread task while loading, max (ms)",
        longest.last().copied().unwrap_or(f64::NAN),
        50.0,
        "ms",
    );
    line(
        "click to the live table drawn, p50 (ms)",
        percentile(&to_table, 50.0),
        1000.0,
        "ms",
    );
    line(
        "click to the live table drawn, p95 (ms)",
        percentile(&to_table, 95.0),
        1000.0,
        "ms",
    );
    println!("  (click to table, each load: {to_table:.0?} ms; longest task while loading: {longest:.0?} ms)");
    b.finish().await
}
