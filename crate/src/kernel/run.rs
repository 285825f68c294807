//! A whole measurement: the checks before any thread starts, the watch
//! over stop signals and panics, the kernel settings each policy needs
//! (changed only for as long as needed, restored on every way out), then
//! every policy's passes, one repeat after another.

use std::collections::BTreeMap;
use std::time::Duration;

use super::environment::{self, Hz, RtThrottling};
use super::pass::{self, PassPlan, PassResult, MAX_THREADS, RELEASER_PRIORITY};
use super::plan::{self, Cpus};
use super::report::{KernelEnvironment, RrSlice, Throttling};
use super::sys::Sched;
use super::sysctl::{self, Setting};
use super::{watch, KernelPolicy, MeasuredPolicy};

/// What to measure.
#[derive(Clone, Debug)]
pub struct Request {
    pub work_ms: Vec<f64>,
    pub arrival_ms: Vec<f64>,
    /// Each task's nice value under SCHED_OTHER (empty: all 0).
    pub nice: Vec<i8>,
    pub policies: Vec<MeasuredPolicy>,
    /// Round-robin's slice in ms (written to `sched_rr_timeslice_ms`).
    pub quantum_ms: f64,
    pub cores: usize,
    pub repeats: u32,
    /// Switch RT throttling off for the run (`--rt-unthrottled`).
    pub rt_unthrottled: bool,
}

/// Why a measurement did not run or did not finish.
#[derive(Debug, PartialEq)]
pub enum Refusal {
    /// Bad input: one line naming the flag (exit status 2).
    Usage(String),
    /// The system said no, or the run was ended (exit status 1).
    Failed(String),
}

/// A request checked, with the CPUs it will use.
#[derive(Clone, Debug)]
pub struct Checked {
    pub request: Request,
    pub cpus: Cpus,
    pub pass_s: f64,
}

/// Checks everything that can be checked without running: the CPUs,
/// the thread count, the quantum for `rr`, the length limit, and that
/// `--rt-unthrottled` leaves a CPU free.
pub fn check(request: Request) -> Result<Checked, Refusal> {
    let allowed = super::sys::allowed_cpus()
        .map_err(|e| Refusal::Failed(format!("cannot read this process's CPUs: {e}")))?;
    let cpus = plan::choose_cpus(&allowed, environment::online_cpus(), request.cores)
        .map_err(Refusal::Usage)?;
    let n = request.work_ms.len();
    if n > MAX_THREADS {
        return Err(Refusal::Usage(format!(
            "invalid --tasks '{n}': expected {}",
            super::flags::tasks_allowed()
        )));
    }
    if request
        .policies
        .iter()
        .any(|p| p.kernel == KernelPolicy::Rr)
    {
        plan::rr_timeslice(request.quantum_ms).map_err(Refusal::Usage)?;
    }
    if request.rt_unthrottled && cpus.free.is_empty() {
        return Err(Refusal::Usage(format!(
            "invalid --rt-unthrottled: with --cores {} every CPU runs the tasks, and real-time threads that are never throttled would leave the system none; use --cores {} or fewer",
            request.cores,
            allowed.len().saturating_sub(1).max(1)
        )));
    }
    let pass_s = plan::expected_pass_s(&request.work_ms, &request.arrival_ms, request.cores);
    plan::check_length(
        pass_s,
        request.policies.len() * request.repeats as usize,
        request.repeats,
    )
    .map_err(Refusal::Usage)?;
    Ok(Checked {
        request,
        cpus,
        pass_s,
    })
}

/// One pass as measured.
#[derive(Clone, Debug)]
pub struct KernelPass {
    /// Index into the request's policies.
    pub policy: usize,
    /// From 1.
    pub repeat: u32,
    pub result: PassResult,
}

/// What a measurement leaves: its passes and the environment.
#[derive(Clone, Debug)]
pub struct Measurement {
    pub passes: Vec<KernelPass>,
    pub environment: KernelEnvironment,
    /// Policies left out (real-time ones without the right to run them).
    pub left_out: Vec<String>,
}

/// What the runner tells its caller while it runs.
pub enum Progress<'a> {
    /// A pass is about to start (the settings it needs are in place).
    Pass {
        policy: &'a MeasuredPolicy,
        repeat: u32,
        repeats: u32,
        expected_s: f64,
    },
}

fn steal_on(cpus: &[usize]) -> BTreeMap<usize, f64> {
    environment::steal_ms()
        .into_iter()
        .filter(|(c, _)| cpus.contains(c))
        .collect()
}

