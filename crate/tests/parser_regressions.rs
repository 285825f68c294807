//! One regression test per bug the fuzzers and the Unicode proptests found
//! in the parsers of outside input, at the level where it broke.

use std::time::Duration;

use tailslice::experiment::sweep::{parse_quanta, parse_quanta_spec, SweepLimits};
use tailslice::experiment::{Experiment, Limits};
use tailslice::scenario::{Knob, Knobs};
use tailslice::sim::machine::{Machine, M1_EP_RATIO};
use tailslice::workload::mix::Mix;

mod cpu_budget;

#[test]
fn machine_text_ending_inside_a_multibyte_character() {
    // `m=é` must not slice the last *byte* off as the core kind.
    for text in ["é", "2p+4中", "4p+é", "😀"] {
        let e = Machine::parse("m", text, M1_EP_RATIO).unwrap_err();
        assert_eq!(e.field, "m");
        assert_eq!(e.value, text);
        let e = Knobs::default().set(Knob::Machine, "m", text).unwrap_err();
        assert_eq!(e.field, "m");
    }
    // Valid machines are read as before.
    let m = Machine::parse("m", " 2P+4e ", M1_EP_RATIO).unwrap();
    assert_eq!((m.name.as_str(), m.cores.len()), ("2p+4e", 6));
    assert_eq!(Machine::parse("m", "1p+1e+2p", 0.3).unwrap().name, "3p+1e");
    assert_eq!(Machine::parse("m", "64e", 0.3).unwrap().cores.len(), 64);
    assert!(Machine::parse("m", "64e+1p", 0.3).is_err());
}

#[test]
fn machine_core_counts_cannot_overflow() {
    // The counts were summed unchecked: usize::MAX + 2 wrapped to a 1-core
    // machine (release) or panicked (debug).
    for text in [
        "18446744073709551615p+2p",
        "18446744073709551615p+1e",
        "65p",
    ] {
        assert!(Machine::parse("m", text, M1_EP_RATIO).is_err(), "{text}");
    }
}

#[test]
fn pareto_mean_is_finite_for_large_scale_and_shape() {
    // xm^alpha overflowed (2000^100 = inf) and inf * 0 made the mean NaN,
    // which every size check (`estimate > limit`) let through.
    let m = Mix::parse("mix", "1:pareto(3000000,100)").unwrap();
    let mean = m.mean_work();
    // E[min(X, 3.6e6)] for X ~ Pareto(3e6, 100): a little above 3e6.
    assert!((3.0e6..3.1e6).contains(&mean), "{mean}");
    // ln(M / xm) overflowed for a tiny xm at alpha = 1 (the mix fuzzer's
    // find): an infinite mean refused a mix of 5e-324 ms tasks as too big.
    let m = Mix::parse("mix", "1:pareto(5e-324,1)").unwrap();
    assert!(
        m.mean_work() > 0.0 && m.mean_work() < 1e-300,
        "{}",
        m.mean_work()
    );
    // Unchanged where the old formula was finite: pareto(2,1.5) clamped.
    let m = Mix::parse("mix", "1:pareto(2,1.5)").unwrap();
    let xm: f64 = 2.0;
    let max: f64 = 3_600_000.0;
    let old = xm + xm.powf(1.5) * (max.powf(-0.5) - xm.powf(-0.5)) / -0.5;
    assert!(
        (m.mean_work() - old).abs() < 1e-9 * old,
        "{}",
        m.mean_work()
    );
}

#[test]
fn a_nan_estimate_no_longer_passes_the_size_guard() {
    // 1M tasks of ~3e6 ms at a 16 ms quantum: far beyond the browser's
    // limit, but a NaN estimate was accepted.
    let (exp, errors) = Experiment::from_query(
        [("mix", "1:pareto(3000000,100)"), ("n", "1000000")],
        &Limits::WEB,
    );
    assert!(!errors.is_empty(), "accepted: {exp:?}");
    assert!(
        errors.iter().all(|e| e.field == "q" || e.field == "n"),
        "{errors:?}"
    );
    assert!(exp.estimated_slices() <= Limits::WEB.max_slices as f64);
}

