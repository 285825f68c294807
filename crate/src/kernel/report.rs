//! The measured rows beside the model's: each pass's figures computed by
//! the simulation's own rule (`experiment::summary::figures`), a row's
//! figure the middle of its repeats with their spread (as Run for real
//! reports them), and the environment the run met, as the JSON that
//! `measure --json` adds to `simulate`'s object.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::experiment::summary::{self, RunTotals, Summary};
use crate::realrun::measure::Spread;
use crate::stats::accurate_sum;
use crate::text::Filled;

#[cfg(doc)]
use super::environment::Hz;
use super::environment::RtThrottling;
use super::plan::Cpus;
use super::run::{KernelPass, Measurement, Request};
pub use crate::experiment::measured::{MeasuredRow, Spreads};

/// SCHED_RR's slice during the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RrSlice {
    /// `sched_rr_timeslice_ms` before the run.
    pub before: Option<i64>,
    /// What the run wrote (the quantum).
    pub written: u32,
    /// What the kernel gave a task thread (`sched_rr_get_interval`): whole
    /// ticks.
    pub effective: Option<f64>,
    /// Whether the setting read back as before after the run.
    pub restored: bool,
}

/// RT throttling before, during and after the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Throttling {
    #[serde(flatten)]
    pub read: RtThrottling,
    /// Whether the run switched it off (`--rt-unthrottled`).
    pub switched_off: bool,
    /// Whether `sched_rt_runtime_us` read back as before after the run.
    pub restored: bool,
}

/// The machine and kernel a measurement ran on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KernelEnvironment {
    /// `uname -r`.
    pub kernel: String,
    /// The kernel's tick rate; `None` when it could not be found.
    pub hz: Option<u32>,
    /// Where [`Self::hz`] was read (see [`Hz::source`]).
    pub hz_source: &'static str,
    pub cpus: Cpus,
    pub rt_throttling: Throttling,
    /// The slice the kernel gave SCHED_RR threads (whole ticks); `None`
    /// when no `rr` pass ran.
    pub rr_timeslice_ms: Option<f64>,
    /// The slice setting before, as written and after; `None` when no `rr`
    /// pass ran.
    pub rr_timeslice: Option<RrSlice>,
    /// Steal time during the run, summed over the tasks' CPUs, ms.
    pub steal_ms: f64,
    /// The same per CPU (`cpuN`).
    pub steal_ms_per_cpu: BTreeMap<String, f64>,
    /// Whether real-time policies could be used (root or CAP_SYS_NICE).
    pub rt_allowed: bool,
    /// `/proc/loadavg` before the run.
    pub load_average: Option<[f64; 3]>,
    /// The fair class's session groups; `None` where the kernel has none.
    pub autogroup: Option<super::environment::Autogroup>,
}

/// A pass's figures, by the simulation's rule.
pub(crate) fn pass_summary(pass: &KernelPass, req: &Request, within: f64) -> Summary {
    let r = &pass.result;
    let totals = RunTotals {
        context_switches: 0,
        makespan: Some(r.wall_ms),
        busy_time: accurate_sum(r.busy_ms.iter().copied()),
        cores: req.cores,
    };
    let mut times = r.completion_ms.clone();
    summary::figures(&mut times, &req.arrival_ms, &req.work_ms, within, totals)
}

/// Time on the tasks' CPUs not spent in tasks during a pass, ms.
pub(crate) fn other_cpu_ms(pass: &KernelPass, cores: usize) -> f64 {
    let r = &pass.result;
    (r.wall_ms * cores as f64 - accurate_sum(r.busy_ms.iter().copied())).max(0.0)
}

fn middle(values: Vec<f64>) -> (f64, [f64; 2]) {
    Spread::of(values).map_or((f64::NAN, [f64::NAN; 2]), |s| (s.median, [s.min, s.max]))
}

