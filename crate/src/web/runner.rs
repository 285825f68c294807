//! `Runner`: one experiment run a step at a time (draw the workload, then
//! one policy per step), so the worker can report progress between steps
//! and the page can move a run it started inline to the worker once the
//! drawn size is known. Every method is here: generated tasks, an imported
//! list (`withTasks`) and a trace's tasks with their recorded starts
//! (`withTrace`).

use wasm_bindgen::prelude::*;

use super::{io, query, result, trace_run, GANTT_MAX_SLICES, LARGE_SLICES};
use crate::experiment::{Experiment, Keep, Limits, PolicyRun};
use crate::text::Lang;
use crate::workload::Workload;

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
    /// The language of a refusal (a drawn workload too large): the query's
    /// `lang=`, which the page adds.
    lang: Lang,
}

/// The language a query asks refusals in (`lang=`; English without one).
#[cfg(not(feature = "page"))]
fn lang_of(query_text: &str) -> Lang {
    query::parse(query_text, &Limits::WEB)
        .1
        .lang
        .and_then(Lang::from_code)
        .unwrap_or_default()
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
        let mut r = Runner::for_experiment(exp);
        r.lang = page.lang.and_then(Lang::from_code).unwrap_or_default();
        Ok(r)
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
        // Each task's outcome is read by the Gantt's tooltips only: without
        // a Gantt, none is kept.
        let keep = Keep {
            segments: self.record,
            outcomes: self.record,
        };
        let mut runs = one
            .run_policies(workload, &Limits::WEB, keep)
            .map_err(|e| JsError::new(&e.to_string()))?;
        self.runs.append(&mut runs);
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
            lang: Lang::En,
        }
    }

    /// A runner whose workload is given (an imported list): sized at once.
    #[cfg_attr(feature = "page", allow(dead_code))]
    pub(crate) fn with_workload(
        exp: Experiment,
        w: Workload,
        lang: Lang,
    ) -> Result<Runner, JsError> {
        let mut r = Runner::for_experiment(exp);
        r.lang = lang;
        r.size_to(w)?;
        Ok(r)
    }

    /// Sizes the run from its workload: refuses it past the browser's
    /// limit, keeps segments (the Gantt) only while they stay small.
    fn size_to(&mut self, w: Workload) -> Result<(), JsError> {
        let slices = self
            .exp
            .check_drawn_size(&w, &Limits::WEB)
            .map_err(|e| JsError::new(&e.message(self.lang)))?;
        self.slices = slices;
        self.record = slices <= GANTT_MAX_SLICES;
        self.workload = Some(w);
        Ok(())
    }
}

/// Runners for tasks the visitor brought: a pasted or uploaded list, or a
/// browser trace's main-thread tasks. Only the worker runs them (imported
/// tasks never run inline), so the main thread's wasm (`page`) leaves them out.
#[cfg(not(feature = "page"))]
#[wasm_bindgen]
impl Runner {
    /// A runner for the experiment of `query` on the task list `tasks`
    /// (seed, task count, mix and arrivals of the query are not used).
    #[wasm_bindgen(js_name = withTasks)]
    pub fn with_tasks(query: &str, tasks: &str) -> Result<Runner, JsError> {
        let lang = lang_of(query);
        let (exp, w) = io::tasks_for(&io::experiment(query)?, tasks, lang)?;
        Runner::with_workload(exp, w, lang)
    }

    /// [`Runner::with_tasks`] (or, with `starts`, [`Runner::with_trace`])
    /// on a list parsed before, which the worker keeps.
    #[wasm_bindgen(js_name = withList)]
    pub fn with_list(
        query: &str,
        list: &io::TaskList,
        starts: Option<Vec<f64>>,
    ) -> Result<Runner, JsError> {
        let lang = lang_of(query);
        let (exp, w) = list.sized(&io::experiment(query)?, lang)?;
        let runner = Runner::with_workload(exp, w, lang)?;
        match starts {
            Some(starts) => runner.recording(starts),
            None => Ok(runner),
        }
    }

    /// A runner for the experiment of `query` on a trace's tasks (`tasks`,
    /// as the trace module's `TraceLoader::select` gave them) whose recorded starts are
    /// `starts`: the result gets the "as recorded" row first.
    #[wasm_bindgen(js_name = withTrace)]
    pub fn with_trace(query: &str, tasks: &str, starts: &[f64]) -> Result<Runner, JsError> {
        Runner::with_tasks(query, tasks)?.recording(starts.to_vec())
    }
}

#[cfg(not(feature = "page"))]
impl Runner {
    /// This runner with the tasks' recorded starts: its result gets the
    /// "as recorded" row first.
    fn recording(mut self, starts: Vec<f64>) -> Result<Runner, JsError> {
        let n = self.workload.as_ref().map_or(0, |w| w.len());
        if starts.len() != n {
            return Err(JsError::new(&format!(
                "{} recorded starts for {n} tasks",
                starts.len()
            )));
        }
        self.recorded = Some(starts);
        Ok(self)
    }
}
