//! The model's settings — the yield primitive and its cost, the quanta
//! tried, the window of inputs — as the CLI's flags and the page's URL keys
//! spell them, parsed and written back by one set of functions (the same
//! refusals in both, as for every other parameter).

use super::delay::Window;
use super::yielding::{CostFrom, YieldKind, Yielding, DEFAULT_YIELD_COST_MS, YIELD_COST_RANGE};
use crate::error::{fmt_number, unit, NumberRange, ParamError};
use crate::experiment::sweep::quantum_list;
use crate::experiment::QUANTUM_RANGE;
use crate::param_spec::{self, Params, Range, Spec, Unit};
use crate::text::{either, Text};

/// The quanta tried when none are given, ms: a frame and its multiples and
/// halves, with 48 and 64 either side of the 50 ms long-task line rather
/// than on it (at exactly 50 every full piece is a long task with no
/// blocking time, which reads oddly).
pub const DEFAULT_QUANTA_MS: [f64; 8] = [4.0, 8.0, 16.0, 24.0, 32.0, 48.0, 64.0, 100.0];
/// Most quanta in one list (the rows of one table).
pub const MAX_QUANTA: usize = 16;
/// A window's ends, ms from the first task's start.
pub(crate) const WINDOW_RANGE: NumberRange = NumberRange::new(0.0, 1e10, unit::MS);

/// An input's transit from the browser process to the page's main thread,
/// ms: Event Timing's clock starts when the browser received the input,
/// and even on an idle page the handler starts this much later. Measured
/// in headless Chromium (key presses through its input path, an idle main
/// thread; see docs/responsiveness.md).
pub(crate) const DEFAULT_TRANSIT_MS: f64 = 0.9;
/// The transit's range.
pub(crate) const TRANSIT_RANGE: NumberRange = NumberRange::new(0.001, 100.0, unit::MS).or_zero();

/// What `--quanta` and `resp_quanta` accept (the last `{}`: one quantum's
/// range).
const QUANTA_ALLOWED: Text = Text::new(
    "1 to {} quanta joined by commas, each {}, none twice (e.g. 4,16,48)",
    "1 到 {} 个用逗号隔开的时间片，每个为{}，不得重复（例如 4,16,48）",
);
/// What `--window` and `resp_window` accept (the `{}`: one end's range).
const WINDOW_ALLOWED: Text = Text::new(
    "START-END, two numbers of ms from the first task's start with END after START (e.g. 0-5000), each {}",
    "START-END：从第一个任务开始算起的两个数（ms），END 大于 START（例如 0-5000），每个为{}",
);

/// Every setting of the model.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub yielding: Yielding,
    pub cost_from: CostFrom,
    /// The quanta tried, ascending, no repeats.
    pub quanta: Vec<f64>,
    /// The inputs' window; `None`: the recorded tasks' span.
    pub window: Option<Window>,
    /// Added to every input delay the model gives, ms.
    pub transit_ms: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            yielding: Yielding::new(YieldKind::Scheduler, DEFAULT_YIELD_COST_MS),
            cost_from: CostFrom::Default,
            quanta: DEFAULT_QUANTA_MS.to_vec(),
            window: None,
            transit_ms: DEFAULT_TRANSIT_MS,
        }
    }
}

/// One setting (its row in [`RespParam::SPECS`]: URL key, CLI flag,
/// label and help; public contracts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RespParam {
    Yield,
    YieldCost,
    /// Where the yield cost came from: only the page writes it
    /// (`measured`, after "use my measured yield cost").
    CostFrom,
    Quanta,
    Window,
    /// The input's transit to the main thread.
    Transit,
}

impl Params for RespParam {
    const SPECS: &'static [Spec<RespParam>] = &SPECS;
}

impl RespParam {
    pub const ALL: [RespParam; 6] = param_spec::ids(&SPECS);
}