/// The measured rows, one per policy that ran, in the request's order.
pub fn rows(m: &Measurement, req: &Request, within: f64) -> Vec<MeasuredRow> {
    let mut out = Vec::new();
    for (index, policy) in req.policies.iter().enumerate() {
        let passes: Vec<&KernelPass> = m.passes.iter().filter(|p| p.policy == index).collect();
        if passes.is_empty() {
            continue;
        }
        let sums: Vec<Summary> = passes
            .iter()
            .map(|p| pass_summary(p, req, within))
            .collect();
        let of = |f: fn(&Summary) -> f64| middle(sums.iter().map(f).collect());
        let (mean, s_mean) = of(|s| s.mean);
        let (p50, s_p50) = of(|s| s.p50);
        let (p90, s_p90) = of(|s| s.p90);
        let (p95, s_p95) = of(|s| s.p95);
        let (p99, s_p99) = of(|s| s.p99);
        let (max, s_max) = of(|s| s.max);
        let (done, _) = of(|s| s.done_within as f64);
        let (other, _) = middle(passes.iter().map(|p| other_cpu_ms(p, req.cores)).collect());
        let (share, _) = middle(
            passes
                .iter()
                .map(|p| other_cpu_ms(p, req.cores) / (p.result.wall_ms * req.cores as f64))
                .collect(),
        );
        out.push(MeasuredRow {
            policy: policy.name.clone(),
            kernel_policy: policy.kernel,
            repeats: passes.len(),
            mean,
            p50,
            p90,
            p95,
            p99,
            max,
            spread: Spreads {
                mean: s_mean,
                p50: s_p50,
                p90: s_p90,
                p95: s_p95,
                p99: s_p99,
                max: s_max,
            },
            done_within: done as u64,
            other_cpu_ms: other,
            other_cpu_share: share,
        });
    }
    out
}

/// Whether RT throttling visibly paused the tasks: `Some` only where the
/// run can tell — throttling on, one core, every task at t = 0 (the CPU is
/// never idle by design) and passes longer than a throttling period —
/// then whether a real-time row's other CPU time reached half the
/// throttling's share.
pub fn throttling_seen(
    rows: &[MeasuredRow],
    env: &KernelEnvironment,
    req: &Request,
) -> Option<bool> {
    let t = &env.rt_throttling;
    let period_ms = t.read.period_us? as f64 / 1000.0;
    let all_t0 = req.arrival_ms.iter().all(|&a| a == 0.0);
    let long = req.work_ms.iter().sum::<f64>() > period_ms;
    if t.switched_off || t.read.share_paused <= 0.0 || req.cores != 1 || !all_t0 || !long {
        return None;
    }
    let rt_rows: Vec<&MeasuredRow> = rows
        .iter()
        .filter(|r| r.kernel_policy.real_time())
        .collect();
    if rt_rows.is_empty() {
        return None;
    }
    Some(
        rt_rows
            .iter()
            .any(|r| r.other_cpu_share >= t.read.share_paused / 2.0),
    )
}

/// What `measure --json` appends to `simulate`'s object.
#[derive(Serialize)]
pub struct JsonTail<'a> {
    pub measured: &'a [MeasuredRow],
    pub environment: EnvironmentJson<'a>,
    /// How the `eevdf` model row was set up, when `eevdf` is measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eevdf_model: Option<EevdfModel>,
    /// The experiment the model rows ran, as the experiment file holds it
    /// (`experiment::export::experiment_value`): the page opens this
    /// output with it.
    pub experiment: serde_json::Value,
}

/// The `eevdf` model row's settings beside SCHED_OTHER: how a used-up
/// slice ends and the base slice, scaled by the machine's online CPUs as
/// the kernel scales it (not by the CPUs the tasks are pinned to).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EevdfModel {
    /// `tick` or `exact` (`--eevdf-slice-end`).
    pub slice_end: &'static str,
    pub base_slice_ms: f64,
    /// The CPUs the base slice is scaled by.
    pub slice_cpus: usize,
    /// Whether `--eevdf-slice-end` was given (else measure chose `exact`).
    pub slice_end_given: bool,
}

/// The environment with the notes in both languages.
#[derive(Serialize)]
pub struct EnvironmentJson<'a> {
    #[serde(flatten)]
    pub environment: &'a KernelEnvironment,
    /// Whether RT throttling visibly paused the tasks (see
    /// [`throttling_seen`]); `null` where the run cannot tell.
    pub rt_throttling_seen: Option<bool>,
    pub notes: &'a Filled<Vec<String>>,
}

