//! Records the trace fixtures with real interactions
//! (`crate/tests/fixtures/traces/`): headless Chromium traces
//! `tests/pages/interactions.html` (DevTools' timeline categories, started
//! with `Tracing.start` on the page's own DevTools session as DevTools and
//! Lighthouse start it, so `TracingStartedInBrowser` names the page's frame
//! tree and Lighthouse reads the trace) while clicks and key presses arrive
//! through its input path (CDP `Input.dispatch*` on the page's own DevTools
//! socket). Beside each gzipped trace goes the page's own Event Timing
//! readings of the same run, per interaction. Ignored by `cargo test`; run
//! by `scripts/record-traces.sh`, which writes the fixtures.
//!
//! A trace is only written when it holds `EventTiming` events with an
//! `interactionId` for every interaction the page saw. Only the page's
//! renderer process is kept (with every process's and thread's name), so
//! each fixture stays well under 200 KB gzipped.

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value};
use tailslice_e2e::{repo_root, test_pages_dir, Browser, CdpSocket, Result, TIMELINE_CATEGORIES};

const T: Duration = Duration::from_secs(30);

/// What happens on the page while it is traced.
#[derive(Clone, Copy, Debug)]
enum Scenario {
    /// Two clicks on a button whose handler runs 120 ms.
    SlowHandler,
    /// Three keys typed into a field whose keydown handler runs 25 ms and
    /// asks for an animation frame callback of 90 ms, which runs in the
    /// rendering task before the paint.
    LongTaskBeforePaint,
    /// Two clicks on a 2 ms handler, each sent while a 250 ms task holds
    /// the main thread.
    ClickDuringLongTask,
}

impl Scenario {
    fn name(self) -> &'static str {
        match self {
            Scenario::SlowHandler => "interactions-slow-handler",
            Scenario::LongTaskBeforePaint => "interactions-long-task-before-paint",
            Scenario::ClickDuringLongTask => "interactions-click-during-long-task",
        }
    }
}

