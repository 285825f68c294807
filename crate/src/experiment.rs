//! An experiment: a workload, the policies to compare and the machine, with
//! every parameter named, defaulted, validated and (de)serialised in one
//! place. The CLI flags and the page's URL are two spellings of this table,
//! so both front ends accept and refuse exactly the same values.

use serde::Serialize;

use crate::engine::{EngineConfig, EngineError, Schedule};
use crate::error::{parse_count, parse_number, ParamError};
use crate::metrics::{self, Summary};
use crate::mix::{Mix, DEFAULT_MIX};
use crate::policy::{MlfqParams, PolicyKind};
use crate::rng::{RngKind, MAX_SEED};
use crate::workload::{Arrivals, Workload, WorkloadSpec};

/// Largest quantum, switch cost and threshold accepted, in ms.
pub const MAX_QUANTUM_MS: f64 = 100_000.0;
pub const MAX_SWITCH_COST_MS: f64 = 1_000.0;
pub const MAX_WITHIN_MS: f64 = 1e9;
pub const MAX_CORES: u64 = 256;

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
}

impl Param {
    pub const ALL: [Param; 12] = [
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
        }
    }

    pub fn from_flag(flag: &str) -> Option<Param> {
        Param::ALL.into_iter().find(|p| p.flag() == flag)
    }

    pub fn from_url_key(key: &str) -> Option<Param> {
        Param::ALL.into_iter().find(|p| p.url_key() == key)
    }
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
            Param::Quantum => {
                self.quantum = parse_number(name, value, 0.0, true, MAX_QUANTUM_MS, "ms")?
            }
            Param::Policies => self.policies = PolicyKind::parse_list(name, value)?,
            Param::Cores => self.cores = parse_count(name, value, 1, MAX_CORES)? as usize,
            Param::SwitchCost => {
                self.switch_cost = parse_number(name, value, 0.0, false, MAX_SWITCH_COST_MS, "ms")?
            }
            Param::Rng => self.rng = RngKind::parse_named(name, value)?,
            Param::Within => {
                self.within = parse_number(name, value, 0.0, true, MAX_WITHIN_MS, "ms")?
            }
            Param::Arrivals => self.arrivals = Arrivals::parse(name, value)?,
            Param::MlfqLevels => self.mlfq.levels = parse_count(name, value, 1, 8)? as u8,
            Param::MlfqBoost => {
                self.mlfq.boost = if value.trim() == "off" {
                    f64::INFINITY
                } else {
                    // At least 1 ms: each boost is an event, and a run's
                    // boosts are counted against its size limit.
                    parse_number(name, value, 1.0, false, MAX_QUANTUM_MS * 100.0, "ms or off")
                        .map_err(|e| ParamError {
                            allowed: format!("off or {}", e.allowed),
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
            Param::Quantum => self.quantum.to_string(),
            Param::Policies => self
                .policies
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(","),
            Param::Cores => self.cores.to_string(),
            Param::SwitchCost => self.switch_cost.to_string(),
            Param::Rng => self.rng.name().to_string(),
            Param::Within => self.within.to_string(),
            Param::Arrivals => self.arrivals.to_string(),
            Param::MlfqLevels => self.mlfq.levels.to_string(),
            Param::MlfqBoost => {
                if self.mlfq.boost.is_finite() {
                    self.mlfq.boost.to_string()
                } else {
                    "off".to_string()
                }
            }
        }
    }

    /// Reads URL query pairs (already percent-decoded). Unknown keys are
    /// ignored (other tools may add their own); a bad value is reported and
    /// that parameter keeps its default, so the rest of a link still opens.
    pub fn from_query<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
        limits: &Limits,
    ) -> (Experiment, Vec<ParamError>) {
        let mut exp = Experiment::default();
        let mut errors = Vec::new();
        for (key, value) in pairs {
            if let Some(p) = Param::from_url_key(key) {
                if let Err(e) = exp.set(p, key, value, limits) {
                    errors.push(e);
                }
            }
        }
        if let Err(e) = exp.check_size(limits) {
            errors.push(e);
            let fallback = Experiment {
                tasks: Experiment::default().tasks,
                quantum: Experiment::default().quantum,
                ..exp.clone()
            };
            exp = if fallback.check_size(limits).is_ok() {
                fallback
            } else {
                Experiment::default()
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

    pub fn workload_spec(&self) -> WorkloadSpec {
        WorkloadSpec {
            rng: self.rng,
            seed: self.seed,
            tasks: self.tasks,
            mix: self.mix.clone(),
            arrivals: self.arrivals,
            cores: self.cores,
        }
    }

    /// Expected number of slices over all policies, from the mix's mean
    /// duration: cheap enough to check before drawing anything.
    pub fn estimated_slices(&self) -> f64 {
        let per_task_work = self.mix.mean_work();
        let n = self.tasks as f64;
        let total_work = per_task_work * n;
        let last_arrival = match self.arrivals {
            Arrivals::T0 => 0.0,
            Arrivals::Poisson { load } => total_work / (load * self.cores as f64),
            Arrivals::Burst { count, period } => (n / count as f64).ceil() * period,
        };
        self.policies
            .iter()
            .map(|p| {
                let s = p.min_slice(self.quantum);
                let per_task = if s.is_finite() {
                    (per_task_work / s).ceil().max(1.0) + 1.0
                } else {
                    1.0
                };
                per_task * n + self.timer_events(*p, total_work, last_arrival)
            })
            .sum()
    }

    /// Timer events `policy` will take (mlfq's boosts), for the size guard:
    /// one per boost period over the expected span of the run.
    pub fn timer_events(&self, policy: PolicyKind, total_work: f64, last_arrival: f64) -> f64 {
        if policy == PolicyKind::Mlfq && self.mlfq.boost.is_finite() {
            (last_arrival + total_work / self.cores as f64) / self.mlfq.boost + 1.0
        } else {
            0.0
        }
    }

    /// Refuses runs whose size would take unreasonably long, before any work
    /// is done.
    pub fn check_size(&self, limits: &Limits) -> Result<(), ParamError> {
        let est = self.estimated_slices();
        if est > limits.max_slices as f64 {
            return Err(ParamError::new(
                "quantum",
                &self.quantum.to_string(),
                format!(
                    "a quantum large enough for at most {} slices; {} tasks of {:.1} ms mean work would need about {:.0}",
                    limits.max_slices,
                    self.tasks,
                    self.mix.mean_work(),
                    est
                ),
            ));
        }
        Ok(())
    }

    /// Draws the workload and runs every policy on it.
    pub fn run(&self, limits: &Limits, record_segments: bool) -> Result<Outcome, EngineError> {
        let workload = Workload::generate(&self.workload_spec());
        self.run_on(workload, limits, record_segments)
    }

    /// Runs every policy on a given workload (e.g. one the user imported).
    pub fn run_on(
        &self,
        workload: Workload,
        limits: &Limits,
        record_segments: bool,
    ) -> Result<Outcome, EngineError> {
        let config = EngineConfig {
            cores: self.cores,
            switch_cost: self.switch_cost,
            record_segments,
            max_slices: limits.max_slices,
            ..EngineConfig::default()
        };
        let run_one = |kind: PolicyKind| -> Result<PolicyRun, EngineError> {
            let schedule = kind.simulate(&workload, self.quantum, &self.mlfq, &config)?;
            let summary = metrics::summarize(&workload, &schedule, self.within);
            Ok(PolicyRun {
                policy: kind,
                schedule,
                summary,
            })
        };
        // Policies are independent: on native targets large runs use one
        // thread per policy (results are identical, only sooner). The
        // browser runs them in its worker, one after the other.
        let parallel = cfg!(not(target_arch = "wasm32"))
            && self.policies.len() > 1
            && workload.len() >= 50_000;
        let runs = if parallel {
            std::thread::scope(|scope| {
                let handles: Vec<_> = self
                    .policies
                    .iter()
                    .map(|&kind| scope.spawn(move || run_one(kind)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a policy thread panicked"))
                    .collect::<Result<Vec<_>, _>>()
            })?
        } else {
            self.policies
                .iter()
                .map(|&kind| run_one(kind))
                .collect::<Result<Vec<_>, _>>()?
        };
        Ok(Outcome { workload, runs })
    }
}

/// One policy's schedule and figures.
#[derive(Clone, Debug)]
pub struct PolicyRun {
    pub policy: PolicyKind,
    pub schedule: Schedule,
    pub summary: Summary,
}

/// Everything one experiment produced.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub workload: Workload,
    pub runs: Vec<PolicyRun>,
}

/// The CLI's `--json` object (a public contract: extend, never rename).
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub total_work_ms: f64,
    pub tasks: usize,
    pub results: Vec<PolicyReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PolicyReport {
    pub policy: &'static str,
    #[serde(flatten)]
    pub summary: Summary,
}

impl Outcome {
    pub fn report(&self) -> Report {
        Report {
            total_work_ms: self.workload.total_work(),
            tasks: self.workload.len(),
            results: self
                .runs
                .iter()
                .map(|r| PolicyReport {
                    policy: r.policy.name(),
                    summary: r.summary.clone(),
                })
                .collect(),
        }
    }
}

/// The default mix, re-exported for help texts.
pub const DEFAULT_MIX_TEXT: &str = DEFAULT_MIX;
