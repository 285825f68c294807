//! One pass: every task of the workload as a thread of its own, released
//! at its arrival time in the model's queue order, spinning on its own
//! CPU-time clock for its work.
//!
//! The order a real-time run queue serves threads in is the order they
//! were enqueued, so each step that enqueues a thread is chosen with care:
//!
//! 1. Threads are created at the creator's ordinary policy, pin themselves
//!    and go to sleep on a gate of their own. The pass waits until every
//!    one of them is asleep (`/proc/self/task/<tid>/stat` says `S`).
//! 2. Each sleeping thread gets its task's policy. A thread that is asleep
//!    is on no run queue, so this enqueues nothing. (Lowering the priority
//!    of a thread that is runnable puts it at the *head* of its new list:
//!    threads made by a higher-priority creator and then lowered run in
//!    reverse order.)
//! 3. A releaser at a higher real-time priority, on the tasks' first CPU,
//!    opens the gates in arrival order (ties in task order). A wakeup
//!    enqueues at the tail, and no task runs before the releaser sleeps, so
//!    the queue holds them in the model's order. The start instant is one
//!    reading taken before the first release, after every thread exists:
//!    no task can begin while others are still being created.
//!
//! A task's latency is its completion (`CLOCK_MONOTONIC`) minus its release
//! instant: the start instant plus its arrival time.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use super::sys::{self, Sched};

/// Most tasks a pass runs (one thread each).
pub(crate) const MAX_THREADS: usize = 5000;
/// The tasks' real-time priority (SCHED_FIFO and SCHED_RR).
pub(crate) const TASK_PRIORITY: i32 = 10;
/// The releaser's, above the tasks'.
pub(crate) const RELEASER_PRIORITY: i32 = 20;
/// The threads that watch over a run (signals, the pass's deadline),
/// above both.
pub(crate) const WATCH_PRIORITY: i32 = 30;

/// What a pass runs and where.
#[derive(Clone, Debug)]
pub(crate) struct PassPlan {
    pub work_ms: Vec<f64>,
    pub arrival_ms: Vec<f64>,
    /// The tasks' policy.
    pub sched: Sched,
    /// Each task's nice value under SCHED_OTHER (empty: all 0); the
    /// real-time policies ignore it.
    pub nice: Vec<i8>,
    /// The releaser's policy: above the tasks' when real-time policies are
    /// allowed, else the ordinary one.
    pub releaser: Sched,
    /// The CPUs the tasks run on (the releaser on the first).
    pub cpus: Vec<usize>,
    /// The pass is ended when it runs this long.
    pub deadline: Duration,
    /// Whether the watching thread may run at [`WATCH_PRIORITY`].
    pub rt_allowed: bool,
}

/// One pass as measured; times in ms from the start instant.
#[derive(Clone, Debug, Default)]
pub struct PassResult {
    pub completion_ms: Vec<f64>,
    /// When the releaser actually opened each task's gate.
    pub released_ms: Vec<f64>,
    /// CPU time each task spun for.
    pub busy_ms: Vec<f64>,
    /// Start instant to the last completion.
    pub wall_ms: f64,
    /// SCHED_RR's slice as the kernel reported it for a task thread.
    pub rr_slice_ms: Option<f64>,
}

/// Why a pass did not complete.
#[derive(Debug)]
pub(crate) enum PassError {
    /// A thread could not be created, pinned or given its policy.
    Setup(String),
    /// The pass ran past its deadline and was stopped.
    Timeout(Duration),
}

#[derive(Default)]
struct Slot {
    tid: AtomicI32,
    gate: AtomicU32,
    released_ns: AtomicU64,
    done_ns: AtomicU64,
    busy_ns: AtomicU64,
}

#[derive(Default)]
struct Shared {
    slots: Vec<Slot>,
    parked: AtomicUsize,
    /// Opened when the pass is over: a finished task sleeps on it rather
    /// than exit, so a thread's exit is not paid between two tasks.
    dismissed: AtomicU32,
    stop: AtomicBool,
    finished: Mutex<usize>,
    all_done: Condvar,
}

impl Shared {
    fn open(&self, i: usize) {
        let slot = &self.slots[i];
        slot.gate.store(1, Ordering::Release);
        sys::futex_wake(&slot.gate);
    }

    fn dismiss(&self) {
        self.dismissed.store(1, Ordering::Release);
        sys::futex_wake(&self.dismissed);
    }

    fn stop_all(&self) {
        self.stop.store(true, Ordering::Relaxed);
        for i in 0..self.slots.len() {
            self.open(i);
        }
        self.dismiss();
    }
}

