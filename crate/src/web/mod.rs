//! Browser bindings (compiled on wasm32 only).
//!
//! The page is split the way the Game of Life tutorial splits it: state and
//! computation in Rust, the JavaScript glue (`www/main.js` and its one-job
//! modules, `www/worker.js`) only moves messages and handles events.
//!
//! - For **building the page**: [`catalog`] (every parameter, policy,
//!   figure and threshold, from the core's tables).
//! - In the **worker**: [`Runner`] (or the one-shot [`run`]) simulates an
//!   experiment given as a query string and builds a transferable result.
//! - On the **main thread**: [`parse_query`] turns untrusted URL text into a
//!   validated experiment (the same rules as the CLI's flags, via
//!   [`crate::experiment::Experiment::from_query`]); [`Gantt`] draws any
//!   lane chart (the study's schedules, a scenario's cores and thread
//!   states) and answers hover hit tests; [`View`] draws a result's latency
//!   CDF and duration histogram; every chart is [`crate::chart`]'s, drawn
//!   on a canvas ([`canvas`]).
//! - The **SVG figure** of an experiment ([`svg_figure`]) is the worker's.

mod canvas;
mod catalog;
mod chart_lang;
// The Embed dialog's exports live in the worker's module only: the page
// loads that on the dialog's first use (www/embed.js), not on page load.
#[cfg(not(feature = "page"))]
mod embed;
#[cfg(not(feature = "page"))]
mod figure;
mod gantt;
// Under `page` (the main thread's wasm) the worker-only exports of these
// modules are left out; the helpers only they use are then unused.
#[cfg_attr(feature = "page", allow(dead_code, unused_imports))]
mod io;
#[cfg(not(feature = "page"))]
mod measured;
mod panic;
#[cfg_attr(feature = "page", allow(dead_code, unused_imports))]
mod part;
use crate::params::query;
#[cfg_attr(feature = "page", allow(dead_code, unused_imports))]
mod realrun;
#[cfg_attr(feature = "page", allow(dead_code, unused_imports))]
mod responsiveness;
mod result;
mod runner;
#[cfg_attr(feature = "page", allow(dead_code, unused_imports))]
mod scenario;
mod scenario_catalog;
// A scenario's priority chart: drawn by the worker's module, which a
// scenario fetches for its run anyway (www/scenario.js).
#[cfg(not(feature = "page"))]
mod scenario_view;
mod shown;
// The sweeps run in the worker; their charts are drawn by the worker's
// module, which the page loads with the first sweep (www/sweep.js).
#[cfg(not(feature = "page"))]
mod sweep;
#[cfg(not(feature = "page"))]
mod task_link;
#[cfg_attr(feature = "page", allow(dead_code, unused_imports))]
mod trace_run;
mod view;

use wasm_bindgen::prelude::*;

use crate::catalog::BROWSER_LIMITS;
use crate::experiment::Limits;

pub use catalog::{catalog, file_too_large};
pub use chart_lang::set_chart_lang;
#[cfg(not(feature = "page"))]
pub use embed::{embed_answer_figure, embed_figure, embed_snippet};
#[cfg(not(feature = "page"))]
pub use figure::svg_figure;
pub use gantt::Gantt;
#[cfg(not(feature = "page"))]
pub use io::{check_tasks, export_file, open_experiment, TaskList};
pub use panic::{last_panic, panic_for_test};
pub use query::{decode_pairs, percent_encode, BadParam, PageQuery};
pub use realrun::real_run_text;
#[cfg(not(feature = "page"))]
pub use realrun::RealRunPlan;
#[cfg(not(feature = "page"))]
pub use responsiveness::{measured_yield_cost, RespView};
pub use runner::Runner;
pub use scenario::{parse as parse_scenario, ScenarioQuery};
#[cfg(not(feature = "page"))]
pub use scenario::{run_scenario, ScenarioRun};
pub use scenario_catalog::{scenario_catalog, ScenarioCatalog};
#[cfg(not(feature = "page"))]
pub use scenario_view::ScenarioView;
#[cfg(not(feature = "page"))]
pub use sweep::{QuantumSweep, SeedSweep};
#[cfg(not(feature = "page"))]
pub use task_link::{open_tasks_link, share_tasks_link};
pub use view::View;

