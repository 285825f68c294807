//! What the page runs for real: the experiment's tasks scaled, and the
//! order and length of every slice taken from the core's own `fifo` and
//! `rr` schedules, so the page's JavaScript only spins and yields and never
//! re-implements a policy.
//!
//! The page has one main thread, so the plan is always the one-core model
//! (the panel says so when the experiment has more cores). The switch cost
//! is not scaled: like the real yield it replaces, it is a cost of the
//! machine, not of the tasks.

use crate::experiment::summary::{self, Summary};
use crate::experiment::Experiment;
use crate::policy::{ClassParams, ClutchParams, EevdfParams, MlfqParams, PolicyKind};
use crate::sim::{EngineConfig, EngineError, Machine, NoRecord, Schedule};
use crate::workload::Workload;

use super::settings::RealSettings;

/// At most this many slices per pass: a real run is meant to take seconds
/// (each yield costs at least tens of µs), and planning it runs on the main
/// thread, so it must stay well under a frame's worth of work.
pub(crate) const MAX_REAL_SLICES: usize = 50_000;
/// At most this much busy time (ms) per pass, scaled.
pub(crate) const MAX_PASS_MS: f64 = 120_000.0;

/// The two ways a real run executes the tasks.
pub(crate) const POLICIES: [PolicyKind; 2] = [PolicyKind::Fifo, PolicyKind::Rr];

/// The page waits this long (ms) before each pass, so it paints the
/// progress and late probe timers fire outside the pass.
pub(crate) const PAUSE_MS: f64 = 120.0;
/// The page's probe timer fires every this many ms through the run; how
/// late it fires stands in for input delay.
pub(crate) const PROBE_MS: f64 = 50.0;
/// The Event Timing observer's `durationThreshold` (ms): the smallest it
/// accepts, so every input the run delays long enough to matter is seen.
pub(crate) const EVENT_THRESHOLD_MS: f64 = 16.0;
/// And this long after the last pass, for the observers' late entries.
pub(crate) const SETTLE_MS: f64 = 150.0;

/// After the passes, the yield is timed alone in this many batches of
/// back-to-back yields: a coarse clock (100 µs when the page is not
/// cross-origin isolated) cannot time one yield of a few µs, but it times
/// a batch of hundreds well.
pub(crate) const YIELD_BATCHES: u32 = 9;
/// A batch lasts at least this many steps of the clock (its yields double
/// until it does), so rounding to the step costs at most 4 % of it.
pub(crate) const BATCH_CLOCK_STEPS: f64 = 25.0;
/// And has at most this many yields.
pub(crate) const BATCH_MAX_YIELDS: u32 = 1024;
/// What the estimate allows for one batch when a yield is cheap: 25 steps
/// of the coarse 0.1 ms clock.
const BATCH_FLOOR_MS: f64 = 2.5;

/// Why no real run can be planned.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanError {
    /// One pass would take longer than [`MAX_PASS_MS`].
    TooLong {
        pass_ms: f64,
        scale: f64,
    },
    /// The sliced pass would have more than [`MAX_REAL_SLICES`] slices.
    TooManySlices {
        slices: usize,
    },
    /// Nothing to run.
    NoTasks,
    Engine(EngineError),
}

/// Every task is at least one slice: more tasks than [`MAX_REAL_SLICES`]
/// can never be planned, so they are refused before they are drawn or
/// parsed on the page's main thread.
pub(crate) fn check_task_count(tasks: usize) -> Result<(), PlanError> {
    if tasks > MAX_REAL_SLICES {
        Err(PlanError::TooManySlices { slices: tasks })
    } else {
        Ok(())
    }
}

/// [`check_task_count`] for a task list's text, its tasks counted without
/// parsing them: blank lines and `#` comments are not tasks, and the first
/// line may be a header (a list one task over is then refused by
/// [`Plan::build`]).
pub(crate) fn check_task_list(text: &str) -> Result<(), PlanError> {
    let lines = text
        .lines()
        .filter(|l| !l.split('#').next().unwrap_or("").trim().is_empty())
        .count();
    check_task_count(lines.saturating_sub(1))
}

/// One policy's part of the plan.
#[derive(Clone, Debug)]
pub struct PlanPass {
    pub policy: PolicyKind,
    /// Whether the page yields to the event loop between this pass's
    /// slices (the time-sliced pass) or runs them back to back (FIFO).
    pub yields: bool,
    /// `(task, length in ms)` in the order the model runs them.
    pub slices: Vec<(u32, f64)>,
    pub schedule: Schedule,
    /// The model's figures at the run's scale.
    pub summary: Summary,
}

/// Everything a real run needs, at the run's scale.
#[derive(Clone, Debug)]
pub struct Plan {
    pub settings: RealSettings,
    pub scale: f64,
    /// The quantum at the run's scale.
    pub quantum: f64,
    pub switch_cost: f64,
    /// The "done within" threshold at the run's scale.
    pub within: f64,
    /// Cores of the experiment (the plan itself uses one).
    pub experiment_cores: usize,
    /// The scaled tasks (arrival and work in ms).
    pub workload: Workload,
    /// `fifo` then `rr`.
    pub passes: [PlanPass; 2],
}

