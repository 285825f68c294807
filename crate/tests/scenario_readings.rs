//! Every sentence a scenario says about its run is made from that run's own
//! settings and figures: over a sample of each scenario's knob combinations
//! (machines, band limit, system work, queue groups, policy), its readings
//! (notes, the reading under each table, the mechanism table's reading, the
//! sched_pri caption; both languages) name only the run's machine(s), core
//! counts, band-limit state and queue groups. The calibration, which says
//! what the constants were tuned against, is not a reading of the run. The
//! CLI's text and the page's come from these same strings.

use tailslice::param_spec::Params;
use tailslice::scenario::{self, Knob, Knobs, ScenarioKind, ScenarioOutcome, ScenarioResult};
use tailslice::sim::{CoreKind, Machine, Qos};
use tailslice::text::Lang;

/// The machine names a reading could wrongly carry.
const MACHINES: [&str; 4] = ["a10", "m1", "xeon-w", "2p+4e"];

/// Whether `word` occurs in `text` as a word of its own (case-insensitive;
/// letters, digits, `-` and `+` join words).
fn has_word(text: &str, word: &str) -> bool {
    let t = text.to_lowercase();
    let joins = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '+';
    t.match_indices(word).any(|(i, _)| {
        let before = t[..i].chars().next_back();
        let after = t[i + word.len()..].chars().next();
        !before.is_some_and(joins) && !after.is_some_and(joins)
    })
}

