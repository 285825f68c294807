//! The scenario bindings in headless Chromium (wasm-bindgen-test):
//! `cargo test --target wasm32-unknown-unknown -p tailslice --test wasm_scenario`.
#![cfg(target_arch = "wasm32")]

use js_sys::Reflect;
use serde_json::Value;
use tailslice::param_spec::Params;
use tailslice::web::{self, Gantt, ScenarioView};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn json(v: &JsValue) -> Value {
    let s = js_sys::JSON::stringify(v).unwrap().as_string().unwrap();
    serde_json::from_str(&s).unwrap()
}

#[wasm_bindgen_test]
fn canonical_query_omits_defaults_and_keeps_order() {
    let q = web::parse_scenario("?tl=on&nq=50&s=feishu-demo&bl=off&m=2p%2B4e&run=2&v=1");
    assert!(q.errors.is_empty());
    assert_eq!(q.canonical(), "s=feishu-demo&bl=off&nq=50&m=2p%2B4e&run=2");
    assert_eq!(q.run_key(), "s=feishu-demo&bl=off&nq=50&m=2p%2B4e");
    // Knobs without a scenario: nothing to put in the URL.
    assert_eq!(web::parse_scenario("nq=5").canonical(), "");
    // m1-compress shows the M1 under contention by default.
    assert_eq!(web::parse_scenario("s=m1-compress").run, 10);
    assert_eq!(
        web::parse_scenario("s=m1-compress&run=10").canonical(),
        "s=m1-compress"
    );
}

#[wasm_bindgen_test]
fn bad_values_name_key_value_and_allowed() {
    let q = web::parse_scenario("s=nope&nq=0&m=<script>");
    let msgs: Vec<&str> = q.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(q.name, None);
    assert!(msgs[0].starts_with("invalid s 'nope': expected feishu-demo"));
    assert!(msgs[1].starts_with("invalid nq '0': expected a whole number from 1"));
    assert!(msgs[2].starts_with("invalid m '<script>': expected a10, m1"));
    let banner: Vec<&str> = q.errors.iter().map(|e| e.banner.en.as_str()).collect();
    assert!(banner[0].ends_with("→ no scenario: the experiment page is shown."));
    assert!(banner[1].ends_with("→ nq=100 is used."));
    assert!(banner[2].ends_with("→ the scenario's default is used."));
    assert!(q.errors[1].banner.zh.ends_with("→ 改用 nq=100。"));
    assert_eq!(q.knobs.queues, 100);
}

#[wasm_bindgen_test]
fn run_summary_and_timeline_round_trip() {
    let run = web::run_scenario(
        "s=feishu-demo&secs=1&nq=10",
        wasm_bindgen::JsValue::UNDEFINED,
    )
    .unwrap();
    let summary = json(&run.summary());
    assert_eq!(summary["groups"].as_array().unwrap().len(), 4);
    assert!(summary["runs"].as_array().unwrap().is_empty());
    assert_eq!(summary["run_labels"][0]["en"], "userInteractive queues");
    assert_eq!(summary["run_labels"][0]["zh"], "userInteractive 队列");
    let tl = run.timeline(0);
    let pri = json(&Reflect::get(&tl, &"pri".into()).unwrap());
    assert_eq!(pri["floor"], 29);
    let states = Reflect::get(&tl, &"states".into()).unwrap();
    let lanes = json(&Reflect::get(&states, &"meta".into()).unwrap());
    assert_eq!(lanes["blocks"][0]["lanes"][0]["label"]["en"], "main");
    assert_eq!(lanes["blocks"][0]["lanes"][0]["label"]["zh"], "主线程");
    // The cores and the states are the one Gantt: hover a core's first slice.
    let mut cores = Gantt::new(Reflect::get(&tl, &"gantt".into()).unwrap()).unwrap();
    assert!(cores.load_segments());
    assert_eq!(cores.legend_text().lines().next(), Some("main thread"));
    let x = (0..800)
        .map(|x| x as f64)
        .find_map(|x| cores.hit(x, 12.0, 800.0));
    let tip = x.expect("a slice on core 0");
    assert!(tip.contains("core 0 · P: "), "{tip}");
    let view = ScenarioView::new(tl).unwrap();
    assert!(view.has_pri());
    assert!(view.pri_legend_text().contains("floor 29 (band limit)"));
    assert!((view.horizon() - 1000.0).abs() < 1.0);
    assert!(web::run_scenario("s=feishu-demo&nq=0", wasm_bindgen::JsValue::UNDEFINED).is_err());
}

