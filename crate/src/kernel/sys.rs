//! The few system calls the runner needs, each wrapped once with its error
//! turned into `std::io::Error`: thread ids, scheduling policies and
//! affinity, a futex gate, the clocks and signal masks.

use std::io;
use std::sync::atomic::AtomicU32;

/// A Linux scheduling policy with the priority it runs a thread at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sched {
    /// `SCHED_OTHER` (the fair class, EEVDF since Linux 6.6) at nice 0.
    Other,
    /// `SCHED_FIFO` at a real-time priority, 1 to 99.
    Fifo(i32),
    /// `SCHED_RR` at a real-time priority, 1 to 99.
    Rr(i32),
}

fn check(ret: libc::c_int) -> io::Result<()> {
    if ret == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// The calling thread's kernel id (what `/proc/self/task/` lists).
pub(crate) fn gettid() -> libc::pid_t {
    // SAFETY: gettid takes no arguments and cannot fail.
    unsafe { libc::syscall(libc::SYS_gettid) as libc::pid_t }
}

/// Sets thread `tid`'s policy (0: the calling thread).
pub(crate) fn set_sched(tid: libc::pid_t, sched: Sched) -> io::Result<()> {
    let (policy, priority) = match sched {
        Sched::Other => (libc::SCHED_OTHER, 0),
        Sched::Fifo(p) => (libc::SCHED_FIFO, p),
        Sched::Rr(p) => (libc::SCHED_RR, p),
    };
    let param = libc::sched_param {
        sched_priority: priority,
    };
    // SAFETY: `param` is a valid sched_param for the duration of the call.
    check(unsafe { libc::sched_setscheduler(tid, policy, &param) })
}

/// Sets thread `tid`'s nice value (`setpriority(PRIO_PROCESS, tid, …)`,
/// which on Linux names one thread). The fair class weighs a thread by it;
/// a value below the thread's current one needs root or CAP_SYS_NICE.
pub(crate) fn set_nice(tid: libc::pid_t, nice: i8) -> io::Result<()> {
    // SAFETY: setpriority takes plain integers.
    check(unsafe {
        libc::setpriority(
            libc::PRIO_PROCESS,
            tid as libc::id_t,
            libc::c_int::from(nice),
        )
    })
}

/// Pins thread `tid` (0: the calling thread) to `cpus`.
pub(crate) fn set_affinity(tid: libc::pid_t, cpus: &[usize]) -> io::Result<()> {
    // SAFETY: an all-zero cpu_set_t is the empty set; CPU_SET only writes
    // within the set for CPU numbers below CPU_SETSIZE, which is checked.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &cpu in cpus {
            if cpu >= libc::CPU_SETSIZE as usize {
                return Err(io::Error::from(io::ErrorKind::InvalidInput));
            }
            libc::CPU_SET(cpu, &mut set);
        }
        check(libc::sched_setaffinity(
            tid,
            std::mem::size_of::<libc::cpu_set_t>(),
            &set,
        ))
    }
}

/// The CPUs this process may run on, ascending.
pub(crate) fn allowed_cpus() -> io::Result<Vec<usize>> {
    // SAFETY: the set is written by the kernel and read with CPU_ISSET
    // below CPU_SETSIZE only.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        check(libc::sched_getaffinity(
            0,
            std::mem::size_of::<libc::cpu_set_t>(),
            &mut set,
        ))?;
        Ok((0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect())
    }
}

/// The round-robin slice the kernel gives thread `tid`, in ms (whole
/// ticks: what `sched_rr_timeslice_ms` became).
pub(crate) fn rr_interval_ms(tid: libc::pid_t) -> io::Result<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec the kernel writes into.
    check(unsafe { libc::sched_rr_get_interval(tid, &mut ts) })?;
    Ok(ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6)
}

fn clock_ns(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is valid; both clocks used here always exist on Linux.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// `CLOCK_MONOTONIC` in ns.
pub(crate) fn monotonic_ns() -> u64 {
    clock_ns(libc::CLOCK_MONOTONIC)
}

/// The calling thread's own CPU time in ns: it does not advance while the
/// thread is preempted, so spinning on it counts work, not waiting.
pub(crate) fn thread_cpu_ns() -> u64 {
    clock_ns(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// Sleeps until `CLOCK_MONOTONIC` reads `deadline_ns`.
pub(crate) fn sleep_until(deadline_ns: u64) {
    let ts = libc::timespec {
        tv_sec: (deadline_ns / 1_000_000_000) as libc::time_t,
        tv_nsec: (deadline_ns % 1_000_000_000) as libc::c_long,
    };
    // SAFETY: `ts` is valid; an interrupted sleep is simply repeated.
    while unsafe {
        libc::clock_nanosleep(
            libc::CLOCK_MONOTONIC,
            libc::TIMER_ABSTIME,
            &ts,
            std::ptr::null_mut(),
        )
    } == libc::EINTR
    {}
}

/// Sleeps while `word` holds `value` (a futex wait; may return early, so
/// callers loop on the word).
pub(crate) fn futex_wait(word: &AtomicU32, value: u32) {
    // SAFETY: `word` outlives the call; the kernel only reads it.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
            value,
            std::ptr::null::<libc::timespec>(),
        );
    }
}

/// Wakes the threads sleeping on `word`.
pub(crate) fn futex_wake(word: &AtomicU32) {
    // SAFETY: `word` outlives the call.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
            i32::MAX,
        );
    }
}

/// The signals that end a run early: Ctrl-C, `kill`, a closed terminal.
pub(crate) const STOP_SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

fn stop_set() -> libc::sigset_t {
    // SAFETY: sigemptyset/sigaddset initialise and fill a local set.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for s in STOP_SIGNALS {
            libc::sigaddset(&mut set, s);
        }
        set
    }
}

/// Blocks [`STOP_SIGNALS`] in the calling thread and every thread it
/// starts afterwards, so that only [`wait_stop_signal`] receives them.
pub(crate) fn block_stop_signals() -> io::Result<()> {
    let set = stop_set();
    // SAFETY: `set` is initialised; the old mask is not needed.
    let ret = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
    if ret == 0 {
        Ok(())
    } else {
        Err(io::Error::from_raw_os_error(ret))
    }
}

/// Waits for one of [`STOP_SIGNALS`] (blocked beforehand) and returns it.
pub(crate) fn wait_stop_signal() -> libc::c_int {
    let set = stop_set();
    let mut sig: libc::c_int = 0;
    // SAFETY: both pointers are valid locals.
    while unsafe { libc::sigwait(&set, &mut sig) } != 0 {}
    sig
}

/// A thread's scheduling state letter from `/proc/self/task/<tid>/stat`
/// (`S`: sleeping, `R`: running or runnable), `None` if it has gone.
pub(crate) fn thread_state(tid: libc::pid_t) -> Option<char> {
    let text = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).ok()?;
    // The name in parentheses may hold spaces: the state follows its end.
    let after = &text[text.rfind(')')? + 1..];
    after.trim_start().chars().next()
}
