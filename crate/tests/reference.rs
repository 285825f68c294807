//! Cross-check against the study's reference simulator
//! (`../shared/reference/article_sim.py`): for any seed, task count, mix and
//! quantum, every figure it prints must agree with `tailslice simulate
//! --json` to 1e-6 ms. The cases include seeds, mixes and quanta nobody
//! tuned anything on.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

/// The oracle, kept in the repository (`tests/reference/article_sim.py`,
/// a verbatim copy of `shared/reference/article_sim.py`) so a clone is
/// self-contained; `TAILSLICE_REFERENCE` points elsewhere if needed.
fn reference_script() -> PathBuf {
    if let Some(p) = std::env::var_os("TAILSLICE_REFERENCE") {
        return PathBuf::from(p);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/reference/article_sim.py")
}

#[test]
fn the_copy_of_the_oracle_is_verbatim() {
    // Where the shared original sits beside the checkout, the copy must not
    // have drifted from it.
    let copy = std::fs::read(reference_script()).expect("the oracle is in the repository");
    let shared =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/reference/article_sim.py");
    if let Ok(original) = std::fs::read(&shared) {
        assert_eq!(
            copy, original,
            "tests/reference/article_sim.py differs from {shared:?}"
        );
    } else {
        eprintln!("note: {shared:?} not found; using the copy in tests/reference");
    }
}

fn run_json(cmd: &mut Command) -> Value {
    let out = cmd.output().expect("command runs");
    assert!(
        out.status.success(),
        "{:?} failed: {}",
        cmd,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

fn check(seed: u64, tasks: u64, mix: &str, quantum: f64, within: f64) {
    let (seed, tasks, quantum, within) = (
        seed.to_string(),
        tasks.to_string(),
        quantum.to_string(),
        within.to_string(),
    );
    // Both programs take the same flags for the same experiment.
    let flags = [
        "--seed",
        &seed,
        "--tasks",
        &tasks,
        "--mix",
        mix,
        "--quantum",
        &quantum,
        "--within",
        &within,
    ];
    let reference = run_json(Command::new("python3").arg(reference_script()).args(flags));
    let ours = run_json(
        Command::new(env!("CARGO_BIN_EXE_tailslice"))
            .args(["simulate", "--json"])
            .args(flags),
    );
    let case = format!("seed {seed}, {tasks} tasks, mix {mix}, quantum {quantum}");
    let close = |a: &Value, b: &Value, what: &str| {
        let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
        assert!(
            (a - b).abs() <= 1e-6,
            "{case}: {what}: reference {a}, ours {b}"
        );
    };
    close(
        &reference["total_work_ms"],
        &ours["total_work_ms"],
        "total_work_ms",
    );
    let (rr, or) = (
        reference["results"].as_array().unwrap(),
        ours["results"].as_array().unwrap(),
    );
    assert_eq!(rr.len(), 2);
    assert_eq!(or.len(), 2, "{case}: default policies are fifo and rr");
    for (r, o) in rr.iter().zip(or) {
        assert_eq!(r["policy"], o["policy"]);
        for metric in ["mean", "p50", "p95", "p99", "max"] {
            close(&r[metric], &o[metric], &format!("{} {metric}", r["policy"]));
        }
        assert_eq!(r["done_within"], o["done_within"], "{case}: done_within");
    }
}

#[test]
fn the_study_itself() {
    check(42, 400, "85:1-8,12:10-40,3:80-200", 16.0, 100.0);
}

#[test]
fn other_seeds() {
    for seed in [0, 1, 7, 2024, 4294967296, 9007199254740991] {
        check(seed, 400, "85:1-8,12:10-40,3:80-200", 16.0, 100.0);
    }
}

#[test]
fn other_mixes_quanta_and_sizes() {
    check(3, 1000, "50:1-2,50:30-90", 8.0, 50.0);
    check(11, 257, "1:0.5-0.5,2:100-300", 0.75, 400.0);
    check(99, 5000, "85:1-8,12:10-40,3:80-200", 33.3, 100.0);
    check(5, 1, "1:10-20", 4.0, 100.0);
    check(6, 2000, "70:1-8,25:10-40,5:80-200", 2.0, 10.0);
    check(123456, 400, "10:5-5,0:1-2,1:1000-2000", 100.0, 1000.0);
}
