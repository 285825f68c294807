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
//! - [`sweep`]: many seeds or quanta; [`export`]: files out and in;
//! - [`preset`]: the experiments the page offers by name.

pub mod estimate;
pub mod export;
pub mod measured;
pub mod metric;
pub mod preset;
pub mod reading;
pub mod recorded;
pub mod run;
pub mod summary;
pub mod sweep;

use crate::error::{fmt_number, parse_count, unit, NumberRange, ParamError};
use crate::policy::eevdf::{SLICE_END_EXACT, SLICE_END_TICK};
use crate::policy::{EevdfParams, MlfqParams, PolicyKind};
use crate::rng::{RngKind, MAX_SEED};
use crate::sim::machine::{Machine, M1_EP_RATIO};
use crate::text::Text;
use crate::workload::mix::{Mix, DEFAULT_MIX};
use crate::workload::{Arrivals, WorkloadSpec};

pub use run::{Keep, Outcome, PolicyReport, PolicyRun, Report};

/// Largest quantum, switch cost and threshold accepted, in ms.
pub const MAX_QUANTUM_MS: f64 = 100_000.0;
pub const MAX_SWITCH_COST_MS: f64 = 1_000.0;
pub const MAX_WITHIN_MS: f64 = 1e9;
pub const MAX_CORES: u64 = 256;
/// Most levels an MLFQ may have.
pub const MAX_MLFQ_LEVELS: u64 = 8;
/// Smallest quantum, non-zero switch cost and threshold, in ms: 1 µs.
/// Below that nothing a scheduler does is measurable, and values such as
/// 1e-308 only made links hundreds of characters long.
pub const MIN_TIME_MS: f64 = 0.001;

/// The quantum's range (the CLI's `--quantum`, the page's `q`, sweeps).
pub const QUANTUM_RANGE: NumberRange = NumberRange::new(MIN_TIME_MS, MAX_QUANTUM_MS, unit::MS);
/// The switch cost's range: 0 (free) or at least 1 µs.
pub const SWITCH_COST_RANGE: NumberRange =
    NumberRange::new(MIN_TIME_MS, MAX_SWITCH_COST_MS, unit::MS).or_zero();
/// The "done within" threshold's range.
pub const WITHIN_RANGE: NumberRange = NumberRange::new(MIN_TIME_MS, MAX_WITHIN_MS, unit::MS);
/// MLFQ's boost period (each boost is an event counted against the size
/// limit, so at least 1 ms).
pub const MLFQ_BOOST_RANGE: NumberRange = NumberRange::new(1.0, MAX_QUANTUM_MS * 100.0, unit::MS);

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

/// Every parameter of an experiment, with its CLI flag and URL key. These
/// names are a public contract: shared links and scripts depend on them.
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

impl Param {
    pub const ALL: [Param; 14] = [
        Param::Seed,
        Param::Tasks,
        Param::Mix,
        Param::Quantum,
        Param::Policies,
        Param::Cores,
        Param::SwitchCost,
        Param::Rng,
        Param::Within,
        Param::Arrivals,
        Param::MlfqLevels,
        Param::MlfqBoost,
        Param::Machine,
        Param::EevdfSliceEnd,
    ];

