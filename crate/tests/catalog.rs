//! The page's catalog holds every entry of the core's own tables, with
//! values the parsers agree with (the page builds its controls from it,
//! so a gap here is a control missing on the page).

use tailslice::catalog::{catalog, Catalog, BROWSER_LIMITS};
use tailslice::experiment::metric::Metric;
use tailslice::experiment::sweep::SweepLimits;
use tailslice::experiment::{Experiment, Limits, Param};
use tailslice::param_spec::Params;
use tailslice::policy::PolicyKind;
use tailslice::sim::Qos;

fn web() -> Catalog {
    catalog(&Limits::WEB)
}

#[test]
fn every_param_has_its_key_flag_default_range_and_words() {
    let c = web();
    assert_eq!(c.params.len(), Param::ALL.len());
    for (p, e) in Param::ALL.into_iter().zip(&c.params) {
        assert_eq!(e.key, p.url_key());
        assert_eq!(e.flag, Some(p.flag()));
        // The default reads back as the default.
        let mut exp = Experiment::default();
        exp.set(p, e.key, &e.default, &Limits::WEB)
            .unwrap_or_else(|err| panic!("{}: {err}", e.key));
        assert_eq!(exp, Experiment::default(), "{}", e.key);
        // `allowed` is the parser's own refusal.
        let refusal = Experiment::default()
            .set(p, e.key, "not a value", &Limits::WEB)
            .unwrap_err();
        assert_eq!(e.allowed, refusal.allowed, "{}", e.key);
        assert!(!e.allowed.en.is_empty() && !e.allowed.zh.is_empty());
        assert_ne!(e.allowed.en, e.allowed.zh, "{}: not translated", e.key);
        for w in [
            (e.label.en.as_str(), e.label.zh.as_str()),
            (e.help.en, e.help.zh),
        ] {
            assert!(!w.0.is_empty() && !w.1.is_empty(), "{}", e.key);
            assert_ne!(w.0, w.1, "{}: not translated", e.key);
        }
        // Numeric bounds are accepted, and just past them refused.
        if let (Some(lo), Some(hi)) = (e.min, e.max) {
            let fmt = |v: f64| tailslice::error::fmt_number(v);
            for ok in [lo, hi] {
                Experiment::default()
                    .set(p, e.key, &fmt(ok), &Limits::WEB)
                    .unwrap_or_else(|err| panic!("{} = {ok}: {err}", e.key));
            }
            let step = if e.integer { 1.0 } else { hi * 1e-6 };
            assert!(
                Experiment::default()
                    .set(p, e.key, &fmt(hi + step), &Limits::WEB)
                    .is_err(),
                "{} above {hi}",
                e.key
            );
        }
    }
}

#[test]
fn tasks_are_bounded_by_the_front_ends_limit() {
    let n = |c: &Catalog| c.params.iter().find(|e| e.key == "n").unwrap().max;
    assert_eq!(n(&web()), Some(Limits::WEB.max_tasks as f64));
    assert_eq!(
        n(&catalog(&Limits::CLI)),
        Some(Limits::CLI.max_tasks as f64)
    );
}

#[test]
fn every_policy_with_its_title_and_quantum_use() {
    let c = web();
    let names: Vec<_> = c.policies.iter().map(|p| p.name).collect();
    let all: Vec<_> = PolicyKind::ALL.iter().map(|p| p.name()).collect();
    assert_eq!(names, all);
    for (p, e) in PolicyKind::ALL.into_iter().zip(&c.policies) {
        assert_eq!(e.title, p.name().to_uppercase());
        // Uses the quantum exactly when its schedule changes with it.
        let run = |q: f64| {
            let exp = Experiment {
                policies: vec![p],
                quantum: q,
                tasks: 50,
                ..Experiment::default()
            };
            exp.run(&Limits::WEB, false).unwrap().report().results[0]
                .summary
                .clone()
        };
        assert_eq!(e.uses_quantum, run(2.0) != run(64.0), "{}", e.name);
    }
    assert!(c.max_compared >= c.limits.page_max_policies);
}

