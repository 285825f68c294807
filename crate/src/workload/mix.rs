//! The task mix: weighted classes of task durations, and its text syntax.
//!
//! Syntax (CLI `--mix`, URL `mix`): classes `WEIGHT:DIST` joined by commas,
//! e.g. the study's `85:1-8,12:10-40,3:80-200`. `DIST` is one of
//!
//! | form                 | draw (CPython's `random` method it mirrors)          |
//! |----------------------|------------------------------------------------------|
//! | `LO-HI`              | `uniform(LO, HI)`                                    |
//! | `fixed(MS)`          | always `MS` (consumes no draw)                       |
//! | `exp(MEAN)`          | `expovariate(1/MEAN)`                                |
//! | `lognormal(MU,SIGMA)`| `lognormvariate(MU, SIGMA)` (of the ms value)        |
//! | `pareto(XM,ALPHA)`   | `XM * paretovariate(ALPHA)`                          |
//!
//! A class may carry a QoS class after `@` (`85:1-8@userInitiated`,
//! Swift names or `qos_class_self()` numbers, case-insensitive): the `xnu`
//! and `clutch` policies give its tasks that QoS (base priority, quantum,
//! placement on efficiency cores); a class without one is `default`, and
//! the other policies ignore it. Mixes without `@` mean what they always
//! meant.
//!
//! A class may give its tasks a nice value after `@` too (`85:1-8@nice=5`,
//! −20 to 19, beside a QoS: `85:1-8@utility@nice=5`): `eevdf` weighs them
//! by it as Linux's fair class does (nice 0 = 1024, nice 5 = 335); a class
//! without one is nice 0, and the other policies ignore it.
//!
//! A class may then name its app after `~` (`85:1-8@utility~mail`, or with
//! the app's thread-group kind `~mail:ui`, `~mail:efficient`,
//! `~mail:normal`): `clutch` schedules apps (thread groups) before threads.
//! A name is 1 to 24 letters, digits, `-` or `_`; classes with the same name
//! are one app; a class without `~` is in the app `app`; a kind given for a
//! name holds for all its classes (two different kinds for one name are
//! refused), `normal` when none is given. `~` needs no escaping in a URL.
//!
//! A class is picked exactly as the study does: one uniform draw compared
//! with the cumulative normalised weights, then the duration is drawn. Draws
//! above [`MAX_TASK_MS`] are clamped to it, so a heavy tail cannot produce an
//! unbounded amount of work.

use std::fmt;

use crate::error::ParamError;
use crate::rng::UniformSource;
use crate::sim::{GroupKind, Qos, ThreadGroup};
use crate::text::Text;

/// The longest single task, in ms (one hour).
pub const MAX_TASK_MS: f64 = 3_600_000.0;
/// At most this many classes in a mix.
pub const MAX_CLASSES: usize = 16;
/// The class the page's mix editor adds: weight 1, uniform from 10 to
/// 20 ms (between the default mix's short and medium tasks).
pub(crate) const NEW_CLASS: (f64, f64, f64) = (1.0, 10.0, 20.0);
/// The study's mix.
pub const DEFAULT_MIX: &str = "85:1-8,12:10-40,3:80-200";

/// How one class draws a task duration in ms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dist {
    Uniform { lo: f64, hi: f64 },
    Fixed(f64),
    Exp { mean: f64 },
    LogNormal { mu: f64, sigma: f64 },
    Pareto { xm: f64, alpha: f64 },
}

/// `4 * exp(-0.5) / sqrt(2)`, CPython's `NV_MAGICCONST`.
const NV_MAGICCONST: f64 = 1.7155277699214135;