#[wasm_bindgen_test]
fn the_catalog_lists_every_registered_scenario_and_knob() {
    use tailslice::scenario::{Knob, ScenarioKind};
    let c = json(&web::scenario_catalog());
    assert_eq!(c["key"], "s");
    let scenarios = c["scenarios"].as_array().unwrap();
    assert_eq!(scenarios.len(), ScenarioKind::ALL.len());
    for (entry, s) in scenarios.iter().zip(ScenarioKind::ALL) {
        assert_eq!(entry["name"], s.name());
        assert_eq!(entry["title"]["zh"], s.title().zh);
        let keys: Vec<&str> = s.knobs().iter().map(|k| k.url_key()).collect();
        assert_eq!(entry["knobs"], serde_json::json!(keys));
    }
    let knobs = c["knobs"].as_array().unwrap();
    assert_eq!(knobs.len(), Knob::ALL.len());
    let by_key = |k: &str| knobs.iter().find(|e| e["key"] == k).unwrap().clone();
    // The page's defaults: timelines on, machine left to the scenario.
    assert_eq!(by_key("tl")["default"], "on");
    assert_eq!(by_key("m")["default"], "");
    assert_eq!(by_key("nq")["range"]["kind"], "number");
    assert_eq!(by_key("nq")["range"]["max"], 1000.0);
    assert_eq!(by_key("bl")["range"]["kind"], "switch");
    assert!(by_key("m")["range"]["examples"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!("m1")));
    assert_eq!(c["qos"].as_array().unwrap().len(), 6);
}

#[wasm_bindgen_test]
fn the_summary_carries_the_page_sentences_in_both_languages() {
    let run = web::run_scenario("s=m1-compress&tl=off", JsValue::UNDEFINED).unwrap();
    let s = json(&run.summary());
    let rows: usize = s["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["jobs"].as_array().unwrap().len())
        .sum();
    // The main table: one row per job, the study's figure in words in the
    // `measured` column, in both languages.
    let main = &s["tables"][0];
    assert_eq!(main["id"], "main");
    let column = main["columns"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["key"] == "measured")
        .unwrap();
    let table_rows = main["rows"].as_array().unwrap();
    assert_eq!(table_rows.len(), rows);
    let first = &table_rows[0]["cells"][column];
    assert_eq!(first["en"], "5.6–6.6 s at any QoS");
    assert_eq!(first["zh"], "任意 QoS 下 5.6–6.6 秒");
    let run = web::run_scenario("s=feishu-startup&tl=off", JsValue::UNDEFINED).unwrap();
    let s = json(&run.summary());
    let reading = s["page"]["reading"]["zh"].as_str().unwrap();
    assert!(reading.contains("实测 −100 ms"), "{reading}");
    assert!(s["page"]["reading"]["en"]
        .as_str()
        .unwrap()
        .starts_with("Whitelist versus default"));
}

#[wasm_bindgen_test]
fn a_scenario_runs_embed_figure_is_the_charts_svg_of_its_part() {
    let run = web::run_scenario("s=m1-compress&tl=off", JsValue::UNDEFINED).unwrap();
    let table = run
        .embed_figure(0, "view=table&theme=dark", false, "en")
        .unwrap();
    assert!(
        table.starts_with("<svg ") && table.ends_with("</svg>\n"),
        "{table}"
    );
    assert!(table.contains(">Job times (s)<"), "{table}");
    assert!(table.contains("fill=\"#16181b\""), "dark: {table}");
    // A scenario has no CDF: cdf shows all of it, like its embed.
    assert_eq!(
        run.embed_figure(0, "view=cdf", true, "zh").unwrap(),
        run.embed_figure(0, "view=all", true, "zh").unwrap()
    );
    // Without a timeline there is no Gantt chart to draw; a bad part is refused.
    assert!(run.embed_figure(0, "view=gantt", false, "en").is_err());
    assert!(run.embed_figure(0, "view=pie", false, "en").is_err());
    let run = web::run_scenario("s=feishu-demo&secs=1", JsValue::UNDEFINED).unwrap();
    let gantt = run.embed_figure(0, "view=gantt", false, "en").unwrap();
    assert!(gantt.contains(">Cores, coloured by QoS<"), "{gantt}");
    assert!(!gantt.contains(">Thread states<"), "{gantt}");
}
