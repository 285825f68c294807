//! Kernel settings the runner changes for a while (`sched_rr_timeslice_ms`,
//! `sched_rt_runtime_us`), and the promise to put them back on every way
//! out: a guard's `Drop` (a normal end or a panic that unwinds), and
//! [`restore_all`] for the exits that skip destructors (a stop signal, the
//! watchdog, a panic hook). Every change is registered before it is made,
//! so whichever path comes first restores it, and the others find nothing
//! left to do.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// `/proc/sys/kernel/sched_rr_timeslice_ms`: SCHED_RR's slice.
pub(crate) const RR_TIMESLICE: &str = "/proc/sys/kernel/sched_rr_timeslice_ms";
/// `/proc/sys/kernel/sched_rt_runtime_us`: real-time threads' share of
/// each period (-1: unthrottled).
pub(crate) const RT_RUNTIME: &str = "/proc/sys/kernel/sched_rt_runtime_us";
/// `/proc/sys/kernel/sched_rt_period_us`: the period of that share.
pub(crate) const RT_PERIOD: &str = "/proc/sys/kernel/sched_rt_period_us";

/// Settings changed and not yet restored: (file, value before).
static CHANGED: Mutex<Vec<(PathBuf, String)>> = Mutex::new(Vec::new());

/// Reads a setting, trimmed.
pub(crate) fn read(path: impl AsRef<Path>) -> io::Result<String> {
    Ok(std::fs::read_to_string(path)?.trim().to_string())
}

/// Reads a numeric setting.
pub(crate) fn read_i64(path: impl AsRef<Path>) -> Option<i64> {
    read(path).ok()?.parse().ok()
}

fn changed() -> std::sync::MutexGuard<'static, Vec<(PathBuf, String)>> {
    // A panic while holding the lock must not stop the restore.
    CHANGED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Writes every registered setting back to its value before, once.
/// Returns the settings restored (file, value), for the report.
pub(crate) fn restore_all() -> Vec<(PathBuf, String)> {
    let list: Vec<_> = changed().drain(..).collect();
    for (path, before) in &list {
        let _ = std::fs::write(path, before);
    }
    list
}

/// A setting changed for as long as the guard lives.
#[derive(Debug)]
pub(crate) struct Setting {
    path: PathBuf,
    before: String,
}

impl Setting {
    /// Writes `value` to `path`, after registering its value before.
    pub(crate) fn set(path: impl AsRef<Path>, value: &str) -> io::Result<Setting> {
        let path = path.as_ref().to_path_buf();
        let before = read(&path)?;
        {
            let mut list = changed();
            // The first registration holds the original value.
            if !list.iter().any(|(p, _)| *p == path) {
                list.push((path.clone(), before.clone()));
            }
        }
        if let Err(e) = std::fs::write(&path, value) {
            restore(&path);
            return Err(e);
        }
        Ok(Setting { path, before })
    }

    /// The value before the change.
    pub(crate) fn before(&self) -> &str {
        &self.before
    }
}

/// Restores `path` if it is still registered.
fn restore(path: &Path) {
    let mut list = changed();
    if let Some(i) = list.iter().position(|(p, _)| p == path) {
        let (p, before) = list.remove(i);
        let _ = std::fs::write(p, before);
    }
}

impl Drop for Setting {
    fn drop(&mut self) {
        restore(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_setting(name: &str, value: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("tailslice-sysctl-{}-{name}", std::process::id()));
        std::fs::write(&path, format!("{value}\n")).unwrap();
        path
    }

    #[test]
    fn a_guard_restores_on_drop_and_on_a_panic_and_restore_all_on_demand() {
        let file = temp_setting("guard", "100");
        {
            let s = Setting::set(&file, "16").unwrap();
            assert_eq!(read(&file).unwrap(), "16");
            assert_eq!(s.before(), "100");
        }
        assert_eq!(read(&file).unwrap(), "100");

        let in_panic = file.clone();
        let result = std::panic::catch_unwind(move || {
            let _s = Setting::set(&in_panic, "4").unwrap();
            assert_eq!(read(&in_panic).unwrap(), "4");
            panic!("a run that fails midway");
        });
        assert!(result.is_err());
        assert_eq!(read(&file).unwrap(), "100");

        // Exits that skip destructors: the guard is forgotten, restore_all
        // still writes the value back, and only once.
        let s = Setting::set(&file, "8").unwrap();
        std::mem::forget(s);
        assert_eq!(read(&file).unwrap(), "8");
        let restored = restore_all();
        assert!(restored.iter().any(|(p, v)| *p == file && v == "100"));
        assert_eq!(read(&file).unwrap(), "100");
        std::fs::write(&file, "7").unwrap();
        assert!(!restore_all().iter().any(|(p, _)| *p == file));
        assert_eq!(read(&file).unwrap(), "7");
        let _ = std::fs::remove_file(file);
        // One test: restore_all empties the one registry of the process.
        a_second_change_of_one_setting_keeps_the_first_value_before();
        the_panic_hook_restores_what_no_guard_will();
    }

    /// A panic on another thread, whose guard never drops (forgotten, as
    /// when the process exits before unwinding reaches it): the hook
    /// writes the value back before the panic is reported.
    fn the_panic_hook_restores_what_no_guard_will() {
        let file = temp_setting("hook", "100");
        crate::kernel::watch::on_panic();
        let in_thread = file.clone();
        let joined = std::thread::spawn(move || {
            std::mem::forget(Setting::set(&in_thread, "16").unwrap());
            assert_eq!(read(&in_thread).unwrap(), "16");
            panic!("a thread of the run fails");
        })
        .join();
        assert!(joined.is_err());
        assert_eq!(read(&file).unwrap(), "100");
        let _ = std::fs::remove_file(file);
    }

    fn a_second_change_of_one_setting_keeps_the_first_value_before() {
        let file = temp_setting("twice", "950000");
        let a = Setting::set(&file, "-1").unwrap();
        let b = Setting::set(&file, "5").unwrap();
        drop(b);
        assert_eq!(read(&file).unwrap(), "950000");
        drop(a);
        assert_eq!(read(&file).unwrap(), "950000");
        let _ = std::fs::remove_file(file);
    }
}
