//! `tailslice responsiveness --svg FILE`: the page's figure of a trace's
//! answer — the section's table, its input-delay CDF, the trade-off over
//! the quantum and the interactions' bars — with the headline numbers (p98,
//! TBT, INP) in `<title>` and `<desc>` in `--lang`, `--figure` and `--theme`
//! as `simulate` has them, and one clear line for every bad value.

use std::path::PathBuf;

use serde_json::{json, Value};

mod cli_run;
use cli_run::{stderr, stdout, tailslice};

fn dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("responsiveness_figure_cli");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn out(name: &str) -> String {
    dir().join(name).to_string_lossy().into_owned()
}

/// A trace: one renderer main thread with a 275 ms task among short ones,
/// no interactions (a file of its own per test).
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
    let p = dir().join(format!("{name}.json"));
    std::fs::write(
        &p,
        serde_json::to_vec(&json!({ "traceEvents": ev })).unwrap(),
    )
    .unwrap();
    p.to_string_lossy().into_owned()
}

/// A recorded trace with a click during a long task.
fn interactions_trace() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/traces/interactions-click-during-long-task.json.gz")
        .to_string_lossy()
        .into_owned()
}

/// `responsiveness --json` on `args`: the rows by quantum.
fn json_of(args: &[&str]) -> Value {
    let mut argv = vec!["responsiveness", "--json"];
    argv.extend(args);
    let o = tailslice(&argv);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn row(v: &Value, quantum: Option<f64>) -> &Value {
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["quantum_ms"].as_f64() == quantum)
        .unwrap()
}

fn between<'a>(svg: &'a str, open: &str, close: &str) -> &'a str {
    let a = svg.find(open).unwrap_or_else(|| panic!("no {open}")) + open.len();
    let b = a + svg[a..].find(close).unwrap();
    &svg[a..b]
}

fn one(v: &Value) -> String {
    format!("{:.1}", v.as_f64().unwrap())
}

fn svg_of(args: &[&str], name: &str) -> String {
    let path = out(name);
    let mut argv = vec!["responsiveness"];
    argv.extend(args);
    argv.extend(["--svg", &path]);
    let o = tailslice(&argv);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    std::fs::read_to_string(&path).unwrap()
}

#[test]
fn the_figure_holds_the_answer_and_its_headline() {
    let trace = trace_file("plain");
    let v = json_of(&["--trace-in", &trace]);
    let svg = svg_of(&["--trace-in", &trace], "plain.svg");
    assert!(svg.starts_with("<svg"), "{svg}");
    for heading in [
        "Responsiveness: input delay, blocking and cost",
        "Input delay CDF",
        "p98 input delay and cost over the quantum",
    ] {
        assert!(svg.contains(heading), "no {heading}");
    }
    // No interactions in this trace: no bars, and no study charts.
    assert!(!svg.contains("Interactions: input delay"));
    assert!(!svg.contains("Latency per policy"));
    let (rec, sliced) = (row(&v, None), row(&v, Some(16.0)));
    let title = between(&svg, "<title>", "</title>");
    let p98 = (
        one(&rec["input_delay_ms"]["p98"]),
        one(&sliced["input_delay_ms"]["p98"]),
    );
    assert_ne!(p98.0, p98.1, "slicing changes the p98 of a 275 ms task");
    assert!(
        title.contains(&format!(
            "{} ms as recorded → {} ms sliced at q = 16 ms",
            p98.0, p98.1
        )),
        "{title}"
    );
    assert!(title.contains("8 tasks"), "{title}");
    let desc = between(&svg, "<desc>", "</desc>");
    assert!(
        desc.contains(&format!(
            "Total blocking time: {} ms as recorded → {} ms sliced.",
            one(&rec["tbt_ms"]),
            one(&sliced["tbt_ms"])
        )),
        "{desc}"
    );
    // The table's cells are the rows' figures.
    assert!(
        svg.contains(&format!(">{}<", p98.0)),
        "no recorded p98 cell"
    );
    assert!(svg.contains(&format!(">{}<", p98.1)), "no sliced p98 cell");
    // The same figure twice: nothing random in it.
    assert_eq!(svg, svg_of(&["--trace-in", &trace], "plain2.svg"));
}