impl Dist {
    /// One duration, drawn the way CPython's `random` draws it.
    pub(crate) fn draw(&self, rng: &mut dyn UniformSource) -> f64 {
        let v = match *self {
            Dist::Uniform { lo, hi } => rng.uniform(lo, hi),
            Dist::Fixed(ms) => ms,
            Dist::Exp { mean } => -(1.0 - rng.random()).ln() / (1.0 / mean),
            Dist::LogNormal { mu, sigma } => {
                // CPython's normalvariate: Kinderman and Monahan's ratio method.
                let z = loop {
                    let u1 = rng.random();
                    let u2 = 1.0 - rng.random();
                    let z = NV_MAGICCONST * (u1 - 0.5) / u2;
                    if z * z / 4.0 <= -u2.ln() {
                        break z;
                    }
                };
                (mu + z * sigma).exp()
            }
            Dist::Pareto { xm, alpha } => xm * (1.0 / (1.0 - rng.random()).powf(1.0 / alpha)),
        };
        v.min(MAX_TASK_MS)
    }

    /// The expected duration (for sizing arrivals and the up-front size
    /// check).
    pub(crate) fn mean(&self) -> f64 {
        match *self {
            Dist::Uniform { lo, hi } => (lo + hi) / 2.0,
            Dist::Fixed(ms) => ms,
            Dist::Exp { mean } => mean,
            Dist::LogNormal { mu, sigma } => (mu + sigma * sigma / 2.0).exp().min(MAX_TASK_MS),
            Dist::Pareto { xm, alpha } => {
                // The mean of what is actually drawn, min(X, MAX_TASK_MS):
                // finite even for ALPHA <= 1, where the Pareto mean is not.
                // E[min(X, M)] = xm + ∫ from xm to M of (xm/x)^alpha dx
                //              = xm + (xm^alpha M^(1-alpha) - xm) / (1 - alpha),
                // the power taken through logarithms: xm^alpha alone
                // overflowed (pareto(2000,100)) and made the mean NaN.
                let m = MAX_TASK_MS;
                if xm >= m {
                    m
                } else if (alpha - 1.0).abs() < 1e-12 {
                    // ln M - ln xm, not ln(M / xm): that ratio overflows for
                    // a tiny xm (5e-324) and made the mean infinite.
                    xm + xm * (m.ln() - xm.ln())
                } else {
                    let head = (alpha * xm.ln() + (1.0 - alpha) * m.ln()).exp();
                    xm + (head - xm) / (1.0 - alpha)
                }
            }
        }
    }

    fn parse(field: &str, text: &str) -> Result<Dist, ParamError> {
        let bad = || ParamError::new(field, text, DISTS);
        let t = text.trim();
        if let Some(open) = t.find('(') {
            let name = &t[..open];
            let args = t[open + 1..].strip_suffix(')').ok_or_else(bad)?;
            let nums: Vec<f64> = args
                .split(',')
                .map(|a| a.trim().parse::<f64>())
                .collect::<Result<_, _>>()
                .map_err(|_| bad())?;
            if nums.iter().any(|v| !v.is_finite()) {
                return Err(bad());
            }
            let max = MAX_TASK_MS;
            let range = |what: Text| ParamError::new(field, text, what.both(&[&max.to_string()]));
            return match (name, nums.as_slice()) {
                ("fixed", [ms]) if (0.0..=max).contains(ms) => Ok(Dist::Fixed(*ms)),
                ("fixed", [_]) => Err(range(FIXED)),
                ("exp", [m]) if *m > 0.0 && *m <= max => Ok(Dist::Exp { mean: *m }),
                ("exp", [_]) => Err(range(EXP)),
                ("lognormal", [mu, s]) if mu.abs() <= 20.0 && (0.0..=10.0).contains(s) => {
                    Ok(Dist::LogNormal { mu: *mu, sigma: *s })
                }
                ("lognormal", [_, _]) => Err(range(LOGNORMAL)),
                ("pareto", [xm, a]) if *xm > 0.0 && *xm <= max && *a > 0.0 && *a <= 100.0 => {
                    Ok(Dist::Pareto { xm: *xm, alpha: *a })
                }
                ("pareto", [_, _]) => Err(range(PARETO)),
                _ => Err(bad()),
            };
        }
        // LO-HI: the separator is the first '-' after the first character, so
        // that a leading minus sign is read as a (rejected) negative number.
        let sep = t
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c == '-')
            .map(|(i, _)| i)
            .ok_or_else(bad)?;
        let lo: f64 = t[..sep].trim().parse().map_err(|_| bad())?;
        let hi: f64 = t[sep + 1..].trim().parse().map_err(|_| bad())?;
        if !lo.is_finite() || !hi.is_finite() || lo < 0.0 || hi < lo || hi > MAX_TASK_MS {
            return Err(ParamError::new(
                field,
                text,
                UNIFORM.both(&[&MAX_TASK_MS.to_string()]),
            ));
        }
        Ok(Dist::Uniform { lo, hi })
    }
}

