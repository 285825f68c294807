//! The scenario registry as the page reads it, exported once: every
//! scenario (name, titles, the knobs it shows) and every knob (URL key, CLI
//! flag, the page's default, range, labels and help in English and
//! Chinese), plus the QoS names the legends use. `www/scenario.js` builds
//! its picker and knob panel from this and keeps no list of its own, so a
//! new scenario or knob touches no JavaScript.
//!
//! A plain serialisable struct, so that a page-wide catalog can embed it.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::result::to_js;
use crate::param_spec::Params;
use crate::params::scenario_query::{page_defaults, RUN_KEY, SCENARIO_KEY};
use crate::scenario::knob::KnobSpec;
use crate::scenario::{Knob, ScenarioKind, Text};
use crate::sim::Qos;

/// Everything the page's scenario panel is built from.
#[derive(Clone, Debug, Serialize)]
pub struct ScenarioCatalog {
    /// URL key of the scenario name (`s`).
    pub key: &'static str,
    /// URL key of the run the charts show (`run`).
    pub run_key: &'static str,
    /// In the order of the picker.
    pub scenarios: Vec<ScenarioEntry>,
    /// Every knob the URL accepts, in the order of the panel and the URL.
    pub knobs: Vec<KnobEntry>,
    /// QoS classes by number, for legends.
    pub qos: Vec<QosEntry>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ScenarioEntry {
    pub name: &'static str,
    pub title: Text,
    pub table_title: Text,
    /// URL keys of the knobs it reads (the panel shows only these).
    pub knobs: Vec<&'static str>,
}

#[derive(Clone, Debug, Serialize)]
pub struct KnobEntry {
    pub key: &'static str,
    pub flag: &'static str,
    /// The page's default as URL text; `""`: the scenario's default.
    pub default: String,
    #[serde(flatten)]
    pub spec: KnobSpec,
}

#[derive(Clone, Debug, Serialize)]
pub struct QosEntry {
    pub number: u8,
    pub name: &'static str,
}

impl ScenarioCatalog {
    pub fn build() -> ScenarioCatalog {
        let defaults = page_defaults();
        ScenarioCatalog {
            key: SCENARIO_KEY,
            run_key: RUN_KEY,
            scenarios: ScenarioKind::ALL
                .iter()
                .map(|s| ScenarioEntry {
                    name: s.name(),
                    title: s.title(),
                    table_title: s.table_title(),
                    knobs: s.knobs().iter().map(|k| k.url_key()).collect(),
                })
                .collect(),
            knobs: Knob::ALL
                .into_iter()
                .map(|k| KnobEntry {
                    key: k.url_key(),
                    flag: k.flag(),
                    default: defaults.text(k).unwrap_or_default(),
                    spec: k.control(),
                })
                .collect(),
            qos: Qos::ALL
                .into_iter()
                .map(|q| QosEntry {
                    number: q.number(),
                    name: q.name(),
                })
                .collect(),
        }
    }
}

/// The scenario catalog (see [`ScenarioCatalog`]) as a plain JS object:
/// `{key, run_key, scenarios: [{name, title: {en, zh}, table_title,
/// knobs: [key]}], knobs: [{key, flag, default, label, help, range: {kind:
/// "switch"|"number"|"text", ...}}], qos: [{number, name}]}`.
#[wasm_bindgen(js_name = scenarioCatalog)]
pub fn scenario_catalog() -> JsValue {
    to_js(&ScenarioCatalog::build())
}
