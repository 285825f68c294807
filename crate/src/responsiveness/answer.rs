//! Everything the front ends show, computed once: the rows, the favoured
//! quantum, the knee and the reading, and the JSON of
//! `tailslice responsiveness --json` (a public contract: fields may be
//! added, none renamed).

use serde::Serialize;

use super::interactions::{HandlersYield, InteractionModel, Sliced, LONG_HANDLER_MS};
use super::plan::Task;
use super::reading::{favoured, knee, Favoured, Knee, NoKnee, P98_TARGET_MS};
use super::report::{evaluate, PlanRow, ResponsivenessReport, TooManyChunks};
use super::settings::Settings;
use super::text::{reading, Source};
use super::yielding::{YieldKind, FRAME_MS};
use crate::text::Lang;
use crate::trace::interactions::Interactions;

/// The rows and the judgements on them.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub report: ResponsivenessReport,
    pub settings: Settings,
    pub source: Source,
    pub favoured: Option<Favoured>,
    pub knee: Result<Knee, NoKnee>,
    /// A trace's interactions, modelled under every row's plan.
    pub interactions: Option<InteractionModel>,
    /// The same rows with the interactions' own handler tasks left out of
    /// the obstacles (only when some task is a handler).
    pub without_handlers: Option<Box<Answer>>,
}

impl Answer {
    /// Evaluates `tasks` under `settings` (see [`evaluate`]).
    pub fn new(
        tasks: &[Task],
        settings: &Settings,
        source: Source,
        max_chunks: u64,
    ) -> Result<Answer, TooManyChunks> {
        let report = evaluate(tasks, settings, max_chunks)?;
        Ok(Answer {
            favoured: favoured(&report.rows),
            knee: knee(&report.rows),
            report,
            settings: settings.clone(),
            source,
            interactions: None,
            without_handlers: None,
        })
    }

    /// Adds a trace's interactions: each one modelled under every row's
    /// plan, INP per row, and the rows again without the interactions' own
    /// handler tasks (`handler`, one flag per task of `tasks`) as obstacles,
    /// over the same window.
    pub fn with_interactions(
        mut self,
        tasks: &[Task],
        interactions: &Interactions,
        handler: &[bool],
        max_chunks: u64,
    ) -> Result<Answer, TooManyChunks> {
        let quanta: Vec<f64> = self.report.rows[1..]
            .iter()
            .filter_map(|r| r.quantum_ms)
            .collect();
        self.interactions = Some(InteractionModel::new(
            tasks,
            interactions,
            &self.settings,
            &quanta,
        ));
        if handler.iter().any(|&h| h) {
            let others: Vec<Task> = tasks
                .iter()
                .zip(handler)
                .filter(|(_, &h)| !h)
                .map(|(t, _)| *t)
                .collect();
            let settings = Settings {
                window: Some(self.report.window),
                ..self.settings.clone()
            };
            let mut other = Answer::new(&others, &settings, self.source, max_chunks)?;
            other.report.window_given = self.report.window_given;
            self.without_handlers = Some(Box::new(other));
        }
        Ok(self)
    }

    /// INP of row `row` (`None` without interactions).
    pub fn inp(&self, row: usize) -> Option<f64> {
        self.interactions
            .as_ref()
            .and_then(|m| m.inp_ms.get(row).copied().flatten())
    }

    pub(crate) fn kind(&self) -> YieldKind {
        self.settings.yielding.kind
    }

    /// The reading in `lang`, one sentence or short paragraph per item.
    pub fn reading(&self, lang: Lang) -> Vec<String> {
        reading(
            &self.report,
            self.favoured,
            self.knee,
            self.kind(),
            self.source,
            lang,
        )
    }

