//! The Gantt charts' data, as [`Lanes`]: the study's schedules (one block
//! per policy, one lane per core, slices coloured by task class, traces'
//! included) and a scenario run's cores (coloured by QoS, the main thread
//! in its own colour); and the words a pointer over a slice shows.

use super::lanes::{Block, Key, Lane, Lanes, Mark, Meta, Segments};
use super::theme;
use super::words;
use crate::experiment::reading::policy_title;
use crate::experiment::{Experiment, RunOutcome};
use crate::scenario::RunView;
use crate::sim::machine::CoreKind;
use crate::text::Filled;
use crate::text::Lang;
use crate::workload::Workload;

/// The names of a workload's classes as charts show them: a generated
/// mix's classes are ranges of durations (`1-8 ms`), an imported list's or
/// a trace's are names, shown as they are.
pub(crate) fn class_names(w: &Workload, generated: bool) -> Vec<Filled> {
    w.class_labels
        .iter()
        .map(|c| {
            if generated {
                words::CLASS_MS.both(&[c])
            } else {
                Filled::same(c.clone())
            }
        })
        .collect()
}

/// The class drawn as "long": the one with the largest mean work (none
/// with a single class).
pub(crate) fn long_class(w: &Workload) -> Option<u16> {
    let mut sums = vec![(0.0f64, 0usize); w.class_labels.len()];
    for (&c, &x) in w.class.iter().zip(&w.work) {
        if let Some(s) = sums.get_mut(c as usize) {
            s.0 += x;
            s.1 += 1;
        }
    }
    if sums.len() <= 1 {
        return None;
    }
    sums.iter()
        .enumerate()
        .filter(|(_, s)| s.1 > 0)
        .max_by(|a, b| (a.1 .0 / a.1 .1 as f64).total_cmp(&(b.1 .0 / b.1 .1 as f64)))
        .map(|(i, _)| i as u16)
}

/// A study block's title: the policy, and the machine or core count.
fn block_title(exp: &Experiment, policy: &str) -> Filled {
    // A block is always a simulated policy: its title reads the same in
    // both languages.
    let name = policy_title(policy, crate::text::Lang::En);
    if exp.machine.is_some() {
        exp.machine()
            .describe(true)
            .within(words::GANTT_MACHINE, &[&name])
    } else if exp.core_count() > 1 {
        words::GANTT_CORES.both(&[&name, &exp.core_count().to_string()])
    } else {
        Filled::same(name)
    }
}

/// The study's schedules: `drawn` when segments were recorded (else each
/// block says the run was too large to draw); `generated` as in
/// [`class_names`].
pub fn study(exp: &Experiment, outcome: &RunOutcome, drawn: bool, generated: bool) -> Lanes {
    let machine = exp.machine();
    let cores = machine.cores.len().max(1);
    let mixed = machine.cores.iter().any(|c| c.kind == CoreKind::Efficiency);
    let lanes: Vec<Lane> = (0..cores)
        .map(|c| Lane {
            label: Filled::default(),
            mark: match machine.cores.get(c).map(|c| c.kind) {
                Some(CoreKind::Efficiency) if mixed => Mark::Efficiency,
                Some(CoreKind::Performance) if mixed => Mark::Performance,
                _ => Mark::None,
            },
        })
        .collect();
    let w = &outcome.workload;
    let long = long_class(w);
    let keys = class_names(w, generated)
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let striped = long == Some(i as u16);
            Key {
                label: if striped {
                    name.within(words::LONG, &[])
                } else {
                    name
                },
                color: theme::class(i),
                striped,
                legend: true,
            }
        })
        .collect();
    let mut segs = Segments::default();
    let mut blocks = Vec::with_capacity(outcome.runs.len());
    for (b, run) in outcome.runs.iter().enumerate() {
        blocks.push(Block {
            name: run.policy.name().to_string(),
            title: block_title(exp, run.policy.name()),
            color: Some(theme::policy(b)),
            lanes: lanes.clone(),
        });
        let first = (b * cores) as u32;
        for g in &run.schedule.segments {
            let class = w.class.get(g.task as usize).copied().unwrap_or(0);
            segs.push(first + g.core, g.task, class, g.start, g.end);
        }
    }
    let horizon = outcome
        .runs
        .iter()
        .map(|r| r.schedule.makespan)
        .fold(0.0, f64::max);
    Lanes {
        meta: Meta {
            blocks,
            keys,
            blank: None,
            items: Vec::new(),
            horizon,
            drawn,
            note: words::GANTT_TOO_MANY.into(),
        },
        segs,
    }
}

/// What a pointer over a study slice shows.
pub struct TaskFacts<'a> {
    pub task: u32,
    pub class: &'a str,
    pub long: bool,
    pub work: f64,
    pub arrival: f64,
    pub first_start: f64,
    pub completion: f64,
    pub slices: u32,
    pub policy: &'a str,
    /// The core, with `(P)` or `(E)` on a named machine.
    pub core: String,
    pub start: f64,
    pub end: f64,
}

