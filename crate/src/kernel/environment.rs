//! What the running kernel and machine are, read before a run and reported
//! with it: the kernel's release and tick rate, the CPUs, whether real-time
//! policies are allowed, RT throttling and the fair class's deadline
//! server, steal time and the load average.

use std::io::Read;

use serde::Serialize;

use super::sys::{self, Sched};
use super::sysctl;

/// The kernel's tick rate and where it was read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Hz {
    pub value: Option<u32>,
    /// `/proc/config.gz`, `/boot/config-<release>` or `sched_rr_get_interval`
    /// (one tick measured as the round-robin slice of a 1 ms setting).
    pub source: &'static str,
}

/// Reads `CONFIG_HZ` from the kernel's own configuration, where the
/// kernel publishes it (`getconf CLK_TCK` is USER_HZ, always 100, not the
/// tick rate).
pub(crate) fn hz_from_config(release: &str) -> Option<Hz> {
    let from = |text: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix("CONFIG_HZ="))
            .and_then(|v| v.trim().parse().ok())
    };
    if let Ok(file) = std::fs::File::open("/proc/config.gz") {
        let mut text = String::new();
        if flate2::read::GzDecoder::new(file)
            .read_to_string(&mut text)
            .is_ok()
        {
            if let Some(v) = from(&text) {
                return Some(Hz {
                    value: Some(v),
                    source: "/proc/config.gz",
                });
            }
        }
    }
    let boot = std::fs::read_to_string(format!("/boot/config-{release}")).ok()?;
    from(&boot).map(|v| Hz {
        value: Some(v),
        source: "/boot/config",
    })
}

/// One tick measured: with `sched_rr_timeslice_ms` at 1 the kernel rounds
/// the slice up to one tick, which `sched_rr_get_interval` reports. Needs
/// the right to write the setting and to make a thread SCHED_RR.
pub(crate) fn hz_from_rr_slice() -> Option<Hz> {
    let _one = sysctl::Setting::set(sysctl::RR_TIMESLICE, "1").ok()?;
    let tick_ms = std::thread::spawn(|| {
        sys::set_sched(0, Sched::Rr(1)).ok()?;
        sys::rr_interval_ms(0).ok()
    })
    .join()
    .ok()??;
    (tick_ms > 0.0).then(|| Hz {
        value: Some((1000.0 / tick_ms).round() as u32),
        source: "sched_rr_get_interval",
    })
}

/// Whether this process may make a thread SCHED_FIFO (root, CAP_SYS_NICE
/// or an RLIMIT_RTPRIO, and a real-time budget in its cgroup): tried on a
/// thread of its own, the only answer that covers every case.
pub fn rt_allowed() -> bool {
    std::thread::spawn(|| sys::set_sched(0, Sched::Fifo(1)).is_ok())
        .join()
        .unwrap_or(false)
}

/// RT throttling as the kernel has it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RtThrottling {
    /// `sched_rt_runtime_us` before the run (-1: off).
    pub runtime_us: Option<i64>,
    pub period_us: Option<i64>,
    /// The fair class's deadline server on the first CPU used (Linux 6.12
    /// and later run fair tasks from it, which can pause real-time threads
    /// too): its `runtime` and `period` in ns from debugfs, or `None` when
    /// debugfs is not mounted or the kernel has none.
    pub fair_server_runtime_ns: Option<i64>,
    pub fair_server_period_ns: Option<i64>,
    /// Real-time threads' share of each period that throttling takes away
    /// (0.05 at the default 950000 of 1000000 µs); 0 when off.
    pub share_paused: f64,
}

impl RtThrottling {
    pub(crate) fn read(first_cpu: usize) -> RtThrottling {
        let runtime_us = sysctl::read_i64(sysctl::RT_RUNTIME);
        let period_us = sysctl::read_i64(sysctl::RT_PERIOD);
        let server = |name: &str| {
            sysctl::read_i64(format!(
                "/sys/kernel/debug/sched/fair_server/cpu{first_cpu}/{name}"
            ))
        };
        let share_paused = match (runtime_us, period_us) {
            (Some(r), Some(p)) if r >= 0 && p > 0 && r < p => (p - r) as f64 / p as f64,
            _ => 0.0,
        };
        RtThrottling {
            runtime_us,
            period_us,
            fair_server_runtime_ns: server("runtime"),
            fair_server_period_ns: server("period"),
            share_paused,
        }
    }
}