    /// The `--json` object, with the reading in `lang`.
    pub fn json(&self, lang: Lang) -> Json<'_> {
        let r = &self.report;
        let y = self.settings.yielding;
        Json {
            span_ms: r.window.len(),
            span: Span {
                start_ms: r.window.start,
                end_ms: r.window.end,
                from: if r.window_given { "window" } else { "tasks" },
            },
            tasks: r.tasks,
            busy_ms: r.busy_ms,
            source: self.source.name(),
            yield_kind: y.kind.name(),
            yield_cost_ms: y.cost_ms,
            yield_cost_from: self.settings.cost_from.name(),
            frame_ms: FRAME_MS,
            timeout_clamp_from_yield: y.clamp_from,
            p98_target_ms: P98_TARGET_MS,
            transit_ms: self.settings.transit_ms,
            rows: r
                .rows
                .iter()
                .enumerate()
                .map(|(i, row)| JsonRow::new(row, self.inp(i), OBSTACLES_ALL))
                .collect(),
            rows_without_handlers: self.without_handlers.as_ref().map(|o| {
                o.report
                    .rows
                    .iter()
                    .map(|row| JsonRow::new(row, None, OBSTACLES_NOT_HANDLERS))
                    .collect()
            }),
            interactions: self.interactions.as_ref().map(|m| {
                m.recorded
                    .list
                    .iter()
                    .zip(&m.modelled)
                    .map(|(i, x)| JsonInteraction {
                        id: i.id,
                        kind: i.kind.name(),
                        events: &i.events,
                        start_ms: i.start_ms,
                        latency_ms: i.latency_ms,
                        input_delay_ms: i.input_delay_ms,
                        processing_ms: i.processing_ms,
                        presentation_ms: i.presentation_ms,
                        model_input_delay_ms: x.model_input_delay_ms,
                        long_handler: i.processing_ms >= LONG_HANDLER_MS,
                        waited_behind: i.waited_behind,
                        handlers: &i.handlers,
                        after: &i.after,
                        rendering_ms: i.rendering_ms,
                        script_after_ms: i.script_after_ms,
                        sliced: &x.sliced,
                        handlers_yield: &x.handlers_yield,
                    })
                    .collect()
            }),
            inp_if_handlers_yield: self.interactions.as_ref().map(|m| {
                r.rows[1..]
                    .iter()
                    .filter_map(|row| row.quantum_ms)
                    .zip(&m.inp_handlers_yield_ms)
                    .map(|(quantum_ms, &inp_ms)| JsonHandlersInp { quantum_ms, inp_ms })
                    .collect()
            }),
            interactions_found: self.interactions.as_ref().map(|m| m.recorded.lines(lang)),
            favoured: self.favoured.map(|f| JsonFavoured {
                quantum_ms: r.rows[f.row].quantum_ms,
                p98_target_ms: P98_TARGET_MS,
                meets_target: f.meets_target,
            }),
            knee: self.knee.ok().map(|k| JsonKnee {
                quantum_ms: r.rows[k.row].quantum_ms,
                distance: k.distance,
            }),
            reading: self.reading(lang),
        }
    }
}

/// The `--json` object.
#[derive(Serialize)]
pub struct Json<'a> {
    pub span_ms: f64,
    pub span: Span,
    pub tasks: usize,
    pub busy_ms: f64,
    /// `trace` (a trace's tasks at their recorded starts) or `tasks`.
    pub source: &'static str,
    #[serde(rename = "yield")]
    pub yield_kind: &'static str,
    pub yield_cost_ms: f64,
    /// `default`, `given` or `measured`.
    pub yield_cost_from: &'static str,
    pub frame_ms: f64,
    pub timeout_clamp_from_yield: u32,
    pub p98_target_ms: f64,
    /// Added to every input delay the model gives, ms.
    pub transit_ms: f64,
    pub rows: Vec<JsonRow<'a>>,
    /// The rows with the interactions' own handler tasks left out of the
    /// obstacles (a trace with interactions only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows_without_handlers: Option<Vec<JsonRow<'a>>>,
    /// A trace's interactions (a trace only; empty when it has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interactions: Option<Vec<JsonInteraction<'a>>>,
    /// INP at each quantum if the interactions' own handlers yielded
    /// after it (the other tasks whole; a trace only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inp_if_handlers_yield: Option<Vec<JsonHandlersInp>>,
    /// What was found of them, in the reading's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interactions_found: Option<Vec<String>>,
    pub favoured: Option<JsonFavoured>,
    pub knee: Option<JsonKnee>,
    pub reading: Vec<String>,
}

