//! `tailslice scenario`: JSON shapes and one-line errors.

mod cli_run;
use cli_run::tailslice_status as tailslice;

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = tailslice(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("valid JSON")
}

#[test]
fn feishu_demo_json_shape() {
    let v = json(&["scenario", "feishu-demo", "--json"]);
    let groups = v["groups"].as_array().unwrap();
    let qos: Vec<&str> = groups.iter().map(|g| g["qos"].as_str().unwrap()).collect();
    assert_eq!(
        qos,
        ["userInteractive", "userInitiated", "utility", "background"]
    );
    let measured: Vec<f64> = groups
        .iter()
        .map(|g| g["measured_pct"].as_f64().unwrap())
        .collect();
    assert_eq!(measured, [74.0, 73.0, 1.3, 1.3]);
    for g in groups {
        for k in [
            "main_running_pct",
            "main_runnable_pct",
            "main_preempted_pct",
        ] {
            assert!(g[k].is_f64(), "{k}");
        }
    }
    let series = v["pri_series"].as_array().unwrap();
    assert_eq!(series.len(), 4);
    assert!(series[0]["main"]["points"].as_array().unwrap().len() > 1);
}

#[test]
fn feishu_startup_json_shape() {
    let v = json(&["scenario", "feishu-startup", "--json"]);
    let configs = v["configs"].as_array().unwrap();
    let names: Vec<&str> = configs
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["default", "all-utility", "whitelist", "auto-whitelist"]
    );
    for c in configs {
        assert!(c["first_screen_ms"].is_f64() && c["first_refresh_ms"].is_f64());
    }
    let auto: Vec<&str> = configs[3]["whitelist"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q.as_str().unwrap())
        .collect();
    assert_eq!(auto, ["account", "db", "net-callback", "network"]);
}

#[test]
fn m1_compress_json_shape() {
    let v = json(&["scenario", "m1-compress", "--json"]);
    let cases = v["cases"].as_array().unwrap();
    let keys: Vec<(String, String, usize)> = cases
        .iter()
        .map(|c| {
            (
                c["machine"].as_str().unwrap().to_string(),
                c["case"].as_str().unwrap().to_string(),
                c["jobs"].as_array().unwrap().len(),
            )
        })
        .collect();
    for m in ["xeon-w", "m1"] {
        assert!(keys.contains(&(m.into(), "alone".into(), 4)), "{keys:?}");
        assert!(keys.contains(&(m.into(), "contention".into(), 2)));
        assert!(keys.contains(&(m.into(), "two-background".into(), 2)));
    }
    let alone = &cases.iter().find(|c| c["case"] == "alone").unwrap()["jobs"];
    let qos: Vec<u64> = alone
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["qos"].as_u64().unwrap())
        .collect();
    assert_eq!(qos, [9, 17, 25, 33]);
    for c in cases {
        for j in c["jobs"].as_array().unwrap() {
            assert!(j["seconds"].is_f64());
            assert!(j["measured_seconds"].is_f64() || j["measured_seconds"].is_null());
        }
    }
    assert!(v["calibration"].as_str().unwrap().contains("0.30"));
}

#[test]
fn knobs_reach_the_run() {
    let v = json(&["scenario", "m1-compress", "--json", "--machine", "xeon-w"]);
    assert!(v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["machine"] == "xeon-w"));
    let v = json(&[
        "scenario",
        "feishu-demo",
        "--json",
        "--band-limit",
        "off",
        "--queues",
        "50",
        "--seconds",
        "2",
    ]);
    assert_eq!(v["band_limit"], false);
    assert_eq!(v["queues"], 50);
}

#[test]
fn text_output_shows_measured_beside_simulated() {
    let (code, out, _) = tailslice(&["scenario", "feishu-demo"]);
    assert_eq!(code, 0);
    assert!(out.contains("74%") && out.contains("userInteractive"));
}

