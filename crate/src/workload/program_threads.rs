//! The scenarios' programs as the loop's workload ([`ProgramRun`]): serial
//! queues of work items with I/O waits and dependencies, chunk pools drained
//! by several threads (admitted under GCD's worker cap when their process
//! has one, see [`WorkerCap`]), spinning and periodic threads. The loop
//! asks it what each thread does once its CPU step is done and when threads
//! become runnable; any class schedules them.
//!
//! Simplification: a woken thread is runnable at once (no IPI latency).

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, VecDeque};
use std::ops::Range;

use super::programs::{ItemId, PoolId, Program, Programs, Step, WorkerCap};
use crate::sim::time::{Key, SAME_INSTANT_MS as EPS};
use crate::sim::{Machine, Next, Qos, TaskView, ThreadId, Threads};

/// When a run of programs ends.
#[derive(Clone, Debug, PartialEq)]
pub struct Stop {
    /// Simulated time limit, ms.
    pub until: f64,
    /// Stop early once all of these items are done (empty: never).
    pub after_items: Vec<ItemId>,
    /// Stop early once every pool is drained.
    pub when_pools_done: bool,
}

/// What a thread is doing on its program.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Activity {
    Idle,
    Item {
        item: ItemId,
        step: usize,
    },
    Chunk(PoolId),
    /// A pool worker waiting for GCD to admit it.
    Admission(PoolId),
    Spin,
    Periodic,
    Exited,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    Wake(usize, u32),
    Release(ItemId),
}

/// Programs being run: the state of every thread's program.
pub struct ProgramRun<'a> {
    w: &'a Programs,
    stop: &'a Stop,
    activity: Vec<Activity>,
    fifo: Vec<VecDeque<ItemId>>,
    /// Whether the thread waits (blocked) rather than runs or is queued.
    waiting: Vec<bool>,
    wake_gen: Vec<u32>,
    /// Threads runnable right now with their CPU work, in order.
    pending: Vec<(usize, f64)>,
    timers: BinaryHeap<Reverse<(Key, Timer)>>,
    deps_left: Vec<usize>,
    dependents: Vec<Vec<ItemId>>,
    items_done: Vec<Option<f64>>,
    pool_left: Vec<u32>,
    pool_outstanding: Vec<u32>,
    pools_done: Vec<Option<f64>>,
    /// For the class's view: when each thread last became runnable and its
    /// current step's work.
    arrival: Vec<f64>,
    work: Vec<f64>,
    gcd: Admission,
}

/// GCD's admission of capped workers (`workq_constrained_allowance`): per
/// process, admitted workers by QoS, and the workers waiting.
struct Admission {
    /// `qos_max_parallelism` per QoS (index `Qos as usize`, lowest first).
    limit: [u32; 6],
    /// Per process, admitted workers per QoS.
    active: Vec<[u32; 6]>,
    /// Per process, waiting workers: highest QoS first, then first come.
    waiting: Vec<BTreeSet<(Reverse<usize>, u64, usize)>>,
    holds: Vec<bool>,
    seq: u64,
}

impl Admission {
    /// How many more workers of QoS `q` process `p` may run: the limit
    /// minus the workers admitted at `q` or above.
    fn allowance(&self, p: usize, q: usize) -> u32 {
        let busy: u32 = self.active[p][q..].iter().sum();
        self.limit[q].saturating_sub(busy)
    }
}

