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

use crate::error::{unit, NumberRange, ParamError};
use crate::param_spec::{self, Params, Range, Spec, Unit};
use crate::policy::{ClutchRules, PolicyKind};
use crate::sim::machine::{Machine, M1_EP_RATIO};
use crate::sim::Qos;
use crate::text::Filled;
pub use crate::text::Text;
use crate::workload::programs::WorkerCap;

use super::feishu_demo;

/// Every knob (its row in [`Knob::SPECS`]: CLI flag, URL key, range,
/// label and help; a public contract, like `crate::experiment::Param`).
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
    /// The scheduling class every run of the scenario uses.
    Policy,
    /// Which xnu release's Clutch rules `clutch` follows.
    ClutchRules,
    /// GCD's cap on a process's workers.
    GcdCap,
}

/// An efficiency core's speed relative to a performance core: from 1/20
/// (slower than that, a job would not finish in any simulated span) to 4.
pub(crate) const EP_RATIO_RANGE: NumberRange = NumberRange::new(
    0.05,
    4.0,
    Text::new(
        "a number of times a P core's speed",
        "倍数（E 核相对 P 核的速度）",
    ),
);

/// Largest number of spinning queues in `feishu-demo`.
pub(crate) const MAX_QUEUES: u64 = 1000;

/// Simulated seconds of `feishu-demo`: at least half a second (the decay
/// needs a few ticks to show), at most a minute (a browser's patience).
pub(crate) const SECONDS_MIN: f64 = 0.5;
pub(crate) const SECONDS_MAX: f64 = 60.0;
pub(crate) const SECONDS_RANGE: NumberRange =
    NumberRange::new(SECONDS_MIN, SECONDS_MAX, unit::SECONDS);

/// Most QoS groups `feishu-demo` runs (one simulation each).
pub(crate) const MAX_GROUPS: usize = 6;

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
    /// One of a few values (`unset`: the choice "leave it to the
    /// scenario", absent when the knob always has a value).
    Choice {
        unset: Option<Text>,
        options: &'static [KnobOption],
    },
    /// Free text checked by [`Knobs::set`]; `examples` are suggestions.
    Text {
        examples: &'static [&'static str],
        /// Shown when empty (the scenario's default applies).
        placeholder: Option<Text>,
    },
}

/// One value of a [`KnobRange::Choice`]: as the URL writes it, and as the
/// control labels it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct KnobOption {
    pub value: &'static str,
    pub label: Text,
}

const POLICY_OPTIONS: [KnobOption; 8] = [
    KnobOption {
        value: "xnu",
        label: Text::new(
            "xnu: timeshare, before Clutch (default)",
            "xnu：分时调度，Clutch 之前（默认）",
        ),
    },
    KnobOption {
        value: "clutch",
        label: Text::new(
            "clutch: Clutch/Edge (macOS 11+, iOS 13+)",
            "clutch：Clutch/Edge（macOS 11+、iOS 13+）",
        ),
    },
    KnobOption {
        value: "rr",
        label: Text::new("rr: round-robin, no QoS", "rr：轮转，不看 QoS"),
    },
    KnobOption {
        value: "mlfq",
        label: Text::new(
            "mlfq: multi-level feedback queue, no QoS",
            "mlfq：多级反馈队列，不看 QoS",
        ),
    },
    KnobOption {
        value: "fifo",
        label: Text::new("fifo: first come, no QoS", "fifo：先来先服务，不看 QoS"),
    },
    KnobOption {
        value: "sjf",
        label: Text::new("sjf: shortest job first", "sjf：短作业优先"),
    },
    KnobOption {
        value: "srpt",
        label: Text::new("srpt: shortest remaining time", "srpt：最短剩余时间优先"),
    },
    KnobOption {
        value: "eevdf",
        label: Text::new(
            "eevdf: Linux's fair class, no QoS (every thread nice 0)",
            "eevdf：Linux 公平调度类，不看 QoS（每个线程 nice 0）",
        ),
    },
];

const CLUTCH_RULES_OPTIONS: [KnobOption; 3] = [
    KnobOption {
        value: "7195",
        label: Text::new(
            "xnu-7195: macOS 11–13.2, iOS 14–16.3 (group boost)",
            "xnu-7195：macOS 11–13.2、iOS 14–16.3（线程组提升）",
        ),
    },
    KnobOption {
        value: "8796",
        label: Text::new(
            "xnu-8796: macOS 13.3–14 (no boost)",
            "xnu-8796：macOS 13.3–14（无提升）",
        ),
    },
    KnobOption {
        value: "11215",
        label: Text::new("xnu-11215: macOS 15, iOS 18", "xnu-11215：macOS 15、iOS 18"),
    },
];

const GCD_CAP_OPTIONS: [KnobOption; 3] = [
    KnobOption {
        value: "per-item",
        label: Text::new(
            "per item (GCD: each chunk admitted in turn)",
            "按工作项（GCD：每块依次准入）",
        ),
    },
    KnobOption {
        value: "held",
        label: Text::new(
            "held (a worker keeps its slot for the whole job)",
            "占用（工作线程整个任务期间占着名额）",
        ),
    },
    KnobOption {
        value: "off",
        label: Text::new("off (no cap)", "关（无上限）"),
    },
];

