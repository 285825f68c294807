//! Browser bindings (compiled on wasm32 only).
//!
//! The page is split the way the Game of Life tutorial splits it: state and
//! computation in Rust, the JavaScript glue (`www/app.js`, `www/worker.js`)
//! only moves messages and handles events.
//!
//! - In the **worker**: [`Runner`] (or the one-shot [`run`]) simulates an
//!   experiment given as a query string and builds a transferable result.
//! - On the **main thread**: [`parse_query`] turns untrusted URL text into a
//!   validated experiment (the same rules as the CLI's flags, via
//!   [`Experiment::from_query`]); [`View`] keeps a result and draws the Gantt
//!   chart, the latency CDF and the duration histogram, and answers hover
//!   hit-tests.

// Under `page` (the main thread's wasm) the worker-only exports of these
// modules are left out; the helpers only they use are then unused.
#[cfg_attr(feature = "page", allow(dead_code, unused_imports))]
mod io;
mod labels;
mod palette;
mod panic;
mod plots;
mod query;
mod realrun;
mod result;
#[cfg_attr(feature = "page", allow(dead_code, unused_imports))]
mod scenario;
mod scenario_view;
#[cfg_attr(feature = "page", allow(dead_code, unused_imports))]
mod sweep;
#[cfg_attr(feature = "page", allow(dead_code, unused_imports))]
mod trace_run;
mod view;

use wasm_bindgen::prelude::*;

use crate::experiment::{Experiment, Limits, PolicyRun};
use crate::metrics;
use crate::workload::Workload;

pub use io::open_experiment;
#[cfg(not(feature = "page"))]
pub use io::{check_tasks, export_file};
pub use labels::set_labels;
pub use panic::{last_panic, panic_for_test};
pub use query::{decode_pairs, percent_encode, BadParam, PageQuery};
pub use realrun::{real_run_text, RealRunPlan};
pub use scenario::{parse as parse_scenario, ScenarioQuery};
#[cfg(not(feature = "page"))]
pub use scenario::{run_scenario, ScenarioRun};
pub use scenario_view::ScenarioView;
#[cfg(not(feature = "page"))]
pub use sweep::{QuantumSweep, SeedSweep};
pub use view::View;

/// Above this many estimated slices the worker does not keep segments: the
/// Gantt chart is replaced by a note, memory stays O(tasks).
pub const GANTT_MAX_SLICES: f64 = 3_000_000.0;

/// At most this many slices (over all policies) run on the page's main
/// thread: the study is about 1 000, well under a millisecond, and a round
/// trip to the worker costs more. Larger runs go to the worker.
pub const INLINE_MAX_SLICES: f64 = 20_000.0;
/// Runs above this many slices are "large": the worker reports progress and
/// the next edit cancels them (terminating the worker) instead of waiting.
pub const LARGE_SLICES: f64 = 300_000.0;

#[derive(serde::Serialize)]
struct BrowserLimits {
    inline_max_slices: f64,
    large_slices: f64,
    gantt_max_slices: f64,
    max_slices: u64,
    max_tasks: u64,
}

/// The page's thresholds, named once here: `{inline_max_slices,
/// large_slices, gantt_max_slices, max_slices, max_tasks}`.
#[wasm_bindgen(js_name = browserLimits)]
pub fn browser_limits() -> JsValue {
    result::to_js(&BrowserLimits {
        inline_max_slices: INLINE_MAX_SLICES,
        large_slices: LARGE_SLICES,
        gantt_max_slices: GANTT_MAX_SLICES,
        max_slices: Limits::WEB.max_slices,
        max_tasks: Limits::WEB.max_tasks,
    })
}

/// Parses a page query string (with or without `?`). Returns
/// `{query, experiment, embed, values, mix, policies, errors, estimated_slices}`
/// where `query` is the canonical form to put in the address bar and
/// `errors` lists every rejected value (`{field, value, allowed, message}`).
#[wasm_bindgen(js_name = parseQuery)]
pub fn parse_query(query: &str) -> JsValue {
    let (_, page) = query::parse(query, &Limits::WEB);
    result::to_js(&page)
}

/// The default experiment's values, as `parseQuery("")` returns them.
#[wasm_bindgen(js_name = defaultQuery)]
pub fn default_query() -> JsValue {
    parse_query("")
}

/// Colour of the `i`-th task class (CSS colour text), for legends.
#[wasm_bindgen(js_name = classColor)]
pub fn class_color(i: usize) -> String {
    palette::class(i).css()
}

/// Colour of the `i`-th compared policy.
#[wasm_bindgen(js_name = policyColor)]
pub fn policy_color(i: usize) -> String {
    palette::policy(i).css()
}

/// Runs an experiment one policy at a time, so the worker can report
/// progress between policies.
///
/// The first step draws the workload and sizes the run from it (exactly,
/// per task: [`Experiment::check_drawn_size`]), not from the mix's mean: a
/// heavy-tailed mix can draw one task of an hour. After that step
/// [`Runner::slices`] is the true size, which the page uses to move a run it
/// started on the main thread to the worker, and to treat it as large
/// (progress, cancelled by the next edit).
#[wasm_bindgen]
pub struct Runner {
    exp: Experiment,
    workload: Option<Workload>,
    /// Slices of the drawn workload over all policies (0 until drawn).
    slices: f64,
    runs: Vec<PolicyRun>,
    record: bool,
    /// A trace's recorded task starts: the result gets the "as recorded" row.
    recorded: Option<Vec<f64>>,
}

