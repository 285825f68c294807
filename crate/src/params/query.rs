//! The page's query string: the page-level keys (`v`, `lang`, and the embed
//! view's `embed`, `view`, `controls`, `theme`: [`crate::embed::view`]) and the
//! canonical form written back with `history.replaceState` (percent-coding
//! is in [`crate::query_string`], native code the fuzzers reach).
//!
//! The experiment's own keys are parsed and validated by
//! [`Experiment::from_query`], exactly as the CLI's flags are; this module
//! only adds what belongs to the page.

use serde::Serialize;

use crate::embed::{EmbedParam, EmbedView};
use crate::error::{Instead, ParamError};
use crate::experiment::{repeated, Experiment, Limits, Param};
use crate::param_spec::Params;
pub use crate::query_string::{decode_pairs, percent_encode};
use crate::realrun::{RealParam, RealSettings};
use crate::responsiveness::{CostFrom, RespParam, Settings as RespSettings};
use crate::text::{Filled, Lang, Text};
use crate::workload::mix::Dist;

pub(crate) use crate::query_string::URL_VERSION;
use crate::query_string::URL_VERSIONS;

/// A rejected value, as the banner shows it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BadParam {
    pub field: String,
    pub value: String,
    /// What is allowed, in English.
    pub allowed: String,
    /// `ParamError`'s sentence in English: "invalid q '0': expected …".
    pub message: String,
    /// The refusal in English and Chinese (a form's error line).
    pub refusal: Filled,
    /// The refusal and what is used instead, in English and Chinese (the
    /// banner's line).
    pub banner: Filled,
}

impl BadParam {
    /// A refused value of a link and what the page uses instead.
    pub(crate) fn new(e: ParamError, instead: Instead) -> BadParam {
        BadParam {
            message: e.to_string(),
            refusal: e.messages(),
            banner: e.with_instead(instead),
            field: e.field,
            value: e.value,
            allowed: e.allowed.en,
        }
    }
}

/// The keys of a link that no part of the page reads
/// ([`crate::params::url_keys`]), each as a banner line saying it is ignored.
pub fn unknown_keys(query: &str) -> Vec<BadParam> {
    let pairs = decode_pairs(query);
    crate::params::url_keys::unknown(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .into_iter()
        .map(|key| {
            let key = crate::error::shown(key);
            let line = crate::params::url_keys::unknown_line(&key);
            BadParam {
                field: key,
                value: String::new(),
                allowed: String::new(),
                message: line.en.clone(),
                refusal: line.clone(),
                banner: line,
            }
        })
        .collect()
}

/// What a bad `lang=` leaves the page in.
const BROWSER_LANGUAGE: Text = Text::new("the browser's language is used", "使用浏览器的语言");

/// One class of the mix, for the editable list.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MixRow {
    pub weight: f64,
    /// `Some` for `LO-HI` classes (the ones the page edits as two numbers).
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    /// The class's distribution in the mix syntax, e.g. `exp(5)`, with its
    /// QoS if it has one (`1-8@utility`).
    pub dist: String,
}

/// A class of the mix as the page's inputs hold it (typed text, checked
/// only when the mix is parsed): a weight and either a distribution or a
/// `LO`–`HI` range.
#[derive(Clone, Debug, Default, serde::Deserialize, PartialEq)]
pub(crate) struct TypedMixRow {
    pub weight: String,
    #[serde(default)]
    pub dist: Option<String>,
    #[serde(default)]
    pub lo: Option<String>,
    #[serde(default)]
    pub hi: Option<String>,
}

/// The `mix=` text of the page's rows, in the `--mix` syntax: `W:LO-HI` or
/// `W:DIST` per class, joined by commas.
pub(crate) fn mix_text(rows: &[TypedMixRow]) -> String {
    let class = |r: &TypedMixRow| {
        let w = r.weight.trim();
        match &r.dist {
            Some(d) => format!("{w}:{}", d.trim()),
            None => {
                let lo = r.lo.as_deref().unwrap_or("").trim();
                let hi = r.hi.as_deref().unwrap_or("").trim();
                format!("{w}:{lo}-{hi}")
            }
        }
    };
    rows.iter().map(class).collect::<Vec<_>>().join(",")
}

