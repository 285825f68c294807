//! The table of scenarios, in the shape of the kernel's `sched_class`: each
//! scenario is a value implementing [`Scenario`] (what it is called, which
//! knobs it reads, how it runs, what the page shows of it), its result a
//! type implementing [`Outcome`] (its text report, its recorded runs, its
//! sentences for the page). The front ends (`cli/scenario.rs`,
//! `web/scenario.rs`, `web/scenario_catalog.rs`) only ever read
//! [`REGISTRY`]; none of them knows any scenario by name.
//!
//! Adding a scenario: write its file (a unit struct deriving `Debug` and
//! implementing [`Scenario`], a result type implementing [`Outcome`] and
//! `serde::Serialize`), then add one line to the `registry!` table below.

use serde::Serialize;

use super::knob::{Knob, Knobs, Text};
use super::RunView;
use crate::policy::PolicyKind;
use crate::scenario::simulation::PriSeries;
use crate::text::Filled;
use crate::text::Lang;

/// One scenario. Implemented by a unit struct in the scenario's own file.
pub trait Scenario: Sync + std::fmt::Debug {
    /// As typed on the CLI (`tailslice scenario <name>`) and in URLs
    /// (`s=<name>`): a public contract.
    fn name(&self) -> &'static str;

    /// One line naming it in the page's picker.
    fn title(&self) -> Text;

    /// The heading of its results table on the page.
    fn table_title(&self) -> Text;

    /// The knobs it reads, in the order the page shows them. Their ranges
    /// and defaults are the knobs' own ([`Knob::control`], [`Knobs::default`]).
    fn knobs(&self) -> &'static [Knob];

    /// Runs it (all its simulations) with these knobs.
    fn run(&self, knobs: &Knobs) -> ScenarioResult;

    /// Which recorded run the page's charts show by default.
    fn default_run(&self, _knobs: &Knobs) -> usize {
        0
    }

    /// State lanes the page draws per thread group (main thread, queues,
    /// workers): enough to see the pattern, few enough to read.
    fn lanes_per_group(&self) -> usize {
        2
    }

    /// The runs the page's charts can pick from with these knobs, in the
    /// order of the result's runs (known before running, so a knob edit
    /// that keeps them keeps the chosen run).
    fn run_labels(&self, knobs: &Knobs) -> Vec<Filled>;
}

/// A run's label in the page's run picker.
pub type RunLabel = Filled;

/// Sentences the page shows around a result's tables, made from the same
/// figures and settings as the tables.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PageText {
    /// One line under the main table.
    pub reading: Filled,
    /// What the sched_pri chart shows, for this run's settings.
    pub pri_caption: Filled,
    /// Under the cores' chart, when the general caption (the main thread
    /// in its own colour, the rest by QoS) does not fit the scenario.
    pub gantt_caption: Filled,
    /// Under the thread states, likewise.
    pub states_caption: Filled,
}

/// One column of a [`PageTable`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PageColumn {
    /// The cells' `data-metric` (the test hooks: the JSON field they show;
    /// `figure_N` for a mechanism table's Nth figure).
    pub key: String,
    pub label: Filled,
    /// A style of its cells (`measured`: the study's figures; `wl`: words
    /// that may wrap).
    pub class: Option<&'static str>,
}

impl PageColumn {
    pub fn new(key: &str, label: Text, class: Option<&'static str>) -> PageColumn {
        PageColumn {
            key: key.into(),
            label: label.into(),
            class,
        }
    }
}

/// What the sched_pri chart shows under `policy`: the main thread, and
/// `with_queue` one queue beside it.
pub fn pri_caption(policy: PolicyKind, band_limit: bool, with_queue: bool) -> Filled {
    const SUBJECT: Text = Text::new("The main thread (base 47).", "主线程（基础优先级 47）。");
    const SUBJECT_AND_QUEUE: Text = Text::new(
        "The main thread (base 47) and one queue.",
        "主线程（基础优先级 47）和一个队列。",
    );
    let how = match policy {
        PolicyKind::Xnu if band_limit => Text::new(
            "With the band limit on, the main thread never decays below 29.",
            "开启优先级衰减下限时，主线程的优先级不会降到 29 以下。",
        ),
        PolicyKind::Xnu => Text::new(
            "With the band limit off, nothing stops the main thread's decay.",
            "关闭优先级衰减下限时，主线程的衰减没有下限。",
        ),
        PolicyKind::Clutch => Text::new(
            "Under Clutch each thread decays with the load of its own clutch bucket; there is no band limit.",
            "在 Clutch 下每个线程随所在 clutch bucket 的负载衰减；没有优先级衰减下限。",
        ),
        _ => {
            return Text::new(
                "This policy has no priorities to draw.",
                "这个策略没有可画的优先级。",
            )
            .into()
        }
    };
    let subject = if with_queue {
        SUBJECT_AND_QUEUE
    } else {
        SUBJECT
    };
    Filled::each(|lang| {
        let gap = if lang == Lang::En { " " } else { "" };
        format!("{}{gap}{}", subject.get(lang), how.get(lang))
    })
}