const DISTS: Text = Text::new(
    "LO-HI (e.g. 1-8, 0 ≤ LO ≤ HI), fixed(MS), exp(MEAN), lognormal(MU,SIGMA) or pareto(XM,ALPHA)",
    "LO-HI（如 1-8，0 ≤ LO ≤ HI）、fixed(MS)、exp(MEAN)、lognormal(MU,SIGMA) 或 pareto(XM,ALPHA)",
);
const FIXED: Text = Text::new("fixed(MS) with 0 ≤ MS ≤ {}", "fixed(MS)，0 ≤ MS ≤ {}");
const EXP: Text = Text::new("exp(MEAN) with 0 < MEAN ≤ {}", "exp(MEAN)，0 < MEAN ≤ {}");
const LOGNORMAL: Text = Text::new(
    "lognormal(MU,SIGMA) of ln(ms) with -20 ≤ MU ≤ 20 and 0 ≤ SIGMA ≤ 10",
    "ln(ms) 的 lognormal(MU,SIGMA)，-20 ≤ MU ≤ 20 且 0 ≤ SIGMA ≤ 10",
);
const PARETO: Text = Text::new(
    "pareto(XM,ALPHA) with 0 < XM ≤ {} and 0 < ALPHA ≤ 100",
    "pareto(XM,ALPHA)，0 < XM ≤ {} 且 0 < ALPHA ≤ 100",
);
const UNIFORM: Text = Text::new(
    "LO-HI durations in ms with 0 ≤ LO ≤ HI ≤ {}",
    "以 ms 为单位的时长 LO-HI，0 ≤ LO ≤ HI ≤ {}",
);
const CLASSES: Text = Text::new(
    "classes WEIGHT:DIST[@QOS][@nice=N][~APP] joined by commas (e.g. {}), 1 to {} classes",
    "以逗号分隔的 WEIGHT:DIST[@QOS][@nice=N][~APP] 类（如 {}），1 到 {} 类",
);
const NICE: Text = Text::new(
    "a class WEIGHT:DIST@nice=N with N a whole number from {} to {}",
    "WEIGHT:DIST@nice=N 形式的类，N 为 {} 到 {} 之间的整数",
);
const ONE_EACH: Text = Text::new(
    "a class with at most one @QOS and one @nice=N",
    "每个类最多一个 @QOS 和一个 @nice=N",
);
const APP_NAME: Text = Text::new(
    "a class WEIGHT:DIST[@QOS]~APP[:KIND] with APP 1 to {} letters, digits, - or _ and KIND one of {}",
    "WEIGHT:DIST[@QOS]~APP[:KIND] 形式的类，APP 为 1 到 {} 个字母、数字、- 或 _，KIND 为 {} 之一",
);
const ONE_KIND: Text = Text::new(
    "one kind per app: {} is given two",
    "每个应用只有一种类型：{} 被给了两种",
);
const WEIGHT_NUMBER: Text = Text::new(
    "a class WEIGHT:DIST with a number as WEIGHT",
    "WEIGHT:DIST 形式的类，WEIGHT 为数字",
);
const WEIGHT_RANGE: Text = Text::new("a weight from 0 to 1e9", "0 到 1e9 之间的权重");
const QOS_NAME: Text = Text::new(
    "a class WEIGHT:DIST@QOS with QOS one of {} (or its number)",
    "WEIGHT:DIST@QOS 形式的类，QOS 为以下之一：{}（或其编号）",
);
const SOME_WEIGHT: Text = Text::new(
    "at least one class with a weight above 0",
    "至少一个权重大于 0 的类",
);

