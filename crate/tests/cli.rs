//! The CLI as a user and a script see it: the default table, the JSON
//! contract, and one clear line with exit code 2 for every bad flag.

use std::process::Command;

mod cpu_budget;

mod cli_run;
use cli_run::{stderr, stdout, tailslice};

#[test]
fn no_flags_prints_the_studys_table() {
    for args in [&[][..], &["simulate"][..]] {
        let o = tailslice(args);
        assert!(o.status.success());
        let s = stdout(&o);
        for want in [
            "FIFO",
            "2661.3",
            "2904.8",
            "4774.4",
            "5209.4",
            "RR 16ms",
            "1578.3",
            "1472.8",
            "3441.4",
            "p95 -27.9 %",
            "max +0.0 %",
            "mean -1083.0 ms",
            "FIFO 18, RR 18",
            "total work 5209.4 ms; 18 tasks longer than 60 ms",
        ] {
            assert!(s.contains(want), "missing {want:?} in:\n{s}");
        }
    }
}

#[test]
fn json_has_the_documented_shape() {
    let o = tailslice(&["simulate", "--json", "--policies", "srpt,fifo,mlfq"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["total_work_ms"].is_f64());
    assert_eq!(v["tasks"], 400);
    let results = v["results"].as_array().unwrap();
    let names: Vec<&str> = results
        .iter()
        .map(|r| r["policy"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["srpt", "fifo", "mlfq"],
        "policies in the order given"
    );
    for r in results {
        for f in ["mean", "p50", "p90", "p95", "p99", "max"] {
            assert!(r[f].is_f64(), "{f} in {r}");
        }
        assert!(r["done_within"].is_u64());
        assert!(r["context_switches"].is_u64());
    }
}

#[test]
fn bad_flags_get_one_clear_line_and_exit_2() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--quantum", "0"],
            &["--quantum", "'0'", "from 0.001 to 100000"],
        ),
        (&["--quantum", "-3"], &["--quantum", "'-3'"]),
        (&["--quantum", "NaN"], &["--quantum", "NaN"]),
        (&["--quantum", "inf"], &["--quantum", "inf"]),
        (&["--tasks", "0"], &["--tasks", "'0'", "1 to 5000000"]),
        (&["--tasks", "5000001"], &["--tasks", "1 to 5000000"]),
        (&["--tasks", "lots"], &["--tasks", "'lots'"]),
        (&["--mix", "-1:1-8"], &["--mix", "weight"]),
        (&["--mix", "0:1-8,0:5-6"], &["--mix", "above 0"]),
        (&["--mix", "85:8-1"], &["--mix", "LO ≤ HI"]),
        (&["--mix", "85:-2-8"], &["--mix"]),
        (&["--mix", "85;1-8"], &["--mix", "WEIGHT:DIST"]),
        (
            &["--policies", "fifo,lottery"],
            &["--policies", "lottery", "fifo, rr, sjf, srpt, mlfq"],
        ),
        (&["--policies", "rr,rr"], &["--policies", "distinct"]),
        (&["--cores", "0"], &["--cores", "1 to 256"]),
        (&["--switch-cost", "-1"], &["--switch-cost"]),
        (&["--rng", "mersenne"], &["--rng", "python or fast"]),
        (&["--seed", "-1"], &["--seed", "0 to 9007199254740991"]),
        (&["--within", "0"], &["--within"]),
        (
            &["--mlfq-boost", "0.5"],
            &["--mlfq-boost", "off or a number of ms from 1 to"],
        ),
        (
            &["--eevdf-slice-end", "hrtick"],
            &["--eevdf-slice-end 'hrtick'", "tick or exact"],
        ),
        // Absurdly tiny values are refused with the bound in words (taken,
        // they would be written back as 330-character URLs).
        (
            &["--quantum", "1e-308"],
            &["--quantum '1e-308'", "from 0.001 to 100000"],
        ),
        (
            &["--switch-cost", "1e-308"],
            &["--switch-cost", "0 or a number of ms from 0.001 to 1000"],
        ),
        (&["--within", "1e-308"], &["--within", "from 0.001 to"]),
        (&["--arrivals", "soon"], &["--arrivals", "poisson"]),
        (&["--bogus", "1"], &["--bogus", "unknown flag"]),
        (&["--quantum"], &["--quantum", "missing"]),
        (&["stray"], &["stray"]),
    ];
    for (args, wants) in cases {
        let mut full = vec!["simulate"];
        full.extend_from_slice(args);
        let o = tailslice(&full);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(stdout(&o).is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line, got {err:?}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        for w in *wants {
            assert!(err.contains(w), "{args:?}: {err:?} lacks {w:?}");
        }
    }
}