/// Numbers said to count cores: `N cores`, `N P`, `N E`, `N 个核心`,
/// `N 个性能核`, `N 个能效核`.
fn core_counts(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit()
            && (i == 0 || !chars[i - 1].is_ascii_alphanumeric() && chars[i - 1] != '.')
        {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if i < chars.len() && chars[i] == '.' {
                continue;
            }
            let n: usize = chars[start..i].iter().collect::<String>().parse().unwrap();
            let rest: String = chars[i..chars.len().min(i + 8)].iter().collect();
            if [
                " core",
                " P ",
                " P)",
                " P,",
                " E ",
                " E)",
                " E,",
                " 个核心",
                " 个性能核",
                " 个能效核",
            ]
            .iter()
            .any(|p| rest.starts_with(p))
            {
                out.push(n);
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Every sentence the result says about its run, both languages.
fn readings(r: &ScenarioResult) -> Vec<String> {
    let json = serde_json::to_value(r).unwrap();
    let mut out = Vec::new();
    for key in ["notes", "notes_zh"] {
        for n in json[key].as_array().into_iter().flatten() {
            out.push(n.as_str().unwrap().to_string());
        }
    }
    if let Some(m) = json.get("mechanisms").filter(|m| !m.is_null()) {
        for key in ["reading", "reading_zh", "what", "what_zh"] {
            out.push(m[key].as_str().unwrap().to_string());
        }
    }
    let o = r.outcome();
    let page = o.page_text();
    for w in [&page.reading, &page.pri_caption] {
        out.push(w.en.clone());
        out.push(w.zh.clone());
    }
    for t in o.tables() {
        for w in [&t.title, &t.reading] {
            out.push(w.en.clone());
            out.push(w.zh.clone());
        }
    }
    out.extend(Lang::ALL.map(|l| r.to_text(l)).into_iter().map(|text| {
        // The CLI's text without the calibration line (not a reading).
        text.lines()
            .filter(|l| !l.starts_with("calibration:") && !l.starts_with("校准："))
            .collect::<Vec<_>>()
            .join("\n")
    }));
    out
}

/// A deterministic sample of knob settings covering every value of every
/// knob a scenario reads at least once.
fn samples(reads: &[Knob]) -> Vec<Vec<(Knob, &'static str)>> {
    let values: Vec<(Knob, Vec<&'static str>)> = [
        (Knob::Machine, vec!["", "a10", "m1", "xeon-w", "2p+4e"]),
        (Knob::BandLimit, vec!["", "on", "off"]),
        (Knob::SystemWork, vec!["", "off", "on"]),
        (
            Knob::Groups,
            vec![
                "",
                "utility,9",
                "userInitiated",
                "userInteractive,background",
            ],
        ),
        (Knob::Policy, vec!["xnu", "clutch", "rr"]),
    ]
    .into_iter()
    .filter(|(k, _)| reads.contains(k))
    .collect();
    let n = values.iter().map(|(_, v)| v.len()).max().unwrap_or(1) * 3;
    let mut seed: u64 = 0x2545_f491;
    (0..n)
        .map(|i| {
            values
                .iter()
                .map(|(k, v)| {
                    // The first rounds walk each list in order, the rest
                    // mix them.
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let pick = if i < v.len() {
                        i
                    } else {
                        (seed >> 33) as usize % v.len()
                    };
                    (*k, v[pick % v.len()])
                })
                .collect()
        })
        .collect()
}

#[test]
fn every_reading_names_only_its_own_run() {
    for &s in ScenarioKind::ALL {
        for sample in samples(s.knobs()) {
            let mut knobs = Knobs::default();
            knobs.set(Knob::Seconds, "secs", "1").unwrap();
            knobs.set(Knob::Queues, "nq", "12").unwrap();
            for &(k, v) in &sample {
                if !v.is_empty() {
                    knobs.set(k, k.url_key(), v).unwrap();
                }
            }
            let what = format!("{} {sample:?}", s.name());
            let r = scenario::run(s.name(), &knobs).unwrap();
            let json = serde_json::to_value(&r).unwrap();
            // The run's machines.
            let machines: Vec<Machine> = match (&knobs.machine, s.name()) {
                (Some(_), _) => vec![knobs.machine_or(Machine::m1)],
                (None, "m1-compress") => vec![Machine::xeon_w(), Machine::m1(knobs.ep_ratio)],
                (None, _) => vec![Machine::a10()],
            };
            let names: Vec<&str> = machines.iter().map(|m| m.name.as_str()).collect();
            let mut counts: Vec<usize> = Vec::new();
            for m in &machines {
                counts.extend([
                    m.cores.len(),
                    m.count(CoreKind::Performance),
                    m.count(CoreKind::Efficiency),
                ]);
            }
            let band = json["band_limit"].as_bool();
            let groups: Vec<&str> = json["groups"]
                .as_array()
                .map(|g| g.iter().map(|g| g["qos"].as_str().unwrap()).collect())
                .unwrap_or_default();
            for text in readings(&r) {
                for m in MACHINES {
                    assert!(
                        names.contains(&m) || !has_word(&text, m),
                        "{what}: names {m} on {names:?}: {text}"
                    );
                }
                for n in core_counts(&text) {
                    assert!(
                        counts.contains(&n),
                        "{what}: {n} cores on {names:?}: {text}"
                    );
                }
                if let Some(on) = band {
                    let (wrong_en, wrong_zh) = if on {
                        ("band limit off", "优先级衰减下限关")
                    } else {
                        ("band limit on", "优先级衰减下限开")
                    };
                    assert!(
                        !text.contains(wrong_en) && !text.contains(wrong_zh),
                        "{what}: band limit {on}: {text}"
                    );
                }
                if s.name() == "feishu-demo" {
                    // `default` is also an ordinary word.
                    for q in Qos::ALL.into_iter().filter(|&q| q != Qos::Default) {
                        assert!(
                            groups.contains(&q.name())
                                || !has_word(&text, &q.name().to_lowercase()),
                            "{what}: names {} with groups {groups:?}: {text}",
                            q.name()
                        );
                    }
                }
            }
        }
    }
}

/// `?s=feishu-demo&bl=off&m=m1`: the notes speak of the M1's 8 cores with
/// the band limit off, and quote the low groups' own figures.
#[test]
fn feishu_demo_on_m1_without_the_band_limit_describes_that_run() {
    let mut knobs = Knobs::default();
    knobs.set(Knob::BandLimit, "bl", "off").unwrap();
    knobs.set(Knob::Machine, "m", "m1").unwrap();
    knobs.set(Knob::Seconds, "secs", "2").unwrap();
    let ScenarioResult::FeishuDemo(r) = scenario::run("feishu-demo", &knobs).unwrap() else {
        unreachable!()
    };
    let notes = r.notes.en.join("\n");
    assert!(
        notes.contains("8 cores") && notes.contains("band limit off"),
        "{notes}"
    );
    assert!(
        !notes.contains("A10") && !notes.contains("2 cores"),
        "{notes}"
    );
    for g in r.groups.iter().filter(|g| g.main_waiting_pct <= 50.0) {
        let figure = format!("{} {:.1} %", g.qos, g.main_waiting_pct);
        assert!(notes.contains(&figure), "{figure}: {notes}");
    }
    assert!(r.page_text().pri_caption.en.contains("band limit off"));
}

/// `?s=feishu-demo&groups=utility,9&sys=off`: no high group in the run, so
/// no sentence speaks of one.
#[test]
fn feishu_demo_with_only_low_groups_names_no_high_group() {
    let mut knobs = Knobs::default();
    knobs.set(Knob::Groups, "groups", "utility,9").unwrap();
    knobs.set(Knob::SystemWork, "sys", "off").unwrap();
    knobs.set(Knob::Seconds, "secs", "2").unwrap();
    let r = scenario::run("feishu-demo", &knobs).unwrap();
    for text in readings(&r) {
        assert!(
            !text.contains("userInteractive") && !text.contains("userInitiated"),
            "{text}"
        );
        assert!(!text.contains("high groups"), "{text}");
    }
}

/// The checks above catch what they look for.
#[test]
fn the_checks_catch_a_wrong_machine_core_count_or_group() {
    assert!(has_word("the A10's switching", "a10"));
    assert!(has_word("on m1 (8 cores)", "m1"));
    assert!(!has_word("xnu-11215 on 2p+4e", "m1"));
    assert!(has_word("this run is on 2p+4e.", "2p+4e"));
    assert!(!has_word("m1-compress", "m1"));
    assert_eq!(
        core_counts("with 2 cores, 4 P first, spilling to 2 E)"),
        [2, 4, 2]
    );
    assert_eq!(core_counts("在全部 2 个核心上（先用 4 个性能核）"), [2, 4]);
    assert_eq!(
        core_counts("1.3 ms every 100 ms, 12 spinners"),
        Vec::<usize>::new()
    );
    assert!(has_word("the high userinitiated queues", "userinitiated"));
}