impl Plan {
    /// Plans a real run of `exp` on `workload` (drawn or imported).
    pub fn build(
        exp: &Experiment,
        workload: &Workload,
        settings: RealSettings,
    ) -> Result<Plan, PlanError> {
        if workload.is_empty() {
            return Err(PlanError::NoTasks);
        }
        let scale = settings.scale.factor(workload.total_work());
        let pass_ms = workload.total_work() * scale;
        if pass_ms > MAX_PASS_MS {
            return Err(PlanError::TooLong { pass_ms, scale });
        }
        let quantum = exp.quantum * scale;
        // Checked before simulating: ceil(work / quantum) slices per task.
        let est: f64 = workload
            .work
            .iter()
            .map(|w| (w * scale / quantum).ceil().max(1.0))
            .sum();
        if est > MAX_REAL_SLICES as f64 {
            return Err(PlanError::TooManySlices {
                slices: est as usize,
            });
        }
        let scaled = Workload {
            arrival: workload.arrival.iter().map(|a| a * scale).collect(),
            work: workload.work.iter().map(|w| w * scale).collect(),
            class: workload.class.clone(),
            class_labels: workload.class_labels.clone(),
        };
        let within = exp.within * scale;
        let config = EngineConfig {
            switch_cost: exp.switch_cost,
            record_segments: true,
            max_slices: (MAX_REAL_SLICES as u64) * 2,
            ..EngineConfig::default()
        };
        // One thread of the visitor's browser runs the tasks for real.
        let machine = Machine::identical(1);
        let mlfq = MlfqParams::default();
        let class = ClassParams {
            quantum,
            mlfq: &mlfq,
            eevdf: EevdfParams::default(),
            clutch: ClutchParams::default(),
            band_limit: None,
            machine: &machine,
            threads: &[],
        };
        let pass = |policy: PolicyKind| -> Result<PlanPass, PlanError> {
            let schedule = policy
                .run(&class, &mut scaled.threads(), &mut NoRecord, &config)
                .map_err(PlanError::Engine)?;
            if schedule.segments.len() > MAX_REAL_SLICES {
                return Err(PlanError::TooManySlices {
                    slices: schedule.segments.len(),
                });
            }
            let slices = schedule
                .segments
                .iter()
                .map(|g| (g.task, g.end - g.start))
                .collect();
            let summary = summary::summarize(&scaled, &schedule, within);
            Ok(PlanPass {
                policy,
                yields: policy.uses_quantum(),
                slices,
                schedule,
                summary,
            })
        };
        let passes = [pass(POLICIES[0])?, pass(POLICIES[1])?];
        Ok(Plan {
            settings,
            scale,
            quantum,
            switch_cost: exp.switch_cost,
            within,
            experiment_cores: exp.cores,
            workload: scaled,
            passes,
        })
    }

    pub fn pass(&self, policy: PolicyKind) -> Option<&PlanPass> {
        self.passes.iter().find(|p| p.policy == policy)
    }

    /// The passes in the order they run: `(index into passes, repeat)`;
    /// each repeat runs every pass once, alternating which goes first so
    /// that drift hits both alike.
    pub(crate) fn run_order(&self) -> Vec<(usize, u32)> {
        let n = self.passes.len();
        let mut out = Vec::with_capacity(n * self.settings.repeats as usize);
        for r in 0..self.settings.repeats {
            for k in 0..n {
                let i = if r % 2 == 0 { k } else { n - 1 - k };
                out.push((i, r));
            }
        }
        out
    }

    /// Yields in one run of `pass` (one between every two slices).
    pub(crate) fn yields_in(&self, pass: &PlanPass) -> usize {
        if pass.yields {
            pass.slices.len().saturating_sub(1)
        } else {
            0
        }
    }

    /// How long the whole run takes (ms): every pass as long as the model's
    /// schedule of it (arrivals over time included), each yield at the
    /// primitive's assumed cost, the pauses between passes and the timing
    /// of the yield in batches.
    pub fn estimate_ms(&self) -> f64 {
        let per_yield = self.settings.yield_kind.assumed_ms();
        let repeat: f64 = self
            .passes
            .iter()
            .map(|p| p.summary.makespan + self.yields_in(p) as f64 * per_yield + PAUSE_MS)
            .sum();
        let batches = f64::from(YIELD_BATCHES + 1) * per_yield.max(BATCH_FLOOR_MS);
        repeat * f64::from(self.settings.repeats) + batches + SETTLE_MS
    }

    /// Busy time of one pass (the scaled total work), in ms.
    pub(crate) fn pass_ms(&self) -> f64 {
        self.workload.total_work()
    }

    /// Task ids in the order the model completes them under `policy`.
    pub fn completion_order(&self, policy: PolicyKind) -> Vec<u32> {
        let Some(p) = self.pass(policy) else {
            return Vec::new();
        };
        order_by(
            &p.schedule
                .outcomes
                .iter()
                .map(|o| o.completion)
                .collect::<Vec<_>>(),
        )
    }
}

