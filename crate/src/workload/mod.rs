//! What runs. The study's tasks ([`Workload`]: durations drawn from a
//! [`mix`] and a seed, arriving at t = 0 or over time; or the user's own
//! [`task_list`]), and the scenarios' threads ([`programs`]: serial queues,
//! chunk pools, spinning and periodic threads, with QoS and priorities).
//! Both are threads to the loop (`crate::sim::Threads`); a browser trace
//! (`crate::trace`) becomes a [`Workload`] too; [`task_link`] puts a main
//! thread's tasks in a link's fragment and reads them back.

pub mod mix;
pub mod program_threads;
pub mod programs;
pub mod task_link;
pub mod task_list;

use crate::error::ParamError;
use crate::rng::{FastRandom, PyRandom, RngKind, UniformSource};
use crate::sim::{Qos, ThreadInfo};
use crate::text::Text;
use mix::{Dist, Mix, MAX_TASK_MS};

/// How tasks arrive over time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Arrivals {
    /// Everything at t = 0, as in the study.
    #[default]
    T0,
    /// A Poisson process whose rate makes the offered load `load` (work per
    /// core per ms) on the given cores, measured on the drawn durations.
    Poisson { load: f64 },
    /// `count` tasks at once every `period` ms.
    Burst { count: u32, period: f64 },
}

impl Arrivals {
    pub(crate) const ALLOWED: Text = Text::new(
        "t0, poisson:LOAD (0 < LOAD ≤ 2, e.g. poisson:0.9) or burst:COUNT@PERIOD (e.g. burst:50@100)",
        "t0、poisson:负载（0 < 负载 ≤ 2，如 poisson:0.9）或 burst:数量@周期（如 burst:50@100）",
    );

    /// One example of each form, for a control's hint.
    pub(crate) const EXAMPLES: Text = Text::new(
        "t0, poisson:0.9 or burst:50@100",
        "t0、poisson:0.9 或 burst:50@100",
    );

    pub fn parse(field: &str, text: &str) -> Result<Arrivals, ParamError> {
        let bad = || ParamError::new(field, text, Self::ALLOWED);
        let t = text.trim();
        if t == "t0" {
            return Ok(Arrivals::T0);
        }
        if let Some(load) = t.strip_prefix("poisson:") {
            let load: f64 = load.parse().map_err(|_| bad())?;
            if load.is_finite() && load > 0.0 && load <= 2.0 {
                return Ok(Arrivals::Poisson { load });
            }
            return Err(bad());
        }
        if let Some(rest) = t.strip_prefix("burst:") {
            let (c, p) = rest.split_once('@').ok_or_else(bad)?;
            let count: u32 = c.parse().map_err(|_| bad())?;
            let period: f64 = p.parse().map_err(|_| bad())?;
            if count >= 1 && period.is_finite() && period > 0.0 && period <= 3_600_000.0 {
                return Ok(Arrivals::Burst { count, period });
            }
            return Err(bad());
        }
        Err(bad())
    }
}

impl std::fmt::Display for Arrivals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Arrivals::T0 => f.write_str("t0"),
            Arrivals::Poisson { load } => write!(f, "poisson:{load}"),
            Arrivals::Burst { count, period } => write!(f, "burst:{count}@{period}"),
        }
    }
}

/// Everything that determines a generated workload.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkloadSpec {
    pub rng: RngKind,
    pub seed: u64,
    pub tasks: usize,
    pub mix: Mix,
    pub arrivals: Arrivals,
    /// Only used by Poisson arrivals, to turn a load into a rate.
    pub cores: usize,
}

impl Default for WorkloadSpec {
    fn default() -> Self {
        WorkloadSpec {
            rng: RngKind::Python,
            seed: 42,
            tasks: 400,
            mix: Mix::default(),
            arrivals: Arrivals::T0,
            cores: 1,
        }
    }
}

/// The tasks of one experiment, stored as parallel arrays (the engine walks
/// them a million at a time). Task ids are indices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Workload {
    /// Arrival time in ms; not necessarily sorted.
    pub arrival: Vec<f64>,
    /// Work in ms on a core of speed 1.
    pub work: Vec<f64>,
    /// Index into `class_labels`.
    pub class: Vec<u16>,
    pub class_labels: Vec<String>,
}

impl Workload {
    pub fn len(&self) -> usize {
        self.work.len()
    }

    pub fn is_empty(&self) -> bool {
        self.work.is_empty()
    }

    /// Sum of all work, summed in index order like the study's `sum()`.
    pub fn total_work(&self) -> f64 {
        self.work.iter().fold(0.0, |a, w| a + w)
    }

