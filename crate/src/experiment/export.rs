//! Results where people already look: a Chrome Trace Event file (opens in
//! Perfetto and chrome://tracing), a per-task CSV, and the experiment
//! itself as JSON (so a page or a colleague can open the same view again,
//! imported tasks included).
//!
//! Text out, no files: the CLI writes the strings, the page offers them as
//! downloads.

use serde::{Deserialize, Serialize};

use crate::error::ParamError;
use crate::experiment::{Experiment, Limits, Param, PolicyRun, RunOutcome};
use crate::param_spec::Params;
use crate::policy::PolicyKind;
use crate::text::{Filled, Lang, Text};
use crate::workload::mix::{MAX_CLASSES, MAX_TASK_MS};
use crate::workload::task_list::{self, ImportError, MAX_ARRIVAL_MS, MAX_LABEL_CHARS};
use crate::workload::Workload;

/// Most slices written to one trace file (about 150 bytes each, so about
/// 150 MB; Perfetto's UI handles this, chrome://tracing struggles above).
pub const MAX_TRACE_SLICES: u64 = 1_000_000;

/// Why an export could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportError {
    /// The outcome was computed without segments.
    NoSegments,
    /// The policy index is out of range.
    NoSuchPolicy {
        index: usize,
        policies: usize,
    },
    TooManySlices {
        slices: u64,
        limit: u64,
    },
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::NoSegments => f.write_str(
                "the run was made without recording its slices; run it again with segments recorded",
            ),
            ExportError::NoSuchPolicy { index, policies } => write!(
                f,
                "no policy number {index}: the experiment compares {policies}"
            ),
            ExportError::TooManySlices { slices, limit } => write!(
                f,
                "{slices} slices are too many for a trace file (at most {limit}); use fewer tasks or a larger quantum"
            ),
        }
    }
}

impl std::error::Error for ExportError {}

/// The runs an export covers: one (by index) or all.
fn selected(
    outcome: &RunOutcome,
    policy: Option<usize>,
) -> Result<Vec<(usize, &PolicyRun)>, ExportError> {
    match policy {
        None => Ok(outcome.runs.iter().enumerate().collect()),
        Some(i) => outcome
            .runs
            .get(i)
            .map(|r| vec![(i, r)])
            .ok_or(ExportError::NoSuchPolicy {
                index: i,
                policies: outcome.runs.len(),
            }),
    }
}

/// How a policy is named in tables and exports: its title, with the
/// quantum where it uses one (`RR 16ms`, `FIFO`).
pub fn policy_label(p: PolicyKind, quantum: f64) -> String {
    let title = crate::experiment::reading::policy_title(p.name(), Lang::En);
    if p.uses_quantum() {
        format!("{title} {quantum}ms")
    } else {
        title
    }
}

#[derive(Serialize)]
struct TraceFile<'a> {
    #[serde(rename = "traceEvents")]
    trace_events: Vec<TraceEvent<'a>>,
    #[serde(rename = "displayTimeUnit")]
    display_time_unit: &'static str,
    #[serde(rename = "otherData")]
    other_data: TraceInfo,
}

#[derive(Serialize)]
struct TraceInfo {
    generator: &'static str,
    parameters: String,
}

#[derive(Serialize)]
#[serde(untagged)]
enum TraceEvent<'a> {
    Slice {
        ph: &'static str,
        pid: usize,
        tid: u32,
        ts: f64,
        dur: f64,
        name: String,
        cat: &'a str,
        args: SliceArgs<'a>,
    },
    Meta {
        ph: &'static str,
        pid: usize,
        tid: u32,
        name: &'static str,
        args: MetaArgs,
    },
}

#[derive(Serialize)]
struct SliceArgs<'a> {
    task: u32,
    class: &'a str,
    /// 1-based: the k-th time the task was on a core.
    slice: u32,
    arrival_ms: f64,
    work_ms: f64,
    completion_ms: f64,
}

#[derive(Serialize)]
struct MetaArgs {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sort_index: Option<usize>,
}

