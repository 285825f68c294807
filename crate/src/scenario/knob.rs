//! The scenarios' knobs: each named once here ([`Knob`]: CLI flag, URL key,
//! range, default, labels in English and Chinese) and validated once
//! ([`Knobs::set`]), so the CLI, the URL and the page's controls accept and
//! refuse the same values with the same words.
//!
//! A knob's range belongs to the knob, not to a scenario: a command line or
//! a URL may set `--queues` before it names the scenario, so a value is
//! checked when it is read. A scenario says which knobs it reads
//! ([`super::Scenario::knobs`]); the others are accepted and ignored, as
//! the CLI always did.

use serde::Serialize;

use crate::error::{parse_count, unit, NumberRange, ParamError};
use crate::sim::machine::{Machine, M1_EP_RATIO};
use crate::sim::Qos;
pub use crate::text::Text;

use super::feishu_demo;

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

/// An efficiency core's speed relative to a performance core: from 1/20
/// (slower than that, a job would not finish in any simulated span) to 4.
pub const EP_RATIO_RANGE: NumberRange = NumberRange::new(
    0.05,
    4.0,
    Text::new(
        "a number of times a P core's speed",
        "倍数（E 核相对 P 核的速度）",
    ),
);

/// Largest number of spinning queues in `feishu-demo`.
pub const MAX_QUEUES: u64 = 1000;

/// Simulated seconds of `feishu-demo`: at least half a second (the decay
/// needs a few ticks to show), at most a minute (a browser's patience).
pub const SECONDS_MIN: f64 = 0.5;
pub const SECONDS_MAX: f64 = 60.0;
pub const SECONDS_RANGE: NumberRange = NumberRange::new(SECONDS_MIN, SECONDS_MAX, unit::SECONDS);

/// Most QoS groups `feishu-demo` runs (one simulation each).
pub const MAX_GROUPS: usize = 6;

/// Machines offered as suggestions next to the machine knob (any
/// [`Machine::parse`] spec is accepted).
pub const MACHINE_EXAMPLES: [&str; 4] = ["a10", "m1", "xeon-w", "2p+4e"];

/// What kind of value a knob takes, with its range: what a control for it
/// needs to know.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum KnobRange {
    /// `on` or `off`; `unset` labels the choice "leave it to the
    /// scenario" (absent: the knob always has a value).
    Switch {
        unset: Option<Text>,
        on: Text,
        off: Text,
    },
    /// A number from `min` to `max` (inclusive) in steps of `step`.
    Number {
        min: f64,
        max: f64,
        step: f64,
        integer: bool,
    },
    /// Free text checked by [`Knobs::set`]; `examples` are suggestions.
    Text {
        examples: &'static [&'static str],
        /// Shown when empty (the scenario's default applies).
        placeholder: Option<Text>,
    },
}

/// A knob as a control shows it: label, help and range.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct KnobSpec {
    pub label: Text,
    pub help: Option<Text>,
    pub range: KnobRange,
}