    /// The tasks as threads for the loop.
    pub fn threads(&self) -> crate::sim::Tasks<'_> {
        crate::sim::Tasks::new(&self.arrival, &self.work)
    }

    /// Each task's scheduling attributes from its class's QoS, nice value
    /// and app in `mix` (`default`, nice 0 and the one app for a class that
    /// names none); for tasks not drawn from this mix (an imported list),
    /// the nice value its class label gives (`batch@nice=5`). Empty when
    /// no class gives any.
    pub fn thread_info(&self, mix: &Mix) -> Vec<ThreadInfo> {
        let of_class: Vec<ThreadInfo> = if self.class_labels == mix.labels() {
            if !mix.has_attributes() {
                return Vec::new();
            }
            mix.classes
                .iter()
                .zip(mix.thread_groups())
                .map(|(c, group)| ThreadInfo {
                    group,
                    nice: c.nice.unwrap_or(0),
                    ..ThreadInfo::of_qos(c.qos.unwrap_or(Qos::Default))
                })
                .collect()
        } else {
            // An imported list: its class labels may give a nice value
            // (`batch@nice=5`), nothing else.
            let nice: Vec<Option<i8>> = self
                .class_labels
                .iter()
                .map(|l| mix::nice_in_label(l))
                .collect();
            if nice.iter().all(Option::is_none) {
                return Vec::new();
            }
            nice.iter()
                .map(|n| ThreadInfo {
                    nice: n.unwrap_or(0),
                    ..ThreadInfo::default()
                })
                .collect()
        };
        self.class
            .iter()
            .map(|&k| of_class.get(k as usize).copied().unwrap_or_default())
            .collect()
    }

    /// Draws the workload. Durations come first, exactly as the study draws
    /// them (one draw picks the class, the next draws within it), so the same
    /// seed gives the same tasks whatever the arrival pattern; arrival gaps
    /// are drawn afterwards from the same stream.
    pub fn generate(spec: &WorkloadSpec) -> Workload {
        // One copy of the drawing loop per generator, so the million draws
        // of a large run call the generator directly, not through a vtable.
        match spec.rng {
            RngKind::Python => Self::generate_with(spec, &mut PyRandom::new(spec.seed)),
            RngKind::Fast => Self::generate_with(spec, &mut FastRandom::new(spec.seed)),
        }
    }

    fn generate_with<R: UniformSource>(spec: &WorkloadSpec, rng: &mut R) -> Workload {
        let cum = spec.mix.cumulative();
        let last = cum.len() - 1;
        let mut work = Vec::with_capacity(spec.tasks);
        let mut class = Vec::with_capacity(spec.tasks);
        for _ in 0..spec.tasks {
            let r = rng.random();
            let k = cum.iter().position(|&c| r < c).unwrap_or(last);
            let d = match spec.mix.classes[k].dist {
                // The study's case, inlined: `Dist::draw` does exactly this.
                Dist::Uniform { lo, hi } => rng.uniform(lo, hi).min(MAX_TASK_MS),
                ref other => other.draw(rng),
            };
            work.push(d);
            class.push(k as u16);
        }
        let arrival = arrival_times(spec.arrivals, &work, spec.cores, rng);
        Workload {
            arrival,
            work,
            class,
            class_labels: spec.mix.labels(),
        }
    }
}

fn arrival_times(
    arrivals: Arrivals,
    work: &[f64],
    cores: usize,
    rng: &mut dyn UniformSource,
) -> Vec<f64> {
    let n = work.len();
    match arrivals {
        Arrivals::T0 => vec![0.0; n],
        Arrivals::Burst { count, period } => (0..n)
            .map(|i| (i / count as usize) as f64 * period)
            .collect(),
        Arrivals::Poisson { load } => {
            let mean_work = work.iter().sum::<f64>() / n.max(1) as f64;
            // Rate so that offered work per ms equals load × cores.
            let mean_gap = if mean_work > 0.0 {
                mean_work / (load * cores as f64)
            } else {
                1.0
            };
            let mut t = 0.0;
            (0..n)
                .map(|_| {
                    t += -(1.0 - rng.random()).ln() * mean_gap;
                    t
                })
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn study_workload_matches_the_article() {
        let w = Workload::generate(&WorkloadSpec::default());
        assert_eq!(w.len(), 400);
        // "总工作量 5209ms，其中超过 60ms 的长任务有 18 个"
        assert_eq!(w.total_work().round(), 5209.0);
        assert_eq!(w.work.iter().filter(|&&d| d > 60.0).count(), 18);
        assert!(w.arrival.iter().all(|&a| a == 0.0));
    }

    #[test]
    fn arrivals_do_not_change_durations() {
        let base = WorkloadSpec::default();
        let p = WorkloadSpec {
            arrivals: Arrivals::Poisson { load: 0.9 },
            ..base.clone()
        };
        let (a, b) = (Workload::generate(&base), Workload::generate(&p));
        assert_eq!(a.work, b.work);
        assert!(b.arrival.windows(2).all(|x| x[0] <= x[1]));
        // The realised load is near the target over 400 tasks.
        let span = *b.arrival.last().unwrap();
        let load = b.total_work() / span;
        assert!((0.7..1.2).contains(&load), "{load}");
    }

    #[test]
    fn bursts() {
        let spec = WorkloadSpec {
            tasks: 5,
            arrivals: Arrivals::Burst {
                count: 2,
                period: 10.0,
            },
            ..Default::default()
        };
        assert_eq!(
            Workload::generate(&spec).arrival,
            vec![0.0, 0.0, 10.0, 10.0, 20.0]
        );
    }

    #[test]
    fn arrival_syntax() {
        assert_eq!(
            Arrivals::parse("a", "poisson:0.9"),
            Ok(Arrivals::Poisson { load: 0.9 })
        );
        assert_eq!(
            Arrivals::parse("a", "burst:50@100"),
            Ok(Arrivals::Burst {
                count: 50,
                period: 100.0
            })
        );
        for bad in [
            "",
            "poisson:0",
            "poisson:NaN",
            "burst:0@5",
            "burst:5",
            "later",
        ] {
            assert!(Arrivals::parse("a", bad).is_err(), "{bad}");
        }
    }
}