/// Chrome Trace Event JSON of one policy's schedule (`Some(index)`) or of
/// all of them (`None`): one process per policy (pid = index + 1), one
/// thread per core (tid = core number), so slices never overlap on a
/// track. Times are in µs as the format requires; a slice is named
/// `task N` with the task's class as its category. The outcome must have
/// been run with segments recorded.
pub fn chrome_trace(
    exp: &Experiment,
    outcome: &RunOutcome,
    policy: Option<usize>,
) -> Result<String, ExportError> {
    let runs = selected(outcome, policy)?;
    let w = &outcome.workload;
    let slices: u64 = runs
        .iter()
        .map(|(_, r)| r.schedule.segments.len() as u64)
        .sum();
    if slices > MAX_TRACE_SLICES {
        return Err(ExportError::TooManySlices {
            slices,
            limit: MAX_TRACE_SLICES,
        });
    }
    if !w.is_empty() && runs.iter().any(|(_, r)| r.schedule.segments.is_empty()) {
        return Err(ExportError::NoSegments);
    }
    let mut events = Vec::with_capacity(slices as usize + 8);
    for &(i, run) in &runs {
        let pid = i + 1;
        events.push(TraceEvent::Meta {
            ph: "M",
            pid,
            tid: 0,
            name: "process_name",
            args: MetaArgs {
                name: Some(policy_label(run.policy, exp.quantum)),
                sort_index: None,
            },
        });
        events.push(TraceEvent::Meta {
            ph: "M",
            pid,
            tid: 0,
            name: "process_sort_index",
            args: MetaArgs {
                name: None,
                sort_index: Some(i),
            },
        });
        for c in 0..run.schedule.cores.max(1) as u32 {
            events.push(TraceEvent::Meta {
                ph: "M",
                pid,
                tid: c,
                name: "thread_name",
                args: MetaArgs {
                    name: Some(format!("core {c}")),
                    sort_index: None,
                },
            });
            events.push(TraceEvent::Meta {
                ph: "M",
                pid,
                tid: c,
                name: "thread_sort_index",
                args: MetaArgs {
                    name: None,
                    sort_index: Some(c as usize),
                },
            });
        }
        let mut nth = vec![0u32; w.len()];
        for seg in &run.schedule.segments {
            let t = seg.task as usize;
            nth[t] += 1;
            let class = w
                .class_labels
                .get(w.class[t] as usize)
                .map_or("", String::as_str);
            let ts = seg.start * 1000.0;
            events.push(TraceEvent::Slice {
                ph: "X",
                pid,
                tid: seg.core,
                ts,
                dur: seg.end * 1000.0 - ts,
                name: format!("task {}", seg.task),
                cat: class,
                args: SliceArgs {
                    task: seg.task,
                    class,
                    slice: nth[t],
                    arrival_ms: w.arrival[t],
                    work_ms: w.work[t],
                    completion_ms: run.schedule.outcomes[t].completion,
                },
            });
        }
    }
    let file = TraceFile {
        trace_events: events,
        display_time_unit: "ms",
        other_data: TraceInfo {
            generator: "tailslice",
            parameters: exp
                .to_query()
                .into_iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("&"),
        },
    };
    Ok(serde_json::to_string(&file).expect("a trace serialises"))
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The header of [`tasks_csv`].
pub const TASKS_CSV_HEADER: &str =
    "policy,task,class,arrival_ms,work_ms,first_start_ms,completion_ms,latency_ms,wait_ms,slices";

/// A time in ms as the CSV writes it: rounded to 1e-6 ms (a nanosecond, far
/// below anything the model resolves), in the shortest form that reads back
/// as that value, so a sum of three-decimal durations reads `11.795`, not
/// `11.795000000000002`.
pub(crate) fn csv_ms(ms: f64) -> impl std::fmt::Display {
    // `+ 0.0` turns a rounded `-0` into `0`.
    (ms * 1e6).round() / 1e6 + 0.0
}

/// One row per task and policy (all policies, or one by index). Times are
/// written with [`csv_ms`].
pub fn tasks_csv(outcome: &RunOutcome, policy: Option<usize>) -> Result<String, ExportError> {
    use std::fmt::Write;
    let runs = selected(outcome, policy)?;
    let w = &outcome.workload;
    let mut s = String::with_capacity(64 * w.len() * runs.len() + 128);
    s.push_str(TASKS_CSV_HEADER);
    s.push('\n');
    let labels: Vec<String> = w.class_labels.iter().map(|l| csv_field(l)).collect();
    for (_, run) in runs {
        let name = run.policy.name();
        for (t, o) in run.schedule.outcomes.iter().enumerate() {
            let latency = o.completion - w.arrival[t];
            let _ = writeln!(
                s,
                "{name},{t},{},{},{},{},{},{},{},{}",
                labels.get(w.class[t] as usize).map_or("", String::as_str),
                csv_ms(w.arrival[t]),
                csv_ms(w.work[t]),
                csv_ms(o.first_start),
                csv_ms(o.completion),
                csv_ms(latency),
                csv_ms(latency - w.work[t]),
                o.slices
            );
        }
    }
    Ok(s)
}

// ---------------------------------------------------------------------------
// The experiment as a file

/// The `format` field of an experiment file.
pub(crate) const EXPERIMENT_FORMAT: &str = "tailslice-experiment";
/// The current `version`.
pub(crate) const EXPERIMENT_VERSION: u32 = 1;

/// Imported tasks stored inline, as parallel arrays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct TasksInline {
    pub arrival_ms: Vec<f64>,
    pub duration_ms: Vec<f64>,
    /// Index into `class_labels` per task.
    pub class: Vec<u16>,
    pub class_labels: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct ExperimentJson {
    format: String,
    version: u32,
    /// Every parameter by its URL key, in the text syntax the URL uses.
    params: serde_json::Map<String, serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tasks: Option<TasksInline>,
    /// Whatever the page wants to keep (language, open panel, …); kept
    /// as is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ui: Option<serde_json::Value>,
}

/// An experiment read back from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct ExperimentFile {
    pub experiment: Experiment,
    /// The imported tasks, when the experiment ran on a list.
    pub tasks: Option<Workload>,
    pub ui: Option<serde_json::Value>,
}

