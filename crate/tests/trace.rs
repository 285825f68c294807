//! The trace importer on small traces generated here: both JSON forms, key
//! orders, gzip, legacy nested task names, B/E pairs with equal timestamps,
//! unterminated and overlapping tasks, several renderers, and every kind of
//! malformed input (never a panic).

use std::io::Write;

use proptest::prelude::*;
use serde_json::{json, Value};
use tailslice::experiment::recorded;
use tailslice::experiment::{Experiment, Limits, RowPolicy};
use tailslice::policy::PolicyKind;
use tailslice::trace::{
    self, gzip, import_trace, parse_thread, ParsedTrace, TraceArrivals, TraceOptions,
};

const T0: f64 = 123_456_789_000.0; // µs, as real traces

fn meta(pid: i64, tid: i64, thread: &str) -> Value {
    json!({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "ts": 0, "args": {"name": thread}})
}

fn proc_name(pid: i64, name: &str) -> Value {
    json!({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "ts": 0, "args": {"name": name}})
}

fn x(pid: i64, tid: i64, name: &str, start_ms: f64, dur_ms: f64) -> Value {
    json!({"ph": "X", "name": name, "cat": "disabled-by-default-devtools.timeline",
           "pid": pid, "tid": tid, "ts": T0 + start_ms * 1000.0, "dur": dur_ms * 1000.0, "args": {}})
}

fn be(ph: &str, pid: i64, tid: i64, name: &str, at_ms: f64) -> Value {
    json!({"ph": ph, "name": name, "pid": pid, "tid": tid, "ts": T0 + at_ms * 1000.0})
}

fn started_in_browser(main_pid: i64) -> Value {
    json!({"ph": "I", "name": "TracingStartedInBrowser", "pid": 100, "tid": 1, "ts": T0 - 1000.0,
    "args": {"data": {"frameTreeNodeId": 1, "persistentIds": true, "frames": [
        {"frame": "SUB", "parent": "MAIN", "processId": 999, "url": "https://ads.example/"},
        {"frame": "MAIN", "processId": main_pid, "url": "https://example.com/", "name": ""}
    ]}}})
}

/// A renderer with main thread `tid` in process `pid`, and the tasks.
fn renderer(pid: i64, tid: i64, tasks: &[(f64, f64)]) -> Vec<Value> {
    let mut v = vec![meta(pid, tid, "CrRendererMain"), proc_name(pid, "Renderer")];
    for &(s, d) in tasks {
        v.push(x(pid, tid, "RunTask", s, d));
    }
    v
}

fn object_form(events: Vec<Value>) -> Vec<u8> {
    serde_json::to_vec(&json!({"metadata": {"source": "DevTools", "startTime": "2026-12-01"}, "traceEvents": events})).unwrap()
}