/// True when `s` has a CJK ideograph.
fn has_han(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn lang_zh_prints_notes_in_chinese() {
    for name in ["feishu-demo", "feishu-startup", "m1-compress"] {
        let (code, en, err) = tailslice(&["scenario", name]);
        assert_eq!(code, 0, "{err}");
        assert!(!has_han(&en), "{name}: English by default");
        let (code, en2, _) = tailslice(&["scenario", name, "--lang", "en"]);
        assert_eq!(code, 0);
        assert_eq!(en2, en, "{name}: --lang en is the default");
        let (code, zh, err) = tailslice(&["scenario", name, "--lang", "zh"]);
        assert_eq!(code, 0, "{err}");
        assert!(has_han(&zh), "{name}: {zh}");
        // The scenario's own table is the same; the sentences (reading,
        // mechanism table, notes, calibration) follow the language.
        let table = |s: &str| s.split("\n\n").take(2).collect::<Vec<_>>().join("\n\n");
        assert_eq!(table(&zh), table(&en), "{name}");
        if name == "m1-compress" {
            assert!(zh.contains("校准：") && !en.contains("校准"));
        }
        let notes = zh.matches("\n- ").count();
        assert_eq!(notes, en.matches("\n- ").count(), "{name}: same notes");
        assert!(notes >= 3, "{name}");
    }
    // zh-CN is accepted as zh, as for simulate.
    let (code, out, _) = tailslice(&["scenario", "m1-compress", "--lang", "zh-CN"]);
    assert_eq!(code, 0);
    assert!(out.contains("能效核"));
}

#[test]
fn json_has_both_languages_and_english_unchanged() {
    for name in ["feishu-demo", "feishu-startup", "m1-compress"] {
        let v = json(&["scenario", name, "--json"]);
        // --lang does not change the JSON.
        assert_eq!(
            json(&["scenario", name, "--json", "--lang", "zh"]),
            v,
            "{name}"
        );
        let en = v["notes"].as_array().unwrap();
        let zh = v["notes_zh"].as_array().unwrap();
        assert_eq!(en.len(), zh.len(), "{name}");
        for (e, z) in en.iter().zip(zh) {
            assert!(!has_han(e.as_str().unwrap()), "{name}: {e}");
            assert!(has_han(z.as_str().unwrap()), "{name}: {z}");
        }
    }
    // The English notes are the ones from before, same figures in both.
    let v = json(&["scenario", "feishu-demo", "--json"]);
    let en = v["notes"][0].as_str().unwrap();
    let zh = v["notes_zh"][0].as_str().unwrap();
    assert!(
        en.starts_with(
            "xnu on a10 (2 cores, band limit on, other system work on): \
             main thread Preempted + Runnable: userInteractive "
        ),
        "{en}"
    );
    assert!(en.contains("(measured 74 %); userInitiated "), "{en}");
    let level = format!(
        "{:.1} %",
        v["groups"][0]["main_waiting_pct"].as_f64().unwrap()
    );
    assert!(en.contains(&level) && zh.contains(&level), "{level}: {zh}");
    assert!(zh.contains("（实测 74 %）"), "{zh}");
    let v = json(&["scenario", "feishu-startup", "--json"]);
    let gain = format!(
        "{:+.0} ms",
        v["model_first_screen_gain_ms"].as_f64().unwrap()
    );
    assert!(v["notes"][1]
        .as_str()
        .unwrap()
        .contains(&format!("first screen {gain} (measured -100 ms)")));
    assert!(v["notes_zh"][1]
        .as_str()
        .unwrap()
        .contains(&format!("首屏 {gain}（实测 -100 ms）")));
    let v = json(&["scenario", "m1-compress", "--json"]);
    let cal = v["calibration"].as_str().unwrap();
    assert!(
        cal.starts_with("Two constants tuned, nothing else: chunk work = 305 ms"),
        "{cal}"
    );
    let cal_zh = v["calibration_zh"].as_str().unwrap();
    for figure in [
        "305 ms",
        "160",
        "48.8 s",
        "6.1 s",
        "5.6–6.6 s",
        "0.30",
        "41 s",
        "38–43 s",
    ] {
        assert!(
            cal.contains(figure) && cal_zh.contains(figure),
            "{figure}: {cal_zh}"
        );
    }
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for (args, expect) in [
        (vec!["scenario"], "error: missing scenario name"),
        (
            vec!["scenario", "nope"],
            "error: invalid scenario 'nope': expected feishu-demo",
        ),
        (
            vec!["scenario", "feishu-demo", "--band-limit", "maybe"],
            "error: invalid --band-limit 'maybe': expected on or off",
        ),
        (
            vec!["scenario", "feishu-demo", "--queues", "0"],
            "error: invalid --queues '0': expected a whole number from 1 to 1000",
        ),
        (
            vec!["scenario", "feishu-demo", "--queues", "1001"],
            "error: invalid --queues '1001'",
        ),
        (
            vec!["scenario", "m1-compress", "--machine", "m3"],
            "error: invalid --machine 'm3': expected a10, m1, xeon-w",
        ),
        (
            vec!["scenario", "m1-compress", "--ep-ratio", "-1"],
            "error: invalid --ep-ratio '-1': expected a number",
        ),
        (
            vec!["scenario", "m1-compress", "--ep-ratio"],
            "error: missing value for --ep-ratio",
        ),
        (
            vec!["scenario", "m1-compress", "--frobnicate", "1"],
            "error: unknown flag '--frobnicate'",
        ),
        (vec!["scenario", "feishu-demo", "extra"], "error:"),
        (
            vec!["scenario", "feishu-demo", "--lang", "fr"],
            "error: invalid --lang 'fr': expected en or zh",
        ),
        (
            vec!["scenario", "m1-compress", "--json", "--lang", ""],
            "error: invalid --lang '': expected en or zh",
        ),
        (
            vec!["scenario", "m1-compress", "--lang"],
            "error: missing value for --lang",
        ),
    ] {
        let (code, out, err) = tailslice(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert!(err.starts_with(expect), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

/// Any class runs every scenario (`--policy`); the JSON says which, and
/// carries the mechanism table's documented fields.
#[test]
fn every_policy_runs_every_scenario_from_the_cli() {
    let (code, help, _) = tailslice(&["scenario", "--help"]);
    assert_eq!(code, 0);
    for flag in ["--policy", "--clutch-rules", "--gcd-cap"] {
        assert!(help.contains(flag), "{help}");
    }
    for name in ["feishu-demo", "feishu-startup", "m1-compress"] {
        for policy in ["rr", "mlfq", "clutch"] {
            let mut args = vec!["scenario", name, "--json", "--policy", policy];
            if name == "feishu-demo" {
                args.extend(["--seconds", "1", "--queues", "20"]);
            }
            if name == "m1-compress" {
                args.extend(["--machine", "m1"]);
            }
            let v = json(&args);
            assert_eq!(v["policy"], policy, "{name}");
        }
    }
    // Round-robin ignores QoS: the main thread waits alike whatever the
    // queues' QoS.
    let v = json(&[
        "scenario",
        "feishu-demo",
        "--json",
        "--policy",
        "rr",
        "--seconds",
        "1",
    ]);
    let waiting: Vec<f64> = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["main_waiting_pct"].as_f64().unwrap())
        .collect();
    assert!(
        waiting.iter().all(|w| (w - waiting[0]).abs() < 1.0),
        "{waiting:?}"
    );
    // The mechanism table's fields.
    let v = json(&["scenario", "m1-compress", "--json", "--machine", "m1"]);
    let m = &v["mechanisms"];
    for key in [
        "what",
        "what_zh",
        "columns",
        "columns_zh",
        "measured",
        "tolerance_pct",
        "rows",
        "reading",
        "reading_zh",
    ] {
        assert!(!m[key].is_null(), "mechanisms.{key}");
    }
    for r in m["rows"].as_array().unwrap() {
        for key in [
            "mechanism",
            "label",
            "label_zh",
            "policy",
            "apps",
            "gcd_cap",
            "figures",
            "within",
            "reproduces",
        ] {
            assert!(!r[key].is_null(), "rows[].{key}");
        }
    }
    assert_eq!(m["measured"], serde_json::json!([40.0, 77.0]));
    // Other machines have no measurement to compare with.
    let v = json(&["scenario", "m1-compress", "--json", "--machine", "xeon-w"]);
    assert!(v["mechanisms"].is_null());
    // The study under clutch, apps named in the mix.
    let v = json(&[
        "simulate",
        "--json",
        "--policies",
        "xnu,clutch",
        "--machine",
        "m1",
        "--mix",
        "85:1-8@userInitiated~mail:ui,15:10-40@background~backup",
        "--tasks",
        "100",
    ]);
    assert_eq!(v["results"][1]["policy"], "clutch");
}
