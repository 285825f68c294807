//! Rows measured on a real kernel (`tailslice measure`) beside the model's:
//! the JSON shape `measure --json` writes and the page reads back, and how
//! a measured row and its environment are worded. Compiled everywhere (the
//! page reads these files; only the native `kernel` module measures).

use serde::{Deserialize, Serialize};

use super::export::{self, ExperimentFile};
use super::metric::Metric;
use super::Limits;
use crate::text::{Filled, Lang, Text};
use crate::workload::task_list::ImportError;

/// A Linux scheduling policy a model policy stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum KernelPolicy {
    #[serde(rename = "SCHED_FIFO")]
    Fifo,
    #[serde(rename = "SCHED_RR")]
    Rr,
    #[serde(rename = "SCHED_OTHER")]
    Other,
}

impl KernelPolicy {
    pub fn name(self) -> &'static str {
        match self {
            KernelPolicy::Fifo => "SCHED_FIFO",
            KernelPolicy::Rr => "SCHED_RR",
            KernelPolicy::Other => "SCHED_OTHER",
        }
    }

    /// Whether it is a real-time policy (needs root or CAP_SYS_NICE).
    pub fn real_time(self) -> bool {
        self != KernelPolicy::Other
    }
}

/// `[min, max]` of each figure over the repeats.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Spreads {
    pub mean: [f64; 2],
    pub p50: [f64; 2],
    pub p90: [f64; 2],
    pub p95: [f64; 2],
    pub p99: [f64; 2],
    pub max: [f64; 2],
}

/// One policy's measured row: each figure the middle of its repeats.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeasuredRow {
    pub policy: String,
    pub kernel_policy: KernelPolicy,
    pub repeats: usize,
    pub mean: f64,
    pub p50: f64,
    pub p90: f64,
    pub p95: f64,
    pub p99: f64,
    pub max: f64,
    pub spread: Spreads,
    /// Tasks done strictly within the threshold (the middle repeat's).
    pub done_within: u64,
    /// Time on the tasks' CPUs not spent spinning tasks, start instant to
    /// last completion (the releaser, ticks, interrupts, steal, throttling
    /// pauses; idle time too when tasks arrive over time), ms, middle of
    /// the repeats.
    pub other_cpu_ms: f64,
    /// That time as a share of the CPUs' time in the run, 0 to 1.
    pub other_cpu_share: f64,
}

impl MeasuredRow {
    /// A latency figure and its `[min, max]` over the repeats; `None` for
    /// a figure the kernel run does not give a spread of.
    pub fn figure(&self, m: Metric) -> Option<(f64, [f64; 2])> {
        let s = &self.spread;
        Some(match m {
            Metric::Mean => (self.mean, s.mean),
            Metric::P50 => (self.p50, s.p50),
            Metric::P90 => (self.p90, s.p90),
            Metric::P95 => (self.p95, s.p95),
            Metric::P99 => (self.p99, s.p99),
            Metric::Max => (self.max, s.max),
            _ => return None,
        })
    }
}

/// The CPUs of the environment, as far as a reader needs them.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct CpusRead {
    pub online: usize,
    pub used: Vec<usize>,
}

/// The environment a measurement met, as far as a reader needs it (the
/// JSON holds more: see `kernel::report::KernelEnvironment`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct EnvironmentRead {
    pub kernel: String,
    pub hz: Option<u32>,
    pub cpus: CpusRead,
    pub load_average: Option<[f64; 3]>,
}

/// A `measure --json` output read back.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasureFile {
    /// The experiment the model rows ran (its `experiment` key).
    pub file: ExperimentFile,
    pub measured: Vec<MeasuredRow>,
    pub environment: EnvironmentRead,
}

/// Whether `text` looks like `measure --json` output rather than an
/// experiment file: a JSON object with a `measured` key.
pub(crate) fn is_measure_json(value: &serde_json::Value) -> bool {
    value.get("measured").is_some()
}

const FIELD: Text = Text::new(
    "not a tailslice measure output: {}: {}",
    "不是 tailslice measure 的输出：{}：{}",
);
const MISSING: Text = Text::new(
    "not a tailslice measure output: no '{}' (measure --json writes it)",
    "不是 tailslice measure 的输出：缺少“{}”（measure --json 会写出它）",
);
const NOT_FINITE: Text = Text::new(
    "measured row {} ({}): {} is not a finite number of ms ≥ 0",
    "测量行 {}（{}）：{} 不是有限且 ≥ 0 的 ms 数",
);
const UNKNOWN_POLICY: Text = Text::new(
    "measured row {}: policy '{}' is not among the experiment's policies ({})",
    "测量行 {}：策略“{}”不在实验的策略中（{}）",
);

