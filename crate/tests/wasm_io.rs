//! The issue-5 page bindings in headless Chromium (wasm-bindgen-test):
//! imported tasks, exports, the experiment file, the explanation, sweeps.
//! `cargo test --target wasm32-unknown-unknown -p tailslice --test wasm_io`.
#![cfg(target_arch = "wasm32")]

use serde_json::Value;
use tailslice::experiment::Limits;
use tailslice::web::{self, QuantumSweep, Runner, SeedSweep, TaskList};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn json(v: &JsValue) -> Value {
    let s = js_sys::JSON::stringify(v).unwrap().as_string().unwrap();
    serde_json::from_str(&s).unwrap()
}

const LIST: &str = "arrival_ms,duration_ms,class\n0,5,ui\n0,40,io\n3,1.5,ui\n10,120,batch\n";

#[wasm_bindgen_test]
fn check_tasks_reports_counts_and_bad_lines() {
    let ok = json(&web::check_tasks("", LIST).unwrap());
    assert_eq!(ok["ok"], true);
    assert_eq!(ok["tasks"], 4);
    assert_eq!(ok["classes"], serde_json::json!(["ui", "io", "batch"]));
    let bad = json(&web::check_tasks("", "1\n2\nx\n").unwrap());
    assert_eq!(bad["ok"], false);
    assert_eq!(bad["line"], 3);
    assert!(bad["message"].as_str().unwrap().contains("'x'"));
    assert!(bad["message_zh"].as_str().unwrap().contains("“x”"));
}

#[wasm_bindgen_test]
fn imported_tasks_run_like_the_library_and_carry_the_explanation() {
    let mut r = Runner::with_tasks("q=4&p=fifo,rr,srpt", LIST, None).unwrap();
    let result = r.finish().unwrap();
    let got = json(&result);
    let w = tailslice::workload::task_list::parse_task_list(LIST, Limits::WEB.max_tasks).unwrap();
    let (exp, _) = tailslice::experiment::Experiment::from_query(
        [("q", "4"), ("p", "fifo,rr,srpt")],
        &Limits::WEB,
    );
    let exp = exp.for_workload(&w);
    let want = exp.run_on(w, &Limits::WEB, false).unwrap();
    assert_eq!(
        got["report"],
        // Through JSON.parse, so 45 and 45.0 compare equal.
        json(&js_sys::JSON::parse(&serde_json::to_string(&want.report()).unwrap()).unwrap()),
        "same figures as the library"
    );
    let en = got["explain"]["en"].as_str().unwrap();
    let zh = got["explain"]["zh"].as_str().unwrap();
    assert_eq!(
        en,
        tailslice::experiment::reading::explain(&exp, &want, tailslice::text::Lang::En)
    );
    assert!(
        zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
        "{zh}"
    );
}

/// A list parsed once answers the check and every run after it as the
/// text does each time: the same check, results, refusals and the "as
/// recorded" row of a trace's starts.
#[wasm_bindgen_test]
fn a_parsed_list_runs_as_its_text_does() {
    let list = TaskList::new(LIST);
    assert_eq!(
        json(&list.check("q=4").unwrap()),
        json(&web::check_tasks("q=4", LIST).unwrap())
    );
    for q in ["q=4&p=fifo,rr,srpt", "q=2&cores=2"] {
        for resp in [None, Some("resp_cost=0.5".to_string())] {
            let from_list = Runner::with_list(q, &list, None, resp.clone(), JsValue::UNDEFINED)
                .unwrap()
                .finish()
                .unwrap();
            let from_text = Runner::with_tasks(q, LIST, resp.clone())
                .unwrap()
                .finish()
                .unwrap();
            assert_eq!(json(&from_list), json(&from_text), "{q} {resp:?}");
        }
    }
    let bad_resp = Some("resp_cost=x".to_string());
    assert!(Runner::with_list("", &list, None, bad_resp.clone(), JsValue::UNDEFINED).is_err());
    assert!(Runner::with_tasks("", LIST, bad_resp).is_err());
    let starts = vec![0.0, 5.0, 45.0, 50.0];
    let traced = Runner::with_list("", &list, Some(starts.clone()), None, JsValue::UNDEFINED)
        .unwrap()
        .finish()
        .unwrap();
    assert_eq!(
        json(&traced),
        json(
            &Runner::with_trace("", LIST, &starts, None)
                .unwrap()
                .finish()
                .unwrap()
        )
    );
    assert_eq!(json(&traced)["rows"][0]["policy"], "recorded");
    assert!(Runner::with_list("", &list, Some(vec![0.0]), None, JsValue::UNDEFINED).is_err());
    let bad = TaskList::new("1\n2\nx\n");
    assert_eq!(json(&bad.check("").unwrap())["line"], 3);
    assert!(Runner::with_list("", &bad, None, None, JsValue::UNDEFINED).is_err());
}

