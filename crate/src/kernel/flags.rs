//! `measure`'s flags: its own as spec rows ([`MeasureParam`]: flag, range,
//! help), and the experiment's it takes with what it accepts where that
//! is less than the model's, so that `--help` and the refusals read the
//! same rows and words.

use crate::experiment::{Experiment, Limits, Param};
use crate::param_spec::{self, Entry, Params, Range, Spec};
use crate::text::{Filled, Text};

use super::pass::MAX_THREADS;
use super::plan;
use super::MeasuredPolicy;

/// Largest `--repeats`.
pub const MAX_REPEATS: u32 = 100;
/// Passes per policy without `--repeats`.
pub(crate) const DEFAULT_REPEATS: u32 = 3;

/// A flag only `measure` has. Its rows have no URL key: the page does not
/// measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeasureParam {
    Policies,
    Repeats,
    Cores,
    RtUnthrottled,
}

impl Params for MeasureParam {
    const SPECS: &'static [Spec<MeasureParam>] = &SPECS;
}

impl MeasureParam {
    pub const ALL: [MeasureParam; 4] = param_spec::ids(&SPECS);
}

const SPECS: [Spec<MeasureParam>; 4] = [
    Spec {
        id: MeasureParam::Policies,
        key: "",
        aliases: &[],
        flag: Some("--policies"),
        arg: "LIST",
        range: Range::Other,
        unit: None,
        label: Text::new("Policies", "策略"),
        help: Text::new(
            "Policies to measure, comma-separated.",
            "要测量的策略，以逗号分隔。",
        ),
    },
    Spec {
        id: MeasureParam::Repeats,
        key: "",
        aliases: &[],
        flag: Some("--repeats"),
        arg: "K",
        range: Range::Count {
            min: 1,
            max: MAX_REPEATS as u64,
        },
        unit: None,
        label: Text::new("Repeats", "重复次数"),
        help: Text::new(
            "Passes per policy; each figure is the middle of the repeats, with min and max.",
            "每个策略运行的轮数；每个数字取各轮的中间值，并给出最小值与最大值。",
        ),
    },
    Spec {
        id: MeasureParam::Cores,
        key: "",
        aliases: &[],
        flag: Some("--cores"),
        arg: "N",
        range: Range::Other,
        unit: None,
        label: Text::new("Cores", "核数"),
        help: Text::new(
            "CPUs the tasks run on, the highest numbered (CPU 0 is left to the system when there are more CPUs).",
            "任务运行所在的 CPU，取编号最高的几个（CPU 更多时把 CPU 0 留给系统）。",
        ),
    },
    Spec {
        id: MeasureParam::RtUnthrottled,
        key: "",
        aliases: &[],
        flag: Some("--rt-unthrottled"),
        arg: "",
        range: Range::Other,
        unit: None,
        label: Text::new("RT throttling off", "关闭实时限流"),
        help: Text::new(
            "Switch RT throttling off for the run (sched_rt_runtime_us -1, put back afterwards, also on Ctrl-C); refused when no CPU is left free.",
            "运行期间关闭实时线程限流（sched_rt_runtime_us 设为 -1，结束后恢复，Ctrl-C 时也恢复）；没有空闲 CPU 时拒绝。",
        ),
    },
];

/// Reads `--repeats`: a whole number from 1 to [`MAX_REPEATS`].
pub fn parse_repeats(flag: &str, text: &str) -> Result<u32, String> {
    MeasureParam::Repeats
        .spec()
        .count(flag, text)
        .map(|k| k as u32)
        .map_err(|e| e.to_string())
}

/// What `--cores` accepts: [`plan::choose_cpus`] refuses more CPUs than
/// this process may use.
const CORES_ALLOWED: Text = Text::new(
    "a whole number from 1 to the CPUs this process may use",
    "1 到本进程可用 CPU 数之间的整数",
);

/// What `--tasks` accepts: one thread per task.
pub(crate) fn tasks_allowed() -> String {
    format!("at most {MAX_THREADS} tasks (measure runs one thread per task)")
}

/// The experiment `measure` starts from: the model's, with eevdf ending a
/// used-up slice exactly, as the measured threads (which read their own
/// CPU-time clock) see the kernel do.
pub fn experiment_default() -> Experiment {
    let mut exp = Experiment::default();
    exp.eevdf.hrtick = true;
    exp
}

/// The experiment's parameters `measure` takes (beside its own), in
/// `--help`'s order; `--switch-cost` and `--machine` are the model's alone.
pub const EXPERIMENT_PARAMS: [Param; 8] = [
    Param::Seed,
    Param::Tasks,
    Param::Mix,
    Param::Arrivals,
    Param::Rng,
    Param::Quantum,
    Param::EevdfSliceEnd,
    Param::Within,
];

/// An experiment parameter's `--help` entry for `measure`: the model's
/// row, with what `measure` accepts where it accepts less.
pub fn experiment_entry(p: Param) -> Entry {
    let set = |v: &str| experiment_default().set(p, p.flag(), v, &Limits::CLI);
    let mut entry = p
        .spec()
        .entry(experiment_default().get(p), param_spec::allowed(set));
    match p {
        Param::Tasks => entry.allowed = Filled::same(tasks_allowed()),
        Param::Quantum => entry.allowed = Filled::same(plan::quantum_allowed()),
        _ => {}
    }
    entry
}

/// A flag of `measure`'s own as given.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasureSettings {
    /// `--policies` by name, each with its kernel policy.
    pub policies: Option<Vec<MeasuredPolicy>>,
    pub repeats: u32,
    pub rt_unthrottled: bool,
}

impl Default for MeasureSettings {
    fn default() -> Self {
        MeasureSettings {
            policies: None,
            repeats: DEFAULT_REPEATS,
            rt_unthrottled: false,
        }
    }
}

impl MeasureSettings {
    /// Sets one flag from its value (`--rt-unthrottled` takes none and
    /// ignores it); `--cores` is the experiment's. The refusal names `flag`.
    pub fn set(
        &mut self,
        exp: &mut Experiment,
        p: MeasureParam,
        flag: &str,
        value: &str,
    ) -> Result<(), String> {
        match p {
            MeasureParam::Policies => self.policies = Some(plan::parse_policies(flag, value)?),
            MeasureParam::Repeats => self.repeats = parse_repeats(flag, value)?,
            MeasureParam::Cores => exp
                .set(Param::Cores, flag, value, &Limits::CLI)
                .map_err(|e| e.to_string())?,
            MeasureParam::RtUnthrottled => self.rt_unthrottled = true,
        }
        Ok(())
    }

    /// The flag's `--help` entry: its row, its default and what it
    /// accepts.
    pub fn entry(p: MeasureParam) -> Entry {
        let default = match p {
            MeasureParam::Policies => Experiment::default().get(Param::Policies),
            MeasureParam::Repeats => DEFAULT_REPEATS.to_string(),
            MeasureParam::Cores => Experiment::default().get(Param::Cores),
            MeasureParam::RtUnthrottled => String::new(),
        };
        let allowed = match p {
            MeasureParam::Policies => Filled::same(plan::policies_allowed()),
            MeasureParam::Repeats => {
                param_spec::allowed(|v| p.spec().count("--repeats", v).map(drop))
            }
            MeasureParam::Cores => CORES_ALLOWED.into(),
            MeasureParam::RtUnthrottled => Filled::default(),
        };
        p.spec().entry(default, allowed)
    }
}
