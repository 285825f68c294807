//! `Runner`: one experiment run a step at a time (draw the workload, then
//! one policy per step), so the worker can report progress between steps
//! and the page can move a run it started inline to the worker once the
//! drawn size is known. A large run's policies can be run side by side:
//! each helper worker's runner runs one (`part`) and the worker's runner
//! takes it in (`addPart`; see `part.rs`). Every method is here: generated
//! tasks, an imported list (`withTasks`, `withList`) and a trace's tasks
//! with their recorded starts (`withTrace`).

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::part::Ran;
use super::result::WorkloadFigures;
use super::{io, query, responsiveness, result, trace_run, GANTT_MAX_SLICES, LARGE_SLICES};
use crate::experiment::{Experiment, Keep, Limits, PolicyRun};
use crate::responsiveness::Settings;
use crate::text::Lang;
use crate::trace::interactions::Carried;
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
    /// Each policy's run, in the experiment's order, once run here or
    /// taken in from a helper.
    runs: Vec<Option<Ran>>,
    /// The workload's own figures, once computed ([`Runner::prepare`]).
    figures: Option<WorkloadFigures>,
    /// Policies taken in from helpers (`addPart`): the result's `parts`.
    parts: usize,
    record: bool,
    /// Tasks drawn from the mix (not imported).
    generated: bool,
    /// A trace's recorded task starts: the result gets the "as recorded" row.
    recorded: Option<Vec<f64>>,
    /// A trace's interactions and handler tasks (with `recorded` only).
    interactions: Option<Carried>,
    /// Imported tasks: the Responsiveness section's settings (the section
    /// is added when the tasks have a timeline).
    resp: Option<Settings>,
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
        // The page sends these to the worker (`PageQuery::inline`).
        if let Some(p) = exp.policies.iter().find(|p| !p.built_in()) {
            return Err(JsError::new(&format!("{} runs in the worker", p.name())));
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
        usize::from(self.workload.is_some()) + self.runs.iter().flatten().count()
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
        match (&self.workload, self.next_policy()) {
            (None, _) => format!("drawing {} tasks", self.exp.tasks),
            (Some(_), Some(i)) => format!("simulating {}", self.exp.policies[i].name()),
            (Some(_), None) => "done".to_string(),
        }
    }

    /// Does the next step (draws the workload, or runs the first policy
    /// not run yet); returns `true` while steps remain. Drawing a workload
    /// too large for the browser fails with the size message.
    pub fn step(&mut self) -> Result<bool, JsError> {
        if self.workload.is_none() {
            let w = Workload::generate(&self.exp.workload_spec());
            self.size_to(w)?;
            return Ok(true);
        }
        let Some(i) = self.next_policy() else {
            return Ok(false);
        };
        self.run_policy(i)?;
        Ok(self.next_policy().is_some())
    }

    /// Runs the `i`-th policy here (after the workload is drawn), unless
    /// it has been run.
    #[wasm_bindgen(js_name = runPolicy)]
    pub fn run_policy(&mut self, i: usize) -> Result<(), JsError> {
        if self.runs.get(i).is_some_and(Option::is_some) {
            return Ok(());
        }
        let (Some(workload), Some(&kind)) = (&self.workload, self.exp.policies.get(i)) else {
            return Err(JsError::new(&format!("policy {i} cannot run yet")));
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
        let run = one
            .run_policies(workload, &Limits::WEB, keep)
            .map_err(|e| JsError::new(&e.to_string()))?
            .pop()
            .ok_or_else(|| JsError::new("no run"))?;
        self.runs[i] = Some(Ran::new(run, workload));
        Ok(())
    }

    /// Computes what the result shows of the workload (its histogram)
    /// ahead of `finish`, e.g. while helpers run the other policies
    /// (`finish` does it otherwise). Call after the workload is drawn.
    pub fn prepare(&mut self) {
        if let (None, Some(w)) = (&self.figures, &self.workload) {
            self.figures = Some(WorkloadFigures::of(w));
        }
    }

    /// The result object (runs the policies not run yet first).
    pub fn finish(&mut self) -> Result<JsValue, JsError> {
        while self.step()? {}
        self.prepare();
        let (runs, cdfs): (Vec<PolicyRun>, Vec<_>) = std::mem::take(&mut self.runs)
            .into_iter()
            .flatten()
            .map(|r| (r.run, r.cdf))
            .unzip();
        let outcome = crate::experiment::RunOutcome {
            workload: self.workload.take().unwrap_or_default(),
            runs,
        };
        let figures = self
            .figures
            .take()
            .unwrap_or_else(|| WorkloadFigures::of(&outcome.workload));
        let obj = result::build(
            &self.exp,
            &outcome,
            self.record,
            self.generated,
            &cdfs,
            &figures,
        );
        io::add_explanation(&obj, &self.exp, &outcome);
        result::set(obj.unchecked_ref(), "parts", &self.parts.into());
        if let Some(starts) = &self.recorded {
            trace_run::add_recorded(&obj, &self.exp, &outcome, starts);
        }
        if let Some(settings) = &self.resp {
            let trace = self.recorded.is_some();
            if responsiveness::applies(&outcome.workload, trace) {
                let at_recorded = self
                    .recorded
                    .as_deref()
                    .is_some_and(|s| s == outcome.workload.arrival.as_slice());
                let interactions = self.interactions.as_ref().filter(|_| at_recorded);
                let section = responsiveness::section(
                    &self.exp,
                    &outcome.workload,
                    at_recorded,
                    settings,
                    interactions,
                );
                result::set(obj.unchecked_ref(), "responsiveness", &section);
            }
        }
        Ok(obj)
    }
}

