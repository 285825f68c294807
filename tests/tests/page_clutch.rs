//! End-to-end tests of the scenarios' policy control, the mechanism tables
//! and the generated readings in headless Chromium: the page shows what
//! `tailslice scenario <name> --json` gives with the same knobs, in English
//! and Chinese; a policy picked in the control goes into the URL (`pol=`);
//! an edit that keeps the runs keeps the chosen run (`run=`).

use std::time::Duration;

use serde_json::Value;
use tailslice_e2e::{run_cli, Browser, Result};

const T: Duration = Duration::from_secs(60);

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

async fn query(b: &Browser) -> Result<String> {
    Ok(b.current_url().await?.query().unwrap_or("").to_string())
}

async fn set_control(b: &Browser, css: &str, value: &str, event: &str) -> Result<()> {
    b.eval_js(&format!(
        "const e = document.querySelector('{css}'); e.value = {}; \
         e.dispatchEvent(new Event('{event}', {{bubbles: true}})); return true;",
        serde_json::to_string(value)?
    ))
    .await?;
    Ok(())
}

fn cli_json(args: &[&str]) -> Result<Value> {
    let out = run_cli(args)?;
    Ok(serde_json::from_str(&out)?)
}

/// The mechanism table as `{row: [figure texts], reproduces}` from the page.
async fn mechanisms(b: &Browser) -> Result<Value> {
    b.eval_js(
        "const t = document.querySelector('table[data-table=mechanisms]'); \
         if (!t) return null; \
         return [...t.querySelectorAll('tbody tr[data-row]')].map(tr => [tr.dataset.row, \
           [...tr.querySelectorAll('td')].filter(td => td.dataset.metric.startsWith('figure_')).map(td => td.textContent), \
           (tr.querySelector('td[data-metric=reproduces]') || {}).textContent]);",
    )
    .await
}

