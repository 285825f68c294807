//! The real run's settings (scale, repeats, yield primitive): URL keys
//! validated here with the same [`ParamError`] messages as every other key.
//! Absent keys are the defaults and are never written back, so links made
//! before the panel existed open unchanged.

use crate::error::{unit, NumberRange, ParamError};
use crate::param_spec::{self, Params, Range, Spec, Unit};
use crate::responsiveness::yielding::{YieldKind, FRAME_MS, TIMEOUT_CLAMP_MS};
use crate::text::Text;

/// Largest scale factor: ten times the model's durations is already a long
/// wait on a phone.
pub(crate) const MAX_SCALE: f64 = 10.0;
/// Smallest scale factor: below this the clock's resolution (100 µs when the
/// page is not isolated) is as long as the shortest slices.
pub(crate) const MIN_SCALE: f64 = 0.001;
/// A fixed scale's range.
pub(crate) const SCALE_RANGE: NumberRange = NumberRange::new(MIN_SCALE, MAX_SCALE, unit::FACTOR);
pub(crate) const MIN_REPEATS: u64 = 1;
pub(crate) const MAX_REPEATS: u64 = 20;
pub(crate) const DEFAULT_REPEATS: u32 = 3;
/// `real_scale=auto` picks the scale at which one pass (one policy, every
/// task once) is about this much busy time, never more than 1×.
pub(crate) const AUTO_PASS_MS: f64 = 1000.0;

/// How the sliced run hands the event loop back between slices: one of the
/// model's primitives, or `auto` (the best the browser has).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RealYield {
    /// `scheduler.yield()` where the browser has it, else a `MessageChannel`
    /// message (the page says which one it used).
    Auto,
    Primitive(YieldKind),
}

impl RealYield {
    pub(crate) const ALL: [RealYield; 5] = [
        RealYield::Auto,
        RealYield::Primitive(YieldKind::Scheduler),
        RealYield::Primitive(YieldKind::Message),
        RealYield::Primitive(YieldKind::Timeout),
        RealYield::Primitive(YieldKind::Raf),
    ];

    /// The URL value.
    pub(crate) fn name(self) -> &'static str {
        match self {
            RealYield::Auto => "auto",
            RealYield::Primitive(k) => k.name(),
        }
    }

    /// How the primitive is written in JavaScript, for the results.
    pub(crate) fn code(self) -> &'static str {
        match self {
            RealYield::Auto => "scheduler.yield() or MessageChannel",
            RealYield::Primitive(k) => k.written(),
        }
    }

    /// What one yield of this kind is assumed to cost before anything was
    /// measured (ms), for the panel's time estimate: a timeout waits at
    /// least the nested-timer clamp, a frame-aligned yield a frame; a
    /// message or `scheduler.yield()` has no floor of its own, only the
    /// event loop's turn (a few tens of µs).
    pub(crate) fn assumed_ms(self) -> f64 {
        match self {
            RealYield::Auto | RealYield::Primitive(YieldKind::Scheduler | YieldKind::Message) => {
                0.05
            }
            RealYield::Primitive(YieldKind::Timeout) => TIMEOUT_CLAMP_MS,
            RealYield::Primitive(YieldKind::Raf) => FRAME_MS,
        }
    }

    pub fn parse(field: &str, text: &str) -> Result<RealYield, ParamError> {
        let t = text.trim();
        RealYield::ALL
            .into_iter()
            .find(|k| k.name() == t)
            .ok_or_else(|| {
                ParamError::new(
                    field,
                    text,
                    crate::text::either(&RealYield::ALL.map(RealYield::name)),
                )
            })
    }
}

/// The scale factor: `auto` or a fixed number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    Auto,
    Fixed(f64),
}

impl Scale {
    /// The factor for a workload of `total_work_ms` per pass.
    pub(crate) fn factor(self, total_work_ms: f64) -> f64 {
        match self {
            Scale::Fixed(s) => s,
            Scale::Auto if total_work_ms > AUTO_PASS_MS => {
                (AUTO_PASS_MS / total_work_ms).max(MIN_SCALE)
            }
            Scale::Auto => 1.0,
        }
    }

    fn text(self) -> String {
        match self {
            Scale::Auto => "auto".to_string(),
            Scale::Fixed(s) => s.to_string(),
        }
    }
}

/// Every setting of the "Run for real" panel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RealSettings {
    pub scale: Scale,
    pub repeats: u32,
    pub yield_kind: RealYield,
}

impl Default for RealSettings {
    fn default() -> Self {
        RealSettings {
            scale: Scale::Auto,
            repeats: DEFAULT_REPEATS,
            yield_kind: RealYield::Auto,
        }
    }
}

/// One URL key of the panel (its row in [`RealParam::SPECS`]; a public
/// contract, like the experiment's keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RealParam {
    Scale,
    Repeats,
    Yield,
}

impl Params for RealParam {
    const SPECS: &'static [Spec<RealParam>] = &SPECS;
}

impl RealParam {
    pub(crate) const ALL: [RealParam; 3] = param_spec::ids(&SPECS);
}

