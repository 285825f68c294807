//! `tailslice sweep`: one experiment over many seeds (`--seeds A-B`) or
//! many quanta (`--quanta Q1,Q2,...`), as a summary, JSON or CSV.
//!
//! The work is done by `tailslice::experiment::sweep`; this file only parses flags,
//! spreads chunks of runs over the machine's cores and prints.

use std::ffi::OsString;
use std::fmt::Write;

use tailslice::experiment::export::policy_label;
use tailslice::experiment::sweep::{self, Distribution, QuantumRun, SeedRun, Sweep, SweepLimits};
use tailslice::experiment::sweep_params::{self, SweepParam};
use tailslice::experiment::sweep_reading;
use tailslice::experiment::{Experiment, Limits, Param};
use tailslice::param_spec::{help_block, Params};
use tailslice::sim::EngineError;
use tailslice::workload::Workload;

use super::tasks_in::{Loaded, TaskSource};
use super::{fail, flag_value, set_experiment_flag, wrap, EXIT_USAGE};

/// `--help`, its ranges read off the sweep's limits.
fn help() -> String {
    let l = SweepLimits::CLI;
    let flag = |head: &str, text: &str| help_block(head, text, 22);
    [
        "tailslice sweep — run one experiment over many seeds or many quanta\n\n".to_string(),
        SweepParam::ALL
            .into_iter()
            .map(|p| p.entry(&l).help_line(22))
            .collect(),
        flag(
            "  --tasks-file PATH",
            "with --quanta: sweep your own tasks (see simulate --help)",
        ),
        flag(
            "  --trace-in FILE",
            "with --quanta: sweep a browser trace's main-thread tasks",
        ),
        flag(
            "  --thread PID:TID",
            "with --trace-in: the thread (see simulate --help)",
        ),
        flag(
            "  --json",
            "{\"runs\": [{\"seed\" or \"quantum\": .., \"results\": [..]}]} with results exactly as simulate --json prints them",
        ),
        flag("  --csv", "one CSV row per run and policy"),
        "  any simulate flag (--tasks, --mix, --policies, --switch-cost, ...) except\n  --seed with --seeds and --quantum with --quanta\n\n".to_string(),
        wrap(
            &format!(
                "Give exactly one of --seeds and --quanta. Sweeps are checked up front: at most {} estimated slices in all.",
                l.max_total_slices
            ),
            78,
        ),
        "\n".to_string(),
    ]
    .concat()
}

enum Mode {
    Seeds(std::ops::RangeInclusive<u64>, String),
    /// The `--quanta` text, read once every flag is known (`--steps` may
    /// come after it).
    Quanta(String),
}

