//! Work budgets for the tests that guard against a hang or a quadratic
//! scan: CPU time, not wall-clock time. A busy machine stretches a test's
//! wall time (other processes get the cores) but not the CPU time its own
//! work takes, so a budget with room to spare fails only when the work
//! itself grows. Linux only (`/proc`, `ulimit -t`); elsewhere the budget is
//! not checked.
#![allow(dead_code)] // each test file uses the half it needs

use std::fmt::Display;
use std::process::Command;
use std::time::Duration;

/// CPU time this thread has run so far (`/proc/thread-self/schedstat`,
/// nanoseconds); `None` where that file does not exist.
pub fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Runs `f` on this thread and fails if it took more than `budget` of CPU
/// time (`what` names the work in the message). Returns what `f` returned.
pub fn within<T>(what: impl Display, budget: Duration, f: impl FnOnce() -> T) -> T {
    let start = thread_cpu();
    let out = f();
    if let (Some(start), Some(end)) = (start, thread_cpu()) {
        let used = end.saturating_sub(start);
        assert!(
            used <= budget,
            "{what} used {used:?} of CPU (budget {budget:?}): a hang or a quadratic scan?"
        );
    }
    out
}

/// A `Command` for `program` that the kernel stops once it has used
/// `secs` seconds of CPU (`ulimit -t`, SIGXCPU): a refusal that does the
/// work first is killed instead of running on. Check the exit with
/// [`assert_not_over`].
pub fn cpu_limited(program: &str, secs: u32) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(format!("ulimit -t {secs} && exec \"$0\" \"$@\""))
        .arg(program);
    c
}

/// Fails, naming `what`, if a [`cpu_limited`] process was stopped for
/// going over its CPU budget (it ended on a signal).
pub fn assert_not_over(status: std::process::ExitStatus, what: impl Display) {
    assert!(
        status.code().is_some(),
        "{what}: stopped ({status}) over its CPU budget: it worked instead of refusing"
    );
}
