//! The page worker's everyday jobs, timed natively (printed, not a
//! pass/fail test): every scenario at its default knobs and the sweeps
//! panel's 1000-seed sweep (400 tasks, fifo and rr), each the best of
//! `BENCH_RUNS` (default 5), beside a generous limit (one a debug build
//! meets on a busy machine; a release build is far under it).
//! `scripts/bench-core.sh`.

use std::time::{Duration, Instant};

use tailslice::experiment::sweep;
use tailslice::experiment::{Experiment, Limits};
use tailslice::scenario::{self, Knobs};

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn line(what: &str, took: Duration, limit: Duration) {
    let ms = took.as_secs_f64() * 1000.0;
    let limit_ms = limit.as_secs_f64() * 1000.0;
    println!(
        "  {what:<44} {ms:>9.1} ms   limit ≤ {limit_ms:.0} ms  {}",
        if ms <= limit_ms { "meets" } else { "OVER" }
    );
}

fn main() {
    let runs = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let build = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    println!("the page worker's jobs, natively ({build} build, best of {runs})");
    let mut all = Duration::ZERO;
    for name in scenario::names() {
        let took = best_of(runs, || {
            scenario::run(name, &Knobs::default()).expect("the scenario runs")
        });
        println!(
            "  scenario {name:<35} {:>9.1} ms",
            took.as_secs_f64() * 1000.0
        );
        all += took;
    }
    line(
        "every scenario, default knobs",
        all,
        Duration::from_secs(20),
    );
    let exp = Experiment::default();
    let took = best_of(runs, || {
        sweep::sweep_seeds_chunk(&exp, 1..=1000, &Limits::WEB).expect("the sweep runs")
    });
    line(
        "seed sweep 1-1000 (400 tasks, fifo + rr)",
        took,
        Duration::from_secs(30),
    );
}
