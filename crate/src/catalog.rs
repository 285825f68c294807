//! Everything the page must know about the core, in one value: every
//! parameter (URL key, CLI flag, default, range, label and help in English
//! and Chinese), every policy (title, whether it uses the quantum), the
//! reported figures, the QoS classes, the machine presets, the scenarios'
//! names and knobs, and the browser's limits.
//!
//! Each entry is read off the core's own tables (`Param::ALL`,
//! `PolicyKind::ALL`, `Metric::ALL`, `Qos::ALL`, the machine presets,
//! `Knob::ALL`), never copied: a new policy, figure or knob shows up on the
//! page without touching its JavaScript. The wasm export is
//! `crate::web::catalog`.

use serde::Serialize;

use crate::embed::snippet::SnippetKind;
use crate::embed::{EmbedParam, EmbedView};
use crate::error::fmt_number;
use crate::experiment::metric::Metric;
use crate::experiment::preset::PRESETS;
use crate::experiment::reading::{policy_title, RECORDED_TITLE, SAME_PCT};
use crate::experiment::sweep::{SweepLimits, DEFAULT_RANGE_STEPS, MIN_RANGE_STEPS};
use crate::experiment::{Experiment, Limits, Param};
use crate::param_spec::{self, Params, Spec};
use crate::params::query::MixRow;
use crate::params::PageParam;
use crate::policy::{KernelFlavour, PolicyKind};
use crate::realrun::settings::{RealYield, MAX_REPEATS, MIN_REPEATS};
use crate::scenario::{self, Knob};
use crate::sim::machine::{CoreKind, Machine, M1_EP_RATIO};
use crate::sim::Qos;
use crate::text::{Filled, Lang, Text};
use crate::workload::mix::{MAX_CLASSES, NEW_CLASS};
use crate::workload::{task_list, Arrivals};

/// One parameter (its spec row with its default and refusal words).
pub(crate) use crate::param_spec::Entry as ParamEntry;

/// One policy.
#[derive(Clone, Debug, Serialize)]
pub struct PolicyEntry {
    pub name: &'static str,
    /// Its name in headings: the CLI name in capitals (FIFO, RR, …).
    pub title: String,
    pub describe: Text,
    /// Whether its schedule depends on the quantum (the table shows the
    /// quantum beside it; a quantum sweep finds it a best quantum).
    pub uses_quantum: bool,
}

