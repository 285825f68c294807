//! A scenario run's key threads over time: one lane per thread, running,
//! runnable and preempted in colour, blocked as the lane's background —
//! the same lanes, renderer and wire format as the Gantt charts.

use std::collections::HashMap;

use super::lanes::{Block, Key, Lane, Lanes, Mark, Meta, Segments};
use super::theme;
use super::words;
use crate::scenario::{RunView, ScenarioKind};
use crate::sim::trace::State;
use crate::text::Filled;

/// Segments and state intervals a run keeps for its charts (each): enough
/// for the Feishu demo's 10 s on two cores; longer runs are cut and say so.
pub const MAX_RECORDS: usize = 20_000;

/// Threads of a run whose states are drawn, at most.
pub(crate) const MAX_STATE_LANES: usize = 6;

/// Threads whose states are drawn: the main thread and the first few of
/// each other group (queues, workers), as many per group as the scenario
/// asks, never the "system work" threads.
pub fn key_threads(scenario: ScenarioKind, view: &RunView) -> Vec<usize> {
    let per_group = scenario.lanes_per_group();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, t) in view.run.threads.iter().enumerate() {
        if t.group == "system" || t.group == "other processes" {
            continue;
        }
        let n = seen.entry(t.group.as_str()).or_insert(0);
        if *n < per_group && out.len() < MAX_STATE_LANES {
            *n += 1;
            out.push(i);
        }
    }
    out
}

/// A thread's name as the charts show it. The scenarios name their threads
/// `main`, `job J worker K` and after the study's queues (`serialQueue N`,
/// the start-up's `network`, …); the CLI's `--json` keeps those names, the
/// charts say the first two in words.
pub(crate) fn thread_title(name: &str) -> Filled {
    if name == "main" {
        return words::MAIN.into();
    }
    if let Some((job, worker)) = name
        .strip_prefix("job ")
        .and_then(|rest| rest.split_once(" worker "))
    {
        return words::WORKER.both(&[job, worker]);
    }
    Filled::same(name)
}

/// A thread-state lane's name: a worker's with its QoS (its job's workers
/// may run at different QoS in a scenario), any other as
/// [`thread_title`].
pub(crate) fn lane_title(t: &crate::scenario::simulation::ThreadStats) -> Filled {
    match t
        .name
        .strip_prefix("job ")
        .and_then(|rest| rest.split_once(" worker "))
    {
        Some((job, worker)) => words::WORKER_QOS.both(&[job, worker, &t.qos.to_string()]),
        None => thread_title(&t.name),
    }
}

/// Where a run's charts stop and why, when recording stopped before the
/// run ended (empty otherwise).
pub fn cut_note(view: &RunView) -> Filled {
    if !view.run.truncated {
        return Filled::default();
    }
    let secs = |ms: f64| format!("{:.1}", ms / 1000.0);
    words::CUT_SHORT.both(&[
        &secs(super::gantt::scenario_horizon(view)),
        &secs(view.run.end),
        &MAX_RECORDS.to_string(),
    ])
}

/// The key threads' states of one run of `scenario`.
pub fn states(scenario: ScenarioKind, view: &RunView) -> Lanes {
    let r = &view.run;
    let keys_threads = key_threads(scenario, view);
    let lane_of: HashMap<usize, u32> = keys_threads
        .iter()
        .enumerate()
        .map(|(l, &t)| (t, l as u32))
        .collect();
    let mut segs = Segments::default();
    for i in &r.intervals {
        let key = match i.state {
            State::Running => 0,
            State::Runnable => 1,
            State::Preempted => 2,
            State::Blocked => continue,
        };
        if let Some(&lane) = lane_of.get(&(i.thread as usize)) {
            segs.push(lane, i.thread, key, i.start, i.end);
        }
    }
    let keys = words::STATES
        .iter()
        .zip(theme::STATES)
        .map(|(&w, color)| Key {
            label: w.into(),
            color,
            striped: false,
            legend: true,
        })
        .collect();
    Lanes {
        meta: Meta {
            blocks: vec![Block {
                name: view.label.en.clone(),
                title: Filled::default(),
                color: None,
                lanes: keys_threads
                    .iter()
                    .map(|&t| Lane {
                        label: lane_title(&r.threads[t]),
                        mark: Mark::None,
                    })
                    .collect(),
            }],
            keys,
            blank: Some(words::BLOCKED.into()),
            items: r.threads.iter().map(|t| thread_title(&t.name)).collect(),
            horizon: super::gantt::scenario_horizon(view),
            drawn: true,
            note: Filled::default(),
        },
        segs,
    }
}
