//! What slicing would do to each interaction a trace records, and to INP.
//!
//! For every plan (as recorded, and each quantum with the chosen yield):
//!
//! - **Input delay**: the input reaches the main thread `transit` ms after
//!   its recorded time; if a piece of another task is running then, it
//!   waits for that piece to end (the HTML event loop runs one task at a
//!   time; Chromium's scheduler runs input ahead of other queued work once
//!   the thread is free), else it waits nothing. Its own handler tasks are
//!   not obstacles: they are its response. As recorded, this is the rest of
//!   the task it met, which the model shows beside the recorded delay.
//! - **Processing**: its handlers' own work, as recorded: slicing the other
//!   tasks does not shorten it (a long handler must be split itself).
//! - **Presentation delay**: the part spent behind other script
//!   ([`Interaction::script_after_ms`]) shrinks to at most one piece (the
//!   frame can start at the next yield point); the rest — rendering work
//!   the trace records on the main thread, the compositor and the wait for
//!   the display — stays.
//!
//! The sliced latency is the sum of the three; INP per plan is taken over
//! those latencies by the same rule as recorded.
//!
//! A second plan leaves the other tasks whole and has each interaction's
//! own handlers yield after `q` ms ("yield to let the browser paint",
//! web.dev): the next frame follows the first piece of its processing, so
//! its latency is the recorded input delay, at most `q` ms of processing,
//! and the presentation delay without the wait behind other script (that
//! script, and the rest of the handlers, run after the frame).

use super::plan::{run_each, Plan, Task};
use super::settings::Settings;
use crate::trace::interactions::{inp_index, Interaction, Interactions};

/// A handler at least this long is a long task of its own (the browsers'
/// 50 ms): slicing the other tasks cannot help it.
pub(crate) const LONG_HANDLER_MS: f64 = 50.0;

/// One interaction under one sliced plan, ms.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Sliced {
    pub quantum_ms: f64,
    pub latency_ms: f64,
    pub input_delay_ms: f64,
    pub presentation_ms: f64,
}

/// One interaction if its own handlers yielded after `quantum_ms`, ms.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct HandlersYield {
    pub quantum_ms: f64,
    pub latency_ms: f64,
    /// The processing before the first yield.
    pub processing_ms: f64,
    pub presentation_ms: f64,
}

/// One interaction: the model's input delay as recorded and every sliced
/// plan's phases.
#[derive(Clone, Debug, PartialEq)]
pub struct Modelled {
    pub model_input_delay_ms: f64,
    /// One per sliced row, in the rows' order.
    pub sliced: Vec<Sliced>,
    /// One per quantum: its handlers yielding, the other tasks whole.
    pub handlers_yield: Vec<HandlersYield>,
}

/// The interactions, recorded and modelled, and INP per row.
#[derive(Clone, Debug, PartialEq)]
pub struct InteractionModel {
    pub recorded: Interactions,
    pub modelled: Vec<Modelled>,
    /// INP per row (the recorded row first), `None` without interactions.
    pub inp_ms: Vec<Option<f64>>,
    /// The interaction that sets each row's INP.
    pub inp_interaction: Vec<Option<usize>>,
    /// INP at each quantum if the interactions' own handlers yielded.
    pub inp_handlers_yield_ms: Vec<Option<f64>>,
}

/// How long each interaction waits under `plan` for the piece of another
/// task running when it reaches the main thread (`transit` included).
pub fn input_delays(
    tasks: &[Task],
    plan: &Plan,
    interactions: &[Interaction],
    transit: f64,
) -> Vec<f64> {
    let arrival: Vec<f64> = interactions.iter().map(|i| i.start_ms + transit).collect();
    let mut order: Vec<usize> = (0..interactions.len()).collect();
    order.sort_by(|&a, &b| arrival[a].total_cmp(&arrival[b]));
    let mut wait = vec![0.0; interactions.len()];
    let mut next = 0;
    run_each(tasks, plan, |c| {
        while next < order.len() && arrival[order[next]] < c.start {
            next += 1;
        }
        while next < order.len() && arrival[order[next]] < c.end() {
            let i = order[next];
            if !interactions[i].handlers.contains(&c.task) {
                wait[i] = c.end() - arrival[i];
            }
            next += 1;
        }
    });
    wait.into_iter().map(|w| w + transit).collect()
}

/// The interaction if its own handlers yielded after `quantum` ms and
/// the frame followed their first piece.
pub(crate) fn handlers_yield(i: &Interaction, quantum: f64) -> HandlersYield {
    let behind = i.script_after_ms.min(i.presentation_ms);
    let processing = i.processing_ms.min(quantum);
    let presentation = i.presentation_ms - behind;
    HandlersYield {
        quantum_ms: quantum,
        latency_ms: i.input_delay_ms + processing + presentation,
        processing_ms: processing,
        presentation_ms: presentation,
    }
}

/// The presentation delay when other script can be cut at `quantum`.
pub fn sliced_presentation(i: &Interaction, quantum: f64) -> f64 {
    let behind = i.script_after_ms.min(i.presentation_ms);
    i.presentation_ms - behind + behind.min(quantum)
}

