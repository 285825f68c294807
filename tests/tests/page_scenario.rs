//! End-to-end tests of the Apple QoS scenarios on the page in
//! headless Chromium: each scenario opened by URL shows the tables of
//! `tailslice scenario <name> --json` with the same knobs; knob edits update
//! the URL and the table; bad and hostile scenario parameters show the
//! banner and run nothing; canvases are drawn; switching back to the
//! 400-task preset restores the normal view.

use std::time::Duration;

use serde_json::Value;
use tailslice_e2e::page::{assert_no_sideways_scroll, ink};
use tailslice_e2e::{run_cli, Browser, Result};

/// Scenarios run in the worker; m1-compress simulates 12 runs.
const T: Duration = Duration::from_secs(60);

/// A table row: its `data-row` key and `(metric, text)` cells.
type Row = (String, Vec<(String, String)>);
type Rows = Vec<Row>;

/// Waits until the scenario view drew at least `updates` results and
/// nothing is queued.
async fn wait_scenario(b: &Browser, updates: u64) -> Result<()> {
    b.wait_js(
        &format!(
            "(() => {{ const r = document.querySelector('#scenario-results'); \
             return r && r.dataset.state === 'ready' && Number(r.dataset.updates) >= {updates}; }})()"
        ),
        T,
    )
    .await?;
    Ok(())
}

async fn updates(b: &Browser) -> Result<u64> {
    let v = b
        .eval_js("return document.querySelector('#scenario-results').dataset.updates;")
        .await?;
    Ok(v.as_str().and_then(|s| s.parse().ok()).unwrap_or(0))
}

/// The scenario table as `[(data-row, {metric: text})]`.
async fn table(b: &Browser) -> Result<Rows> {
    let v = b
        .eval_js(
            "return [...document.querySelectorAll('table#scenario-table tbody tr[data-row]')].map(tr => \
             [tr.dataset.row, [...tr.querySelectorAll('td[data-metric]')].map(td => \
             [td.dataset.metric, td.textContent])]);",
        )
        .await?;
    Ok(v.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let cells = r[1]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    (
                        c[0].as_str().unwrap().to_string(),
                        c[1].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            (r[0].as_str().unwrap().to_string(), cells)
        })
        .collect())
}

fn one_decimal(v: &Value) -> String {
    match v.as_f64() {
        Some(f) => format!("{f:.1}"),
        None => "—".to_string(),
    }
}

/// `(row key, [(metric, one-decimal text)])` from the CLI's JSON, for the
/// metrics the page shows.
fn cli_rows(name: &str, args: &[&str]) -> Result<Rows> {
    let mut all = vec!["scenario", name, "--json"];
    all.extend_from_slice(args);
    let out = run_cli(&all)?;
    let v: Value = serde_json::from_str(&out).map_err(|e| format!("CLI JSON: {e}\n{out}"))?;
    let pick = |obj: &Value, metrics: &[&str]| -> Vec<(String, String)> {
        metrics
            .iter()
            .map(|m| (m.to_string(), one_decimal(&obj[m])))
            .collect()
    };
    let mut rows = Vec::new();
    match name {
        "feishu-demo" => {
            for g in v["groups"].as_array().unwrap() {
                rows.push((
                    g["qos"].as_str().unwrap().to_string(),
                    pick(
                        g,
                        &[
                            "main_running_pct",
                            "main_runnable_pct",
                            "main_preempted_pct",
                            "main_waiting_pct",
                            "measured_pct",
                        ],
                    ),
                ));
            }
        }
        "feishu-startup" => {
            for c in v["configs"].as_array().unwrap() {
                rows.push((
                    c["name"].as_str().unwrap().to_string(),
                    pick(c, &["first_screen_ms", "first_refresh_ms"]),
                ));
            }
        }
        _ => {
            let mut seen = std::collections::HashMap::new();
            for c in v["cases"].as_array().unwrap() {
                for j in c["jobs"].as_array().unwrap() {
                    let mut key = format!(
                        "{}:{}:{}",
                        c["machine"].as_str().unwrap(),
                        c["case"].as_str().unwrap(),
                        j["qos"]
                    );
                    let n = seen.entry(key.clone()).or_insert(0);
                    *n += 1;
                    if *n > 1 {
                        key = format!("{key}#{n}");
                    }
                    rows.push((key, pick(j, &["seconds", "measured_seconds"])));
                }
            }
        }
    }
    Ok(rows)
}