/// A large run's policies side by side: a helper worker's runner runs one
/// and sends it as a part; the worker's runner takes it in. Only the
/// worker splits runs, so the main thread's wasm (`page`) leaves them out.
#[cfg(not(feature = "page"))]
#[wasm_bindgen]
impl Runner {
    /// Runs the `i`-th policy (drawing the workload first if need be) and
    /// returns it as a part for the runner of the same experiment that
    /// builds the result (`addPart`).
    pub fn part(&mut self, i: usize) -> Result<JsValue, JsError> {
        if self.workload.is_none() {
            self.step()?;
        }
        self.run_policy(i)?;
        let ran = self.runs[i].take().ok_or_else(|| JsError::new("no run"))?;
        Ok(super::part::to_js(&ran))
    }

    /// Takes in the `i`-th policy's run from a part (see `part`), as if it
    /// had run here.
    #[wasm_bindgen(js_name = addPart)]
    pub fn add_part(&mut self, i: usize, part: JsValue) -> Result<(), JsError> {
        let (Some(&kind), Some(slot)) = (self.exp.policies.get(i), self.runs.get_mut(i)) else {
            return Err(JsError::new(&format!("no policy {i} to take a part for")));
        };
        *slot = Some(super::part::from_js(kind, &part)?);
        self.parts += 1;
        Ok(())
    }
}

impl Runner {
    /// The first policy not run yet.
    fn next_policy(&self) -> Option<usize> {
        self.runs.iter().position(Option::is_none)
    }
}

impl Runner {
    pub(crate) fn for_experiment(exp: Experiment) -> Runner {
        Runner {
            runs: exp.policies.iter().map(|_| None).collect(),
            figures: None,
            parts: 0,
            exp,
            workload: None,
            slices: 0.0,
            record: false,
            generated: true,
            recorded: None,
            interactions: None,
            resp: None,
            lang: Lang::En,
        }
    }

    /// A runner whose workload is given (an imported list), sized by the
    /// import's check.
    #[cfg_attr(feature = "page", allow(dead_code))]
    pub(crate) fn with_workload(sized: io::Sized, lang: Lang) -> Runner {
        let mut r = Runner::for_experiment(sized.exp);
        r.generated = false;
        r.lang = lang;
        r.sized(sized.workload, sized.slices);
        r
    }

