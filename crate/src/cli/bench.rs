//! `tailslice bench`: times the engine on a large workload, phase by phase.
//! Prints figures; it is a benchmark, not a test (nothing here can fail
//! except bad flags).

use std::ffi::OsString;
use std::time::Instant;

use tailslice::experiment::summary::summarize_owned;
use tailslice::experiment::{Experiment, Limits, Param};
use tailslice::sim::EngineConfig;
use tailslice::workload::Workload;

use super::{fail, flag_value, set_experiment_flag};

const HELP: &str = "\
tailslice bench — time workload generation, each policy and the statistics

  --repeat N   runs to take the median of, 1 to 100 [5]
  --json       print {\"tasks\", \"phases\": [{\"name\", \"median_ms\", \"slices\"}]}
               (slices: dispatches of the policy's run, for slices per second)
  any simulate flag (default here: --tasks 1000000, fifo and rr, python RNG)
";

pub fn run(args: Vec<OsString>) -> i32 {
    let mut exp = Experiment {
        tasks: 1_000_000,
        ..Experiment::default()
    };
    let mut repeat = 5usize;
    let mut json = false;
    let mut parser = lexopt::Parser::from_args(args);
    loop {
        let arg = match parser.next() {
            Ok(Some(arg)) => arg,
            Ok(None) => break,
            Err(e) => return fail(&e.to_string()),
        };
        match arg {
            lexopt::Arg::Long("help") => {
                print!("{HELP}");
                return 0;
            }
            lexopt::Arg::Long("json") => json = true,
            lexopt::Arg::Long("repeat") => {
                let v = match flag_value(&mut parser, "--repeat") {
                    Ok(v) => v,
                    Err(code) => return code,
                };
                match tailslice::error::parse_count("--repeat", &v, 1, 100) {
                    Ok(n) => repeat = n as usize,
                    Err(e) => return fail(&e.to_string()),
                }
            }
            lexopt::Arg::Long(name) => {
                let name = name.to_string();
                match set_experiment_flag(&mut exp, &mut parser, &name, "bench", &Limits::CLI) {
                    Ok(_) => {}
                    Err(code) => return code,
                }
            }
            other => return fail(&format!("unexpected argument {}", other.unexpected())),
        }
    }
    if let Err(e) = exp.check_size(&Limits::CLI) {
        return fail(&e.renamed("--quantum").to_string());
    }
    let config = EngineConfig {
        switch_cost: exp.switch_cost,
        record_segments: false,
        // What `simulate --json` runs (crate::figures).
        record_outcomes: false,
        max_slices: Limits::CLI.max_slices,
        ..EngineConfig::default()
    };
    let mut phases: Vec<(String, Vec<f64>)> = vec![("generate".into(), vec![])];
    // Slices each policy's run dispatched (the same every repeat).
    let mut slices: Vec<Option<u64>> = vec![None];
    for p in &exp.policies {
        phases.push((format!("simulate {}", p.name()), vec![]));
        phases.push((format!("summarize {}", p.name()), vec![]));
        slices.extend([None, None]);
    }
    phases.push(("end to end (simulate --json)".into(), vec![]));
    slices.push(None);
    for _ in 0..repeat {
        let t = Instant::now();
        let w = Workload::generate(&exp.workload_spec());
        phases[0].1.push(t.elapsed().as_secs_f64());
        for (i, &kind) in exp.policies.iter().enumerate() {
            let t = Instant::now();
            let s =
                match exp.run_policy(kind, &w, &exp.machine(), &w.thread_info(&exp.mix), &config) {
                    Ok(s) => s,
                    Err(e) => return fail(&e.to_string()),
                };
            phases[1 + 2 * i].1.push(t.elapsed().as_secs_f64());
            slices[1 + 2 * i] = Some(s.slices);
            let t = Instant::now();
            std::hint::black_box(summarize_owned(&w, s, exp.within));
            phases[2 + 2 * i].1.push(t.elapsed().as_secs_f64());
        }
        let t = Instant::now();
        let w = Workload::generate(&exp.workload_spec());
        match exp.report(&w, &Limits::CLI) {
            Ok(r) => {
                std::hint::black_box(serde_json::to_string(&r).ok());
            }
            Err(e) => return fail(&e.to_string()),
        }
        phases.last_mut().unwrap().1.push(t.elapsed().as_secs_f64());
    }
    let medians: Vec<(String, f64)> = phases
        .into_iter()
        .map(|(name, mut times)| {
            times.sort_by(f64::total_cmp);
            (name, times[times.len() / 2] * 1e3)
        })
        .collect();
    if json {
        let phases: Vec<serde_json::Value> = medians
            .iter()
            .zip(&slices)
            .map(|((name, ms), n)| serde_json::json!({"name": name, "median_ms": ms, "slices": n}))
            .collect();
        println!(
            "{}",
            serde_json::json!({"tasks": exp.tasks, "phases": phases})
        );
        return 0;
    }
    println!(
        "{} tasks, policies {}, {} RNG, median of {repeat} runs",
        exp.tasks,
        exp.get(Param::Policies),
        exp.rng.name()
    );
    for ((name, ms), n) in medians.iter().zip(&slices) {
        match n {
            Some(n) => println!(
                "{:<32} {:>9.1} ms   {n} slices, {:.1} M slices/s",
                name,
                ms,
                *n as f64 / ms / 1e3
            ),
            None => println!("{:<32} {:>9.1} ms", name, ms),
        }
    }
    0
}
