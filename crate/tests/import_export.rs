//! Task lists in; traces, CSV and experiment files out. Traces are parsed
//! back and checked slice by slice against the simulation.

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;
use tailslice::experiment::export::{self, ExportError, TASKS_CSV_HEADER};
use tailslice::experiment::summary;
use tailslice::experiment::{Experiment, Limits, RunOutcome};
use tailslice::policy::PolicyKind;
use tailslice::workload::task_list::parse_task_list;
use tailslice::workload::{Arrivals, Workload};

mod cpu_budget;

mod cli_run;
use cli_run::tailslice;

/// A fresh scratch directory for this test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tailslice-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn busy_experiment() -> Experiment {
    Experiment {
        tasks: 300,
        cores: 3,
        switch_cost: 0.25,
        arrivals: Arrivals::Poisson { load: 0.9 },
        policies: vec![
            PolicyKind::Fifo,
            PolicyKind::Rr,
            PolicyKind::Srpt,
            PolicyKind::Mlfq,
        ],
        quantum: 4.0,
        ..Experiment::default()
    }
}

/// Checks a parsed trace against the outcome: every slice is a segment,
/// in order, and nothing overlaps on a (pid, tid) track.
fn check_trace(trace: &Value, outcome: &RunOutcome, quantum: f64) {
    let events = trace["traceEvents"].as_array().unwrap();
    let mut slices: HashMap<u64, Vec<&Value>> = HashMap::new();
    let mut process_names = HashMap::new();
    let mut thread_names = HashMap::new();
    for e in events {
        let pid = e["pid"].as_u64().unwrap();
        match e["ph"].as_str().unwrap() {
            "X" => slices.entry(pid).or_default().push(e),
            "M" => match e["name"].as_str().unwrap() {
                "process_name" => {
                    process_names.insert(pid, e["args"]["name"].as_str().unwrap().to_string());
                }
                "thread_name" => {
                    thread_names.insert(
                        (pid, e["tid"].as_u64().unwrap()),
                        e["args"]["name"].as_str().unwrap().to_string(),
                    );
                }
                _ => {}
            },
            other => panic!("unexpected phase {other}"),
        }
    }
    let w = &outcome.workload;
    for (i, run) in outcome.runs.iter().enumerate() {
        let pid = i as u64 + 1;
        assert_eq!(
            process_names[&pid],
            export::policy_label(run.policy, quantum)
        );
        for c in 0..run.schedule.cores as u64 {
            assert_eq!(thread_names[&(pid, c)], format!("core {c}"));
        }
        let got = &slices[&pid];
        let segs = &run.schedule.segments;
        assert!(!segs.is_empty());
        assert_eq!(got.len(), segs.len(), "{}", run.policy.name());
        for (e, s) in got.iter().zip(segs) {
            assert_eq!(e["tid"].as_u64().unwrap(), s.core as u64);
            assert_eq!(e["name"].as_str().unwrap(), format!("task {}", s.task));
            let t = s.task as usize;
            assert_eq!(
                e["cat"].as_str().unwrap(),
                w.class_labels[w.class[t] as usize]
            );
            assert_eq!(e["args"]["task"].as_u64().unwrap(), s.task as u64);
            let ts = e["ts"].as_f64().unwrap();
            let dur = e["dur"].as_f64().unwrap();
            assert!((ts - s.start * 1000.0).abs() <= 1e-6 * ts.abs().max(1.0));
            assert!((ts + dur - s.end * 1000.0).abs() <= 1e-6 * ts.abs().max(1.0));
            assert!(dur >= 0.0);
        }
        // Per track, sorted by start, each slice ends before the next starts.
        let mut tracks: HashMap<u64, Vec<(f64, f64)>> = HashMap::new();
        for e in got {
            let ts = e["ts"].as_f64().unwrap();
            tracks
                .entry(e["tid"].as_u64().unwrap())
                .or_default()
                .push((ts, ts + e["dur"].as_f64().unwrap()));
        }
        for (tid, mut v) in tracks {
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
            for p in v.windows(2) {
                assert!(
                    p[0].1 <= p[1].0 + 1e-6,
                    "{} core {tid}: {:?} overlaps {:?}",
                    run.policy.name(),
                    p[0],
                    p[1]
                );
            }
        }
        // The slices add up to the work, task by task.
        let mut work = vec![0.0; w.len()];
        for e in got {
            work[e["args"]["task"].as_u64().unwrap() as usize] +=
                e["dur"].as_f64().unwrap() / 1000.0;
        }
        for (t, (&a, &b)) in work.iter().zip(&w.work).enumerate() {
            assert!((a - b).abs() < 1e-6, "task {t}: slices {a} ms, work {b} ms");
        }
    }
}