    /// The CLI flag, e.g. `--switch-cost`.
    pub fn flag(self) -> &'static str {
        match self {
            Param::Seed => "--seed",
            Param::Tasks => "--tasks",
            Param::Mix => "--mix",
            Param::Quantum => "--quantum",
            Param::Policies => "--policies",
            Param::Cores => "--cores",
            Param::SwitchCost => "--switch-cost",
            Param::Rng => "--rng",
            Param::Within => "--within",
            Param::Arrivals => "--arrivals",
            Param::MlfqLevels => "--mlfq-levels",
            Param::MlfqBoost => "--mlfq-boost",
            Param::Machine => "--machine",
            Param::EevdfSliceEnd => "--eevdf-slice-end",
        }
    }

    /// The URL query key, e.g. `cs`.
    pub fn url_key(self) -> &'static str {
        match self {
            Param::Seed => "seed",
            Param::Tasks => "n",
            Param::Mix => "mix",
            Param::Quantum => "q",
            Param::Policies => "p",
            Param::Cores => "cores",
            Param::SwitchCost => "cs",
            Param::Rng => "rng",
            Param::Within => "within",
            Param::Arrivals => "arrivals",
            Param::MlfqLevels => "mlfq_levels",
            Param::MlfqBoost => "mlfq_boost",
            Param::Machine => "machine",
            Param::EevdfSliceEnd => "eevdf_slice_end",
        }
    }

    pub fn from_flag(flag: &str) -> Option<Param> {
        Param::ALL.into_iter().find(|p| p.flag() == flag)
    }

    /// The parameter a link's `key` names: its URL key, or an alias
    /// ([`Param::URL_ALIASES`]).
    pub fn from_url_key(key: &str) -> Option<Param> {
        Param::ALL
            .into_iter()
            .find(|p| p.url_key() == key)
            .or_else(|| {
                Param::URL_ALIASES
                    .iter()
                    .find(|(alias, _)| *alias == key)
                    .map(|&(_, p)| p)
            })
    }

    /// Other keys a link may use for a parameter: `tasks` for `n`, as the
    /// CLI's flag and the form's label say it. A link is written back with
    /// the parameter's own key.
    pub const URL_ALIASES: [(&'static str, Param); 1] = [("tasks", Param::Tasks)];
}

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
            Param::Seed => self.seed = parse_count(name, value, 0, MAX_SEED)?,
            Param::Tasks => self.tasks = parse_count(name, value, 1, limits.max_tasks)? as usize,
            Param::Mix => self.mix = Mix::parse(name, value)?,
            Param::Quantum => self.quantum = QUANTUM_RANGE.parse(name, value)?,
            Param::Policies => self.policies = PolicyKind::parse_list(name, value)?,
            Param::Cores => self.cores = parse_count(name, value, 1, MAX_CORES)? as usize,
            // Empty: no machine, `cores` identical cores (what an
            // experiment file without a machine writes).
            Param::Machine if value.trim().is_empty() => self.machine = None,
            Param::Machine => self.machine = Some(Machine::parse(name, value, M1_EP_RATIO)?),
            Param::SwitchCost => self.switch_cost = SWITCH_COST_RANGE.parse(name, value)?,
            Param::Rng => self.rng = RngKind::parse_named(name, value)?,
            Param::Within => self.within = WITHIN_RANGE.parse(name, value)?,
            Param::Arrivals => self.arrivals = Arrivals::parse(name, value)?,
            Param::MlfqLevels => {
                self.mlfq.levels = parse_count(name, value, 1, MAX_MLFQ_LEVELS)? as u8
            }
            Param::EevdfSliceEnd => self.eevdf.hrtick = parse_slice_end(name, value)?,
            Param::MlfqBoost => {
                self.mlfq.boost = if value.trim() == "off" {
                    f64::INFINITY
                } else {
                    MLFQ_BOOST_RANGE
                        .parse(name, value)
                        .map_err(|e| ParamError {
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

    /// Reads URL query pairs (already percent-decoded). Unknown keys are
    /// ignored (other tools may add their own); a bad value is reported and
    /// that parameter keeps its default, so the rest of a link still opens.
    /// A key given twice keeps its first value and each repeat is reported
    /// (a link that says `q=8&q=9` is ambiguous: say so, never pick one
    /// silently). A run too large for `limits` is reported under the key
    /// that is put back to its default: the quantum first, then the task
    /// count.
    pub fn from_query<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
        limits: &Limits,
    ) -> (Experiment, Vec<ParamError>) {
        let mut exp = Experiment::default();
        let mut errors = Vec::new();
        let mut seen: Vec<(Param, &str)> = Vec::new();
        for (key, value) in pairs {
            let Some(p) = Param::from_url_key(key) else {
                continue;
            };
            if let Some(&(_, first)) = seen.iter().find(|(q, _)| *q == p) {
                errors.push(repeated(key, value, first));
                continue;
            }
            seen.push((p, value));
            if let Err(e) = exp.set(p, key, value, limits) {
                errors.push(e);
            }
        }
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
const REPEATED: Text = Text::new(
    "{} only once; the link gives it again after its first value '{}'",
    "{} 只能给一次；链接在第一个值“{}”之后又给了一次",
);

/// The refusal of a key a link gives twice (`value` is the repeat's).
pub fn repeated(key: &str, value: &str, first: &str) -> ParamError {
    ParamError::new(
        key,
        value,
        REPEATED.both(&[key, &crate::error::shown(first)]),
    )
}

/// The default mix, re-exported for help texts.
pub const DEFAULT_MIX_TEXT: &str = DEFAULT_MIX;