fn import(bytes: &[u8]) -> Result<trace::TraceImport, trace::TraceError> {
    import_trace(bytes, &TraceOptions::default())
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn both_json_forms_and_key_orders() {
    let events = renderer(7, 1, &[(0.0, 120.0), (130.0, 30.0), (170.0, 5.0)]);
    let bare = serde_json::to_vec(&events).unwrap();
    let object = object_form(events.clone());
    // traceEvents first, metadata after (the other key order).
    let reversed = format!(
        "{{\"traceEvents\":{},\"metadata\":{{\"a\":[1,2,{{\"b\":3}}]}}}}",
        serde_json::to_string(&events).unwrap()
    );
    // One event per line, as DevTools saves it.
    let lines = format!(
        "{{\"metadata\":{{}},\n\"traceEvents\":[\n{}\n]}}\n",
        events
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join(",\n")
    );
    for bytes in [bare, object, reversed.into_bytes(), lines.into_bytes()] {
        let imp = import(&bytes).unwrap();
        assert_eq!(imp.workload.work, vec![120.0, 30.0, 5.0]);
        assert_eq!(imp.workload.arrival, vec![0.0, 130.0, 170.0]);
        assert_eq!(imp.recorded, vec![120.0, 30.0, 5.0]);
        assert_eq!(imp.found.thread, "7:1");
        assert_eq!(imp.found.tasks, 3);
        assert!(close(imp.found.span_ms, 175.0));
        assert!(close(imp.found.busy_ms, 155.0));
        assert_eq!(imp.found.long_tasks, 1);
        assert!(close(imp.found.total_blocking_ms, 70.0));
        assert!(close(imp.found.longest[0].duration_ms, 120.0));
        assert!(close(imp.found.longest[1].start_ms, 130.0));
    }
}

#[test]
fn gzip_is_detected_by_its_bytes() {
    let json = object_form(renderer(7, 1, &[(0.0, 10.0), (20.0, 60.0)]));
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&json).unwrap();
    let gz = enc.finish().unwrap();
    assert_eq!(&gz[..2], &trace::GZIP_MAGIC);
    let imp = import(&gz).unwrap();
    assert_eq!(imp.workload.work, vec![10.0, 60.0]);
    // Gzip that does not inflate.
    let mut broken = gz.clone();
    broken.truncate(gz.len() / 2);
    let e = import(&broken).unwrap_err();
    assert!(e.to_string().contains("gzip"), "{e}");
    let e = import(&[0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7, 8, 9]).unwrap_err();
    assert!(e.to_string().contains("gzip"), "{e}");
    // A bomb: inflating is stopped at the limit.
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(&vec![b' '; 2_000_000]).unwrap();
    let bomb = enc.finish().unwrap();
    let e = gzip::inflate(&bomb, 1_000_000).unwrap_err();
    assert!(e.to_string().contains("more than 1000000 bytes"), "{e}");
}

#[test]
fn legacy_nested_names_count_once() {
    // ≤ m65: MessageLoop::RunTask wraps TaskQueueManager::ProcessTaskFromWorkQueue.
    let mut ev = renderer(5, 3, &[]);
    ev.push(x(5, 3, "MessageLoop::RunTask", 0.0, 40.0));
    ev.push(x(
        5,
        3,
        "TaskQueueManager::ProcessTaskFromWorkQueue",
        0.001,
        39.99,
    ));
    ev.push(x(5, 3, "FunctionCall", 1.0, 30.0));
    // m69–70 inside RunTask (both names present): counted once.
    ev.push(x(5, 3, "RunTask", 50.0, 20.0));
    ev.push(x(5, 3, "ThreadControllerImpl::RunTask", 50.0, 20.0));
    ev.push(x(5, 3, "ThreadControllerImpl::DoWork", 51.0, 5.0));
    ev.push(x(5, 3, "TimerFire", 52.0, 1.0));
    let imp = import(&object_form(ev)).unwrap();
    assert_eq!(imp.found.tasks, 2);
    assert!(close(imp.workload.work[0], 39.99));
    assert!(close(imp.workload.work[1], 20.0));
    assert_eq!(imp.found.nested, 2);
    let label = |i: usize| imp.workload.class_labels[imp.workload.class[i] as usize].clone();
    assert_eq!(label(0), "FunctionCall");
    assert_eq!(label(1), "TimerFire");
}

#[test]
fn begin_end_pairs_with_equal_timestamps() {
    let mut ev = renderer(5, 3, &[]);
    // Back to back: the first task's E and the second's B share a timestamp,
    // and the E is written after the B (the sort must put the E first).
    ev.push(be("B", 5, 3, "RunTask", 0.0));
    ev.push(be("B", 5, 3, "RunTask", 10.0));
    ev.push(be("E", 5, 3, "RunTask", 10.0));
    ev.push(be("B", 5, 3, "EventDispatch", 11.0));
    ev.push(be("E", 5, 3, "EventDispatch", 12.0));
    ev.push(be("E", 5, 3, "RunTask", 25.0));
    let imp = import(&serde_json::to_vec(&ev).unwrap()).unwrap();
    assert_eq!(imp.workload.work, vec![10.0, 15.0]);
    assert_eq!(imp.workload.arrival, vec![0.0, 10.0]);
}

