//! What each scenario must show, one test each, through the public API.

use tailslice::scenario::{self, Knob, Knobs, ScenarioResult};
use tailslice::sim::Qos;

fn demo(knobs: &Knobs) -> scenario::FeishuDemoResult {
    match scenario::run("feishu-demo", knobs).unwrap() {
        ScenarioResult::FeishuDemo(r) => r,
        _ => unreachable!(),
    }
}

fn startup() -> scenario::FeishuStartupResult {
    match scenario::run("feishu-startup", &Knobs::default()).unwrap() {
        ScenarioResult::FeishuStartup(r) => r,
        _ => unreachable!(),
    }
}

fn compress() -> scenario::M1CompressResult {
    match scenario::run("m1-compress", &Knobs::default()).unwrap() {
        ScenarioResult::M1Compress(r) => r,
        _ => unreachable!(),
    }
}

fn seconds(r: &scenario::M1CompressResult, machine: &str, case: &str, qos: u8) -> Vec<f64> {
    r.cases
        .iter()
        .filter(|c| c.machine == machine && c.case == case)
        .flat_map(|c| c.jobs.iter().filter(|j| j.qos == qos).map(|j| j.seconds))
        .collect()
}

#[test]
fn feishu_demo_high_groups_keep_the_main_thread_waiting_low_ones_do_not() {
    let r = demo(&Knobs::default());
    let names: Vec<&str> = r.groups.iter().map(|g| g.qos).collect();
    assert_eq!(
        names,
        ["userInteractive", "userInitiated", "utility", "background"]
    );
    for g in &r.groups {
        let waiting = g.main_runnable_pct + g.main_preempted_pct;
        let sum = g.main_running_pct + waiting;
        assert!((sum - 100.0).abs() < 1e-6, "{} sums to {sum}", g.qos);
        match g.qos {
            "userInteractive" | "userInitiated" => assert!(waiting >= 50.0, "{}: {waiting}", g.qos),
            _ => assert!(waiting <= 5.0, "{}: {waiting}", g.qos),
        }
    }
    let measured: Vec<Option<f64>> = r.groups.iter().map(|g| g.measured_pct).collect();
    assert_eq!(measured, [Some(74.0), Some(73.0), Some(1.3), Some(1.3)]);
}

#[test]
fn feishu_demo_main_thread_floor_is_29_with_the_band_limit_and_absent_without() {
    let on = demo(&Knobs::default());
    for (g, s) in on.groups.iter().zip(&on.pri_series) {
        assert!(g.main_min_pri >= 29, "{}: {}", g.qos, g.main_min_pri);
        assert!(s.main.points.iter().all(|&(_, p)| p >= 29));
    }
    // Under contention in the foreground bucket it sits right on the floor.
    assert_eq!(on.groups[1].main_min_pri, 29);
    assert!(on.pri_series[1].main.points.iter().any(|&(_, p)| p == 29));
    assert!(
        on.pri_series[1].worker.points.len() > 10,
        "the worker's priority moves"
    );

    let mut knobs = Knobs::default();
    knobs.set(Knob::BandLimit, "--band-limit", "off").unwrap();
    let off = demo(&knobs);
    assert!(!off.band_limit);
    assert!(
        off.groups[1].main_min_pri < 29,
        "{}",
        off.groups[1].main_min_pri
    );
    assert!(off.pri_series[1].main.points.iter().any(|&(_, p)| p < 29));
}

#[test]
fn feishu_demo_knobs_change_the_run() {
    let mut knobs = Knobs::default();
    knobs.set(Knob::Queues, "--queues", "5").unwrap();
    knobs.set(Knob::Groups, "--groups", "utility,33").unwrap();
    knobs.set(Knob::Seconds, "--seconds", "2").unwrap();
    knobs.set(Knob::Timeline, "--timeline", "on").unwrap();
    let r = demo(&knobs);
    assert_eq!(r.groups.len(), 2);
    assert_eq!(r.groups[1].qos, "userInteractive");
    assert_eq!(r.runs.len(), 2);
    // 1 main + 5 queues + 2 system-work threads.
    assert_eq!(r.runs[0].run.threads.len(), 8);
    assert!(!r.runs[0].run.segments.is_empty() && !r.runs[0].run.intervals.is_empty());
}

#[test]
fn feishu_startup_all_utility_trades_refresh_for_first_screen_whitelist_wins_both() {
    let r = startup();
    let names: Vec<&str> = r.configs.iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        ["default", "all-utility", "whitelist", "auto-whitelist"]
    );
    let [default, all_utility, whitelist, auto] = &r.configs[..] else {
        unreachable!()
    };
    for c in &r.configs {
        assert!(
            c.first_screen_ms.is_finite() && c.first_refresh_ms.is_finite(),
            "{}",
            c.name
        );
    }
    assert!(all_utility.first_screen_ms < default.first_screen_ms);
    assert!(all_utility.first_refresh_ms > default.first_refresh_ms);
    assert!(whitelist.first_screen_ms < default.first_screen_ms);
    assert!(whitelist.first_refresh_ms < default.first_refresh_ms);
    assert_eq!(auto.first_screen_ms, whitelist.first_screen_ms);
    assert_eq!(auto.first_refresh_ms, whitelist.first_refresh_ms);
}

