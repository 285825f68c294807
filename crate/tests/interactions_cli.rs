//! `tailslice responsiveness --trace-in` on a trace with interactions: the
//! Interactions table and INP per row in both languages, the JSON's
//! interactions and `inp_ms`, `--transit` in every output, and `--budget`'s
//! exit codes (0 all hold, 1 one line per budget exceeded, 2 bad syntax).

use std::path::PathBuf;

use serde_json::{json, Value};

mod cli_run;
use cli_run::{stderr, stdout, tailslice};

const T0: f64 = 98_765_432_000.0;

/// A 100 ms task, a click at 30 ms handled at 100–120 ms, 150 ms of other
/// script, a 10 ms rendering task, the frame at 286 ms (latency 256); a
/// short key press later. A file of its own per test.
fn trace_file(name: &str) -> String {
    let mut ev = vec![
        json!({"ph": "M", "name": "thread_name", "pid": 20, "tid": 1, "args": {"name": "CrRendererMain"}}),
    ];
    for (s, d, child) in [
        (0.0, 100.0, "FunctionCall"),
        (100.0, 20.0, "EventDispatch"),
        (120.0, 150.0, "TimerFire"),
        (270.0, 10.0, "UpdateLayoutTree"),
        (400.0, 5.0, "FunctionCall"),
    ] {
        for n in ["RunTask", child] {
            ev.push(json!({"ph": "X", "name": n, "pid": 20, "tid": 1, "ts": T0 + s * 1000.0, "dur": d * 1000.0}));
        }
    }
    let timing = |id: u64, kind: &str, at: f64, ps: f64, pe: f64, dur: f64| {
        let stamp = 1000.0 + at;
        json!({"ph": "b", "name": "EventTiming", "cat": "devtools.timeline", "id2": {"local": "0x2"},
            "pid": 20, "tid": 1, "ts": T0 + at * 1000.0,
            "args": {"data": {"type": kind, "interactionId": id, "timeStamp": stamp,
                "processingStart": stamp + ps, "processingEnd": stamp + pe, "duration": dur}}})
    };
    ev.push(timing(7, "pointerdown", 30.0, 70.0, 75.0, 256.0));
    ev.push(timing(7, "click", 30.0, 80.0, 90.0, 256.0));
    ev.push(timing(9, "keydown", 350.0, 1.0, 3.0, 16.0));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("interactions_cli");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{name}.json"));
    std::fs::write(
        &p,
        serde_json::to_vec(&json!({ "traceEvents": ev })).unwrap(),
    )
    .unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn the_table_shows_each_interaction_and_inp_per_row() {
    let path = trace_file("table");
    let o = tailslice(&["responsiveness", "--trace-in", &path, "--quanta", "16,50"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // Sentences are wrapped at 78 columns: compare them with the lines
    // joined.
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "interactions: 2 from 3 EventTiming entries; INP 256 ms (interaction 7, tap/click)"
        ),
        "{out}"
    );
    assert!(flat.contains("Every input also takes 0.9 ms to reach the main thread"));
    let head = out
        .lines()
        .find(|l| l.starts_with("id  kind"))
        .unwrap_or_else(|| panic!("{out}"));
    let head: Vec<&str> = head.split_whitespace().collect();
    assert!(
        head.ends_with(&["model", "delay", "q", "16", "q", "50"]),
        "{head:?}"
    );
    // Interaction 7: recorded 70 / 20 / 166, the model 70.0 (69.1 left of
    // the 100 ms task at 30.9, + 0.9); sliced at 16: 2.1 + 20 + 32.
    let row = out
        .lines()
        .find(|l| l.trim_start().starts_with("7  "))
        .unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        cells,
        [
            "7",
            "tap/click",
            "30.0",
            "256.0",
            "70.0",
            "20.0",
            "166.0",
            "70.0",
            "54.1",
            "106.0"
        ],
        "{row}"
    );
    assert!(
        flat.contains("INP per row (ms): as recorded 256.0, q 16 54.1, q 50 106.0"),
        "{out}"
    );
    assert!(flat.contains("handler tasks not counted as obstacles"));
    // Handlers yielding after 16 ms: 70 + 16 + (166 − 150).
    assert!(
        flat.contains("(the frame after their first piece) (ms): q 16 102.0, q 50 106.0"),
        "{out}"
    );
    assert!(
        flat.contains(
            "The model's input delay as recorded is within 2 ms of the recorded one for 2 of 2"
        ),
        "{out}"
    );
    let zh = stdout(&tailslice(&[
        "responsiveness",
        "--trace-in",
        &path,
        "--lang",
        "zh",
    ]));
    assert!(zh.contains("各行的 INP（ms）：按记录 256.0"), "{zh}");
    assert!(zh.contains("交互：2 个"), "{zh}");
}