/// One reported figure.
/// A yield primitive of "Run for real"'s menu.
#[derive(Clone, Debug, Serialize)]
pub struct RealYieldEntry {
    pub name: &'static str,
    pub label: Filled,
    /// Whether every browser has it (`auto` falls back), so the page need
    /// not check for it.
    pub always: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct MetricEntry {
    pub name: &'static str,
    /// Column heading; `{ms}` stands for the threshold.
    pub title: Text,
    pub lower_is_better: bool,
    /// `ms` or `tasks`.
    pub unit: &'static str,
    /// Whether it depends on the "done within" threshold (`{ms}` in its
    /// title).
    pub threshold: bool,
}

/// One QoS class.
#[derive(Clone, Debug, Serialize)]
pub struct QosEntry {
    pub name: &'static str,
    pub number: u8,
}

/// One named machine (`--machine` / `m=`).
#[derive(Clone, Debug, Serialize)]
pub struct MachineEntry {
    pub name: String,
    pub p_cores: usize,
    pub e_cores: usize,
    pub band_limit: bool,
}

/// One scenario knob (the scenarios' own table: `Knob::ALL`).
#[derive(Clone, Debug, Serialize)]
pub struct KnobEntry {
    pub key: &'static str,
    pub flag: &'static str,
    pub help: &'static str,
}

/// One value of an embed key, with its name in the Embed dialog.
#[derive(Clone, Debug, Serialize)]
pub struct ChoiceEntry {
    pub value: &'static str,
    pub label: Text,
}

/// One embed key with its choices (the Embed dialog's pickers).
#[derive(Clone, Debug, Serialize)]
pub struct EmbedParamEntry {
    pub key: &'static str,
    pub default: &'static str,
    pub choices: Vec<ChoiceEntry>,
    pub label: Text,
    pub help: Text,
}

/// One snippet the Embed dialog offers (the first is its default).
#[derive(Clone, Debug, Serialize)]
pub struct SnippetEntry {
    pub name: &'static str,
    pub label: Text,
    pub help: Text,
}

/// The Embed dialog's words.
#[derive(Clone, Debug, Serialize)]
pub struct EmbedWords {
    pub title: Text,
    pub copy: Text,
    pub close: Text,
    /// `{}` is the snippet's size in KB.
    pub size: Text,
    pub code: Text,
}

/// Everything the Embed dialog is built from.
#[derive(Clone, Debug, Serialize)]
pub struct EmbedCatalog {
    /// `view`, `controls` and `theme` (the dialog's pickers).
    pub params: Vec<EmbedParamEntry>,
    pub snippets: Vec<SnippetEntry>,
    pub words: EmbedWords,
}

/// The page's thresholds, named once.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BrowserLimits {
    /// At most this many slices (over all policies) run on the page's main
    /// thread: the study is about 1 000, well under a millisecond, and a
    /// round trip to the worker costs more.
    pub inline_max_slices: f64,
    /// Above this many slices a run is "large": progress, and the next
    /// edit cancels it instead of waiting.
    pub large_slices: f64,
    /// Above this many slices the worker keeps no segments (no Gantt).
    pub gantt_max_slices: f64,
    pub max_slices: u64,
    pub max_tasks: u64,
    /// Results with more tasks are shown in two tasks (table, then charts).
    pub large_result_tasks: u32,
    /// An imported list of more tasks runs as a large run (progress,
    /// cancelled by the next edit) whatever its estimate.
    pub large_import_tasks: u32,
    /// Segments drawn per drawing task (a few ms each).
    pub gantt_part_segments: u32,
    /// A pasted task list longer than this is not kept in the text box.
    pub paste_max_chars: u32,
    /// Policies the page compares at once (checkboxes beyond are disabled).
    pub page_max_policies: usize,
    /// Classes the mix editor allows (the mix parser's own limit).
    pub max_classes: usize,
    /// The quantum slider's range in ms (the number box takes any quantum).
    pub quantum_slider: (f64, f64),
    /// The quantum sweep's default number of log-spaced quanta.
    pub sweep_steps: u32,
    /// The fewest and most log-spaced quanta a sweep takes.
    pub sweep_steps_range: (u32, usize),
    /// "Run for real"'s repeats (`real_repeats=`), fewest and most.
    pub real_repeats: (u64, u64),
}

/// See [`BrowserLimits`].
pub const BROWSER_LIMITS: BrowserLimits = BrowserLimits {
    inline_max_slices: 20_000.0,
    large_slices: 300_000.0,
    gantt_max_slices: 3_000_000.0,
    max_slices: Limits::WEB.max_slices,
    max_tasks: Limits::WEB.max_tasks,
    large_result_tasks: 50_000,
    large_import_tasks: 50_000,
    gantt_part_segments: 150_000,
    paste_max_chars: 200_000,
    page_max_policies: 4,
    max_classes: MAX_CLASSES,
    quantum_slider: (1.0, 200.0),
    sweep_steps: DEFAULT_RANGE_STEPS,
    sweep_steps_range: (MIN_RANGE_STEPS, SweepLimits::WEB.max_quanta),
    real_repeats: (MIN_REPEATS, MAX_REPEATS),
};

/// One preset experiment of the page's picker.
#[derive(Clone, Debug, Serialize)]
pub struct PresetEntry {
    /// The experiment's query (the URL's keys; empty for the study).
    pub query: &'static str,
    pub name: Text,
}

