//! `tailslice simulate`: run one experiment and print the table (or JSON).

use std::ffi::OsString;

use tailslice::experiment::{Experiment, Limits, Outcome, Param};
use tailslice::metrics::change_pct;
use tailslice::policy::PolicyKind;

use super::{fail, flag_value, EXIT_USAGE};

const HELP: &str = "\
tailslice simulate — compare scheduling policies on one workload

With no flags: the 400-task study (seed 42, 16 ms round-robin against FIFO).

Flags (defaults in brackets):
  --seed N            workload seed, 0 to 2^53-1 [42]
  --tasks N           number of tasks, 1 to 5000000 [400]
  --mix SPEC          WEIGHT:DIST classes joined by commas [85:1-8,12:10-40,3:80-200]
                      DIST: LO-HI | fixed(MS) | exp(MEAN) | lognormal(MU,SIGMA) | pareto(XM,ALPHA)
  --arrivals SPEC     t0 | poisson:LOAD | burst:COUNT@PERIOD [t0]
  --rng KIND          python (bit-exact CPython random) | fast [python]
  --policies LIST     from fifo, rr, sjf, srpt, mlfq [fifo,rr]
  --quantum MS        rr quantum and mlfq top-level quantum, > 0 [16]
  --cores N           identical cores, 1 to 256 [1]
  --switch-cost MS    charged when a core changes task, 0 to 1000 [0]
  --within MS         threshold for the \"done within\" count (strictly less) [100]
  --mlfq-levels N     mlfq levels, 1 to 8 [3]
  --mlfq-boost MS     mlfq priority boost period, or off [1000]
  --json              print one JSON object instead of the table
";

pub fn run(args: Vec<OsString>) -> i32 {
    let mut exp = Experiment::default();
    let mut json = false;
    let mut parser = lexopt::Parser::from_args(args);
    loop {
        let arg = match parser.next() {
            Ok(Some(arg)) => arg,
            Ok(None) => break,
            Err(e) => return fail(&e.to_string()),
        };
        match arg {
            lexopt::Arg::Long("json") => json = true,
            lexopt::Arg::Long("help") | lexopt::Arg::Short('h') => {
                print!("{HELP}");
                return 0;
            }
            lexopt::Arg::Long(name) => {
                let flag = format!("--{name}");
                let Some(param) = Param::from_flag(&flag) else {
                    return fail(&format!(
                        "unknown flag {flag} for simulate (see tailslice simulate --help)"
                    ));
                };
                let value = match flag_value(&mut parser, &flag) {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                if let Err(e) = exp.set(param, &flag, &value, &Limits::CLI) {
                    return fail(&e.to_string());
                }
            }
            other => return fail(&format!("unexpected argument {}", other.unexpected())),
        }
    }
    if let Err(e) = exp.check_size(&Limits::CLI) {
        return fail(&e.renamed("--quantum").to_string());
    }
    let outcome = match exp.run(&Limits::CLI, false) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    if json {
        match serde_json::to_string(&outcome.report()) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("error: cannot write JSON: {e}");
                return 1;
            }
        }
    } else {
        print!("{}", table(&exp, &outcome));
    }
    0
}

/// The study's table, for people.
fn table(exp: &Experiment, outcome: &Outcome) -> String {
    use std::fmt::Write;
    let w = &outcome.workload;
    let mut s = String::new();
    let arrivals = match exp.arrivals.to_string().as_str() {
        "t0" => "all at t=0".to_string(),
        other => format!("arrivals {other}"),
    };
    let _ = writeln!(
        s,
        "{} tasks (seed {}, {} RNG, mix {}), {}, {} core{}, switch cost {} ms",
        w.len(),
        exp.seed,
        exp.rng.name(),
        exp.mix,
        arrivals,
        exp.cores,
        if exp.cores == 1 { "" } else { "s" },
        exp.switch_cost,
    );
    let long = w.work.iter().filter(|&&d| d > 60.0).count();
    let _ = writeln!(
        s,
        "total work {:.1} ms; {} tasks longer than 60 ms\n",
        w.total_work(),
        long
    );
    let within_col = format!("<{}ms", exp.within);
    let _ = writeln!(
        s,
        "{:<12} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} {:>9}",
        "scheduler", "mean", "p50", "p90", "p95", "p99", "max", within_col, "switches"
    );
    for r in &outcome.runs {
        let m = &r.summary;
        let _ = writeln!(
            s,
            "{:<12} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>8} {:>9}",
            label(r.policy, exp),
            m.mean,
            m.p50,
            m.p90,
            m.p95,
            m.p99,
            m.max,
            m.done_within,
            m.context_switches
        );
    }
    if let Some((base, rest)) = outcome.runs.split_first() {
        s.push('\n');
        for r in rest {
            let pct = |a: f64, b: f64| {
                change_pct(a, b).map_or_else(|| "n/a".to_string(), |p| format!("{p:+.1} %"))
            };
            let _ = writeln!(
                s,
                "{} vs {}: p95 {}, p99 {}, max {}, mean {:+.1} ms",
                label(r.policy, exp),
                label(base.policy, exp),
                pct(base.summary.p95, r.summary.p95),
                pct(base.summary.p99, r.summary.p99),
                pct(base.summary.max, r.summary.max),
                r.summary.mean - base.summary.mean,
            );
        }
        let counts: Vec<String> = outcome
            .runs
            .iter()
            .map(|r| format!("{} {}", r.policy.name(), r.summary.done_within))
            .collect();
        let _ = writeln!(
            s,
            "done within {} ms: {} (of {} tasks)",
            exp.within,
            counts.join(", "),
            w.len()
        );
    }
    s
}

fn label(p: PolicyKind, exp: &Experiment) -> String {
    match p {
        PolicyKind::Rr | PolicyKind::Mlfq => format!("{} {}ms", p.name(), exp.quantum),
        _ => p.name().to_string(),
    }
}