#[derive(Serialize)]
pub struct Span {
    pub start_ms: f64,
    pub end_ms: f64,
    /// `tasks` (the recorded tasks' span) or `window` (given).
    pub from: &'static str,
}

/// One row: `quantum_ms`, `yield` and `yield_cost_ms` are `null` on the
/// recorded row.
#[derive(Serialize)]
pub struct JsonRow<'a> {
    pub quantum_ms: Option<f64>,
    #[serde(rename = "yield")]
    pub yield_kind: Option<&'static str>,
    pub yield_cost_ms: Option<f64>,
    pub input_delay_ms: &'a super::report::DelayStats,
    pub delayed_over: DelayedOver,
    pub busy_share: f64,
    pub tbt_ms: f64,
    pub long_tasks: usize,
    pub finish_later_ms: &'a super::cost::FinishLater,
    pub yields: u64,
    pub end_ms: f64,
    /// INP under this row's plan; `null` without interactions.
    pub inp_ms: Option<f64>,
    /// Which tasks an input can wait behind: `all`, or
    /// `all_but_handlers` (not the interactions' own handlers).
    pub obstacles: &'static str,
}

/// The obstacles of the usual rows.
pub(crate) const OBSTACLES_ALL: &str = "all";
/// The obstacles of the rows without the interactions' handlers.
pub(crate) const OBSTACLES_NOT_HANDLERS: &str = "all_but_handlers";

/// One interaction in the JSON (the first nine keys are a public
/// contract).
#[derive(Serialize)]
pub struct JsonInteraction<'a> {
    pub id: u64,
    pub kind: &'static str,
    pub start_ms: f64,
    pub latency_ms: f64,
    pub input_delay_ms: f64,
    pub processing_ms: f64,
    pub presentation_ms: f64,
    pub model_input_delay_ms: f64,
    pub sliced: &'a [Sliced],
    pub events: &'a [String],
    /// Its processing is a long task by itself (≥ 50 ms).
    pub long_handler: bool,
    pub waited_behind: Option<usize>,
    pub handlers: &'a [usize],
    pub after: &'a [usize],
    pub rendering_ms: f64,
    pub script_after_ms: f64,
    /// Its handlers yielding after each quantum, the other tasks whole.
    pub handlers_yield: &'a [HandlersYield],
}

/// INP if the handlers yielded after `quantum_ms`.
#[derive(Serialize)]
pub struct JsonHandlersInp {
    pub quantum_ms: f64,
    pub inp_ms: Option<f64>,
}

impl<'a> JsonRow<'a> {
    fn new(r: &'a PlanRow, inp_ms: Option<f64>, obstacles: &'static str) -> JsonRow<'a> {
        JsonRow {
            quantum_ms: r.quantum_ms,
            yield_kind: r.yielding.map(|y| y.kind.name()),
            yield_cost_ms: r.yielding.map(|y| y.cost_ms),
            input_delay_ms: &r.input_delay_ms,
            delayed_over: DelayedOver {
                over_50: r.delayed_over[0].1,
                over_100: r.delayed_over[1].1,
                over_200: r.delayed_over[2].1,
            },
            busy_share: r.busy_share,
            tbt_ms: r.tbt_ms,
            long_tasks: r.long_tasks,
            finish_later_ms: &r.finish_later_ms,
            yields: r.yields,
            end_ms: r.end_ms,
            inp_ms,
            obstacles,
        }
    }
}

/// Shares of inputs delayed over 50, 100 and 200 ms, keyed by the
/// threshold.
#[derive(Serialize)]
pub struct DelayedOver {
    #[serde(rename = "50")]
    pub over_50: f64,
    #[serde(rename = "100")]
    pub over_100: f64,
    #[serde(rename = "200")]
    pub over_200: f64,
}

#[derive(Serialize)]
pub struct JsonFavoured {
    /// `null` when the recorded row is favoured.
    pub quantum_ms: Option<f64>,
    pub p98_target_ms: f64,
    pub meets_target: bool,
}

#[derive(Serialize)]
pub struct JsonKnee {
    pub quantum_ms: Option<f64>,
    pub distance: f64,
}
