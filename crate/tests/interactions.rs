//! A trace's real interactions, read from small synthetic traces built
//! here: grouping by `interactionId`, copies of one entry counted once, the
//! three phases by web-vitals' attribution, INP's one-per-50 rule, the
//! handler tasks marked, the model reproducing a recorded input delay,
//! sliced predictions against hand-computed values, and hostile entries
//! (floods, impossible times, missing fields) skipped and counted.

use std::io::Write;
use std::time::Duration;

mod cpu_budget;

use serde_json::{json, Value};
use tailslice::responsiveness::interactions::{input_delays, sliced_presentation};
use tailslice::responsiveness::plan::Plan;
use tailslice::responsiveness::report::MAX_CHUNKS;
use tailslice::responsiveness::{Answer, Settings, Source, Task, YieldKind, Yielding};
use tailslice::trace::interactions::{Kind, MAX_INTERACTIONS};
use tailslice::trace::{import_trace, TraceImport, TraceOptions};

/// The trace clock's origin, µs (real traces' times are this large).
const T0: f64 = 123_456_000_000.0;
/// The page clock's time (ms) at `T0`.
const PAGE0: f64 = 5_000.0;

/// A trace builder: one renderer main thread (pid 1, tid 1).
struct Trace {
    events: Vec<Value>,
}

