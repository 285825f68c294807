//! The floor for `tailslice simulate --json` on the study's workload: a
//! special-case program that does only what this one experiment needs, as
//! fast as it can be written, with none of the product's generality.
//!
//! It draws the same bit-exact workload (CPython's Mersenne Twister, the
//! study's mix `85:1-8,12:10-40,3:80-200`, every task at t = 0), runs FIFO as
//! a prefix sum and 16 ms round-robin as a bare queue loop (the two on two
//! threads, as the product does), and prints the same figures as
//! `tailslice simulate --json`, computed with the same rules, so
//! `scripts/bench-vs-python.py` can check that the numbers agree exactly.
//!
//! It is a benchmark, not part of the product: no engine, no policy trait,
//! no workload type, no validation beyond what it needs to run.
//!
//! ```sh
//! cargo run --release -p tailslice --example bare_loop -- --tasks 1000000 [--seed 42] [--quantum 16]
//! ```

use rand_mt::Mt;

// The same allocator as `tailslice` (large blocks on 2 MB pages where the
// system allows), so the two processes differ only in the work they do.
#[global_allocator]
static ALLOCATOR: tailslice::huge_pages::HugePageHint = tailslice::huge_pages::HugePageHint;

/// The study's mix: (cumulative weight bound, lo, hi) per class.
const MIX: [(f64, f64, f64); 3] = [(85.0, 1.0, 8.0), (12.0, 10.0, 40.0), (3.0, 80.0, 200.0)];
/// "Done within" threshold, ms (the CLI's default).
const WITHIN: f64 = 100.0;
/// Work at or below this is done, as in the study's `rem[i] <= 1e-9`.
const DONE: f64 = 1e-9;

/// The same fields, in the same order, as one entry of `simulate --json`'s
/// `results`.
#[derive(serde::Serialize)]
struct Figures {
    policy: &'static str,
    mean: f64,
    p50: f64,
    p90: f64,
    p95: f64,
    p99: f64,
    max: f64,
    done_within: u64,
    context_switches: u64,
    makespan: f64,
    mean_wait: f64,
    utilisation: f64,
}

#[derive(serde::Serialize)]
struct Report {
    total_work_ms: f64,
    tasks: usize,
    results: [Figures; 2],
}

/// Neumaier-compensated running sum (the product's mean rule, so the means
/// agree to the bit).
#[derive(Default)]
struct Sum {
    sum: f64,
    comp: f64,
}

impl Sum {
    #[inline(always)]
    fn add(&mut self, v: f64) {
        let t = self.sum + v;
        if self.sum.abs() >= v.abs() {
            self.comp += (self.sum - t) + v;
        } else {
            self.comp += (v - t) + self.sum;
        }
        self.sum = t;
    }

    fn total(&self) -> f64 {
        self.sum + self.comp
    }
}

/// The study's percentile index `min(n-1, floor(n*P/100))`.
fn rank(n: usize, p: f64) -> usize {
    (((n as f64) * p / 100.0) as usize).min(n - 1)
}

/// CPython's `random.seed(seed)` then `random()`, inlined.
struct PyRandom(Mt);

impl PyRandom {
    fn new(seed: u64) -> Self {
        let (lo, hi) = (seed as u32, (seed >> 32) as u32);
        PyRandom(if hi == 0 {
            Mt::new_with_key([lo])
        } else {
            Mt::new_with_key([lo, hi])
        })
    }

    #[inline(always)]
    fn random(&mut self) -> f64 {
        let a = (self.0.next_u32() >> 5) as f64;
        let b = (self.0.next_u32() >> 6) as f64;
        (a * 67108864.0 + b) / 9007199254740992.0
    }
}

/// The durations, drawn exactly as the study (and `tailslice`) draw them.
fn draw(seed: u64, n: usize) -> Vec<f64> {
    let total: f64 = MIX.iter().fold(0.0, |a, c| a + c.0);
    let mut acc = 0.0;
    let cum = MIX.map(|c| {
        acc += c.0 / total;
        acc
    });
    let mut rng = PyRandom::new(seed);
    let mut work = Vec::with_capacity(n);
    for _ in 0..n {
        let r = rng.random();
        let k = if r < cum[0] {
            0
        } else if r < cum[1] {
            1
        } else {
            2
        };
        let (_, lo, hi) = MIX[k];
        work.push(lo + (hi - lo) * rng.random());
    }
    work
}

