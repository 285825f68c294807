//! How large a run is, before running it: the one slice estimate of an
//! experiment (from the mix's mean before anything is drawn, exactly per
//! task once it is drawn or imported), used by the size guards of single
//! runs, sweeps and imports alike, with messages that name the value a
//! visitor changes to make a run fit.

use super::{Experiment, Limits, Param};
use crate::error::{fmt_number, ParamError};
use crate::param_spec::Params;
use crate::policy::{clutch, xnu, PolicyKind};
use crate::text::{Filled, Lang, Text};
use crate::workload::{Arrivals, Workload};

impl Experiment {
    /// Expected number of slices over all policies, from the mix's mean
    /// duration: cheap enough to check before drawing anything.
    pub fn estimated_slices(&self) -> f64 {
        self.slices_at(
            self.quantum,
            self.tasks,
            self.mix.mean_work(),
            self.expected_last_arrival(),
        )
    }

    /// When the last task is expected to arrive, from the mix's mean.
    pub(crate) fn expected_last_arrival(&self) -> f64 {
        let n = self.tasks as f64;
        match self.arrivals {
            Arrivals::T0 => 0.0,
            Arrivals::Poisson { load } => {
                self.mix.mean_work() * n / (load * self.core_count() as f64)
            }
            Arrivals::Burst { count, period } => (n / count as f64).ceil() * period,
        }
    }

    /// Timer events `policy` will take (mlfq's boosts), for the size guard:
    /// one per boost period over the expected span of the run.
    pub(crate) fn timer_events(
        &self,
        policy: PolicyKind,
        total_work: f64,
        last_arrival: f64,
    ) -> f64 {
        if policy == PolicyKind::Mlfq && self.mlfq.boost.is_finite() {
            (last_arrival + total_work / self.core_count() as f64) / self.mlfq.boost + 1.0
        } else if policy == PolicyKind::Xnu {
            // Its load sample and tick: 1/15 + 1/125 per ms of the run.
            let span = last_arrival + total_work / self.core_count() as f64;
            span * xnu::TIMERS_PER_MS + 2.0
        } else if policy == PolicyKind::Clutch {
            // Its scheduler tick.
            let span = last_arrival + total_work / self.core_count() as f64;
            span * clutch::TIMERS_PER_MS + 2.0
        } else {
            0.0
        }
    }

    /// Refuses runs whose size would take unreasonably long, before any work
    /// is done, from the mix's expected durations. The error names the
    /// quantum (`q`; the CLI renames it to its flag).
    pub fn check_size(&self, limits: &Limits) -> Result<(), ParamError> {
        if self.estimated_slices() > limits.max_slices as f64 {
            return Err(self.size_error(Param::Quantum, limits));
        }
        Ok(())
    }

    /// Why this experiment is too large, said under `param` (the quantum or
    /// the task count: the two values a visitor changes to make it fit).
    pub(crate) fn size_error(&self, param: Param, limits: &Limits) -> ParamError {
        let what = match param {
            Param::Tasks => FEWER_TASKS,
            _ => LARGER_QUANTUM,
        };
        let est = self.estimated_slices();
        let max = limits.max_slices.to_string();
        let tasks = self.tasks.to_string();
        let mean = fmt_number((self.mix.mean_work() * 10.0).round() / 10.0);
        let q = fmt_number(self.quantum);
        let allowed = Filled::each(|lang| {
            let need = need_text(est, lang);
            TOO_MANY_SLICES.fill(lang, &[what.get(lang), &max, &tasks, &mean, &q, &need])
        });
        ParamError::new(param.url_key(), &self.get(param), allowed)
    }

    /// Slices over all policies on an already drawn (or imported)
    /// workload: exact per task, so a heavy-tailed draw that the mix's
    /// mean hides (one task of an hour among short ones) is counted.
    pub fn slices_on(&self, workload: &Workload) -> f64 {
        let total_work = workload.total_work();
        let last_arrival = workload.arrival.iter().copied().fold(0.0, f64::max);
        self.policies
            .iter()
            .map(|p| {
                let s = p.min_slice(self.quantum);
                self.timer_events(*p, total_work, last_arrival)
                    + if s.is_finite() {
                        workload
                            .work
                            .iter()
                            .map(|w| (w / s).ceil().max(1.0) + 1.0)
                            .sum::<f64>()
                    } else {
                        workload.len() as f64
                    }
            })
            .sum()
    }

