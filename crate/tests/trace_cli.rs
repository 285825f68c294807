//! `--trace-in` and `--thread` on the CLI: the table with the "as
//! recorded" row and what was found, the JSON contract (the baseline first,
//! `"policy": "recorded"`, `"tasks"` = tasks found), sweeps, and one clear
//! line with exit code 2 for every bad file or flag.

use std::io::Write;
use std::path::PathBuf;

use serde_json::{json, Value};

mod cli_run;
use cli_run::{stderr, stdout, tailslice};

/// A file under the target directory, unique per test.
fn file(name: &str, bytes: &[u8]) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("trace_cli");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

const T0: f64 = 98_765_432_000.0;

/// Two renderers (tid 1 in both); the main frame is in pid 20.
fn trace_json() -> Vec<u8> {
    let mut ev = vec![
        json!({"ph": "I", "name": "TracingStartedInBrowser", "pid": 1, "tid": 1, "ts": T0,
               "args": {"data": {"frames": [{"frame": "F", "processId": 20, "url": "https://example.com/"}]}}}),
        json!({"ph": "M", "name": "thread_name", "pid": 10, "tid": 1, "args": {"name": "CrRendererMain"}}),
        json!({"ph": "M", "name": "thread_name", "pid": 20, "tid": 1, "args": {"name": "CrRendererMain"}}),
        json!({"ph": "M", "name": "process_name", "pid": 20, "args": {"name": "Renderer"}}),
        json!({"ph": "X", "name": "RunTask", "pid": 10, "tid": 1, "ts": T0, "dur": 1000}),
    ];
    let mut t = 0.0;
    for d in [120.0, 30.0, 5.0] {
        ev.push(json!({"ph": "X", "name": "RunTask", "pid": 20, "tid": 1, "ts": T0 + t * 1000.0, "dur": d * 1000.0}));
        ev.push(json!({"ph": "X", "name": "FunctionCall", "pid": 20, "tid": 1, "ts": T0 + t * 1000.0 + 5.0, "dur": d * 900.0}));
        t += d + 10.0;
    }
    serde_json::to_vec(&json!({"traceEvents": ev, "metadata": {"source": "test"}})).unwrap()
}