impl fmt::Display for Dist {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Dist::Uniform { lo, hi } => write!(f, "{lo}-{hi}"),
            Dist::Fixed(ms) => write!(f, "fixed({ms})"),
            Dist::Exp { mean } => write!(f, "exp({mean})"),
            Dist::LogNormal { mu, sigma } => write!(f, "lognormal({mu},{sigma})"),
            Dist::Pareto { xm, alpha } => write!(f, "pareto({xm},{alpha})"),
        }
    }
}

/// The name of the app a class's tasks run in when a class names none.
pub(crate) const DEFAULT_APP: &str = "app";
/// The longest app name.
pub(crate) const MAX_APP_NAME: usize = 24;

/// One class of the mix.
#[derive(Clone, Debug, PartialEq)]
pub struct Class {
    pub weight: f64,
    pub dist: Dist,
    /// The QoS its tasks get under `xnu` and `clutch` (`None`: `default`).
    pub qos: Option<Qos>,
    /// The nice value its tasks get under `eevdf` (`None`: 0).
    pub nice: Option<i8>,
    /// The app (thread group) its tasks run in, as written after `~`, and
    /// the group's kind when written (`None`: the app `app`).
    pub app: Option<(String, Option<GroupKind>)>,
}

impl Class {
    /// The class's `DIST[@QOS][@nice=N][~APP[:KIND]]`, as the parser reads it.
    pub(crate) fn dist_text(&self) -> String {
        let mut s = self.dist.to_string();
        if let Some(q) = self.qos {
            s.push('@');
            s.push_str(q.name());
        }
        if let Some(n) = self.nice {
            s.push_str(NICE_PREFIX_AT);
            s.push_str(&n.to_string());
        }
        if let Some((name, kind)) = &self.app {
            s.push('~');
            s.push_str(name);
            if let Some(k) = kind {
                s.push(':');
                s.push_str(k.name());
            }
        }
        s
    }

    /// The app's name (`app` when the class names none).
    pub(crate) fn app_name(&self) -> &str {
        self.app.as_ref().map_or(DEFAULT_APP, |(n, _)| n.as_str())
    }
}

/// How a nice value is written after a class (`@nice=5`).
const NICE_PREFIX_AT: &str = "@nice=";
/// The lowest and highest nice values (Linux's).
pub(crate) const NICE_RANGE: std::ops::RangeInclusive<i8> = -20..=19;

/// Parses `N` of `nice=N`: a whole number from −20 to 19.
pub(crate) fn parse_nice(text: &str) -> Option<i8> {
    let n: i8 = text.trim().parse().ok()?;
    NICE_RANGE.contains(&n).then_some(n)
}

/// What `nice=N` and its range say in a refusal.
pub(crate) fn nice_allowed() -> crate::text::Filled {
    NICE.both(&[
        &NICE_RANGE.start().to_string(),
        &NICE_RANGE.end().to_string(),
    ])
}

/// A class label's `@nice=N` whose N is not a nice value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BadNice;

/// The nice value a class label gives (`1-8@nice=5`, `batch@nice=-3~app`:
/// an `@nice=N` part before any `~APP`): `Ok(None)` without one.
pub(crate) fn label_nice(label: &str) -> Result<Option<i8>, BadNice> {
    let before_app = label.split('~').next().unwrap_or(label);
    match before_app
        .split('@')
        .skip(1)
        .find_map(|part| strip_prefix_ci(part.trim(), "nice="))
    {
        Some(n) => parse_nice(n).map(Some).ok_or(BadNice),
        None => Ok(None),
    }
}

