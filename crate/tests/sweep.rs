//! Sweeps: the JSON contract, agreement with `simulate` run by run, the
//! summaries, and refusals.

use serde_json::Value;
use tailslice::experiment::sweep::{self, SweepLimits};
use tailslice::experiment::{Experiment, Limits};
use tailslice::policy::PolicyKind;
use tailslice::workload::Workload;

mod cpu_budget;

mod cli_run;
use cli_run::tailslice;

fn json(args: &[&str]) -> Value {
    let o = tailslice(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("valid JSON")
}

#[test]
fn seed_sweep_json_shape_and_agreement_with_simulate() {
    let flags = ["--policies", "fifo,rr,srpt", "--switch-cost", "0.1"];
    let mut args = vec!["sweep", "--seeds", "40-43", "--json"];
    args.extend(flags);
    let v = json(&args);
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(v.as_object().unwrap().len(), 1, "only runs: {v}");
    assert_eq!(runs.len(), 4);
    for (i, run) in runs.iter().enumerate() {
        let seed = 40 + i as u64;
        assert_eq!(run["seed"], seed);
        assert_eq!(run.as_object().unwrap().len(), 2);
        let seed_text = seed.to_string();
        let mut sim = vec!["simulate", "--json", "--seed", &seed_text];
        sim.extend(flags);
        let want = json(&sim);
        assert_eq!(run["results"], want["results"], "seed {seed}");
    }
}

#[test]
fn quantum_sweep_json_matches_simulate_per_quantum() {
    let v = json(&[
        "sweep",
        "--quanta",
        "2,16,100",
        "--switch-cost",
        "0.5",
        "--json",
    ]);
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    for (run, q) in runs.iter().zip(["2", "16", "100"]) {
        assert_eq!(run["quantum"].as_f64().unwrap().to_string(), q);
        let want = json(&["simulate", "--json", "--quantum", q, "--switch-cost", "0.5"]);
        assert_eq!(run["results"], want["results"], "quantum {q}");
    }
}

#[test]
fn the_studys_seed_sits_inside_the_seed_distribution() {
    let exp = Experiment::default();
    let runs = sweep::sweep_seeds_chunk(&exp, 1..=50, &Limits::CLI).unwrap();
    let study = exp.run(&Limits::CLI, false).unwrap().report();
    let r42 = runs.iter().find(|r| r.seed == 42).unwrap();
    // The run for seed 42 is the study, figure for figure.
    for (a, b) in r42.results.iter().zip(&study.results) {
        assert_eq!(a.policy, b.policy);
        assert_eq!(a.summary, b.summary);
    }
    let change =
        tailslice::stats::change_pct(study.results[0].summary.p95, study.results[1].summary.p95)
            .unwrap();
    assert!((change - -27.92).abs() < 0.01, "{change}");
    let sum = sweep::summarize_seeds(&runs, 10);
    assert_eq!(sum.seeds, 50);
    let p95 = sum.changes[0]
        .changes_pct
        .iter()
        .find(|m| m.metric == "p95")
        .unwrap();
    let d = &p95.distribution;
    assert_eq!(d.count, 50);
    assert!(d.min <= change && change <= d.max, "{d:?}");
    assert!(d.p5 <= d.p50 && d.p50 <= d.p95);
    assert_eq!(d.histogram.counts.iter().sum::<u32>(), 50);
    // The bin holding the study's value is not empty.
    let bin = d
        .histogram
        .edges
        .windows(2)
        .position(|e| e[0] <= change && change <= e[1])
        .unwrap();
    assert!(d.histogram.counts[bin] > 0);
}

#[test]
fn chunked_sweeps_equal_one_sweep_and_can_be_cancelled() {
    let exp = Experiment {
        tasks: 100,
        ..Experiment::default()
    };
    let whole = sweep::sweep_seeds_chunk(&exp, 1..=20, &Limits::WEB).unwrap();
    let mut calls = Vec::new();
    let chunked = sweep::sweep_seeds(&exp, 1..=20, 7, &Limits::WEB, &mut |done, total| {
        calls.push((done, total));
        true
    })
    .unwrap();
    assert_eq!(calls, vec![(7, 20), (14, 20), (20, 20)]);
    assert_eq!(
        serde_json::to_value(&whole).unwrap(),
        serde_json::to_value(&chunked).unwrap()
    );
    let cancelled =
        sweep::sweep_seeds(&exp, 1..=20, 5, &Limits::WEB, &mut |done, _| done < 10).unwrap();
    assert_eq!(cancelled.len(), 10);
}

#[test]
fn switch_cost_gives_an_interior_best_quantum() {
    let exp = Experiment {
        switch_cost: 0.5,
        policies: vec![PolicyKind::Fifo, PolicyKind::Rr],
        ..Experiment::default()
    };
    let w = Workload::generate(&exp.workload_spec());
    let quanta = sweep::log_quanta(0.5, 500.0, 13);
    let runs = sweep::sweep_quanta(&exp, &w, &quanta, &Limits::WEB, &mut |_, _| true).unwrap();
    let best = sweep::best_quanta(&runs);
    assert!(!best[0].depends_on_quantum, "fifo ignores the quantum");
    let rr = &best[1];
    assert!(rr.depends_on_quantum);
    assert!(rr.p95_interior, "{rr:?}");
    assert!(rr.best_p95.quantum > 0.5 && rr.best_p95.quantum < 500.0);
    // At the best quantum rr beats fifo on p95; at the smallest it loses.
    assert!(rr.best_p95.value < runs[0].results[0].summary.p95);
    assert!(runs[0].results[1].summary.p95 > runs[0].results[0].summary.p95);
}

#[test]
fn csv_has_one_row_per_run_and_policy() {
    let o = tailslice(&[
        "sweep",
        "--seeds",
        "1-5",
        "--csv",
        "--policies",
        "fifo,rr,sjf",
    ]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("seed,policy,mean,p50,p90,p95,p99,max,"));
    assert_eq!(lines.len(), 1 + 5 * 3);
    assert!(lines[1].starts_with("1,fifo,"));
    assert!(lines[15].starts_with("5,sjf,"));
    let o = tailslice(&["sweep", "--quanta", "4,8", "--csv"]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.lines().count(), 1 + 2 * 2);
    assert!(text.lines().nth(3).unwrap().starts_with("8,fifo,"));
}

#[test]
fn human_summaries() {
    let o = tailslice(&["sweep", "--seeds", "1-50"]);
    let s = String::from_utf8(o.stdout).unwrap();
    for want in [
        "50 seeds (1-50)",
        "rr vs fifo",
        "p95 change histogram",
        "seed 42: p95 change -27.9 %",
    ] {
        assert!(s.contains(want), "missing {want:?} in\n{s}");
    }
    let o = tailslice(&["sweep", "--quanta", "1,4,16,64", "--switch-cost", "0.5"]);
    let s = String::from_utf8(o.stdout).unwrap();
    assert!(s.contains("fifo: the quantum makes no difference"), "{s}");
    assert!(s.contains("rr: best p95"), "{s}");
}

#[test]
fn bad_sweep_flags_get_one_line_and_exit_2() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["--seeds", "5-1"], &["invalid --seeds '5-1'", "A ≤ B"]),
        (&["--seeds", "x"], &["--seeds", "'x'"]),
        (&["--seeds", "1-200000"], &["--seeds", "100000 seeds"]),
        (&["--quanta", "0,4"], &["--quanta", "from 0.001 to 100000"]),
        (&["--quanta", "4,4"], &["--quanta", "distinct"]),
        (&["--quanta", "1,x"], &["--quanta"]),
        (&[], &["--seeds", "--quanta"]),
        (
            &["--seeds", "1-2", "--quanta", "4"],
            &["--quanta", "only one"],
        ),
        (&["--seeds", "1-2", "--seed", "3"], &["--seed", "--seeds"]),
        (
            &["--quanta", "4", "--quantum", "3"],
            &["--quantum", "--quanta"],
        ),
        (&["--seeds", "1-2", "--json", "--csv"], &["--json", "--csv"]),
        (&["--seeds", "1-2", "--bogus", "1"], &["--bogus"]),
        (&["--seeds", "1-2", "--tasks", "0"], &["--tasks"]),
        (
            &["--seeds", "1-2", "--tasks-file", "x.txt"],
            &["--tasks-file", "--seeds"],
        ),
        (
            &["--seeds", "1-100000", "--tasks", "100000"],
            &["--seeds", "slices"],
        ),
        (
            &["--quanta", "0.001,1", "--tasks", "1000000"],
            &["--quanta", "slices"],
        ),
    ];
    for (args, wants) in cases {
        let mut full = vec!["sweep"];
        full.extend_from_slice(args);
        // At most 20 s of CPU each: refused up front.
        let o = cpu_budget::cpu_limited(env!("CARGO_BIN_EXE_tailslice"), 20)
            .args(&full)
            .output()
            .expect("tailslice runs");
        cpu_budget::assert_not_over(o.status, format!("{args:?}"));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        for w in *wants {
            assert!(err.contains(w), "{args:?}: {err:?} lacks {w:?}");
        }
    }
}

#[test]
fn library_limits_refuse_absurd_sweeps() {
    let exp = Experiment {
        tasks: 1_000_000,
        ..Experiment::default()
    };
    let e = sweep::check_seed_sweep(&exp, "seeds", &(1..=1000), &Limits::WEB, &SweepLimits::WEB)
        .unwrap_err();
    assert!(e.to_string().contains("slices"), "{e}");
    let small = Experiment::default();
    assert!(sweep::check_seed_sweep(
        &small,
        "seeds",
        &(1..=1000),
        &Limits::WEB,
        &SweepLimits::WEB
    )
    .is_ok());
}

#[test]
fn a_thousand_seed_sweep_has_a_run_per_seed() {
    // The sweeps panel's 1000 seeds × 400 tasks × 2 policies, within the
    // page's limits. How long it takes natively: scripts/bench-core.sh.
    let exp = Experiment::default();
    let runs = sweep::sweep_seeds_chunk(&exp, 1..=1000, &Limits::WEB).unwrap();
    assert_eq!(runs.len(), 1000);
}