/// `simulate`'s JSON object `report` with `"measured"` and
/// `"environment"` added at its end (its own fields untouched, in order).
pub fn json(report: &str, tail: &JsonTail<'_>) -> serde_json::Result<String> {
    let tail = serde_json::to_string(tail)?;
    let head = report.strip_suffix('}').unwrap_or(report);
    let body = tail.strip_prefix('{').unwrap_or(&tail);
    Ok(format!("{head},{body}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::pass::PassResult;
    use crate::kernel::{KernelPolicy, MeasuredPolicy};

    fn request() -> Request {
        Request {
            work_ms: vec![10.0, 20.0],
            arrival_ms: vec![0.0, 0.0],
            nice: Vec::new(),
            policies: vec![MeasuredPolicy {
                name: "fifo".into(),
                kernel: KernelPolicy::Fifo,
                model: Some(crate::policy::PolicyKind::Fifo),
            }],
            quantum_ms: 16.0,
            cores: 1,
            repeats: 3,
            rt_unthrottled: false,
        }
    }

    fn pass(repeat: u32, completion: [f64; 2]) -> KernelPass {
        KernelPass {
            policy: 0,
            repeat,
            result: PassResult {
                completion_ms: completion.to_vec(),
                released_ms: vec![0.0, 0.0],
                busy_ms: vec![10.0, 20.0],
                wall_ms: completion[1],
                rr_slice_ms: None,
            },
        }
    }

    #[test]
    fn a_row_is_the_middle_of_its_repeats_with_their_spread() {
        let req = request();
        let m = Measurement {
            passes: vec![
                pass(1, [10.5, 31.0]),
                pass(2, [10.1, 30.2]),
                pass(3, [11.0, 33.0]),
            ],
            environment: environment(),
            left_out: vec![],
        };
        let rows = rows(&m, &req, 100.0);
        assert_eq!(rows.len(), 1);
        let r = &rows[0];
        assert_eq!(r.repeats, 3);
        // Two tasks: the study's p50 is the larger latency (rank 1).
        assert_eq!(r.max, 31.0);
        assert_eq!(r.spread.max, [30.2, 33.0]);
        assert_eq!(r.p50, 31.0);
        assert_eq!(r.mean, (10.5 + 31.0) / 2.0);
        assert_eq!(r.spread.mean, [(10.1 + 30.2) / 2.0, (11.0 + 33.0) / 2.0]);
        // 31 ms of wall on one core, 30 ms of it in tasks.
        assert!((r.other_cpu_ms - 1.0).abs() < 1e-9);
    }

    pub(super) fn environment() -> KernelEnvironment {
        KernelEnvironment {
            kernel: "6.18".into(),
            hz: Some(250),
            hz_source: "/proc/config.gz",
            cpus: Cpus {
                online: 2,
                allowed: vec![0, 1],
                used: vec![1],
                free: vec![0],
            },
            rt_throttling: Throttling {
                read: RtThrottling {
                    runtime_us: Some(950_000),
                    period_us: Some(1_000_000),
                    fair_server_runtime_ns: None,
                    fair_server_period_ns: None,
                    share_paused: 0.05,
                },
                switched_off: false,
                restored: true,
            },
            rr_timeslice_ms: None,
            rr_timeslice: None,
            steal_ms: 0.0,
            steal_ms_per_cpu: BTreeMap::new(),
            rt_allowed: true,
            load_average: None,
            autogroup: None,
        }
    }

    #[test]
    fn the_json_keeps_simulates_object_and_adds_measured_and_environment() {
        let env = environment();
        let notes = Filled::default();
        let tail = JsonTail {
            measured: &[],
            environment: EnvironmentJson {
                environment: &env,
                rt_throttling_seen: None,
                notes: &notes,
            },
            eevdf_model: None,
            experiment: serde_json::json!({"format": "tailslice-experiment"}),
        };
        let text = json(r#"{"total_work_ms":1.0,"tasks":2,"results":[]}"#, &tail).unwrap();
        assert!(text.starts_with(r#"{"total_work_ms":1.0,"tasks":2,"results":[],"measured":[]"#));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        for key in [
            "kernel",
            "hz",
            "cpus",
            "rt_throttling",
            "rr_timeslice_ms",
            "steal_ms",
        ] {
            assert!(v["environment"].get(key).is_some(), "{key}");
        }
        assert!(
            v.get("eevdf_model").is_none(),
            "only when eevdf is measured"
        );
    }
}