/// A list handed to another worker as arrays (`arrays`, `fromArrays`) is
/// the list: the same check and runs, with arrivals and without (a list of
/// durations sends none); arrays that do not match are refused.
#[wasm_bindgen_test]
fn a_list_as_arrays_is_the_list() {
    use js_sys::{Array, Float64Array, Reflect, Uint16Array};
    use wasm_bindgen::JsCast;
    let field = |o: &JsValue, k: &str| Reflect::get(o, &k.into()).unwrap();
    for text in [LIST, "5\n1.5\n0\n40\n"] {
        let list = TaskList::new(text);
        let a = list.arrays();
        let arrival = field(&a, "arrival");
        assert_eq!(arrival.is_null(), !text.contains(','), "{text}");
        let labels: Vec<String> = field(&a, "labels")
            .dyn_into::<Array>()
            .unwrap()
            .iter()
            .map(|v| v.as_string().unwrap())
            .collect();
        let copy = TaskList::from_arrays(
            field(&a, "work")
                .dyn_into::<Float64Array>()
                .unwrap()
                .to_vec(),
            arrival.dyn_into::<Float64Array>().ok().map(|f| f.to_vec()),
            field(&a, "class")
                .dyn_into::<Uint16Array>()
                .unwrap()
                .to_vec(),
            labels.clone(),
        )
        .unwrap();
        assert_eq!(
            json(&copy.check("q=4").unwrap()),
            json(&list.check("q=4").unwrap())
        );
        let run = |l: &TaskList| {
            json(
                &Runner::with_list("q=4&p=fifo,rr", l, None, None, JsValue::UNDEFINED)
                    .unwrap()
                    .finish()
                    .unwrap(),
            )
        };
        assert_eq!(run(&copy), run(&list), "{text}");
        assert!(TaskList::from_arrays(vec![1.0], None, vec![labels.len() as u16], labels).is_err());
    }
    assert!(TaskList::from_arrays(
        vec![1.0, 2.0],
        Some(vec![0.0]),
        vec![0, 0],
        vec!["a".into()]
    )
    .is_err());
    assert!(TaskList::new("x\n").arrays().is_null());
}

/// A run split into parts (each policy but the first run by another
/// runner, as the worker's helpers do) is the run made in one piece: the
/// same figures, CDFs, per-task outcomes and slices, bit for bit; only
/// `parts` says how it was made. With and without a Gantt, on an imported
/// list and a trace's tasks.
#[wasm_bindgen_test]
fn a_run_in_parts_is_the_run_in_one() {
    let list = TaskList::new(LIST);
    let starts = vec![0.0, 5.0, 45.0, 50.0];
    type Make<'a> = Box<dyn Fn() -> Runner + 'a>;
    let cases: Vec<(&str, Make)> = vec![
        (
            "the study, drawn",
            Box::new(|| Runner::new("n=2000&p=fifo,rr,srpt").unwrap()),
        ),
        (
            "no Gantt",
            Box::new(|| Runner::new("n=2000&mix=1:1000-2500&q=1&p=fifo,rr").unwrap()),
        ),
        (
            "two cores, a machine",
            Box::new(|| Runner::new("n=3000&machine=m1&p=xnu,clutch,rr").unwrap()),
        ),
        (
            "an imported list",
            Box::new(|| {
                Runner::with_list("q=4&p=fifo,rr,srpt", &list, None, None, JsValue::UNDEFINED)
                    .unwrap()
            }),
        ),
        (
            "a trace's tasks",
            Box::new(|| {
                Runner::with_list(
                    "p=fifo,rr",
                    &list,
                    Some(starts.clone()),
                    None,
                    JsValue::UNDEFINED,
                )
                .unwrap()
            }),
        ),
    ];
    for (what, make) in cases {
        let whole = json(&make().finish().unwrap());
        let mut r = make();
        let policies = r.total() - 1;
        for i in 1..policies {
            let part = make().part(i).unwrap();
            r.add_part(i, part).unwrap();
        }
        let mut split = json(&r.finish().unwrap());
        assert_eq!(split["parts"], policies - 1, "{what}");
        split["parts"] = whole["parts"].clone();
        assert_eq!(split, whole, "{what}");
    }
    let mut r = Runner::new("p=fifo,rr").unwrap();
    let rr = Runner::new("p=fifo,rr").unwrap().part(1).unwrap();
    assert!(r.add_part(0, rr).is_err(), "a part of rr is not fifo's");
}