/// Everything the page needs from a query string.
#[derive(Clone, Debug, Serialize)]
pub struct PageQuery {
    /// Canonical query (no `?`): `v=1` then every non-default parameter,
    /// then `embed=1` and the embed view's other keys; empty for the
    /// default experiment.
    pub query: String,
    /// The experiment's query only (what the worker runs; no `v`/`embed`).
    pub experiment: String,
    pub embed: bool,
    /// What the embed view shows (`view=`): `table`, `gantt`, `cdf`, `all`.
    pub view: &'static str,
    /// Whether the embed view shows its few settings (`controls=`).
    pub controls: bool,
    /// `light`, `dark` or `auto` (`theme=`; the full page too).
    pub theme: &'static str,
    /// The embed view's keys as the link writes them (`embed=1&view=table`,
    /// `theme=dark`, or empty): what an edit of the experiment keeps.
    pub view_query: String,
    /// Every parameter's value as text, keyed by URL key.
    pub values: std::collections::BTreeMap<&'static str, String>,
    pub mix: Vec<MixRow>,
    pub policies: Vec<&'static str>,
    /// URL keys of parameters that change nothing as the experiment stands
    /// (`cores` once a machine is named): their controls are disabled.
    pub inert: Vec<&'static str>,
    pub errors: Vec<BadParam>,
    pub estimated_slices: f64,
    /// Whether the page's own module can run the experiment (small runs
    /// are computed inline): false when a policy is one it leaves out
    /// (`PolicyKind::built_in`), which then runs in the worker.
    pub inline: bool,
    /// The "Run for real" panel's settings (`real_*` keys; in `query`, not
    /// in `experiment`) with their current values, defaults included, so
    /// the page can carry them through edits of the experiment.
    pub real_values: std::collections::BTreeMap<&'static str, String>,
    /// The Responsiveness section's settings (`resp_*` keys; in `query`,
    /// not in `experiment`), current values with defaults ("" for no
    /// window).
    pub resp_values: std::collections::BTreeMap<&'static str, String>,
    /// The `resp_*` keys that differ from the defaults, as a query (what
    /// the worker computes the section with).
    pub resp_query: String,
    /// The language the link asks for (`lang=`), `null` when it names
    /// none or a bad one (then the browser's language is used).
    pub lang: Option<&'static str>,
}

/// Parses a page URL's query (untrusted input): bad values are reported and
/// fall back to their defaults.
pub fn parse(query: &str, limits: &Limits) -> (Experiment, PageQuery) {
    let pairs = decode_pairs(query);
    // Page keys: refused values and, once all are read, what they leave.
    let mut refused: Vec<ParamError> = Vec::new();
    let mut lang: Option<Lang> = None;
    let mut lang_first: Option<&str> = None;
    for (k, v) in &pairs {
        match k.as_str() {
            // The page's language is a parameter like any other: the same
            // parser and refusal as the CLI's `--lang`, and a repeat is
            // reported like any repeated key.
            "lang" => match lang_first {
                Some(first) => refused.push(repeated("lang", v, first)),
                None => {
                    lang_first = Some(v);
                    match Lang::parse("lang", v) {
                        Ok(l) => lang = Some(l),
                        Err(e) => refused.push(e),
                    }
                }
            },
            "v" if v != URL_VERSION => {
                refused.push(ParamError::new("v", v, URL_VERSIONS.both(&[URL_VERSION])))
            }
            _ => {}
        }
    }
    let lang_text = lang.map(Lang::code);
    let mut errors: Vec<BadParam> = refused
        .into_iter()
        .map(|e| {
            let instead = match e.field.as_str() {
                "lang" => match lang_text {
                    Some(code) => Instead::Value(code),
                    None => Instead::Said(BROWSER_LANGUAGE),
                },
                _ => Instead::Value(URL_VERSION),
            };
            BadParam::new(e, instead)
        })
        .collect();
    let (view, view_errs) =
        EmbedView::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    errors.extend(view_errs.into_iter().map(|e| {
        let used = EmbedParam::from_url_key(&e.field).map_or("", |p| view.get(p));
        BadParam::new(e, Instead::Value(used))
    }));
    let (exp, errs) =
        Experiment::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())), limits);
    errors.extend(errs.into_iter().map(|e| {
        let used = Param::from_url_key(&e.field).map(|p| exp.get(p));
        BadParam::new(e, Instead::Value(used.as_deref().unwrap_or_default()))
    }));
    let (real, real_errs) =
        RealSettings::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    errors.extend(real_errs.into_iter().map(|e| {
        let used = RealParam::from_url_key(&e.field).map(|p| real.get(p));
        BadParam::new(e, Instead::Value(used.as_deref().unwrap_or_default()))
    }));
    let (resp, resp_errs) =
        RespSettings::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    errors.extend(resp_errs.into_iter().map(|e| {
        match RespParam::from_url_key(&e.field).map(|p| resp_instead(&resp, p)) {
            Some(Ok(used)) => BadParam::new(e, Instead::Value(&used)),
            Some(Err(said)) => BadParam::new(e, Instead::Said(said)),
            None => BadParam::new(e, Instead::Value("")),
        }
    }));
    let mut page = describe_view(&exp, view, errors);
    page.lang = lang_text;
    with_real(&mut page, real);
    with_resp(&mut page, &resp);
    (exp, page)
}

/// What a refused `resp_*` key leaves the page with.
const THE_SPAN: Text = Text::new("the tasks' span is used", "使用任务的时间跨度");

/// The value of `p` in effect after a refusal (`Ok`: `key=value` is used),
/// or a sentence for a setting that has no value to show.
fn resp_instead(resp: &RespSettings, p: RespParam) -> Result<String, Text> {
    match p {
        RespParam::Window if resp.window.is_none() => Err(THE_SPAN),
        RespParam::CostFrom => Ok(match resp.cost_from {
            CostFrom::Measured | CostFrom::Given => resp.get(p),
            CostFrom::Default => String::new(),
        }),
        _ => Ok(resp.get(p)),
    }
}

