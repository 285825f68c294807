//! What a shared link's bad values turn into: the
//! key the visitor wrote, the value they wrote, a bound in words, and
//! exactly the parameter that falls back changed.

use tailslice::experiment::{Experiment, Limits, Param};
use tailslice::workload::Workload;

fn parse(pairs: &[(&str, &str)]) -> (Experiment, Vec<tailslice::error::ParamError>) {
    Experiment::from_query(pairs.iter().copied(), &Limits::WEB)
}

#[test]
fn a_tiny_quantum_is_refused_under_q_with_the_written_value() {
    let (e, errors) = parse(&[("q", "1e-308")]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let msg = errors[0].to_string();
    assert_eq!(
        msg,
        "invalid q '1e-308': expected a number of ms from 0.001 to 100000"
    );
    assert!(!msg.contains("inf"));
    assert_eq!(e.quantum, 16.0);
}

#[test]
fn a_run_too_large_blames_q_and_resets_only_q() {
    let (e, errors) = parse(&[("n", "1000000"), ("q", "0.001")]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].field, "q");
    assert_eq!(errors[0].value, "0.001");
    assert!(
        errors[0].allowed.en.contains("1000000 tasks"),
        "{}",
        errors[0].allowed.en
    );
    assert!(!errors[0].to_string().contains("inf"));
    // The task count the link asked for is kept: only q fell back.
    assert_eq!(e.tasks, 1_000_000);
    assert_eq!(e.quantum, 16.0);
    assert!(e.check_size(&Limits::WEB).is_ok());
}

#[test]
fn when_q_alone_cannot_make_it_fit_n_is_blamed() {
    // Policies whose slice does not depend on q: 1,000,000 tasks of a huge
    // mix under mlfq with a 1 ms boost over an hour-long run.
    let (e, errors) = parse(&[
        ("n", "1000000"),
        ("mix", "1:fixed(3600000)"),
        ("p", "fifo,mlfq"),
        ("mlfq_boost", "1"),
    ]);
    assert!(
        errors.iter().any(|e| e.field == "n"),
        "{errors:?} should name n"
    );
    assert!(e.check_size(&Limits::WEB).is_ok());
}

#[test]
fn a_repeated_key_keeps_its_first_value_and_says_so() {
    for (second, msg_has) in [("0", "first value '8'"), ("9", "first value '8'")] {
        let (e, errors) = parse(&[("q", "8"), ("q", second)]);
        assert_eq!(e.quantum, 8.0, "q=8&q={second}");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].field, "q");
        assert_eq!(errors[0].value, second);
        let m = errors[0].to_string();
        assert!(m.contains(msg_has), "{m}");
        assert!(m.contains("only once"), "{m}");
    }
}

#[test]
fn the_mlfq_boost_message_says_off_once() {
    let (_, errors) = parse(&[("mlfq_boost", "0.5")]);
    let m = errors[0].to_string();
    assert_eq!(m.matches("off").count(), 1, "{m}");
    assert!(m.contains("off or a number of ms from 1 to"), "{m}");
}

#[test]
fn tiny_values_have_lower_bounds_and_minus_zero_is_zero() {
    for (k, v) in [("within", "1e-308"), ("cs", "1e-308"), ("q", "0.0001")] {
        let (_, errors) = parse(&[(k, v)]);
        assert_eq!(errors.len(), 1, "{k}={v}: {errors:?}");
        assert!(errors[0].allowed.contains("0.001"), "{}", errors[0]);
    }
    let (e, errors) = parse(&[("cs", "-0")]);
    assert!(errors.is_empty());
    assert!(e.switch_cost == 0.0 && e.switch_cost.is_sign_positive());
    // Written back in the shortest form, and -0 not at all (it is the default).
    assert!(e.to_query().is_empty(), "{:?}", e.to_query());
    let (e, _) = parse(&[("q", "0.001"), ("cs", "0.5"), ("within", "1000000000")]);
    let q: Vec<_> = e.to_query();
    assert!(q.contains(&("q", "0.001".to_string())), "{q:?}");
    assert!(q.contains(&("within", "1000000000".to_string())), "{q:?}");
    assert!(q.iter().all(|(_, v)| v.len() < 20), "{q:?}");
}