#[wasm_bindgen_test]
fn default_run_has_both_explanations() {
    let got = json(&web::run("").unwrap());
    assert!(got["explain"]["en"].as_str().unwrap().contains("5209"));
    assert!(got["explain"]["zh"].as_str().unwrap().contains("28%"));
}

#[wasm_bindgen_test]
fn exports_trace_csv_and_experiment_round_trip() {
    let q = "seed=3&n=50&q=4&cores=2";
    let result = json(&web::run(q).unwrap());
    let segments = result["gantt"]["start"].as_object().map_or(0, |o| o.len());
    let trace: Value =
        serde_json::from_str(&web::export_file("trace", q, None, None).unwrap()).unwrap();
    let slices = trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X")
        .count();
    assert_eq!(slices, segments);
    let csv = web::export_file("csv", q, None, None).unwrap();
    assert_eq!(csv.lines().count(), 1 + 50 * 2);
    assert!(web::export_file("nope", q, None, None).is_err());
    // The figure: SVG drawn by the charts' own code, in the asked theme.
    let svg = web::export_file(
        "svg",
        q,
        None,
        Some("{\"theme\":\"dark\",\"view\":\"gantt\"}".into()),
    )
    .unwrap();
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    assert!(svg.contains("#16181b") && svg.contains(">Schedule</text>"));
    assert!(!svg.contains(">Latency CDF</text>"));

    // The experiment file with imported tasks opens to the same query and list.
    let file = web::export_file(
        "experiment",
        "q=4&p=fifo,srpt",
        Some(LIST.to_string()),
        Some("{\"lang\":\"zh\"}".to_string()),
    )
    .unwrap();
    let opened = json(&web::open_experiment(&file, "en").unwrap());
    assert_eq!(opened["query"], "q=4&p=fifo,srpt");
    assert_eq!(opened["task_count"], 4);
    assert_eq!(opened["ui"]["lang"], "zh");
    let again = tailslice::workload::task_list::parse_task_list(
        opened["tasks"].as_str().unwrap(),
        Limits::WEB.max_tasks,
    )
    .unwrap();
    assert_eq!(
        again,
        tailslice::workload::task_list::parse_task_list(LIST, Limits::WEB.max_tasks).unwrap()
    );
    assert!(web::open_experiment("{}", "zh").is_err());
}

#[wasm_bindgen_test]
fn sweeps_step_to_the_end_and_summarise() {
    let mut s = SeedSweep::new("", "1-30").unwrap();
    assert_eq!(s.total(), 30);
    let mut steps = 0;
    while s.step(7).unwrap() {
        steps += 1;
    }
    assert_eq!((s.done(), steps), (30, 4));
    let sum = json(&s.summary().unwrap());
    assert_eq!(sum["summary"]["seeds"], 30);
    assert_eq!(sum["seed"], 42);
    // One reading per figure, the own seed (42, outside 1-30) placed in it.
    let p95 = &sum["readings"]["p95"];
    assert_eq!(p95["seeds"], 30);
    assert!(p95["current"].is_f64(), "{p95}");
    assert!(
        p95["text"]["en"]
            .as_str()
            .unwrap()
            .starts_with("Over 30 seeds (1–30)"),
        "{p95}"
    );
    assert!(SeedSweep::new("", "5-1").is_err());
    assert!(SeedSweep::new("", "0-200000").is_err());

    let mut q = QuantumSweep::new("cs=0.5", "0.5-500", 16, None).unwrap();
    while q.step(3).unwrap() {}
    let sum = json(&q.summary());
    let quanta: Vec<f64> = sum["quanta"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(quanta.len(), 16);
    assert!(quanta.contains(&12.6), "{quanta:?}");
    assert_eq!(sum["switch_cost"], 0.5);
    // fifo ignores the quantum: no best, no mark, the sentence says so.
    assert_eq!(sum["best"][0]["p95"], serde_json::Value::Null);
    assert_eq!(sum["best_quantum"]["p95"][0], serde_json::Value::Null);
    assert_eq!(
        sum["best"][0]["text"]["en"],
        "FIFO: the quantum makes no difference"
    );
    assert!(QuantumSweep::new("", "500-0.5", 16, None).is_err());
    let listed = QuantumSweep::new("", "1,2,4", 0, Some(LIST.to_string())).unwrap();
    assert_eq!(listed.total(), 3);
}
