//! What a measurement will do, decided before any thread starts: which
//! kernel policy each model policy maps to, which CPUs the tasks get and
//! which stay free, and whether the run fits its work limit. Every
//! refusal here is one line naming the flag (the CLI's exit status 2).

use crate::policy::PolicyKind;

use super::sys::Sched;
use super::{
    kernel_policy, kernel_policy_names, pass, KernelPolicy, MeasuredPolicy, KERNEL_POLICIES,
};

/// What `--policies` accepts (its refusal's words and `--help`'s).
pub(crate) fn policies_allowed() -> String {
    format!(
        "1 to {} distinct policies from {} (SCHED_FIFO, SCHED_RR, SCHED_OTHER) joined by commas",
        KERNEL_POLICIES.len(),
        kernel_policy_names()
    )
}

/// Reads `--policies` for `measure`: distinct names that have a kernel
/// policy. `flag` is the flag as spelled, for the refusal.
pub fn parse_policies(flag: &str, text: &str) -> Result<Vec<MeasuredPolicy>, String> {
    let mut out: Vec<MeasuredPolicy> = Vec::new();
    for part in text.split(',') {
        let name = part.trim();
        let model = PolicyKind::parse(flag, name).ok();
        let Some(kernel) = kernel_policy(name) else {
            let why = if model.is_some() {
                format!("{name} has no kernel policy; ")
            } else {
                String::new()
            };
            return Err(format!(
                "invalid {flag} '{}': {why}expected {}",
                crate::error::shown(text),
                policies_allowed()
            ));
        };
        if out.iter().any(|p| p.name == name) {
            return Err(format!(
                "invalid {flag} '{}': {name} is given twice; expected distinct policies from {}",
                crate::error::shown(text),
                kernel_policy_names()
            ));
        }
        out.push(MeasuredPolicy {
            name: name.to_string(),
            kernel,
            model,
        });
    }
    Ok(out)
}

/// A run longer than this (its tasks' work spread over the cores, for
/// every policy and repeat) is refused: 10 minutes.
pub const MAX_RUN_S: f64 = 600.0;
/// A pass that runs this many times its expected length (plus
/// [`DEADLINE_SLACK_S`]) is ended.
pub const DEADLINE_FACTOR: f64 = 3.0;
pub const DEADLINE_SLACK_S: f64 = 5.0;

/// The CPUs a run uses and leaves free.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Cpus {
    /// Online CPUs (`/sys/devices/system/cpu/online`).
    pub online: usize,
    /// The CPUs this process may run on.
    pub allowed: Vec<usize>,
    /// The tasks' CPUs: the highest numbered allowed ones, highest first.
    pub used: Vec<usize>,
    /// The rest, left to the system (CPU 0 among them whenever a CPU is
    /// left at all).
    pub free: Vec<usize>,
}

/// Picks `cores` CPUs from the highest numbered down: `--cores` may be at
/// most the CPUs this process may use. When it equals them no CPU is left
/// free, which the report says (and `--rt-unthrottled` is then refused).
pub(crate) fn choose_cpus(allowed: &[usize], online: usize, cores: usize) -> Result<Cpus, String> {
    if cores > allowed.len() {
        return Err(format!(
            "invalid --cores '{cores}': measure pins one CPU per core; this process may use {} CPU{} ({}), so 1 to {}",
            allowed.len(),
            if allowed.len() == 1 { "" } else { "s" },
            list(allowed),
            allowed.len()
        ));
    }
    let used: Vec<usize> = allowed.iter().rev().take(cores).copied().collect();
    let free: Vec<usize> = allowed
        .iter()
        .filter(|c| !used.contains(c))
        .copied()
        .collect();
    Ok(Cpus {
        online,
        allowed: allowed.to_vec(),
        used,
        free,
    })
}

/// CPU numbers as `0, 1`.
pub(crate) fn list(cpus: &[usize]) -> String {
    cpus.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The kernel policy a pass runs its tasks under.
pub(crate) fn task_sched(policy: KernelPolicy) -> Sched {
    match policy {
        KernelPolicy::Fifo => Sched::Fifo(pass::TASK_PRIORITY),
        KernelPolicy::Rr => Sched::Rr(pass::TASK_PRIORITY),
        KernelPolicy::Other => Sched::Other,
    }
}

/// The expected length of one pass in seconds: the last arrival plus the
/// work spread over the cores.
pub(crate) fn expected_pass_s(work_ms: &[f64], arrival_ms: &[f64], cores: usize) -> f64 {
    let total: f64 = work_ms.iter().sum();
    let last = arrival_ms.iter().copied().fold(0.0, f64::max);
    (last + total / cores.max(1) as f64) / 1000.0
}

/// Refuses a run over [`MAX_RUN_S`], naming `--repeats` (the one flag that
/// only multiplies).
pub(crate) fn check_length(pass_s: f64, passes: usize, repeats: u32) -> Result<(), String> {
    let total = pass_s * passes as f64;
    if total > MAX_RUN_S {
        return Err(format!(
            "invalid --repeats '{repeats}': this run would take about {total:.0} s ({pass_s:.1} s per pass × {passes} passes: policies × repeats), over the limit of {MAX_RUN_S:.0} s; use fewer repeats, tasks or policies, or more cores"
        ));
    }
    Ok(())
}

/// The longest quantum `sched_rr_timeslice_ms` is given (ms).
pub(crate) const MAX_RR_TIMESLICE_MS: f64 = 100_000.0;

/// What `--quantum` accepts when rr is measured (its refusal's words and
/// `--help`'s).
pub(crate) fn quantum_allowed() -> String {
    format!("a whole number of ms from 1 to {MAX_RR_TIMESLICE_MS} when rr is measured (measure writes its quantum to sched_rr_timeslice_ms, which takes whole ms)")
}

/// Refuses a round-robin quantum the kernel cannot be given:
/// `sched_rr_timeslice_ms` takes whole ms.
pub(crate) fn rr_timeslice(quantum: f64) -> Result<u32, String> {
    if quantum.fract() != 0.0 || !(1.0..=MAX_RR_TIMESLICE_MS).contains(&quantum) {
        return Err(format!(
            "invalid --quantum '{quantum}': expected {}",
            quantum_allowed()
        ));
    }
    Ok(quantum as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpus_are_taken_from_the_highest_down_and_cpu_0_stays_free() {
        let c = choose_cpus(&[0, 1, 2, 3], 4, 2).unwrap();
        assert_eq!(c.used, vec![3, 2]);
        assert_eq!(c.free, vec![0, 1]);
        let all = choose_cpus(&[0, 1], 2, 2).unwrap();
        assert!(all.free.is_empty());
        let e = choose_cpus(&[0, 1], 2, 3).unwrap_err();
        assert!(
            e.starts_with("invalid --cores '3'") && e.contains("1 to 2"),
            "{e}"
        );
    }

    #[test]
    fn the_length_limit_counts_every_pass() {
        assert!(check_length(5.2, 6, 3).is_ok());
        let e = check_length(5.2, 200, 100).unwrap_err();
        assert!(e.contains("1040 s") && e.contains("600 s"), "{e}");
        assert_eq!(expected_pass_s(&[1000.0, 1000.0], &[0.0, 500.0], 2), 1.5);
    }

    #[test]
    fn the_kernel_takes_whole_ms_for_its_slice() {
        assert_eq!(rr_timeslice(16.0), Ok(16));
        assert!(rr_timeslice(1.5).is_err());
        assert!(rr_timeslice(0.5).is_err());
    }
}
