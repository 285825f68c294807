//! An experiment: a workload, the policies to compare and the machine, with
//! every parameter named, defaulted, validated and (de)serialised in one
//! place. The CLI flags and the page's URL are two spellings of this table,
//! so both front ends accept and refuse exactly the same values.
//!
//! - [`run`]: the one runner (every policy on one workload);
//! - [`estimate`]: the one slice estimate and the size guards;
//! - [`summary`] and [`metric`]: the reported figures;
//! - [`reading`]: the result in plain words, in English or Chinese;
//! - [`recorded`]: a trace's tasks as they ran, as a baseline row;
//! - [`row_policy`]: what a report's row is about (a policy, or the trace
//!   as recorded);
//! - [`sweep`]: many seeds or quanta ([`sweep_params`]: its flags);
//!   [`export`]: files out and in;
//! - [`preset`]: the experiments the page offers by name.

pub(crate) mod estimate;
pub mod export;
pub mod measured;
pub mod metric;
pub(crate) mod preset;
pub mod reading;
pub mod recorded;
pub(crate) mod row_policy;
pub(crate) mod run;
pub mod summary;
pub mod sweep;
pub mod sweep_params;
pub mod sweep_reading;

use crate::error::{fmt_number, parse_count, unit, NumberRange, ParamError};
use crate::param_spec::{self, Params, Range, Spec, Unit};
use crate::policy::eevdf::{SLICE_END_EXACT, SLICE_END_TICK};
use crate::policy::{EevdfParams, MlfqParams, PolicyKind};
use crate::rng::{RngKind, MAX_SEED};
use crate::sim::machine::{Machine, M1_EP_RATIO};
use crate::text::Text;
use crate::workload::mix::Mix;
use crate::workload::{Arrivals, WorkloadSpec};

pub use row_policy::RowPolicy;
pub use run::{ExperimentReport, Keep, PolicyReport, PolicyRun, RunOutcome};

/// Largest quantum, switch cost and threshold accepted, in ms.
pub(crate) const MAX_QUANTUM_MS: f64 = 100_000.0;
pub(crate) const MAX_SWITCH_COST_MS: f64 = 1_000.0;
pub(crate) const MAX_WITHIN_MS: f64 = 1e9;
pub(crate) const MAX_CORES: u64 = 256;
/// Most levels an MLFQ may have.
pub(crate) const MAX_MLFQ_LEVELS: u64 = 8;
/// Smallest quantum, non-zero switch cost and threshold, in ms: 1 µs.
/// Below that nothing a scheduler does is measurable, and values such as
/// 1e-308 only made links hundreds of characters long.
pub(crate) const MIN_TIME_MS: f64 = 0.001;

/// The quantum's range (the CLI's `--quantum`, the page's `q`, sweeps).
pub(crate) const QUANTUM_RANGE: NumberRange =
    NumberRange::new(MIN_TIME_MS, MAX_QUANTUM_MS, unit::MS);
/// The switch cost's range: 0 (free) or at least 1 µs.
pub(crate) const SWITCH_COST_RANGE: NumberRange =
    NumberRange::new(MIN_TIME_MS, MAX_SWITCH_COST_MS, unit::MS).or_zero();
/// The "done within" threshold's range.
pub(crate) const WITHIN_RANGE: NumberRange = NumberRange::new(MIN_TIME_MS, MAX_WITHIN_MS, unit::MS);
/// MLFQ's boost period (each boost is an event counted against the size
/// limit, so at least 1 ms).
pub(crate) const MLFQ_BOOST_RANGE: NumberRange =
    NumberRange::new(1.0, MAX_QUANTUM_MS * 100.0, unit::MS);

/// Size limits of a front end: the CLI allows more than a browser tab.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    pub max_tasks: u64,
    /// Slices across all compared policies, estimated before running.
    pub max_slices: u64,
}

impl Limits {
    /// The command line: 5 million tasks, 500 million slices (tens of
    /// seconds at most).
    pub const CLI: Limits = Limits {
        max_tasks: 5_000_000,
        max_slices: 500_000_000,
    };
    /// A browser tab (work runs in a Web Worker; this keeps it to seconds).
    pub const WEB: Limits = Limits {
        max_tasks: 1_000_000,
        max_slices: 30_000_000,
    };
}