pub fn run(args: Vec<OsString>) -> i32 {
    let limits = Limits::CLI;
    let sweep_limits = SweepLimits::CLI;
    let mut exp = Experiment::default();
    let mut json = false;
    let mut csv = false;
    let mut mode: Option<Mode> = None;
    let mut source = TaskSource::default();
    let mut given: Vec<Param> = Vec::new();
    let mut steps: Option<u32> = None;
    let mut parser = lexopt::Parser::from_args(args);
    loop {
        let arg = match parser.next() {
            Ok(Some(arg)) => arg,
            Ok(None) => break,
            Err(e) => return fail(&e.to_string()),
        };
        match arg {
            lexopt::Arg::Long("json") => json = true,
            lexopt::Arg::Long("csv") => csv = true,
            lexopt::Arg::Long("steps") => {
                let value = match flag_value(&mut parser, "--steps") {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                match sweep_params::steps("--steps", &value, &sweep_limits) {
                    Ok(n) => steps = Some(n),
                    Err(e) => return fail(&e.to_string()),
                }
            }
            lexopt::Arg::Long("help") | lexopt::Arg::Short('h') => {
                print!("{}", help());
                return 0;
            }
            lexopt::Arg::Long(name) if TaskSource::is_flag(name) => {
                let name = name.to_string();
                let value = match flag_value(&mut parser, &format!("--{name}")) {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                if let Err(code) = source.set(&name, value) {
                    return code;
                }
            }
            lexopt::Arg::Long(name @ ("seeds" | "quanta")) => {
                let name = name.to_string();
                let flag = format!("--{name}");
                let value = match flag_value(&mut parser, &flag) {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                if mode.is_some() {
                    return fail(&format!(
                        "invalid {flag} '{value}': expected only one of --seeds and --quanta per sweep"
                    ));
                }
                let parsed = match name.as_str() {
                    "seeds" => sweep::parse_seed_range(&flag, &value, &sweep_limits)
                        .map(|r| Mode::Seeds(r, value.clone())),
                    _ => Ok(Mode::Quanta(value.clone())),
                };
                match parsed {
                    Ok(m) => mode = Some(m),
                    Err(e) => return fail(&e.to_string()),
                }
            }
            lexopt::Arg::Long(name) => {
                let name = name.to_string();
                match set_experiment_flag(&mut exp, &mut parser, &name, "sweep", &limits) {
                    Ok(param) => given.push(param),
                    Err(code) => return code,
                }
            }
            other => return fail(&format!("unexpected argument {}", other.unexpected())),
        }
    }
    if json && csv {
        return fail("--json and --csv cannot be combined: pick one output format");
    }
    let Some(mode) = mode else {
        return fail("missing --seeds A-B or --quanta LIST: a sweep needs one of them");
    };
    match mode {
        Mode::Seeds(seeds, text) => {
            if let Some(n) = steps {
                return fail(&format!(
                    "invalid --steps '{n}': expected --quanta LO-HI with it (--seeds has no steps)"
                ));
            }
            if given.contains(&Param::Seed) {
                return fail(&format!(
                    "invalid --seed '{}': cannot be combined with --seeds (the sweep sets the seed)",
                    exp.seed
                ));
            }
            if let Some(flag) = source.flag() {
                return fail(&format!(
                    "{flag} cannot be combined with --seeds: imported tasks do not depend on a seed (use --quanta)"
                ));
            }
            if let Err(e) = sweep::check_seed_sweep(&exp, "--seeds", &seeds, &limits, &sweep_limits)
            {
                let e = if e.field == Param::Quantum.url_key() {
                    e.renamed("--quantum")
                } else {
                    e
                };
                return fail(&e.to_string());
            }
            let list: Vec<u64> = seeds.clone().collect();
            let runs = match parallel_chunks(&list, |chunk| {
                sweep::sweep_seeds_chunk(&exp, chunk[0]..=chunk[chunk.len() - 1], &limits)
            }) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: {e}");
                    return EXIT_USAGE;
                }
            };
            output(json, csv, &runs, sweep::seed_runs_csv, || {
                seed_summary(&exp, &text, &runs)
            })
        }
        Mode::Quanta(text) => {
            // One parser for the page's field and this flag: a list, or
            // LO-HI log-spaced over --steps values.
            let quanta = match sweep::parse_quanta_spec(
                "--quanta",
                &text,
                steps.unwrap_or(sweep::DEFAULT_RANGE_STEPS),
                &sweep_limits,
            ) {
                Ok(q) => q,
                Err(e) => return fail(&e.to_string()),
            };
            if steps.is_some() && !sweep::is_quanta_range(&text) {
                return fail(&format!(
                    "invalid --steps '{}': expected --quanta LO-HI with it (a list gives its own quanta)",
                    steps.unwrap_or_default()
                ));
            }
            if given.contains(&Param::Quantum) {
                return fail(&format!(
                    "invalid --quantum '{}': cannot be combined with --quanta (the sweep sets the quantum)",
                    exp.quantum
                ));
            }
            let workload = match source.load(&mut exp, &given, &limits) {
                Ok(Loaded::Generated) => Workload::generate(&exp.workload_spec()),
                Ok(Loaded::List(w)) => w,
                Ok(Loaded::Trace(t)) => t.workload,
                Err(code) => return code,
            };
            let known = source.path().map(|_| &workload);
            if let Err(e) =
                sweep::check_quantum_sweep(&exp, "--quanta", &quanta, known, &limits, &sweep_limits)
            {
                return fail(&e.to_string());
            }
            let runs = match parallel_chunks(&quanta, |chunk| {
                sweep::sweep_quanta(&exp, &workload, chunk, &limits, &mut |_, _| true)
            }) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: {e}");
                    return EXIT_USAGE;
                }
            };
            output(json, csv, &runs, sweep::quantum_runs_csv, || {
                quantum_summary(&exp, source.path(), &runs)
            })
        }
    }
}

type Slot<R> = std::sync::Mutex<Option<Result<Vec<R>, EngineError>>>;

/// Runs `f` over contiguous chunks of `items` on all cores, results in
/// order.
fn parallel_chunks<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(&[T]) -> Result<Vec<R>, EngineError> + Sync,
) -> Result<Vec<R>, EngineError> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len().max(1));
    if threads <= 1 {
        return f(items);
    }
    // More chunks than threads so uneven runs (large quanta are cheap,
    // small ones dear) still share out evenly.
    let chunk = items.len().div_ceil(threads * 4).max(1);
    let chunks: Vec<&[T]> = items.chunks(chunk).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Slot<R>> = chunks.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(c) = chunks.get(i) else { break };
                *results[i].lock().expect("no poisoned chunk") = Some(f(c));
            });
        }
    });
    let mut out = Vec::with_capacity(items.len());
    for r in results {
        out.extend(
            r.into_inner()
                .expect("no poisoned chunk")
                .expect("every chunk ran")?,
        );
    }
    Ok(out)
}