#[test]
fn trace_matches_the_simulation_slice_by_slice() {
    let exp = busy_experiment();
    let outcome = exp.run(&Limits::CLI, true).unwrap();
    let text = export::chrome_trace(&exp, &outcome, None).unwrap();
    let trace: Value = serde_json::from_str(&text).unwrap();
    check_trace(&trace, &outcome, exp.quantum);

    // One policy alone keeps its pid.
    let one: Value =
        serde_json::from_str(&export::chrome_trace(&exp, &outcome, Some(2)).unwrap()).unwrap();
    let pids: std::collections::BTreeSet<u64> = one["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pid"].as_u64().unwrap())
        .collect();
    assert_eq!(pids.into_iter().collect::<Vec<_>>(), vec![3]);
}

#[test]
fn traces_need_segments_and_a_real_policy() {
    let exp = Experiment::default();
    let outcome = exp.run(&Limits::CLI, false).unwrap();
    assert_eq!(
        export::chrome_trace(&exp, &outcome, None),
        Err(ExportError::NoSegments)
    );
    let outcome = exp.run(&Limits::CLI, true).unwrap();
    assert!(matches!(
        export::chrome_trace(&exp, &outcome, Some(5)),
        Err(ExportError::NoSuchPolicy { .. })
    ));
}

#[test]
fn task_csv_reads_back_to_the_same_figures_within_a_nanosecond() {
    let exp = busy_experiment();
    let outcome = exp.run(&Limits::CLI, false).unwrap();
    let text = export::tasks_csv(&outcome, None).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(TASKS_CSV_HEADER));
    let mut latencies: HashMap<String, Vec<f64>> = HashMap::new();
    let mut rows = 0;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 10, "{line}");
        let num = |i: usize| f[i].parse::<f64>().unwrap();
        let task: usize = f[1].parse().unwrap();
        let w = &outcome.workload;
        assert_eq!(f[2], w.class_labels[w.class[task] as usize]);
        // Times are written to the nearest 1e-6 ms.
        let near = |a: f64, b: f64| (a - b).abs() <= 0.5e-6 * (1.0 + 1e-9);
        assert!(near(num(3), w.arrival[task]), "{line}");
        assert!(near(num(4), w.work[task]), "{line}");
        assert!(num(5) >= num(3), "starts after arrival: {line}");
        assert!(num(6) >= num(5));
        // Each rounded on its own: a difference of rounded values is off by
        // at most one step.
        assert!((num(7) - (num(6) - num(3))).abs() <= 1.5e-6, "{line}");
        assert!((num(8) - (num(7) - num(4))).abs() <= 1.5e-6, "{line}");
        assert!(f[9].parse::<u32>().unwrap() >= 1);
        latencies.entry(f[0].to_string()).or_default().push(num(7));
        rows += 1;
    }
    assert_eq!(rows, outcome.runs.len() * outcome.workload.len());
    for run in &outcome.runs {
        let mut lat = latencies.remove(run.policy.name()).unwrap();
        let exact = summary::latencies(&outcome.workload, &run.schedule);
        assert_eq!(lat.len(), exact.len());
        for (a, b) in lat.iter().zip(&exact) {
            assert!((a - b).abs() <= 0.5e-6 * (1.0 + 1e-9), "{a} vs {b}");
        }
        lat.sort_by(f64::total_cmp);
        assert!((tailslice::stats::percentile(&lat, 95.0) - run.summary.p95).abs() <= 0.5e-6);
        assert!((*lat.last().unwrap() - run.summary.max).abs() <= 0.5e-6);
    }
}