impl<'a> ProgramRun<'a> {
    /// `w`'s programs at time 0 on `machine` (whose parallelism per QoS
    /// GCD's worker cap reads).
    pub fn new(w: &'a Programs, stop: &'a Stop, machine: &Machine) -> Self {
        let n = w.threads.len();
        let processes = w.processes.len().max(1);
        let mut dependents = vec![Vec::new(); w.items.len()];
        for (i, item) in w.items.iter().enumerate() {
            for &d in &item.deps {
                dependents[d].push(i);
            }
        }
        let mut p = ProgramRun {
            w,
            stop,
            activity: vec![Activity::Idle; n],
            fifo: vec![VecDeque::new(); n],
            waiting: vec![true; n],
            wake_gen: vec![0; n],
            pending: Vec::new(),
            timers: BinaryHeap::new(),
            deps_left: w.items.iter().map(|i| i.deps.len()).collect(),
            dependents,
            items_done: vec![None; w.items.len()],
            pool_left: w.pools.iter().map(|p| p.chunks).collect(),
            pool_outstanding: vec![0; w.pools.len()],
            pools_done: vec![None; w.pools.len()],
            arrival: vec![0.0; n],
            work: vec![0.0; n],
            gcd: Admission {
                limit: [
                    Qos::Maintenance,
                    Qos::Background,
                    Qos::Utility,
                    Qos::Default,
                    Qos::UserInitiated,
                    Qos::UserInteractive,
                ]
                .map(|q| machine.max_parallelism(q) as u32),
                active: vec![[0; 6]; processes],
                waiting: vec![BTreeSet::new(); processes],
                holds: vec![false; n],
                seq: 0,
            },
        };
        p.start();
        p
    }

    fn process_of(&self, t: usize) -> usize {
        self.w.threads[t].process.min(self.gcd.active.len() - 1)
    }

    /// A pool worker asks for its next chunk: the chunk's work if it may
    /// run it now, `None` if it waits for admission or the pool is empty
    /// (then it has exited).
    fn request(&mut self, t: usize, p: PoolId, now: f64) -> Option<f64> {
        let cap = self.w.worker_cap(t);
        if cap == WorkerCap::Off || self.gcd.holds[t] {
            return self.take_chunk(t, p);
        }
        let (proc, q) = (self.process_of(t), self.w.threads[t].qos as usize);
        let ahead = self.gcd.waiting[proc]
            .first()
            .is_some_and(|&(Reverse(wq), _, _)| wq >= q);
        if !ahead && self.gcd.allowance(proc, q) > 0 {
            self.gcd.holds[t] = true;
            self.gcd.active[proc][q] += 1;
            let work = self.take_chunk(t, p);
            if work.is_none() {
                self.release(t, now);
            }
            return work;
        }
        self.gcd.seq += 1;
        self.gcd.waiting[proc].insert((Reverse(q), self.gcd.seq, t));
        self.activity[t] = Activity::Admission(p);
        None
    }

    /// Worker `t` gives its admission back; waiting workers of its process
    /// are admitted while their QoS has room.
    fn release(&mut self, t: usize, now: f64) {
        if !self.gcd.holds[t] {
            return;
        }
        let proc = self.process_of(t);
        self.gcd.holds[t] = false;
        let q = self.w.threads[t].qos as usize;
        self.gcd.active[proc][q] -= 1;
        let waiting: Vec<_> = self.gcd.waiting[proc].iter().copied().collect();
        for (Reverse(wq), seq, w) in waiting {
            if self.gcd.allowance(proc, wq) == 0 {
                continue;
            }
            self.gcd.waiting[proc].remove(&(Reverse(wq), seq, w));
            let Activity::Admission(pool) = self.activity[w] else {
                continue;
            };
            self.gcd.holds[w] = true;
            self.gcd.active[proc][wq] += 1;
            match self.take_chunk(w, pool) {
                Some(work) => self.runnable(w, work, now),
                None => {
                    // The pool emptied while it waited: it exits, and its
                    // slot goes to the next.
                    self.activity[w] = Activity::Exited;
                    self.gcd.holds[w] = false;
                    self.gcd.active[proc][wq] -= 1;
                }
            }
        }
    }