#[test]
fn simulate_prints_what_was_found_and_the_recorded_row() {
    let path = file("two-renderers.json", &trace_json());
    let o = tailslice(&[
        "simulate",
        "--trace-in",
        &path,
        "--policies",
        "fifo,rr,srpt",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    for want in [
        "thread 20:1 (CrRendererMain, process Renderer), found from the inspected page's main frame",
        "3 tasks over 175.0 ms, busy 155.0 ms",
        "1 long tasks (≥ 50 ms), total blocking time 70.0 ms",
        "other threads (pick with --thread PID:TID): 10:1 (CrRendererMain, 1 tasks)",
        "as recorded       51.7",
        "SRPT",
    ] {
        assert!(s.contains(want), "missing {want:?} in\n{s}");
    }
    // The found summary comes before the table.
    assert!(s.find("3 tasks over").unwrap() < s.find("scheduler").unwrap());
    let zh = stdout(&tailslice(&[
        "simulate",
        "--trace-in",
        &path,
        "--lang",
        "zh",
    ]));
    assert!(zh.contains("3 个任务，历时 175.0 ms"), "{zh}");
}

#[test]
fn json_puts_the_recorded_baseline_first() {
    let path = file("two-renderers-json.json", &trace_json());
    let o = tailslice(&[
        "simulate",
        "--trace-in",
        &path,
        "--json",
        "--arrivals",
        "t0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["tasks"], 3);
    let results = v["results"].as_array().unwrap();
    let names: Vec<&str> = results
        .iter()
        .map(|r| r["policy"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["recorded", "fifo", "rr"]);
    // The same fields as the others, in the same order.
    let keys = |r: &Value| r.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&results[0]), keys(&results[1]));
    assert!(text.starts_with(
        "{\"total_work_ms\":155.0,\"tasks\":3,\"results\":[{\"policy\":\"recorded\",\"mean\":"
    ));
    assert_eq!(results[0]["max"], 120.0);
    assert_eq!(results[0]["makespan"], 175.0);
    // All at t = 0: FIFO makes the 5 ms task wait for the others.
    assert_eq!(results[1]["max"], 155.0);
    assert_eq!(v["trace"]["thread"], "20:1");
    assert_eq!(v["trace"]["arrivals"], "t0");
    assert_eq!(v["trace"]["long_tasks"], 1);
    assert_eq!(v["trace"]["threads"].as_array().unwrap().len(), 2);
    // --thread picks the other renderer.
    let o = tailslice(&[
        "simulate",
        "--trace-in",
        &path,
        "--thread",
        "10:1",
        "--json",
    ]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["tasks"], 1);
    assert_eq!(v["trace"]["thread"], "10:1");
    // An ordinary run's JSON has no baseline and no trace key.
    let v: Value = serde_json::from_slice(&tailslice(&["simulate", "--json"]).stdout).unwrap();
    assert_eq!(v["results"][0]["policy"], "fifo");
    assert!(v.get("trace").is_none());
}

#[test]
fn gzip_files_open_whatever_their_name() {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&trace_json()).unwrap();
    let path = file("saved-trace.json", &enc.finish().unwrap());
    let o = tailslice(&["simulate", "--trace-in", &path, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["tasks"], 3);
}

#[test]
fn sweep_takes_a_trace_with_quanta() {
    let path = file("sweep.json", &trace_json());
    let o = tailslice(&[
        "sweep",
        "--quanta",
        "4,16",
        "--trace-in",
        &path,
        "--arrivals",
        "t0",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["runs"].as_array().unwrap().len(), 2);
    let o = tailslice(&["sweep", "--seeds", "1-2", "--trace-in", &path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--trace-in cannot be combined with --seeds"));
}

#[test]
fn bad_files_and_flags_get_one_line_and_exit_code_2() {
    let good = file("good.json", &trace_json());
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--trace-in".into(), file("cut.json", &trace_json()[..200])], "cut short"),
        (vec!["--trace-in".into(), file("profile.cpuprofile", br#"{"nodes":[],"startTime":0,"samples":[]}"#)], "CPU profile"),
        (vec!["--trace-in".into(), file("random.json", br#"{"a":1}"#)], "needs a traceEvents array"),
        (vec!["--trace-in".into(), file("gz.json.gz", &[0x1f, 0x8b, 8, 0, 1, 2, 3])], "gzip data does not inflate"),
        (vec!["--trace-in".into(), file("nothread.json", br#"[{"ph":"X","name":"RunTask","pid":1,"tid":2,"ts":1,"dur":1},{"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"Compositor"}}]"#)], "no renderer main thread"),
        (vec!["--trace-in".into(), file("badts.json", br#"[{"ph":"X","name":"RunTask","pid":1,"tid":2,"ts":"x","dur":1}]"#)], "event 1 ('RunTask'): 'ts' must be a number"),
        (vec!["--trace-in".into(), "/nonexistent/trace.json".into()], "cannot read it"),
        (vec!["--trace-in".into(), String::new()], "expected a file path"),
        (vec!["--trace-in".into(), good.clone(), "--thread".into(), "main".into()], "invalid --thread 'main': expected PID:TID"),
        (vec!["--trace-in".into(), good.clone(), "--thread".into(), "3:3".into()], "thread 3:3 has no tasks"),
        (vec!["--thread".into(), "1:1".into()], "--thread needs --trace-in"),
        (vec!["--trace-in".into(), good.clone(), "--mix".into(), "1:1-2".into()], "cannot be combined with --mix"),
        (vec!["--trace-in".into(), good.clone(), "--tasks-file".into(), good.clone()], "cannot be combined with --tasks-file"),
        (vec!["--trace-in".into(), good.clone(), "--arrivals".into(), "poisson:0.5".into()], "expected t0 with --trace-in"),
    ];
    for (args, want) in cases {
        let mut all = vec!["simulate".to_string()];
        all.extend(args);
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let o = tailslice(&refs);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{refs:?}: {err}");
        assert!(err.contains(want), "{refs:?}: want {want:?}, got {err}");
        assert_eq!(err.trim().lines().count(), 1, "{refs:?}: {err}");
        assert!(stdout(&o).is_empty());
    }
}

#[test]
fn help_names_the_flags() {
    let s = stdout(&tailslice(&["simulate", "--help"]));
    assert!(s.contains("--trace-in FILE") && s.contains("--thread PID:TID"));
    let s = stdout(&tailslice(&["sweep", "--help"]));
    assert!(s.contains("--trace-in FILE"));
}
