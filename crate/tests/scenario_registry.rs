//! The scenario registry (`qos::scenarios::registry`): every scenario is
//! reachable by its name from the library and the CLI, its knobs' defaults
//! lie in their ranges, its page text has both languages, and no front end
//! (Rust or JavaScript) knows a scenario by name.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use tailslice::param_spec::Params;
use tailslice::scenario::{self, names, Knob, KnobRange, Knobs, ScenarioKind, WEB_WORK_BUDGET};
use tailslice::sim::machine::Machine;
use tailslice::text::Lang;

mod cli_run;
use cli_run::tailslice_status as tailslice;

#[test]
fn names_are_unique_and_each_finds_its_scenario() {
    let all = names();
    assert!(!all.is_empty());
    let unique: HashSet<_> = all.iter().collect();
    assert_eq!(unique.len(), all.len(), "duplicate names in {all:?}");
    for &s in ScenarioKind::ALL {
        let found = ScenarioKind::find(s.name()).expect("registered name is found");
        assert_eq!(found.name(), s.name());
        // Names are typed in shells and URLs: lower-case words and dashes.
        assert!(
            s.name()
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{}",
            s.name()
        );
        for t in [s.title(), s.table_title()] {
            assert!(!t.en.is_empty() && !t.zh.is_empty(), "{}", s.name());
            assert_ne!(t.en, t.zh, "{}: untranslated title", s.name());
        }
    }
    assert!(ScenarioKind::find("feishu").is_none());
    assert!(ScenarioKind::find("").is_none());
}

#[test]
fn the_allowed_names_list_every_scenario() {
    let both = scenario::allowed_names();
    let allowed = &both.en;
    for n in names() {
        assert!(allowed.contains(n) && both.zh.contains(n), "{both:?}");
    }
    let last = names().last().copied().unwrap();
    assert!(allowed.ends_with(&format!(" or {last}")), "{allowed}");
    assert!(both.zh.ends_with(&format!(" 或 {last}")), "{}", both.zh);
    let e = scenario::run("no-such-scenario", &Knobs::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("invalid scenario 'no-such-scenario': expected {allowed}")
    );
}

/// A knob's default as text, checked against the knob's range.
fn check_default_in_range(knob: Knob, text: &str) {
    match knob.control().range {
        KnobRange::Switch { unset, .. } => {
            assert!(
                text == "on" || text == "off" || (text.is_empty() && unset.is_some()),
                "{knob:?} default {text:?}"
            );
        }
        KnobRange::Number {
            min,
            max,
            step,
            integer,
        } => {
            let v: f64 = text.parse().expect("a number");
            assert!(
                (min..=max).contains(&v),
                "{knob:?} {v} outside {min}..={max}"
            );
            assert!(step > 0.0 && step <= max - min, "{knob:?} step {step}");
            if integer {
                assert_eq!(v.fract(), 0.0, "{knob:?} {v}");
            }
        }
        KnobRange::Text { examples, .. } => {
            for e in examples {
                Knobs::default()
                    .set(knob, knob.url_key(), e)
                    .unwrap_or_else(|err| panic!("{knob:?} example {e}: {err}"));
            }
        }
        KnobRange::Choice { options, unset } => {
            assert!(
                options.iter().any(|o| o.value == text) || (text.is_empty() && unset.is_some()),
                "{knob:?} default {text:?} is not an option"
            );
            for o in options {
                let mut k = Knobs::default();
                k.set(knob, knob.url_key(), o.value)
                    .unwrap_or_else(|err| panic!("{knob:?} option {}: {err}", o.value));
                assert_eq!(k.text(knob).as_deref(), Some(o.value), "{knob:?}");
                assert!(!o.label.en.is_empty() && o.label.en != o.label.zh);
            }
        }
    }
}

/// The policy control offers every policy the CLI knows, once.
#[test]
fn the_policy_knob_offers_every_policy() {
    let KnobRange::Choice { options, .. } = Knob::Policy.control().range else {
        panic!("the policy knob is a choice");
    };
    let mut offered: Vec<&str> = options.iter().map(|o| o.value).collect();
    let mut all: Vec<&str> = tailslice::policy::PolicyKind::ALL
        .iter()
        .map(|p| p.name())
        .collect();
    offered.sort_unstable();
    all.sort_unstable();
    assert_eq!(offered, all);
}

