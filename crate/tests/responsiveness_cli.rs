//! `tailslice responsiveness` as a user and a script meet it: the table
//! and the reading in both languages, the JSON contract, a trace whose
//! recorded TBT is the summary's, one clear line (exit code 2) for every
//! bad flag, and the one task loader's same checks in every subcommand.

use std::path::PathBuf;

use serde_json::{json, Value};

mod cli_run;
use cli_run::{stderr, stdout, tailslice};

fn file(name: &str, bytes: &[u8]) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("responsiveness_cli");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

/// A trace: one renderer main thread with a 275 ms task among short ones
/// (a file of its own for each test: they run at the same time).
fn trace_file(name: &str) -> String {
    const T0: f64 = 98_765_432_000.0;
    let mut ev = vec![
        json!({"ph": "M", "name": "thread_name", "pid": 20, "tid": 1, "args": {"name": "CrRendererMain"}}),
    ];
    let mut t = 0.0;
    for (i, d) in [275.0, 12.0, 80.0, 3.0, 51.0, 49.0, 140.0, 7.0]
        .into_iter()
        .enumerate()
    {
        ev.push(json!({"ph": "X", "name": "RunTask", "pid": 20, "tid": 1, "ts": T0 + t * 1000.0, "dur": d * 1000.0}));
        t += d + 20.0 + 13.0 * i as f64;
    }
    file(
        &format!("{name}.json"),
        &serde_json::to_vec(&json!({ "traceEvents": ev })).unwrap(),
    )
}

#[test]
fn a_trace_reads_as_recorded_and_sliced() {
    let path = trace_file("trace1");
    let o = tailslice(&["responsiveness", "--trace-in", &path, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["source"], "trace");
    assert_eq!(v["tasks"], 8);
    assert_eq!(v["span"]["from"], "tasks");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    assert!(rows[0]["quantum_ms"].is_null());
    // The recorded row's TBT and long tasks are the trace summary's.
    let sim = tailslice(&["simulate", "--trace-in", &path, "--json"]);
    let s: Value = serde_json::from_str(&stdout(&sim)).unwrap();
    assert_eq!(rows[0]["tbt_ms"], s["trace"]["total_blocking_ms"]);
    assert_eq!(rows[0]["long_tasks"], s["trace"]["long_tasks"]);
    assert_eq!(v["span_ms"], s["trace"]["span_ms"]);
    assert_eq!(
        rows[0]["tbt_ms"].as_f64().unwrap(),
        225.0 + 30.0 + 1.0 + 90.0
    );
    // Every quantum of 50 ms or less removes the blocking time.
    for r in &rows[1..] {
        if r["quantum_ms"].as_f64().unwrap() <= 50.0 {
            assert_eq!(r["tbt_ms"], 0.0, "{r}");
            assert!(r["input_delay_ms"]["max"].as_f64().unwrap() <= 50.0);
        }
    }
    // The table and reading, in both languages.
    let en = stdout(&tailslice(&["responsiveness", "--trace-in", &path]));
    assert!(
        en.contains("as recorded") && en.contains("← favoured"),
        "{en}"
    );
    assert!(
        en.contains("long tasks (≥ 50 ms), total blocking time 346.0 ms"),
        "{en}"
    );
    assert!(en.contains("As recorded, an input waits"), "{en}");
    let zh = stdout(&tailslice(&[
        "responsiveness",
        "--trace-in",
        &path,
        "--lang",
        "zh",
    ]));
    assert!(
        zh.contains("按记录，输入平均等待") && zh.contains("← 推荐"),
        "{zh}"
    );
    // All at t = 0: the first row runs them whole, one after another.
    let t0 = tailslice(&[
        "responsiveness",
        "--trace-in",
        &path,
        "--arrivals",
        "t0",
        "--json",
    ]);
    let t0: Value = serde_json::from_str(&stdout(&t0)).unwrap();
    assert_eq!(t0["source"], "tasks");
    assert_eq!(t0["span_ms"], t0["busy_ms"]);
}

#[test]
fn settings_reach_every_row() {
    let path = trace_file("trace2");
    let o = tailslice(&[
        "responsiveness",
        "--trace-in",
        &path,
        "--quanta",
        "48,8",
        "--yield",
        "timeout",
        "--yield-cost",
        "0.25",
        "--window",
        "100-600",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v["span"],
        json!({"start_ms": 100.0, "end_ms": 600.0, "from": "window"})
    );
    assert_eq!(v["span_ms"], 500.0);
    assert_eq!(v["yield"], "timeout");
    assert_eq!(v["yield_cost_ms"], 0.25);
    assert_eq!(v["yield_cost_from"], "given");
    let q: Vec<Value> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["quantum_ms"].clone())
        .collect();
    assert_eq!(q, [Value::Null, json!(8.0), json!(48.0)]);
    for r in &v["rows"].as_array().unwrap()[1..] {
        assert_eq!(r["yield"], "timeout");
        assert_eq!(r["yield_cost_ms"], 0.25);
    }
    assert!(v["reading"].as_array().unwrap().iter().any(|s| s
        .as_str()
        .unwrap()
        .contains("setTimeout(0) is clamped to 4 ms")));
}

#[test]
fn the_studys_workloads_with_their_arrivals() {
    let o = tailslice(&[
        "responsiveness",
        "--tasks",
        "100",
        "--arrivals",
        "poisson:0.5",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (v["tasks"].as_u64(), v["source"].as_str()),
        (Some(100), Some("tasks"))
    );
    assert!(v["span_ms"].as_f64().unwrap() > v["busy_ms"].as_f64().unwrap());
    let text = stdout(&tailslice(&["responsiveness"]));
    assert!(
        text.starts_with("The study's workload: seed 42, 400 tasks"),
        "{text}"
    );
    assert!(text.contains("whole tasks"), "{text}");
}

#[test]
fn bad_flags_get_one_line() {
    let path = trace_file("trace3");
    let hour = file("hour.txt", b"3600000\n");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let dir = dir.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--yield", "auto"],
            "invalid --yield 'auto': expected scheduler, message, timeout or raf",
        ),
        (
            vec!["--yield-cost", "-1"],
            "invalid --yield-cost '-1': expected 0 or a number of ms",
        ),
        (
            vec!["--quanta", "0"],
            "invalid --quanta '0': expected 1 to 16 quanta",
        ),
        (vec!["--quanta", "4,4"], "none twice"),
        (
            vec!["--window", "5-1"],
            "invalid --window '5-1': expected START-END",
        ),
        (vec!["--window", "x"], "invalid --window 'x'"),
        (
            vec!["--quantum", "8"],
            "--quantum does not apply to responsiveness",
        ),
        (
            vec!["--policies", "rr"],
            "--policies does not apply to responsiveness",
        ),
        (
            vec!["--bogus", "1"],
            "unknown flag --bogus for responsiveness",
        ),
        (vec!["--lang", "fr"], "invalid --lang 'fr'"),
        (vec!["--tasks", "0"], "invalid --tasks '0'"),
        (
            vec!["--tasks-file", &hour, "--quanta", "4,0.001"],
            "invalid --quanta '0.001': expected a larger quantum",
        ),
        (
            vec!["--trace-in", &path, "--seed", "3"],
            "--trace-in cannot be combined with --seed",
        ),
        (vec!["--tasks-file", dir], "it is a directory, not a file"),
        (vec!["stray"], "unexpected argument"),
    ];
    for (args, want) in cases {
        let mut argv = vec!["responsiveness"];
        argv.extend(&args);
        let o = tailslice(&argv);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}

/// One loader: `simulate`, `sweep --quanta` and `responsiveness` refuse the
/// same import problems with the same words.
#[test]
fn every_subcommand_loads_tasks_with_the_same_checks() {
    let path = trace_file("trace4");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let dir = dir.to_str().unwrap();
    let list = file("list.csv", b"arrival_ms,duration_ms\n0,5\n2,70\n");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--tasks-file", dir], "it is a directory, not a file"),
        (vec!["--trace-in", dir], "it is a directory, not a file"),
        (vec!["--tasks-file", "/nonexistent/x.csv"], "cannot read it"),
        (vec!["--thread", "1:1"], "--thread needs --trace-in"),
        (
            vec!["--trace-in", &path, "--tasks-file", &list],
            "--trace-in cannot be combined with --tasks-file",
        ),
        (
            vec!["--tasks-file", &list, "--seed", "3"],
            "--tasks-file cannot be combined with --seed",
        ),
        (
            vec!["--trace-in", &path, "--arrivals", "poisson:0.5"],
            "expected t0 with --trace-in",
        ),
        (
            vec!["--tasks-file", ""],
            "invalid --tasks-file '': expected a file path",
        ),
    ];
    for (args, want) in cases {
        for sub in [
            vec!["simulate"],
            vec!["sweep", "--quanta", "4,8"],
            vec!["responsiveness"],
        ] {
            let mut argv = sub.clone();
            argv.extend(&args);
            let o = tailslice(&argv);
            assert_eq!(o.status.code(), Some(2), "{argv:?}");
            let err = stderr(&o);
            assert!(err.contains(want), "{argv:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{argv:?}: {err}");
        }
    }
    // And each of them runs the same list.
    for sub in [
        vec!["simulate"],
        vec!["sweep", "--quanta", "4,8"],
        vec!["responsiveness"],
    ] {
        let mut argv = sub.clone();
        argv.extend(["--tasks-file", list.as_str(), "--json"]);
        let o = tailslice(&argv);
        assert!(o.status.success(), "{argv:?}: {}", stderr(&o));
    }
}