/// The whole catalog (see the module's documentation).
#[derive(Clone, Debug, Serialize)]
pub struct Catalog {
    /// The experiment's parameters, in `Param::ALL` order.
    pub params: Vec<ParamEntry>,
    /// The page's own keys (`v`, `embed`, `lang`).
    pub page_params: Vec<ParamEntry>,
    pub policies: Vec<PolicyEntry>,
    /// The heading of a trace's "as recorded" row (first in its table).
    pub recorded_title: Text,
    /// Policies compared at most in one experiment (CLI and URL).
    pub max_compared: usize,
    pub metrics: Vec<MetricEntry>,
    /// Figures the seed sweep and the quantum sweep can plot.
    pub seed_sweep_metrics: Vec<&'static str>,
    pub quantum_sweep_metrics: Vec<&'static str>,
    /// Below this change (in %) a figure counts as unchanged, in the table
    /// and in the generated sentences alike.
    pub same_pct: f64,
    pub langs: Vec<&'static str>,
    /// "Run for real"'s yield primitives (`real_yield=`), in menu order.
    pub real_yields: Vec<&'static str>,
    /// The same primitives with their menu labels.
    pub real_yield_menu: Vec<RealYieldEntry>,
    /// Texts of the page's static markup, by its `data-text` key: the
    /// arrivals' examples and what a task list is.
    pub texts: std::collections::BTreeMap<&'static str, Filled>,
    /// The row the mix editor adds (as `parseQuery`'s `mix` rows).
    pub new_mix_row: MixRow,
    pub qos: Vec<QosEntry>,
    pub machines: Vec<MachineEntry>,
    pub scenarios: Vec<&'static str>,
    pub knobs: Vec<KnobEntry>,
    /// The page's preset experiments, in the picker's order.
    pub presets: Vec<PresetEntry>,
    pub limits: BrowserLimits,
    /// The Responsiveness section's words, yields and keys; left out of the
    /// page's own module (`page`): the section reads the worker module's.
    #[cfg(not(feature = "page"))]
    pub responsiveness: crate::responsiveness::labels::Labels,
    /// The Embed dialog's pickers and words; left out of the page's own
    /// module (`page`): the dialog reads the worker module's catalog.
    #[cfg(not(feature = "page"))]
    pub embed: EmbedCatalog,
}

fn param_entry(p: Param, limits: &Limits) -> ParamEntry {
    let allowed = param_spec::allowed(|v| Experiment::default().set(p, p.url_key(), v, limits));
    let mut entry = p.spec().entry(Experiment::default().get(p), allowed);
    if p == Param::Tasks {
        // The front end's own limit (the spec's range is the CLI's).
        entry.max = Some(limits.max_tasks as f64);
    }
    entry
}

/// The page's own keys (`v`, the embed view's, `lang`), parsed in
/// [`crate::params::query`] (`lang` also by the CLI).
fn page_params() -> Vec<ParamEntry> {
    let page = |p: PageParam| p.spec().entry(p.default().to_string(), p.allowed());
    let embed = EmbedParam::ALL.into_iter().map(|p| {
        let allowed = param_spec::allowed(|v| EmbedView::default().set(p, p.url_key(), v));
        p.spec()
            .entry(EmbedView::default().get(p).to_string(), allowed)
    });
    [page(PageParam::Version)]
        .into_iter()
        .chain(embed)
        .chain([page(PageParam::Lang)])
        .collect()
}

/// The Embed dialog's pickers, snippets and words.
#[cfg_attr(feature = "page", allow(dead_code))]
fn embed_catalog() -> EmbedCatalog {
    EmbedCatalog {
        params: [EmbedParam::View, EmbedParam::Controls, EmbedParam::Theme]
            .into_iter()
            .map(|p| {
                let Spec { label, help, .. } = *p.spec();
                EmbedParamEntry {
                    key: p.url_key(),
                    default: EmbedView::default().get(p),
                    choices: p
                        .choices()
                        .into_iter()
                        .map(|c| ChoiceEntry {
                            value: c.value,
                            label: c.label,
                        })
                        .collect(),
                    label,
                    help,
                }
            })
            .collect(),
        snippets: SnippetKind::ALL
            .into_iter()
            .map(|k| {
                let (label, help) = k.texts();
                SnippetEntry {
                    name: k.name(),
                    label,
                    help,
                }
            })
            .collect(),
        words: EmbedWords {
            title: Text::new("Embed in a blog post", "嵌入博客文章"),
            copy: Text::new("Copy", "复制"),
            close: Text::new("Close", "关闭"),
            size: Text::new("{} KB of HTML", "HTML 共 {} KB"),
            code: Text::new("Embed code", "嵌入代码"),
        },
    }
}

