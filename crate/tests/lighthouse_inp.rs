//! INP as the CLI reports it (`tailslice responsiveness --trace-in F
//! --json`, the recorded row's `inp_ms`) equals Lighthouse's INP audit on
//! the same trace, computed by Lighthouse's own code:
//! `scripts/lighthouse-inp.mjs` runs its `interaction-to-next-paint` audit
//! in timespan mode on the trace (Lighthouse is pinned and installed into
//! `.tools/` by `scripts/setup.sh`).
//!
//! Every trace under `crate/tests/fixtures/traces/` is compared. The
//! hand-written traces with interactions (`crate/tests/corpus/`,
//! `crate/fuzz/corpus/`) have no `Responsiveness.Renderer.UserInteraction`
//! events, so Lighthouse finds no INP in them while tailslice falls back to
//! web-vitals' rule (docs/responsiveness.md); the test checks that they
//! still have none, so that one gaining them is compared too.
//!
//! Tolerance: Lighthouse's number is one `EventTiming` event's
//! `args.data.duration`, exactly as the trace writes it (a JSON number,
//! in ms with µs digits); tailslice reads the same number into an f64 and
//! prints it back unchanged. So the two must agree to within 1 µs (the
//! trace's own resolution), and in practice are bit-equal.
//!
//! Skipped, with the reason printed, when node or Lighthouse is missing;
//! with `TAILSLICE_LIGHTHOUSE_REQUIRED=1` (CI: `.ci/run`) a skip is a
//! failure.

mod cli_run;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const TOLERANCE_MS: f64 = 1e-3;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Why Lighthouse cannot run here, if it cannot.
fn missing() -> Option<String> {
    match Command::new("node").arg("--version").output() {
        Ok(o) if o.status.success() => {}
        _ => return Some("node is not on PATH".into()),
    }
    let pkg = repo_root().join(".tools/node_modules/lighthouse/package.json");
    if !pkg.exists() {
        return Some(format!(
            "Lighthouse is not installed ({} missing; run ./scripts/setup.sh)",
            pkg.display()
        ));
    }
    None
}

fn skip_or_fail(name: &str) -> bool {
    let Some(why) = missing() else {
        return false;
    };
    if std::env::var("TAILSLICE_LIGHTHOUSE_REQUIRED").is_ok_and(|v| v == "1") {
        panic!("{name} cannot run but TAILSLICE_LIGHTHOUSE_REQUIRED=1: {why}");
    }
    eprintln!("SKIPPED lighthouse_inp::{name}: {why}");
    true
}

fn lighthouse(trace: &Path) -> Value {
    let out = Command::new("node")
        .arg(repo_root().join("scripts/lighthouse-inp.mjs"))
        .arg(trace)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "lighthouse-inp.mjs {}: {}",
        trace.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn tailslice_inp(trace: &Path) -> Option<f64> {
    let path = trace.to_str().expect("a UTF-8 path");
    let out = cli_run::tailslice_ok(&["responsiveness", "--json", "--trace-in", path]);
    let v: Value = serde_json::from_str(&out).unwrap();
    v["rows"][0]["inp_ms"].as_f64()
}

fn fixtures() -> Vec<PathBuf> {
    let dir = repo_root().join("crate/tests/fixtures/traces");
    let mut list: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.ends_with(".json.gz") || (n.ends_with(".json") && !n.ends_with(".readings.json"))
        })
        .collect();
    list.sort();
    list
}

#[test]
fn inp_equals_lighthouses_audit_on_every_recorded_trace() {
    if skip_or_fail("inp_equals_lighthouses_audit_on_every_recorded_trace") {
        return;
    }
    let list = fixtures();
    // Three recorded by scripts/record-traces.sh and Lighthouse's own.
    assert!(list.len() >= 4, "{list:?}");
    for trace in &list {
        let lh = lighthouse(trace);
        let ours = tailslice_inp(trace);
        let name = trace.file_name().unwrap().to_string_lossy();
        let theirs = lh["inp_ms"]
            .as_f64()
            .unwrap_or_else(|| panic!("{name}: Lighthouse finds no INP: {lh}"));
        let ours = ours.unwrap_or_else(|| panic!("{name}: tailslice finds no INP"));
        assert!(
            (ours - theirs).abs() <= TOLERANCE_MS,
            "{name}: tailslice INP {ours} ms, Lighthouse {theirs} ms ({lh})"
        );
        eprintln!("{name}: INP {ours} ms, Lighthouse {theirs} ms");
    }
}

#[test]
fn hand_written_traces_with_interactions_have_no_chrome_summaries() {
    if skip_or_fail("hand_written_traces_with_interactions_have_no_chrome_summaries") {
        return;
    }
    for rel in [
        "crate/tests/corpus/interactions.json",
        "crate/fuzz/corpus/trace/interactions.json",
    ] {
        let path = repo_root().join(rel);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"EventTiming\""), "{rel}");
        assert!(
            !text.contains("Responsiveness.Renderer.UserInteraction"),
            "{rel} now has Chrome's interaction summaries: compare it with Lighthouse in \
             inp_equals_lighthouses_audit_on_every_recorded_trace"
        );
        // Lighthouse cannot place such a trace (no categories, no page):
        // the script says so rather than inventing a number.
        let out = Command::new("node")
            .arg(repo_root().join("scripts/lighthouse-inp.mjs"))
            .arg(&path)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{rel}: {out:?}");
        assert!(tailslice_inp(&path).is_some(), "{rel}");
    }
}
