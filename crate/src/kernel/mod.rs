//! The experiment's tasks as real Linux threads, measured beside the
//! model (`tailslice measure`): one thread per task, pinned to chosen
//! CPUs, under the kernel policy a model policy maps to, each spinning on
//! its own CPU-time clock for its task's work. Linux only.
//!
//! - [`sys`]: the system calls, each wrapped once;
//! - [`sysctl`]: kernel settings changed for a run and restored on every
//!   way out;
//! - [`environment`]: the kernel, its tick rate, CPUs, RT throttling,
//!   steal time, load;
//! - [`plan`]: CPUs, policies and limits decided before a thread starts;
//! - [`flags`]: `measure`'s own flags as spec rows, and what it accepts
//!   of the experiment's;
//! - [`pass`]: one pass — the threads, the releaser, the clocks;
//! - [`watch`]: stop signals and panics;
//! - [`run`]: every policy and repeat, with the settings it needs;
//! - [`report`]: the measured rows (the simulation's own figures, the
//!   spread over repeats) and the environment, as JSON;
//! - [`text`]: every note, in English and Chinese.

pub mod environment;
pub mod flags;
pub(crate) mod pass;
pub mod plan;
pub mod report;
pub mod run;
pub(crate) mod sys;
pub(crate) mod sysctl;
pub mod text;
pub(crate) mod watch;

pub(crate) use crate::experiment::measured::KernelPolicy;
use crate::policy::PolicyKind;

/// One policy to measure: the model's name, its kernel policy and the
/// model's class of that name, if the model simulates one.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredPolicy {
    pub name: String,
    pub kernel: KernelPolicy,
    pub model: Option<PolicyKind>,
}

/// The model's policies that have a kernel policy, by the model's name:
/// `--policies` of `measure` takes these names. A name the model does not
/// (yet) simulate is measured without a model row.
pub(crate) const KERNEL_POLICIES: [(&str, KernelPolicy); 3] = [
    ("fifo", KernelPolicy::Fifo),
    ("rr", KernelPolicy::Rr),
    ("eevdf", KernelPolicy::Other),
];

/// The kernel policy of a model policy's name, if it has one.
pub fn kernel_policy(name: &str) -> Option<KernelPolicy> {
    KERNEL_POLICIES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, k)| k)
}

/// The names [`kernel_policy`] knows, as `fifo, rr, eevdf`.
pub(crate) fn kernel_policy_names() -> String {
    KERNEL_POLICIES
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_names_map_to_kernel_policies_and_others_have_none() {
        assert_eq!(kernel_policy("fifo"), Some(KernelPolicy::Fifo));
        assert_eq!(kernel_policy("rr"), Some(KernelPolicy::Rr));
        assert_eq!(kernel_policy("eevdf"), Some(KernelPolicy::Other));
        for name in ["sjf", "srpt", "mlfq", "xnu", "clutch", "FIFO", ""] {
            assert_eq!(kernel_policy(name), None, "{name}");
        }
    }
}