#[test]
fn every_metric_once_with_both_titles() {
    let c = web();
    let names: Vec<_> = c.metrics.iter().map(|m| m.name).collect();
    assert_eq!(names, Metric::ALL.map(Metric::name));
    for m in &c.metrics {
        assert!(!m.title.en.is_empty() && !m.title.zh.is_empty());
        assert_eq!(Metric::from_name(m.name).map(Metric::name), Some(m.name));
        // A title names the threshold exactly when the figure depends on it.
        assert_eq!(m.threshold, m.title.en.contains("{ms}"), "{}", m.name);
        assert_eq!(m.threshold, m.title.zh.contains("{ms}"), "{}", m.name);
    }
    for m in c.seed_sweep_metrics.iter().chain(&c.quantum_sweep_metrics) {
        assert!(names.contains(m), "{m}");
    }
    // The table's "same" is the sentences' "same".
    assert_eq!(c.same_pct, 0.5);
}

#[test]
fn qos_machines_scenarios_and_limits() {
    let c = web();
    assert_eq!(c.qos.len(), Qos::ALL.len());
    for q in &c.qos {
        assert_eq!(Qos::parse(q.name).map(|x| x.number()), Some(q.number));
    }
    let names: Vec<_> = c.machines.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["a10", "m1", "xeon-w"]);
    for m in &c.machines {
        let parsed = tailslice::sim::Machine::parse("m", &m.name, 0.3).unwrap();
        assert_eq!(parsed.cores.len(), m.p_cores + m.e_cores);
    }
    assert_eq!(c.scenarios.len(), 3);
    assert!(c
        .knobs
        .iter()
        .any(|k| k.key == "m" && k.flag == "--machine"));
    assert_eq!(c.limits, BROWSER_LIMITS);
    assert_eq!(c.limits.max_tasks, Limits::WEB.max_tasks);
    assert_eq!(c.limits.max_classes, tailslice::workload::mix::MAX_CLASSES);
    assert!(c.limits.inline_max_slices < c.limits.large_slices);
    assert!(c.limits.large_slices < c.limits.gantt_max_slices);
    assert_eq!(c.langs, ["en", "zh"]);
    let lang = c.page_params.iter().find(|p| p.key == "lang").unwrap();
    assert_eq!(lang.allowed.en, "en or zh");
    assert_eq!(lang.allowed.zh, "en 或 zh");
    for p in &c.policies {
        assert_ne!(p.describe.en, p.describe.zh, "{}: not translated", p.name);
    }
}

#[test]
fn presets_are_valid_distinct_experiments_named_in_both_languages() {
    let c = web();
    assert!(c.presets.len() >= 2);
    assert_eq!(c.presets[0].query, "", "the study comes first");
    let mut seen = Vec::new();
    for p in &c.presets {
        let pairs = tailslice::query_string::decode_pairs(p.query);
        let (exp, errors) = Experiment::from_query(
            pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            &Limits::WEB,
        );
        assert!(errors.is_empty(), "{}: {errors:?}", p.query);
        assert!(
            !seen.contains(&exp),
            "{}: the same experiment twice",
            p.query
        );
        seen.push(exp);
        assert!(!p.name.en.is_empty() && !p.name.zh.is_empty());
        assert_ne!(p.name.en, p.name.zh, "{}: not translated", p.query);
    }
}

#[test]
fn the_pages_ranges_are_the_parsers() {
    let l = BROWSER_LIMITS;
    let (lo, hi) = l.sweep_steps_range;
    let ok = |steps: u32| {
        tailslice::experiment::sweep::parse_quanta_spec(
            "quanta",
            "0.5-500",
            steps,
            &SweepLimits::WEB,
        )
        .is_ok()
    };
    assert!(ok(lo) && ok(hi as u32) && !ok(lo - 1) && !ok(hi as u32 + 1));
    assert!((lo..=hi as u32).contains(&l.sweep_steps));
    let (lo, hi) = l.real_repeats;
    for (n, good) in [(lo, true), (hi, true), (lo - 1, false), (hi + 1, false)] {
        let (_, e) = tailslice::realrun::RealSettings::from_query([(
            "real_repeats",
            n.to_string().as_str(),
        )]);
        assert_eq!(e.is_empty(), good, "real_repeats={n}");
    }
}

#[test]
fn the_catalog_serialises_for_the_page() {
    let v = serde_json::to_value(web()).unwrap();
    for key in ["params", "policies", "metrics", "qos", "machines", "limits"] {
        assert!(v.get(key).is_some(), "{key}");
    }
    assert_eq!(v["params"][3]["key"], "q");
    assert_eq!(v["policies"][1]["uses_quantum"], true);
}
