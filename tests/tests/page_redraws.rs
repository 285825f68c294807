//! What an edit draws again, read from the page's state (the canvases'
//! `data-draws` and `data-block-draws` counters), never from time: a
//! quantum edit draws the lanes of the policies that slice and the CDF,
//! not the lanes of those that ignore the quantum nor the histogram of the
//! same durations; a seed edit draws everything; a zoom draws the Gantt
//! from what it keeps, without a run. What is left undrawn is exactly what
//! a fresh page draws for the same experiment, pixel for pixel.

use std::time::Duration;

use serde_json::Value;
use tailslice_e2e::page::{open_ready, table, updates, wait_ready};
use tailslice_e2e::{Browser, Result};

const T: Duration = Duration::from_secs(20);

/// The counters: Gantt drawings, per-block drawings, CDF and histogram
/// drawings, and the runs measured so far.
#[derive(Debug, Clone, PartialEq)]
struct Draws {
    gantt: u64,
    blocks: Vec<u64>,
    cdf: u64,
    hist: u64,
    runs: u64,
}

async fn draws(b: &Browser) -> Result<Draws> {
    let v = b
        .eval_js(
            "const d = (s) => document.querySelector(s).dataset; \
             return [d('#gantt').draws || '0', d('#gantt').blockDraws || '', \
                     d('#cdf').draws || '0', d('#hist').draws || '0', \
                     String(performance.getEntriesByName('tailslice:simulate').length)];",
        )
        .await?;
    let n = |x: &Value| x.as_str().and_then(|s| s.parse().ok()).unwrap_or(0);
    Ok(Draws {
        gantt: n(&v[0]),
        blocks: v[1]
            .as_str()
            .unwrap_or("")
            .split_whitespace()
            .filter_map(|s| s.parse().ok())
            .collect(),
        cdf: n(&v[2]),
        hist: n(&v[3]),
        runs: n(&v[4]),
    })
}

/// Per-block drawings between two readings.
fn block_delta(before: &Draws, after: &Draws) -> Vec<u64> {
    after
        .blocks
        .iter()
        .enumerate()
        .map(|(i, &a)| a - before.blocks.get(i).copied().unwrap_or(0))
        .collect()
}

/// A digest of a canvas's pixels (FNV-1a over its RGBA bytes).
async fn pixels(b: &Browser, css: &str) -> Result<String> {
    let v = b
        .eval_js(&format!(
            "const c = document.querySelector('{css}'); \
             const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; \
             let h = 0x811c9dc5; for (let i = 0; i < d.length; i++) {{ h ^= d[i]; h = Math.imul(h, 0x01000193) >>> 0; }} \
             return c.width + 'x' + c.height + ':' + h;"
        ))
        .await?;
    Ok(v.as_str().unwrap_or("").to_string())
}

async fn set_input(b: &Browser, id: &str, value: &str) -> Result<()> {
    let n = updates(b).await?;
    b.eval_js(&format!(
        "const q = document.querySelector('input#{id}'); q.value = '{value}'; \
         q.dispatchEvent(new Event('input', {{bubbles: true}})); return 1;"
    ))
    .await?;
    wait_ready(b, n + 1).await
}

