//! End-to-end: any policy on any machine from a shared link.
//! The study under XNU's timeshare class on an A10 with QoS per class has
//! the CLI's numbers; on an M1 the Gantt marks P and E lanes, and on
//! identical cores it marks none.

use std::time::Duration;

use tailslice_e2e::page::{cli_table, ink, open_ready, table};
use tailslice_e2e::{Browser, Result};

const MIX: &str = "85:1-8@userInitiated,12:10-40@utility,3:80-200@utility";

/// The Gantt's left-margin marks: per lane of the first block, the mean
/// alpha of the mark column (x = 4..6 CSS px), read from the canvas.
async fn lane_marks(b: &Browser, lanes: usize) -> Result<Vec<f64>> {
    let v = b
        .eval_js(&format!(
            "const c = document.querySelector('#gantt'); const dpr = c.width / c.getBoundingClientRect().width; \
             const laneH = Math.max(1, Math.min(22, Math.floor(160 / {lanes}))); const out = []; \
             const ctx = c.getContext('2d'); \
             for (let l = 0; l < {lanes}; l++) {{ \
               const y = Math.round((18 + (l + 0.5) * laneH) * dpr); \
               const d = ctx.getImageData(Math.round(4 * dpr), y, Math.max(1, Math.round(2 * dpr)), 1).data; \
               let a = 0; for (let i = 3; i < d.length; i += 4) a += d[i]; out.push(a / (d.length / 4)); }} \
             return out;"
        ))
        .await?;
    Ok(v.as_array()
        .map(|a| a.iter().map(|x| x.as_f64().unwrap_or(0.0)).collect())
        .unwrap_or_default())
}

#[tokio::test]
async fn the_study_under_xnu_on_an_a10_matches_the_cli() -> Result<()> {
    let b = Browser::start().await?;
    let query = format!("/?p=fifo,rr,xnu&machine=a10&mix={MIX}");
    open_ready(&b, &query).await?;
    let want = cli_table(&[
        "--policies",
        "fifo,rr,xnu",
        "--machine",
        "a10",
        "--mix",
        MIX,
    ])?;
    assert_eq!(table(&b).await?, want);
    assert!(b.find("#error").await?.attr("hidden").await?.is_some());
    assert!(ink(&b, "#gantt").await? > 0.01, "the Gantt is drawn");
    // The link is written back as it came.
    let url = b.current_url().await?;
    let q = url.query().unwrap_or_default().to_string();
    assert!(q.contains("machine=a10"), "{q}");
    assert!(q.contains("xnu"), "{q}");
    b.finish().await
}

#[tokio::test]
async fn an_m1_marks_p_and_e_lanes_and_identical_cores_none() -> Result<()> {
    let b = Browser::start().await?;
    let query = "/?p=rr,xnu&machine=m1&n=200&mix=85:1-8@userInitiated,15:10-40@background";
    open_ready(&b, query).await?;
    b.wait_js(
        "document.querySelector('#gantt') && document.querySelector('#gantt').width > 2",
        Duration::from_secs(20),
    )
    .await?;
    // A result this small (far under the page's large-result size) has its
    // whole Gantt drawn in the task that draws the table, before the page
    // says ready: only a large one's Gantt comes in parts after.
    b.screenshot("machines_m1").await?;
    let marks = lane_marks(&b, 8).await?;
    assert_eq!(marks.len(), 8);
    let (p, e) = (&marks[..4], &marks[4..]);
    assert!(p.iter().all(|&a| a > 0.0), "P lanes marked: {marks:?}");
    assert!(e.iter().all(|&a| a > 0.0), "E lanes marked: {marks:?}");
    // P solid, E pale.
    assert!(
        p.iter().fold(f64::MAX, |m, &a| m.min(a)) > e.iter().fold(0.0, |m, &a| m.max(a)),
        "{marks:?}"
    );

    open_ready(&b, "/?cores=8&n=200").await?;
    let marks = lane_marks(&b, 8).await?;
    assert!(
        marks.iter().all(|&a| a == 0.0),
        "no marks on identical cores: {marks:?}"
    );
    b.finish().await
}