fn task(shared: &Shared, i: usize, cpus: &[usize], work_ns: u64) {
    let slot = &shared.slots[i];
    slot.tid.store(sys::gettid(), Ordering::Release);
    if sys::set_affinity(0, cpus).is_err() {
        slot.tid.store(-1, Ordering::Release);
    }
    shared.parked.fetch_add(1, Ordering::AcqRel);
    while slot.gate.load(Ordering::Acquire) == 0 {
        sys::futex_wait(&slot.gate, 0);
    }
    if shared.stop.load(Ordering::Relaxed) {
        return;
    }
    let start = sys::thread_cpu_ns();
    let mut now = start;
    while now - start < work_ns {
        if shared.stop.load(Ordering::Relaxed) {
            return;
        }
        now = sys::thread_cpu_ns();
    }
    slot.done_ns.store(sys::monotonic_ns(), Ordering::Release);
    slot.busy_ns.store(now - start, Ordering::Release);
    {
        let mut finished = shared.finished.lock().unwrap_or_else(|e| e.into_inner());
        *finished += 1;
        if *finished == shared.slots.len() {
            shared.all_done.notify_all();
        }
    }
    while shared.dismissed.load(Ordering::Acquire) == 0 {
        sys::futex_wait(&shared.dismissed, 0);
    }
}

/// Release order: by arrival, ties in task order (the model's queue order).
pub(crate) fn release_order(arrival_ms: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..arrival_ms.len()).collect();
    order.sort_by(|&a, &b| arrival_ms[a].total_cmp(&arrival_ms[b]).then(a.cmp(&b)));
    order
}

fn releaser(shared: &Shared, plan: &PassPlan, start: &AtomicU64) -> Result<(), String> {
    sys::set_affinity(0, &plan.cpus[..1]).map_err(|e| format!("pinning the releaser: {e}"))?;
    sys::set_sched(0, plan.releaser).map_err(|e| format!("the releaser's policy: {e}"))?;
    let t0 = sys::monotonic_ns();
    start.store(t0, Ordering::Release);
    for i in release_order(&plan.arrival_ms) {
        let at = t0 + (plan.arrival_ms[i] * 1e6) as u64;
        if sys::monotonic_ns() < at {
            sys::sleep_until(at);
        }
        if shared.stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        shared.slots[i]
            .released_ns
            .store(sys::monotonic_ns(), Ordering::Release);
        shared.open(i);
    }
    Ok(())
}