fn output<R: serde::Serialize + Clone>(
    json: bool,
    csv: bool,
    runs: &[R],
    to_csv: fn(&[R]) -> String,
    summary: impl FnOnce() -> String,
) -> i32 {
    if json {
        match serde_json::to_string(&Sweep {
            runs: runs.to_vec(),
        }) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("error: cannot write JSON: {e}");
                return 1;
            }
        }
    } else if csv {
        print!("{}", to_csv(runs));
    } else {
        print!("{}", summary());
    }
    0
}

fn header(exp: &Experiment, what: &str) -> String {
    format!(
        "{what}: {} tasks, mix {}, arrivals {}, policies {}, {}, switch cost {} ms\n",
        exp.tasks,
        exp.mix,
        exp.arrivals,
        exp.get(Param::Policies),
        exp.machine().describe(exp.machine.is_some()).en,
        exp.switch_cost
    )
}

fn dist_row(s: &mut String, name: &str, d: &Distribution, unit: &str) {
    let _ = writeln!(
        s,
        "  {:<8} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1}{unit}",
        name, d.p5, d.p50, d.p95, d.mean, d.min, d.max
    );
}

fn seed_summary(exp: &Experiment, text: &str, runs: &[SeedRun]) -> String {
    let sum = sweep::summarize_seeds(runs, sweep::HISTOGRAM_BINS);
    let mut s = header(
        exp,
        &format!("{} seeds ({text}), quantum {} ms", sum.seeds, exp.quantum),
    );
    let cols = format!(
        "{:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "p5", "p50", "p95", "mean", "min", "max"
    );
    for p in &sum.policies {
        let label = p.policy.kind().map_or(p.policy.name().to_string(), |k| {
            policy_label(k, exp.quantum)
        });
        let _ = writeln!(s, "\n{:<10} {cols}   (latency in ms, over seeds)", label);
        for m in &p.metrics {
            dist_row(&mut s, m.metric, &m.distribution, "");
        }
    }
    for c in &sum.changes {
        let _ = writeln!(
            s,
            "\n{} vs {} {cols}   (change in %, negative is better)",
            c.policy.name(),
            c.base.name()
        );
        for m in &c.changes_pct {
            dist_row(&mut s, m.metric, &m.distribution, "");
        }
        let _ = writeln!(
            s,
            "{} has a lower p95 than {} on {} of {} seeds (higher on {})",
            c.policy.name(),
            c.base.name(),
            c.p95_better,
            c.seeds,
            c.p95_worse
        );
        let k = runs[0]
            .results
            .iter()
            .position(|r| r.policy == c.policy)
            .unwrap_or(1);
        if let Some(own) = runs.iter().find(|r| r.seed == exp.seed) {
            if let Some(rank) = sweep_reading::p95_rank(runs, own, k) {
                let _ = writeln!(s, "{}", rank.en);
            }
        }
        if let Some(p95) = c.changes_pct.iter().find(|m| m.metric == "p95") {
            s.push_str("p95 change histogram (%):\n");
            s.push_str(&ascii_histogram(&p95.distribution));
        }
    }
    s
}

fn ascii_histogram(d: &Distribution) -> String {
    let mut s = String::new();
    let most = d.histogram.counts.iter().copied().max().unwrap_or(0).max(1);
    for (i, &n) in d.histogram.counts.iter().enumerate() {
        let bar = "#".repeat(((n as f64 / most as f64) * 40.0).round() as usize);
        let _ = writeln!(
            s,
            "  {:>8.1} to {:>8.1} {:>6}  {bar}",
            d.histogram.edges[i],
            d.histogram.edges[i + 1],
            n
        );
    }
    s
}

fn quantum_summary(exp: &Experiment, tasks_file: Option<&str>, runs: &[QuantumRun]) -> String {
    let what = match tasks_file {
        Some(p) => format!("{} quanta, tasks from {p}", runs.len()),
        None => format!("{} quanta, seed {}", runs.len(), exp.seed),
    };
    let mut s = header(exp, &what);
    let _ = writeln!(
        s,
        "\n{:>9} {:<8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "quantum", "policy", "mean", "p50", "p95", "p99", "max", "switches"
    );
    for r in runs {
        for (i, p) in r.results.iter().enumerate() {
            let m = &p.summary;
            let q = if i == 0 {
                format!("{} ms", r.quantum)
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "{:>9} {:<8} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9}",
                q,
                p.policy.name(),
                m.mean,
                m.p50,
                m.p95,
                m.p99,
                m.max,
                m.context_switches
            );
        }
    }
    s.push('\n');
    for b in sweep::best_quanta(runs) {
        let line = sweep_reading::best_quantum_text(&b, |_| b.policy.name().to_string());
        let _ = writeln!(s, "{}", line.en);
    }
    if let Some(note) = sweep_reading::switch_cost_note(exp.switch_cost) {
        let _ = writeln!(s, "{}", note.en);
    }
    s
}