/// Every parameter of an experiment (its row in [`Param::SPECS`]: URL key,
/// CLI flag, range, label and help). These names are a public contract:
/// shared links and scripts depend on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    Seed,
    Tasks,
    Mix,
    Quantum,
    Policies,
    Cores,
    SwitchCost,
    Rng,
    Within,
    Arrivals,
    MlfqLevels,
    MlfqBoost,
    Machine,
    EevdfSliceEnd,
}

impl Params for Param {
    const SPECS: &'static [Spec<Param>] = &SPECS;
}

impl Param {
    /// In the order a link writes them.
    pub const ALL: [Param; 14] = param_spec::ids(&SPECS);

    /// The CLI flag (every parameter of an experiment has one).
    pub fn flag(self) -> &'static str {
        self.spec().flag.unwrap_or_default()
    }
}

const SPECS: [Spec<Param>; 14] = [
    Spec {
        id: Param::Seed,
        key: "seed",
        aliases: &[],
        flag: Some("--seed"),
        arg: "N",
        range: Range::Count { min: 0, max: MAX_SEED },
        unit: None,
        label: Text::new("Seed", "随机种子"),
        help: Text::new(
                "Workload seed: the same seed draws the same tasks.",
                "工作负载的种子：同一种子抽出同样的任务。",
            ),
    },
    Spec {
        id: Param::Tasks,
        key: "n",
        aliases: &["tasks"],
        flag: Some("--tasks"),
        arg: "N",
        range: Range::Count {
            min: 1,
            max: Limits::CLI.max_tasks,
        },
        unit: None,
        label: Text::new("Tasks", "任务数"),
        help: Text::new("Number of tasks to draw.", "要抽取的任务数量。"),
    },
    Spec {
        id: Param::Mix,
        key: "mix",
        aliases: &[],
        flag: Some("--mix"),
        arg: "SPEC",
        range: Range::Other,
        unit: None,
        label: Text::new("Task mix", "任务构成"),
        help: Text::new(
                "WEIGHT:DIST[@QOS][@nice=N][~APP] classes joined by commas; DIST is LO-HI, fixed(MS), exp(MEAN), lognormal(MU,SIGMA) or pareto(XM,ALPHA); QOS (for xnu and clutch) e.g. userInitiated, utility, background; N (for eevdf) a nice value from -20 to 19; APP (for clutch) names the class's app, optionally with :ui or :efficient.",
                "以逗号分隔的 权重:分布[@QOS][@nice=N][~APP] 类；分布为 LO-HI、fixed(MS)、exp(MEAN)、lognormal(MU,SIGMA) 或 pareto(XM,ALPHA)；QOS（xnu 与 clutch 使用）如 userInitiated、utility、background；N（eevdf 使用）为 -20 到 19 的 nice 值；APP（clutch 使用）为该类所属应用的名字，可加 :ui 或 :efficient。",
            ),
    },
    Spec {
        id: Param::Quantum,
        key: "q",
        aliases: &[],
        flag: Some("--quantum"),
        arg: "",
        range: Range::Number(QUANTUM_RANGE),
        unit: Some(Unit::Ms),
        label: Text::new("Quantum", "时间片"),
        help: Text::new(
                "Time slice of round-robin and MLFQ's top level.",
                "轮转调度与 MLFQ 最高级的时间片。",
            ),
    },
    Spec {
        id: Param::Policies,
        key: "p",
        aliases: &[],
        flag: Some("--policies"),
        arg: "LIST",
        range: Range::Other,
        unit: None,
        label: Text::new("Policies", "策略"),
        help: Text::new(
                "Policies to compare, comma-separated; the first is the baseline.",
                "要比较的策略，以逗号分隔；第一个为基准。",
            ),
    },
    Spec {
        id: Param::Cores,
        key: "cores",
        aliases: &[],
        flag: Some("--cores"),
        arg: "N",
        range: Range::Count {
            min: 1,
            max: MAX_CORES,
        },
        unit: None,
        label: Text::new("Cores", "核数"),
        help: Text::new("Identical cores sharing the tasks.", "共同执行任务的相同核心数。"),
    },
    Spec {
        id: Param::SwitchCost,
        key: "cs",
        aliases: &[],
        flag: Some("--switch-cost"),
        arg: "",
        range: Range::Number(SWITCH_COST_RANGE),
        unit: Some(Unit::Ms),
        label: Text::new("Switch cost", "切换开销"),
        help: Text::new(
                "Charged each time a core changes task.",
                "核心每次切换任务时付出的开销。",
            ),
    },
    Spec {
        id: Param::Rng,
        key: "rng",
        aliases: &[],
        flag: Some("--rng"),
        arg: "KIND",
        range: Range::Other,
        unit: None,
        label: Text::new("Random numbers", "随机数"),
        help: Text::new(
                "python is bit-exact with the study's CPython random; fast is quicker.",
                "python 与研究所用的 CPython 随机数生成器逐位一致；fast 更快。",
            ),
    },
    Spec {
        id: Param::Within,
        key: "within",
        aliases: &[],
        flag: Some("--within"),
        arg: "",
        range: Range::Number(WITHIN_RANGE),
        unit: Some(Unit::Ms),
        label: Text::new("Done within", "完成时限"),
        help: Text::new(
                "The \"done within\" column counts latencies below this.",
                "“限时内完成”一列统计延迟低于此值的任务。",
            ),
    },
    Spec {
        id: Param::Arrivals,
        key: "arrivals",
        aliases: &[],
        flag: Some("--arrivals"),
        arg: "SPEC",
        range: Range::Other,
        unit: None,
        label: Text::new("Arrivals", "到达方式"),
        help: Text::new(
                "t0 (all at once), poisson:LOAD or burst:COUNT@PERIOD.",
                "t0（同时到达）、poisson:负载 或 burst:数量@周期。",
            ),
    },
    Spec {
        id: Param::MlfqLevels,
        key: "mlfq_levels",
        aliases: &[],
        flag: Some("--mlfq-levels"),
        arg: "N",
        range: Range::Count {
            min: 1,
            max: MAX_MLFQ_LEVELS,
        },
        unit: None,
        label: Text::new("MLFQ levels", "MLFQ 级数"),
        help: Text::new("Priority levels of the multi-level feedback queue.", "多级反馈队列的优先级数。"),
    },
    Spec {
        id: Param::MlfqBoost,
        key: "mlfq_boost",
        aliases: &[],
        flag: Some("--mlfq-boost"),
        arg: "",
        range: Range::Number(MLFQ_BOOST_RANGE),
        unit: Some(Unit::Ms),
        label: Text::new("MLFQ boost", "MLFQ 提升周期"),
        help: Text::new(
                "Period of MLFQ's priority boost, or off.",
                "MLFQ 优先级提升的周期，或 off。",
            ),
    },
    Spec {
        id: Param::Machine,
        key: "machine",
        aliases: &[],
        flag: Some("--machine"),
        arg: "M",
        range: Range::Other,
        unit: None,
        label: Text::new("Machine", "机器"),
        help: Text::new(
                "a10, m1, xeon-w or <P>p+<E>e (E cores at 0.30× a P core) instead of identical cores; empty: identical cores.",
                "a10、m1、xeon-w 或 <P>p+<E>e（E 核速度为 P 核的 0.30 倍），代替相同核心；留空则为相同核心。",
            ),
    },
    Spec {
        id: Param::EevdfSliceEnd,
        key: "eevdf_slice_end",
        aliases: &[],
        flag: Some("--eevdf-slice-end"),
        arg: "END",
        range: Range::Other,
        unit: None,
        label: Text::new("EEVDF slice end", "EEVDF 时间片结束方式"),
        help: Text::new(
                "When eevdf ends a used-up slice: tick (at the next 4 ms scheduler tick, the kernel's default) or exact (the moment it is used up, as with HRTICK, or as for a thread that reads its own CPU-time clock).",
                "eevdf 何时结束用完的时间片：tick（在下一个 4 ms 调度时钟节拍，内核默认）或 exact（用完即结束，如 HRTICK，或线程读取自己的 CPU 时间时钟时）。",
            ),
    },
];