const SPECS: [Spec<RespParam>; 6] = [
    Spec {
        id: RespParam::Yield,
        key: "resp_yield",
        aliases: &[],
        flag: Some("--yield"),
        arg: "KIND",
        range: Range::Other,
        unit: None,
        label: Text::new("Yield with", "让出方式"),
        help: Text::new(
            "How a sliced task hands the main thread back: scheduler (scheduler.yield(), the continuation runs first), message (MessageChannel), timeout (setTimeout(0), 4 ms from a task's 5th yield) or raf (the next 60 Hz frame).",
            "切片后的任务如何把主线程交还：scheduler（scheduler.yield()，后续部分先运行）、message（MessageChannel）、timeout（setTimeout(0)，任务第 5 次让出起为 4 ms）或 raf（下一个 60 Hz 帧）。",
        ),
    },
    Spec {
        id: RespParam::YieldCost,
        key: "resp_cost",
        aliases: &[],
        flag: Some("--yield-cost"),
        arg: "",
        range: Range::Number(YIELD_COST_RANGE),
        unit: Some(Unit::Ms),
        label: Text::new("Cost per yield", "每次让出的开销"),
        help: Text::new(
            "Event-loop time per yield; the default is a typical event-loop turn without rendering.",
            "每次让出占用的事件循环时间；默认值为不含渲染的一次事件循环的典型用时。",
        ),
    },
    Spec {
        id: RespParam::CostFrom,
        key: "resp_cost_from",
        aliases: &[],
        flag: None,
        arg: "",
        range: Range::Other,
        unit: None,
        label: Text::new("Yield cost from", "让出开销的来源"),
        help: Text::new(
            "measured: resp_cost is the cost this browser measured (written by \"Use my measured yield cost\"); ignored without resp_cost.",
            "measured：resp_cost 为本浏览器测得的开销（由“使用我测得的让出开销”写入）；没有 resp_cost 时忽略。",
        ),
    },
    Spec {
        id: RespParam::Quanta,
        key: "resp_quanta",
        aliases: &[],
        flag: Some("--quanta"),
        arg: "LIST",
        range: Range::Other,
        unit: Some(Unit::Ms),
        label: Text::new("Quanta for the trade-off", "权衡图的时间片"),
        help: Text::new(
            "The quanta every task is sliced at (the trade-off chart's).",
            "每个任务按哪些时间片切分（权衡图所用的时间片）。",
        ),
    },
    Spec {
        id: RespParam::Window,
        key: "resp_window",
        aliases: &[],
        flag: Some("--window"),
        arg: "START-END",
        range: Range::Other,
        unit: Some(Unit::Ms),
        label: Text::new("Input window", "输入时间窗口"),
        help: Text::new(
            "When inputs arrive; default: the tasks' span.",
            "输入到达的时间段；默认为任务的时间跨度。",
        ),
    },
    Spec {
        id: RespParam::Transit,
        key: "transit",
        aliases: &[],
        flag: Some("--transit"),
        arg: "",
        range: Range::Number(TRANSIT_RANGE),
        unit: Some(Unit::Ms),
        label: Text::new("Input transit", "输入传递时间"),
        help: Text::new(
            "An input's way from the browser process to the page's main thread, added to every input delay; the default was measured in headless Chromium.",
            "输入从浏览器进程到页面主线程所用的时间，加到每个输入延迟上；默认值在 headless Chromium 中测得。",
        ),
    },
];

/// A list of quanta: ms joined by commas, each one `--quantum` accepts, at
/// most [`MAX_QUANTA`], no repeats. Returned ascending.
pub fn parse_quanta(field: &str, text: &str) -> Result<Vec<f64>, ParamError> {
    let mut out = quantum_list(field, text, MAX_QUANTA, || {
        QUANTUM_RANGE
            .allowed()
            .within(QUANTA_ALLOWED, &[&MAX_QUANTA.to_string()])
    })?;
    out.sort_unstable_by(f64::total_cmp);
    Ok(out)
}

/// A window `START-END`: ms from the first task's start, `START` from 0,
/// `END` after it.
pub(crate) fn parse_window(field: &str, text: &str) -> Result<Window, ParamError> {
    let bad = || {
        ParamError::new(
            field,
            text,
            WINDOW_RANGE.allowed().within(WINDOW_ALLOWED, &[]),
        )
    };
    // The separating '-': not the first character, not an exponent's sign.
    let t = text.trim();
    let at = t
        .char_indices()
        .find(|&(i, c)| c == '-' && i > 0 && !t[..i].ends_with(['e', 'E']))
        .map(|(i, _)| i)
        .ok_or_else(bad)?;
    let start = WINDOW_RANGE.parse(field, &t[..at]).map_err(|_| bad())?;
    let end = WINDOW_RANGE.parse(field, &t[at + 1..]).map_err(|_| bad())?;
    if end <= start {
        return Err(bad());
    }
    Ok(Window::new(start, end))
}