/// Reads `measure --json` output: the experiment (`experiment`, refused by
/// the experiment file's own rules, under `experiment:`), the measured rows
/// and the environment, each refusal naming its field.
pub(crate) fn parse_measure_json(
    value: serde_json::Value,
    limits: &Limits,
) -> Result<MeasureFile, ImportError> {
    let err = |m: Filled| ImportError::new(None, m);
    let field = |key: &str, e: serde_json::Error| err(FIELD.both(&[key, &e.to_string()]));
    let take = |key: &str| {
        value
            .get(key)
            .cloned()
            .ok_or_else(|| err(MISSING.both(&[key])))
    };
    let experiment = take("experiment")?;
    let file = export::parse_experiment_json(&experiment.to_string(), limits).map_err(|e| {
        ImportError::new(
            None,
            Filled::each(|lang| format!("experiment: {}", e.said(lang))),
        )
    })?;
    let measured: Vec<MeasuredRow> =
        serde_json::from_value(take("measured")?).map_err(|e| field("measured", e))?;
    let environment: EnvironmentRead =
        serde_json::from_value(take("environment")?).map_err(|e| field("environment", e))?;
    let names: Vec<&str> = file.experiment.policies.iter().map(|p| p.name()).collect();
    for (i, row) in measured.iter().enumerate() {
        let number = (i + 1).to_string();
        if !names.contains(&row.policy.as_str()) {
            let shown = crate::error::shown(&row.policy);
            return Err(err(UNKNOWN_POLICY.both(&[
                &number,
                &shown,
                &names.join(", "),
            ])));
        }
        for m in Metric::ALL {
            let Some((v, [lo, hi])) = row.figure(m) else {
                continue;
            };
            if ![v, lo, hi].iter().all(|x| x.is_finite() && *x >= 0.0) {
                return Err(err(NOT_FINITE.both(&[&number, &row.policy, m.name()])));
            }
        }
    }
    Ok(MeasureFile {
        file,
        measured,
        environment,
    })
}

/// A measured row's title: `SCHED_FIFO measured`.
pub(crate) const MEASURED_TITLE: Text = Text::new("{} measured", "{} 实测");
/// The environment line under the table.
pub(crate) const ENVIRONMENT_LINE: Text = Text::new(
    "Measured on Linux {}, HZ {}, tasks on CPU {} of {} online, load average before the run {}; each figure the middle of the repeats, min–max under it.",
    "实测于 Linux {}，HZ {}，任务在 CPU {} 上（共 {} 个在线 CPU），运行前平均负载 {}；每个数值取各次重复的中位数，其下为最小值–最大值。",
);
/// Shown instead of the measured rows once the experiment was edited.
pub(crate) const DROPPED: Text = Text::new(
    "Measured rows hidden: the experiment no longer matches the one measured (they return when it matches again).",
    "测量行已隐藏：实验已不同于测量时的实验（恢复一致时会再次显示）。",
);

/// A figure as the tables show it, in ms.
pub(crate) fn ms(v: f64) -> String {
    format!("{v:.1}")
}

/// A spread as the kernel report shows it: `min–max`.
pub(crate) fn spread_text([lo, hi]: [f64; 2]) -> String {
    format!("{}–{}", ms(lo), ms(hi))
}

/// The environment line in `lang`.
pub fn environment_line(env: &EnvironmentRead, lang: Lang) -> String {
    let unknown = "?".to_string();
    let hz = env.hz.map_or_else(|| unknown.clone(), |h| h.to_string());
    let used: Vec<String> = env.cpus.used.iter().map(ToString::to_string).collect();
    let load = env.load_average.map_or(unknown, |[a, b, c]| {
        let sep = if lang == Lang::Zh { "、" } else { ", " };
        [a, b, c].map(|x| x.to_string()).join(sep)
    });
    ENVIRONMENT_LINE.fill(
        lang,
        &[
            &env.kernel,
            &hz,
            &used.join(", "),
            &env.cpus.online.to_string(),
            &load,
        ],
    )
}

/// Reads `text` as `measure --json` output when it is one (a JSON object
/// with a `measured` key); `Ok(None)` for anything else, left to the
/// experiment file's reader and its refusals (size, syntax, format).
pub fn parse_measure_text(text: &str, limits: &Limits) -> Result<Option<MeasureFile>, ImportError> {
    if text.len() > crate::workload::task_list::MAX_IMPORT_BYTES * 2 {
        return Ok(None);
    }
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value) if is_measure_json(&value) => parse_measure_json(value, limits).map(Some),
        _ => Ok(None),
    }
}
