//! The page's query string, read and written natively (no browser types),
//! so that the property tests and the fuzzers exercise the very parser the
//! page runs: [`query`] (the experiment, the embed view, Run for real's and
//! the Responsiveness section's keys, `v` and `lang`) and
//! [`scenario_query`] (`s`, the knobs and `run`). `web` only converts
//! their results to JavaScript values.

pub mod docs;
pub mod query;
pub mod scenario_query;
pub mod url_keys;

use crate::param_spec::{self, Params, Range, Spec};
use crate::query_string::{URL_VERSION, URL_VERSIONS};
use crate::text::{Filled, Lang, Text};

pub use query::{parse, BadParam, PageQuery};
pub use scenario_query::ScenarioQuery;

/// The page's own keys, beside the tables of the experiment, the embed
/// view, the scenarios and the two sections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageParam {
    Version,
    Lang,
    Scenario,
    Run,
}

impl Params for PageParam {
    const SPECS: &'static [Spec<PageParam>] = &SPECS;
}

const SPECS: [Spec<PageParam>; 4] = [
    Spec {
        id: PageParam::Version,
        key: "v",
        aliases: &[],
        flag: None,
        arg: "",
        range: Range::Other,
        unit: None,
        label: Text::new("URL version", "链接格式版本"),
        help: Text::new("The link format's version.", "链接格式的版本。"),
    },
    Spec {
        id: PageParam::Lang,
        key: "lang",
        aliases: &[],
        flag: Some("--lang"),
        arg: "en|zh",
        range: Range::Other,
        unit: None,
        label: Text::new("Language", "语言"),
        help: Text::new(
            "Language of the page and its generated text (default: the browser's).",
            "页面及生成文字的语言（默认：浏览器的语言）。",
        ),
    },
    Spec {
        id: PageParam::Scenario,
        key: scenario_query::SCENARIO_KEY,
        aliases: &[],
        flag: None,
        arg: "",
        range: Range::Other,
        unit: None,
        label: Text::new("Scenario", "场景"),
        help: Text::new(
            "The Apple QoS scenario the page shows instead of the experiment (tailslice scenario NAME).",
            "页面代替实验显示的 Apple QoS 场景（tailslice scenario NAME）。",
        ),
    },
    Spec {
        id: PageParam::Run,
        key: scenario_query::RUN_KEY,
        aliases: &[],
        flag: None,
        arg: "",
        range: Range::Count { min: 0, max: 63 },
        unit: None,
        label: Text::new("Run shown", "显示的运行"),
        help: Text::new(
            "Which of the scenario's runs the charts show.",
            "图表显示场景的哪一次运行。",
        ),
    },
];

impl PageParam {
    /// The default as the catalog and the docs write it.
    pub(crate) fn default(self) -> &'static str {
        match self {
            PageParam::Version => URL_VERSION,
            PageParam::Lang => Lang::En.code(),
            PageParam::Scenario => "",
            PageParam::Run => "0",
        }
    }

    /// What the page accepts, in its refusal's words.
    pub(crate) fn allowed(self) -> Filled {
        match self {
            PageParam::Version => URL_VERSIONS.both(&[URL_VERSION]),
            PageParam::Lang => param_spec::allowed(|v| Lang::parse("lang", v).map(drop)),
            PageParam::Scenario => crate::scenario::allowed_names(),
            PageParam::Run => param_spec::allowed(|v| scenario_query::parse_run(v).map(drop)),
        }
    }
}
