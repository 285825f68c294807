//! A trace's real interactions on the page: a recorded Chromium trace with
//! clicks (crate/tests/fixtures/traces/) opened through `input#trace-file`
//! shows, in the Responsiveness section, INP recorded → sliced in the
//! headline (`[data-inp]`), the interactions' three-phase bars and the
//! per-interaction table (`table#interactions tr[data-interaction]`, its
//! `td[data-metric]` cells), all equal to `tailslice responsiveness
//! --trace-in FILE --json`, in English and Chinese; a trace without
//! interactions says so plainly.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};
use tailslice_e2e::page::{ink, open_ready, updates};
use tailslice_e2e::{artifacts_dir, repo_root, run_cli, Browser, Result};

const T: Duration = Duration::from_secs(90);
/// The page's quantum (its default).
const PAGE_Q: f64 = 16.0;

fn fixture(name: &str) -> PathBuf {
    repo_root()
        .join("crate/tests/fixtures/traces")
        .join(format!("{name}.json.gz"))
}

/// A trace with tasks and no `EventTiming` at all.
fn trace_without_interactions() -> PathBuf {
    const T0: f64 = 55_000_000_000.0;
    let mut ev = vec![
        json!({"ph": "M", "name": "thread_name", "pid": 3, "tid": 1, "args": {"name": "CrRendererMain"}}),
    ];
    for i in 0..20u32 {
        let t = f64::from(i) * 120.0;
        let d = 5.0 + f64::from(i % 5) * 20.0;
        ev.push(json!({"ph": "X", "name": "RunTask", "pid": 3, "tid": 1, "ts": T0 + t * 1000.0, "dur": d * 1000.0}));
    }
    let path = artifacts_dir().join("page-interactions-none.json");
    std::fs::write(
        &path,
        serde_json::to_vec(&json!({ "traceEvents": ev })).unwrap(),
    )
    .unwrap();
    path
}

/// Opens `path` with the trace picker and waits until its run and its
/// Responsiveness section are shown.
async fn open_trace(b: &Browser, path: &Path) -> Result<()> {
    let n = updates(b).await?;
    b.eval_js("document.querySelector('#tasks-panel').open = true; return true;")
        .await?;
    b.find("#trace-file")
        .await?
        .send_keys(path.to_str().unwrap())
        .await?;
    b.wait_js(
        &format!(
            "document.body.dataset.trace === 'ready' && Number(document.body.dataset.updates) > {n} \
             && document.body.dataset.state === 'ready' && \
             document.querySelector('#responsiveness').dataset.query === document.body.dataset.query"
        ),
        T,
    )
    .await?;
    Ok(())
}

async fn set_lang(b: &Browser, lang: &str) -> Result<()> {
    b.eval_js(&format!(
        "document.querySelector('#lang').value = '{lang}'; document.querySelector('#lang').dispatchEvent(new Event('change')); return true;"
    ))
    .await?;
    b.wait_js(
        &format!("document.querySelector('#responsiveness').dataset.lang === '{lang}'"),
        T,
    )
    .await?;
    Ok(())
}

/// `tr[data-interaction] → {metric: text}` of the interactions table.
async fn interaction_rows(b: &Browser) -> Result<Vec<(String, Value)>> {
    let v = b
        .eval_js(
            "return [...document.querySelectorAll('table#interactions tr[data-interaction]')].map(tr => \
             [tr.dataset.interaction, Object.fromEntries([...tr.querySelectorAll('td[data-metric]')].map(td => [td.dataset.metric, td.textContent]))]);",
        )
        .await?;
    Ok(v.as_array()
        .ok_or("no interactions table")?
        .iter()
        .map(|r| (r[0].as_str().unwrap_or("").to_string(), r[1].clone()))
        .collect())
}

fn ms(v: &Value) -> String {
    format!("{:.1}", v.as_f64().unwrap())
}