#[tokio::test]
async fn an_edit_draws_only_what_changed() -> Result<()> {
    let b = Browser::start().await?;
    // FIFO and SJF ignore the quantum; round-robin slices by it.
    open_ready(&b, "/?p=fifo,rr,sjf").await?;
    let first = draws(&b).await?;
    assert_eq!(first.blocks.len(), 3, "{first:?}");
    assert!(first.blocks.iter().all(|&n| n >= 1), "{first:?}");
    assert!(first.cdf >= 1 && first.hist >= 1, "{first:?}");
    let rows_before = table(&b).await?;

    // A quantum edit.
    set_input(&b, "quantum", "8").await?;
    let quantum = draws(&b).await?;
    assert_eq!(quantum.runs, first.runs + 1, "one run");
    assert_eq!(quantum.gantt, first.gantt + 1, "one Gantt drawing");
    assert_eq!(
        block_delta(&first, &quantum),
        [0, 1, 0],
        "only round-robin's lanes drawn again"
    );
    assert_eq!(quantum.cdf, first.cdf + 1, "the CDF drawn again");
    assert_eq!(quantum.hist, first.hist, "the histogram left as it was");
    let rows_after = table(&b).await?;
    for policy in ["fifo", "sjf"] {
        let row = |t: &Vec<(String, Vec<String>)>| t.iter().find(|r| r.0 == policy).cloned();
        assert_eq!(row(&rows_before), row(&rows_after), "{policy}'s figures");
    }
    assert_ne!(rows_before, rows_after, "round-robin's figures changed");
    let kept = [
        pixels(&b, "#gantt").await?,
        pixels(&b, "#cdf").await?,
        pixels(&b, "#hist").await?,
    ];

    // A zoom draws the Gantt from its kept segments: no run, no result.
    let shown = updates(&b).await?;
    b.click("#zoom-in").await?;
    b.wait_js(
        &format!(
            "Number(document.querySelector('#gantt').dataset.draws) > {}",
            quantum.gantt
        ),
        T,
    )
    .await?;
    let zoomed = draws(&b).await?;
    assert_eq!(zoomed.runs, quantum.runs, "a zoom runs nothing");
    assert_eq!(updates(&b).await?, shown, "a zoom shows no new result");
    assert_eq!(
        block_delta(&quantum, &zoomed),
        [1, 1, 1],
        "a new window draws every block"
    );
    b.click("#zoom-reset").await?;
    b.wait_js(
        &format!(
            "Number(document.querySelector('#gantt').dataset.draws) > {}",
            zoomed.gantt
        ),
        T,
    )
    .await?;

    // A seed edit changes the durations: everything is drawn again.
    let before_seed = draws(&b).await?;
    set_input(&b, "seed", "7").await?;
    let seeded = draws(&b).await?;
    assert_eq!(block_delta(&before_seed, &seeded), [1, 1, 1], "every lane");
    assert_eq!(seeded.cdf, before_seed.cdf + 1, "the CDF");
    assert_eq!(seeded.hist, before_seed.hist + 1, "the histogram");

    // What the quantum edit left undrawn is what a fresh page draws for
    // the same experiment.
    open_ready(&b, "/?p=fifo,rr,sjf&q=8").await?;
    let fresh = [
        pixels(&b, "#gantt").await?,
        pixels(&b, "#cdf").await?,
        pixels(&b, "#hist").await?,
    ];
    assert_eq!(
        kept, fresh,
        "the charts after a partial drawing and a full one"
    );
    b.finish().await
}

/// When the first update ended and when the settings began to be built
/// (`tailslice:update`, `tailslice:settings`), and the quantum and seed the
/// settings show.
async fn load_order(b: &Browser) -> Result<(f64, f64, String, String)> {
    let v = b
        .eval_js(
            "const u = performance.getEntriesByName('tailslice:update')[0]; \
             const s = performance.getEntriesByName('tailslice:settings')[0]; \
             return [u.startTime + u.duration, s.startTime, \
                     document.querySelector('#quantum').value, document.querySelector('#seed').value];",
        )
        .await?;
    let f = |x: &Value| x.as_f64().unwrap_or(f64::NAN);
    let s = |x: &Value| x.as_str().unwrap_or("").to_string();
    Ok((f(&v[0]), f(&v[1]), s(&v[2]), s(&v[3])))
}

/// A link's table and Gantt are drawn before the settings are built, and
/// the settings then show the link's values; a scenario's link builds the
/// settings first (its result needs them).
#[tokio::test]
async fn a_links_result_is_drawn_before_its_settings_are_built() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&q=7&seed=3").await?;
    let (update_end, settings_start, q, seed) = load_order(&b).await?;
    assert!(
        update_end <= settings_start,
        "first update ended at {update_end} ms, the settings began at {settings_start} ms"
    );
    assert_eq!((q.parse::<f64>().ok(), seed.as_str()), (Some(7.0), "3"));
    b.open("/?s=feishu-startup").await?;
    b.wait_js(
        "document.body.dataset.state === 'ready' && \
         performance.getEntriesByName('tailslice:update').length > 0 && \
         performance.getEntriesByName('tailslice:settings').length > 0",
        T,
    )
    .await?;
    let (update_end, settings_start, _, _) = load_order(&b).await?;
    assert!(
        settings_start < update_end,
        "a scenario's link: the settings began at {settings_start} ms, after the update ended at {update_end} ms"
    );
    b.finish().await
}
