//! The scenario bindings in headless Chromium (wasm-bindgen-test):
//! `cargo test --target wasm32-unknown-unknown -p tailslice --test wasm_scenario`.
#![cfg(target_arch = "wasm32")]

use js_sys::Reflect;
use serde_json::Value;
use tailslice::web::{self, ScenarioView};
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
    assert_eq!(summary["run_labels"][0], "userInteractive queues");
    let tl = run.timeline(0);
    let meta = json(&Reflect::get(&tl, &"meta".into()).unwrap());
    assert_eq!(meta["floor"], 29);
    assert_eq!(meta["lanes"][0], "main");
    let view = ScenarioView::new(tl).unwrap();
    assert!(view.has_timeline() && view.has_pri());
    assert!((view.horizon() - 1000.0).abs() < 1.0);
    assert!(web::run_scenario("s=feishu-demo&nq=0", wasm_bindgen::JsValue::UNDEFINED).is_err());
}