/// One experiment, fully specified.
#[derive(Clone, Debug, PartialEq)]
pub struct Experiment {
    pub rng: RngKind,
    pub seed: u64,
    pub tasks: usize,
    pub mix: Mix,
    pub arrivals: Arrivals,
    pub quantum: f64,
    pub policies: Vec<PolicyKind>,
    pub cores: usize,
    pub switch_cost: f64,
    pub within: f64,
    pub mlfq: MlfqParams,
    /// `eevdf`'s knobs: only how a used-up slice ends is a parameter
    /// (`tick` or `exact`); the rest stay the kernel's defaults.
    pub eevdf: EevdfParams,
    /// The machine, when not `cores` identical cores (`a10`, `m1`,
    /// `xeon-w`, `<P>p+<E>e`; E cores at the calibrated M1 speed).
    pub machine: Option<Machine>,
}

impl Default for Experiment {
    /// The study: seed 42, 400 tasks, its mix, all at t = 0, 16 ms quantum,
    /// FIFO against round-robin on one core, free switches, done within
    /// 100 ms.
    fn default() -> Self {
        Experiment {
            rng: RngKind::Python,
            seed: 42,
            tasks: 400,
            mix: Mix::default(),
            arrivals: Arrivals::T0,
            quantum: 16.0,
            policies: vec![PolicyKind::Fifo, PolicyKind::Rr],
            cores: 1,
            switch_cost: 0.0,
            within: 100.0,
            mlfq: MlfqParams::default(),
            eevdf: EevdfParams::default(),
            machine: None,
        }
    }
}