#[test]
fn imported_study_tasks_give_the_studys_figures() {
    let exp = Experiment::default();
    let w = Workload::generate(&exp.workload_spec());
    let text: String = w.work.iter().map(|d| format!("{d}\n")).collect();
    let dir = scratch("study");
    let path = dir.join("tasks.txt");
    std::fs::write(&path, format!("# the study's 400 tasks\n{text}")).unwrap();
    let o = tailslice(&["simulate", "--json", "--tasks-file", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got: Value = serde_json::from_slice(&o.stdout).unwrap();
    let want: Value = serde_json::from_slice(&tailslice(&["simulate", "--json"]).stdout).unwrap();
    assert_eq!(got, want);
    // The table says where the tasks came from.
    let o = tailslice(&["simulate", "--tasks-file", path.to_str().unwrap()]);
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("400 tasks from"), "{s}");
    assert!(s.contains("p95 -27.9 %"), "{s}");
}

#[test]
fn csv_task_lists_with_classes_and_arrivals() {
    let text = "arrival_ms,duration_ms,class\n0,30,batch\n5,2,ui\n5,2,ui\n100,1\n";
    let w = parse_task_list(text, Limits::WEB.max_tasks).unwrap();
    assert_eq!(w.class_labels, vec!["batch", "ui", "imported"]);
    let exp = Experiment::default().for_workload(&w);
    assert_eq!(exp.tasks, 4);
    let o = exp.run_on(w, &Limits::WEB, true).unwrap();
    let fifo = &o.runs[0].schedule.outcomes;
    assert_eq!(fifo[1].completion, 32.0);
    assert_eq!(fifo[3].completion, 101.0, "latency counts from arrival");
    assert_eq!(o.runs[0].summary.max, 30.0);
}

#[test]
fn import_errors_name_the_line_from_the_cli() {
    let dir = scratch("bad");
    let cases = [
        (
            "1\n2\n3\n\n# x\n4\n-3\n",
            "line 7: duration '-3' must be a number of ms from 0 to 3600000",
        ),
        ("0,1\n0,abc\n", "line 2: duration 'abc'"),
        ("0,1\n-1,1\n", "line 2: arrival '-1'"),
        (
            "0,1\n0,1,a,b\n",
            "line 2: expected arrival_ms,duration_ms[,class]",
        ),
        ("5\n0,1\n", "line 2: expected one duration"),
        ("# only a comment\n", "no tasks"),
        ("1\n99999999\n", "line 2: duration '99999999'"),
    ];
    for (i, (content, want)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad{i}.csv"));
        std::fs::write(&path, content).unwrap();
        let o = tailslice(&["simulate", "--tasks-file", path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{content:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: invalid --tasks-file '"), "{err}");
        assert!(err.contains(want), "{content:?}: {err:?} lacks {want:?}");
    }
    let classes: String = (0..17).map(|i| format!("0,1,c{i}\n")).collect();
    let e = parse_task_list(&classes, Limits::CLI.max_tasks).unwrap_err();
    assert_eq!(e.line, Some(17));
    assert!(e.to_string().contains("16 distinct classes"), "{e}");
    let o = tailslice(&["simulate", "--tasks-file", "/nonexistent/tasks.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read"));
}

#[test]
fn tasks_file_refuses_workload_flags() {
    let dir = scratch("conflict");
    let path = dir.join("t.txt");
    std::fs::write(&path, "1\n2\n").unwrap();
    for flag in ["--seed", "--tasks", "--mix", "--rng", "--arrivals"] {
        let value = match flag {
            "--mix" => "1:1-2",
            "--rng" => "fast",
            "--arrivals" => "t0",
            _ => "3",
        };
        let o = tailslice(&[
            "simulate",
            "--tasks-file",
            path.to_str().unwrap(),
            flag,
            value,
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert!(err.contains("--tasks-file") && err.contains(flag), "{err}");
    }
    // Machine and policy flags are fine.
    let o = tailslice(&[
        "simulate",
        "--tasks-file",
        path.to_str().unwrap(),
        "--cores",
        "2",
        "--policies",
        "srpt",
    ]);
    assert!(o.status.success());
}

#[test]
fn cli_writes_trace_and_csv_files() {
    let dir = scratch("out");
    let trace = dir.join("trace.json");
    let csv = dir.join("tasks.csv");
    let o = tailslice(&[
        "simulate",
        "--json",
        "--cores",
        "2",
        "--switch-cost",
        "0.1",
        "--trace",
        trace.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        report.get("explanation").is_none(),
        "JSON unchanged without --explain"
    );
    let t: Value = serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    // Run the same experiment in-process and compare.
    let exp = Experiment {
        cores: 2,
        switch_cost: 0.1,
        ..Experiment::default()
    };
    let outcome = exp.run(&Limits::CLI, true).unwrap();
    check_trace(&t, &outcome, exp.quantum);
    let rows = std::fs::read_to_string(&csv).unwrap().lines().count();
    assert_eq!(rows, 1 + 2 * 400);
}

#[test]
fn huge_traces_are_refused_before_running() {
    // At most 20 s of CPU: refused before the run, not after it.
    let o = cpu_budget::cpu_limited(env!("CARGO_BIN_EXE_tailslice"), 20)
        .args([
            "simulate",
            "--tasks",
            "1000000",
            "--quantum",
            "1",
            "--trace",
            "/tmp/never-written.json",
        ])
        .output()
        .expect("tailslice runs");
    cpu_budget::assert_not_over(o.status, "--trace of 1,000,000 tasks");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--trace") && err.contains("slices"), "{err}");
}

#[test]
fn experiment_files_round_trip_with_imported_tasks() {
    let w = parse_task_list("0,3.25,a\n1.5,7,b\n2,0.1\n", Limits::WEB.max_tasks).unwrap();
    let exp = Experiment {
        quantum: 2.5,
        cores: 2,
        switch_cost: 0.05,
        policies: vec![PolicyKind::Rr, PolicyKind::Srpt],
        ..Experiment::default().for_workload(&w)
    };
    let ui = serde_json::json!({"lang": "zh", "tab": "gantt"});
    let text = export::experiment_json(&exp, Some(&w), Some(&ui));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["format"], "tailslice-experiment");
    assert_eq!(v["params"]["q"], "2.5");
    assert_eq!(v["params"]["p"], "rr,srpt");
    let back = export::parse_experiment_json(&text, &Limits::WEB).unwrap();
    assert_eq!(back.experiment, exp);
    assert_eq!(back.tasks.as_ref(), Some(&w));
    assert_eq!(back.ui, Some(ui));
    // Same run from the file as from the original.
    let a = exp.run_on(w, &Limits::WEB, false).unwrap().report();
    let b = back
        .experiment
        .run_on(back.tasks.unwrap(), &Limits::WEB, false)
        .unwrap()
        .report();
    assert_eq!(
        serde_json::to_value(a).unwrap(),
        serde_json::to_value(b).unwrap()
    );

    // Without tasks: a generated experiment.
    let plain = Experiment {
        seed: 9,
        arrivals: Arrivals::Burst {
            count: 10,
            period: 50.0,
        },
        ..Experiment::default()
    };
    let back =
        export::parse_experiment_json(&export::experiment_json(&plain, None, None), &Limits::WEB)
            .unwrap();
    assert_eq!(back.experiment, plain);
    assert!(back.tasks.is_none());
}

#[test]
fn bad_experiment_files_are_explained() {
    let good = export::experiment_json(&Experiment::default(), None, None);
    let cases = [
        ("{", "not a tailslice experiment file"),
        (
            &good.replace("tailslice-experiment", "other") as &str,
            "format 'other'",
        ),
        (
            &good.replace("\"version\": 1", "\"version\": 9"),
            "version 9",
        ),
        (
            &good.replace("\"q\": \"16\"", "\"q\": \"0\""),
            "invalid q '0'",
        ),
        (
            &good.replace("\"q\": \"16\"", "\"zz\": \"1\""),
            "unknown parameter 'zz'",
        ),
    ];
    for (text, want) in cases {
        let e = export::parse_experiment_json(text, &Limits::WEB).unwrap_err();
        assert!(e.to_string().contains(want), "{e} lacks {want:?}");
    }
    let bad_tasks = r#"{"format":"tailslice-experiment","version":1,"params":{},
        "tasks":{"arrival_ms":[0],"duration_ms":[1,2],"class":[0],"class_labels":["x"]}}"#;
    let e = export::parse_experiment_json(bad_tasks, &Limits::WEB).unwrap_err();
    assert!(e.to_string().contains("same length"), "{e}");
}