/// One cell: its text and, for a QoS, the colour swatch before it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PageCell {
    #[serde(flatten)]
    pub text: Filled,
    /// Draw the QoS colour of this number before the text.
    pub qos: Option<u8>,
}

impl PageCell {
    pub fn new(text: Filled) -> PageCell {
        PageCell { text, qos: None }
    }

    /// A figure with `digits` decimals, `—` when there is none.
    pub fn number(v: Option<f64>, digits: usize) -> PageCell {
        PageCell::new(Filled::same(match v {
            Some(v) if v.is_finite() => format!("{v:.digits$}"),
            _ => "—".to_string(),
        }))
    }

    pub fn with_qos(mut self, qos: u8) -> PageCell {
        self.qos = Some(qos);
        self
    }
}

/// One row: its `data-row` key, its heading cell, then one cell per
/// remaining column.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PageRow {
    pub key: String,
    pub cells: Vec<PageCell>,
}

/// A table as the page shows it, laid out in Rust (the page holds no
/// scenario's columns, rows or words).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PageTable {
    /// `main` (the scenario's table) or `mechanisms`.
    pub id: &'static str,
    pub title: Filled,
    /// The first column heads the rows.
    pub columns: Vec<PageColumn>,
    pub rows: Vec<PageRow>,
    /// The sentence under the table.
    pub reading: Filled,
}

impl PageTable {
    /// The mechanism table of a scenario's result.
    pub fn of_mechanisms(t: &super::mechanism::MechanismTable, digits: usize) -> PageTable {
        let mut columns = vec![PageColumn::new(
            "mechanism",
            Text::new("mechanism", "机制"),
            Some("wl"),
        )];
        for (i, (en, zh)) in t.columns.en.iter().zip(&t.columns.zh).enumerate() {
            columns.push(PageColumn {
                key: format!("figure_{i}"),
                label: Filled {
                    en: en.clone(),
                    zh: zh.clone(),
                },
                class: None,
            });
        }
        columns.push(PageColumn::new(
            "reproduces",
            Text::new("within 10 %", "在 10 % 以内"),
            None,
        ));
        let measured_row = PageRow {
            key: "measured".into(),
            cells: std::iter::once(PageCell::new(Filled::from(Text::new("measured", "实测"))))
                .chain(t.measured.iter().map(|m| PageCell::number(*m, digits)))
                .chain(std::iter::once(PageCell::new(Filled::same(""))))
                .collect(),
        };
        let rows = std::iter::once(measured_row)
            .chain(t.rows.iter().map(|r| {
                PageRow {
                    key: r.mechanism.into(),
                    cells: std::iter::once(PageCell::new(Filled {
                        en: r.label.en.to_string(),
                        zh: r.label.zh.to_string(),
                    }))
                    .chain(r.figures.iter().map(|f| PageCell::number(Some(*f), digits)))
                    .chain(std::iter::once(PageCell::new(Filled::from(
                        if r.reproduces {
                            Text::new("yes", "是")
                        } else {
                            Text::new("no", "否")
                        },
                    ))))
                    .collect(),
                }
            }))
            .collect();
        PageTable {
            id: "mechanisms",
            title: t.what.clone(),
            columns,
            rows,
            reading: t.reading.clone(),
        }
    }
}

/// A scenario's result, whatever its shape.
pub trait Outcome {
    /// A plain-text report for the terminal, its notes and calibration in
    /// `lang` (the table itself stays English).
    fn to_text(&self, lang: Lang) -> String;

    /// The recorded runs (per-core segments, thread states), for the
    /// page's charts; empty without the timeline knob.
    fn runs_mut(&mut self) -> &mut Vec<RunView>;

    /// The page's sentences.
    fn page_text(&self) -> PageText;

    /// The page's tables, first the scenario's own, then any mechanism
    /// table.
    fn tables(&self) -> Vec<PageTable>;

    /// Whether the band limit was on, when the result says so for all its
    /// runs (otherwise each run's machine says it).
    fn band_limit(&self) -> Option<bool> {
        None
    }

    /// `sched_pri` series of run `run` when the result keeps them itself,
    /// even without recorded runs (`None`: read them from the run).
    fn pri_series(&self, _run: usize) -> Option<Vec<&PriSeries>> {
        None
    }