impl Experiment {
    /// Sets one parameter from text. `name` is how the user spelled it (a
    /// flag or URL key) and is used in the error.
    pub fn set(
        &mut self,
        param: Param,
        name: &str,
        value: &str,
        limits: &Limits,
    ) -> Result<(), ParamError> {
        match param {
            Param::Seed => self.seed = param.spec().count(name, value)?,
            Param::Tasks => self.tasks = parse_count(name, value, 1, limits.max_tasks)? as usize,
            Param::Mix => self.mix = Mix::parse(name, value)?,
            Param::Quantum => self.quantum = param.spec().number(name, value)?,
            Param::Policies => self.policies = PolicyKind::parse_list(name, value)?,
            Param::Cores => self.cores = param.spec().count(name, value)? as usize,
            // Empty: no machine, `cores` identical cores (what an
            // experiment file without a machine writes).
            Param::Machine if value.trim().is_empty() => self.machine = None,
            Param::Machine => self.machine = Some(Machine::parse(name, value, M1_EP_RATIO)?),
            Param::SwitchCost => self.switch_cost = param.spec().number(name, value)?,
            Param::Rng => self.rng = RngKind::parse_named(name, value)?,
            Param::Within => self.within = param.spec().number(name, value)?,
            Param::Arrivals => self.arrivals = Arrivals::parse(name, value)?,
            Param::MlfqLevels => self.mlfq.levels = param.spec().count(name, value)? as u8,
            Param::EevdfSliceEnd => self.eevdf.hrtick = parse_slice_end(name, value)?,
            Param::MlfqBoost => {
                self.mlfq.boost = if value.trim() == "off" {
                    f64::INFINITY
                } else {
                    param.spec().number(name, value).map_err(|e| ParamError {
                        allowed: e.allowed.within(OR_OFF, &[]),
                        ..e
                    })?
                }
            }
        }
        Ok(())
    }

    /// The parameter's current value as text, in the syntax `set` reads.
    pub fn get(&self, param: Param) -> String {
        match param {
            Param::Seed => self.seed.to_string(),
            Param::Tasks => self.tasks.to_string(),
            Param::Mix => self.mix.to_string(),
            Param::Quantum => fmt_number(self.quantum),
            Param::Policies => self
                .policies
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(","),
            Param::Cores => self.cores.to_string(),
            Param::Machine => self
                .machine
                .as_ref()
                .map_or_else(String::new, |m| m.name.clone()),
            Param::SwitchCost => fmt_number(self.switch_cost),
            Param::Rng => self.rng.name().to_string(),
            Param::Within => fmt_number(self.within),
            Param::Arrivals => self.arrivals.to_string(),
            Param::MlfqLevels => self.mlfq.levels.to_string(),
            Param::EevdfSliceEnd => self.eevdf.slice_end().to_string(),
            Param::MlfqBoost => {
                if self.mlfq.boost.is_finite() {
                    fmt_number(self.mlfq.boost)
                } else {
                    "off".to_string()
                }
            }
        }
    }