#[test]
fn every_knob_default_is_in_its_range_and_read_back_by_set() {
    let defaults = Knobs::default();
    for knob in Knob::ALL {
        let spec = knob.control();
        assert!(!spec.label.en.is_empty() && !spec.label.zh.is_empty());
        match defaults.text(knob) {
            Some(text) => {
                check_default_in_range(knob, &text);
                let mut k = Knobs::default();
                k.set(knob, knob.url_key(), &text)
                    .unwrap_or_else(|e| panic!("{knob:?} default {text}: {e}"));
                assert_eq!(k, defaults, "{knob:?}: default text reads back the same");
            }
            // "The scenario's default": the control must offer that choice.
            None => assert!(
                matches!(
                    spec.range,
                    KnobRange::Switch { unset: Some(_), .. }
                        | KnobRange::Choice { unset: Some(_), .. }
                        | KnobRange::Text {
                            placeholder: Some(_),
                            ..
                        }
                ),
                "{knob:?} has no default and no way to say so"
            ),
        }
        // Just outside a number range is refused, with the field named.
        if let KnobRange::Number { min, max, .. } = spec.range {
            for bad in [min - 1.0, max + 1.0] {
                let e = Knobs::default()
                    .set(knob, knob.flag(), &bad.to_string())
                    .unwrap_err();
                assert!(e.to_string().contains(knob.flag()), "{e}");
            }
        }
    }
    for m in scenario::MACHINE_EXAMPLES {
        Machine::parse("m", m, 0.3).unwrap();
    }
}

#[test]
fn each_scenario_lists_known_knobs_once() {
    for &s in ScenarioKind::ALL {
        let knobs = s.knobs();
        assert!(!knobs.is_empty(), "{}", s.name());
        let unique: HashSet<_> = knobs.iter().map(|k| k.url_key()).collect();
        assert_eq!(unique.len(), knobs.len(), "{}", s.name());
        assert!(knobs.iter().all(|k| Knob::ALL.contains(k)));
        assert!(s.lanes_per_group() >= 1);
    }
}

#[test]
fn each_scenario_runs_and_its_page_text_has_both_languages() {
    for &s in ScenarioKind::ALL {
        let knobs = Knobs {
            timeline: true,
            ..Knobs::default()
        };
        let mut r = scenario::run_metered(s.name(), &knobs, WEB_WORK_BUDGET, None)
            .unwrap_or_else(|e| panic!("{}: {e}", s.name()));
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["scenario"], s.name());
        let page = r.outcome().page_text();
        let (en, zh) = (&page.reading.en, &page.reading.zh);
        assert_eq!(en.is_empty(), zh.is_empty(), "{}", s.name());
        if !en.is_empty() {
            assert_ne!(en, zh, "{}: untranslated reading", s.name());
        }
        // Every table has a heading cell and one cell per column in every
        // row, in both languages.
        let tables = r.outcome().tables();
        assert_eq!(tables[0].id, "main", "{}", s.name());
        for t in &tables {
            assert_ne!(t.title.en, t.title.zh, "{}: untranslated title", s.name());
            for row in &t.rows {
                assert_eq!(row.cells.len(), t.columns.len(), "{} {}", s.name(), row.key);
            }
        }
        assert!(!r.to_text(Lang::En).is_empty());
        // The default run the page charts is one that was recorded, and the
        // run picker's labels (known before the run) name the runs.
        let labels = s.run_labels(&knobs);
        let runs: Vec<_> = r
            .outcome_mut()
            .runs_mut()
            .iter()
            .map(|v| v.label.clone())
            .collect();
        assert!(!runs.is_empty(), "{}: timeline on records runs", s.name());
        assert_eq!(labels, runs, "{}", s.name());
        assert!(labels.iter().all(|l| !l.zh.is_empty()));
        assert!(s.default_run(&knobs) < runs.len(), "{}", s.name());
        let on_m1 = Knobs {
            machine: Some("m1".into()),
            ..knobs.clone()
        };
        let mut r = s.run(&on_m1);
        assert!(s.default_run(&on_m1) < r.outcome_mut().runs_mut().len());
    }
}

#[test]
fn the_cli_runs_every_registered_scenario_and_lists_it() {
    let (code, help, _) = tailslice(&["scenario", "--help"]);
    assert_eq!(code, 0);
    for name in names() {
        assert!(help.contains(name), "--help lists {name}");
        let (code, out, err) = tailslice(&["scenario", name, "--json"]);
        assert_eq!(code, 0, "{name}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        assert_eq!(v["scenario"], name);
    }
    let (code, _, err) = tailslice(&["scenario"]);
    assert_eq!(code, 2);
    assert!(err.contains(&scenario::allowed_names().en), "{err}");
}

fn sources(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// The registry is the only place that knows scenarios: the CLI, the
/// wasm bindings and the page read it.
#[test]
fn no_front_end_knows_a_scenario_by_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src/cli"), "rs", &mut files);
    sources(&root.join("src/web"), "rs", &mut files);
    files.push(root.join("../www/scenario.js"));
    files.push(root.join("../www/strings/scenario.js"));
    let mut words: Vec<String> = names().iter().map(|n| n.to_string()).collect();
    // Per-scenario tables the page must not keep.
    words.extend(["KNOBS_FOR", "ALL_KNOBS", "QOS_NAMES", "ScenarioResult::"].map(String::from));
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for w in &words {
            assert!(!text.contains(w.as_str()), "{} mentions {w}", f.display());
        }
    }
}