impl Trace {
    fn new() -> Trace {
        Trace {
            events: vec![
                json!({"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "CrRendererMain"}}),
            ],
        }
    }

    /// A top-level task at `start` ms lasting `dur` ms, its first event
    /// named `child`.
    fn task(mut self, start: f64, dur: f64, child: &str) -> Trace {
        let ts = T0 + start * 1000.0;
        self.events.push(
            json!({"ph": "X", "name": "RunTask", "pid": 1, "tid": 1, "ts": ts, "dur": dur * 1000.0}),
        );
        self.events.push(
            json!({"ph": "X", "name": child, "pid": 1, "tid": 1, "ts": ts, "dur": dur * 1000.0}),
        );
        self
    }

    /// A rendering (or any other) event inside a task.
    fn event(mut self, name: &str, start: f64, dur: f64) -> Trace {
        self.events
            .push(json!({"ph": "X", "name": name, "pid": 1, "tid": 1,
            "ts": T0 + start * 1000.0, "dur": dur * 1000.0}));
        self
    }

    /// An Event Timing entry: the input at `at` ms on the trace's timeline,
    /// processing from `ps` to `pe` ms after it, presented `dur` ms after it.
    fn timing(mut self, id: u64, kind: &str, at: f64, ps: f64, pe: f64, dur: f64) -> Trace {
        let stamp = PAGE0 + at;
        self.events.push(
            json!({"ph": "b", "cat": "devtools.timeline", "name": "EventTiming",
            "id2": {"local": "0x1"}, "pid": 1, "tid": 1, "ts": T0 + at * 1000.0,
            "args": {"data": {"type": kind, "interactionId": id, "timeStamp": stamp,
                "processingStart": stamp + ps, "processingEnd": stamp + pe, "duration": dur,
                "cancelable": true}}}),
        );
        self.events.push(json!({"ph": "e", "cat": "devtools.timeline", "name": "EventTiming",
            "id2": {"local": "0x1"}, "pid": 1, "tid": 1, "ts": T0 + (at + dur) * 1000.0, "args": {}}));
        self
    }

    fn raw(mut self, v: Value) -> Trace {
        self.events.push(v);
        self
    }

    fn bytes(&self) -> Vec<u8> {
        serde_json::to_vec(&json!({ "traceEvents": self.events })).unwrap()
    }

    fn import(&self) -> TraceImport {
        import_trace(&self.bytes(), &TraceOptions::default()).unwrap()
    }
}

/// A 100 ms script task; a click at 30 ms handled in a 20 ms task (100–120)
/// holding pointerdown, pointerup and click; 150 ms of other script after
/// it; a rendering task with 8 ms of style, layout and paint; the frame
/// presented at 286 ms (latency 256).
fn click_trace() -> Trace {
    Trace::new()
        .task(0.0, 100.0, "FunctionCall")
        .task(100.0, 20.0, "EventDispatch")
        .task(120.0, 150.0, "TimerFire")
        .task(270.0, 10.0, "UpdateLayoutTree")
        .event("Layout", 272.0, 5.0)
        .event("Paint", 277.0, 3.0)
        .task(400.0, 5.0, "FunctionCall")
        .timing(7, "pointerdown", 30.0, 70.0, 75.0, 256.0)
        .timing(7, "pointerup", 30.0, 75.0, 80.0, 256.0)
        .timing(7, "click", 30.0, 80.0, 90.0, 256.0)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn one_click_reads_as_three_phases_on_the_tasks_timeline() {
    let imp = click_trace().import();
    let it = &imp.interactions;
    assert_eq!(it.list.len(), 1);
    let i = &it.list[0];
    assert_eq!((i.id, i.kind), (7, Kind::TapClick));
    assert_eq!(i.events, ["pointerdown", "pointerup", "click"]);
    assert!(close(i.start_ms, 30.0));
    assert_eq!(i.latency_ms, 256.0);
    // Input delay: the first entry's processingStart − timeStamp.
    assert!(close(i.input_delay_ms, 70.0));
    // Processing: from there to the frame's last processingEnd (90).
    assert!(close(i.processing_ms, 20.0));
    assert!(close(i.presentation_ms, 256.0 - 70.0 - 20.0));
    assert!(close(i.processing_end_at_ms, 120.0));
    assert!(close(i.paint_at_ms, 286.0));
    // It waited behind task 0, ran in task 1, then tasks 2 and 3 ran
    // before the paint: 160 ms of them, 10 of it rendering.
    assert_eq!(i.waited_behind, Some(0));
    assert_eq!(i.handlers, [1]);
    assert_eq!(i.after, [2, 3]);
    assert!(close(i.rendering_ms, 10.0), "{}", i.rendering_ms);
    assert!(close(i.script_after_ms, 150.0));
    assert_eq!(imp.handler, [false, true, false, false, false]);
    assert_eq!(it.inp.unwrap().latency_ms, 256.0);
    // The handler is marked where the longest tasks are listed.
    let lines = imp.found.lines(tailslice::text::Lang::En).join("\n");
    assert!(
        lines.contains("EventDispatch  (an interaction's own handler)"),
        "{lines}"
    );
    let marked: Vec<bool> = imp.found.longest.iter().map(|l| l.handler).collect();
    let tasks: Vec<usize> = imp.found.longest.iter().map(|l| l.task).collect();
    for (t, m) in tasks.iter().zip(&marked) {
        assert_eq!(*m, *t == 1);
    }
}

#[test]
fn copies_of_one_entry_count_once_and_ids_group() {
    let t = click_trace()
        .timing(7, "click", 30.0, 80.0, 90.0, 256.0)
        .timing(7, "click", 30.0, 80.0, 90.0, 256.0)
        // Not an interaction: grouped with nothing, but in the frame.
        .timing(0, "pointerover", 30.0, 60.0, 95.0, 256.0)
        .timing(9, "keydown", 350.0, 1.0, 3.0, 16.0)
        .timing(9, "keyup", 360.0, 0.5, 1.0, 8.0);
    let imp = t.import();
    let it = &imp.interactions;
    assert_eq!(it.duplicates, 2);
    assert_eq!(it.entries, 3 + 1 + 2);
    assert_eq!(it.list.len(), 2);
    // The non-interaction entry shares the frame: processing runs to 95.
    assert!(close(it.list[0].processing_ms, 25.0));
    let k = &it.list[1];
    assert_eq!((k.id, k.kind), (9, Kind::Keyboard));
    assert_eq!(k.latency_ms, 16.0);
    assert!(close(k.input_delay_ms, 1.0));
    assert_eq!(k.waited_behind, None);
    assert_eq!(k.handlers, Vec::<usize>::new());
}

#[test]
fn inp_skips_one_interaction_per_fifty() {
    // 120 interactions, latencies 8, 16, …, 960: INP is the third worst.
    let mut t = Trace::new().task(0.0, 1.0, "FunctionCall");
    for k in 0..120u64 {
        let at = 10.0 + k as f64 * 1000.0;
        let lat = 8.0 * (k + 1) as f64;
        t = t.timing(k + 1, "click", at, 1.0, 2.0, lat);
    }
    let it = t.import().interactions;
    assert_eq!(it.list.len(), 120);
    let inp = it.inp.unwrap();
    assert_eq!(inp.latency_ms, 8.0 * 118.0);
    assert_eq!(it.list[inp.interaction].id, 118);
}

#[test]
fn the_model_reproduces_a_recorded_input_delay_and_predicts_slicing() {
    let imp = click_trace().import();
    let tasks = Task::from_columns(&imp.recorded_start, &imp.recorded);
    let list = &imp.interactions.list;
    // As recorded, with no transit: the rest of task 0 at 30 ms is 70 ms,
    // the recorded input delay.
    let d = input_delays(&tasks, &Plan::Recorded, list, 0.0);
    assert!(close(d[0], list[0].input_delay_ms));
    // With a 0.9 ms transit: it reaches the thread at 30.9 and waits the
    // 69.1 ms left, 70 ms in all.
    let d = input_delays(&tasks, &Plan::Recorded, list, 0.9);
    assert!(close(d[0], 70.0));
    // Sliced at 16 ms with scheduler.yield() costing 0.1: task 0 runs
    // 0–16, 16.1–32.1: 1.2 ms left at 30.9, + 0.9.
    let settings = Settings {
        yielding: Yielding::new(YieldKind::Scheduler, 0.1),
        quanta: vec![16.0, 50.0],
        ..Settings::default()
    };
    let a = Answer::new(&tasks, &settings, Source::Trace, MAX_CHUNKS)
        .unwrap()
        .with_interactions(&tasks, &imp.interactions, &imp.handler, MAX_CHUNKS)
        .unwrap();
    let m = a.interactions.as_ref().unwrap();
    assert!(close(m.modelled[0].model_input_delay_ms, 70.0));
    let s16 = m.modelled[0].sliced[0];
    assert_eq!(s16.quantum_ms, 16.0);
    assert!(close(s16.input_delay_ms, 2.1), "{s16:?}");
    // Presentation: 166 ms, of which 150 behind script; sliced, one piece.
    assert!(close(s16.presentation_ms, 166.0 - 150.0 + 16.0));
    assert!(close(s16.latency_ms, 2.1 + 20.0 + 32.0));
    assert!(close(sliced_presentation(&list[0], 50.0), 66.0));
    // 50 ms: task 0 runs 0–50, so 19.1 ms left at 30.9.
    let s50 = m.modelled[0].sliced[1];
    assert!(close(s50.input_delay_ms, 19.1 + 0.9));
    // Its handlers yielding instead (the other tasks whole): the recorded
    // 70 ms input delay, 16 of its 20 ms of processing, the 166 ms
    // presentation less the 150 ms behind script.
    let h = m.modelled[0].handlers_yield[0];
    assert!(close(h.latency_ms, 70.0 + 16.0 + 16.0), "{h:?}");
    assert!(close(
        m.modelled[0].handlers_yield[1].latency_ms,
        70.0 + 20.0 + 16.0
    ));
    assert_eq!(m.inp_handlers_yield_ms.len(), 2);
    assert!(close(m.inp_handlers_yield_ms[0].unwrap(), 102.0));
    // INP per row: recorded, then each plan's.
    assert_eq!(a.inp(0), Some(256.0));
    assert!(close(a.inp(1).unwrap(), s16.latency_ms));
    assert!(close(a.inp(2).unwrap(), s50.latency_ms));
    // The rows without handlers leave task 1 out, over the same window.
    let other = a.without_handlers.as_ref().unwrap();
    assert_eq!(other.report.window, a.report.window);
    assert_eq!(other.report.tasks, a.report.tasks - 1);
    assert!(other.report.recorded().input_delay_ms.mean < a.report.recorded().input_delay_ms.mean);
    // The old rows are the same with or without interactions.
    let plain = Answer::new(&tasks, &settings, Source::Trace, MAX_CHUNKS).unwrap();
    assert_eq!(plain.report, a.report);
    // The JSON's contract.
    let v = serde_json::to_value(a.json(tailslice::text::Lang::En)).unwrap();
    let j = &v["interactions"][0];
    for k in [
        "id",
        "kind",
        "start_ms",
        "latency_ms",
        "input_delay_ms",
        "processing_ms",
        "presentation_ms",
        "model_input_delay_ms",
    ] {
        assert!(!j[k].is_null(), "{k}");
    }
    assert_eq!(j["kind"], "tap-click");
    for k in [
        "quantum_ms",
        "latency_ms",
        "input_delay_ms",
        "presentation_ms",
    ] {
        assert!(j["sliced"][0][k].is_f64(), "{k}");
    }
    assert_eq!(v["rows"][0]["inp_ms"], 256.0);
    assert_eq!(
        v["rows_without_handlers"][0]["obstacles"],
        "all_but_handlers"
    );
}

#[test]
fn a_trace_without_event_timing_says_so() {
    let imp = Trace::new().task(0.0, 80.0, "FunctionCall").import();
    let it = &imp.interactions;
    assert!(it.list.is_empty() && it.inp.is_none());
    let en = it.lines(tailslice::text::Lang::En).join("\n");
    assert!(en.contains("no EventTiming events"), "{en}");
    let zh = it.lines(tailslice::text::Lang::Zh).join("\n");
    assert!(zh.contains("不含 EventTiming"), "{zh}");
    // Entries but no interaction: said differently.
    let imp = Trace::new()
        .task(0.0, 80.0, "FunctionCall")
        .timing(0, "pointermove", 10.0, 1.0, 2.0, 8.0)
        .import();
    let en = imp.interactions.lines(tailslice::text::Lang::En).join("\n");
    assert!(en.contains("but no interaction"), "{en}");
}

#[test]
fn gzip_traces_carry_their_interactions() {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&click_trace().bytes()).unwrap();
    let gz = enc.finish().unwrap();
    let imp = import_trace(&gz, &TraceOptions::default()).unwrap();
    assert_eq!(imp.interactions.list.len(), 1);
}

#[test]
fn broken_entries_are_skipped_and_counted() {
    let entry = |data: Value| {
        json!({"ph": "b", "name": "EventTiming", "pid": 1, "tid": 1, "ts": T0 + 5000.0,
            "args": {"data": data}})
    };
    let imp = click_trace()
        // Missing fields, a string id, no args at all.
        .raw(entry(json!({"type": "click", "interactionId": 3})))
        .raw(entry(json!({"type": "click", "interactionId": "3", "timeStamp": 1, "processingStart": 1, "processingEnd": 1, "duration": 8})))
        .raw(json!({"ph": "b", "name": "EventTiming", "pid": 1, "tid": 1, "ts": T0}))
        .raw(json!({"ph": "b", "name": "EventTiming", "pid": "x", "tid": 1, "ts": T0, "args": {}}))
        // processingEnd before processingStart; processing before the
        // input; negative and huge durations.
        .raw(entry(json!({"type": "click", "interactionId": 3, "timeStamp": 10, "processingStart": 20, "processingEnd": 15, "duration": 8})))
        .raw(entry(json!({"type": "click", "interactionId": 3, "timeStamp": 10, "processingStart": 5, "processingEnd": 15, "duration": 8})))
        .raw(entry(json!({"type": "click", "interactionId": 3, "timeStamp": 10, "processingStart": 10, "processingEnd": 15, "duration": -8})))
        .raw(entry(json!({"type": "click", "interactionId": 3, "timeStamp": 10, "processingStart": 10, "processingEnd": 15, "duration": 1e300})))
        // Presented long after the trace's last event (no `e` event).
        .raw(json!({"ph": "b", "name": "EventTiming", "pid": 1, "tid": 1, "ts": T0 + 300_000.0,
            "args": {"data": {"type": "click", "interactionId": 4, "timeStamp": PAGE0 + 300.0,
                "processingStart": PAGE0 + 301.0, "processingEnd": PAGE0 + 302.0, "duration": 50_000}}}))
        .import();
    let it = &imp.interactions;
    assert_eq!(it.list.len(), 1, "{:?}", it.list);
    assert_eq!(it.skipped.malformed, 4);
    assert_eq!(it.skipped.impossible, 4);
    assert_eq!(it.skipped.past_end, 1);
    let en = it.lines(tailslice::text::Lang::En).join("\n");
    assert!(
        en.contains("4 malformed, 4 with impossible times, 1 presented after the trace's end"),
        "{en}"
    );
}

#[test]
fn an_interaction_flood_is_bounded() {
    // More interactions than are kept, each one event: the earliest are
    // kept, the rest counted, and it takes no time to speak of.
    let n = MAX_INTERACTIONS + 500;
    let mut ev = vec![
        json!({"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "CrRendererMain"}}),
        json!({"ph": "X", "name": "RunTask", "pid": 1, "tid": 1, "ts": T0, "dur": 1e6}),
    ];
    for k in 0..n {
        let at = k as f64 * 0.05;
        ev.push(
            json!({"ph": "b", "name": "EventTiming", "pid": 1, "tid": 1, "ts": T0 + at * 1000.0,
            "args": {"data": {"type": "click", "interactionId": k + 1, "timeStamp": at,
                "processingStart": at, "processingEnd": at, "duration": 8}}}),
        );
    }
    let bytes = serde_json::to_vec(&json!({ "traceEvents": ev })).unwrap();
    // Every one shares one frame with hundreds of others and one task with
    // all: bounded scans, within a CPU budget with room to spare.
    let imp = cpu_budget::within("an interaction flood", Duration::from_secs(30), || {
        import_trace(&bytes, &TraceOptions::default()).unwrap()
    });
    assert_eq!(imp.interactions.list.len(), MAX_INTERACTIONS);
    assert_eq!(imp.interactions.not_kept, 500);
}

#[test]
fn one_interaction_with_thousands_of_entries_is_bounded() {
    // 5,000 distinct entries sharing one id, each processing across the
    // same 5,000 tasks: 64 are kept, the rest counted, and the tasks
    // looked at are bounded.
    let mut t = Trace::new();
    for k in 0..5000 {
        t = t.task(f64::from(k) * 2.0, 1.0, "FunctionCall");
    }
    for k in 0..5000 {
        let at = f64::from(k) * 0.001;
        t = t.raw(json!({"ph": "b", "name": "EventTiming", "pid": 1, "tid": 1, "ts": T0 + at * 1000.0,
            "args": {"data": {"type": "click", "interactionId": 3, "timeStamp": PAGE0 + at,
                "processingStart": PAGE0 + at, "processingEnd": PAGE0 + 9_000.0, "duration": 9_008}}}));
    }
    let bytes = t.bytes();
    let imp = cpu_budget::within(
        "5,000 entries of one interaction",
        Duration::from_secs(30),
        || import_trace(&bytes, &TraceOptions::default()).unwrap(),
    );
    let it = &imp.interactions;
    assert_eq!(it.list.len(), 1);
    assert_eq!(it.skipped.over_limit, 5000 - 64);
    assert_eq!(it.list[0].handlers.len(), 64);
}

#[test]
fn the_reading_says_where_the_model_and_the_trace_part() {
    use tailslice::responsiveness::interactions_text::reading;
    use tailslice::text::Lang;
    // A key press at 350 ms, when no task runs, recorded waiting 30 ms:
    // the model (0.9 ms of transit) cannot explain 29.1 ms of it.
    let imp = click_trace()
        .timing(9, "keydown", 350.0, 30.0, 32.0, 40.0)
        .import();
    let tasks = Task::from_columns(&imp.recorded_start, &imp.recorded);
    let a = Answer::new(&tasks, &Settings::default(), Source::Trace, MAX_CHUNKS)
        .unwrap()
        .with_interactions(&tasks, &imp.interactions, &imp.handler, MAX_CHUNKS)
        .unwrap();
    let en = reading(&a, Lang::En).join(" ");
    assert!(
        en.contains("within 2 ms of the recorded one for 1 of 2 interactions (largest gap 29.1 ms, interaction 9)"),
        "{en}"
    );
    assert!(
        en.contains(
            "Interaction 9 waited 29.1 ms longer than the task running when it arrived explains"
        ),
        "{en}"
    );
    // The worst interaction's reading names its dominant phase and the
    // script behind which its frame waited.
    assert!(
        en.starts_with("INP is 256.0 ms: interaction 7 (tap/click) at 30.0 ms"),
        "{en}"
    );
    assert!(en.contains("the presentation delay dominates"), "{en}");
    assert!(
        en.contains("150.0 ms of its presentation delay is other script"),
        "{en}"
    );
    assert!(!en.contains("Its own handlers run"), "{en}");
    let zh = reading(&a, Lang::Zh).join("");
    assert!(
        zh.contains("交互 9 比它到达时正在运行的任务所能解释的多等了 29.1 ms"),
        "{zh}"
    );
}

#[test]
fn a_long_handler_is_named_as_beyond_slicing() {
    use tailslice::responsiveness::interactions_text::reading;
    use tailslice::text::Lang;
    // The click's handler itself runs 120 ms.
    let imp = Trace::new()
        .task(0.0, 10.0, "FunctionCall")
        .task(20.0, 120.0, "EventDispatch")
        .task(300.0, 1.0, "FunctionCall")
        .timing(1, "click", 19.0, 1.0, 121.0, 136.0)
        .import();
    let i = &imp.interactions.list[0];
    assert!(close(i.processing_ms, 120.0));
    assert_eq!(i.handlers, [1]);
    let tasks = Task::from_columns(&imp.recorded_start, &imp.recorded);
    let a = Answer::new(&tasks, &Settings::default(), Source::Trace, MAX_CHUNKS)
        .unwrap()
        .with_interactions(&tasks, &imp.interactions, &imp.handler, MAX_CHUNKS)
        .unwrap();
    let en = reading(&a, Lang::En).join(" ");
    assert!(
        en.contains("Its own handlers run 120.0 ms: slicing the other tasks cannot shorten that"),
        "{en}"
    );
    assert!(en.contains("the processing dominates"), "{en}");
    // Slicing leaves its processing as recorded.
    let m = a.interactions.as_ref().unwrap();
    for s in &m.modelled[0].sliced {
        assert!(s.latency_ms >= 120.0, "{s:?}");
    }
}

#[test]
fn the_interactions_travel_as_json_and_back() {
    // The page reads the trace in one wasm module and models it in
    // another: what crosses between them must come back the same.
    let imp = click_trace().import();
    let text = serde_json::to_string(&imp.interactions).unwrap();
    let back: tailslice::trace::interactions::Interactions = serde_json::from_str(&text).unwrap();
    assert_eq!(back, imp.interactions);
}

/// An `EventTiming` entry that names its frame, as Chrome 103+ writes it.
fn framed(id: u64, kind: &str, at: f64, dur: f64) -> Value {
    let stamp = PAGE0 + at;
    json!({"ph": "b", "cat": "devtools.timeline", "name": "EventTiming", "pid": 1, "tid": 1,
        "ts": T0 + at * 1000.0,
        "args": {"data": {"type": kind, "interactionId": id, "timeStamp": stamp,
            "processingStart": stamp + 1.0, "processingEnd": stamp + 2.0, "duration": dur,
            "frame": "F"}}})
}

/// Chrome's summary of one interaction.
fn summary(args: Value) -> Value {
    json!({"ph": "X", "cat": "devtools.timeline", "name": "Responsiveness.Renderer.UserInteraction",
        "pid": 1, "tid": 1, "ts": T0 + 390_000.0, "dur": 5, "args": args})
}

#[test]
fn inp_is_lighthouses_when_chrome_summarised_the_interactions() {
    // Interaction 7 (256 ms) names no frame and Chrome did not summarise
    // it; interaction 9 did: maxDuration 100 for entries of 100.6 and
    // 99.9 ms. Lighthouse's INP is the entry closest to 100: 99.9.
    let imp = click_trace()
        .raw(framed(9, "pointerdown", 300.0, 100.6))
        .raw(framed(9, "pointerup", 300.0, 99.9))
        .raw(summary(
            json!({"data": {"interactionType": "tapOrClick", "maxDuration": 100}, "frame": "F"}),
        ))
        .import();
    let it = &imp.interactions;
    let inp = it.inp.unwrap();
    assert_eq!(inp.latency_ms, 99.9);
    assert_eq!(it.list[inp.interaction].id, 9);
    // Without the summary: web-vitals' rule, the worst latency.
    let imp = click_trace()
        .raw(framed(9, "pointerdown", 300.0, 100.6))
        .raw(framed(9, "pointerup", 300.0, 99.9))
        .import();
    assert_eq!(imp.interactions.inp.unwrap().latency_ms, 256.0);
}

#[test]
fn broken_or_flooding_chrome_summaries_fall_back_to_web_vitals() {
    let mut t = click_trace().raw(framed(9, "pointerdown", 300.0, 100.6));
    for args in [
        json!({"data": {"interactionType": "tapOrClick", "maxDuration": "100"}, "frame": "F"}),
        json!({"data": {"interactionType": "tapOrClick", "maxDuration": -100}, "frame": "F"}),
        json!({"data": {"interactionType": "tapOrClick", "maxDuration": 1e300}, "frame": "F"}),
        json!({"data": {"interactionType": "wave", "maxDuration": 100}, "frame": "F"}),
        json!({"data": {"maxDuration": 100}, "frame": "F"}),
        json!({"frame": "F"}),
        json!([1, 2]),
        json!(null),
    ] {
        t = t.raw(summary(args));
    }
    // A summary in another process (one with a broken pid is refused by
    // name, as any complete event with one is).
    t = t.raw(json!({"ph": "X", "name": "Responsiveness.Renderer.UserInteraction", "pid": 2, "tid": 1,
        "ts": T0, "dur": 1, "args": {"data": {"interactionType": "tapOrClick", "maxDuration": 100}, "frame": "F"}}));
    // wave: no such interactionType; Lighthouse would throw, tailslice
    // falls back. The other broken ones are ignored.
    let imp = t.import();
    assert_eq!(imp.interactions.inp.unwrap().latency_ms, 256.0);

    // A flood of summaries nothing matches (1 ms, entries of 100+ ms):
    // bounded, and web-vitals' rule again.
    let mut t = click_trace().raw(framed(9, "pointerdown", 300.0, 100.6));
    for _ in 0..5_000 {
        t = t.raw(summary(
            json!({"data": {"interactionType": "tapOrClick", "maxDuration": 1}, "frame": "F"}),
        ));
    }
    let imp = t.import();
    assert_eq!(imp.interactions.inp.unwrap().latency_ms, 256.0);
}