#[wasm_bindgen]
impl Runner {
    /// Fails (with every message joined) if the query has a bad value: the
    /// page only sends canonical queries, so that is a bug, not user input.
    #[wasm_bindgen(constructor)]
    pub fn new(query: &str) -> Result<Runner, JsError> {
        let (exp, page) = query::parse(query, &Limits::WEB);
        if !page.errors.is_empty() {
            let msgs: Vec<String> = page.errors.into_iter().map(|e| e.message).collect();
            return Err(JsError::new(&msgs.join("; ")));
        }
        Ok(Runner::for_experiment(exp))
    }

    /// Steps in all: drawing the workload, then one per policy.
    pub fn total(&self) -> usize {
        1 + self.exp.policies.len()
    }

    /// Steps done so far.
    pub fn done(&self) -> usize {
        usize::from(self.workload.is_some()) + self.runs.len()
    }

    /// Slices the run will take over all policies, from the drawn workload
    /// (the mix's estimate before the first step).
    pub fn slices(&self) -> f64 {
        if self.workload.is_some() {
            self.slices
        } else {
            self.exp.estimated_slices()
        }
    }

    /// Whether the run is large (see [`LARGE_SLICES`]), by [`Runner::slices`].
    pub fn large(&self) -> bool {
        self.slices() > LARGE_SLICES
    }

    /// What the next step does, for the progress text.
    #[wasm_bindgen(js_name = nextLabel)]
    pub fn next_label(&self) -> String {
        match (&self.workload, self.exp.policies.get(self.runs.len())) {
            (None, _) => format!("drawing {} tasks", self.exp.tasks),
            (Some(_), Some(p)) => format!("simulating {}", p.name()),
            (Some(_), None) => "done".to_string(),
        }
    }

    /// Does the next step; returns `true` while steps remain. Drawing a
    /// workload too large for the browser fails with the size message.
    pub fn step(&mut self) -> Result<bool, JsError> {
        let Some(workload) = &self.workload else {
            let w = Workload::generate(&self.exp.workload_spec());
            self.size_to(w)?;
            return Ok(true);
        };
        let Some(&kind) = self.exp.policies.get(self.runs.len()) else {
            return Ok(false);
        };
        let one = Experiment {
            policies: vec![kind],
            ..self.exp.clone()
        };
        let mut out = one
            .run_on(workload.clone(), &Limits::WEB, self.record)
            .map_err(|e| JsError::new(&e.to_string()))?;
        self.runs.append(&mut out.runs);
        Ok(self.runs.len() < self.exp.policies.len())
    }

    /// The result object (call after `step` returned `false`).
    pub fn finish(&mut self) -> Result<JsValue, JsError> {
        while self.step()? {}
        let outcome = crate::experiment::Outcome {
            workload: self.workload.take().unwrap_or_default(),
            runs: std::mem::take(&mut self.runs),
        };
        let obj = result::build(&self.exp, &outcome, self.record);
        io::add_explanation(&obj, &self.exp, &outcome);
        if let Some(starts) = &self.recorded {
            trace_run::add_recorded(&obj, &self.exp, &outcome, starts);
        }
        Ok(obj)
    }
}

impl Runner {
    pub(crate) fn for_experiment(exp: Experiment) -> Runner {
        Runner {
            exp,
            workload: None,
            slices: 0.0,
            runs: Vec::new(),
            record: false,
            recorded: None,
        }
    }

    /// A runner whose workload is given (an imported list): sized at once.
    #[cfg_attr(feature = "page", allow(dead_code))]
    pub(crate) fn with_workload(exp: Experiment, w: Workload) -> Result<Runner, JsError> {
        let mut r = Runner::for_experiment(exp);
        r.size_to(w)?;
        Ok(r)
    }

    /// Sizes the run from its workload: refuses it past the browser's
    /// limit, keeps segments (the Gantt) only while they stay small.
    fn size_to(&mut self, w: Workload) -> Result<(), JsError> {
        let slices = self
            .exp
            .check_drawn_size(&w, &Limits::WEB)
            .map_err(|e| JsError::new(&e.to_string()))?;
        self.slices = slices;
        self.record = slices <= GANTT_MAX_SLICES;
        self.workload = Some(w);
        Ok(())
    }
}

/// Runs the experiment of a query string and returns the result object.
#[wasm_bindgen]
pub fn run(query: &str) -> Result<JsValue, JsError> {
    Runner::new(query)?.finish()
}

/// The `--json` report of a query string, as the CLI prints it (for tests
/// comparing the page with `tailslice simulate --json`).
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

/// Relative change in %, re-exported for the page's summary sentence.
#[wasm_bindgen(js_name = changePct)]
pub fn change_pct(base: f64, value: f64) -> Option<f64> {
    metrics::change_pct(base, value)
}