/// The page's thresholds are [`crate::catalog::BrowserLimits`].
/// Above this many slices the worker keeps no segments: the Gantt chart is
/// replaced by a note, memory stays O(tasks).
pub const GANTT_MAX_SLICES: f64 = BROWSER_LIMITS.gantt_max_slices;
/// Runs above this many slices are "large": the worker reports progress and
/// the next edit cancels them.
pub const LARGE_SLICES: f64 = BROWSER_LIMITS.large_slices;

/// Parses a page query string (with or without `?`). Returns
/// `{query, experiment, embed, view, controls, theme, values, mix,
/// policies, errors, estimated_slices, inline, ...}` (`inline`: whether
/// this module can run it; see `PageQuery`)
/// where `query` is the canonical form to put in the address bar and
/// `errors` lists every rejected value (`{field, value, allowed, message}`).
#[wasm_bindgen(js_name = parseQuery)]
pub fn parse_query(query: &str) -> JsValue {
    let (_, mut page) = query::parse(query, &Limits::WEB);
    // A link's stray key is named, not silently dropped (the workers'
    // own parses of canonical queries never meet one).
    page.errors.extend(query::unknown_keys(query));
    result::to_js(&page)
}

/// The page's language for a browser language tag (`navigator.language`):
/// `zh` for any Chinese, else `en` ([`crate::text::Lang::from_tag`]).
#[wasm_bindgen(js_name = langOf)]
pub fn lang_of(tag: &str) -> String {
    crate::text::Lang::from_tag(tag).code().to_string()
}

/// The `mix=` text of the page's mix rows (`[{weight, dist}|{weight, lo,
/// hi}]`, as typed): see [`query::mix_text`].
#[wasm_bindgen(js_name = mixText)]
pub fn mix_text(rows: JsValue) -> Result<String, JsError> {
    let rows: Vec<query::TypedMixRow> = serde_wasm_bindgen::from_value(rows)
        .map_err(|e| JsError::new(&format!("mix rows: {e}")))?;
    Ok(query::mix_text(&rows))
}

/// Colour of the `i`-th compared policy (CSS colour text), for the
/// table's swatches.
#[wasm_bindgen(js_name = policyColor)]
pub fn policy_color(i: usize) -> String {
    crate::chart::theme::policy(i).css()
}

/// Colour of a QoS class (`qos_class_self` number; 0 is other system
/// work), for the scenario tables' swatches.
#[wasm_bindgen(js_name = qosColor)]
pub fn qos_color(qos: u8) -> String {
    crate::chart::theme::qos(qos).css()
}

/// Runs the experiment of a query string and returns the result object.
#[wasm_bindgen]
pub fn run(query: &str) -> Result<JsValue, JsError> {
    Runner::new(query)?.finish()
}

/// The `--json` report of a query string, as the CLI prints it (for tests
/// comparing the page with `tailslice simulate --json`; the worker's module
/// has it, the page's does not need the JSON writer).
#[cfg(not(feature = "page"))]
#[wasm_bindgen(js_name = reportJson)]
pub fn report_json(query: &str) -> Result<String, JsError> {
    let (exp, page) = query::parse(query, &Limits::WEB);
    if let Some(e) = page.errors.first() {
        return Err(JsError::new(&e.message));
    }
    let outcome = exp
        .run(&Limits::WEB, false)
        .map_err(|e| JsError::new(&e.to_string()))?;
    serde_json::to_string(&outcome.report()).map_err(|e| JsError::new(&e.to_string()))
}