/// Waits until every thread sleeps at its gate.
fn wait_parked(shared: &Shared, deadline: std::time::Instant) -> Result<(), PassError> {
    let n = shared.slots.len();
    while shared.parked.load(Ordering::Acquire) < n {
        if std::time::Instant::now() > deadline {
            return Err(PassError::Setup("threads did not start in time".into()));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    for slot in &shared.slots {
        let tid = slot.tid.load(Ordering::Acquire);
        if tid <= 0 {
            return Err(PassError::Setup("pinning a task thread failed".into()));
        }
        while sys::thread_state(tid) != Some('S') {
            if std::time::Instant::now() > deadline {
                return Err(PassError::Setup(
                    "threads did not go to sleep in time".into(),
                ));
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }
    Ok(())
}

/// Runs one pass. On a timeout the threads are told to stop and left to
/// the process's exit.
pub(crate) fn run(plan: &PassPlan) -> Result<PassResult, PassError> {
    let n = plan.work_ms.len();
    let shared = Arc::new(Shared {
        slots: (0..n).map(|_| Slot::default()).collect(),
        ..Shared::default()
    });
    let setup_deadline = std::time::Instant::now() + Duration::from_secs(30);
    let mut handles = Vec::with_capacity(n);
    for i in 0..n {
        let mine = Arc::clone(&shared);
        let cpus = plan.cpus.clone();
        let work_ns = (plan.work_ms[i] * 1e6).round() as u64;
        let h = std::thread::Builder::new()
            .name(format!("task-{i}"))
            .stack_size(64 * 1024)
            .spawn(move || task(&mine, i, &cpus, work_ns));
        match h {
            Ok(h) => handles.push(h),
            Err(e) => {
                shared.stop_all();
                return Err(PassError::Setup(format!("creating thread {i}: {e}")));
            }
        }
    }
    if let Err(e) = wait_parked(&shared, setup_deadline) {
        shared.stop_all();
        return Err(e);
    }
    // Asleep, so on no run queue: the policy change enqueues nothing.
    for (i, slot) in shared.slots.iter().enumerate() {
        if let Err(e) = sys::set_sched(slot.tid.load(Ordering::Acquire), plan.sched) {
            shared.stop_all();
            return Err(PassError::Setup(format!("task {i}'s policy: {e}")));
        }
        let nice = plan.nice.get(i).copied().unwrap_or(0);
        if plan.sched == Sched::Other && nice != 0 {
            if let Err(e) = sys::set_nice(slot.tid.load(Ordering::Acquire), nice) {
                shared.stop_all();
                return Err(PassError::Setup(format!(
                    "task {i}'s nice value {nice}: {e}{}",
                    if nice < 0 {
                        " (a negative nice value needs root or CAP_SYS_NICE)"
                    } else {
                        ""
                    }
                )));
            }
        }
    }
    let rr_slice_ms = match plan.sched {
        Sched::Rr(_) => sys::rr_interval_ms(shared.slots[0].tid.load(Ordering::Acquire)).ok(),
        _ => None,
    };
    let start = Arc::new(AtomicU64::new(0));
    let rel = {
        let shared = Arc::clone(&shared);
        let plan = plan.clone();
        let start = Arc::clone(&start);
        std::thread::Builder::new()
            .name("releaser".into())
            .spawn(move || releaser(&shared, &plan, &start))
            .map_err(|e| PassError::Setup(format!("creating the releaser: {e}")))?
    };
    // The watching thread: above the tasks, so a run that never ends
    // cannot keep it from ending the run.
    if plan.rt_allowed {
        let _ = sys::set_sched(0, Sched::Fifo(WATCH_PRIORITY));
    }
    let finished = {
        let guard = shared.finished.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = shared
            .all_done
            .wait_timeout_while(guard, plan.deadline, |f| *f < n)
            .unwrap_or_else(|e| e.into_inner());
        *guard
    };
    let _ = sys::set_sched(0, Sched::Other);
    if finished < n {
        shared.stop_all();
        return Err(PassError::Timeout(plan.deadline));
    }
    shared.dismiss();
    match rel.join() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(PassError::Setup(e)),
        Err(_) => return Err(PassError::Setup("the releaser panicked".into())),
    }
    for h in handles {
        let _ = h.join();
    }
    let t0 = start.load(Ordering::Acquire);
    let ms = |ns: u64| ns.saturating_sub(t0) as f64 / 1e6;
    let slots = &shared.slots;
    let completion_ms: Vec<f64> = slots
        .iter()
        .map(|s| ms(s.done_ns.load(Ordering::Acquire)))
        .collect();
    Ok(PassResult {
        wall_ms: completion_ms.iter().copied().fold(0.0, f64::max),
        released_ms: slots
            .iter()
            .map(|s| ms(s.released_ns.load(Ordering::Acquire)))
            .collect(),
        busy_ms: slots
            .iter()
            .map(|s| s.busy_ns.load(Ordering::Acquire) as f64 / 1e6)
            .collect(),
        completion_ms,
        rr_slice_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(work_ms: Vec<f64>, deadline: Duration) -> PassPlan {
        // Ordinary policies and a CPU this process may use: runs anywhere
        // on Linux, without privileges.
        let cpu = *sys::allowed_cpus().unwrap().last().unwrap();
        PassPlan {
            arrival_ms: vec![0.0; work_ms.len()],
            work_ms,
            sched: Sched::Other,
            nice: Vec::new(),
            releaser: Sched::Other,
            cpus: vec![cpu],
            deadline,
            rt_allowed: false,
        }
    }

    #[test]
    fn a_pass_that_runs_past_its_deadline_is_stopped() {
        // A minute of work against a 50 ms deadline: the pass answers at
        // the deadline, and its threads are told to end.
        let r = run(&plan(vec![5.0, 60_000.0], Duration::from_millis(50)));
        assert!(matches!(r, Err(PassError::Timeout(_))), "{r:?}");
    }

    #[test]
    fn a_pass_spins_each_task_for_its_work_on_its_own_cpu_clock() {
        let r = run(&plan(vec![3.0, 2.0, 1.0], Duration::from_secs(30))).unwrap();
        for (i, (&busy, &work)) in r.busy_ms.iter().zip(&[3.0, 2.0, 1.0]).enumerate() {
            assert!(
                busy >= work,
                "task {i} spun {busy} ms for {work} ms of work"
            );
            assert!(r.completion_ms[i] >= work);
        }
        assert!(r.wall_ms >= 6.0 - 1e-9, "one CPU: at least the total work");
    }

    #[test]
    fn release_order_is_by_arrival_then_task_order() {
        assert_eq!(release_order(&[5.0, 0.0, 5.0, 0.0]), vec![1, 3, 0, 2]);
        assert_eq!(release_order(&[0.0; 3]), vec![0, 1, 2]);
    }
}