/// The experiment as pretty JSON: every parameter (by URL key, as text),
/// the imported tasks if any, and the page's own `ui` state if given.
pub fn experiment_json(
    exp: &Experiment,
    tasks: Option<&Workload>,
    ui: Option<&serde_json::Value>,
) -> String {
    serde_json::to_string_pretty(&experiment_file(exp, tasks, ui))
        .expect("an experiment serialises")
}

/// The experiment file's object as a JSON value (what `measure --json`
/// carries under `experiment`).
pub fn experiment_value(exp: &Experiment, tasks: Option<&Workload>) -> serde_json::Value {
    serde_json::to_value(experiment_file(exp, tasks, None)).expect("an experiment serialises")
}

fn experiment_file(
    exp: &Experiment,
    tasks: Option<&Workload>,
    ui: Option<&serde_json::Value>,
) -> ExperimentJson {
    let params = Param::ALL
        .into_iter()
        .map(|p| {
            (
                p.url_key().to_string(),
                serde_json::Value::String(exp.get(p)),
            )
        })
        .collect();
    ExperimentJson {
        format: EXPERIMENT_FORMAT.to_string(),
        version: EXPERIMENT_VERSION,
        params,
        tasks: tasks.map(|w| TasksInline {
            arrival_ms: w.arrival.clone(),
            duration_ms: w.work.clone(),
            class: w.class.clone(),
            class_labels: w.class_labels.clone(),
        }),
        ui: ui.cloned(),
    }
}