/// [`label_nice`]'s value when it is valid.
pub(crate) fn nice_in_label(label: &str) -> Option<i8> {
    label_nice(label).ok().flatten()
}

/// `text` without `prefix`, compared without regard to ASCII case.
fn strip_prefix_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// Parses `NAME` or `NAME:KIND` after a class's `~`.
fn parse_app(
    field: &str,
    part: &str,
    text: &str,
) -> Result<(String, Option<GroupKind>), ParamError> {
    let bad = || {
        ParamError::new(
            field,
            part,
            APP_NAME.both(&[
                &MAX_APP_NAME.to_string(),
                &GroupKind::ALL.map(GroupKind::name).join(", "),
            ]),
        )
    };
    let (name, kind) = match text.split_once(':') {
        Some((n, k)) => (n, Some(GroupKind::parse(k).ok_or_else(bad)?)),
        None => (text, None),
    };
    let ok = (1..=MAX_APP_NAME).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !ok {
        return Err(bad());
    }
    Ok((name.to_string(), kind))
}

/// A parsed, validated mix.
#[derive(Clone, Debug, PartialEq)]
pub struct Mix {
    pub classes: Vec<Class>,
}

impl Default for Mix {
    fn default() -> Self {
        Mix::parse("mix", DEFAULT_MIX).expect("the default mix parses")
    }
}

impl Mix {
    /// Parses `WEIGHT:DIST,...`; `field` names the flag or URL key in errors.
    pub fn parse(field: &str, text: &str) -> Result<Mix, ParamError> {
        let allowed = CLASSES.both(&[DEFAULT_MIX, &MAX_CLASSES.to_string()]);
        let parts = split_top_level(text);
        if text.trim().is_empty() || parts.len() > MAX_CLASSES {
            return Err(ParamError::new(field, text, allowed));
        }
        let mut classes = Vec::with_capacity(parts.len());
        for part in parts {
            let (w, d) = part
                .split_once(':')
                .ok_or_else(|| ParamError::new(field, text, allowed.clone()))?;
            let weight: f64 = w
                .trim()
                .parse()
                .map_err(|_| ParamError::new(field, part, WEIGHT_NUMBER))?;
            if !weight.is_finite() || !(0.0..=1e9).contains(&weight) {
                return Err(ParamError::new(field, part, WEIGHT_RANGE));
            }
            let (d, app) = match d.rsplit_once('~') {
                Some((d, a)) => (d, Some(parse_app(field, part, a)?)),
                None => (d, None),
            };
            let mut attrs = d.split('@');
            let d = attrs.next().unwrap_or_default();
            let (mut qos, mut nice) = (None, None);
            for a in attrs {
                if let Some(n) = strip_prefix_ci(a.trim(), "nice=") {
                    let n = parse_nice(n)
                        .ok_or_else(|| ParamError::new(field, part, nice_allowed()))?;
                    if nice.replace(n).is_some() {
                        return Err(ParamError::new(field, part, ONE_EACH));
                    }
                    continue;
                }
                let q = Qos::parse(a).ok_or_else(|| {
                    ParamError::new(
                        field,
                        part,
                        QOS_NAME.both(&[&Qos::ALL.map(Qos::name).join(", ")]),
                    )
                })?;
                if qos.replace(q).is_some() {
                    return Err(ParamError::new(field, part, ONE_EACH));
                }
            }
            let dist = Dist::parse(field, d)?;
            classes.push(Class {
                weight,
                dist,
                qos,
                nice,
                app,
            });
        }
        // One kind per app.
        for (i, c) in classes.iter().enumerate() {
            let kind = c.app.as_ref().and_then(|a| a.1);
            let clash = classes[..i].iter().any(|o| {
                o.app_name() == c.app_name()
                    && matches!((o.app.as_ref().and_then(|a| a.1), kind), (Some(a), Some(b)) if a != b)
            });
            if clash {
                return Err(ParamError::new(field, text, ONE_KIND.both(&[c.app_name()])));
            }
        }
        if classes.iter().all(|c| c.weight == 0.0) {
            return Err(ParamError::new(field, text, SOME_WEIGHT));
        }
        Ok(Mix { classes })
    }