    /// Time 0: items with no deps are released; programs begin.
    fn start(&mut self) {
        for i in 0..self.w.items.len() {
            if self.deps_left[i] == 0 {
                self.release_or_schedule(i, 0.0);
            }
        }
        for t in 0..self.w.threads.len() {
            match self.w.threads[t].program {
                Program::Spin => {
                    self.activity[t] = Activity::Spin;
                    self.runnable(t, f64::INFINITY, 0.0);
                }
                Program::Pool(p) => match self.request(t, p, 0.0) {
                    Some(work) => self.runnable(t, work, 0.0),
                    None if self.activity[t] == Activity::Admission(p) => {}
                    None => self.activity[t] = Activity::Exited,
                },
                Program::Periodic { phase, .. } => {
                    self.activity[t] = Activity::Periodic;
                    self.block_until(t, phase);
                }
                Program::Queue => {
                    if self.activity[t] == Activity::Idle {
                        if let Some(work) = self.start_next_item(t, 0.0) {
                            self.runnable(t, work, 0.0);
                        }
                    }
                }
            }
        }
    }

    fn runnable(&mut self, t: usize, work: f64, now: f64) {
        self.waiting[t] = false;
        self.arrival[t] = now;
        self.work[t] = work;
        self.pending.push((t, work));
    }

    fn take_chunk(&mut self, t: usize, p: PoolId) -> Option<f64> {
        if self.pool_left[p] == 0 {
            return None;
        }
        self.pool_left[p] -= 1;
        self.pool_outstanding[p] += 1;
        self.activity[t] = Activity::Chunk(p);
        Some(self.w.pools[p].chunk_work)
    }

    /// Runs item steps from `step` on: the CPU work of the next CPU step,
    /// or `None` when blocked (waiting I/O, or idle with an empty queue).
    fn run_steps(&mut self, t: usize, item: ItemId, step: usize, now: f64) -> Option<f64> {
        match self.w.items[item].steps.get(step) {
            Some(&Step::Cpu(w)) => {
                self.activity[t] = Activity::Item { item, step };
                if w <= EPS {
                    return self.run_steps(t, item, step + 1, now);
                }
                Some(w)
            }
            Some(&Step::Wait(d)) => {
                self.activity[t] = Activity::Item { item, step };
                self.block_until(t, now + d);
                None
            }
            None => {
                self.item_done(item, now);
                self.start_next_item(t, now)
            }
        }
    }

    fn start_next_item(&mut self, t: usize, now: f64) -> Option<f64> {
        match self.fifo[t].pop_front() {
            Some(next) => self.run_steps(t, next, 0, now),
            None => {
                self.activity[t] = Activity::Idle;
                None
            }
        }
    }

    fn item_done(&mut self, item: ItemId, now: f64) {
        self.items_done[item] = Some(now);
        for k in 0..self.dependents[item].len() {
            let d = self.dependents[item][k];
            self.deps_left[d] -= 1;
            if self.deps_left[d] == 0 {
                self.release_or_schedule(d, now);
            }
        }
    }

    fn release_or_schedule(&mut self, item: ItemId, now: f64) {
        let at = self.w.items[item].release;
        if at <= now + EPS {
            self.enqueue_item(item, now);
        } else {
            self.timers.push(Reverse((Key(at), Timer::Release(item))));
        }
    }

    /// Puts a ready item on its queue, waking the queue's thread if idle.
    fn enqueue_item(&mut self, item: ItemId, now: f64) {
        let t = self.w.items[item].thread as usize;
        self.fifo[t].push_back(item);
        if self.activity[t] == Activity::Idle && self.waiting[t] {
            if let Some(work) = self.start_next_item(t, now) {
                self.runnable(t, work, now);
            }
        }
    }

    fn block_until(&mut self, t: usize, at: f64) {
        self.wake_gen[t] = self.wake_gen[t].wrapping_add(1);
        self.timers
            .push(Reverse((Key(at), Timer::Wake(t, self.wake_gen[t]))));
    }

    /// A timer fired for a blocked thread: I/O done or period due.
    fn wake(&mut self, t: usize, now: f64) {
        let work = match self.activity[t] {
            Activity::Periodic => match self.w.threads[t].program {
                Program::Periodic { burst, .. } => Some(burst),
                _ => None,
            },
            Activity::Item { item, step } => self.run_steps(t, item, step + 1, now),
            _ => None,
        };
        if let Some(work) = work {
            self.runnable(t, work, now);
        }
    }