    /// Labels of the runs whose priorities the result keeps itself (used
    /// when no run was recorded).
    fn pri_labels(&self) -> Vec<crate::text::Filled> {
        Vec::new()
    }

    /// The simulated span, ms, when every run of it has the same.
    fn simulated_ms(&self) -> Option<f64> {
        None
    }
}

/// Builds [`ScenarioResult`] (one variant per scenario, serialised as the
/// result itself), [`REGISTRY`] and [`Listed`] from one table.
macro_rules! registry {
    ($($variant:ident($result:ty) = $scenario:expr,)+) => {
        /// A scenario's result: the JSON shapes of docs/scenarios.md (extra
        /// fields welcome). `notes` and `calibration` are English; `notes_zh` and
        /// `calibration_zh` say the same in Simplified Chinese.
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[serde(untagged)]
        pub enum ScenarioResult {
            $($variant($result),)+
        }

        $(impl From<$result> for ScenarioResult {
            fn from(r: $result) -> Self {
                ScenarioResult::$variant(r)
            }
        })+

        impl ScenarioResult {
            pub fn outcome(&self) -> &dyn Outcome {
                match self {
                    $(ScenarioResult::$variant(r) => r,)+
                }
            }

            pub fn outcome_mut(&mut self) -> &mut dyn Outcome {
                match self {
                    $(ScenarioResult::$variant(r) => r,)+
                }
            }
        }

        /// Every scenario, in the order the CLI's help and the page list them.
        pub static REGISTRY: &[&dyn Scenario] = &[$(&$scenario,)+];

        /// A scenario of [`REGISTRY`], for code that reads about scenarios
        /// without running them (the page's picker, knobs and URL keys).
        /// Its methods call each scenario's own directly: a `&dyn Scenario`
        /// would link every scenario's simulation into the page's wasm.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Listed {
            $($variant,)+
        }

        impl Listed {
            /// In [`REGISTRY`] order.
            pub const ALL: &'static [Listed] = &[$(Listed::$variant,)+];

            /// The scenario itself (to run it).
            pub fn scenario(self) -> &'static dyn Scenario {
                match self {
                    $(Listed::$variant => &$scenario,)+
                }
            }

            /// See [`Scenario::name`].
            pub fn name(self) -> &'static str {
                match self {
                    $(Listed::$variant => $scenario.name(),)+
                }
            }

            /// See [`Scenario::title`].
            pub fn title(self) -> Text {
                match self {
                    $(Listed::$variant => $scenario.title(),)+
                }
            }

            /// See [`Scenario::table_title`].
            pub fn table_title(self) -> Text {
                match self {
                    $(Listed::$variant => $scenario.table_title(),)+
                }
            }

            /// See [`Scenario::knobs`].
            pub fn knobs(self) -> &'static [Knob] {
                match self {
                    $(Listed::$variant => $scenario.knobs(),)+
                }
            }

            /// See [`Scenario::default_run`].
            pub fn default_run(self, knobs: &Knobs) -> usize {
                match self {
                    $(Listed::$variant => $scenario.default_run(knobs),)+
                }
            }

            /// See [`Scenario::run_labels`].
            pub fn run_labels(self, knobs: &Knobs) -> Vec<Filled> {
                match self {
                    $(Listed::$variant => $scenario.run_labels(knobs),)+
                }
            }

            /// The scenario called `name` (exactly, as the CLI and URLs spell it).
            pub fn find(name: &str) -> Option<Listed> {
                Listed::ALL.iter().copied().find(|s| s.name() == name)
            }
        }
    };
}

registry! {
    FeishuDemo(super::FeishuDemoResult) = super::feishu_demo::FeishuDemo,
    FeishuStartup(super::FeishuStartupResult) = super::feishu_startup::FeishuStartup,
    M1Compress(super::M1CompressResult) = super::m1_compress::M1Compress,
}

impl ScenarioResult {
    /// See [`Outcome::to_text`].
    pub fn to_text(&self, lang: Lang) -> String {
        self.outcome().to_text(lang)
    }
}

/// The scenario called `name` (exactly, as the CLI and URLs spell it).
pub fn find(name: &str) -> Option<&'static dyn Scenario> {
    REGISTRY.iter().copied().find(|s| s.name() == name)
}

/// Every scenario's name, in [`REGISTRY`] order.
pub fn names() -> Vec<&'static str> {
    Listed::ALL.iter().map(|s| s.name()).collect()
}

/// The names as an error message's "expected ...": `a, b or c`.
pub fn allowed_names() -> crate::text::Filled {
    crate::text::either(&names())
}