    /// [`Experiment::check_size`] on the drawn workload; returns the slice
    /// count when it fits.
    pub fn check_drawn_size(
        &self,
        workload: &Workload,
        limits: &Limits,
    ) -> Result<f64, ParamError> {
        let est = self.slices_on(workload);
        if est > limits.max_slices as f64 {
            let longest = workload.work.iter().copied().fold(0.0, f64::max);
            let max = limits.max_slices.to_string();
            let tasks = workload.len().to_string();
            let longest = fmt_number(longest.round());
            let allowed = Filled::each(|lang| {
                let need = need_text(est, lang);
                TOO_MANY_DRAWN.fill(lang, &[&max, &tasks, &longest, &need])
            });
            return Err(ParamError::new(
                Param::Quantum.url_key(),
                &self.get(Param::Quantum),
                allowed,
            ));
        }
        Ok(est)
    }

    /// The experiment to run on an imported workload: this one with its
    /// task count set to the list's (the seed, mix and arrivals are not
    /// used).
    pub fn for_workload(&self, workload: &Workload) -> Experiment {
        Experiment {
            tasks: workload.len(),
            ..self.clone()
        }
    }

    /// [`Experiment::check_size`] for an imported workload: exact per task.
    pub fn check_imported_size(
        &self,
        workload: &Workload,
        limits: &Limits,
    ) -> Result<(), ParamError> {
        self.imported_slices(workload, limits).map(|_| ())
    }

    /// [`Experiment::check_imported_size`], returning the slice count when
    /// it fits.
    pub(crate) fn imported_slices(
        &self,
        workload: &Workload,
        limits: &Limits,
    ) -> Result<f64, ParamError> {
        let est = self.slices_on(workload);
        if est > limits.max_slices as f64 {
            return Err(ParamError::new(
                Param::Quantum.url_key(),
                &fmt_number(self.quantum),
                TOO_MANY_IMPORTED.both(&[
                    &limits.max_slices.to_string(),
                    &workload.len().to_string(),
                    &format!("{est:.0}"),
                ]),
            ));
        }
        Ok(est)
    }

    /// Slices of one run at quantum `q` on `tasks` tasks of `mean_work` ms
    /// mean work arriving over `last_arrival` ms (a sweep's runs, before
    /// they are drawn).
    pub(crate) fn slices_at(&self, q: f64, tasks: usize, mean_work: f64, last_arrival: f64) -> f64 {
        let total_work = mean_work * tasks as f64;
        self.policies
            .iter()
            .map(|p| {
                let s = p.min_slice(q);
                let per_task = if s.is_finite() {
                    (mean_work / s).ceil().max(1.0) + 1.0
                } else {
                    1.0
                };
                per_task * tasks as f64 + self.timer_events(*p, total_work, last_arrival)
            })
            .sum()
    }
}

/// "about 5200000000 slices", or "more than can be counted" for a
/// quantum so small that the estimate overflows.
fn need_text(est: f64, lang: Lang) -> String {
    if est.is_finite() && est < 1e18 {
        ABOUT.fill(lang, &[&format!("{est:.0}")])
    } else {
        MORE_THAN.get(lang).to_string()
    }
}

const ABOUT: Text = Text::new("about {}", "约 {} 个");
const MORE_THAN: Text = Text::new("more than 10^18", "超过 10^18 个");
const FEWER_TASKS: Text = Text::new("fewer tasks", "更少的任务");
const LARGER_QUANTUM: Text = Text::new("a larger quantum", "更大的时间片");
const TOO_MANY_SLICES: Text = Text::new(
    "{}: a run may take at most {} slices, and {} tasks of {} ms mean work at q={} ms need {}",
    "{}：一次运行最多 {} 个时间片，而 {} 个平均工作量 {} ms 的任务在 q={} ms 时需要{}",
);
const TOO_MANY_DRAWN: Text = Text::new(
    "a larger quantum: a run may take at most {} slices, and the {} tasks drawn (the longest {} ms) need {}",
    "更大的时间片：一次运行最多 {} 个时间片，而抽出的 {} 个任务（最长 {} ms）需要{}",
);
const TOO_MANY_IMPORTED: Text = Text::new(
    "a quantum large enough for at most {} slices; these {} tasks would need about {}",
    "足够大的时间片，使时间片不超过 {} 个；这 {} 个任务需要约 {} 个",
);
