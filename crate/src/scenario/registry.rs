//! The scenarios: [`ScenarioKind`] names each one and says what it is
//! called, which knobs it reads, how it runs and what the page shows of it,
//! by plain `match` (as `PolicyKind::run` does for the classes); its result
//! is a type implementing [`ScenarioOutcome`] (its text report, its
//! recorded runs, its sentences for the page). The front ends
//! (`cli/scenario.rs`, `web/scenario.rs`, `web/scenario_catalog.rs`) only
//! ever go through [`ScenarioKind`]; none of them knows any scenario by name.
//!
//! Adding a scenario: write its file (its `run`, its `run_labels` and a
//! result type implementing [`ScenarioOutcome`] and `serde::Serialize`),
//! then add a variant to [`ScenarioKind`] and [`ScenarioResult`] and an arm
//! to each `match` (the compiler lists them).

use serde::Serialize;

use super::knob::{Knob, Knobs, Text};
use super::RunView;
use crate::policy::PolicyKind;
use crate::scenario::simulation::PriSeries;
use crate::text::Filled;
use crate::text::Lang;

/// One scenario. Its methods read no simulation but [`ScenarioKind::run`]:
/// the page's module, which only lists scenarios, links none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScenarioKind {
    FeishuDemo,
    FeishuStartup,
    M1Compress,
}

impl ScenarioKind {
    /// In the order the CLI's help and the page list them.
    pub const ALL: &'static [ScenarioKind] = &[
        ScenarioKind::FeishuDemo,
        ScenarioKind::FeishuStartup,
        ScenarioKind::M1Compress,
    ];

    /// As typed on the CLI (`tailslice scenario <name>`) and in URLs
    /// (`s=<name>`): a public contract.
    pub fn name(self) -> &'static str {
        match self {
            ScenarioKind::FeishuDemo => "feishu-demo",
            ScenarioKind::FeishuStartup => "feishu-startup",
            ScenarioKind::M1Compress => "m1-compress",
        }
    }

    /// The scenario called `name` (exactly, as the CLI and URLs spell it).
    pub fn find(name: &str) -> Option<ScenarioKind> {
        ScenarioKind::ALL.iter().copied().find(|s| s.name() == name)
    }

    /// One line naming it in the page's picker.
    pub fn title(self) -> Text {
        match self {
            ScenarioKind::FeishuDemo => Text::new(
                "Feishu demo: 100 spinning queues vs the main thread (A10)",
                "飞书演示：100 个空转队列与主线程（A10）",
            ),
            ScenarioKind::FeishuStartup => Text::new(
                "Feishu start-up: QoS whitelist for the first refresh",
                "飞书启动：首次刷新的 QoS 白名单",
            ),
            ScenarioKind::M1Compress => Text::new(
                "M1 vs Intel: compressing at QoS 9 to 33",
                "M1 与 Intel：以 QoS 9 到 33 压缩",
            ),
        }
    }

    /// The heading of its results table on the page.
    pub fn table_title(self) -> Text {
        match self {
            ScenarioKind::FeishuDemo => Text::new(
                "Main thread time by queue group (%)",
                "按队列组统计的主线程时间（%）",
            ),
            ScenarioKind::FeishuStartup => {
                Text::new("Start-up milestones (ms)", "启动里程碑（ms）")
            }
            ScenarioKind::M1Compress => Text::new("Job times (s)", "任务耗时（秒）"),
        }
    }

    /// The knobs it reads, in the order the page shows them. Their ranges
    /// and defaults are the knobs' own ([`Knob::control`], [`Knobs::default`]).
    pub fn knobs(self) -> &'static [Knob] {
        use Knob::*;
        match self {
            ScenarioKind::FeishuDemo => &[
                BandLimit,
                Queues,
                Groups,
                Machine,
                EpRatio,
                SystemWork,
                Seconds,
                Timeline,
                Policy,
                ClutchRules,
            ],
            ScenarioKind::FeishuStartup => &[
                BandLimit,
                Machine,
                EpRatio,
                SystemWork,
                Timeline,
                Policy,
                ClutchRules,
            ],
            ScenarioKind::M1Compress => &[
                BandLimit,
                Machine,
                EpRatio,
                SystemWork,
                Timeline,
                Policy,
                ClutchRules,
                GcdCap,
            ],
        }
    }

    /// Runs it (all its simulations) with these knobs.
    pub fn run(self, knobs: &Knobs) -> ScenarioResult {
        match self {
            ScenarioKind::FeishuDemo => super::feishu_demo::run(knobs).into(),
            ScenarioKind::FeishuStartup => super::feishu_startup::run(knobs).into(),
            ScenarioKind::M1Compress => super::m1_compress::run(knobs).into(),
        }
    }

    /// Which recorded run the page's charts show by default.
    pub fn default_run(self, knobs: &Knobs) -> usize {
        match self {
            ScenarioKind::M1Compress => super::m1_compress::default_run(knobs),
            _ => 0,
        }
    }

    /// State lanes the page draws per thread group (main thread, queues,
    /// workers): enough to see the pattern, few enough to read. Feishu
    /// demo's: the main thread and the first two queues; start-up's: the
    /// main thread and the first few start-up workers of each queue.
    pub fn lanes_per_group(self) -> usize {
        match self {
            ScenarioKind::FeishuDemo => 3,
            ScenarioKind::FeishuStartup => 5,
            ScenarioKind::M1Compress => 2,
        }
    }

    /// The runs the page's charts can pick from with these knobs, in the
    /// order of the result's runs (known before running, so a knob edit
    /// that keeps them keeps the chosen run).
    pub fn run_labels(self, knobs: &Knobs) -> Vec<Filled> {
        match self {
            ScenarioKind::FeishuDemo => super::feishu_demo::run_labels(knobs),
            ScenarioKind::FeishuStartup => super::feishu_startup::run_labels(knobs),
            ScenarioKind::M1Compress => super::m1_compress::run_labels(knobs),
        }
    }
}