    /// Sizes the run from its workload: refuses it past the browser's
    /// limit.
    fn size_to(&mut self, w: Workload) -> Result<(), JsError> {
        let slices = self
            .exp
            .check_drawn_size(&w, &Limits::WEB)
            .map_err(|e| JsError::new(&e.message(self.lang)))?;
        self.sized(w, slices);
        Ok(())
    }

    /// Takes the workload of `slices` slices over all policies: keeps
    /// segments (the Gantt) only while they stay small.
    fn sized(&mut self, w: Workload, slices: f64) {
        self.slices = slices;
        self.record = slices <= GANTT_MAX_SLICES;
        self.workload = Some(w);
    }
}

/// Runners for tasks the visitor brought: a pasted or uploaded list, or a
/// browser trace's main-thread tasks. Only the worker runs them (imported
/// tasks never run inline), so the main thread's wasm (`page`) leaves them out.
#[cfg(not(feature = "page"))]
#[wasm_bindgen]
impl Runner {
    /// A runner for the experiment of `query` on the task list `tasks`
    /// (seed, task count, mix and arrivals of the query are not used);
    /// `resp`: the page's `resp_*` keys (the section's settings).
    #[wasm_bindgen(js_name = withTasks)]
    pub fn with_tasks(query: &str, tasks: &str, resp: Option<String>) -> Result<Runner, JsError> {
        let lang = lang_of(query);
        let sized = io::sized_tasks(&io::experiment(query)?, tasks, lang)?;
        Runner::with_workload(sized, lang).responsive(resp.as_deref(), lang)
    }

    /// [`Runner::with_tasks`] (or, with `starts`, [`Runner::with_trace`])
    /// on a list parsed before, which the worker keeps.
    #[wasm_bindgen(js_name = withList)]
    pub fn with_list(
        query: &str,
        list: &io::TaskList,
        starts: Option<Vec<f64>>,
        resp: Option<String>,
        interactions: JsValue,
    ) -> Result<Runner, JsError> {
        let lang = lang_of(query);
        let runner = Runner::with_workload(list.sized(&io::experiment(query)?, lang)?, lang)
            .responsive(resp.as_deref(), lang)?;
        let mut runner = match starts {
            Some(starts) => runner.recording(starts)?,
            None => runner,
        };
        if runner.recorded.is_some() && !interactions.is_undefined() && !interactions.is_null() {
            let carried: Carried = serde_wasm_bindgen::from_value(interactions)
                .map_err(|e| JsError::new(&format!("interactions: {e}")))?;
            let n = runner.workload.as_ref().map_or(0, |w| w.len());
            if carried.handler.len() != n {
                return Err(JsError::new(&format!(
                    "interactions: {} handler flags for {n} tasks",
                    carried.handler.len()
                )));
            }
            runner.interactions = Some(carried);
        }
        Ok(runner)
    }

    /// A runner for the experiment of `query` on a trace's tasks (`tasks`,
    /// as the trace module's `TraceLoader::select` gave them) whose recorded starts are
    /// `starts`: the result gets the "as recorded" row first, and the
    /// Responsiveness section (`resp` as for `withTasks`).
    #[wasm_bindgen(js_name = withTrace)]
    pub fn with_trace(
        query: &str,
        tasks: &str,
        starts: &[f64],
        resp: Option<String>,
    ) -> Result<Runner, JsError> {
        Runner::with_tasks(query, tasks, resp)?.recording(starts.to_vec())
    }
}

#[cfg(not(feature = "page"))]
impl Runner {
    /// This runner with the Responsiveness section's settings (`resp`: the
    /// page's `resp_*` keys; a bad one refused in `lang`).
    fn responsive(mut self, resp: Option<&str>, lang: Lang) -> Result<Runner, JsError> {
        let pairs = crate::query_string::decode_pairs(resp.unwrap_or(""));
        let (settings, errors) =
            Settings::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        if let Some(e) = errors.first() {
            return Err(JsError::new(&e.message(lang)));
        }
        self.resp = Some(settings);
        Ok(self)
    }

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