/// Reads a file written by [`experiment_json`]. Unknown parameters are an
/// error here (unlike in a URL): a file is meant to reproduce a view
/// exactly, so silently dropping part of it would mislead.
pub fn parse_experiment_json(text: &str, limits: &Limits) -> Result<ExperimentFile, ImportError> {
    let err = |m: Filled| ImportError::new(None, m);
    // A refusal of a parameter or of the tasks' size, under its part.
    let refused = |part: &'static str, e: ParamError| {
        ImportError::new(
            None,
            Filled::each(|lang| format!("{part}: {}", e.message(lang))),
        )
    };
    if text.len() > task_list::MAX_IMPORT_BYTES * 2 {
        const TOO_LARGE: Text = Text::new(
            "the experiment file is {} bytes; at most {} are accepted",
            "实验文件有 {} 字节；最多接受 {} 字节",
        );
        return Err(err(TOO_LARGE.both(&[
            &text.len().to_string(),
            &(task_list::MAX_IMPORT_BYTES * 2).to_string(),
        ])));
    }
    let file: ExperimentJson = serde_json::from_str(text).map_err(|e| {
        // The JSON reader's own words (position and what it expected).
        const NOT_A_FILE: Text = Text::new(
            "not a tailslice experiment file: {}",
            "不是 tailslice 实验文件：{}",
        );
        ImportError::new(Some(e.line()), NOT_A_FILE.both(&[&e.to_string()]))
    })?;
    if file.format != EXPERIMENT_FORMAT {
        const FORMAT: Text = Text::new("format '{}' is not '{}'", "格式“{}”不是“{}”");
        return Err(err(
            FORMAT.both(&[&crate::error::shown(&file.format), EXPERIMENT_FORMAT])
        ));
    }
    if file.version != EXPERIMENT_VERSION {
        const VERSION: Text = Text::new(
            "version {} is not supported (this tailslice reads version {})",
            "不支持版本 {}（此 tailslice 读取版本 {}）",
        );
        return Err(err(VERSION.both(&[
            &file.version.to_string(),
            &EXPERIMENT_VERSION.to_string(),
        ])));
    }
    let mut exp = Experiment::default();
    for (key, value) in &file.params {
        let Some(p) = Param::from_url_key(key) else {
            const UNKNOWN: Text = Text::new(
                "unknown parameter '{}' in params",
                "params 中有未知参数“{}”",
            );
            return Err(err(UNKNOWN.both(&[&crate::error::shown(key)])));
        };
        let text = match value {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            other => other.to_string(),
        };
        exp.set(p, key, &text, limits)
            .map_err(|e| refused("params", e))?;
    }
    let tasks = match file.tasks {
        None => {
            exp.check_size(limits).map_err(|e| refused("params", e))?;
            None
        }
        Some(t) => {
            let w = inline_workload(t, limits)?;
            exp = exp.for_workload(&w);
            exp.check_imported_size(&w, limits)
                .map_err(|e| refused("tasks", e))?;
            Some(w)
        }
    };
    Ok(ExperimentFile {
        experiment: exp,
        tasks,
        ui: file.ui,
    })
}