/// The tooltip of a study slice.
pub fn task_tip(lang: Lang, f: &TaskFacts) -> String {
    let d = |v: f64| format!("{v:.1}");
    let slices = if f.slices == 1 {
        words::SLICE_ONE
    } else {
        words::SLICE_MANY
    }
    .fill(lang, &[&f.slices.to_string()]);
    words::TASK_TIP.fill(
        lang,
        &[
            &f.task.to_string(),
            f.class,
            if f.long {
                words::TIP_LONG.get(lang)
            } else {
                ""
            },
            &d(f.work),
            &d(f.arrival),
            &d(f.first_start),
            &d(f.completion),
            &d(f.completion - f.arrival),
            &slices,
            &policy_title(f.policy, crate::text::Lang::En),
            &f.core,
            &d(f.start),
            &d(f.end),
        ],
    )
}

/// The tooltip of a scenario slice or thread state: what it is (a QoS or a
/// state), the thread, the lane (omitted when it names the thread) and when.
pub(crate) fn thread_tip(
    lang: Lang,
    what: &str,
    thread: &str,
    lane: &str,
    start: f64,
    end: f64,
) -> String {
    let place = if lane.is_empty() || lane == thread {
        String::new()
    } else {
        format!("{lane}: ")
    };
    words::THREAD_TIP.fill(
        lang,
        &[
            what,
            thread,
            &place,
            &format!("{start:.1}"),
            &format!("{end:.1}"),
        ],
    )
}

/// Where a scenario run's charts end: the run's end, or where recording
/// stopped when it was capped.
pub(crate) fn scenario_horizon(view: &RunView) -> f64 {
    let r = &view.run;
    if r.truncated {
        let seg_end = r.segments.iter().map(|s| s.end).fold(0.0, f64::max);
        let int_end = r.intervals.iter().map(|s| s.end).fold(0.0, f64::max);
        seg_end.min(int_end).max(1.0)
    } else {
        r.end
    }
}

/// A scenario run's cores: one lane per core (P cores first, as the
/// machine lists them), each slice coloured by its thread's QoS, the main
/// thread in its own colour, other system work grey.
pub(crate) fn scenario_cores(view: &RunView) -> Lanes {
    let r = &view.run;
    let lanes = view
        .machine
        .cores
        .iter()
        .enumerate()
        .map(|(c, core)| {
            let kind = match core.kind {
                CoreKind::Efficiency => "E",
                CoreKind::Performance => "P",
            };
            let label = if (core.speed - 1.0).abs() > 1e-9 {
                words::CORE_SPEED.both(&[&c.to_string(), kind, &format!("{:.2}", core.speed)])
            } else {
                words::CORE.both(&[&c.to_string(), kind])
            };
            Lane {
                label,
                mark: Mark::None,
            }
        })
        .collect();
    let main = r.threads.iter().position(|t| t.group == "main");
    let system = |thread: usize| r.threads.get(thread).is_some_and(|t| t.group == "system");
    let qos_of = |thread: usize| {
        if system(thread) {
            0
        } else {
            r.threads.get(thread).map_or(0, |t| t.qos)
        }
    };
    // Keys: the main thread, then each QoS present, highest first.
    let mut present: Vec<u8> = r
        .segments
        .iter()
        .filter(|s| Some(s.task as usize) != main)
        .map(|s| qos_of(s.task as usize))
        .collect();
    present.sort_unstable_by(|a, b| b.cmp(a));
    present.dedup();
    let mut keys = Vec::new();
    if main.is_some() {
        keys.push(Key {
            label: words::MAIN_THREAD.into(),
            color: theme::MAIN_THREAD,
            striped: false,
            legend: true,
        });
    }
    for &q in &present {
        let label = if q == 0 {
            words::SYSTEM_WORK.into()
        } else {
            let name = crate::sim::qos::Qos::from_number(q)
                .map_or(String::new(), |q| q.name().to_string());
            Filled::same(format!("{name} ({q})"))
        };
        keys.push(Key {
            label,
            color: theme::qos(q),
            striped: false,
            legend: true,
        });
    }
    let key_of = |thread: usize| -> u16 {
        if Some(thread) == main {
            return 0;
        }
        let q = qos_of(thread);
        let at = present.iter().position(|&p| p == q).unwrap_or(0);
        (at + usize::from(main.is_some())) as u16
    };
    let n = view.machine.cores.len() as u32;
    let mut segs = Segments::default();
    for s in &r.segments {
        if s.core < n {
            segs.push(s.core, s.task, key_of(s.task as usize), s.start, s.end);
        }
    }
    Lanes {
        meta: Meta {
            blocks: vec![Block {
                name: view.label.en.clone(),
                title: Filled::default(),
                color: None,
                lanes,
            }],
            keys,
            blank: None,
            items: r
                .threads
                .iter()
                .map(|t| super::timeline::thread_title(&t.name))
                .collect(),
            horizon: scenario_horizon(view),
            drawn: true,
            note: Filled::default(),
        },
        segs,
    }
}