#[test]
fn feishu_startup_auto_whitelist_finds_the_hand_whitelist() {
    let r = startup();
    let hand: Vec<String> = scenario::feishu_startup::HAND_WHITELIST
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(r.configs[2].whitelist.as_ref(), Some(&hand));
    assert_eq!(r.configs[3].whitelist.as_ref(), Some(&hand));
    // search-index waits on the database read but the refresh does not wait
    // on it: it must stay out.
    assert!(!hand.contains(&"search-index".to_string()));
}

#[test]
fn m1_compress_xeon_alone_is_the_same_at_every_qos_and_background_loses_under_contention() {
    let r = compress();
    let alone: Vec<f64> = [9, 17, 25, 33]
        .iter()
        .flat_map(|&q| seconds(&r, "xeon-w", "alone", q))
        .collect();
    assert_eq!(alone.len(), 4);
    for s in &alone {
        assert!((s - alone[0]).abs() < 0.05 * alone[0], "{alone:?}");
        assert!(
            (5.6..=6.6).contains(s),
            "calibrated into the measured range: {s}"
        );
    }
    let bg = seconds(&r, "xeon-w", "contention", 9)[0];
    let ui = seconds(&r, "xeon-w", "contention", 33)[0];
    assert!(bg > 1.8 * ui, "QoS 9 {bg} s vs QoS 33 {ui} s");
    assert!(
        (ui - alone[3]).abs() < 0.1 * alone[3],
        "QoS 33 in normal time: {ui}"
    );
}

#[test]
fn m1_compress_background_stays_on_e_cores_and_is_several_times_slower() {
    let r = compress();
    let alone = r
        .cases
        .iter()
        .find(|c| c.machine == "m1" && c.case == "alone")
        .unwrap();
    let bg = alone.jobs.iter().find(|j| j.qos == 9).unwrap();
    assert_eq!(bg.cores_used, 4);
    assert_eq!(bg.efficiency_core_share, 1.0);
    assert!(
        (38.0..=43.0).contains(&bg.seconds),
        "calibrated: {}",
        bg.seconds
    );
    for j in alone.jobs.iter().filter(|j| j.qos >= 17) {
        assert_eq!(j.cores_used, 8, "QoS {} uses all eight cores", j.qos);
        assert!(
            bg.seconds > 3.0 * j.seconds,
            "{} vs {}",
            bg.seconds,
            j.seconds
        );
    }
    // Two background jobs: E cores only, and the pair takes about twice as
    // long as one.
    let two = r
        .cases
        .iter()
        .find(|c| c.machine == "m1" && c.case == "two-background")
        .unwrap();
    let measured: Vec<Option<f64>> = two.jobs.iter().map(|j| j.measured_seconds).collect();
    assert_eq!(measured, [Some(40.0), Some(77.0)]);
    for j in &two.jobs {
        assert_eq!(j.efficiency_core_share, 1.0);
        assert!(j.seconds > 1.8 * bg.seconds);
    }
    assert!(r.calibration.en.contains("0.30") && r.calibration.en.contains("305 ms"));
}

#[test]
fn m1_background_keeps_to_e_cores_while_p_cores_idle() {
    // Alone on m1, QoS 9: the P cores never run anything.
    let mut knobs = Knobs::default();
    knobs.set(Knob::Machine, "--machine", "m1").unwrap();
    knobs.set(Knob::Timeline, "--timeline", "on").unwrap();
    knobs.max_records = 1_000_000;
    let r = match scenario::run("m1-compress", &knobs).unwrap() {
        ScenarioResult::M1Compress(r) => r,
        _ => unreachable!(),
    };
    let run = r.runs.iter().find(|v| v.label.en == "m1 alone 9").unwrap();
    assert!(!run.run.truncated);
    assert!(run.run.segments.iter().all(|s| s.core >= 4));
}

#[test]
fn every_scenario_runs_with_its_default_knobs() {
    // How long they take natively: scripts/bench-core.sh.
    for name in scenario::names() {
        scenario::run(name, &Knobs::default()).unwrap();
    }
}

#[test]
fn unknown_scenario_and_bad_knobs_name_field_value_and_range() {
    let e = scenario::run("feishu", &Knobs::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid scenario 'feishu': expected feishu-demo, feishu-startup or m1-compress"
    );
    let mut k = Knobs::default();
    for (knob, bad) in [
        (Knob::Queues, "0"),
        (Knob::Queues, "1001"),
        (Knob::BandLimit, "maybe"),
        (Knob::Machine, "m2"),
        (Knob::Machine, "0p+0e"),
        (Knob::EpRatio, "0"),
        (Knob::EpRatio, "NaN"),
        (Knob::Groups, "fast"),
        (Knob::Seconds, "1000"),
    ] {
        let e = k.set(knob, knob.flag(), bad).unwrap_err();
        assert_eq!(e.field, knob.flag());
        assert_eq!(e.value, bad);
        assert!(!e.allowed.en.is_empty() && !e.allowed.zh.is_empty());
    }
    assert_eq!(k, Knobs::default(), "a refused value changes nothing");
    assert_eq!(Qos::parse("17"), Some(Qos::Utility));
}