impl Settings {
    /// Sets one setting from its text; `field` is the flag or key as the
    /// user wrote it.
    pub fn set(&mut self, param: RespParam, field: &str, value: &str) -> Result<(), ParamError> {
        match param {
            RespParam::Yield => self.yielding.kind = YieldKind::parse(field, value)?,
            RespParam::YieldCost => {
                self.yielding.cost_ms = param.spec().number(field, value)?;
                if self.cost_from == CostFrom::Default {
                    self.cost_from = CostFrom::Given;
                }
            }
            RespParam::CostFrom => {
                self.cost_from = match value.trim() {
                    "given" => CostFrom::Given,
                    "measured" => CostFrom::Measured,
                    _ => {
                        return Err(ParamError::new(
                            field,
                            value,
                            either(&["given", "measured"]),
                        ))
                    }
                }
            }
            RespParam::Quanta => self.quanta = parse_quanta(field, value)?,
            RespParam::Window => self.window = Some(parse_window(field, value)?),
            RespParam::Transit => self.transit_ms = param.spec().number(field, value)?,
        }
        Ok(())
    }

    /// The setting's value as text, in the syntax `set` reads (empty for
    /// no window).
    pub fn get(&self, param: RespParam) -> String {
        match param {
            RespParam::Yield => self.yielding.kind.name().to_string(),
            RespParam::YieldCost => fmt_number(self.yielding.cost_ms),
            RespParam::CostFrom => self.cost_from.name().to_string(),
            RespParam::Quanta => self
                .quanta
                .iter()
                .map(|&q| fmt_number(q))
                .collect::<Vec<_>>()
                .join(","),
            RespParam::Window => self
                .window
                .map(|w| format!("{}-{}", fmt_number(w.start), fmt_number(w.end)))
                .unwrap_or_default(),
            RespParam::Transit => fmt_number(self.transit_ms),
        }
    }

    /// Reads the settings from decoded query pairs
    /// ([`param_spec::read_query`]: other keys are ignored, a bad value is
    /// reported and keeps its default, a repeat is reported). A cost with no
    /// `resp_cost` is the default whatever `resp_cost_from` says.
    pub fn from_query<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> (Settings, Vec<ParamError>) {
        let mut s = Settings::default();
        let mut cost_given = false;
        let errors = param_spec::read_query(pairs, |p, k, v| {
            s.set(p, k, v)?;
            cost_given |= p == RespParam::YieldCost;
            Ok(())
        });
        if !cost_given {
            s.cost_from = CostFrom::Default;
        }
        (s, errors)
    }