    fn done(&self) -> bool {
        let items = !self.stop.after_items.is_empty()
            && self
                .stop
                .after_items
                .iter()
                .all(|&i| self.items_done[i].is_some());
        let pools = self.stop.when_pools_done
            && !self.pools_done.is_empty()
            && self.pools_done.iter().all(Option::is_some);
        items || pools
    }
}

impl Threads for ProgramRun<'_> {
    fn len(&self) -> usize {
        self.w.threads.len()
    }

    fn arrival(&self) -> &[f64] {
        &self.arrival
    }

    fn work(&self) -> &[f64] {
        &self.work
    }

    fn initial_remaining(&self) -> Vec<f64> {
        vec![0.0; self.len()]
    }

    fn next_wake(&self) -> Option<f64> {
        if let Some(&(t, _)) = self.pending.first() {
            return Some(self.arrival[t]);
        }
        self.timers.peek().map(|Reverse((Key(t), _))| *t)
    }

    fn wake_due<F: FnMut(Range<ThreadId>, &TaskView)>(
        &mut self,
        now: f64,
        remaining: &mut [f64],
        mut f: F,
    ) {
        // Timers due now (I/O completions, period starts, releases) add to
        // the threads made runnable since the last instant.
        while let Some(&Reverse((Key(t), timer))) = self.timers.peek() {
            if t > now {
                break;
            }
            self.timers.pop();
            match timer {
                Timer::Wake(th, gen) if gen == self.wake_gen[th] => self.wake(th, now),
                Timer::Wake(..) => {}
                Timer::Release(item) => self.enqueue_item(item, now),
            }
        }
        let pending = std::mem::take(&mut self.pending);
        for &(t, work) in &pending {
            remaining[t] = work;
        }
        let view = TaskView {
            arrival: &self.arrival,
            work: &self.work,
            remaining,
        };
        for &(t, _) in &pending {
            f(t as ThreadId..t as ThreadId + 1, &view);
        }
    }

    fn step_done(&mut self, t: ThreadId, now: f64) -> Next {
        let t = t as usize;
        let next = match self.activity[t] {
            Activity::Spin => Some(f64::INFINITY),
            Activity::Periodic => {
                if let Program::Periodic { burst, period, .. } = self.w.threads[t].program {
                    self.block_until(t, now + (period - burst).max(0.0));
                }
                None
            }
            Activity::Chunk(p) => {
                self.pool_outstanding[p] -= 1;
                if self.pool_left[p] == 0 && self.pool_outstanding[p] == 0 {
                    self.pools_done[p] = Some(now);
                }
                if self.w.worker_cap(t) == WorkerCap::PerItem {
                    // Admission is per work item: back behind the waiting.
                    self.release(t, now);
                }
                match self.request(t, p, now) {
                    Some(work) => Some(work),
                    None if self.activity[t] == Activity::Admission(p) => None,
                    None => {
                        self.release(t, now);
                        self.activity[t] = Activity::Exited;
                        self.waiting[t] = true;
                        return Next::Exit;
                    }
                }
            }
            Activity::Item { item, step } => self.run_steps(t, item, step + 1, now),
            Activity::Idle | Activity::Exited | Activity::Admission(_) => None,
        };
        match next {
            Some(work) => {
                self.work[t] = work;
                Next::Cpu(work)
            }
            None => {
                self.waiting[t] = true;
                Next::Block
            }
        }
    }

    fn same_instant(&self) -> f64 {
        EPS
    }

    fn finished(&self, _exited: usize) -> bool {
        self.done()
    }

    fn until(&self) -> f64 {
        self.stop.until
    }
}

impl ProgramRun<'_> {
    /// When each work item was done (None: not by the end of the run).
    pub(crate) fn items_done(&self) -> &[Option<f64>] {
        &self.items_done
    }

    /// When each pool's last chunk finished.
    pub(crate) fn pools_done(&self) -> &[Option<f64>] {
        &self.pools_done
    }
}