impl InteractionModel {
    /// Models `interactions` on `tasks` (the trace's, in the same order)
    /// for the recorded plan and each of `quanta` (the sliced rows').
    pub(crate) fn new(
        tasks: &[Task],
        interactions: &Interactions,
        settings: &Settings,
        quanta: &[f64],
    ) -> InteractionModel {
        let list = &interactions.list;
        let transit = settings.transit_ms;
        let recorded = input_delays(tasks, &Plan::Recorded, list, transit);
        let mut modelled: Vec<Modelled> = recorded
            .iter()
            .map(|&d| Modelled {
                model_input_delay_ms: d,
                sliced: Vec::with_capacity(quanta.len()),
                handlers_yield: Vec::with_capacity(quanta.len()),
            })
            .collect();
        let mut inp_ms = vec![interactions.inp.map(|i| i.latency_ms)];
        let mut inp_interaction = vec![interactions.inp.map(|i| i.interaction)];
        for &q in quanta {
            let plan = Plan::Sliced {
                quantum_ms: q,
                yielding: settings.yielding,
            };
            let delays = input_delays(tasks, &plan, list, transit);
            let mut latencies = Vec::with_capacity(list.len());
            for ((i, m), d) in list.iter().zip(&mut modelled).zip(delays) {
                let presentation = sliced_presentation(i, q);
                let latency = d + i.processing_ms + presentation;
                latencies.push(latency);
                m.sliced.push(Sliced {
                    quantum_ms: q,
                    latency_ms: latency,
                    input_delay_ms: d,
                    presentation_ms: presentation,
                });
            }
            let at = inp_index(&latencies);
            inp_ms.push(at.map(|k| latencies[k]));
            inp_interaction.push(at);
        }
        let mut inp_handlers_yield_ms = Vec::with_capacity(quanta.len());
        for &q in quanta {
            let mut latencies = Vec::with_capacity(list.len());
            for (i, m) in list.iter().zip(&mut modelled) {
                let h = handlers_yield(i, q);
                latencies.push(h.latency_ms);
                m.handlers_yield.push(h);
            }
            inp_handlers_yield_ms.push(inp_index(&latencies).map(|k| latencies[k]));
        }
        InteractionModel {
            recorded: interactions.clone(),
            modelled,
            inp_ms,
            inp_interaction,
            inp_handlers_yield_ms,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.recorded.list.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::super::yielding::{YieldKind, Yielding};
    use super::*;
    use crate::trace::interactions::Kind;

    fn interaction(start: f64, handlers: Vec<usize>) -> Interaction {
        Interaction {
            id: 1,
            kind: Kind::TapClick,
            events: vec!["click".into()],
            start_ms: start,
            latency_ms: 0.0,
            input_delay_ms: 0.0,
            processing_ms: 0.0,
            presentation_ms: 0.0,
            processing_end_at_ms: start,
            paint_at_ms: start,
            waited_behind: None,
            handlers,
            after: vec![],
            rendering_ms: 0.0,
            script_after_ms: 0.0,
        }
    }

    #[test]
    fn an_input_waits_for_the_rest_of_the_piece_it_lands_in() {
        // A 100 ms task at 0, the handler (task 1) at 100.
        let tasks = [Task::new(0.0, 100.0), Task::new(100.0, 5.0)];
        let list = [interaction(30.0, vec![1]), interaction(100.5, vec![1])];
        // As recorded: 70 ms left of task 0 (+ 1 ms transit); the second
        // lands in its own handler: only the transit.
        let d = input_delays(&tasks, &Plan::Recorded, &list, 1.0);
        assert_eq!(d, vec![1.0 + 69.0, 1.0]);
        let d = input_delays(&tasks, &Plan::Recorded, &list, 0.0);
        assert_eq!(d, vec![70.0, 0.0]);
        // Sliced at 16 with a 0.1 ms scheduler.yield(): pieces at 0–16,
        // 16.1–32.1, …; 30 lands in the second: 2.1 ms left.
        let plan = Plan::Sliced {
            quantum_ms: 16.0,
            yielding: Yielding::new(YieldKind::Scheduler, 0.1),
        };
        let d = input_delays(&tasks, &plan, &list, 0.0);
        assert!((d[0] - 2.1).abs() < 1e-9, "{d:?}");
    }

    #[test]
    fn presentation_keeps_rendering_and_loses_the_wait_behind_script() {
        let mut i = interaction(0.0, vec![]);
        i.presentation_ms = 120.0;
        i.script_after_ms = 90.0;
        assert_eq!(sliced_presentation(&i, 16.0), 30.0 + 16.0);
        assert_eq!(sliced_presentation(&i, 1000.0), 120.0);
        i.script_after_ms = 0.0;
        assert_eq!(sliced_presentation(&i, 4.0), 120.0);
    }

    #[test]
    fn yielding_handlers_paint_after_their_first_piece() {
        let mut i = interaction(0.0, vec![]);
        i.input_delay_ms = 10.0;
        i.processing_ms = 80.0;
        i.presentation_ms = 60.0;
        i.script_after_ms = 45.0;
        let h = handlers_yield(&i, 16.0);
        assert_eq!((h.processing_ms, h.presentation_ms), (16.0, 15.0));
        assert_eq!(h.latency_ms, 10.0 + 16.0 + 15.0);
        // A quantum past the processing leaves it whole.
        assert_eq!(handlers_yield(&i, 100.0).latency_ms, 10.0 + 80.0 + 15.0);
    }
}