#[test]
fn a_traces_interactions_are_drawn_and_inp_is_in_the_desc() {
    let trace = interactions_trace();
    let v = json_of(&["--trace-in", &trace]);
    let svg = svg_of(&["--trace-in", &trace], "inter.svg");
    assert!(svg.contains("Interactions: input delay, processing, presentation"));
    let inp = |q: Option<f64>| one(&row(&v, q)["inp_ms"]);
    let desc = between(&svg, "<desc>", "</desc>");
    assert!(
        desc.contains(&format!(
            "INP: {} ms as recorded → {} ms sliced at q = 16 ms.",
            inp(None),
            inp(Some(16.0))
        )),
        "{desc}"
    );
    // Only the bars.
    let bars = svg_of(
        &["--trace-in", &trace, "--figure", "interactions"],
        "bars.svg",
    );
    assert!(bars.contains("Interactions: input delay"));
    assert!(!bars.contains("Input delay CDF"));
    assert!(!bars.contains("Responsiveness: input delay"));
}

#[test]
fn the_figure_speaks_chinese_with_lang_zh() {
    let trace = interactions_trace();
    let v = json_of(&["--trace-in", &trace]);
    let svg = svg_of(&["--trace-in", &trace, "--lang", "zh"], "zh.svg");
    let title = between(&svg, "<title>", "</title>");
    let desc = between(&svg, "<desc>", "</desc>");
    let p98 = one(&row(&v, Some(16.0))["input_delay_ms"]["p98"]);
    assert!(title.contains("个任务"), "{title}");
    assert!(
        title.contains(&format!("按 q = 16 ms 切分后 {p98} ms")),
        "{title}"
    );
    assert!(desc.contains("总阻塞时间"), "{desc}");
    assert!(desc.contains("INP：按记录"), "{desc}");
    for heading in [
        "响应性：输入延迟、阻塞与开销",
        "输入延迟累积分布",
        "交互：输入延迟、处理、呈现",
    ] {
        assert!(svg.contains(heading), "no {heading}");
    }
    for english in ["sliced", "as recorded", "Total blocking", "input delay ("] {
        assert!(
            !svg.contains(english),
            "English '{english}' in the zh figure"
        );
    }
}

#[test]
fn figure_and_theme_choose_the_parts_and_colours() {
    let trace = trace_file("parts");
    let light = svg_of(&["--trace-in", &trace, "--figure", "tradeoff"], "t.svg");
    assert!(light.contains("p98 input delay and cost over the quantum"));
    assert!(!light.contains("Input delay CDF"));
    let dark = svg_of(
        &[
            "--trace-in",
            &trace,
            "--figure",
            "tradeoff",
            "--theme",
            "dark",
        ],
        "t-dark.svg",
    );
    assert_ne!(light, dark);
    let table = svg_of(&["--trace-in", &trace, "--figure", "table"], "table.svg");
    assert!(table.contains("delay p98 (ms)"));
    assert!(!table.contains("p98 input delay and cost"));
    // A task list with arrival times answers too.
    let list = dir().join("list.csv");
    std::fs::write(&list, "0,120\n150,30\n200,90\n").unwrap();
    let svg = svg_of(&["--tasks-file", list.to_str().unwrap()], "list.svg");
    assert!(svg.contains("3 tasks"));
}