#[test]
fn the_json_adds_interactions_and_inp_compatibly() {
    let path = trace_file("json");
    let o = tailslice(&[
        "responsiveness",
        "--trace-in",
        &path,
        "--quanta",
        "16",
        "--transit",
        "0",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["transit_ms"], 0.0);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows[0]["inp_ms"], 256.0);
    assert_eq!(rows[0]["obstacles"], "all");
    // The old keys are all still there.
    for k in [
        "input_delay_ms",
        "delayed_over",
        "tbt_ms",
        "long_tasks",
        "finish_later_ms",
        "yields",
        "end_ms",
    ] {
        assert!(!rows[0][k].is_null(), "{k}");
    }
    let i = &v["interactions"][0];
    assert_eq!(i["id"], 7);
    assert_eq!(i["kind"], "tap-click");
    assert_eq!(i["start_ms"], 30.0);
    assert_eq!(i["latency_ms"], 256.0);
    assert_eq!(i["input_delay_ms"], 70.0);
    assert_eq!(i["processing_ms"], 20.0);
    assert_eq!(i["presentation_ms"], 166.0);
    // Without transit the model is the rest of the task: 70 ms exactly.
    assert_eq!(i["model_input_delay_ms"], 70.0);
    let s = &i["sliced"][0];
    assert_eq!(s["quantum_ms"], 16.0);
    // 0–16, 16.1–32.1: 2.1 ms left at 30.
    assert!((s["input_delay_ms"].as_f64().unwrap() - 2.1).abs() < 1e-9);
    assert!((s["presentation_ms"].as_f64().unwrap() - 32.0).abs() < 1e-9);
    assert!((s["latency_ms"].as_f64().unwrap() - 54.1).abs() < 1e-9);
    assert_eq!(v["interactions"][1]["kind"], "keyboard");
    assert_eq!(
        v["rows_without_handlers"][0]["obstacles"],
        "all_but_handlers"
    );
    // A task list has no interactions: inp_ms is null, no interactions key.
    let list = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("interactions_cli_list.csv");
    std::fs::write(&list, "0,80\n100,20\n").unwrap();
    let o = tailslice(&[
        "responsiveness",
        "--tasks-file",
        list.to_str().unwrap(),
        "--json",
    ]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["rows"][0]["inp_ms"].is_null());
    assert!(v.get("interactions").is_none());
    assert_eq!(v["transit_ms"], 0.9);
}

#[test]
fn budgets_gate_on_the_recorded_row() {
    let path = trace_file("budget");
    let run = |budget: &str, json: bool| {
        let mut args = vec!["responsiveness", "--trace-in", &path, "--budget", budget];
        if json {
            args.push("--json");
        }
        tailslice(&args)
    };
    // INP 256, TBT 150 (50 + 100 from the 100 and 150 ms tasks), p98 well
    // over 50.
    let o = run("inp=300,tbt=150", false);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).is_empty());
    let o = run("inp=200,tbt=10,p98=1", true);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(
        lines
            .contains(&"budget exceeded: INP is 256.0 ms, over its budget of 200 ms (as recorded)"),
        "{err}"
    );
    assert!(lines.contains(&"budget exceeded: Total Blocking Time is 150.0 ms, over its budget of 10 ms (as recorded)"), "{err}");
    // The JSON is still whole on stdout.
    assert!(serde_json::from_str::<Value>(&stdout(&o)).is_ok());
    let o = run("tbt=149.9", false);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o).lines().count(), 1);
    // Bad syntax: one line naming --budget and the form, exit 2.
    for bad in ["inp", "fid=100", "inp=-5", "inp=1,inp=2", ""] {
        let o = run(bad, false);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("invalid --budget '{bad}': expected KEY=MS")),
            "{err}"
        );
    }
    // An INP budget on tasks without interactions cannot hold.
    let list = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("interactions_cli_budget.csv");
    std::fs::write(&list, "0,80\n100,20\n").unwrap();
    let o = tailslice(&[
        "responsiveness",
        "--tasks-file",
        list.to_str().unwrap(),
        "--budget",
        "inp=200",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no interactions"), "{}", stderr(&o));
}

#[test]
fn a_bad_transit_is_refused_by_name() {
    let o = tailslice(&["responsiveness", "--transit", "500"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).trim(),
        "error: invalid --transit '500': expected 0 or a number of ms from 0.001 to 100"
    );
}