#[test]
fn unterminated_tasks_are_clipped_at_the_end_and_flagged() {
    let mut ev = renderer(5, 3, &[(0.0, 10.0)]);
    ev.push(be("B", 5, 3, "RunTask", 20.0));
    // Another thread's event sets the trace's end at 50 ms.
    ev.push(x(5, 9, "Other", 45.0, 5.0));
    let imp = import(&serde_json::to_vec(&ev).unwrap()).unwrap();
    assert_eq!(imp.workload.work, vec![10.0, 30.0]);
    assert_eq!(imp.found.unterminated, 1);
    // An X without dur, the same.
    let mut ev = renderer(5, 3, &[(0.0, 10.0)]);
    ev.push(json!({"ph": "X", "name": "RunTask", "pid": 5, "tid": 3, "ts": T0 + 20_000.0}));
    ev.push(x(5, 9, "Other", 30.0, 10.0));
    let imp = import(&serde_json::to_vec(&ev).unwrap()).unwrap();
    assert_eq!(imp.workload.work, vec![10.0, 20.0]);
    assert_eq!(imp.found.unterminated, 1);
    assert!(imp
        .found
        .lines(tailslice::text::Lang::En)
        .join("\n")
        .contains("1 without an end"));
}

#[test]
fn overlapping_tasks_are_clipped_to_the_next_start() {
    let ev = renderer(5, 3, &[(0.0, 10.0), (8.0, 5.0), (20.0, 1.0)]);
    let imp = import(&serde_json::to_vec(&ev).unwrap()).unwrap();
    assert_eq!(imp.workload.work, vec![8.0, 5.0, 1.0]);
    assert_eq!(imp.found.clipped, 1);
}

#[test]
fn instant_task_events_are_not_tasks() {
    let mut ev = renderer(5, 3, &[(0.0, 10.0)]);
    ev.push(
        json!({"ph": "I", "name": "RunTask", "pid": 5, "tid": 3, "ts": T0 + 30_000.0, "s": "t"}),
    );
    let imp = import(&serde_json::to_vec(&ev).unwrap()).unwrap();
    assert_eq!(imp.found.tasks, 1);
    assert_eq!(imp.found.instant_skipped, 1);
}

#[test]
fn the_main_frame_picks_among_several_renderers() {
    // Three renderers, tid 1 in each (tids repeat across processes); the
    // main frame starts in pid 20 and commits again in pid 30.
    let mut ev = vec![started_in_browser(20)];
    ev.extend(renderer(
        10,
        1,
        &[(0.0, 1.0), (2.0, 1.0), (4.0, 1.0), (6.0, 1.0)],
    ));
    ev.extend(renderer(20, 1, &[(0.0, 50.0)]));
    ev.extend(renderer(30, 1, &[(60.0, 7.0), (70.0, 3.0)]));
    ev.push(meta(1, 1, "CrBrowserMain"));
    ev.push(x(1, 1, "RunTask", 0.0, 2.0));
    ev.push(json!({"ph": "I", "name": "FrameCommittedInBrowser", "pid": 1, "tid": 1, "ts": T0 + 55_000.0,
                   "args": {"data": {"frame": "MAIN", "processId": 30, "url": "https://example.com/2"}}}));
    let bytes = object_form(ev);
    let parsed = ParsedTrace::parse(&bytes).unwrap();
    let ids: Vec<&str> = parsed.candidates().iter().map(|c| c.id.as_str()).collect();
    // Main-frame threads first (most tasks first), then other renderers, then the browser.
    assert_eq!(ids, vec!["30:1", "20:1", "10:1", "1:1"]);
    assert!(parsed.candidates()[0].main_frame && parsed.candidates()[1].main_frame);
    assert!(!parsed.candidates()[2].main_frame);
    let imp = parsed.extract(&TraceOptions::default()).unwrap();
    assert_eq!(imp.found.thread, "30:1");
    assert_eq!(imp.workload.work, vec![7.0, 3.0]);
    assert_eq!(imp.found.threads.len(), 4);
    // Another thread by --thread.
    let pick = TraceOptions {
        thread: Some(parse_thread("--thread", "10:1").unwrap()),
        ..TraceOptions::default()
    };
    assert_eq!(parsed.extract(&pick).unwrap().found.tasks, 4);
    let missing = TraceOptions {
        thread: Some(parse_thread("--thread", "10:2").unwrap()),
        ..TraceOptions::default()
    };
    let e = parsed.extract(&missing).unwrap_err();
    assert!(
        e.to_string().contains("10:2") && e.to_string().contains("30:1 (CrRendererMain, 2 tasks)"),
        "{e}"
    );
    assert!(parse_thread("--thread", "ten").is_err());
    assert!(parse_thread("--thread", "1:").is_err());
}