const ON: Text = Text::new("on", "开");
const OFF: Text = Text::new("off", "关");

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

    /// The knob as the page's control shows it.
    pub fn spec(self) -> KnobSpec {
        let (label, help, range) = match self {
            Knob::BandLimit => (
                Text::new("Band limit (priority floor)", "优先级下限"),
                None,
                KnobRange::Switch {
                    unset: Some(Text::new("machine's default", "机器默认")),
                    on: Text::new(
                        "on (iOS ≤ 12: floor base − 18)",
                        "开（iOS ≤ 12：下限为基础优先级 − 18）",
                    ),
                    off: Text::new("off (macOS)", "关（macOS）"),
                },
            ),
            Knob::Queues => (
                Text::new("Spinning queues", "空转队列数"),
                None,
                KnobRange::Number {
                    min: 1.0,
                    max: MAX_QUEUES as f64,
                    step: 1.0,
                    integer: true,
                },
            ),
            Knob::Groups => (
                Text::new("QoS per group", "各组的 QoS"),
                Some(Text::new(
                    "one run per group, comma-separated: userInteractive, userInitiated, \
                     default, utility, background, maintenance (or 33, 25, 21, 17, 9, 5)",
                    "每组运行一次，逗号分隔：userInteractive、userInitiated、default、utility、\
                     background、maintenance（或 33、25、21、17、9、5）",
                )),
                KnobRange::Text {
                    examples: &[],
                    placeholder: None,
                },
            ),
            Knob::Machine => (
                Text::new("Machine", "机器"),
                Some(Text::new(
                    "a10, m1, xeon-w or P+E cores like 2p+4e",
                    "a10、m1、xeon-w 或如 2p+4e 的性能核+能效核",
                )),
                KnobRange::Text {
                    examples: &MACHINE_EXAMPLES,
                    placeholder: Some(Text::new("scenario's default", "场景默认")),
                },
            ),
            Knob::EpRatio => (
                Text::new("E/P core speed ratio", "能效核/性能核速度比"),
                Some(Text::new("calibrated 0.30 for M1", "M1 校准值为 0.30")),
                KnobRange::Number {
                    min: EP_RATIO_RANGE.min,
                    max: EP_RATIO_RANGE.max,
                    step: 0.01,
                    integer: false,
                },
            ),
            Knob::SystemWork => (
                Text::new(
                    "Other system work (~1.3 % per core)",
                    "其他系统负载（每核约 1.3 %）",
                ),
                None,
                KnobRange::Switch {
                    unset: Some(Text::new("default", "默认")),
                    on: ON,
                    off: OFF,
                },
            ),
            Knob::Seconds => (
                Text::new("Simulated seconds", "模拟时长（秒）"),
                None,
                KnobRange::Number {
                    min: SECONDS_MIN,
                    max: SECONDS_MAX,
                    step: 0.5,
                    integer: false,
                },
            ),
            Knob::Timeline => (
                Text::new(
                    "Timelines (Gantt and thread states)",
                    "时间线（甘特图与线程状态）",
                ),
                None,
                KnobRange::Switch {
                    unset: None,
                    on: ON,
                    off: OFF,
                },
            ),
        };
        KnobSpec { label, help, range }
    }

    pub fn from_flag(flag: &str) -> Option<Knob> {
        Knob::ALL.into_iter().find(|k| k.flag() == flag)
    }

    pub fn from_url_key(key: &str) -> Option<Knob> {
        Knob::ALL.into_iter().find(|k| k.url_key() == key)
    }
}

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

fn parse_switch(field: &str, text: &str) -> Result<bool, ParamError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(ParamError::new(
            field,
            text,
            Text::new("on or off", "on 或 off"),
        )),
    }
}

fn switch_text(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
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
            Knob::Seconds => self.seconds = SECONDS_RANGE.parse(field, text)?,
            Knob::Machine => {
                Machine::parse(field, text, self.ep_ratio)?;
                self.machine = Some(Machine::spec(text));
            }
            Knob::Groups => {
                const ALLOWED: Text = Text::new(
                    "a comma-separated list of 1 to 6 QoS classes \
                     (userInteractive, userInitiated, default, utility, background, \
                     maintenance or 33, 25, 21, 17, 9, 5)",
                    "以逗号分隔的 1 到 6 个 QoS 类\
                     （userInteractive、userInitiated、default、utility、background、\
                     maintenance 或 33、25、21、17、9、5）",
                );
                let groups: Option<Vec<Qos>> = text.split(',').map(Qos::parse).collect();
                match groups {
                    Some(g) if (1..=MAX_GROUPS).contains(&g.len()) => self.groups = g,
                    _ => return Err(ParamError::new(field, text, ALLOWED)),
                }
            }
        }
        Ok(())
    }

    /// A knob's value as text [`Knobs::set`] reads back (`None`: the
    /// scenario's default).
    pub fn text(&self, knob: Knob) -> Option<String> {
        match knob {
            Knob::BandLimit => self.band_limit.map(switch_text),
            Knob::SystemWork => self.system_work.map(switch_text),
            Knob::Timeline => Some(switch_text(self.timeline)),
            Knob::Queues => Some(self.queues.to_string()),
            Knob::Groups => Some(
                self.groups
                    .iter()
                    .map(|q| q.name())
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            Knob::Machine => self.machine.clone(),
            Knob::EpRatio => Some(crate::error::fmt_number(self.ep_ratio)),
            Knob::Seconds => Some(crate::error::fmt_number(self.seconds)),
        }
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