/// Adds the Responsiveness section's settings to a described page:
/// non-default `resp_*` keys go after the others and before the embed
/// view's.
fn with_resp(page: &mut PageQuery, resp: &RespSettings) {
    let extra: Vec<String> = resp
        .to_query()
        .into_iter()
        .map(|(k, v)| format!("{k}={}", percent_encode(&v)))
        .collect();
    page.resp_query = extra.join("&");
    insert_before_embed(page, extra);
    page.resp_values = RespParam::ALL
        .into_iter()
        .map(|p| (p.url_key(), resp.get(p)))
        .collect();
}

/// Inserts `extra` pairs into the canonical query, before the embed view's
/// keys, which end a link.
fn insert_before_embed(page: &mut PageQuery, extra: Vec<String>) {
    if extra.is_empty() {
        return;
    }
    let mut parts: Vec<String> = page
        .query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    if parts.is_empty() {
        parts.push(format!("v={URL_VERSION}"));
    }
    let at = parts
        .iter()
        .position(|p| EmbedParam::from_url_key(p.split('=').next().unwrap_or("")).is_some())
        .unwrap_or(parts.len());
    for (i, e) in extra.into_iter().enumerate() {
        parts.insert(at + i, e);
    }
    page.query = parts.join("&");
}

/// Adds the real run's settings to a described page: non-default `real_*`
/// keys go after the experiment's and before the embed view's.
fn with_real(page: &mut PageQuery, real: RealSettings) {
    let extra: Vec<String> = real
        .to_query()
        .into_iter()
        .map(|(k, v)| format!("{k}={}", percent_encode(&v)))
        .collect();
    insert_before_embed(page, extra);
    page.real_values = RealParam::ALL
        .into_iter()
        .map(|p| (p.url_key(), real.get(p)))
        .collect();
}

/// The page's view of a valid experiment, the full page or the embed view.
pub(crate) fn describe(exp: &Experiment, embed: bool, errors: Vec<BadParam>) -> PageQuery {
    describe_view(
        exp,
        EmbedView {
            embed,
            ..EmbedView::default()
        },
        errors,
    )
}

/// The page's view of a valid experiment shown as `view`.
pub(crate) fn describe_view(exp: &Experiment, view: EmbedView, errors: Vec<BadParam>) -> PageQuery {
    let experiment = exp
        .link_query()
        .into_iter()
        .map(|(k, v)| format!("{k}={}", percent_encode(&v)))
        .collect::<Vec<_>>()
        .join("&");
    let view_query = view
        .to_query()
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&");
    let mut parts = Vec::new();
    if !experiment.is_empty() || !view_query.is_empty() {
        parts.push(format!("v={URL_VERSION}"));
    }
    if !experiment.is_empty() {
        parts.push(experiment.clone());
    }
    if !view_query.is_empty() {
        parts.push(view_query.clone());
    }
    PageQuery {
        query: parts.join("&"),
        experiment,
        embed: view.embed,
        view: view.part.name(),
        controls: view.controls,
        theme: view.theme.name(),
        view_query,
        values: Param::ALL
            .into_iter()
            .map(|p| (p.url_key(), exp.get(p)))
            .collect(),
        mix: exp
            .mix
            .classes
            .iter()
            .map(|c| {
                let (lo, hi) = match c.dist {
                    // A class with a QoS, a nice value or an app is edited
                    // as text, so the page writes its `@QOS@nice=N~APP`
                    // back.
                    Dist::Uniform { lo, hi }
                        if c.qos.is_none() && c.nice.is_none() && c.app.is_none() =>
                    {
                        (Some(lo), Some(hi))
                    }
                    _ => (None, None),
                };
                MixRow {
                    weight: c.weight,
                    lo,
                    hi,
                    dist: c.dist_text(),
                }
            })
            .collect(),
        policies: exp.policies.iter().map(|p| p.name()).collect(),
        inert: exp.inert().into_iter().map(|p| p.url_key()).collect(),
        errors,
        estimated_slices: exp.estimated_slices(),
        inline: exp.policies.iter().all(|p| p.built_in()),
        real_values: Default::default(),
        resp_values: Default::default(),
        resp_query: String::new(),
        lang: None,
    }
}

#[cfg(test)]
mod mix_text_tests {
    use super::*;

    #[test]
    fn the_rows_read_back_as_the_mix_they_came_from() {
        let (_, page) = parse("mix=3:1-8,1:exp(5)@utility", &Limits::WEB);
        let typed: Vec<TypedMixRow> = page
            .mix
            .iter()
            .map(|r| match (r.lo, r.hi) {
                (Some(lo), Some(hi)) => TypedMixRow {
                    weight: r.weight.to_string(),
                    lo: Some(format!(" {lo}")),
                    hi: Some(hi.to_string()),
                    dist: None,
                },
                _ => TypedMixRow {
                    weight: r.weight.to_string(),
                    dist: Some(r.dist.clone()),
                    ..TypedMixRow::default()
                },
            })
            .collect();
        assert_eq!(mix_text(&typed), "3:1-8,1:exp(5)@utility");
    }
}