/// Indices of `times` sorted by time (ties by index, as the model's
/// one-core schedule never has two completions at one instant unless a task
/// has no work).
pub(crate) fn order_by(times: &[f64]) -> Vec<u32> {
    let mut idx: Vec<u32> = (0..times.len() as u32).collect();
    idx.sort_by(|&a, &b| {
        times[a as usize]
            .total_cmp(&times[b as usize])
            .then(a.cmp(&b))
    });
    idx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::Limits;
    use crate::realrun::settings::Scale;

    #[test]
    fn a_task_list_is_refused_by_its_task_lines_alone() {
        let lines = |n: usize| "5\n".repeat(n);
        assert_eq!(check_task_count(MAX_REAL_SLICES), Ok(()));
        assert_eq!(
            check_task_count(MAX_REAL_SLICES + 1),
            Err(PlanError::TooManySlices {
                slices: MAX_REAL_SLICES + 1
            })
        );
        // A header, comments and blank lines are no tasks.
        let listed = format!("duration_ms\n# a comment\n\n{}", lines(MAX_REAL_SLICES));
        assert_eq!(check_task_list(&listed), Ok(()));
        assert!(check_task_list(&lines(MAX_REAL_SLICES + 2)).is_err());
    }

    fn study_plan(settings: RealSettings) -> (Experiment, Workload, Plan) {
        let exp = Experiment::default();
        let w = Workload::generate(&exp.workload_spec());
        let plan = Plan::build(&exp, &w, settings).unwrap();
        (exp, w, plan)
    }

    #[test]
    fn slices_are_the_models_segments_at_scale() {
        let settings = RealSettings {
            scale: Scale::Fixed(1.0),
            ..RealSettings::default()
        };
        let (exp, _, plan) = study_plan(settings);
        let out = exp.run(&Limits::WEB, true).unwrap();
        for (pp, run) in plan.passes.iter().zip(&out.runs) {
            assert_eq!(pp.policy, run.policy);
            assert_eq!(pp.slices.len(), run.schedule.segments.len());
            for (s, g) in pp.slices.iter().zip(&run.schedule.segments) {
                assert_eq!(s.0, g.task);
                assert_eq!(s.1, g.end - g.start);
            }
            assert_eq!(pp.summary, run.summary);
        }
        // FIFO: one slice per task; RR: ceil(work / 16) per task.
        assert_eq!(plan.passes[0].slices.len(), 400);
        assert_eq!(plan.passes[1].slices.len(), 599 + 1);
    }

    #[test]
    fn scaled_plan_scales_every_figure() {
        let (_, _, one) = study_plan(RealSettings {
            scale: Scale::Fixed(1.0),
            ..RealSettings::default()
        });
        let (_, _, tenth) = study_plan(RealSettings {
            scale: Scale::Fixed(0.125),
            ..RealSettings::default()
        });
        for (a, b) in one.passes.iter().zip(&tenth.passes) {
            assert_eq!(a.slices.len(), b.slices.len());
            assert!((a.summary.p95 * 0.125 - b.summary.p95).abs() < 1e-9);
            assert_eq!(a.summary.done_within, b.summary.done_within);
        }
        assert_eq!(tenth.quantum, 2.0);
        assert_eq!(tenth.within, 12.5);
    }

    #[test]
    fn auto_scale_and_limits() {
        let (_, w, plan) = study_plan(RealSettings::default());
        assert!((plan.pass_ms() - 1000.0).abs() < 1e-6, "{}", plan.pass_ms());
        assert!((plan.scale * w.total_work() - 1000.0).abs() < 1e-6);
        let exp = Experiment::default();
        let long = RealSettings {
            scale: Scale::Fixed(10.0),
            ..RealSettings::default()
        };
        // 10× the study is 52 s a pass, under the limit; 4,000 tasks are not.
        assert!(Plan::build(&exp, &w, long).is_ok());
        let big = Experiment {
            tasks: 4000,
            ..Experiment::default()
        };
        let wb = Workload::generate(&big.workload_spec());
        assert!(matches!(
            Plan::build(&big, &wb, long),
            Err(PlanError::TooLong { .. })
        ));
        let tiny_q = Experiment {
            quantum: 0.01,
            ..Experiment::default()
        };
        assert!(matches!(
            Plan::build(&tiny_q, &w, RealSettings::default()),
            Err(PlanError::TooManySlices { .. })
        ));
        assert_eq!(
            Plan::build(&exp, &Workload::default(), RealSettings::default()).unwrap_err(),
            PlanError::NoTasks
        );
    }

    #[test]
    fn many_cores_still_plan_one_core() {
        let exp = Experiment {
            cores: 4,
            ..Experiment::default()
        };
        let w = Workload::generate(&exp.workload_spec());
        let plan = Plan::build(&exp, &w, RealSettings::default()).unwrap();
        assert_eq!(plan.experiment_cores, 4);
        assert_eq!(plan.passes[0].schedule.cores, 1);
        let order = plan.completion_order(PolicyKind::Fifo);
        assert_eq!(order.len(), 400);
    }
}
