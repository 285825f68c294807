//! `tailslice measure --json` output read back (what the page opens): the
//! experiment it ran, the measured rows as the JSON holds them, and bad
//! outputs refused with the field named. The output is the committed
//! fixture `fixtures/measure/fifo-rr-30-tasks.json`, written by
//! `tailslice measure --json --tasks 30 --mix 1:1-5 --repeats 3` as root
//! (fifo and rr need it), and — where this test runs as root — a fresh
//! output of the CLI itself.

mod cli_run;

use serde_json::Value;
use tailslice::experiment::measured::{environment_line, parse_measure_text, MeasureFile};
use tailslice::experiment::metric::Metric;
use tailslice::experiment::{Experiment, Limits, Param};
use tailslice::text::Lang;

const FIXTURE: &str = include_str!("fixtures/measure/fifo-rr-30-tasks.json");

fn read(text: &str) -> MeasureFile {
    parse_measure_text(text, &Limits::WEB)
        .unwrap_or_else(|e| panic!("refused: {e}"))
        .expect("a measure output")
}

/// Every row's figures and spreads equal the JSON's, and the experiment
/// is the one the command ran.
fn check_against_json(text: &str, tasks: &str, mix: &str) {
    let m = read(text);
    let v: Value = serde_json::from_str(text).unwrap();
    let exp = &m.file.experiment;
    assert_eq!(exp.get(Param::Tasks), tasks);
    assert_eq!(exp.get(Param::Mix), mix);
    assert_eq!(exp.get(Param::Seed), "42");
    assert_eq!(exp.get(Param::Policies), "fifo,rr");
    assert!(m.file.tasks.is_none());
    // The model rows of the file are the ones this experiment computes.
    let outcome = exp.run(&Limits::WEB, false).unwrap();
    let model: Value = serde_json::to_value(outcome.report()).unwrap();
    assert_eq!(model["results"], v["results"]);
    let rows = v["measured"].as_array().unwrap();
    assert_eq!(m.measured.len(), rows.len());
    assert!(!rows.is_empty());
    for (row, json) in m.measured.iter().zip(rows) {
        assert_eq!(row.policy, json["policy"].as_str().unwrap());
        assert_eq!(
            row.kernel_policy.name(),
            json["kernel_policy"].as_str().unwrap()
        );
        for metric in Metric::ALL {
            let Some((value, [lo, hi])) = row.figure(metric) else {
                continue;
            };
            let name = metric.name();
            assert_eq!(value, json[name].as_f64().unwrap(), "{name}");
            assert_eq!(lo, json["spread"][name][0].as_f64().unwrap(), "{name}");
            assert_eq!(hi, json["spread"][name][1].as_f64().unwrap(), "{name}");
            assert!(
                lo <= value && value <= hi,
                "{name}: the middle lies in the spread"
            );
        }
    }
    let env = &v["environment"];
    let line = environment_line(&m.environment, Lang::En);
    assert!(line.contains(env["kernel"].as_str().unwrap()), "{line}");
    assert!(line.contains(&format!("HZ {}", env["hz"])), "{line}");
    let zh = environment_line(&m.environment, Lang::Zh);
    assert!(zh.contains("实测于 Linux"), "{zh}");
}

#[test]
fn the_committed_output_reads_back_with_its_experiment_and_rows() {
    check_against_json(FIXTURE, "30", "1:1-5");
}

#[test]
fn a_fresh_output_of_the_cli_reads_back() {
    // SAFETY of the claim: only root can run fifo and rr; elsewhere say so.
    let root = std::fs::read_to_string("/proc/self/status")
        .map(|s| {
            s.lines()
                .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
        })
        .unwrap_or(false);
    if !root {
        eprintln!(
            "skipped: measuring fifo and rr needs root (the committed output is checked instead)"
        );
        return;
    }
    let out = cli_run::tailslice_ok(&[
        "measure",
        "--json",
        "--tasks",
        "12",
        "--mix",
        "1:1-3",
        "--repeats",
        "2",
    ]);
    check_against_json(&out, "12", "1:1-3");
}

#[test]
fn an_experiment_file_is_not_a_measure_output() {
    let file = tailslice::experiment::export::experiment_json(&Experiment::default(), None, None);
    assert!(parse_measure_text(&file, &Limits::WEB).unwrap().is_none());
    assert!(parse_measure_text("not json", &Limits::WEB)
        .unwrap()
        .is_none());
}

/// The refusal of the fixture edited by `edit`, in English.
fn refusal(edit: impl Fn(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(FIXTURE).unwrap();
    edit(&mut v);
    match parse_measure_text(&v.to_string(), &Limits::WEB) {
        Err(e) => {
            assert!(!e.message.zh.is_empty());
            e.message.en
        }
        Ok(_) => panic!("accepted: {v}"),
    }
}

#[test]
fn bad_outputs_are_refused_naming_the_field() {
    let m = refusal(|v| {
        v.as_object_mut().unwrap().remove("experiment");
    });
    assert!(m.contains("'experiment'"), "{m}");
    let m = refusal(|v| {
        v.as_object_mut().unwrap().remove("environment");
    });
    assert!(m.contains("'environment'"), "{m}");
    let m = refusal(|v| v["experiment"]["params"]["q"] = "0".into());
    assert!(m.starts_with("experiment: params:"), "{m}");
    let m = refusal(|v| v["experiment"]["params"]["nope"] = "1".into());
    assert!(m.contains("unknown parameter 'nope'"), "{m}");
    let m = refusal(|v| v["measured"][0]["p95"] = (-1.0).into());
    assert!(m.contains("measured row 1") && m.contains("p95"), "{m}");
    let m = refusal(|v| v["measured"][1]["policy"] = "srpt".into());
    assert!(
        m.contains("measured row 2") && m.contains("'srpt'") && m.contains("fifo, rr"),
        "{m}"
    );
    let m = refusal(|v| v["measured"][0]["kernel_policy"] = "SCHED_DEADLINE".into());
    assert!(
        m.starts_with("not a tailslice measure output: measured:"),
        "{m}"
    );
    let m = refusal(|v| v["measured"] = "x".into());
    assert!(m.contains("measured:"), "{m}");
}