    /// Cumulative normalised weights, summed in the order and with the
    /// floating-point operations of the study's code.
    pub(crate) fn cumulative(&self) -> Vec<f64> {
        let total: f64 = self.classes.iter().fold(0.0, |a, c| a + c.weight);
        let mut acc = 0.0;
        self.classes
            .iter()
            .map(|c| {
                acc += c.weight / total;
                acc
            })
            .collect()
    }

    /// Class labels as shown in charts (`1-8`, `exp(5)`, `1-8@utility`,
    /// `1-8~mail`...).
    pub fn labels(&self) -> Vec<String> {
        self.classes.iter().map(Class::dist_text).collect()
    }

    /// Whether any class names a QoS.
    pub fn has_qos(&self) -> bool {
        self.classes.iter().any(|c| c.qos.is_some())
    }

    /// Whether any class names a QoS, a nice value or an app (what `xnu`,
    /// `clutch` and `eevdf` read).
    pub fn has_attributes(&self) -> bool {
        self.classes
            .iter()
            .any(|c| c.qos.is_some() || c.nice.is_some() || c.app.is_some())
    }

    /// The thread group of each class: apps numbered in order of first
    /// appearance (`app`, unnamed, among them), each with the kind any of
    /// its classes gives (`normal` if none).
    pub(crate) fn thread_groups(&self) -> Vec<ThreadGroup> {
        let mut names: Vec<&str> = Vec::new();
        for c in &self.classes {
            if !names.contains(&c.app_name()) {
                names.push(c.app_name());
            }
        }
        let kind_of = |name: &str| {
            self.classes
                .iter()
                .filter(|c| c.app_name() == name)
                .find_map(|c| c.app.as_ref().and_then(|a| a.1))
                .unwrap_or_default()
        };
        self.classes
            .iter()
            .map(|c| {
                let id = names.iter().position(|&n| n == c.app_name()).unwrap_or(0);
                ThreadGroup {
                    id: id as u32,
                    kind: kind_of(c.app_name()),
                }
            })
            .collect()
    }

    /// Expected duration of one task in ms.
    pub fn mean_work(&self) -> f64 {
        let total: f64 = self.classes.iter().map(|c| c.weight).sum();
        self.classes
            .iter()
            .map(|c| c.weight / total * c.dist.mean())
            .sum()
    }
}

impl fmt::Display for Mix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.classes.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}:{}", c.weight, c.dist_text())?;
        }
        Ok(())
    }
}