/// Builds the catalog for a front end's limits (the page: `Limits::WEB`).
pub fn catalog(limits: &Limits) -> Catalog {
    let machines = [Machine::a10(), Machine::m1(M1_EP_RATIO), Machine::xeon_w()];
    Catalog {
        params: Param::ALL
            .into_iter()
            .map(|p| param_entry(p, limits))
            .collect(),
        page_params: page_params(),
        policies: PolicyKind::ALL
            .into_iter()
            .map(|p| PolicyEntry {
                name: p.name(),
                title: policy_title(p.name(), Lang::En),
                describe: p.describe(),
                // The core's own test: a policy whose shortest slice is
                // the quantum depends on it.
                uses_quantum: p.uses_quantum(),
            })
            .collect(),
        recorded_title: RECORDED_TITLE,
        max_compared: PolicyKind::MAX_COMPARED,
        metrics: Metric::ALL
            .into_iter()
            .map(|m| MetricEntry {
                name: m.name(),
                title: m.title(),
                lower_is_better: m.lower_is_better(),
                unit: if m.is_ms() { "ms" } else { "tasks" },
                threshold: m.uses_threshold(),
            })
            .collect(),
        seed_sweep_metrics: Metric::SEED_PICK.into_iter().map(Metric::name).collect(),
        quantum_sweep_metrics: Metric::QUANTUM_PICK.into_iter().map(Metric::name).collect(),
        same_pct: SAME_PCT,
        langs: vec![Lang::En.code(), Lang::Zh.code()],
        real_yields: RealYield::ALL.into_iter().map(RealYield::name).collect(),
        new_mix_row: {
            let (weight, lo, hi) = NEW_CLASS;
            MixRow {
                weight,
                lo: Some(lo),
                hi: Some(hi),
                dist: format!("{}-{}", fmt_number(lo), fmt_number(hi)),
            }
        },
        texts: [
            (
                "arrivals_hint",
                Filled::each(|lang| Arrivals::EXAMPLES.get(lang).to_string()),
            ),
            (
                "import_help",
                task_list::import_help(limits.max_tasks as usize),
            ),
        ]
        .into_iter()
        .collect(),
        real_yield_menu: RealYield::ALL
            .into_iter()
            .map(|y| RealYieldEntry {
                name: y.name(),
                label: crate::realrun::text::yield_menu_label(y),
                always: y == RealYield::Auto,
            })
            .collect(),
        qos: Qos::ALL
            .into_iter()
            .map(|q| QosEntry {
                name: q.name(),
                number: q.number(),
            })
            .collect(),
        machines: machines
            .iter()
            .map(|m| MachineEntry {
                name: m.name.clone(),
                p_cores: m
                    .cores
                    .iter()
                    .filter(|c| c.kind == CoreKind::Performance)
                    .count(),
                e_cores: m
                    .cores
                    .iter()
                    .filter(|c| c.kind != CoreKind::Performance)
                    .count(),
                band_limit: KernelFlavour::of(m).band_limit,
            })
            .collect(),
        scenarios: scenario::names(),
        knobs: Knob::ALL
            .into_iter()
            .map(|k| KnobEntry {
                key: k.url_key(),
                flag: k.flag(),
                help: k.spec().help.en,
            })
            .collect(),
        presets: PRESETS
            .iter()
            .map(|p| PresetEntry {
                query: p.query,
                name: p.name,
            })
            .collect(),
        limits: BROWSER_LIMITS,
        #[cfg(not(feature = "page"))]
        responsiveness: crate::responsiveness::labels::labels(),
        #[cfg(not(feature = "page"))]
        embed: embed_catalog(),
    }
}