/// Page and CLI agree on every row and metric the CLI gives (to one
/// decimal; a difference of one in the last digit is allowed only for an
/// exact tie, which JavaScript and Rust round differently).
fn assert_same(page: &[Row], cli: &[Row], what: &str) {
    let keys = |t: &[Row]| t.iter().map(|r| r.0.clone()).collect::<Vec<_>>();
    assert_eq!(keys(page), keys(cli), "{what}: rows");
    for ((row, cells), (_, want)) in page.iter().zip(cli) {
        for (metric, w) in want {
            let got = cells
                .iter()
                .find(|(m, _)| m == metric)
                .map(|c| c.1.clone())
                .unwrap_or_else(|| panic!("{what}: {row} has no {metric} cell"));
            let close = match (got.parse::<f64>(), w.parse::<f64>()) {
                (Ok(a), Ok(b)) => (a - b).abs() < 0.1 + 1e-9,
                _ => false,
            };
            assert!(
                got == *w || close,
                "{what}: {row} {metric}: page {got}, CLI {w}"
            );
        }
    }
}

async fn query(b: &Browser) -> Result<String> {
    Ok(b.current_url().await?.query().unwrap_or("").to_string())
}

async fn cell(b: &Browser, row: &str, metric: &str) -> Result<String> {
    b.text(&format!(
        "table#scenario-table tr[data-row=\"{row}\"] td[data-metric=\"{metric}\"]"
    ))
    .await
}

/// Sets a control's value from script and fires the event the page listens to.
async fn set_control(b: &Browser, css: &str, value: &str, event: &str) -> Result<()> {
    b.eval_js(&format!(
        "const e = document.querySelector('{css}'); e.value = {}; \
         e.dispatchEvent(new Event('{event}', {{bubbles: true}})); return true;",
        serde_json::to_string(value)?
    ))
    .await?;
    Ok(())
}