#[test]
fn a_long_quanta_list_is_refused_without_a_quadratic_scan() {
    // 100,000 distinct quanta were all compared with each other before the
    // count limit was checked (seconds of work for one flag value).
    let list = (1..=100_000)
        .map(|i| format!("{}", i as f64 / 1000.0))
        .collect::<Vec<_>>()
        .join(",");
    let e = cpu_budget::within("refusing 100,000 quanta", Duration::from_secs(1), || {
        parse_quanta("--quanta", &list, &SweepLimits::CLI).unwrap_err()
    });
    assert_eq!(e.field, "--quanta");
    // A full list is still accepted.
    let ok = (1..=200)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    assert_eq!(
        parse_quanta("--quanta", &ok, &SweepLimits::CLI)
            .unwrap()
            .len(),
        200
    );
}

#[test]
fn a_quanta_range_from_a_tiny_lo_is_refused() {
    // The page printed each quantum with 6 decimals: from LO = 1e-7 they
    // read 0 (a sweep refused as needing "inf" slices); from LO = 5e-324,
    // HI / LO overflowed and the quanta were NaN.
    for text in ["1e-7-1", "5e-324-100000", "0.0009-1"] {
        let e = parse_quanta_spec("quanta", text, 16, &SweepLimits::WEB).unwrap_err();
        assert_eq!(e.field, "quanta");
        assert!(e.allowed.contains("0.001 ≤ LO"), "{e}");
    }
    // The smallest range still works, 3 significant digits each.
    let q = parse_quanta_spec("quanta", "0.001-0.01", 4, &SweepLimits::WEB).unwrap();
    assert_eq!(q, [0.001, 0.00215, 0.00464, 0.01]);
    // The page's default is unchanged.
    let q = parse_quanta_spec("quanta", "0.5-500", 16, &SweepLimits::WEB).unwrap();
    assert_eq!((q.len(), q[0], q[15]), (16, 0.5, 500.0));
}

#[test]
fn an_experiment_file_reads_back_every_duration_exactly() {
    // serde_json's default float parsing read 5e-32 back as
    // 4.999999999999999e-32: a saved experiment did not reproduce its tasks.
    use tailslice::experiment::export::{experiment_json, parse_experiment_json};
    use tailslice::workload::task_list;
    let w = task_list::parse_task_list(
        "0,0\n1e9,0\n5e-324,5e-32\n0,0.30000000000000004\n",
        Limits::CLI.max_tasks,
    )
    .unwrap();
    let exp = Experiment::default().for_workload(&w);
    let back = parse_experiment_json(&experiment_json(&exp, Some(&w), None), &Limits::CLI).unwrap();
    assert_eq!(back.tasks, Some(w));
}

#[test]
fn trace_names_with_control_or_bidi_characters() {
    // Found by the trace proptests: a bidirectional override in a task's
    // name reached the summary's longest-task labels, and a control
    // character in a thread's name reached the "no main thread" message.
    use tailslice::error::is_hidden_char;
    use tailslice::trace::{import_trace, TraceOptions};
    let task = br#"[{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"CrRendererMain"}},{"ph":"X","name":"RunTask","pid":1,"tid":1,"ts":0,"dur":60000},{"ph":"X","name":"x\u202Ey","pid":1,"tid":1,"ts":1,"dur":50000}]"#;
    let imp = import_trace(task, &TraceOptions::default()).unwrap();
    for lang in tailslice::text::Lang::ALL {
        for line in imp.found.lines(lang) {
            assert!(!line.chars().any(is_hidden_char), "{line:?}");
        }
    }
    let thread = br#"[{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"\u007fCrRendererMain"}},{"ph":"X","name":"RunTask","pid":1,"tid":1,"ts":0,"dur":60}]"#;
    let e = import_trace(thread, &TraceOptions::default()).unwrap_err();
    for lang in tailslice::text::Lang::ALL {
        let m = e.message(lang);
        assert!(!m.chars().any(is_hidden_char), "{m:?}");
    }
}