/// The kernel's release (`uname -r`).
pub(crate) fn kernel_release() -> String {
    sysctl::read("/proc/sys/kernel/osrelease").unwrap_or_else(|_| "unknown".to_string())
}

/// Whether a release is at least `major.minor` (the fair deadline server
/// came with 6.12).
pub(crate) fn release_at_least(release: &str, major: u32, minor: u32) -> bool {
    let mut parts = release.split(|c: char| !c.is_ascii_digit());
    let a: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    let b: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    (a, b) >= (major, minor)
}

/// The 1, 5 and 15 minute load averages (`/proc/loadavg`).
pub(crate) fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = text.split_whitespace().map(|v| v.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

/// Whether the fair class groups threads by session (`CONFIG_SCHED_AUTOGROUP`,
/// `/proc/sys/kernel/sched_autogroup_enabled`) and the nice value of this
/// process's group (`/proc/self/autogroup`); `None` without autogroups.
pub(crate) fn autogroup() -> Option<Autogroup> {
    let enabled = sysctl::read_i64("/proc/sys/kernel/sched_autogroup_enabled")? != 0;
    let own = std::fs::read_to_string("/proc/self/autogroup").unwrap_or_default();
    Some(Autogroup {
        enabled,
        nice: parse_autogroup_nice(&own),
    })
}

/// The nice value in `/proc/self/autogroup`'s `/autogroup-147 nice 0`.
pub(crate) fn parse_autogroup_nice(text: &str) -> Option<i32> {
    let mut words = text.split_whitespace();
    words.find(|w| *w == "nice")?;
    words.next()?.parse().ok()
}

/// The fair class's session groups, as the run found them.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Autogroup {
    pub enabled: bool,
    /// This process's group's nice value.
    pub nice: Option<i32>,
}

/// Each CPU's steal time so far in ms (`/proc/stat`'s `cpuN` lines, the
/// eighth figure, in USER_HZ ticks), by CPU number.
pub(crate) fn steal_ms() -> Vec<(usize, f64)> {
    // SAFETY: sysconf only reads a constant.
    let user_hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let text = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    parse_steal(&text, user_hz)
}

/// [`steal_ms`] from the text of `/proc/stat`.
pub(crate) fn parse_steal(stat: &str, user_hz: f64) -> Vec<(usize, f64)> {
    stat.lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            let cpu: usize = f.next()?.strip_prefix("cpu")?.parse().ok()?;
            let steal: f64 = f.nth(7)?.parse().ok()?;
            Some((cpu, steal * 1000.0 / user_hz))
        })
        .collect()
}

/// The CPUs online (`/sys/devices/system/cpu/online`, e.g. `0-1,4`).
pub fn online_cpus() -> usize {
    let text = sysctl::read("/sys/devices/system/cpu/online").unwrap_or_default();
    let n = text
        .split(',')
        .filter_map(|r| {
            let mut ends = r.split('-').map(|v| v.trim().parse::<usize>().ok());
            let a = ends.next()??;
            let b = ends.next().flatten().unwrap_or(a);
            Some(b.saturating_sub(a) + 1)
        })
        .sum::<usize>();
    n.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_autogroup_nice_is_read_from_its_line() {
        assert_eq!(parse_autogroup_nice("/autogroup-147 nice 0\n"), Some(0));
        assert_eq!(parse_autogroup_nice("/autogroup-9 nice -20"), Some(-20));
        assert_eq!(parse_autogroup_nice(""), None);
        assert_eq!(parse_autogroup_nice("/autogroup-9 nice"), None);
    }

    #[test]
    fn steal_is_the_eighth_figure_of_each_cpu_line_in_ms() {
        let stat = "cpu  22520 0 5931 14090 1592 0 54 103 0 0\n\
                    cpu0 10751 0 2687 8554 108 0 10 50 0 0\n\
                    cpu1 11769 0 3243 5536 1483 0 43 53 0 0\nintr 5";
        assert_eq!(parse_steal(stat, 100.0), vec![(0, 500.0), (1, 530.0)]);
    }

    #[test]
    fn releases_compare_by_major_then_minor() {
        assert!(release_at_least("6.18.44-fc-v1098", 6, 12));
        assert!(release_at_least("6.12.0", 6, 12));
        assert!(!release_at_least("6.6.30", 6, 12));
        assert!(release_at_least("7.0", 6, 12));
    }
}
