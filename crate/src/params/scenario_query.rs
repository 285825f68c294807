//! The page's scenario keys: `s=<name>`, the knobs' URL keys
//! ([`Knob::url_key`]) and `run`, read from untrusted URL text and
//! validated with [`Knobs::set`], the CLI's own parser, so a bad value gets
//! the CLI's words in the page's `#error` banner; and the canonical
//! scenario query written back.

use super::query::{decode_pairs, percent_encode, BadParam};
use crate::error::{Instead, ParamError};
use crate::param_spec::Params;
use crate::scenario::{self, Knob, Knobs, ScenarioKind};
use crate::text::Text;

/// Segments and state intervals kept per run (each). Enough for the Feishu demo's
/// 10 s on two cores; longer runs are cut and say so on the page.
pub(crate) const PAGE_MAX_RECORDS: usize = crate::chart::timeline::MAX_RECORDS;

/// The URL key of the scenario name.
pub(crate) const SCENARIO_KEY: &str = "s";
/// The URL key of the run a scenario's charts show (page only; not a CLI
/// flag).
pub(crate) const RUN_KEY: &str = "run";

/// A parsed scenario query.
#[derive(Clone, Debug)]
pub struct ScenarioQuery {
    pub name: Option<&'static str>,
    /// The scenario `name` names, from the registry.
    pub scenario: Option<ScenarioKind>,
    pub knobs: Knobs,
    /// Which run the Gantt chart and the timelines show.
    pub run: usize,
    pub errors: Vec<BadParam>,
}

/// The page's knob defaults: the CLI's, except that timelines are on.
pub(crate) fn page_defaults() -> Knobs {
    Knobs {
        timeline: true,
        max_records: PAGE_MAX_RECORDS,
        ..Knobs::default()
    }
}

/// Parses the scenario keys of a page query (untrusted). Bad values are
/// reported and keep their defaults; an unknown `s` means "no scenario".
pub fn parse(query: &str) -> ScenarioQuery {
    let mut q = ScenarioQuery {
        name: None,
        scenario: None,
        knobs: page_defaults(),
        run: 0,
        errors: Vec::new(),
    };
    let mut run = None;
    let mut refused: Vec<ParamError> = Vec::new();
    for (k, v) in decode_pairs(query) {
        if k == SCENARIO_KEY {
            match ScenarioKind::find(v.trim()) {
                Some(s) => {
                    q.name = Some(s.name());
                    q.scenario = Some(s);
                }
                None => refused.push(ParamError::new(SCENARIO_KEY, &v, scenario::allowed_names())),
            }
        } else if k == RUN_KEY {
            match parse_run(&v) {
                Ok(r) => run = Some(r),
                Err(e) => refused.push(e),
            }
        } else if let Some(knob) = Knob::from_url_key(&k) {
            if let Err(e) = q.knobs.set(knob, &k, &v) {
                refused.push(e);
            }
        }
    }
    q.run = run.unwrap_or_else(|| q.default_run());
    // What each refusal leaves in effect, read off the parsed state.
    let run_text = q.run.to_string();
    q.errors = refused
        .into_iter()
        .map(|e| {
            let knob_text = Knob::from_url_key(&e.field).map(|k| q.knobs.text(k));
            let instead = match (e.field.as_str(), &knob_text) {
                (SCENARIO_KEY, _) if q.name.is_none() => Instead::Said(NO_SCENARIO),
                (SCENARIO_KEY, _) => Instead::Value(q.name.unwrap_or_default()),
                (RUN_KEY, _) => Instead::Value(&run_text),
                (_, Some(Some(text))) => Instead::Value(text),
                _ => Instead::Said(SCENARIO_DEFAULT),
            };
            BadParam::new(e, instead)
        })
        .collect();
    q
}

/// Reads `run`: which of a scenario's runs the charts show.
pub(crate) fn parse_run(v: &str) -> Result<usize, ParamError> {
    match v.trim().parse::<usize>() {
        Ok(r) if r < 64 => Ok(r),
        _ => Err(ParamError::new(RUN_KEY, v, RUNS)),
    }
}

const RUNS: Text = Text::new(
    "a whole number from 0 to 63 (which run the charts show)",
    "0 到 63 之间的整数（图表显示哪一次运行）",
);
const NO_SCENARIO: Text = Text::new(
    "no scenario: the experiment page is shown",
    "不打开场景，显示实验页面",
);
const SCENARIO_DEFAULT: Text = Text::new("the scenario's default is used", "使用场景的默认值");

impl ScenarioQuery {
    /// The run the charts show by default (the scenario's choice).
    fn default_run(&self) -> usize {
        self.scenario.map_or(0, |s| s.default_run(&self.knobs))
    }

    /// The canonical scenario part of the URL (no `v`, no `embed`): `s`,
    /// then every knob that differs from the page's default in
    /// [`Knob::ALL`] order, then `run`. Empty without a scenario.
    pub fn canonical(&self) -> String {
        let Some(name) = self.name else {
            return String::new();
        };
        let defaults = page_defaults();
        let mut parts = vec![format!("{SCENARIO_KEY}={name}")];
        for knob in Knob::ALL {
            let v = self.knobs.text(knob);
            if v.is_some() && v != defaults.text(knob) {
                let v = v.unwrap_or_default();
                parts.push(format!("{}={}", knob.url_key(), percent_encode(&v)));
            }
        }
        if self.run != self.default_run() {
            parts.push(format!("{RUN_KEY}={}", self.run));
        }
        parts.join("&")
    }

    /// The same query without `run` (what the worker's cached result is
    /// keyed by).
    pub fn run_key(&self) -> String {
        ScenarioQuery {
            run: self.default_run(),
            ..self.clone()
        }
        .canonical()
    }

    /// The runs the charts can pick from with these knobs, one line each:
    /// two queries with the same runs keep the chosen `run` across an edit.
    pub(crate) fn runs(&self) -> String {
        self.scenario.map_or(String::new(), |s| {
            s.run_labels(&self.knobs)
                .into_iter()
                .map(|l| l.en)
                .collect::<Vec<_>>()
                .join("\n")
        })
    }
}
