//! The ways a run can end early, each of which puts the kernel's settings
//! back: a stop signal (Ctrl-C, `kill`, a closed terminal) received by a
//! thread of its own, and a panic (a hook, before the default message).
//! A pass that runs far past its expected time is ended by the pass itself
//! (`pass::run`'s deadline); the guards then restore on the way out.

use std::io::Write;

use super::sys::{self, Sched};
use super::sysctl;

/// Exit status after a stop signal: 128 + its number, as shells report.
pub(crate) fn exit_status(signal: libc::c_int) -> i32 {
    128 + signal
}

/// Blocks the stop signals in the calling thread (and so in every thread
/// started after) and starts the thread that receives them: it restores
/// every changed setting, says so on stderr and ends the process. Call
/// before any other thread is started. `others`: the CPUs it keeps to (the
/// ones the tasks leave free); `rt_allowed`: whether it may run above the
/// tasks.
pub(crate) fn on_stop_signal(others: Vec<usize>, rt_allowed: bool) -> std::io::Result<()> {
    sys::block_stop_signals()?;
    std::thread::Builder::new()
        .name("stop-signals".into())
        .spawn(move || {
            let _ = sys::set_affinity(0, &others);
            if rt_allowed {
                let _ = sys::set_sched(0, Sched::Fifo(super::pass::WATCH_PRIORITY));
            }
            let sig = sys::wait_stop_signal();
            let restored = sysctl::restore_all();
            let mut err = std::io::stderr().lock();
            let _ = writeln!(
                err,
                "measure: stopped by signal {sig}; restored {}",
                restored_list(&restored)
            );
            std::process::exit(exit_status(sig));
        })?;
    Ok(())
}

/// Restores every changed setting when any thread panics, then reports
/// the panic as usual.
pub(crate) fn on_panic() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        sysctl::restore_all();
        default(info);
    }));
}

/// `name=value` of each restored setting, or "nothing to restore".
pub(crate) fn restored_list(list: &[(std::path::PathBuf, String)]) -> String {
    if list.is_empty() {
        return "nothing (no setting was changed)".to_string();
    }
    list.iter()
        .map(|(p, v)| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default();
            format!("{name}={v}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}
