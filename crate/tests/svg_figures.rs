//! `--svg FILE`, `--figure` and `--theme`: the figures are well-formed SVG
//! (parsed here), their table holds the numbers `--json` prints, the
//! default experiment's whole figure stays small, text is text, and every
//! bad value gets one line and exit code 2.

use std::path::PathBuf;

mod cli_run;
use cli_run::{stderr, tailslice};

/// A path under the target directory, unique per name.
fn path(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("svg_figures");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

/// Runs `tailslice args… --svg <name>` and returns the SVG text.
fn figure(name: &str, args: &[&str]) -> String {
    let p = path(name);
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--svg", &p]);
    let o = tailslice(&all);
    assert!(o.status.success(), "{all:?}: {}", stderr(&o));
    std::fs::read_to_string(&p).unwrap()
}

/// The document parsed (fails the test if it is not well-formed XML), its
/// root checked to be an SVG root of the stated size.
fn parse(svg: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    for attr in ["width", "height"] {
        let v: f64 = root.attribute(attr).unwrap().parse().unwrap();
        assert!(v > 0.0, "{attr} = {v}");
    }
    assert_eq!(
        root.attribute("viewBox"),
        Some(
            format!(
                "0 0 {} {}",
                root.attribute("width").unwrap(),
                root.attribute("height").unwrap()
            )
            .as_str()
        )
    );
    // Only SVG elements, each with sane attributes.
    let known = [
        "svg", "title", "desc", "rect", "path", "text", "polyline", "circle", "polygon",
    ];
    for n in doc.descendants().filter(|n| n.is_element()) {
        assert!(
            known.contains(&n.tag_name().name()),
            "unexpected <{}>",
            n.tag_name().name()
        );
        match n.tag_name().name() {
            "path" => assert!(n.attribute("d").is_some_and(|d| d.starts_with('M'))),
            "text" => {
                for a in ["x", "y", "font-size"] {
                    let v: f64 = n.attribute(a).unwrap().parse().unwrap();
                    assert!(v.is_finite());
                }
            }
            _ => {}
        }
    }
    doc
}

/// The text of every `<text>`, in document order.
fn texts(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_table_figure_holds_the_json_numbers() {
    let json: serde_json::Value =
        serde_json::from_slice(&tailslice(&["simulate", "--json"]).stdout).unwrap();
    let svg = figure("table.svg", &["simulate", "--figure", "table"]);
    let doc = parse(&svg);
    let t = texts(&doc);
    // Heading, the column headings, then one row per policy: its name and
    // a cell per figure, in --json's units.
    let metrics = ["mean", "p50", "p90", "p95", "p99", "max", "done_within"];
    assert_eq!(t[1], "policy");
    assert_eq!(&t[2..8], &metrics[..6]);
    assert_eq!(t[8], "done < 100 ms");
    let results = json["results"].as_array().unwrap();
    let mut row = 9;
    for r in results {
        let name = r["policy"].as_str().unwrap().to_ascii_uppercase();
        assert!(t[row].starts_with(&name), "{} is not {name}", t[row]);
        for (i, m) in metrics.iter().enumerate() {
            let v = r[m].as_f64().unwrap();
            let want = if *m == "done_within" {
                format!("{v}")
            } else {
                format!("{v:.1}")
            };
            assert_eq!(t[row + 1 + i], want, "{name} {m}");
        }
        row += 1 + metrics.len();
    }
    assert_eq!(row, t.len(), "nothing after the rows: {t:?}");
}

#[test]
fn the_default_figure_is_complete_and_small() {
    let svg = figure("all.svg", &["simulate"]);
    assert!(svg.len() <= 60 * 1024, "{} bytes", svg.len());
    let doc = parse(&svg);
    let t = texts(&doc);
    for want in [
        "Latency per policy (ms)",
        "Schedule",
        "Latency CDF",
        "Task durations by class",
        "FIFO",
        "RR",
        "1-8 ms",
        "80-200 ms (long)",
        "latency (ms)",
        "share of tasks done",
        "task duration (ms)",
        "2661.3",
        "5209.4",
    ] {
        assert!(t.iter().any(|s| s == want), "no {want:?} in {t:?}");
    }
    // No font is fetched: the root names system faces, nothing links out.
    let root = doc.root_element();
    assert!(root
        .attribute("font-family")
        .unwrap()
        .contains("sans-serif"));
    assert!(!svg.contains("@font-face") && !svg.contains("href"));
    // A title for screen readers.
    assert!(doc
        .descendants()
        .any(|n| n.has_tag_name("title") && n.text() == Some("tailslice: 400 tasks, FIFO, RR")));
}

#[test]
fn every_figure_in_both_themes() {
    for fig in ["table", "gantt", "cdf", "histogram", "all"] {
        for theme in ["light", "dark"] {
            let svg = figure(
                &format!("{fig}-{theme}.svg"),
                &["simulate", "--figure", fig, "--theme", theme],
            );
            let doc = parse(&svg);
            let bg = doc
                .descendants()
                .find(|n| n.has_tag_name("rect"))
                .and_then(|n| n.attribute("fill"))
                .unwrap()
                .to_string();
            assert_eq!(
                bg,
                if theme == "dark" {
                    "#16181b"
                } else {
                    "#ffffff"
                },
                "{fig} {theme}"
            );
        }
    }
    // A Chinese figure speaks Chinese.
    let t = texts(&parse(&figure(
        "zh.svg",
        &["simulate", "--lang", "zh", "--figure", "cdf"],
    )));
    assert!(t.iter().any(|s| s == "延迟（ms）"), "{t:?}");
}

/// Ten named classes: ten colours, names as they are (no " ms"), a long
/// name shortened in the legend with its full text as a `<title>` (the
/// legend's place above the bars: `chart_backends.rs`).
#[test]
fn named_classes_in_the_figure() {
    let names = [
        "EventDispatch",
        "TaskQueueManager::ProcessTaskFromWorkQueue::RunTheTaskNowPlease",
        "ParseHTML",
        "Layout",
        "Paint",
        "FunctionCall",
        "TimerFire",
        "GC",
        "XHRLoad",
        "Animation",
    ];
    let mut csv = String::from("arrival_ms,duration_ms,class\n");
    for i in 0..60 {
        csv += &format!("{},{},{}\n", i * 3, 1 + i % 9, names[i % names.len()]);
    }
    let tasks = path("ten-classes.csv");
    std::fs::write(&tasks, csv).unwrap();
    let svg = figure(
        "ten.svg",
        &["simulate", "--tasks-file", &tasks, "--figure", "histogram"],
    );
    let doc = parse(&svg);
    let t = texts(&doc);
    assert!(
        t.iter()
            .all(|s| !s.ends_with(" ms") || s.starts_with("task")),
        "{t:?}"
    );
    for n in ["EventDispatch", "ParseHTML", "Animation"] {
        assert!(t.iter().any(|s| s == n), "no {n} in {t:?}");
    }
    let short = t
        .iter()
        .find(|s| s.starts_with("TaskQueueManager"))
        .unwrap_or_else(|| panic!("{t:?}"));
    assert!(short.ends_with('…'), "{short}");
    assert!(doc
        .descendants()
        .any(|n| n.has_tag_name("title") && n.text() == Some(names[1])));
    // Ten fills among the bars' paths, all different.
    let fills: std::collections::BTreeSet<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("path") && n.attribute("fill").is_some())
        .filter_map(|n| n.attribute("fill"))
        .collect();
    assert!(fills.len() >= 10, "{fills:?}");
}

#[test]
fn a_trace_figure_has_its_recorded_row() {
    use serde_json::json;
    let t0 = 98_765_432_000.0;
    let mut ev = vec![
        json!({"ph": "I", "name": "TracingStartedInBrowser", "pid": 1, "tid": 1, "ts": t0,
               "args": {"data": {"frames": [{"frame": "F", "processId": 20, "url": "https://example.com/"}]}}}),
        json!({"ph": "M", "name": "thread_name", "pid": 20, "tid": 1, "args": {"name": "CrRendererMain"}}),
    ];
    let mut t = 0.0;
    for (i, d) in [120.0, 30.0, 5.0, 60.0].iter().enumerate() {
        ev.push(json!({"ph": "X", "name": "RunTask", "pid": 20, "tid": 1, "ts": t0 + t * 1000.0, "dur": d * 1000.0}));
        let child = ["EventDispatch", "FunctionCall"][i % 2];
        ev.push(json!({"ph": "X", "name": child, "pid": 20, "tid": 1, "ts": t0 + t * 1000.0 + 5.0, "dur": d * 900.0}));
        t += d + 10.0;
    }
    let trace = path("trace.json");
    std::fs::write(
        &trace,
        serde_json::to_vec(&json!({"traceEvents": ev})).unwrap(),
    )
    .unwrap();
    let svg = figure("trace.svg", &["simulate", "--trace-in", &trace]);
    let t = texts(&parse(&svg));
    assert!(t.iter().any(|s| s == "as recorded"), "{t:?}");
    assert!(t.iter().any(|s| s == "EventDispatch"), "{t:?}");
    assert!(!t.iter().any(|s| s.contains("EventDispatch ms")), "{t:?}");
}

#[test]
fn a_scenario_figure() {
    let json_alone = tailslice(&["scenario", "feishu-demo", "--seconds", "1", "--json"]);
    let p = path("feishu.svg");
    let o = tailslice(&[
        "scenario",
        "feishu-demo",
        "--seconds",
        "1",
        "--json",
        "--svg",
        &p,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The printed result is the same with or without a figure.
    assert_eq!(o.stdout, json_alone.stdout);
    let svg = std::fs::read_to_string(&p).unwrap();
    let t = texts(&parse(&svg));
    for want in [
        "Main thread time by queue group (%)",
        "Which kernel explains the main thread's waiting on a10 (% of the time)",
        "Cores, coloured by QoS",
        "Thread states",
        "sched_pri over time",
        "main thread",
        "running",
        "blocked (lane background)",
        "floor 29 (band limit)",
        "core 0 · P",
    ] {
        assert!(t.iter().any(|s| s == want), "no {want:?} in {t:?}");
    }
    let only = texts(&parse(&figure(
        "feishu-pri.svg",
        &[
            "scenario",
            "feishu-demo",
            "--seconds",
            "1",
            "--figure",
            "priority",
            "--theme",
            "dark",
        ],
    )));
    assert!(!only.iter().any(|s| s == "Thread states"), "{only:?}");

    // Its tables alone: every queue group's row with --json's figures, as
    // the page's table shows them (one decimal), and no chart.
    let json: serde_json::Value = serde_json::from_slice(&json_alone.stdout).unwrap();
    let tables = texts(&parse(&figure(
        "feishu-table.svg",
        &[
            "scenario",
            "feishu-demo",
            "--seconds",
            "1",
            "--figure",
            "table",
        ],
    )));
    for g in json["groups"].as_array().unwrap() {
        let row = format!(
            "{} ({})",
            g["qos"].as_str().unwrap(),
            g["qos_number"].as_u64().unwrap()
        );
        let at = tables
            .iter()
            .position(|s| *s == row)
            .unwrap_or_else(|| panic!("no row {row:?} in {tables:?}"));
        for (i, key) in [
            "main_running_pct",
            "main_runnable_pct",
            "main_preempted_pct",
        ]
        .iter()
        .enumerate()
        {
            assert_eq!(
                tables[at + 1 + i],
                format!("{:.1}", g[key].as_f64().unwrap()),
                "{row} {key}"
            );
        }
    }
    assert!(!tables.iter().any(|s| s == "Cores, coloured by QoS"));
}

#[test]
fn bad_figure_flags_get_one_line() {
    let p = path("never.svg");
    for (args, want) in [
        (
            vec!["simulate", "--svg", &p, "--figure", "pie"],
            "invalid --figure 'pie': expected table, gantt, cdf, histogram, all",
        ),
        (
            vec!["simulate", "--svg", &p, "--theme", "blue"],
            "invalid --theme 'blue': expected light or dark",
        ),
        (
            vec!["simulate", "--figure", "cdf"],
            "--figure and --theme describe an SVG figure: add --svg FILE",
        ),
        (
            vec!["simulate", "--svg", ""],
            "invalid --svg '': expected a file path",
        ),
        (
            vec!["scenario", "feishu-demo", "--svg", &p, "--figure", "cdf"],
            "invalid --figure 'cdf': expected table, gantt, states, priority, all",
        ),
    ] {
        let o = tailslice(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains(want), "{args:?}: {e}");
    }
    let o = tailslice(&["simulate", "--svg", "/nonexistent-dir/f.svg"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot write --svg"), "{}", stderr(&o));
}