/// FIFO with every task at t = 0 on one core: completion times are the
/// prefix sums, already in ascending order, so the percentiles are read at
/// their ranks as the sums go by and nothing per task is stored.
fn fifo(work: &[f64]) -> Figures {
    let n = work.len();
    let ranks = [50.0, 90.0, 95.0, 99.0].map(|p| rank(n, p));
    let mut pct = [0.0; 4];
    let mut next = 0;
    let (mut clock, mut busy) = (0.0f64, 0.0f64);
    let (mut lat_sum, mut wait_sum, mut within) = (Sum::default(), Sum::default(), 0);
    for (i, &w) in work.iter().enumerate() {
        clock += w;
        busy += w;
        lat_sum.add(clock);
        wait_sum.add(clock - w);
        within += (clock < WITHIN) as u64;
        while next < ranks.len() && ranks[next] == i {
            pct[next] = clock;
            next += 1;
        }
    }
    Figures {
        policy: "fifo",
        mean: lat_sum.total() / n as f64,
        p50: pct[0],
        p90: pct[1],
        p95: pct[2],
        p99: pct[3],
        max: clock,
        done_within: within,
        context_switches: n as u64 - 1,
        makespan: clock,
        mean_wait: wait_sum.total() / n as f64,
        utilisation: if clock > 0.0 { busy / clock } else { 0.0 },
    }
}

/// Round-robin with every task at t = 0: the run queue is the list of tasks
/// still alive, in index order, one quantum each per pass (a task that used
/// its quantum goes to the back, behind everyone who was already waiting).
/// The first pass reads the durations directly; only tasks with work left
/// are kept, with their remaining work, for the later passes.
fn round_robin(work: &[f64], q: f64) -> Figures {
    let n = work.len();
    let mut done = vec![0.0f64; n];
    let mut alive: Vec<(u32, f64)> = Vec::new();
    let (mut clock, mut busy) = (0.0f64, 0.0f64);
    for (i, &w) in work.iter().enumerate() {
        let run = w.min(q);
        clock += run;
        busy += run;
        let rem = w - run;
        if rem <= DONE {
            done[i] = clock;
        } else {
            alive.push((i as u32, rem));
        }
    }
    // A switch is a slice of a different task than the one before.
    let mut switches = n as u64 - 1;
    let mut last = n as u32 - 1;
    while !alive.is_empty() {
        let mut kept = 0;
        for j in 0..alive.len() {
            let (i, rem) = alive[j];
            let run = rem.min(q);
            clock += run;
            busy += run;
            switches += (i != last) as u64;
            last = i;
            let rem = rem - run;
            if rem <= DONE {
                done[i as usize] = clock;
            } else {
                alive[kept] = (i, rem);
                kept += 1;
            }
        }
        alive.truncate(kept);
    }
    let (mut lat_sum, mut wait_sum, mut within) = (Sum::default(), Sum::default(), 0);
    for (&d, &w) in done.iter().zip(work) {
        lat_sum.add(d);
        wait_sum.add(d - w);
        within += (d < WITHIN) as u64;
    }
    // Successive selection: each search starts above the previous rank.
    let mut pct = [0.0; 4];
    let mut lo = 0;
    for (slot, p) in pct.iter_mut().zip([50.0, 90.0, 95.0, 99.0]) {
        let k = rank(n, p).max(lo);
        *slot = *done[lo..].select_nth_unstable_by(k - lo, f64::total_cmp).1;
        lo = k;
    }
    let max = done[lo..].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Figures {
        policy: "rr",
        mean: lat_sum.total() / n as f64,
        p50: pct[0],
        p90: pct[1],
        p95: pct[2],
        p99: pct[3],
        max,
        done_within: within,
        context_switches: switches,
        makespan: clock,
        mean_wait: wait_sum.total() / n as f64,
        utilisation: if clock > 0.0 { busy / clock } else { 0.0 },
    }
}

fn main() {
    let (mut tasks, mut seed, mut quantum) = (1_000_000usize, 42u64, 16.0f64);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_default();
        let ok = match flag.as_str() {
            "--tasks" => value.parse().map(|v| tasks = v).is_ok(),
            "--seed" => value.parse().map(|v| seed = v).is_ok(),
            "--quantum" => value.parse().map(|v| quantum = v).is_ok(),
            _ => false,
        };
        if !ok || tasks == 0 || quantum.is_nan() || quantum <= 0.0 {
            eprintln!(
                "usage: bare_loop [--tasks N>0] [--seed N] [--quantum MS>0] (got {flag} {value:?})"
            );
            std::process::exit(2);
        }
    }
    let work = draw(seed, tasks);
    let total_work_ms = work.iter().fold(0.0, |a, w| a + w);
    let (f, r) = std::thread::scope(|s| {
        let f = s.spawn(|| fifo(&work));
        let r = round_robin(&work, quantum);
        (f.join().expect("the fifo thread finishes"), r)
    });
    let report = Report {
        total_work_ms,
        tasks,
        results: [f, r],
    };
    println!(
        "{}",
        serde_json::to_string(&report).expect("figures serialise")
    );
}
