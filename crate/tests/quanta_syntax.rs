//! One quanta syntax for the page's `#sweep-quanta` field and the CLI's
//! `--quanta`: a comma list, or `LO-HI` log-spaced over a number of steps.
//! Both front ends go through `sweep::parse_quanta_spec`; these tests hold
//! the CLI to the same values the page computes (the page's side is in
//! `tests/tests/page_sweep.rs`).

use std::process::Output;

use tailslice::experiment::sweep::{parse_quanta_spec, SweepLimits, DEFAULT_RANGE_STEPS};

mod cli_run;
use cli_run::tailslice;

fn quanta_of(o: &Output) -> Vec<f64> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    v["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .map(|r| r["quantum"].as_f64().expect("quantum"))
        .collect()
}

#[test]
fn a_range_is_log_spaced_over_its_steps() {
    let q = parse_quanta_spec("q", "1-100", 5, &SweepLimits::CLI).unwrap();
    assert_eq!(q, vec![1.0, 3.16, 10.0, 31.6, 100.0]);
    let list = parse_quanta_spec("q", "1,3.16,10", 5, &SweepLimits::CLI).unwrap();
    assert_eq!(list, vec![1.0, 3.16, 10.0], "a list ignores the steps");
}

#[test]
fn the_cli_reads_a_range_exactly_as_the_page_does() {
    let args = ["sweep", "--tasks", "20", "--json", "--quanta", "2-64"];
    let page = parse_quanta_spec("quanta", "2-64", 6, &SweepLimits::WEB).unwrap();
    let cli = quanta_of(&tailslice(&[&args[..], &["--steps", "6"]].concat()));
    assert_eq!(cli, page);
    // Without --steps, the page's default step count.
    let page = parse_quanta_spec("quanta", "2-64", DEFAULT_RANGE_STEPS, &SweepLimits::WEB).unwrap();
    assert_eq!(quanta_of(&tailslice(&args)), page);
    assert_eq!(page.len(), DEFAULT_RANGE_STEPS as usize);
}

#[test]
fn the_cli_reads_a_list_as_before() {
    let o = tailslice(&["sweep", "--tasks", "20", "--json", "--quanta", "4,1,16"]);
    assert_eq!(quanta_of(&o), vec![4.0, 1.0, 16.0]);
}

#[test]
fn bad_ranges_and_steps_are_refused_in_one_line() {
    for (args, want) in [
        (
            &["--quanta", "100-1"][..],
            "invalid --quanta '100-1': expected LO-HI",
        ),
        (
            &["--quanta", "0-5"][..],
            "invalid --quanta '0-5': expected LO-HI",
        ),
        (
            &["--quanta", "1-5", "--steps", "1"][..],
            "invalid --steps '1'",
        ),
        (
            &["--quanta", "1-5", "--steps", "201"][..],
            "invalid --steps '201'",
        ),
        (
            &["--quanta", "1,5", "--steps", "4"][..],
            "invalid --steps '4'",
        ),
        (
            &["--seeds", "1-5", "--steps", "4"][..],
            "invalid --steps '4'",
        ),
    ] {
        let o = tailslice(&[&["sweep"][..], args].concat());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}