/// Runs a checked request. Starts the thread that receives stop signals
/// (call it before any other thread of the process is started) and the
/// panic hook; every changed setting is restored before this returns.
pub fn measure(
    checked: &Checked,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Measurement, Refusal> {
    let req = &checked.request;
    let cpus = &checked.cpus;
    let others = if cpus.free.is_empty() {
        cpus.allowed.clone()
    } else {
        cpus.free.clone()
    };
    super::sys::block_stop_signals()
        .map_err(|e| Refusal::Failed(format!("cannot block stop signals: {e}")))?;
    let rt_allowed = environment::rt_allowed();
    watch::on_stop_signal(others.clone(), rt_allowed)
        .map_err(|e| Refusal::Failed(format!("cannot start the signal thread: {e}")))?;
    watch::on_panic();
    // The creating thread keeps off the tasks' CPUs.
    let _ = super::sys::set_affinity(0, &others);

    let kernel = environment::kernel_release();
    let hz = environment::hz_from_config(&kernel)
        .or_else(|| rt_allowed.then(environment::hz_from_rr_slice).flatten())
        .unwrap_or(Hz {
            value: None,
            source: "not found",
        });
    let rt = RtThrottling::read(cpus.used[0]);
    let load_average = environment::load_average();
    let left_out: Vec<String> = req
        .policies
        .iter()
        .filter(|p| p.kernel.real_time() && !rt_allowed)
        .map(|p| p.name.clone())
        .collect();

    let unthrottled = if req.rt_unthrottled {
        Some(Setting::set(sysctl::RT_RUNTIME, "-1").map_err(|e| {
            Refusal::Failed(format!(
                "cannot switch RT throttling off ({}): {e}; --rt-unthrottled needs root",
                sysctl::RT_RUNTIME
            ))
        })?)
    } else {
        None
    };
    let steal_before = steal_on(&cpus.used);
    let deadline =
        Duration::from_secs_f64(checked.pass_s * plan::DEADLINE_FACTOR + plan::DEADLINE_SLACK_S);
    let mut passes = Vec::new();
    let mut rr_slice: Option<RrSlice> = None;
    for (index, policy) in req.policies.iter().enumerate() {
        if left_out.contains(&policy.name) {
            continue;
        }
        // Written before the threads exist: a thread's first slice is
        // set when it is created.
        let slice_guard = if policy.kernel == KernelPolicy::Rr {
            let ms = plan::rr_timeslice(req.quantum_ms).map_err(Refusal::Usage)?;
            let guard = Setting::set(sysctl::RR_TIMESLICE, &ms.to_string()).map_err(|e| {
                Refusal::Failed(format!(
                    "cannot set round-robin's slice ({}): {e}; rr needs root",
                    sysctl::RR_TIMESLICE
                ))
            })?;
            rr_slice.get_or_insert(RrSlice {
                before: guard.before().parse().ok(),
                written: ms,
                effective: None,
                restored: false,
            });
            Some(guard)
        } else {
            None
        };
        let plan = PassPlan {
            work_ms: req.work_ms.clone(),
            arrival_ms: req.arrival_ms.clone(),
            sched: plan::task_sched(policy.kernel),
            nice: req.nice.clone(),
            releaser: if rt_allowed {
                Sched::Fifo(RELEASER_PRIORITY)
            } else {
                Sched::Other
            },
            cpus: cpus.used.clone(),
            deadline,
            rt_allowed,
        };
        for repeat in 1..=req.repeats {
            progress(Progress::Pass {
                policy,
                repeat,
                repeats: req.repeats,
                expected_s: checked.pass_s,
            });
            let result = pass::run(&plan).map_err(|e| match e {
                pass::PassError::Setup(why) => {
                    Refusal::Failed(format!("{} pass {repeat}: {why}", policy.name))
                }
                pass::PassError::Timeout(d) => Refusal::Failed(format!(
                    "{} pass {repeat} ran past its deadline of {:.1} s (expected {:.1} s) and was stopped",
                    policy.name,
                    d.as_secs_f64(),
                    checked.pass_s
                )),
            })?;
            if let (Some(slice), Some(ms)) = (rr_slice.as_mut(), result.rr_slice_ms) {
                slice.effective = Some(ms);
            }
            passes.push(KernelPass {
                policy: index,
                repeat,
                result,
            });
        }
        drop(slice_guard);
    }
    let steal_after = steal_on(&cpus.used);
    drop(unthrottled);
    if let Some(slice) = rr_slice.as_mut() {
        slice.restored = sysctl::read_i64(sysctl::RR_TIMESLICE) == slice.before;
    }
    let throttling = Throttling {
        restored: sysctl::read_i64(sysctl::RT_RUNTIME) == rt.runtime_us,
        switched_off: req.rt_unthrottled,
        read: rt,
    };
    let steal_ms_per_cpu: BTreeMap<String, f64> = steal_after
        .iter()
        .map(|(cpu, after)| {
            let before = steal_before.get(cpu).copied().unwrap_or(*after);
            (format!("cpu{cpu}"), after - before)
        })
        .collect();
    Ok(Measurement {
        passes,
        environment: KernelEnvironment {
            kernel,
            hz: hz.value,
            hz_source: hz.source,
            cpus: cpus.clone(),
            rt_throttling: throttling,
            rr_timeslice_ms: rr_slice.as_ref().and_then(|s| s.effective),
            rr_timeslice: rr_slice,
            steal_ms: steal_ms_per_cpu.values().sum(),
            steal_ms_per_cpu,
            rt_allowed,
            load_average,
            autogroup: environment::autogroup(),
        },
        left_out,
    })
}