#[test]
fn absurd_slice_counts_are_refused_up_front() {
    // Hours of work in 0.001 ms slices would be billions of slices.
    // Refused before any work: the process may use 30 s of CPU at most
    // (a guard against a hang, not a test of speed).
    let o = cpu_budget::cpu_limited(env!("CARGO_BIN_EXE_tailslice"), 30)
        .args(["simulate", "--tasks", "1000000", "--quantum", "0.001"])
        .output()
        .expect("tailslice runs");
    cpu_budget::assert_not_over(o.status, "--quantum 0.001");
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("--quantum") && err.contains("slices"), "{err}");
}

#[test]
fn flags_alone_mean_simulate() {
    let o = tailslice(&["--json", "--seed", "7"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let want = tailslice(&["simulate", "--json", "--seed", "7"]);
    assert_eq!(o.stdout, want.stdout);
}

#[test]
fn mlfq_boost_storms_are_refused_up_front() {
    // A 1 ms boost over 5 million 1-2 s tasks: billions of boosts, while
    // the slices alone (quantum 100 ms) would be within the limit.
    let o = tailslice(&[
        "simulate",
        "--tasks",
        "5000000",
        "--mix",
        "1:1000-2000",
        "--policies",
        "mlfq",
        "--mlfq-boost",
        "1",
        "--quantum",
        "100",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("slices"), "{}", stderr(&o));
}

#[test]
fn unknown_command() {
    let o = tailslice(&["simulat"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown command 'simulat'"));
}

#[test]
fn the_table_ends_with_a_reading_in_plain_words() {
    let o = tailslice(&["simulate"]);
    let s = stdout(&o);
    assert!(s.contains("RR cuts p95 by 28 %"), "{s}");
    assert!(s.contains("still finishes at 5209 ms"), "{s}");
    let o = tailslice(&["simulate", "--lang", "zh"]);
    assert!(stdout(&o).contains("降低了 28%"), "{}", stdout(&o));
    let o = tailslice(&["simulate", "--json", "--explain", "--lang", "zh"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["explanation"].as_str().unwrap().contains("5209 ms"));
    assert_eq!(v["results"].as_array().unwrap().len(), 2);
}

#[test]
fn new_simulate_flags_fail_cleanly() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["--lang", "fr"], &["--lang", "'fr'", "en or zh"]),
        (&["--trace"], &["--trace", "missing"]),
        (&["--csv", ""], &["--csv"]),
        (&["--tasks-file"], &["--tasks-file", "missing"]),
    ];
    for (args, wants) in cases {
        let mut full = vec!["simulate"];
        full.extend_from_slice(args);
        let o = tailslice(&full);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
        for w in *wants {
            assert!(err.contains(w), "{args:?}: {err:?} lacks {w:?}");
        }
    }
}

#[test]
fn help_lists_sweep() {
    let o = tailslice(&["help"]);
    assert!(stdout(&o).contains("tailslice sweep"));
}

/// `tailslice sweep ... | head -1`: the reader goes away early. The CLI
/// must not panic (no backtrace on stderr); it exits as a Unix tool killed
/// by SIGPIPE does.
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tailslice"))
        .args(["sweep", "--seeds", "1-400", "--csv"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tailslice runs");
    // Read one byte, then hang up.
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 1];
    out.read_exact(&mut first).unwrap();
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked"), "stderr: {err}");
    assert!(err.is_empty(), "stderr: {err}");
    assert_ne!(status.code(), Some(101), "a panic's exit code");
}
