//! m1-compress on the page: its captions describe this scenario (no main
//! thread), its thread-state lanes are named with their QoS, and charts
//! cut by the recording limit say where they stop, the run's length and
//! why; in both languages.

use std::time::Duration;

use tailslice_e2e::{Browser, Result};

const T: Duration = Duration::from_secs(120);

async fn texts(b: &Browser) -> Result<Vec<String>> {
    let v = b
        .eval_js(
            "return ['#gantt-caption', '#states-caption', '#scenario-truncated', '#qos-states-legend']\
             .map((s) => document.querySelector(s).textContent);",
        )
        .await?;
    Ok(v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap_or_default().to_string())
        .collect())
}

#[tokio::test]
async fn m1_compress_says_what_it_shows() -> Result<()> {
    let b = Browser::start().await?;
    b.open("/?s=m1-compress").await?;
    b.wait_js(
        "(() => { const r = document.querySelector('#scenario-results'); \
         return r && r.dataset.state === 'ready' && Number(r.dataset.updates) >= 1; })()",
        T,
    )
    .await?;
    let [gantt, states, cut, _legend] = <[String; 4]>::try_from(texts(&b).await?).unwrap();
    assert!(!gantt.contains("main thread has its own colour"), "{gantt}");
    assert!(
        gantt.contains("no main thread") && gantt.contains("QoS"),
        "{gantt}"
    );
    assert!(
        states.contains("workers") && !states.contains("the main thread"),
        "{states}"
    );
    // The default run (the M1 under contention) is cut by the page's limit.
    assert!(
        cut.contains("of this") && cut.contains(" s run") && cut.contains("20000"),
        "{cut}"
    );
    b.eval_js("const s = document.querySelector('#lang'); s.value = 'zh'; s.dispatchEvent(new Event('change')); return 0;")
        .await?;
    let [gantt, states, cut, _] = <[String; 4]>::try_from(texts(&b).await?).unwrap();
    assert!(gantt.contains("没有主线程"), "{gantt}");
    assert!(states.contains("工作线程"), "{states}");
    assert!(cut.contains("图表只显示") && cut.contains("20000"), "{cut}");
    b.finish().await
}