fn inline_workload(t: TasksInline, limits: &Limits) -> Result<Workload, ImportError> {
    // `tasks:` before what is wrong with them.
    let err =
        |m: Filled| ImportError::new(None, Filled::each(|lang| format!("tasks: {}", m.get(lang))));
    let n = t.duration_ms.len();
    let max = (limits.max_tasks as usize).min(task_list::MAX_IMPORT_TASKS);
    if n == 0 || n > max {
        const COUNT: Text = Text::new("{} tasks; expected 1 to {}", "{} 个任务；应为 1 到 {} 个");
        return Err(err(COUNT.both(&[&n.to_string(), &max.to_string()])));
    }
    if t.arrival_ms.len() != n || t.class.len() != n {
        const LENGTHS: Text = Text::new(
            "arrival_ms ({}), duration_ms ({}) and class ({}) must have the same length",
            "arrival_ms（{}）、duration_ms（{}）和 class（{}）的长度必须相同",
        );
        return Err(err(LENGTHS.both(&[
            &t.arrival_ms.len().to_string(),
            &n.to_string(),
            &t.class.len().to_string(),
        ])));
    }
    if t.class_labels.is_empty()
        || t.class_labels.len() > MAX_CLASSES
        || t.class_labels
            .iter()
            .any(|l| l.chars().count() > MAX_LABEL_CHARS)
    {
        const LABELS: Text = Text::new(
            "class_labels must hold 1 to {} labels of at most {} characters",
            "class_labels 必须有 1 到 {} 个标签，每个最多 {} 个字符",
        );
        return Err(err(
            LABELS.both(&[&MAX_CLASSES.to_string(), &MAX_LABEL_CHARS.to_string()])
        ));
    }
    for (i, (&a, &d)) in t.arrival_ms.iter().zip(&t.duration_ms).enumerate() {
        // Task, its value, the largest allowed.
        const ARRIVAL: Text = Text::new(
            "task {}: arrival {} must be from 0 to {} ms",
            "任务 {}：到达时间 {} 应在 0 到 {} ms 之间",
        );
        const DURATION: Text = Text::new(
            "task {}: duration {} must be from 0 to {} ms",
            "任务 {}：时长 {} 应在 0 到 {} ms 之间",
        );
        if !(a.is_finite() && (0.0..=MAX_ARRIVAL_MS).contains(&a)) {
            return Err(err(ARRIVAL.both(&[
                &i.to_string(),
                &a.to_string(),
                &MAX_ARRIVAL_MS.to_string(),
            ])));
        }
        if !(d.is_finite() && (0.0..=MAX_TASK_MS).contains(&d)) {
            return Err(err(DURATION.both(&[
                &i.to_string(),
                &d.to_string(),
                &MAX_TASK_MS.to_string(),
            ])));
        }
    }
    if let Some(i) = t
        .class
        .iter()
        .position(|&c| c as usize >= t.class_labels.len())
    {
        const NO_LABEL: Text = Text::new(
            "task {}: class {} has no label (there are {})",
            "任务 {}：类 {} 没有标签（共有 {} 个）",
        );
        return Err(err(NO_LABEL.both(&[
            &i.to_string(),
            &t.class[i].to_string(),
            &t.class_labels.len().to_string(),
        ])));
    }
    Ok(Workload {
        arrival: t.arrival_ms,
        work: t.duration_ms,
        class: t.class,
        class_labels: t.class_labels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_awkward_labels() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("1-8"), "1-8");
    }

    #[test]
    fn csv_times_carry_no_float_noise() {
        assert_eq!(csv_ms(3.931 + 3.932 + 3.932).to_string(), "11.795");
        assert_eq!(csv_ms(0.1 + 0.2).to_string(), "0.3");
        assert_eq!(csv_ms(-1e-12).to_string(), "0");
        assert_eq!(csv_ms(2661.25).to_string(), "2661.25");
        assert_eq!(csv_ms(1.0 / 3.0).to_string(), "0.333333");
        // A FIFO run of three-decimal tasks: every field as typed or summed.
        let w = crate::workload::task_list::parse_task_list("0.1\n0.2\n3.932\n", 10).unwrap();
        let exp = Experiment {
            policies: vec![PolicyKind::Fifo],
            ..Experiment::default()
        };
        let outcome = exp.run_on(w, &Limits::CLI, false).unwrap();
        assert_eq!(outcome.runs[0].schedule.outcomes[1].completion, 0.1 + 0.2);
        let csv = tasks_csv(&outcome, None).unwrap();
        let rows: Vec<&str> = csv.lines().skip(1).collect();
        assert_eq!(rows[1], "fifo,1,imported,0,0.2,0.1,0.3,0.3,0.1,1", "{csv}");
        assert_eq!(
            rows[2], "fifo,2,imported,0,3.932,0.3,4.232,4.232,0.3,1",
            "{csv}"
        );
    }

    #[test]
    fn experiment_round_trip() {
        let exp = Experiment {
            seed: 7,
            quantum: 4.5,
            switch_cost: 0.25,
            ..Experiment::default()
        };
        let back = parse_experiment_json(&experiment_json(&exp, None, None), &Limits::CLI).unwrap();
        assert_eq!(back.experiment, exp);
        assert_eq!(back.tasks, None);
        // With a machine, a QoS mix and xnu.
        let mut exp = Experiment::default();
        let limits = Limits::CLI;
        exp.set(Param::Machine, "machine", "m1", &limits).unwrap();
        exp.set(
            Param::Mix,
            "mix",
            "85:1-8@utility,15:10-40@background",
            &limits,
        )
        .unwrap();
        exp.set(Param::Policies, "p", "rr,xnu", &limits).unwrap();
        let back = parse_experiment_json(&experiment_json(&exp, None, None), &limits).unwrap();
        assert_eq!(back.experiment, exp);
    }
}