/// A run's label in the page's run picker.
pub(crate) type RunLabel = Filled;

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
    pub(crate) fn new(key: &str, label: Text, class: Option<&'static str>) -> PageColumn {
        PageColumn {
            key: key.into(),
            label: label.into(),
            class,
        }
    }
}

/// What the sched_pri chart shows under `policy`: the main thread, and
/// `with_queue` one queue beside it.
pub(crate) fn pri_caption(policy: PolicyKind, band_limit: bool, with_queue: bool) -> Filled {
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
    pub(crate) fn new(text: Filled) -> PageCell {
        PageCell { text, qos: None }
    }

    /// A figure with `digits` decimals, `—` when there is none.
    pub(crate) fn number(v: Option<f64>, digits: usize) -> PageCell {
        PageCell::new(Filled::same(match v {
            Some(v) if v.is_finite() => format!("{v:.digits$}"),
            _ => "—".to_string(),
        }))
    }

    pub(crate) fn with_qos(mut self, qos: u8) -> PageCell {
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
    pub(crate) fn of_mechanisms(t: &super::mechanism::MechanismTable, digits: usize) -> PageTable {
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
pub trait ScenarioOutcome {
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

/// A scenario's result: the JSON shapes of docs/scenarios.md (extra
/// fields welcome). `notes` and `calibration` are English; `notes_zh` and
/// `calibration_zh` say the same in Simplified Chinese.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ScenarioResult {
    FeishuDemo(super::FeishuDemoResult),
    FeishuStartup(super::FeishuStartupResult),
    M1Compress(super::M1CompressResult),
}

impl From<super::FeishuDemoResult> for ScenarioResult {
    fn from(r: super::FeishuDemoResult) -> Self {
        ScenarioResult::FeishuDemo(r)
    }
}

impl From<super::FeishuStartupResult> for ScenarioResult {
    fn from(r: super::FeishuStartupResult) -> Self {
        ScenarioResult::FeishuStartup(r)
    }
}

impl From<super::M1CompressResult> for ScenarioResult {
    fn from(r: super::M1CompressResult) -> Self {
        ScenarioResult::M1Compress(r)
    }
}

impl ScenarioResult {
    pub fn outcome(&self) -> &dyn ScenarioOutcome {
        match self {
            ScenarioResult::FeishuDemo(r) => r,
            ScenarioResult::FeishuStartup(r) => r,
            ScenarioResult::M1Compress(r) => r,
        }
    }

    pub fn outcome_mut(&mut self) -> &mut dyn ScenarioOutcome {
        match self {
            ScenarioResult::FeishuDemo(r) => r,
            ScenarioResult::FeishuStartup(r) => r,
            ScenarioResult::M1Compress(r) => r,
        }
    }

    /// See [`ScenarioOutcome::to_text`].
    pub fn to_text(&self, lang: Lang) -> String {
        self.outcome().to_text(lang)
    }
}

/// Every scenario's name, in [`ScenarioKind::ALL`] order.
pub fn names() -> Vec<&'static str> {
    ScenarioKind::ALL.iter().map(|s| s.name()).collect()
}

/// The names as an error message's "expected ...": `a, b or c`.
pub fn allowed_names() -> crate::text::Filled {
    crate::text::either(&names())
}