/// The CLI's INP of the row at quantum `q` (`None`: as recorded).
fn inp_at(cli: &Value, q: Option<f64>) -> String {
    let row = cli["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["quantum_ms"].as_f64() == q)
        .unwrap();
    ms(&row["inp_ms"])
}

/// The page shows what the CLI says of the same file.
async fn same_as_cli(b: &Browser, cli: &Value) -> Result<()> {
    let want = cli["interactions"].as_array().unwrap();
    let rows = interaction_rows(b).await?;
    assert_eq!(rows.len(), want.len(), "interactions: {rows:?}");
    for ((id, cells), w) in rows.iter().zip(want) {
        assert_eq!(id, &w["id"].to_string());
        for (key, field) in [
            ("latency", "latency_ms"),
            ("input_delay", "input_delay_ms"),
            ("processing", "processing_ms"),
            ("presentation", "presentation_ms"),
            ("model_input_delay", "model_input_delay_ms"),
            ("start", "start_ms"),
        ] {
            assert_eq!(
                cells[key].as_str(),
                Some(ms(&w[field]).as_str()),
                "interaction {id}: {key} in {cells}"
            );
        }
        let sliced = w["sliced"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["quantum_ms"].as_f64() == Some(PAGE_Q))
            .unwrap();
        assert_eq!(
            cells["sliced_latency"].as_str(),
            Some(ms(&sliced["latency_ms"]).as_str()),
            "interaction {id}: sliced latency"
        );
    }
    // The headline: INP recorded, then sliced at the page's quantum.
    let inp = b.text("[data-inp]").await?;
    let recorded = inp_at(cli, None);
    let sliced = inp_at(cli, Some(PAGE_Q));
    let (r, s) = (inp.find(&recorded), inp.rfind(&sliced));
    assert!(
        r.is_some() && s.is_some() && r < s,
        "headline {inp:?}: want {recorded} then {sliced}"
    );
    assert!(ink(b, "#resp-bars").await? > 0.01, "the bars are blank");
    Ok(())
}

#[tokio::test]
async fn a_traces_interactions_are_the_clis_in_both_languages() -> Result<()> {
    let path = fixture("interactions-click-during-long-task");
    let cli: Value = serde_json::from_str(&run_cli([
        "responsiveness",
        "--trace-in",
        path.to_str().unwrap(),
        "--json",
    ])?)?;
    assert!(!cli["interactions"].as_array().unwrap().is_empty());
    let b = Browser::start().await?;
    open_ready(&b, "/?v=1&p=fifo,rr").await?;
    open_trace(&b, &path).await?;
    same_as_cli(&b, &cli).await?;
    let reading = b.text("#resp-inter-reading").await?;
    assert!(reading.contains("input delay dominates"), "{reading}");
    b.eval_js("document.querySelector('#resp-inp').scrollIntoView(); return true;")
        .await?;
    b.screenshot("page-interactions-en").await?;
    b.eval_js("document.querySelector('#resp-interactions').scrollIntoView(); return true;")
        .await?;
    b.screenshot("page-interactions-en-table").await?;

    set_lang(&b, "zh").await?;
    same_as_cli(&b, &cli).await?;
    let inp = b.text("[data-inp]").await?;
    assert!(inp.contains("按记录"), "{inp}");
    let reading = b.text("#resp-inter-reading").await?;
    assert!(reading.contains("以输入延迟为主"), "{reading}");
    b.eval_js("document.querySelector('#resp-interactions').scrollIntoView(); return true;")
        .await?;
    b.screenshot("page-interactions-zh").await?;
    set_lang(&b, "en").await?;

    // A trace without interactions says so plainly: no headline, no table.
    open_trace(&b, &trace_without_interactions()).await?;
    let found = b.text("#resp-inter-found").await?;
    assert!(found.contains("interactions: none"), "{found}");
    let hidden = b
        .eval_js(
            "return [document.querySelector('[data-inp]').hidden, document.querySelector('table#interactions').hidden, \
             document.querySelectorAll('table#interactions tr[data-interaction]').length];",
        )
        .await?;
    assert_eq!(hidden, json!([true, true, 0]));
    b.finish().await
}

/// The longest-tasks table marks the tasks that are an interaction's own
/// handlers (`tr[data-handler]`, with the words after the label), the same
/// tasks the CLI's JSON flags.
#[tokio::test]
async fn the_longest_tasks_mark_the_interactions_own_handlers() -> Result<()> {
    let path = fixture("interactions-slow-handler");
    let json: Value = serde_json::from_str(&run_cli([
        "simulate",
        "--trace-in",
        path.to_str().unwrap(),
        "--json",
    ])?)?;
    let want: Vec<u64> = json["trace"]["longest"]
        .as_array()
        .ok_or("trace.longest")?
        .iter()
        .filter(|l| l["handler"] == Value::Bool(true))
        .filter_map(|l| l["task"].as_u64())
        .collect();
    assert!(
        !want.is_empty(),
        "the fixture's slow handler is a long task"
    );
    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    open_trace(&b, &path).await?;
    let rows = b
        .eval_js(
            "return [...document.querySelectorAll('#trace-longest tbody tr')].map(tr => \
             [Number(tr.dataset.task), tr.dataset.handler !== undefined, tr.lastElementChild.textContent]);",
        )
        .await?;
    let rows = rows.as_array().ok_or("rows")?;
    let marked: Vec<u64> = rows
        .iter()
        .filter(|r| r[1] == Value::Bool(true))
        .filter_map(|r| r[0].as_u64())
        .collect();
    assert_eq!(marked, want, "{rows:?}");
    for r in rows {
        let said = r[2].as_str().unwrap_or_default().contains("own handler");
        assert_eq!(said, r[1] == Value::Bool(true), "{r:?}");
    }
    b.finish().await
}

/// Under the interaction bars, the trace's recorded tasks as a Gantt on the
/// same time axis, an interaction's own handlers marked: the bars' canvas
/// sits above the Gantt's, both draw the same time range (`data-time-range`,
/// from Rust) with their plots' edges at the same page x, and the Gantt
/// drew a handler slice for each handler task (`data-handler-slices`): at
/// least one per interaction and every one the longest-tasks table marks.
#[tokio::test]
async fn the_bars_sit_above_a_gantt_that_marks_the_handlers() -> Result<()> {
    let path = fixture("interactions-slow-handler");
    let cli: Value = serde_json::from_str(&run_cli([
        "responsiveness",
        "--trace-in",
        path.to_str().unwrap(),
        "--json",
    ])?)?;
    let interactions = cli["interactions"].as_array().ok_or("interactions")?.len();
    let tasks = cli["tasks"].as_u64().ok_or("tasks")?;
    let sim: Value = serde_json::from_str(&run_cli([
        "simulate",
        "--trace-in",
        path.to_str().unwrap(),
        "--json",
    ])?)?;
    let longest_handlers = sim["trace"]["longest"]
        .as_array()
        .ok_or("trace.longest")?
        .iter()
        .filter(|l| l["handler"] == Value::Bool(true))
        .count();
    assert!(interactions >= 2 && longest_handlers >= 2);

    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    open_trace(&b, &path).await?;
    b.wait_js(
        "document.querySelector('#resp-tasks')?.dataset.handlerSlices !== undefined \
         && document.querySelector('#resp-bars')?.dataset.timeRange !== undefined",
        T,
    )
    .await?;
    let v = b
        .eval_js(
            "const box = (id) => { const c = document.querySelector(id); const r = c.getBoundingClientRect(); \
               const [l, rt] = c.dataset.plotX.split(',').map(Number); \
               return {top: r.top, bottom: r.bottom, left: r.left + l, right: r.left + rt, \
                       range: c.dataset.timeRange, hidden: c.closest('figure').hidden}; }; \
             const t = document.querySelector('#resp-tasks'); \
             return {bars: box('#resp-bars'), tasks: box('#resp-tasks'), handlers: Number(t.dataset.handlerSlices), \
                     label: t.getAttribute('aria-label')};",
        )
        .await?;
    let (bars, gantt) = (&v["bars"], &v["tasks"]);
    let f = |x: &Value, k: &str| x[k].as_f64().unwrap_or(f64::NAN);
    assert_eq!(bars["hidden"], false, "{v}");
    assert_eq!(gantt["hidden"], false, "{v}");
    assert!(
        f(bars, "bottom") <= f(gantt, "top") + 0.5,
        "the bars are not above the Gantt: {v}"
    );
    assert_eq!(bars["range"], gantt["range"], "different time axes: {v}");
    assert!(
        (f(bars, "left") - f(gantt, "left")).abs() < 0.5,
        "plots start apart: {v}"
    );
    assert!(
        (f(bars, "right") - f(gantt, "right")).abs() < 0.5,
        "plots end apart: {v}"
    );
    let n = v["handlers"].as_u64().ok_or("handler slices")?;
    assert!(
        n as usize >= interactions.max(longest_handlers) && n <= tasks,
        "{n} handler slices for {interactions} interactions, {longest_handlers} marked longest tasks, {tasks} tasks"
    );
    assert!(ink(&b, "#resp-tasks").await? > 0.01, "the Gantt is blank");
    b.screenshot("page-interactions-gantt-en").await?;

    // The words are Rust's, in Chinese too.
    set_lang(&b, "zh").await?;
    b.wait_js(
        "(document.querySelector('#resp-tasks-caption').textContent || '').includes('处理程序')",
        T,
    )
    .await?;
    set_lang(&b, "en").await?;

    // A trace without interactions has neither bars nor their Gantt.
    open_trace(&b, &trace_without_interactions()).await?;
    let hidden = b
        .eval_js("return [document.querySelector('#resp-bars-fig').hidden, document.querySelector('#resp-tasks-fig').hidden];")
        .await?;
    assert_eq!(hidden, json!([true, true]));
    b.finish().await
}
