//! The three preset scenarios, their knobs and their results.
//!
//! [`run`] is the one entry point for every front end: the CLI prints the
//! result as a table or JSON, the page plots it. Knobs are named once in
//! [`Knob`] (CLI flag and URL key) and validated in [`Knobs::set`], so both
//! front ends accept and refuse the same values with the same words.

pub mod feishu_demo;
pub mod feishu_startup;
pub mod m1_compress;

use serde::Serialize;

use super::engine::RunResult;
use super::machine::{Machine, M1_EP_RATIO};
use super::thread::Qos;
use crate::error::{parse_count, parse_number, NumberRange, ParamError};
use crate::explain::Lang;

pub use feishu_demo::FeishuDemoResult;
pub use feishu_startup::FeishuStartupResult;
pub use m1_compress::M1CompressResult;

/// Scenario names, as typed on the CLI and in URLs (`s=<name>`).
pub const SCENARIOS: [&str; 3] = ["feishu-demo", "feishu-startup", "m1-compress"];

/// Every knob, with its CLI flag and URL key (a public contract, like
/// `crate::experiment::Param`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knob {
    BandLimit,
    Queues,
    Groups,
    Machine,
    EpRatio,
    SystemWork,
    Seconds,
    Timeline,
}

impl Knob {
    pub const ALL: [Knob; 8] = [
        Knob::BandLimit,
        Knob::Queues,
        Knob::Groups,
        Knob::Machine,
        Knob::EpRatio,
        Knob::SystemWork,
        Knob::Seconds,
        Knob::Timeline,
    ];

    pub fn flag(self) -> &'static str {
        match self {
            Knob::BandLimit => "--band-limit",
            Knob::Queues => "--queues",
            Knob::Groups => "--groups",
            Knob::Machine => "--machine",
            Knob::EpRatio => "--ep-ratio",
            Knob::SystemWork => "--system-work",
            Knob::Seconds => "--seconds",
            Knob::Timeline => "--timeline",
        }
    }

    pub fn url_key(self) -> &'static str {
        match self {
            Knob::BandLimit => "bl",
            Knob::Queues => "nq",
            Knob::Groups => "groups",
            Knob::Machine => "m",
            Knob::EpRatio => "ep",
            Knob::SystemWork => "sys",
            Knob::Seconds => "secs",
            Knob::Timeline => "tl",
        }
    }

    /// One line of help, for `--help`.
    pub fn help(self) -> &'static str {
        match self {
            Knob::BandLimit => "on|off: the priority decay floor (default: the machine's kernel)",
            Knob::Queues => "N: spinning queues in feishu-demo (1..=1000, default 100)",
            Knob::Groups => "LIST: QoS of each feishu-demo group, e.g. userInitiated,utility",
            Knob::Machine => "a10|m1|xeon-w|<P>p+<E>e: the machine (default per scenario)",
            Knob::EpRatio => "F: E-core speed relative to a P core (default 0.30, calibrated)",
            Knob::SystemWork => "on|off: ~1.3 % other system work on every core",
            Knob::Seconds => "S: simulated seconds for feishu-demo (0.5..=60, default 10)",
            Knob::Timeline => "on|off: keep per-core segments and thread states",
        }
    }

    pub fn from_flag(flag: &str) -> Option<Knob> {
        Knob::ALL.into_iter().find(|k| k.flag() == flag)
    }

    pub fn from_url_key(key: &str) -> Option<Knob> {
        Knob::ALL.into_iter().find(|k| k.url_key() == key)
    }
}

/// An efficiency core's speed relative to a performance core: from 1/20
/// (slower than that, a job would not finish in any simulated span) to 4.
pub const EP_RATIO_RANGE: NumberRange = NumberRange::new(0.05, 4.0, "times a P core's speed");

/// Largest number of spinning queues in `feishu-demo`.
pub const MAX_QUEUES: u64 = 1000;

/// Scenario knobs; `None` means "the scenario's default".
#[derive(Clone, Debug, PartialEq)]
pub struct Knobs {
    pub band_limit: Option<bool>,
    pub queues: u32,
    pub groups: Vec<Qos>,
    /// A machine spec as accepted by [`Machine::parse`].
    pub machine: Option<String>,
    pub ep_ratio: f64,
    pub system_work: Option<bool>,
    pub seconds: f64,
    /// Keep per-core segments and per-thread state intervals (for Gantt
    /// charts and timelines). Off keeps results small.
    pub timeline: bool,
    /// Cap on segments and intervals kept per run (each; the rest is
    /// dropped and the run marked `truncated`), so that a page gets a few
    /// MB at most.
    pub max_records: usize,
}

impl Default for Knobs {
    fn default() -> Self {
        Knobs {
            band_limit: None,
            queues: 100,
            groups: feishu_demo::STUDY_GROUPS.to_vec(),
            machine: None,
            ep_ratio: M1_EP_RATIO,
            system_work: None,
            seconds: 10.0,
            timeline: false,
            max_records: 5_000,
        }
    }
}

/// Ends a scenario's text report: its notes in `lang` as a bulleted list.
fn push_notes(out: &mut String, notes: &[String], notes_zh: &[String], lang: Lang) {
    let notes = match lang {
        Lang::En => notes,
        Lang::Zh => notes_zh,
    };
    for n in notes {
        out.push_str(&format!("\n- {n}"));
    }
    out.push('\n');
}