#[tokio::test]
async fn each_scenario_by_url_matches_the_cli_and_draws() -> Result<()> {
    let b = Browser::start().await?;
    b.set_window_size(1400, 2600).await?;
    let cases: [(&str, &str, &[&str], bool); 4] = [
        ("/?s=feishu-demo", "feishu-demo", &[], true),
        (
            "/?v=1&s=feishu-demo&bl=off&nq=50&groups=userInitiated,utility&secs=4",
            "feishu-demo",
            &[
                "--band-limit",
                "off",
                "--queues",
                "50",
                "--groups",
                "userInitiated,utility",
                "--seconds",
                "4",
            ],
            true,
        ),
        ("/?s=feishu-startup", "feishu-startup", &[], true),
        ("/?s=m1-compress", "m1-compress", &[], false),
    ];
    for (n, (url, name, args, pri)) in cases.into_iter().enumerate() {
        b.open(url).await?;
        wait_scenario(&b, 1).await?;
        assert_same(&table(&b).await?, &cli_rows(name, args)?, url);
        assert!(
            b.find("#error").await?.attr("hidden").await?.is_some(),
            "{url}: no banner"
        );
        assert_eq!(
            b.find("#scenario").await?.prop("value").await?.as_deref(),
            Some(name)
        );
        // The normal view is hidden, the scenario's is shown.
        let shown = b
            .eval_js(
                "return [document.querySelector('#percentiles').offsetParent === null, \
                 document.querySelector('#scenario-results').offsetParent !== null, \
                 document.querySelector('#scenario-notes').children.length];",
            )
            .await?;
        assert_eq!(shown[0], true, "{url}: task table hidden");
        assert_eq!(shown[1], true, "{url}: scenario shown");
        assert!(shown[2].as_u64().unwrap() >= 2, "{url}: notes shown");
        let mut canvases = vec!["#qos-gantt", "#qos-states"];
        if pri {
            canvases.push("#qos-pri");
        }
        for c in canvases {
            let share = ink(&b, c).await?;
            assert!(share > 0.01, "{url}: {c} looks blank ({share})");
        }
        if n != 1 {
            b.screenshot(&format!("scenario-{name}")).await?;
        }
        let ms = b
            .attr("#scenario-results", "data-ms")
            .await?
            .unwrap_or_default();
        eprintln!("{url}: simulated in the worker in {ms} ms");
    }
    // The feishu-demo study's split and floor, as the page shows them.
    b.open("/?s=feishu-demo").await?;
    wait_scenario(&b, 1).await?;
    let waiting = |s: String| s.parse::<f64>().unwrap();
    assert!(waiting(cell(&b, "userInteractive", "main_waiting_pct").await?) >= 50.0);
    assert!(waiting(cell(&b, "utility", "main_waiting_pct").await?) <= 5.0);
    assert_eq!(cell(&b, "userInteractive", "main_min_pri").await?, "29");
    assert!(pri_legend(&b).await?.contains("29"));
    // m1-compress: the calibration is stated.
    b.open("/?s=m1-compress").await?;
    wait_scenario(&b, 1).await?;
    assert!(b.text("#scenario-calibration").await?.contains("0.30"));
    // On a phone, in Chinese, the scenario view does not scroll sideways.
    b.set_window_size(360, 800).await?;
    for url in [
        "/?s=m1-compress&lang=zh",
        "/?s=feishu-startup&lang=zh",
        "/?s=feishu-demo",
    ] {
        b.open(url).await?;
        wait_scenario(&b, 1).await?;
        assert_no_sideways_scroll(&b)
            .await
            .map_err(|e| format!("{url}: {e}"))?;
    }
    b.finish().await
}