/// Splits at commas that are not inside parentheses.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_study_mix_and_round_trips() {
        let m = Mix::default();
        assert_eq!(m.classes.len(), 3);
        assert_eq!(
            m.classes[2].dist,
            Dist::Uniform {
                lo: 80.0,
                hi: 200.0
            }
        );
        assert_eq!(m.to_string(), DEFAULT_MIX);
        assert_eq!(Mix::parse("mix", &m.to_string()).unwrap(), m);
    }

    #[test]
    fn parses_distributions_with_inner_commas() {
        let m = Mix::parse(
            "mix",
            "1:lognormal(1.5,0.8),1:pareto(2,1.5),1:exp(5),1:fixed(3)",
        )
        .unwrap();
        assert_eq!(m.classes.len(), 4);
        assert_eq!(
            m.classes[0].dist,
            Dist::LogNormal {
                mu: 1.5,
                sigma: 0.8
            }
        );
        assert_eq!(Mix::parse("mix", &m.to_string()).unwrap(), m);
    }

    #[test]
    fn rejects_bad_mixes_with_a_reason() {
        for bad in [
            "",
            "85",
            "85:8-1",
            "-1:1-8",
            "0:1-8,0:2-3",
            "85:-1-8",
            "x:1-8",
            "85:1-",
            "85:1-8,",
            "1:exp(0)",
            "1:pareto(1,0)",
            "1:nope(3)",
            "1:exp(1",
            "NaN:1-8",
            "1:1-inf",
        ] {
            let e = Mix::parse("--mix", bad).unwrap_err();
            assert_eq!(e.field, "--mix", "{bad}");
        }
        let many = vec!["1:1-2"; MAX_CLASSES + 1].join(",");
        assert!(Mix::parse("mix", &many).is_err());
    }

    #[test]
    fn classes_name_their_app_after_a_tilde() {
        let m = Mix::parse(
            "mix",
            "85:1-8@userInitiated~mail,12:10-40~backup:efficient,3:80-200,1:exp(5)@9~mail:ui",
        )
        .unwrap();
        assert_eq!(m.classes[0].app, Some(("mail".into(), None)));
        assert_eq!(m.classes[0].qos, Some(Qos::UserInitiated));
        assert_eq!(m.classes[1].app_name(), "backup");
        assert_eq!(m.classes[2].app, None);
        assert_eq!(Mix::parse("mix", &m.to_string()).unwrap(), m);
        // Apps by first appearance; a kind given once holds for the app.
        let g = m.thread_groups();
        assert_eq!(g[0], g[3]);
        assert_eq!(g[0].kind, GroupKind::Ui);
        assert_eq!(g[1].kind, GroupKind::Efficient);
        assert_eq!((g[0].id, g[1].id, g[2].id), (0, 1, 2));
        assert!(m.has_attributes());
        // Mixes without `~` read as before: one app, no attributes.
        let plain = Mix::default();
        assert!(!plain.has_attributes());
        assert!(plain.classes.iter().all(|c| c.app.is_none()));
        for bad in [
            "1:1-8~",
            "1:1-8~a b",
            "1:1-8~mail:fast",
            "1:1-8~ü",
            "1:1-8~aaaaaaaaaaaaaaaaaaaaaaaaa",
            "1:1-8~mail:ui,1:2-3~mail:efficient",
        ] {
            let e = Mix::parse("--mix", bad).unwrap_err();
            assert_eq!(e.field, "--mix", "{bad}");
        }
    }

    #[test]
    fn means_match_what_is_drawn() {
        use crate::rng::FastRandom;
        let cases = [
            Dist::Uniform { lo: 1.0, hi: 8.0 },
            Dist::Exp { mean: 5.0 },
            Dist::LogNormal {
                mu: 1.0,
                sigma: 0.5,
            },
            Dist::Pareto {
                xm: 2.0,
                alpha: 2.5,
            },
            // Infinite mean before clamping: the clamped mean is finite.
            Dist::Pareto {
                xm: 1.0,
                alpha: 0.5,
            },
        ];
        for d in cases {
            let mut r = FastRandom::new(11);
            let n = 400_000;
            let empirical = (0..n).map(|_| d.draw(&mut r)).sum::<f64>() / n as f64;
            let rel = (empirical - d.mean()).abs() / d.mean();
            assert!(rel < 0.08, "{d}: mean {} vs drawn {empirical}", d.mean());
        }
    }

    #[test]
    fn cpython_compatible_draws() {
        use crate::rng::PyRandom;
        // random.seed(5); random.expovariate(1/4), random.lognormvariate(1,0.5),
        // 2*random.paretovariate(1.5) in CPython 3.11.
        let mut r = PyRandom::new(5);
        let e = Dist::Exp { mean: 4.0 }.draw(&mut r);
        let l = Dist::LogNormal {
            mu: 1.0,
            sigma: 0.5,
        }
        .draw(&mut r);
        let p = Dist::Pareto {
            xm: 2.0,
            alpha: 1.5,
        }
        .draw(&mut r);
        assert_eq!([e, l, p], CPYTHON_SEED5);
    }

    const CPYTHON_SEED5: [f64; 3] = [3.9009974770575746, 7.483081592790396, 13.417384681808732];
}