    /// Reads URL query pairs (already percent-decoded) as
    /// [`param_spec::read_query`] does: unknown keys are ignored (other
    /// tools may add their own), a bad value is reported and that parameter
    /// keeps its default, so the rest of a link still opens. A run too large for `limits` is reported under the key
    /// that is put back to its default: the quantum first, then the task
    /// count.
    pub fn from_query<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
        limits: &Limits,
    ) -> (Experiment, Vec<ParamError>) {
        let mut exp = Experiment::default();
        let mut errors =
            param_spec::read_query(pairs, |p, key, value| exp.set(p, key, value, limits));
        if exp.check_size(limits).is_err() {
            let default = Experiment::default();
            let with_quantum = Experiment {
                quantum: default.quantum,
                ..exp.clone()
            };
            let with_tasks = Experiment {
                tasks: default.tasks,
                ..exp.clone()
            };
            let with_both = Experiment {
                tasks: default.tasks,
                quantum: default.quantum,
                ..exp.clone()
            };
            let blame_q = exp.size_error(Param::Quantum, limits);
            let blame_n = exp.size_error(Param::Tasks, limits);
            exp = if with_quantum.check_size(limits).is_ok() {
                errors.push(blame_q);
                with_quantum
            } else if with_tasks.check_size(limits).is_ok() {
                errors.push(blame_n);
                with_tasks
            } else {
                errors.push(blame_q);
                errors.push(blame_n);
                if with_both.check_size(limits).is_ok() {
                    with_both
                } else {
                    default
                }
            };
        }
        (exp, errors)
    }

    /// Query pairs for every parameter that differs from the default, in the
    /// order of [`Param::ALL`].
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        let default = Experiment::default();
        Param::ALL
            .into_iter()
            .filter(|&p| self.get(p) != default.get(p))
            .map(|p| (p.url_key(), self.get(p)))
            .collect()
    }

    /// [`Self::to_query`] without the parameters that change nothing as
    /// the experiment stands ([`Self::inert`]): the page's link, which
    /// does not keep a `cores=` a named machine overrides.
    pub fn link_query(&self) -> Vec<(&'static str, String)> {
        let inert: Vec<&str> = self.inert().into_iter().map(Param::url_key).collect();
        self.to_query()
            .into_iter()
            .filter(|(k, _)| !inert.contains(k))
            .collect()
    }

    pub fn workload_spec(&self) -> WorkloadSpec {
        WorkloadSpec {
            rng: self.rng,
            seed: self.seed,
            tasks: self.tasks,
            mix: self.mix.clone(),
            arrivals: self.arrivals,
            cores: self.core_count(),
        }
    }

    /// The machine the policies run on: `--machine`, else `cores`
    /// identical cores (so old links open the same experiment).
    pub fn machine(&self) -> Machine {
        self.machine
            .clone()
            .unwrap_or_else(|| Machine::identical(self.cores))
    }

    /// Parameters that change nothing in this experiment as it stands:
    /// `cores` when a machine is named (the page greys its control out).
    pub fn inert(&self) -> Vec<Param> {
        let mut out = Vec::new();
        if self.machine.is_some() {
            out.push(Param::Cores);
        }
        out
    }

    /// How many cores that machine has.
    pub fn core_count(&self) -> usize {
        self.machine.as_ref().map_or(self.cores, |m| m.cores.len())
    }
}

const SLICE_ENDS: Text = Text::new("tick or exact", "tick 或 exact");

/// Reads `eevdf_slice_end`: whether `eevdf` ends a used-up slice exactly
/// (HRTICK) rather than at the next tick.
fn parse_slice_end(name: &str, value: &str) -> Result<bool, ParamError> {
    match value.trim() {
        SLICE_END_TICK => Ok(false),
        SLICE_END_EXACT => Ok(true),
        _ => Err(ParamError::new(name, value, SLICE_ENDS.both(&[]))),
    }
}

const OR_OFF: Text = Text::new("off or {}", "off 或 {}");

pub(crate) use crate::param_spec::repeated;