#[tokio::test]
async fn knob_edits_update_the_url_and_the_table() -> Result<()> {
    let b = Browser::start().await?;
    b.open("/?s=feishu-demo&secs=3").await?;
    wait_scenario(&b, 1).await?;
    assert_eq!(query(&b).await?, "v=1&s=feishu-demo&secs=3");
    let utility_on = cell(&b, "utility", "main_waiting_pct").await?;
    assert_eq!(cell(&b, "utility", "main_min_pri").await?, "29");

    // Band limit off: the main thread decays below 29 and utility queues
    // start to keep it waiting.
    let before = updates(&b).await?;
    set_control(&b, "#sc-bl", "off", "change").await?;
    wait_scenario(&b, before + 1).await?;
    assert_eq!(query(&b).await?, "v=1&s=feishu-demo&bl=off&secs=3");
    let min_pri: u32 = cell(&b, "utility", "main_min_pri").await?.parse()?;
    assert!(
        min_pri < 29,
        "band limit off: main thread min pri {min_pri}"
    );
    let utility_off = cell(&b, "utility", "main_waiting_pct").await?;
    assert_ne!(utility_on, utility_off, "utility waiting changes");
    assert_same(
        &table(&b).await?,
        &cli_rows("feishu-demo", &["--band-limit", "off", "--seconds", "3"])?,
        "bl=off",
    );
    assert!(pri_legend(&b).await?.contains("no floor"));

    // Queue count and groups.
    let before = updates(&b).await?;
    set_control(&b, "#sc-nq", "20", "input").await?;
    set_control(&b, "#sc-groups", "background,userInitiated", "input").await?;
    wait_scenario(&b, before + 1).await?;
    b.wait_js(
        "document.querySelector('#scenario-results').dataset.query.includes('nq=20&groups=')",
        T,
    )
    .await?;
    wait_scenario(&b, before + 1).await?;
    let q = query(&b).await?;
    assert_eq!(
        q,
        "v=1&s=feishu-demo&bl=off&nq=20&groups=background,userInitiated&secs=3"
    );
    let args = [
        "--band-limit",
        "off",
        "--queues",
        "20",
        "--groups",
        "background,userInitiated",
        "--seconds",
        "3",
    ];
    assert_same(&table(&b).await?, &cli_rows("feishu-demo", &args)?, &q);

    // Another run in the charts: no new simulation needed, and in the URL.
    let before = updates(&b).await?;
    set_control(&b, "#sc-run", "1", "change").await?;
    wait_scenario(&b, before + 1).await?;
    assert!(query(&b).await?.ends_with("&run=1"));

    // A bad knob typed in the form: marked, explained, nothing runs.
    let before = updates(&b).await?;
    set_control(&b, "#sc-nq", "0", "input").await?;
    b.wait_js("!document.querySelector('#scenario-form-error').hidden", T)
        .await?;
    assert!(b
        .text("#scenario-form-error")
        .await?
        .contains("invalid nq '0'"));
    assert_eq!(
        b.attr("#sc-nq", "aria-invalid").await?.as_deref(),
        Some("true")
    );
    // The same frame that showed the error decided not to run: nothing
    // started (a run sets the state to running at once) or was drawn.
    assert_eq!(
        b.eval_js("return document.querySelector('#scenario-results').dataset.state;")
            .await?,
        "ready"
    );
    assert_eq!(updates(&b).await?, before);

    // The shared link reopens the same experiment.
    let shared = format!("/?{}", q.clone() + "&run=1");
    let want = table(&b).await?;
    b.open(&shared).await?;
    wait_scenario(&b, 1).await?;
    assert_eq!(table(&b).await?, want);
    assert_eq!(
        b.find("#sc-run").await?.prop("value").await?.as_deref(),
        Some("1")
    );
    assert_eq!(
        b.find("#sc-nq").await?.prop("value").await?.as_deref(),
        Some("20")
    );

    // m1-compress on one machine.
    b.open("/?s=m1-compress").await?;
    wait_scenario(&b, 1).await?;
    let before = updates(&b).await?;
    set_control(&b, "#sc-m", "xeon-w", "input").await?;
    wait_scenario(&b, before + 1).await?;
    assert_eq!(query(&b).await?, "v=1&s=m1-compress&m=xeon-w");
    assert_same(
        &table(&b).await?,
        &cli_rows("m1-compress", &["--machine", "xeon-w"])?,
        "m=xeon-w",
    );

    // Timelines off: tables only; the URL says so.
    b.open("/?s=feishu-startup&tl=off").await?;
    wait_scenario(&b, 1).await?;
    assert_same(
        &table(&b).await?,
        &cli_rows("feishu-startup", &[])?,
        "tl=off",
    );
    let hidden = b
        .eval_js("return document.querySelector('#qos-gantt').offsetParent === null;")
        .await?;
    assert_eq!(hidden, true);
    assert_eq!(query(&b).await?, "v=1&s=feishu-startup&tl=off");

    // In Chinese: headings translated, hooks unchanged.
    b.open("/?s=feishu-demo&secs=1&lang=zh").await?;
    wait_scenario(&b, 1).await?;
    assert!(b.text("#sc-table-h").await?.contains("主线程"));
    assert!(cell(&b, "utility", "main_running_pct")
        .await?
        .parse::<f64>()
        .is_ok());
    assert!(query(&b).await?.contains("lang=zh"));
    // The model's notes in Chinese too (Rust sends both languages).
    let notes = b.text("#scenario-notes").await?;
    assert!(has_han(&notes), "lang=zh notes: {notes}");
    assert!(notes.contains("userInitiated"), "QoS names kept: {notes}");
    // Switching the language re-renders them without a new run.
    let before = updates(&b).await?;
    b.eval_js(
        "const s = document.querySelector('#lang'); s.value = 'en'; \
         s.dispatchEvent(new Event('change')); return true;",
    )
    .await?;
    b.wait_js("document.documentElement.lang === 'en'", T)
        .await?;
    let notes = b.text("#scenario-notes").await?;
    assert!(!has_han(&notes), "switched to en: {notes}");
    assert!(
        notes.contains("main thread Preempted + Runnable"),
        "{notes}"
    );
    assert_eq!(updates(&b).await?, before);
    // m1-compress: notes and calibration in each language.
    b.open("/?s=m1-compress&tl=off&lang=zh").await?;
    wait_scenario(&b, 1).await?;
    assert!(has_han(&b.text("#scenario-notes").await?));
    let cal = b.text("#scenario-calibration").await?;
    assert!(has_han(&cal) && cal.contains("0.30"), "{cal}");
    // The study's wording of its measured figures follows the language too.
    let measured_alone = "tr[data-row='xeon-w:alone:9'] td[data-metric='measured']";
    let m = b.text(measured_alone).await?;
    assert!(has_han(&m) && m.contains("5.6–6.6"), "{m}");
    b.open("/?s=m1-compress&tl=off&lang=en").await?;
    wait_scenario(&b, 1).await?;
    assert!(!has_han(&b.text("#scenario-notes").await?));
    let cal = b.text("#scenario-calibration").await?;
    assert!(!has_han(&cal) && cal.contains("0.30"), "{cal}");
    assert_eq!(b.text(measured_alone).await?, "5.6–6.6 s at any QoS");
    b.finish().await
}

