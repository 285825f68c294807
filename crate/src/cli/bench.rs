//! `tailslice bench`: times the engine on a large workload, phase by phase.
//! Prints figures; it is a benchmark, not a test (nothing here can fail
//! except bad flags).

use std::ffi::OsString;
use std::time::Instant;

use tailslice::engine::EngineConfig;
use tailslice::experiment::{Experiment, Limits, Param};
use tailslice::metrics::summarize;
use tailslice::workload::Workload;

use super::{fail, flag_value, set_experiment_flag};

const HELP: &str = "\
tailslice bench — time workload generation, each policy and the statistics

  --repeat N   runs to take the median of, 1 to 100 [5]
  any simulate flag (default here: --tasks 1000000, fifo and rr, python RNG)
";

pub fn run(args: Vec<OsString>) -> i32 {
    let mut exp = Experiment {
        tasks: 1_000_000,
        ..Experiment::default()
    };
    let mut repeat = 5usize;
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
        cores: exp.cores,
        switch_cost: exp.switch_cost,
        record_segments: false,
        max_slices: Limits::CLI.max_slices,
        ..EngineConfig::default()
    };
    let mut phases: Vec<(String, Vec<f64>)> = vec![("generate".into(), vec![])];
    for p in &exp.policies {
        phases.push((format!("simulate {}", p.name()), vec![]));
        phases.push((format!("summarize {}", p.name()), vec![]));
    }
    phases.push(("end to end (simulate --json)".into(), vec![]));
    for _ in 0..repeat {
        let t = Instant::now();
        let w = Workload::generate(&exp.workload_spec());
        phases[0].1.push(t.elapsed().as_secs_f64());
        for (i, &kind) in exp.policies.iter().enumerate() {
            let t = Instant::now();
            let s = match kind.simulate(&w, exp.quantum, &exp.mlfq, &config) {
                Ok(s) => s,
                Err(e) => return fail(&e.to_string()),
            };
            phases[1 + 2 * i].1.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            std::hint::black_box(summarize(&w, &s, exp.within));
            phases[2 + 2 * i].1.push(t.elapsed().as_secs_f64());
        }
        let t = Instant::now();
        match exp.run(&Limits::CLI, false) {
            Ok(o) => {
                std::hint::black_box(serde_json::to_string(&o.report()).ok());
            }
            Err(e) => return fail(&e.to_string()),
        }
        phases.last_mut().unwrap().1.push(t.elapsed().as_secs_f64());
    }
    println!(
        "{} tasks, policies {}, {} RNG, median of {repeat} runs",
        exp.tasks,
        exp.get(Param::Policies),
        exp.rng.name()
    );
    for (name, mut times) in phases {
        times.sort_by(f64::total_cmp);
        println!("{:<32} {:>9.1} ms", name, times[times.len() / 2] * 1e3);
    }
    0
}