fn parse_switch(field: &str, text: &str) -> Result<bool, ParamError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(ParamError::new(field, text, "on or off")),
    }
}

impl Knobs {
    /// Sets one knob from text, `field` being how the user named it (flag
    /// or URL key) for the error message.
    pub fn set(&mut self, knob: Knob, field: &str, text: &str) -> Result<(), ParamError> {
        match knob {
            Knob::BandLimit => self.band_limit = Some(parse_switch(field, text)?),
            Knob::SystemWork => self.system_work = Some(parse_switch(field, text)?),
            Knob::Timeline => self.timeline = parse_switch(field, text)?,
            Knob::Queues => self.queues = parse_count(field, text, 1, MAX_QUEUES)? as u32,
            Knob::EpRatio => self.ep_ratio = EP_RATIO_RANGE.parse(field, text)?,
            Knob::Seconds => self.seconds = parse_number(field, text, 0.5, false, 60.0, "s")?,
            Knob::Machine => {
                Machine::parse(field, text, self.ep_ratio)?;
                self.machine = Some(text.trim().to_ascii_lowercase());
            }
            Knob::Groups => {
                let allowed = "a comma-separated list of 1 to 6 QoS classes \
                    (userInteractive, userInitiated, default, utility, background, \
                    maintenance or 33, 25, 21, 17, 9, 5)";
                let groups: Option<Vec<Qos>> = text.split(',').map(Qos::parse).collect();
                match groups {
                    Some(g) if (1..=6).contains(&g.len()) => self.groups = g,
                    _ => return Err(ParamError::new(field, text, allowed)),
                }
            }
        }
        Ok(())
    }

    /// The machine knob, or `default` when unset.
    pub fn machine_or(&self, default: fn(f64) -> Machine) -> Machine {
        match &self.machine {
            Some(m) => Machine::parse("machine", m, self.ep_ratio)
                .unwrap_or_else(|_| default(self.ep_ratio)),
            None => default(self.ep_ratio),
        }
    }
}

/// One simulation of a scenario, kept for the page's Gantt chart and
/// timelines (only with `timeline` on).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunView {
    pub label: String,
    pub machine: Machine,
    #[serde(flatten)]
    pub run: RunResult,
}

/// A scenario's result: the JSON shapes of issue 4 (extra fields welcome).
/// `notes` and `calibration` are English; `notes_zh` and `calibration_zh`
/// say the same in Simplified Chinese, from the same figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ScenarioResult {
    FeishuDemo(FeishuDemoResult),
    FeishuStartup(FeishuStartupResult),
    M1Compress(M1CompressResult),
}

impl ScenarioResult {
    /// A plain-text report for the terminal, its notes and calibration in
    /// `lang` (the table itself stays English).
    pub fn to_text(&self, lang: Lang) -> String {
        match self {
            ScenarioResult::FeishuDemo(r) => r.to_text(lang),
            ScenarioResult::FeishuStartup(r) => r.to_text(lang),
            ScenarioResult::M1Compress(r) => r.to_text(lang),
        }
    }
}

/// Work a scenario may do in a browser tab (units of [`super::budget`]):
/// about 5 to 30 s in a worker on a laptop. The largest documented knob
/// settings (`nq=1000&secs=60&m=64p` and six groups) need a hundred times
/// more and used to keep the worker busy for minutes.
pub const WEB_WORK_BUDGET: u64 = 400_000_000;

/// [`run`] within a work budget, reporting progress: a run that would do
/// more is cut short and refused with a message naming the knobs that make
/// it large.
pub fn run_metered(
    name: &str,
    knobs: &Knobs,
    budget: u64,
    progress: Option<Box<dyn FnMut(super::budget::Progress)>>,
) -> Result<ScenarioResult, ParamError> {
    let (result, used) = super::budget::metered(budget, progress, || run(name, knobs));
    let result = result?;
    if used.exceeded {
        return Err(ParamError::new(
            "s",
            name,
            format!(
                "a run the browser can finish: this one was stopped after {budget} units of work \
                 (nq={}, secs={}, {} group(s), m={}); lower nq, secs or the number of groups, \
                 or pick a machine with fewer cores (m), or run it with the CLI \
                 (tailslice scenario {name})",
                knobs.queues,
                crate::error::fmt_number(knobs.seconds),
                knobs.groups.len(),
                knobs.machine.as_deref().unwrap_or("default"),
            ),
        ));
    }
    Ok(result)
}

/// Runs the named scenario.
pub fn run(name: &str, knobs: &Knobs) -> Result<ScenarioResult, ParamError> {
    match name {
        "feishu-demo" => Ok(ScenarioResult::FeishuDemo(feishu_demo::run(knobs))),
        "feishu-startup" => Ok(ScenarioResult::FeishuStartup(feishu_startup::run(knobs))),
        "m1-compress" => Ok(ScenarioResult::M1Compress(m1_compress::run(knobs))),
        _ => Err(ParamError::new(
            "scenario",
            name,
            "feishu-demo, feishu-startup or m1-compress",
        )),
    }
}