/// True when `s` has a CJK ideograph.
fn has_han(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[tokio::test]
async fn bad_and_hostile_scenario_parameters_show_the_banner_and_run_nothing() -> Result<()> {
    let b = Browser::start().await?;
    // Unknown scenario: the banner names it; no scenario runs, the task
    // experiment loads as usual.
    b.open("/?s=nope").await?;
    b.wait_js("document.body.dataset.state === 'ready'", T)
        .await?;
    let banner = b.text("#error").await?;
    assert!(
        banner.contains("invalid s 'nope': expected feishu-demo, feishu-startup or m1-compress"),
        "{banner}"
    );
    assert_eq!(b.attr("#error", "role").await?.as_deref(), Some("alert"));
    assert_eq!(
        b.attr("#scenario-results", "data-updates")
            .await?
            .as_deref(),
        Some("0")
    );
    assert!(b
        .find("#scenario-results")
        .await?
        .attr("hidden")
        .await?
        .is_some());
    assert_eq!(query(&b).await?, "");

    // A bad knob: named with its value and what is allowed; it keeps its
    // default, the rest applies.
    b.open("/?s=feishu-demo&nq=0&secs=2").await?;
    wait_scenario(&b, 1).await?;
    let banner = b.text("#error").await?;
    assert!(
        banner.contains("invalid nq '0': expected a whole number from 1 to 1000"),
        "{banner}"
    );
    assert_same(
        &table(&b).await?,
        &cli_rows("feishu-demo", &["--seconds", "2"])?,
        "nq=0 falls back to 100",
    );
    assert_eq!(query(&b).await?, "v=1&s=feishu-demo&secs=2");

    // Hostile values are shown as text, never run.
    let hostile = [
        "/?s=feishu-demo&secs=1&m=%3Cscript%3Ewindow.__pwned%3D1%3C%2Fscript%3E",
        "/?s=%3Cimg%20src%3Dx%20onerror%3D%22window.__pwned%3D2%22%3E",
        "/?s=feishu-startup&groups=%3Cimg%20src=x%20onerror=window.__pwned=3%3E&bl=%3Csvg%20onload%3Dwindow.__pwned%3D4%3E",
    ];
    for url in hostile {
        b.open(url).await?;
        b.wait_js("document.body.dataset.state === 'ready'", T)
            .await?;
        let banner = b.text("#error").await?;
        assert!(banner.contains("invalid"), "{url}: {banner}");
        // No payload ran, and none is waiting to (an injected element's
        // handler may fire later, e.g. an image's onerror once its load
        // fails): no element anywhere carries an event-handler attribute.
        let check = b
            .eval_js(
                "return [window.__pwned === undefined, \
                 document.querySelectorAll('#error img, #error script, #error svg').length, \
                 [...document.querySelectorAll('*')].filter((e) => \
                   [...e.attributes].some((a) => a.name.startsWith('on'))).map((e) => e.outerHTML)];",
            )
            .await?;
        assert_eq!(check, serde_json::json!([true, 0, []]), "{url}");
    }
    let shown = b.text("#error").await?;
    assert!(shown.contains("<svg onload"), "echoed as text: {shown}");
    assert!(shown.contains("invalid bl"), "{shown}");
    b.finish().await
}

#[tokio::test]
async fn switching_back_to_the_preset_restores_the_normal_view() -> Result<()> {
    let b = Browser::start().await?;
    b.open("/?s=feishu-startup").await?;
    wait_scenario(&b, 1).await?;
    // Back through the scenario picker.
    set_control(&b, "#scenario", "", "change").await?;
    b.wait_js(
        "document.body.dataset.state === 'ready' && document.querySelector('#percentiles').offsetParent !== null",
        T,
    )
    .await?;
    assert_eq!(query(&b).await?, "");
    assert!(b
        .find("#scenario-results")
        .await?
        .attr("hidden")
        .await?
        .is_some());
    assert_eq!(
        b.text("table#percentiles tr[data-policy=\"fifo\"] td[data-metric=\"mean\"]")
            .await?,
        "2661.3"
    );
    let share = ink(&b, "#gantt").await?;
    assert!(share > 0.01, "#gantt looks blank ({share})");

    // Into a scenario with the picker, then out through the preset list.
    set_control(&b, "#scenario", "feishu-demo", "change").await?;
    wait_scenario(&b, 1).await?;
    assert_eq!(query(&b).await?, "v=1&s=feishu-demo");
    set_control(&b, "#preset", "q=4&cs=0.5", "change").await?;
    b.wait_js(
        "document.body.dataset.state === 'ready' && document.querySelector('#percentiles').offsetParent !== null \
         && !document.body.classList.contains('scenario-mode')",
        T,
    )
    .await?;
    b.wait_js("location.search === '?v=1&q=4&cs=0.5'", T)
        .await?;
    assert_eq!(
        b.find("#scenario").await?.prop("value").await?.as_deref(),
        Some("")
    );
    b.finish().await
}

/// The scenario panel is built from Rust's registry: the picker lists what
/// `tailslice scenario --help` lists, each scenario shows only its own
/// knobs, and every label and sentence from Rust follows the language.
#[tokio::test]
async fn the_panel_is_built_from_the_registry_in_both_languages() -> Result<()> {
    let help = run_cli(["scenario", "--help"])?;
    let names: Vec<String> = help
        .lines()
        .find_map(|l| l.strip_prefix("Scenarios: "))
        .ok_or("--help has a Scenarios: line")?
        .split(", ")
        .map(String::from)
        .collect();
    let b = Browser::start().await?;
    b.set_window_size(1400, 2600).await?;
    b.open("/?s=feishu-startup&tl=off&lang=zh").await?;
    wait_scenario(&b, 1).await?;
    let picker = b
        .eval_js(
            "return [...document.querySelectorAll('#scenario option')].map(o => o.value).filter(Boolean);",
        )
        .await?;
    assert_eq!(picker, serde_json::json!(names));
    let shown_knobs = "return [...document.querySelectorAll('#scenario-knobs .sc-knob')]\
         .filter(f => !f.hidden && f.dataset.knob !== 'run').map(f => f.dataset.knob);";
    // feishu-startup has no queue count or simulated span of its own.
    let knobs = b.eval_js(shown_knobs).await?;
    assert_eq!(
        knobs,
        serde_json::json!(["bl", "m", "ep", "sys", "tl", "pol", "cr"])
    );
    // In Chinese: the scenario's title, the knobs' labels and placeholder,
    // the reading under the table, all from Rust.
    let zh = b
        .eval_js(
            "return [document.querySelector('#scenario').selectedOptions[0].textContent, \
             document.querySelector('label[for=sc-bl]').textContent, \
             document.querySelector('#sc-m').placeholder, \
             document.querySelector('#scenario-reading').textContent, \
             document.querySelector('#sc-table-h').textContent];",
        )
        .await?;
    for v in zh.as_array().unwrap() {
        let s = v.as_str().unwrap_or("");
        assert!(has_han(s), "zh: {s:?}");
    }
    assert!(zh[3].as_str().unwrap().contains("实测 −100 ms"), "{zh}");
    // Switching to English relabels them without a new run.
    let before = updates(&b).await?;
    b.eval_js(
        "const s = document.querySelector('#lang'); s.value = 'en'; \
         s.dispatchEvent(new Event('change')); return true;",
    )
    .await?;
    b.wait_js("document.documentElement.lang === 'en'", T)
        .await?;
    let en = b
        .eval_js(
            "return [document.querySelector('label[for=sc-bl]').textContent, \
             document.querySelector('#scenario-reading').textContent];",
        )
        .await?;
    assert_eq!(en[0], "Band limit (priority floor)");
    assert!(
        en[1]
            .as_str()
            .unwrap()
            .starts_with("Whitelist versus default"),
        "{en}"
    );
    assert_eq!(updates(&b).await?, before);
    // feishu-demo shows its own knobs too.
    set_control(&b, "#scenario", "feishu-demo", "change").await?;
    wait_scenario(&b, before + 1).await?;
    let knobs = b.eval_js(shown_knobs).await?;
    assert_eq!(
        knobs,
        serde_json::json!(["bl", "nq", "groups", "m", "ep", "sys", "secs", "tl", "pol", "cr"])
    );
    b.finish().await
}

/// The priority chart's legend words (drawn on the canvas by Rust; they
/// also describe it, in a visually hidden element).
async fn pri_legend(b: &Browser) -> Result<String> {
    Ok(
        b.eval_js("return document.querySelector('#qos-pri-legend').textContent;")
            .await?
            .as_str()
            .unwrap_or_default()
            .to_string(),
    )
}

/// Hovers `canvas` along the middle of its first lane until the tooltip
/// `tip` shows; returns its text.
async fn hover_first_lane(b: &Browser, canvas: &str, tip: &str) -> Result<String> {
    let v = b
        .eval_js(&format!(
            "const c = document.querySelector('{canvas}'); const r = c.getBoundingClientRect(); \
             const t = document.querySelector('{tip}'); \
             for (let x = r.width * 0.2; x < r.width - 10; x += 7) {{ \
               c.dispatchEvent(new PointerEvent('pointermove', {{clientX: r.left + x, clientY: r.top + 16, pointerType: 'mouse', bubbles: true}})); \
               if (!t.hidden) return t.textContent; }} return '';"
        ))
        .await?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

/// The scenario's cores and thread states are the page's one Gantt: a
/// slice under the pointer shows what ran, where and when.
#[tokio::test]
async fn scenario_gantts_answer_the_pointer() -> Result<()> {
    let b = Browser::start().await?;
    b.open("/?s=feishu-demo&secs=1").await?;
    wait_scenario(&b, 1).await?;
    let tip = hover_first_lane(&b, "#qos-gantt", "#qos-gantt-tip").await?;
    assert!(tip.contains("core 0 · P: "), "{tip}");
    assert!(tip.contains(" ms"), "{tip}");
    let tip = hover_first_lane(&b, "#qos-states", "#qos-states-tip").await?;
    assert!(
        ["running", "runnable", "preempted"]
            .iter()
            .any(|s| tip.starts_with(s))
            && tip.contains("main"),
        "{tip}"
    );
    // The legends are drawn by Rust (and describe the canvases).
    let legend = b
        .eval_js("return document.querySelector('#qos-gantt-legend').textContent;")
        .await?;
    assert!(
        legend
            .as_str()
            .unwrap_or_default()
            .starts_with("main thread"),
        "{legend}"
    );
    // In Chinese too.
    b.open("/?s=feishu-demo&secs=1&lang=zh").await?;
    wait_scenario(&b, 1).await?;
    let tip = hover_first_lane(&b, "#qos-states", "#qos-states-tip").await?;
    assert!(
        ["运行", "可运行", "被抢占"]
            .iter()
            .any(|s| tip.starts_with(s)),
        "{tip}"
    );
    b.finish().await
}