const SPECS: [Spec<RealParam>; 3] = [
    Spec {
        id: RealParam::Scale,
        key: "real_scale",
        aliases: &[],
        flag: None,
        arg: "",
        range: Range::Number(SCALE_RANGE),
        unit: Some(Unit::Factor),
        label: Text::new("Scale", "比例"),
        help: Text::new(
            "\"Run for real\": a factor applied to every task and the quantum; auto: one pass is about 1 s of busy work, never above 1×.",
            "“真实运行”：乘到每个任务和时间片上的倍数；auto：一轮约 1 秒的忙碌工作，不超过 1×。",
        ),
    },
    Spec {
        id: RealParam::Repeats,
        key: "real_repeats",
        aliases: &[],
        flag: None,
        arg: "",
        range: Range::Count {
            min: MIN_REPEATS,
            max: MAX_REPEATS,
        },
        unit: None,
        label: Text::new("Repeats", "重复次数"),
        help: Text::new(
            "\"Run for real\": repeats of FIFO and sliced.",
            "“真实运行”：FIFO 与切片各重复的次数。",
        ),
    },
    Spec {
        id: RealParam::Yield,
        key: "real_yield",
        aliases: &[],
        flag: None,
        arg: "",
        range: Range::Other,
        unit: None,
        label: Text::new("Yield with", "让出方式"),
        help: Text::new(
            "\"Run for real\": how the sliced run yields; auto: scheduler.yield() where it exists, else a MessageChannel message.",
            "“真实运行”：切片运行如何让出；auto：有 scheduler.yield() 时用它，否则用 MessageChannel 消息。",
        ),
    },
];

impl RealSettings {
    /// Sets one key from URL text (`field` is the key as written).
    pub(crate) fn set(
        &mut self,
        param: RealParam,
        field: &str,
        value: &str,
    ) -> Result<(), ParamError> {
        match param {
            RealParam::Scale => {
                self.scale = if value.trim() == "auto" {
                    Scale::Auto
                } else {
                    let s = param.spec().number(field, value).map_err(|e| ParamError {
                        allowed: e.allowed.within(Text::new("auto or {}", "auto 或 {}"), &[]),
                        ..e
                    })?;
                    Scale::Fixed(s)
                }
            }
            RealParam::Repeats => self.repeats = param.spec().count(field, value)? as u32,
            RealParam::Yield => self.yield_kind = RealYield::parse(field, value)?,
        }
        Ok(())
    }

    /// The key's value as text, in the syntax `set` reads.
    pub(crate) fn get(&self, param: RealParam) -> String {
        match param {
            RealParam::Scale => self.scale.text(),
            RealParam::Repeats => self.repeats.to_string(),
            RealParam::Yield => self.yield_kind.name().to_string(),
        }
    }

    /// Reads the panel's keys from decoded query pairs
    /// ([`param_spec::read_query`]).
    pub fn from_query<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> (RealSettings, Vec<ParamError>) {
        let mut s = RealSettings::default();
        let errors = param_spec::read_query(pairs, |p, k, v| s.set(p, k, v));
        (s, errors)
    }

    /// Pairs for the keys that differ from the defaults.
    pub(crate) fn to_query(self) -> Vec<(&'static str, String)> {
        let d = RealSettings::default();
        RealParam::ALL
            .into_iter()
            .filter(|&p| self.get(p) != d.get(p))
            .map(|p| (p.url_key(), self.get(p)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_keys_are_defaults_and_not_written() {
        let (s, e) = RealSettings::from_query([("q", "8"), ("seed", "1")]);
        assert!(e.is_empty());
        assert_eq!(s, RealSettings::default());
        assert!(s.to_query().is_empty());
    }

    #[test]
    fn values_round_trip() {
        let (s, e) = RealSettings::from_query([
            ("real_scale", "0.05"),
            ("real_repeats", "5"),
            ("real_yield", "raf"),
        ]);
        assert!(e.is_empty(), "{e:?}");
        let q = s.to_query();
        assert_eq!(
            q,
            vec![
                ("real_scale", "0.05".to_string()),
                ("real_repeats", "5".to_string()),
                ("real_yield", "raf".to_string())
            ]
        );
        let back = RealSettings::from_query(q.iter().map(|(k, v)| (*k, v.as_str()))).0;
        assert_eq!(back, s);
    }

    #[test]
    fn bad_values_name_the_key_and_what_is_allowed() {
        let (s, e) = RealSettings::from_query([
            ("real_scale", "0"),
            ("real_repeats", "99"),
            ("real_yield", "<b>x</b>"),
        ]);
        assert_eq!(s, RealSettings::default());
        let msgs: Vec<String> = e.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            msgs[0],
            "invalid real_scale '0': expected auto or a factor from 0.001 to 10"
        );
        assert_eq!(
            e[0].message(crate::text::Lang::Zh),
            "real_scale 的值“0”无效，应为：auto 或 0.001 到 10 之间的倍数"
        );
        assert_eq!(
            msgs[1],
            "invalid real_repeats '99': expected a whole number from 1 to 20"
        );
        assert_eq!(
            msgs[2],
            "invalid real_yield '<b>x</b>': expected auto, scheduler, message, timeout or raf"
        );
        for bad in ["NaN", "inf", "-1", "11", ""] {
            assert!(
                RealSettings::from_query([("real_scale", bad)]).1.len() == 1,
                "{bad}"
            );
        }
    }

    #[test]
    fn auto_scale_makes_a_pass_about_a_second() {
        let f = Scale::Auto.factor(5209.4);
        assert!((f * 5209.4 - AUTO_PASS_MS).abs() < 1e-9);
        assert_eq!(Scale::Auto.factor(300.0), 1.0);
        assert_eq!(Scale::Fixed(0.5).factor(5209.4), 0.5);
    }
}