#[test]
fn bad_figure_values_get_one_line() {
    let trace = trace_file("bad");
    let path = out("bad.svg");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--svg", &path, "--figure", "gantt"],
            "invalid --figure 'gantt': expected table, cdf, tradeoff, interactions, all",
        ),
        (
            vec!["--svg", &path, "--theme", "pink"],
            "invalid --theme 'pink'",
        ),
        (
            vec!["--figure", "cdf"],
            "--figure and --theme describe an SVG figure: add --svg FILE",
        ),
        (vec!["--svg", ""], "invalid --svg '': expected a file path"),
        (
            vec!["--svg", &path, "--figure", "interactions"],
            "invalid --figure 'interactions': these tasks have no interactions",
        ),
    ];
    for (args, want) in cases {
        let _ = std::fs::remove_file(&path);
        let mut argv = vec!["responsiveness", "--trace-in", &trace];
        argv.extend(&args);
        let o = tailslice(&argv);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(stdout(&o).is_empty(), "{args:?}");
        assert!(
            !std::path::Path::new(&path).exists(),
            "{args:?} wrote a file"
        );
    }
    // A path that cannot be written: exit 1, not bad input.
    let o = tailslice(&[
        "responsiveness",
        "--trace-in",
        &trace,
        "--svg",
        dir().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot write --svg"));
}

#[test]
fn help_names_the_figure_flags() {
    let o = tailslice(&["responsiveness", "--help"]);
    let help = stdout(&o);
    for flag in [
        "--svg PATH",
        "--figure WHAT",
        "--theme T",
        "tradeoff | interactions",
    ] {
        assert!(help.contains(flag), "no {flag}");
    }
}

/// The page's path: the section's `chart` object goes to JSON and back
/// (the export's `ui.answer`) and draws the same answer, above the study's
/// own figure of the same tasks; the document is well-formed SVG.
#[test]
fn the_pages_figure_is_the_answer_above_the_study() {
    use tailslice::chart::answer::AnswerCharts;
    use tailslice::chart::figure::{self, Options, Study};
    use tailslice::experiment::{Experiment, Limits};
    use tailslice::responsiveness::{Answer, Settings, Source, Task};
    use tailslice::workload::Workload;

    let starts = [0.0, 130.0, 170.0, 460.0, 520.0];
    let work = [120.0, 30.0, 275.0, 8.0, 61.3];
    let tasks = Task::from_columns(&starts, &work);
    let answer = Answer::new(&tasks, &Settings::default(), Source::Trace, 1_000_000).unwrap();
    let charts = AnswerCharts::new(&answer, 16.0);
    let json = serde_json::to_string(&charts).unwrap();
    let back: AnswerCharts = serde_json::from_str(&json).unwrap();
    let w = Workload {
        arrival: starts.to_vec(),
        work: work.to_vec(),
        class: vec![0; 5],
        class_labels: vec!["imported".into()],
    };
    let exp = Experiment::default().for_workload(&w);
    let outcome = exp.run_on(w, &Limits::CLI, true).unwrap();
    let study = Study {
        exp: &exp,
        outcome: &outcome,
        recorded: None,
        generated: false,
    };
    let o = Options::default();
    let svg = figure::answer(&back, Some(&study), &o);
    assert_eq!(svg, figure::answer(&charts, Some(&study), &o));
    roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    let answer_at = svg
        .find(">Responsiveness: input delay, blocking and cost<")
        .unwrap();
    let study_at = svg.find(">Latency per policy (ms)<").unwrap();
    assert!(answer_at < study_at, "the answer first");
    for part in [">Input delay CDF<", ">Schedule<", ">Latency CDF<"] {
        assert!(svg.contains(part), "no {part}");
    }
    let title = between(&svg, "<title>", "</title>");
    assert!(
        title.starts_with("tailslice: 5 tasks, p98 input delay"),
        "{title}"
    );
    // The study's own words follow the answer's in the description.
    let desc = between(&svg, "<desc>", "</desc>");
    assert!(
        desc.contains("Total blocking time") && desc.contains("5 tasks, FIFO"),
        "{desc}"
    );
}