#[test]
fn tracing_started_in_page_and_single_process_fallbacks() {
    let mut ev = vec![
        json!({"ph": "I", "name": "TracingStartedInPage", "pid": 20, "tid": 1, "ts": T0, "args": {"data": {"page": "P"}}}),
    ];
    ev.extend(renderer(10, 1, &[(0.0, 1.0), (2.0, 1.0)]));
    ev.extend(renderer(20, 1, &[(0.0, 9.0)]));
    let imp = import(&serde_json::to_vec(&ev).unwrap()).unwrap();
    assert_eq!(imp.found.thread, "20:1");
    // No renderer at all: the browser's main thread (single-process).
    let ev = vec![meta(1, 4, "CrBrowserMain"), x(1, 4, "RunTask", 0.0, 3.0)];
    let imp = import(&serde_json::to_vec(&ev).unwrap()).unwrap();
    assert_eq!(imp.found.thread, "1:4");
}

#[test]
fn arrivals_at_t0_and_the_recorded_baseline() {
    let ev = renderer(7, 1, &[(0.0, 120.0), (130.0, 30.0), (170.0, 5.0)]);
    let bytes = serde_json::to_vec(&ev).unwrap();
    let t0 = import_trace(
        &bytes,
        &TraceOptions {
            arrivals: TraceArrivals::T0,
            ..TraceOptions::default()
        },
    )
    .unwrap();
    assert_eq!(t0.workload.arrival, vec![0.0; 3]);
    let exp = Experiment {
        tasks: 3,
        policies: vec![PolicyKind::Fifo, PolicyKind::Rr],
        ..Experiment::default()
    };
    // Recorded latencies are the durations, with either arrivals.
    let rec = recorded::summary(&t0.recorded_start, &t0.recorded, exp.within);
    assert!(close(rec.mean, 155.0 / 3.0));
    assert_eq!(rec.max, 120.0);
    assert_eq!(rec.done_within, 2);
    let out = exp
        .run_on(t0.workload.clone(), &Limits::CLI, false)
        .unwrap();
    let report = recorded::report(&out, &rec);
    assert_eq!(report.results[0].policy, RowPolicy::Recorded);
    assert_eq!(
        report.results[1].policy,
        RowPolicy::Simulated(PolicyKind::Fifo)
    );
    assert_eq!(report.tasks, 3);
    // With the recorded starts, FIFO on one core reproduces the recording.
    let imp = import(&bytes).unwrap();
    let rec = recorded::summary(&imp.recorded_start, &imp.recorded, exp.within);
    let out = exp
        .run_on(imp.workload.clone(), &Limits::CLI, false)
        .unwrap();
    assert_eq!(out.runs[0].summary.mean, rec.mean);
    assert_eq!(out.runs[0].summary.makespan, rec.makespan);
}

#[test]
fn many_child_names_share_sixteen_classes() {
    let mut ev = renderer(5, 3, &[]);
    for i in 0..40 {
        let s = i as f64 * 10.0;
        ev.push(x(5, 3, "RunTask", s, 5.0));
        ev.push(x(5, 3, &format!("Child,#{}", i % 20), s + 1.0, 1.0));
    }
    let imp = import(&serde_json::to_vec(&ev).unwrap()).unwrap();
    assert_eq!(imp.workload.class_labels.len(), 16);
    assert_eq!(imp.workload.class_labels.last().unwrap(), "other");
    assert!(imp
        .workload
        .class_labels
        .iter()
        .all(|l| !l.contains(',') && !l.contains('#')));
}

fn err(bytes: &[u8]) -> String {
    import(bytes).unwrap_err().to_string()
}