/// A knob as a control shows it: label, help and range.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KnobSpec {
    pub label: Filled,
    pub help: Option<Text>,
    pub range: KnobRange,
}

const ON: Text = Text::new("on", "开");
const OFF: Text = Text::new("off", "关");

impl Params for Knob {
    const SPECS: &'static [Spec<Knob>] = &SPECS;
}

const SPECS: [Spec<Knob>; 11] = [
    Spec {
        id: Knob::BandLimit,
        key: "bl",
        aliases: &[],
        flag: Some("--band-limit"),
        arg: "SWITCH",
        range: Range::Other,
        unit: None,
        label: Text::new("Band limit (priority floor)", "优先级下限"),
        help: Text::new(
            "on|off: the priority decay floor; default: the machine's kernel.",
            "on|off：优先级衰减的下限；默认取决于机器的内核。",
        ),
    },
    Spec {
        id: Knob::Queues,
        key: "nq",
        aliases: &[],
        flag: Some("--queues"),
        arg: "N",
        range: Range::Count {
            min: 1,
            max: MAX_QUEUES,
        },
        unit: None,
        label: Text::new("Spinning queues", "空转队列数"),
        help: Text::new(
            "Spinning queues in feishu-demo.",
            "feishu-demo 中空转的队列数。",
        ),
    },
    Spec {
        id: Knob::Groups,
        key: "groups",
        aliases: &[],
        flag: Some("--groups"),
        arg: "LIST",
        range: Range::Other,
        unit: None,
        label: Text::new("QoS per group", "各组的 QoS"),
        help: Text::new(
            "The QoS of each feishu-demo group, e.g. userInitiated,utility.",
            "feishu-demo 各组的 QoS，例如 userInitiated,utility。",
        ),
    },
    Spec {
        id: Knob::Machine,
        key: "m",
        aliases: &[],
        flag: Some("--machine"),
        arg: "M",
        range: Range::Other,
        unit: None,
        label: Text::new("Machine", "机器"),
        help: Text::new(
            "The machine: a10, m1, xeon-w or <P>p+<E>e; default per scenario.",
            "机器：a10、m1、xeon-w 或 <P>p+<E>e；默认取决于场景。",
        ),
    },
    Spec {
        id: Knob::EpRatio,
        key: "ep",
        aliases: &[],
        flag: Some("--ep-ratio"),
        arg: "",
        range: Range::Number(EP_RATIO_RANGE),
        unit: Some(Unit::Factor),
        label: Text::new("E/P core speed ratio", "能效核/性能核速度比"),
        help: Text::new(
            "E-core speed relative to a P core (0.30 is the M1 calibration).",
            "能效核相对性能核的速度（0.30 为 M1 的校准值）。",
        ),
    },
    Spec {
        id: Knob::SystemWork,
        key: "sys",
        aliases: &[],
        flag: Some("--system-work"),
        arg: "SWITCH",
        range: Range::Other,
        unit: None,
        label: Text::new(
            "Other system work (~1.3 % per core)",
            "其他系统负载（每核约 1.3 %）",
        ),
        help: Text::new(
            "on|off: ~1.3 % other system work on every core.",
            "on|off：每个核上约 1.3 % 的其他系统负载。",
        ),
    },
    Spec {
        id: Knob::Seconds,
        key: "secs",
        aliases: &[],
        flag: Some("--seconds"),
        arg: "",
        range: Range::Number(SECONDS_RANGE),
        unit: Some(Unit::Seconds),
        label: Text::new("Simulated time", "模拟时长"),
        help: Text::new(
            "How long feishu-demo is simulated.",
            "feishu-demo 模拟的时长。",
        ),
    },
    Spec {
        id: Knob::Timeline,
        key: "tl",
        aliases: &[],
        flag: Some("--timeline"),
        arg: "SWITCH",
        range: Range::Other,
        unit: None,
        label: Text::new(
            "Timelines (Gantt and thread states)",
            "时间线（甘特图与线程状态）",
        ),
        help: Text::new(
            "on|off: keep per-core segments and thread states.",
            "on|off：保留每核的调度片段与线程状态。",
        ),
    },
    Spec {
        id: Knob::Policy,
        key: "pol",
        aliases: &[],
        flag: Some("--policy"),
        arg: "P",
        range: Range::Other,
        unit: None,
        label: Text::new("Scheduling policy", "调度策略"),
        help: Text::new(
            "The scheduling class of every run.",
            "每次运行使用的调度类。",
        ),
    },
    Spec {
        id: Knob::ClutchRules,
        key: "cr",
        aliases: &[],
        flag: Some("--clutch-rules"),
        arg: "REL",
        range: Range::Other,
        unit: None,
        label: Text::new("Clutch rules (xnu release)", "Clutch 规则（xnu 版本）"),
        help: Text::new(
            "The xnu release whose Clutch rules clutch follows.",
            "clutch 遵循哪个 xnu 版本的 Clutch 规则。",
        ),
    },
    Spec {
        id: Knob::GcdCap,
        key: "gcd",
        aliases: &[],
        flag: Some("--gcd-cap"),
        arg: "CAP",
        range: Range::Other,
        unit: None,
        label: Text::new("GCD worker cap", "GCD 工作线程上限"),
        help: Text::new(
            "GCD's cap on a process's workers (m1-compress).",
            "GCD 对一个进程的工作线程数的上限（m1-compress）。",
        ),
    },
];