#[test]
fn help_names_every_flag() {
    let h = stdout(&tailslice(&["responsiveness", "--help"]));
    for flag in [
        "--trace-in",
        "--tasks-file",
        "--arrivals",
        "--quanta",
        "--yield ",
        "--yield-cost",
        "--window",
        "--json",
        "--lang",
        "--thread",
    ] {
        assert!(h.contains(flag), "{flag}");
    }
    let top = stdout(&tailslice(&["help"]));
    assert!(top.contains("tailslice responsiveness"), "{top}");
}

/// With all tasks at t = 0 the "as recorded" row is the trace as it ran,
/// not a baseline: the policies are compared with the first policy and the
/// table says what the recorded row is.
#[test]
fn a_trace_at_t0_compares_the_policies_with_each_other() {
    let path = trace_file("trace5");
    for (lang, want) in [
        ("en", "compared with the first policy, not with that row"),
        ("zh", "与第一个策略比较"),
    ] {
        let o = tailslice(&[
            "simulate",
            "--trace-in",
            &path,
            "--arrivals",
            "t0",
            "--policies",
            "fifo,rr",
            "--lang",
            lang,
        ]);
        let out = stdout(&o).replace('\n', " ");
        assert!(out.contains(want), "{out}");
        assert!(out.contains("RR 16ms vs FIFO"), "{out}");
    }
    let o = tailslice(&["simulate", "--trace-in", &path, "--policies", "fifo,rr"]);
    assert!(!stdout(&o).contains("not with that row"));
}