/// The page's mechanism rows agree with the CLI's JSON (figures to one
/// decimal, the verdict), and so does the reading under the table.
async fn assert_mechanisms_match(b: &Browser, json: &Value, lang: &str) -> Result<()> {
    let page = mechanisms(b).await?;
    let rows = page.as_array().expect("a mechanism table");
    let m = &json["mechanisms"];
    let want = m["rows"].as_array().unwrap();
    // The measured row first, then one per mechanism.
    assert_eq!(rows.len(), want.len() + 1, "{page}");
    assert_eq!(rows[0][0], "measured");
    for (got, w) in rows[1..].iter().zip(want) {
        assert_eq!(got[0], w["mechanism"]);
        let figures: Vec<String> = w["figures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| format!("{:.1}", f.as_f64().unwrap()))
            .collect();
        let shown: Vec<String> = got[1]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        for (s, f) in shown.iter().zip(&figures) {
            let close = (s.parse::<f64>()? - f.parse::<f64>()?).abs() < 0.1 + 1e-9;
            assert!(close, "{}: page {s}, CLI {f}", w["mechanism"]);
        }
        let yes = if lang == "zh" { "是" } else { "yes" };
        assert_eq!(
            got[2].as_str() == Some(yes),
            w["reproduces"].as_bool().unwrap(),
            "{}",
            w["mechanism"]
        );
    }
    let key = if lang == "zh" {
        "reading_zh"
    } else {
        "reading"
    };
    let reading = b.text("p[data-reading=mechanisms]").await?;
    assert_eq!(reading, m[key].as_str().unwrap());
    Ok(())
}

fn has_han(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[tokio::test]
async fn the_policy_control_runs_any_class_and_the_mechanism_table_matches_the_cli() -> Result<()> {
    let b = Browser::start().await?;
    b.set_window_size(1400, 2600).await?;
    b.open("/?s=feishu-demo&secs=2").await?;
    wait_scenario(&b, 1).await?;
    // The policy control lists every policy, xnu chosen.
    let options = b
        .eval_js("return [...document.querySelectorAll('#sc-pol option')].map(o => o.value);")
        .await?;
    let help = run_cli(["simulate", "--help"])?;
    for p in options.as_array().unwrap() {
        assert!(help.contains(p.as_str().unwrap()), "{p} is a policy");
    }
    assert_eq!(
        options.as_array().unwrap().len(),
        tailslice::policy::PolicyKind::ALL.len()
    );
    assert_eq!(
        b.find("#sc-pol").await?.prop("value").await?.as_deref(),
        Some("xnu")
    );
    let json = cli_json(&["scenario", "feishu-demo", "--json", "--seconds", "2"])?;
    assert_mechanisms_match(&b, &json, "en").await?;

    // Round-robin through the control: in the URL, the table is the CLI's.
    let before = updates(&b).await?;
    set_control(&b, "#sc-pol", "rr", "change").await?;
    wait_scenario(&b, before + 1).await?;
    assert_eq!(query(&b).await?, "v=1&s=feishu-demo&secs=2&pol=rr");
    let json = cli_json(&[
        "scenario",
        "feishu-demo",
        "--json",
        "--seconds",
        "2",
        "--policy",
        "rr",
    ])?;
    let waiting = b
        .text("table#scenario-table tr[data-row=userInitiated] td[data-metric=main_waiting_pct]")
        .await?;
    let want = json["groups"][1]["main_waiting_pct"].as_f64().unwrap();
    assert!(
        (waiting.parse::<f64>()? - want).abs() < 0.1 + 1e-9,
        "{waiting} vs {want}"
    );
    let notes = b.text("#scenario-notes").await?;
    assert!(notes.contains("rr ignores QoS"), "{notes}");

    // Clutch, and the same in Chinese from a link.
    b.open("/?s=feishu-demo&secs=2&pol=clutch&lang=zh").await?;
    wait_scenario(&b, 1).await?;
    let json = cli_json(&[
        "scenario",
        "feishu-demo",
        "--json",
        "--seconds",
        "2",
        "--policy",
        "clutch",
    ])?;
    assert_mechanisms_match(&b, &json, "zh").await?;
    let heading = b.text("#sc-table-mechanisms-h").await?;
    assert!(has_han(&heading), "{heading}");
    let main_in = b
        .text("table#scenario-table tr[data-row=userInitiated] td[data-metric=main_waiting_pct]")
        .await?;
    assert!(
        main_in.parse::<f64>()? < 5.0,
        "under Clutch the main thread keeps its core: {main_in}"
    );
    // Switching the language re-renders the tables without a new run.
    let before = updates(&b).await?;
    b.eval_js(
        "const s = document.querySelector('#lang'); s.value = 'en'; \
         s.dispatchEvent(new Event('change')); return true;",
    )
    .await?;
    b.wait_js("document.documentElement.lang === 'en'", T)
        .await?;
    assert_mechanisms_match(&b, &json, "en").await?;
    assert_eq!(updates(&b).await?, before);

    // m1-compress: the M1 two-background table; two mechanisms reproduce
    // 40 s / 77 s.
    b.open("/?s=m1-compress&tl=off").await?;
    wait_scenario(&b, 1).await?;
    let json = cli_json(&["scenario", "m1-compress", "--json"])?;
    assert_mechanisms_match(&b, &json, "en").await?;
    let yes = b
        .eval_js(
            "return [...document.querySelectorAll('table[data-table=mechanisms] tr[data-row]')]\
             .filter(tr => (tr.querySelector('td[data-metric=reproduces]') || {}).textContent === 'yes')\
             .map(tr => tr.dataset.row);",
        )
        .await?;
    assert_eq!(yes, serde_json::json!(["clutch-boost-gap", "gcd-cap-held"]));
    // The GCD cap control is m1-compress's own.
    assert_eq!(
        b.eval_js("return !document.querySelector('.sc-knob[data-knob=gcd]').hidden;")
            .await?,
        true
    );
    b.finish().await
}

#[tokio::test]
async fn readings_describe_their_own_run_and_edits_keep_the_chosen_run() -> Result<()> {
    let b = Browser::start().await?;
    b.set_window_size(1400, 2600).await?;
    // An M1 without the band limit: no A10, no 2 cores, no floor 29.
    b.open("/?s=feishu-demo&bl=off&m=m1&secs=2").await?;
    wait_scenario(&b, 1).await?;
    let notes = b.text("#scenario-notes").await?;
    assert!(
        notes.contains("8 cores") && notes.contains("band limit off"),
        "{notes}"
    );
    assert!(
        !notes.contains("A10") && !notes.contains("2 cores"),
        "{notes}"
    );
    let caption = b.text("#pri-caption").await?;
    assert!(
        caption.contains("band limit off") && !caption.contains("29"),
        "{caption}"
    );
    let json = cli_json(&[
        "scenario",
        "feishu-demo",
        "--json",
        "--band-limit",
        "off",
        "--machine",
        "m1",
        "--seconds",
        "2",
    ])?;
    let cli_notes: Vec<&str> = json["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(notes, cli_notes.join("\n"), "the CLI's notes");

    // Only low groups: nothing about high ones.
    b.open("/?s=feishu-demo&groups=utility,9&sys=off&secs=2")
        .await?;
    wait_scenario(&b, 1).await?;
    let all = b.text("#scenario-results").await?;
    assert!(
        !all.contains("userInitiated") && !all.contains("high groups"),
        "{all}"
    );

    // The chosen run survives an edit that keeps the runs (nq), not one
    // that changes them (groups).
    b.open("/?s=feishu-demo&secs=2").await?;
    wait_scenario(&b, 1).await?;
    let before = updates(&b).await?;
    set_control(&b, "#sc-run", "1", "change").await?;
    wait_scenario(&b, before + 1).await?;
    assert!(query(&b).await?.ends_with("&run=1"));
    let before = updates(&b).await?;
    set_control(&b, "#sc-nq", "20", "input").await?;
    wait_scenario(&b, before + 1).await?;
    b.wait_js(
        "document.querySelector('#scenario-results').dataset.query.includes('nq=20')",
        T,
    )
    .await?;
    assert_eq!(query(&b).await?, "v=1&s=feishu-demo&nq=20&secs=2&run=1");
    assert_eq!(
        b.find("#sc-run").await?.prop("value").await?.as_deref(),
        Some("1")
    );
    let before = updates(&b).await?;
    set_control(&b, "#sc-groups", "utility,background", "input").await?;
    wait_scenario(&b, before + 1).await?;
    b.wait_js(
        "document.querySelector('#scenario-results').dataset.query.includes('groups=')",
        T,
    )
    .await?;
    assert_eq!(
        query(&b).await?,
        "v=1&s=feishu-demo&nq=20&groups=utility,background&secs=2"
    );
    // The run picker speaks the page's language.
    b.open("/?s=feishu-demo&secs=2&lang=zh").await?;
    wait_scenario(&b, 1).await?;
    let label = b
        .eval_js("return document.querySelector('#sc-run').selectedOptions[0].textContent;")
        .await?;
    assert!(has_han(label.as_str().unwrap()), "{label}");
    b.finish().await
}

/// The study under clutch from a shared link, on an M1 with apps named in
/// the mix: the CLI's numbers, the link written back as it came.
#[tokio::test]
async fn the_study_under_clutch_with_apps_matches_the_cli() -> Result<()> {
    use tailslice_e2e::page::{cli_table, open_ready, table};
    const MIX: &str =
        "85:1-8@userInitiated~mail:ui,12:10-40@utility~backup,3:80-200@background~backup";
    let b = Browser::start().await?;
    open_ready(
        &b,
        &format!("/?p=fifo,xnu,clutch&machine=m1&n=300&mix={MIX}"),
    )
    .await?;
    let want = cli_table(&[
        "--policies",
        "fifo,xnu,clutch",
        "--machine",
        "m1",
        "--tasks",
        "300",
        "--mix",
        MIX,
    ])?;
    assert_eq!(table(&b).await?, want);
    assert!(b.find("#error").await?.attr("hidden").await?.is_some());
    let q = query(&b).await?;
    assert!(q.contains("clutch") && q.contains("~mail:ui"), "{q}");
    b.finish().await
}