impl Knob {
    pub const ALL: [Knob; 11] = param_spec::ids(&SPECS);

    /// The CLI flag (every knob has one).
    pub fn flag(self) -> &'static str {
        self.spec().flag.unwrap_or_default()
    }

    /// The knob as the page's control shows it (its label is the spec
    /// row's).
    pub fn control(self) -> KnobSpec {
        let (help, range) = match self {
            Knob::BandLimit => (
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
                None,
                KnobRange::Number {
                    min: 1.0,
                    max: MAX_QUEUES as f64,
                    step: 1.0,
                    integer: true,
                },
            ),
            Knob::Groups => (
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
                Some(Text::new("calibrated 0.30 for M1", "M1 校准值为 0.30")),
                KnobRange::Number {
                    min: EP_RATIO_RANGE.min,
                    max: EP_RATIO_RANGE.max,
                    step: 0.01,
                    integer: false,
                },
            ),
            Knob::SystemWork => (
                None,
                KnobRange::Switch {
                    unset: Some(Text::new("default", "默认")),
                    on: ON,
                    off: OFF,
                },
            ),
            Knob::Seconds => (
                None,
                KnobRange::Number {
                    min: SECONDS_MIN,
                    max: SECONDS_MAX,
                    step: 0.5,
                    integer: false,
                },
            ),
            Knob::Timeline => (
                None,
                KnobRange::Switch {
                    unset: None,
                    on: ON,
                    off: OFF,
                },
            ),
            Knob::Policy => (
                Some(Text::new(
                    "the class every run uses: xnu is the kernel the studies measured",
                    "每次运行使用的调度类：xnu 是研究所测的内核",
                )),
                KnobRange::Choice {
                    unset: None,
                    options: &POLICY_OPTIONS,
                },
            ),
            Knob::ClutchRules => (
                Some(Text::new(
                    "read by clutch: thread-group boost, starvation window, ageout",
                    "clutch 使用：线程组提升、防饥饿窗口、老化",
                )),
                KnobRange::Choice {
                    unset: None,
                    options: &CLUTCH_RULES_OPTIONS,
                },
            ),
            Knob::GcdCap => (
                Some(Text::new(
                    "at most the machine's parallelism for a QoS (the E cores for background) per process",
                    "每个进程同一 QoS 至多为机器的并行度（background 为能效核数）",
                )),
                KnobRange::Choice {
                    unset: Some(Text::new("scenario's default", "场景默认")),
                    options: &GCD_CAP_OPTIONS,
                },
            ),
        };
        KnobSpec {
            label: self.spec().label(),
            help,
            range,
        }
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
    /// The class every run uses.
    pub policy: PolicyKind,
    pub clutch_rules: ClutchRules,
    /// `None`: the scenario's default.
    pub gcd_cap: Option<WorkerCap>,
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
            policy: PolicyKind::Xnu,
            clutch_rules: ClutchRules::default(),
            gcd_cap: None,
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
            Knob::Queues => self.queues = knob.spec().count(field, text)? as u32,
            Knob::EpRatio => self.ep_ratio = knob.spec().number(field, text)?,
            Knob::Seconds => self.seconds = knob.spec().number(field, text)?,
            Knob::Machine => {
                Machine::parse(field, text, self.ep_ratio)?;
                self.machine = Some(Machine::spec(text));
            }
            Knob::Policy => {
                self.policy = PolicyKind::parse(field, text)?;
            }
            Knob::ClutchRules => {
                self.clutch_rules = ClutchRules::parse(text).ok_or_else(|| {
                    ParamError::new(
                        field,
                        text,
                        Text::new(
                            "7195, 8796 or 11215 (an xnu release)",
                            "7195、8796 或 11215（xnu 的版本）",
                        ),
                    )
                })?;
            }
            Knob::GcdCap => {
                self.gcd_cap = Some(WorkerCap::parse(text).ok_or_else(|| {
                    ParamError::new(
                        field,
                        text,
                        Text::new("per-item, held or off", "per-item、held 或 off"),
                    )
                })?);
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
            Knob::Policy => Some(self.policy.name().to_string()),
            Knob::ClutchRules => Some(self.clutch_rules.name().to_string()),
            Knob::GcdCap => self.gcd_cap.map(|c| c.name().to_string()),
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
