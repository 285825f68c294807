//! Scenario runs are bounded: a work budget stops
//! a run too large for a browser tab and names the knobs; progress is
//! reported; an E core too slow to finish its job is said to be unfinished.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use tailslice::param_spec::Params;
use tailslice::scenario::{self, Knob, Knobs, ScenarioResult, WEB_WORK_BUDGET};
use tailslice::sim::budget::{metered, Progress};

mod cpu_budget;

fn knobs(pairs: &[(&str, &str)]) -> Knobs {
    let mut k = Knobs::default();
    for (key, v) in pairs {
        k.set(Knob::from_url_key(key).unwrap(), key, v).unwrap();
    }
    k
}

#[test]
fn every_scenario_at_its_defaults_fits_the_browser_budget() {
    for name in scenario::names() {
        let (r, used) = metered(u64::MAX, None, || scenario::run(name, &Knobs::default()));
        assert!(r.is_ok(), "{name}");
        assert!(
            used.units * 10 < WEB_WORK_BUDGET,
            "{name} uses {} units, budget {WEB_WORK_BUDGET}",
            used.units
        );
    }
}

#[test]
fn a_run_over_budget_stops_early_and_names_the_knobs() {
    // The link: every knob inside its range, minutes of work.
    let k = knobs(&[
        ("nq", "1000"),
        ("secs", "60"),
        ("m", "64p"),
        ("groups", "33,25,21,17,9,5"),
    ]);
    let e = cpu_budget::within("an over-budget run", Duration::from_secs(20), || {
        scenario::run_metered("feishu-demo", &k, 2_000_000, None).unwrap_err()
    });
    assert_eq!(e.field, "s");
    let m = e.to_string();
    for want in [
        "nq=1000",
        "secs=60",
        "m=64p",
        "6 group",
        "tailslice scenario feishu-demo",
    ] {
        assert!(m.contains(want), "{m} lacks {want}");
    }
}

#[test]
fn progress_is_reported_with_the_run_and_its_share_done() {
    let seen: Rc<RefCell<Vec<Progress>>> = Rc::default();
    let sink = seen.clone();
    let k = knobs(&[("nq", "300")]);
    let r = scenario::run_metered(
        "feishu-demo",
        &k,
        u64::MAX,
        Some(Box::new(move |p| sink.borrow_mut().push(p))),
    );
    assert!(r.is_ok());
    let seen = seen.borrow();
    assert!(!seen.is_empty(), "no progress reported");
    assert!(seen.windows(2).all(|w| w[0].units < w[1].units));
    assert!(seen
        .iter()
        .all(|p| (0.0..=1.0).contains(&p.frac) && p.run >= 1));
    // Several simulations (one per group) are counted.
    assert!(seen.last().unwrap().run > 1, "{:?}", seen.last());
}

#[test]
fn the_ep_ratio_has_a_sensible_floor() {
    let mut k = Knobs::default();
    let e = k.set(Knob::EpRatio, "ep", "1e-308").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid ep '1e-308': expected a number of times a P core's speed from 0.05 to 4"
    );
    assert!(k.set(Knob::EpRatio, "ep", "0.05").is_ok());
}

#[test]
fn jobs_that_do_not_finish_are_marked_and_noted() {
    // Below the knob's floor on purpose: only a struct can ask for it.
    let k = Knobs {
        ep_ratio: 0.001,
        machine: Some("m1".into()),
        ..Knobs::default()
    };
    let ScenarioResult::M1Compress(r) = scenario::run("m1-compress", &k).unwrap() else {
        panic!("not m1-compress");
    };
    let unfinished: Vec<_> = r
        .cases
        .iter()
        .flat_map(|c| &c.jobs)
        .filter(|j| j.unfinished)
        .collect();
    assert!(!unfinished.is_empty());
    assert!(r.notes.en[0].contains("did not finish"), "{:?}", r.notes.en);
    assert!(r.notes.zh[0].contains("没有完成"));
    let json = serde_json::to_string(&r).unwrap();
    assert!(json.contains("\"unfinished\":true"));
    let text = ScenarioResult::M1Compress(r).to_text(tailslice::text::Lang::En);
    assert!(text.contains(">1000.0 s"), "{text}");
    // A normal run writes no such field (its JSON is unchanged).
    let normal = scenario::run("m1-compress", &Knobs::default()).unwrap();
    assert!(!serde_json::to_string(&normal)
        .unwrap()
        .contains("unfinished"));
}