    /// Pairs for the settings that differ from the defaults, in
    /// [`RespParam::ALL`]'s order (`resp_cost_from` only when measured).
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        let d = Settings::default();
        RespParam::ALL
            .into_iter()
            .filter(|&p| match p {
                RespParam::YieldCost => self.cost_from != CostFrom::Default,
                RespParam::CostFrom => self.cost_from == CostFrom::Measured,
                _ => self.get(p) != d.get(p),
            })
            .map(|p| (p.url_key(), self.get(p)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The yield help's figures are the model's: its clamp, the nesting
    /// level it starts at and the frame rate.
    #[test]
    fn the_yield_help_says_the_models_figures() {
        use crate::error::fmt_number;
        use crate::responsiveness::yielding::{CHROMIUM_CLAMP_FROM, FRAME_MS, TIMEOUT_CLAMP_MS};
        let help = RespParam::Yield.spec().help;
        let clamp = format!("{} ms", fmt_number(TIMEOUT_CLAMP_MS));
        let hz = format!("{} Hz", fmt_number((1000.0 / FRAME_MS).round()));
        for text in [help.en, help.zh] {
            assert!(text.contains(&clamp) && text.contains(&hz), "{text}");
        }
        assert!(help.en.contains(&format!("{CHROMIUM_CLAMP_FROM}th yield")));
        assert!(help.zh.contains(&format!("第 {CHROMIUM_CLAMP_FROM} 次")));
    }

    #[test]
    fn defaults_are_not_written() {
        let (s, e) = Settings::from_query([("q", "8")]);
        assert!(e.is_empty());
        assert_eq!(s, Settings::default());
        assert!(s.to_query().is_empty());
    }

    #[test]
    fn values_round_trip() {
        let (s, e) = Settings::from_query([
            ("resp_yield", "timeout"),
            ("resp_cost", "0.26"),
            ("resp_cost_from", "measured"),
            ("resp_quanta", "48,4,16"),
            ("resp_window", "100-5000"),
        ]);
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(s.quanta, [4.0, 16.0, 48.0]);
        assert_eq!(s.cost_from, CostFrom::Measured);
        let q = s.to_query();
        assert_eq!(
            q,
            vec![
                ("resp_yield", "timeout".to_string()),
                ("resp_cost", "0.26".to_string()),
                ("resp_cost_from", "measured".to_string()),
                ("resp_quanta", "4,16,48".to_string()),
                ("resp_window", "100-5000".to_string()),
            ]
        );
        let back = Settings::from_query(q.iter().map(|(k, v)| (*k, v.as_str()))).0;
        assert_eq!(back, s);
        // The default cost, given on purpose, stays in the link.
        let (s, _) = Settings::from_query([("resp_cost", "0.1")]);
        assert_eq!(s.cost_from, CostFrom::Given);
        assert_eq!(s.to_query(), vec![("resp_cost", "0.1".to_string())]);
        // "measured" without a cost means nothing.
        let (s, _) = Settings::from_query([("resp_cost_from", "measured")]);
        assert_eq!(s, Settings::default());
    }

    #[test]
    fn bad_values_name_the_field_and_what_is_allowed() {
        let mut s = Settings::default();
        let msg = |r: Result<(), ParamError>| r.unwrap_err().to_string();
        assert_eq!(
            msg(s.set(RespParam::Yield, "--yield", "auto")),
            "invalid --yield 'auto': expected scheduler, message, timeout or raf"
        );
        assert_eq!(
            msg(s.set(RespParam::YieldCost, "--yield-cost", "-1")),
            "invalid --yield-cost '-1': expected 0 or a number of ms from 0.001 to 1000"
        );
        assert!(msg(s.set(RespParam::Quanta, "--quanta", "4,4")).starts_with(
            "invalid --quanta '4,4': expected 1 to 16 quanta joined by commas, each a number of ms from 0.001 to 100000"
        ));
        for bad in ["", "0", "4,,8", "NaN", "1e400", &"1,".repeat(17)] {
            assert!(parse_quanta("--quanta", bad).is_err(), "{bad:?}");
        }
        assert!(msg(s.set(RespParam::Window, "--window", "5-5"))
            .starts_with("invalid --window '5-5': expected START-END"));
        for bad in ["", "5", "-1-5", "5-1", "a-b", "0-inf", "0-1e11", "1-2-3"] {
            assert!(parse_window("--window", bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            parse_window("w", " 1e2-2E3 "),
            Ok(Window::new(100.0, 2000.0))
        );
        assert_eq!(parse_window("w", "0-0.5"), Ok(Window::new(0.0, 0.5)));
        assert_eq!(s, Settings::default());
    }

    #[test]
    fn the_transit_is_a_setting_like_the_others() {
        let (s, e) = Settings::from_query([("transit", "0.85")]);
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(s.transit_ms, 0.85);
        assert_eq!(s.to_query(), vec![("transit", "0.85".to_string())]);
        let (s, e) = Settings::from_query([("transit", "0")]);
        assert!(e.is_empty());
        assert_eq!(s.transit_ms, 0.0);
        let mut s = Settings::default();
        assert_eq!(
            s.set(RespParam::Transit, "--transit", "-1")
                .unwrap_err()
                .to_string(),
            "invalid --transit '-1': expected 0 or a number of ms from 0.001 to 100"
        );
        assert_eq!(s.transit_ms, DEFAULT_TRANSIT_MS);
        assert!(Settings::default().to_query().is_empty());
    }

    #[test]
    fn flags_and_keys_name_the_same_settings() {
        assert_eq!(
            RespParam::from_flag("--yield-cost"),
            Some(RespParam::YieldCost)
        );
        assert_eq!(
            RespParam::from_url_key("resp_window"),
            Some(RespParam::Window)
        );
        assert_eq!(RespParam::from_flag("--resp_cost_from"), None);
    }
}
