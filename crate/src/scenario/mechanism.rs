//! Which mechanism explains a measurement: a scenario runs the same
//! workload under each candidate (XNU's timeshare class of the kernels
//! before Clutch, Clutch with the whole workload in one app, Clutch with
//! two apps whose thread groups get different boosts, and GCD's worker cap)
//! and compares each with the study's figures. A mechanism *reproduces* the
//! measurement when every figure is within [`TOLERANCE_PCT`] of it.

use serde::Serialize;

use crate::policy::{ClutchRules, PolicyKind};
use crate::sim::GroupKind;
use crate::text::{Filled, Lang, Text};
use crate::workload::programs::WorkerCap;

/// How close (in % of the measured value) a figure must be to count as
/// reproducing it.
pub(crate) const TOLERANCE_PCT: f64 = 10.0;

/// How a scenario's threads are laid out in apps (thread groups).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Apps {
    /// Everything in one app, its group of this kind.
    One(GroupKind),
    /// The scenario's two parts in two apps, their groups of these kinds
    /// (each scenario says which part is which).
    Two(GroupKind, GroupKind),
}

/// One candidate: the class, its rules, the app layout and GCD's cap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Mechanism {
    /// Its key in the JSON and the page (`timeshare`, `clutch-one-app`, …).
    pub id: &'static str,
    pub label: Text,
    pub policy: PolicyKind,
    pub rules: ClutchRules,
    pub apps: Apps,
    pub cap: WorkerCap,
}

/// One row of a mechanism table (public: `tailslice scenario --json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MechanismRow {
    /// `timeshare`, `clutch-one-app`, `clutch-boost-gap`, `gcd-cap-held`,
    /// `gcd-cap-per-item`.
    pub mechanism: &'static str,
    /// What it is, in English and Chinese.
    #[serde(flatten, serialize_with = "crate::text::pair::label")]
    pub label: Filled<&'static str>,
    /// The class it runs under.
    pub policy: PolicyKind,
    /// The xnu release whose Clutch rules it follows (`null` for other
    /// classes).
    pub clutch_rules: Option<&'static str>,
    /// Apps (thread groups) the workload is split into: 1 or 2.
    pub apps: u8,
    /// GCD's worker cap: `off`, `per-item` or `held`.
    pub gcd_cap: &'static str,
    /// The model's figure per column.
    pub figures: Vec<f64>,
    /// Per column: within the tolerance of the measurement (`null` where
    /// the study gives none).
    pub within: Vec<Option<bool>>,
    /// Every measured column is within the tolerance.
    pub reproduces: bool,
}

/// A mechanism table (public: `tailslice scenario --json`, field
/// `mechanisms`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MechanismTable {
    /// What the figures are.
    #[serde(flatten, serialize_with = "crate::text::pair::what")]
    pub what: Filled,
    /// The columns.
    #[serde(flatten, serialize_with = "crate::text::pair::columns")]
    pub columns: Filled<Vec<String>>,
    /// The study's figure per column.
    pub measured: Vec<Option<f64>>,
    pub tolerance_pct: f64,
    pub rows: Vec<MechanismRow>,
    /// Which reproduce it and which do not, and why, in plain words.
    #[serde(flatten, serialize_with = "crate::text::pair::reading")]
    pub reading: Filled,
}

/// Whether `figure` is within the tolerance of `measured`.
pub(crate) fn within(figure: f64, measured: f64) -> bool {
    figure.is_finite() && (figure - measured).abs() <= TOLERANCE_PCT / 100.0 * measured.abs()
}

impl MechanismRow {
    pub(crate) fn new(m: &Mechanism, figures: Vec<f64>, measured: &[Option<f64>]) -> MechanismRow {
        let within: Vec<Option<bool>> = figures
            .iter()
            .zip(measured)
            .map(|(&f, m)| m.map(|m| within(f, m)))
            .collect();
        let reproduces =
            within.iter().any(Option::is_some) && within.iter().all(|w| *w != Some(false));
        MechanismRow {
            mechanism: m.id,
            label: Filled {
                en: m.label.en,
                zh: m.label.zh,
            },
            policy: m.policy,
            clutch_rules: (m.policy == PolicyKind::Clutch).then(|| m.rules.name()),
            apps: match m.apps {
                Apps::One(_) => 1,
                Apps::Two(..) => 2,
            },
            gcd_cap: m.cap.name(),
            figures,
            within,
            reproduces,
        }
    }

    pub(crate) fn label(&self, lang: Lang) -> &'static str {
        self.label.get(lang)
    }
}

impl MechanismTable {
    /// The table as text for the terminal: one line per mechanism.
    pub(crate) fn to_text(&self, lang: Lang, digits: usize) -> String {
        let yes_no = Text::new("yes", "是");
        let no = Text::new("no", "否");
        let mut s = format!("{}\n", self.what.get(lang));
        let columns = self.columns.get(lang);
        let width = self
            .rows
            .iter()
            .map(|r| r.label(lang).chars().count())
            .max()
            .unwrap_or(0)
            .max(12);
        s.push_str(&format!(
            "{:<width$} {}  {}\n",
            Text::new("mechanism", "机制").get(lang),
            columns
                .iter()
                .map(|c| format!("{c:>12}"))
                .collect::<Vec<_>>()
                .join(" "),
            Text::new("reproduces", "重现").get(lang),
        ));
        let measured: Vec<String> = self
            .measured
            .iter()
            .map(|m| m.map_or("-".into(), |v| format!("{v:.digits$}")))
            .map(|v| format!("{v:>12}"))
            .collect();
        s.push_str(&format!(
            "{:<width$} {}\n",
            Text::new("measured", "实测").get(lang),
            measured.join(" ")
        ));
        for r in &self.rows {
            let figures: Vec<String> = r
                .figures
                .iter()
                .map(|f| format!("{:>12}", format!("{f:.digits$}")))
                .collect();
            s.push_str(&format!(
                "{:<width$} {}  {}\n",
                r.label(lang),
                figures.join(" "),
                if r.reproduces { yes_no } else { no }.get(lang),
            ));
        }
        s.push_str(&format!("{}\n", self.reading.get(lang)));
        s
    }
}

/// `a, b and c` (`a、b 和 c`).
pub(crate) fn join_list(items: &[String], lang: Lang) -> String {
    match (items.split_last(), lang) {
        (None, _) => String::new(),
        (Some((last, [])), _) => last.clone(),
        (Some((last, rest)), Lang::En) => format!("{} and {last}", rest.join(", ")),
        (Some((last, rest)), Lang::Zh) => format!("{} 和 {last}", rest.join("、")),
    }
}