#[test]
fn what_is_not_a_trace_is_told_apart() {
    assert!(err(b"").contains("empty"));
    assert!(err(b"hello").contains("not a trace"));
    let e = err(br#"{"nodes":[{"id":1}],"startTime":1,"endTime":2,"samples":[1]}"#);
    assert!(e.contains("CPU profile"), "{e}");
    let e = err(br#"[{"type":"Program","startTime":1,"endTime":2,"children":[]}]"#);
    assert!(e.contains("legacy DevTools Timeline"), "{e}");
    let e = err(br#"{"hello":"world","n":[1,2,3]}"#);
    assert!(e.contains("traceEvents") && e.contains("hello"), "{e}");
    assert!(err(b"[1,2,3]").contains("not a trace"));
    assert!(err(b"[]").contains("no events"));
    assert!(err(br#"{"traceEvents":{"a":1}}"#).contains("must be an array"));
}

#[test]
fn malformed_traces_get_one_clear_message() {
    let good = object_form(renderer(7, 1, &[(0.0, 10.0), (20.0, 5.0)]));
    // Truncated anywhere in the middle.
    for cut in [10, good.len() / 2, good.len() - 2] {
        let e = err(&good[..cut]);
        assert!(
            e.contains("cut short") || e.contains("not valid JSON"),
            "{cut}: {e}"
        );
    }
    assert!(err(&good[..good.len() / 2]).contains("cut short"));
    // No renderer main thread.
    let e = err(&serde_json::to_vec(&vec![
        meta(1, 2, "Compositor"),
        x(1, 2, "RunTask", 0.0, 1.0),
    ])
    .unwrap());
    assert!(e.contains("no renderer main thread"), "{e}");
    let e = err(&serde_json::to_vec(&vec![
        meta(1, 2, "CrRendererMain"),
        x(1, 2, "Paint", 0.0, 1.0),
    ])
    .unwrap());
    assert!(e.contains("no main-thread tasks"), "{e}");
    // Missing or non-numeric fields name the event and the field.
    let e = err(br#"[{"ph":"X","name":"RunTask","pid":1,"tid":1,"dur":5}]"#);
    assert_eq!(e, "event 1 ('RunTask'): 'ts' is missing");
    let e = err(br#"[{"ph":"M","name":"x"},{"ph":"X","name":"RunTask","pid":1,"tid":1,"ts":"soon","dur":5}]"#);
    assert_eq!(e, "event 2 ('RunTask'): 'ts' must be a number of µs");
    let e = err(br#"[{"ph":"X","name":"RunTask","pid":"one","tid":1,"ts":1,"dur":5}]"#);
    assert!(e.contains("'pid' must be a whole number"), "{e}");
    let e = err(br#"[{"ph":"X","name":"RunTask","pid":1,"tid":1,"ts":1,"dur":[5]}]"#);
    assert!(e.contains("'dur' must be a number"), "{e}");
    let e = err(br#"[{"ph":"X","name":"RunTask","pid":1,"tid":1,"ts":1,"dur":-5}]"#);
    assert!(e.contains("negative"), "{e}");
    let e = err(br#"[{"ph":7,"name":"RunTask"}]"#);
    assert!(e.contains("'ph' must be text"), "{e}");
    // Deep nesting: serde_json skips unread values without recursion, so a
    // deep value in any field is passed over and the trace still opens;
    // deep arrays instead of events are not a trace; unclosed is cut short.
    for field in ["args", "cat"] {
        let deep = format!(
            "[{},{{\"ph\":\"X\",\"name\":\"RunTask\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":5,\"{field}\":{}{}}}]",
            meta(1, 1, "CrRendererMain"),
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert_eq!(import(deep.as_bytes()).unwrap().workload.work, vec![0.005]);
    }
    let deep = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
    assert!(err(deep.as_bytes()).contains("not a trace"));
    let deep = format!(
        "{{\"traceEvents\":[{{\"ph\":{}1{}}}]}}",
        "{\"a\":".repeat(100_000),
        "}".repeat(100_000)
    );
    let e = err(deep.as_bytes());
    assert!(e.contains("'ph' must be text"), "{e}");
    assert!(err("[".repeat(1_000_000).as_bytes()).contains("cut short"));
    // Trailing garbage after the JSON.
    let mut trailing = good.clone();
    trailing.extend_from_slice(b" xyz");
    assert!(err(&trailing).contains("not valid JSON"));
    // A thread with more tasks than allowed.
    let many = import_trace(
        &good,
        &TraceOptions {
            max_tasks: 1,
            ..TraceOptions::default()
        },
    )
    .unwrap_err();
    assert!(
        many.to_string().contains("at most 1 are accepted"),
        "{many}"
    );
}

#[test]
fn summary_sentences_in_both_languages() {
    let ev = renderer(7, 1, &[(0.0, 120.0), (130.0, 30.0), (170.0, 5.0)]);
    let imp = import(&serde_json::to_vec(&ev).unwrap()).unwrap();
    let en = imp.found.lines(tailslice::text::Lang::En).join("\n");
    assert!(
        en.contains("thread 7:1 (CrRendererMain, process Renderer)"),
        "{en}"
    );
    assert!(
        en.contains("3 tasks over 175.0 ms, busy 155.0 ms (89 %); 1 long tasks"),
        "{en}"
    );
    assert!(en.contains("total blocking time 70.0 ms"), "{en}");
    let zh = imp.found.lines(tailslice::text::Lang::Zh).join("\n");
    assert!(zh.contains("3 个任务，历时 175.0 ms"), "{zh}");
    assert!(zh.contains("总阻塞时间 70.0 ms"), "{zh}");
}

/// Names from the file are shown, never obeyed: a bidirectional override
/// in a task's name, or a control character in a thread's, cannot reorder
/// or break the summary and the messages around them.
#[test]
fn hostile_names_are_shown_not_obeyed() {
    let mut ev = vec![
        meta(7, 1, "CrRendererMain"),
        proc_name(7, "\u{7f}Evil\u{202E}"),
    ];
    ev.push(x(7, 1, "RunTask", 0.0, 80.0));
    ev.push(x(7, 1, "gnp.\u{202E}exe\u{2066}", 0.5, 20.0));
    let imp = import(&serde_json::to_vec(&ev).unwrap()).unwrap();
    for lang in tailslice::text::Lang::ALL {
        for line in imp.found.lines(lang) {
            assert!(
                !line.chars().any(tailslice::error::is_hidden_char),
                "{line:?}"
            );
        }
    }
    assert_eq!(imp.found.longest[0].label, "gnp. exe");
    assert_eq!(imp.found.process_name, "\\u{7f}Evil\\u{202e}");
    // A thread named with a control character is not the main thread, and
    // the message that says so is one clean line.
    let ev = vec![
        meta(3, 3, "\u{7f}CrRendererMain"),
        x(3, 3, "RunTask", 0.0, 5.0),
    ];
    let e = err(&serde_json::to_vec(&ev).unwrap());
    assert!(e.contains("\\u{7f}CrRendererMain"), "{e}");
    assert!(!e.chars().any(tailslice::error::is_hidden_char), "{e:?}");
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        prop_oneof![
            Just("X"),
            Just("B"),
            Just("E"),
            Just("M"),
            Just("I"),
            Just("RunTask"),
            Just("thread_name"),
            Just("CrRendererMain"),
            Just("TracingStartedInBrowser"),
            Just("")
        ]
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("ph"),
                        Just("name"),
                        Just("pid"),
                        Just("tid"),
                        Just("ts"),
                        Just("dur"),
                        Just("args"),
                        Just("data"),
                        Just("frames"),
                        Just("frame"),
                        Just("parent"),
                        Just("processId"),
                        Just("traceEvents"),
                        Just("nodes"),
                        Just("type")
                    ],
                    inner
                ),
                0..8
            )
            .prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = import(&bytes);
        let mut gz = trace::GZIP_MAGIC.to_vec();
        gz.extend_from_slice(&bytes);
        let _ = import(&gz);
    }

    #[test]
    fn arbitrary_json_never_panics(v in arb_json()) {
        let text = serde_json::to_vec(&v).unwrap();
        let _ = import(&text);
        let wrapped = serde_json::to_vec(&json!({"traceEvents": v})).unwrap();
        if let Ok(imp) = import(&wrapped) {
            prop_assert_eq!(imp.workload.len(), imp.found.tasks);
            prop_assert!(imp.workload.work.iter().all(|w| w.is_finite() && *w >= 0.0));
        }
    }

    #[test]
    fn generated_tasks_come_back_exactly(tasks in prop::collection::vec((0.0f64..50.0, 0.0f64..80.0), 1..30)) {
        // Non-overlapping tasks at µs resolution, gaps of at least 1 µs.
        let mut t = 0.0;
        let mut list = Vec::new();
        for (gap, dur) in &tasks {
            let start = t + (gap * 1000.0).round() / 1000.0 + 0.001;
            let d = (dur * 1000.0).round() / 1000.0;
            list.push((start, d));
            t = start + d;
        }
        let imp = import(&serde_json::to_vec(&renderer(3, 3, &list)).unwrap()).unwrap();
        prop_assert_eq!(imp.workload.len(), list.len());
        for (i, (s, d)) in list.iter().enumerate() {
            prop_assert!((imp.workload.work[i] - d).abs() < 1e-6);
            prop_assert!((imp.workload.arrival[i] - (s - list[0].0)).abs() < 1e-6);
        }
    }
}

/// The page's readable summary is the CLI's lines without the longest
/// tasks' list, which it shows as a table of the same tasks (with their
/// index, to find them in the schedule).
#[test]
fn the_summary_without_its_longest_tasks() {
    let ev = renderer(7, 1, &[(0.0, 120.0), (130.0, 30.0), (170.0, 5.0)]);
    let imp = import(&serde_json::to_vec(&ev).unwrap()).unwrap();
    for lang in tailslice::text::Lang::ALL {
        let all = imp.found.lines(lang);
        let summary = imp.found.summary_lines(lang);
        assert_eq!(summary.len(), all.len() - 1 - imp.found.longest.len());
        assert_eq!(&all[..summary.len()], &summary[..]);
    }
    let tasks: Vec<usize> = imp.found.longest.iter().map(|l| l.task).collect();
    assert_eq!(tasks, [0, 1, 2]);
}

#[test]
fn broken_event_timing_entries_never_stop_the_tasks() {
    // Every kind of broken EventTiming entry, and one in another process:
    // the tasks import as before, the entries are counted, none is kept.
    let mut events = renderer(7, 1, &[(0.0, 120.0), (130.0, 30.0)]);
    let entry = |pid: Value, ts: Value, args: Value| json!({"ph": "b", "name": "EventTiming", "pid": pid, "tid": 1, "ts": ts, "args": args});
    let data = |d: Value| json!({ "data": d });
    for e in [
        entry(json!(7), json!(1000.0), json!({})),
        entry(json!(7), json!(1000.0), json!("text")),
        entry(json!(7), json!("soon"), data(json!({"type": "click"}))),
        entry(json!(1.5), json!(1000.0), data(json!({"type": "click"}))),
        entry(
            json!(7),
            json!(1000.0),
            data(
                json!({"type": "click", "interactionId": -1, "timeStamp": 1, "processingStart": 1, "processingEnd": 1, "duration": 8}),
            ),
        ),
        entry(
            json!(7),
            json!(1000.0),
            data(
                json!({"type": "click", "interactionId": 2, "timeStamp": 1e20, "processingStart": 1e20, "processingEnd": 1e20, "duration": 8}),
            ),
        ),
        entry(
            json!(7),
            json!(1000.0),
            data(
                json!({"type": "click", "interactionId": 2, "timeStamp": 5, "processingStart": 9, "processingEnd": 7, "duration": 8}),
            ),
        ),
        entry(
            json!(9),
            json!(1000.0),
            data(
                json!({"type": "click", "interactionId": 2, "timeStamp": 5, "processingStart": 6, "processingEnd": 7, "duration": 8}),
            ),
        ),
    ] {
        events.push(e);
    }
    let imp = import(&object_form(events)).unwrap();
    assert_eq!(imp.found.tasks, 2);
    assert!(close(imp.recorded[0], 120.0));
    let it = &imp.interactions;
    assert!(it.list.is_empty() && it.inp.is_none());
    assert_eq!(it.skipped.malformed, 5);
    // Processing before it starts; a page clock 10^20 ms on.
    assert_eq!(it.skipped.impossible, 2);
    assert_eq!(imp.handler, [false, false]);
}