#[test]
fn the_drawn_workload_is_sized_not_the_mix_mean() {
    // Seed 1847 draws a one-hour task from pareto(1, 0.5):
    // the mean-based estimate says a few thousand slices, the drawn
    // workload needs millions.
    let (e, errors) = parse(&[
        ("n", "1"),
        ("mix", "1:pareto(1,0.5)"),
        ("seed", "1847"),
        ("q", "0.2"),
    ]);
    assert!(errors.is_empty(), "{errors:?}");
    assert!(e.estimated_slices() < 100_000.0, "{}", e.estimated_slices());
    let w = Workload::generate(&e.workload_spec());
    let drawn = e.slices_on(&w);
    assert!(drawn > 1e7, "drawn estimate {drawn}");
    let small = Limits {
        max_tasks: 10,
        max_slices: 1_000_000,
    };
    let err = e.check_drawn_size(&w, &small).unwrap_err();
    assert_eq!(err.field, "q");
    assert!(err.allowed.contains("longest"), "{err}");
    assert!(e.check_drawn_size(&w, &Limits::WEB).is_ok());
}

/// The machine and QoS keys: a good link opens
/// the study on an A10 under XNU, written back as it came; bad values are
/// refused under their key and the rest of the link still loads.
#[test]
fn machine_and_qos_links_round_trip_and_bad_ones_fall_back() {
    let mix = "85:1-8@userInitiated,12:10-40@utility,3:80-200@utility";
    let (e, errors) = parse(&[("p", "fifo,rr,xnu"), ("machine", "a10"), ("mix", mix)]);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(e.core_count(), 2);
    let q = e.to_query();
    assert!(q.contains(&("machine", "a10".to_string())), "{q:?}");
    assert!(q.contains(&("mix", mix.to_string())), "{q:?}");
    assert!(q.contains(&("p", "fifo,rr,xnu".to_string())), "{q:?}");
    // An old link (no machine key) keeps meaning identical cores.
    let (old, _) = parse(&[("cores", "4")]);
    assert!(old.machine.is_none());
    assert_eq!(old.core_count(), 4);

    let (e, errors) = parse(&[("machine", "65p"), ("mix", "85:1-8@fast"), ("seed", "7")]);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(errors[0].field, "machine");
    assert!(
        errors[0].allowed.en.contains("1 to 64 cores"),
        "{}",
        errors[0].allowed.en
    );
    assert_eq!(errors[1].field, "mix");
    assert!(
        errors[1].allowed.en.contains("userInitiated"),
        "{}",
        errors[1].allowed.en
    );
    assert!(e.machine.is_none());
    assert!(!e.mix.has_qos());
    assert_eq!(e.seed, 7);
}

#[test]
fn a_plus_typed_in_a_link_reads_as_the_same_machine() {
    use tailslice::query_string::{decode_pairs, percent_encode};
    // `?machine=2p+4e` typed by hand: the `+` arrives as a space.
    for query in [
        "machine=2p+4e",
        "machine=2p%204e",
        "machine=2p%2B4e",
        "machine=2P+%2B+4e",
    ] {
        let pairs = decode_pairs(query);
        let (e, errors) = Experiment::from_query(
            pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            &Limits::WEB,
        );
        assert!(errors.is_empty(), "{query}: {errors:?}");
        assert_eq!(e.get(Param::Machine), "2p+4e", "{query}");
        assert_eq!(e.core_count(), 6, "{query}");
        // Written back, the link survives both decoders.
        let written = format!("machine={}", percent_encode(&e.get(Param::Machine)));
        assert_eq!(written, "machine=2p%2B4e");
    }
    let mut knobs = tailslice::scenario::Knobs::default();
    knobs
        .set(tailslice::scenario::Knob::Machine, "m", "2p 4e")
        .unwrap();
    assert_eq!(knobs.machine.as_deref(), Some("2p+4e"));
}

/// A link keeps no `cores=` that a named machine overrides (the page's
/// Cores control is disabled then, and typing into it did nothing but put
/// `cores=4` in the address bar); without a machine, cores are kept.
#[test]
fn the_link_drops_cores_a_machine_overrides() {
    let (e, errors) = parse(&[("machine", "2p+4e"), ("cores", "4"), ("q", "8")]);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(e.inert(), [Param::Cores]);
    let link = e.link_query();
    assert!(link.iter().all(|(k, _)| *k != "cores"), "{link:?}");
    assert!(link.contains(&("machine", "2p+4e".to_string())), "{link:?}");
    assert!(link.contains(&("q", "8".to_string())), "{link:?}");
    // The link opens the same run: the machine decides the cores.
    let (back, errors) =
        Experiment::from_query(link.iter().map(|(k, v)| (*k, v.as_str())), &Limits::WEB);
    assert!(errors.is_empty());
    assert_eq!(back.machine(), e.machine());
    assert_eq!(back.core_count(), 6);
    let (e, _) = parse(&[("cores", "4")]);
    assert!(e.inert().is_empty());
    assert_eq!(e.link_query(), [("cores", "4".to_string())]);
}