fn fixtures_dir() -> PathBuf {
    std::env::var_os("TRACE_FIXTURES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("crate/tests/fixtures/traces"))
}

/// The centre of the first element matching `css`, in CSS pixels.
async fn centre(b: &Browser, css: &str) -> Result<(f64, f64)> {
    let v = b
        .eval_js(&format!(
            "const r = document.querySelector('{css}').getBoundingClientRect(); \
             return [r.x + r.width / 2, r.y + r.height / 2];"
        ))
        .await?;
    Ok((v[0].as_f64().unwrap_or(0.0), v[1].as_f64().unwrap_or(0.0)))
}

/// A left click at the element's centre: press and release, sent at once.
async fn click(b: &Browser, s: &CdpSocket, css: &str) -> Result<()> {
    let (x, y) = centre(b, css).await?;
    for kind in ["mousePressed", "mouseReleased"] {
        s.send(
            "Input.dispatchMouseEvent",
            json!({"type": kind, "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1}),
        )?;
    }
    Ok(())
}

/// A key press that types `key` (keydown with its text, then keyup).
fn type_key(s: &CdpSocket, key: char) -> Result<()> {
    let code = format!("Key{}", key.to_ascii_uppercase());
    let vk = key.to_ascii_uppercase() as u32;
    s.send(
        "Input.dispatchKeyEvent",
        json!({"type": "keyDown", "key": key.to_string(), "code": code, "text": key.to_string(),
               "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk}),
    )?;
    s.send(
        "Input.dispatchKeyEvent",
        json!({"type": "keyUp", "key": key.to_string(), "code": code,
               "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk}),
    )?;
    Ok(())
}

/// Waits until the page has Event Timing entries for `n` interactions.
async fn interactions_seen(b: &Browser, n: usize) -> Result<()> {
    if let Err(e) = b
        .wait_js(&format!("window.interactionsSeen() >= {n}"), T)
        .await
    {
        let seen = b.eval_js("return window.readings;").await?;
        return Err(format!("{e}; the page's Event Timing entries: {seen}").into());
    }
    Ok(())
}

async fn play(b: &Browser, s: &CdpSocket, scenario: Scenario) -> Result<usize> {
    match scenario {
        Scenario::SlowHandler => {
            for i in 1..=2 {
                click(b, s, "#slow").await?;
                interactions_seen(b, i).await?;
            }
            Ok(2)
        }
        Scenario::LongTaskBeforePaint => {
            b.eval_js("document.getElementById('field').focus(); return true;")
                .await?;
            for (i, key) in "abc".chars().enumerate() {
                type_key(s, key)?;
                interactions_seen(b, i + 1).await?;
            }
            Ok(3)
        }
        Scenario::ClickDuringLongTask => {
            for i in 1..=2 {
                let (x, y) = centre(b, "#plain").await?;
                s.send(
                    "Runtime.evaluate",
                    json!({"expression": "window.busy(250)"}),
                )?;
                // The click is sent once the browser knows the long task
                // has started (its title), so it lands inside it.
                let title = format!("busy {i}");
                b.wait_until("the long task has started", T, || async {
                    let titles: Vec<String> = b
                        .devtools_targets()?
                        .iter()
                        .filter_map(|t| t["title"].as_str().map(str::to_string))
                        .collect();
                    Ok(if titles.contains(&title) {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(titles)
                    })
                })
                .await?;
                for kind in ["mousePressed", "mouseReleased"] {
                    s.send(
                        "Input.dispatchMouseEvent",
                        json!({"type": kind, "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1}),
                    )?;
                }
                interactions_seen(b, i).await?;
            }
            Ok(2)
        }
    }
}

/// Per interaction, the phases by web-vitals' attribution rules
/// (`src/lib/InteractionManager.ts`, `src/attribution/onINP.ts`): the
/// interaction's entry is its longest (the earliest of equals), its latency
/// that entry's duration; the entries painted in the same frame (render
/// time `startTime + duration` within 8 ms, Event Timing's rounding) give
/// processing, from their first `processingStart` to their last
/// `processingEnd`; input delay runs from the entry's `startTime` to that
/// first `processingStart`, presentation delay from the last
/// `processingEnd` to the paint.
fn interactions_of(entries: &[Value]) -> Vec<Value> {
    let mut by_id: BTreeMap<u64, Vec<&Value>> = BTreeMap::new();
    for e in entries {
        let id = e["interactionId"].as_u64().unwrap_or(0);
        if id > 0 {
            by_id.entry(id).or_default().push(e);
        }
    }
    let f = |e: &Value, k: &str| e[k].as_f64().unwrap_or(f64::NAN);
    let render = |e: &Value| f(e, "startTime") + f(e, "duration");
    let mut out: Vec<Value> = by_id
        .into_iter()
        .map(|(id, mut es)| {
            es.sort_by(|a, b| f(a, "startTime").total_cmp(&f(b, "startTime")));
            let latency = es.iter().map(|e| f(e, "duration")).fold(0.0, f64::max);
            let first = *es.iter().find(|e| f(e, "duration") == latency).unwrap();
            let frame: Vec<&&Value> = es
                .iter()
                .filter(|e| (render(e) - render(first)).abs() <= 8.0)
                .collect();
            let proc_start = frame
                .iter()
                .map(|e| f(e, "processingStart"))
                .fold(f64::INFINITY, f64::min);
            let proc_end = frame
                .iter()
                .map(|e| f(e, "processingEnd"))
                .fold(0.0, f64::max);
            let paint = render(first).max(proc_end);
            let names: Vec<&str> = es.iter().filter_map(|e| e["name"].as_str()).collect();
            let kind = if names.iter().any(|n| n.starts_with("key")) {
                "keyboard"
            } else {
                "click"
            };
            json!({
                "interaction_id": id,
                "kind": kind,
                "start_ms": f(first, "startTime"),
                "latency_ms": latency,
                "input_delay_ms": proc_start - f(first, "startTime"),
                "processing_ms": proc_end - proc_start,
                "presentation_ms": paint - proc_end,
                "events": names,
            })
        })
        .collect();
    out.sort_by(|a, b| f(a, "start_ms").total_cmp(&f(b, "start_ms")));
    out
}

/// Keeps a fixture small: the events of the page's renderer process (the
/// one whose `EventTiming` events carry interactions), every metadata event
/// (process and thread names) and the browser's markers of where tracing
/// started (with Lighthouse's timespan marker) and which frame committed; the other processes' tasks (the
/// browser's, the GPU's, the network service's) go.
fn page_process_only(events: Vec<Value>) -> Vec<Value> {
    let renderer = events
        .iter()
        .find(|e| {
            e["name"] == "EventTiming"
                && e["args"]["data"]["interactionId"].as_u64().unwrap_or(0) > 0
        })
        .map(|e| e["pid"].clone());
    events
        .into_iter()
        .filter(|e| {
            Some(&e["pid"]) == renderer.as_ref()
                || e["ph"] == "M"
                || matches!(
                    e["name"].as_str(),
                    Some(
                        "TracingStartedInBrowser"
                            | "FrameCommittedInBrowser"
                            | "ProcessReadyInBrowser"
                            | "clock_sync"
                    )
                )
        })
        .collect()
}

async fn record(scenario: Scenario) -> Result<()> {
    let b = Browser::start_serving(test_pages_dir()).await?;
    b.open("/interactions.html").await?;
    b.wait_js("typeof window.interactionsSeen === 'function'", T)
        .await?;
    let version = b.cdp("Browser.getVersion", json!({})).await?;
    let socket = b.devtools_socket(&b.url("/interactions.html")).await?;
    socket.start_tracing(TIMELINE_CATEGORIES)?;
    let n = play(&b, &socket, scenario).await?;
    // The last interaction's paint has been reported; one more frame so the
    // trace holds its end too.
    b.next_frame().await?;
    let page = b
        .eval_js("return {timeOrigin: performance.timeOrigin, entries: window.readings};")
        .await?;
    let events = socket.end_tracing(T)?;
    drop(socket);
    b.finish().await?;

    let entries = page["entries"].as_array().cloned().unwrap_or_default();
    let interactions = interactions_of(&entries);
    assert_eq!(
        interactions.len(),
        n,
        "{}: {interactions:?}",
        scenario.name()
    );
    let traced_ids: std::collections::BTreeSet<u64> = events
        .iter()
        .filter(|e| e["name"] == "EventTiming")
        .filter_map(|e| e["args"]["data"]["interactionId"].as_u64())
        .filter(|&id| id > 0)
        .collect();
    for i in &interactions {
        let id = i["interaction_id"].as_u64().unwrap();
        assert!(
            traced_ids.contains(&id),
            "{}: the trace has no EventTiming event of interaction {id} (it has {traced_ids:?})",
            scenario.name()
        );
    }

    let events = page_process_only(events);

    let dir = fixtures_dir();
    std::fs::create_dir_all(&dir)?;
    let trace = json!({
        "metadata": {
            "source": "tests/tests/record_traces.rs (scripts/record-traces.sh)",
            "product": version["product"],
        },
        "traceEvents": events,
    });
    let gz_path = dir.join(format!("{}.json.gz", scenario.name()));
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz_path)?,
        flate2::Compression::best(),
    );
    gz.write_all(&serde_json::to_vec(&trace)?)?;
    gz.finish()?;
    let readings = json!({
        "trace": gz_path.file_name().unwrap().to_string_lossy(),
        "page": "tests/pages/interactions.html",
        "product": version["product"],
        "time_origin_ms": page["timeOrigin"],
        "interactions": interactions,
        "event_timing_entries": entries,
    });
    std::fs::write(
        dir.join(format!("{}.readings.json", scenario.name())),
        serde_json::to_string_pretty(&readings)? + "\n",
    )?;
    let size = std::fs::metadata(&gz_path)?.len();
    eprintln!(
        "{}: {} events, {} bytes gzipped, interactions {}",
        gz_path.display(),
        events.len(),
        size,
        serde_json::to_string(&readings["interactions"])?
    );
    assert!(
        size < 200_000,
        "{}: {size} bytes gzipped",
        gz_path.display()
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "writes the trace fixtures; run by scripts/record-traces.sh"]
async fn record_interaction_traces() -> Result<()> {
    let only = std::env::var("TRACE_SCENARIO").unwrap_or_default();
    for s in [
        Scenario::SlowHandler,
        Scenario::LongTaskBeforePaint,
        Scenario::ClickDuringLongTask,
    ] {
        if !s.name().contains(&only) {
            continue;
        }
        record(s).await?;
    }
    Ok(())
}

#[test]
fn phases_follow_web_vitals_attribution() {
    let entries = vec![
        // Painted in an earlier frame than the click: not in its phases.
        json!({"name": "pointerdown", "interactionId": 7, "startTime": 100.0, "processingStart": 130.0, "processingEnd": 131.0, "duration": 40.0}),
        json!({"name": "pointerup", "interactionId": 7, "startTime": 110.0, "processingStart": 131.0, "processingEnd": 132.0, "duration": 160.0}),
        json!({"name": "click", "interactionId": 7, "startTime": 110.0, "processingStart": 132.0, "processingEnd": 250.0, "duration": 160.0}),
        json!({"name": "mousemove", "interactionId": 0, "startTime": 90.0, "processingStart": 91.0, "processingEnd": 92.0, "duration": 16.0}),
    ];
    let i = interactions_of(&entries);
    assert_eq!(i.len(), 1);
    assert_eq!(i[0]["kind"], "click");
    assert_eq!(i[0]["start_ms"], 110.0);
    assert_eq!(i[0]["latency_ms"], 160.0);
    assert_eq!(i[0]["input_delay_ms"], 21.0);
    assert_eq!(i[0]["processing_ms"], 119.0);
    // Paint at 110 + 160 = 270, 20 ms after the last processingEnd.
    assert_eq!(i[0]["presentation_ms"], 20.0);
    let phases: f64 = ["input_delay_ms", "processing_ms", "presentation_ms"]
        .iter()
        .map(|k| i[0][k].as_f64().unwrap())
        .sum();
    assert_eq!(phases, 160.0);
}
