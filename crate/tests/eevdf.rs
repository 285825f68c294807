//! Linux's fair class (`eevdf`): weights respected over time, round-robin
//! at the tick-rounded slice when every weight is equal, placement and
//! wakeup preemption worked out by hand from `place_entity` and
//! `check_preempt_wakeup`, determinism, and `nice` in the workload
//! vocabulary.

use tailslice::experiment::{Experiment, Limits};
use tailslice::policy::eevdf::{slice_factor, weight_of};
use tailslice::policy::{ClassParams, ClutchParams, Eevdf, EevdfParams, MlfqParams, PolicyKind};
use tailslice::sim::{simulate_on, EngineConfig, Machine, NoRecord, Schedule, Tasks, ThreadInfo};
use tailslice::workload::mix::Mix;
use tailslice::workload::task_list::parse_task_list;
use tailslice::workload::Workload;

/// `work[i]` arriving at `arrival[i]`, nice `nice[i]`, on one core under
/// EEVDF with `params`.
fn run_eevdf(arrival: &[f64], work: &[f64], nice: &[i8], params: EevdfParams) -> Schedule {
    let machine = Machine::identical(1);
    let threads: Vec<ThreadInfo> = nice
        .iter()
        .map(|&n| ThreadInfo {
            nice: n,
            ..ThreadInfo::default()
        })
        .collect();
    let mut class = Eevdf::new(work.len(), &threads, &machine, params);
    simulate_on(
        &mut Tasks::new(arrival, work),
        &machine,
        &mut class,
        &mut NoRecord,
        &EngineConfig::default(),
    )
    .expect("no slice limit")
}

/// An experiment from URL pairs, every one valid.
fn experiment(pairs: &[(&str, &str)]) -> Experiment {
    let (e, errors) = Experiment::from_query(pairs.iter().copied(), &Limits::CLI);
    assert!(errors.is_empty(), "{errors:?}");
    e
}

/// CPU time task `t` got before `window` ms.
fn cpu_before(s: &Schedule, t: u32, window: f64) -> f64 {
    s.segments
        .iter()
        .filter(|g| g.task == t)
        .map(|g| (g.end.min(window) - g.start).max(0.0))
        .sum()
}

/// Two spinners, nice 0 and nice 5, always runnable on one core: over a
/// long window they share the core as their weights, 1024 : 335. EEVDF
/// keeps every thread's lag within a slice or so of zero, and a slice
/// ends on a tick: so each thread's CPU time stays within two ticks and
/// two slices of its exact share at every instant (the bound checked),
/// which over 20 s is a ratio within about 1 % of 1024 / 335 = 3.057.
#[test]
fn spinners_at_nice_0_and_5_share_the_core_1024_to_335() {
    let window = 20_000.0;
    let exact = weight_of(0) as f64 / weight_of(5) as f64;
    for hrtick in [false, true] {
        let params = EevdfParams {
            hrtick,
            ..EevdfParams::default()
        };
        let s = run_eevdf(&[0.0, 0.0], &[30_000.0, 30_000.0], &[0, 5], params);
        let (a, b) = (cpu_before(&s, 0, window), cpu_before(&s, 1, window));
        assert!(
            (a + b - window).abs() < 1e-6,
            "the core never idles: {a} + {b}"
        );
        let share = window * 1024.0 / (1024.0 + 335.0);
        let bound = 2.0 * params.tick_ms() + 2.0 * params.slice_ms(1);
        assert!(
            (a - share).abs() <= bound,
            "hrtick {hrtick}: nice 0 ran {a} ms, its share is {share} ms (± {bound})"
        );
        let ratio = a / b;
        println!("hrtick {hrtick}: nice 0 : nice 5 = {a:.1} : {b:.1} ms = {ratio:.4} (weights {exact:.4})");
        assert!(
            (ratio / exact - 1.0).abs() < 0.01,
            "ratio {ratio}, weights {exact}"
        );
    }
}

/// Equal weights, every task at t = 0, one core, work in whole ticks:
/// every turn is one 4 ms tick (the 0.75 ms slice is used up by the first
/// tick), in queue order, so the completions are exactly round-robin's at
/// a 4 ms quantum — the slice rounded up to the tick.
#[test]
fn equal_weights_at_t0_are_round_robin_at_the_tick() {
    let work: Vec<f64> = (0..60).map(|i| 4.0 * (1 + (i * 7) % 11) as f64).collect();
    let w = Workload {
        arrival: vec![0.0; work.len()],
        work: work.clone(),
        class: vec![0; work.len()],
        class_labels: vec!["x".into()],
    };
    let machine = Machine::identical(1);
    let mlfq = MlfqParams::default();
    let params = ClassParams {
        quantum: 4.0,
        mlfq: &mlfq,
        eevdf: EevdfParams::default(),
        clutch: ClutchParams::default(),
        band_limit: None,
        machine: &machine,
        threads: &[],
    };
    let cfg = EngineConfig::default();
    let rr = PolicyKind::Rr
        .run(&params, &mut w.threads(), &mut NoRecord, &cfg)
        .unwrap();
    let eevdf = PolicyKind::Eevdf
        .run(&params, &mut w.threads(), &mut NoRecord, &cfg)
        .unwrap();
    assert_eq!(eevdf.completions, rr.completions);
    // Not the 0.75 ms slice: round-robin at that quantum finishes otherwise.
    let params_slice = ClassParams {
        quantum: 0.75,
        ..params
    };
    let rr_slice = PolicyKind::Rr
        .run(&params_slice, &mut w.threads(), &mut NoRecord, &cfg)
        .unwrap();
    assert_ne!(eevdf.completions, rr_slice.completions);
}

/// The study (400 tasks at t = 0, one core): EEVDF's turns end on 4 ms
/// ticks, so its median sits beside round-robin's at 4 ms (turns start
/// between ticks after a task finishes, so not exactly) and away from
/// round-robin at the 0.75 ms base slice or at 16 ms (each about 5 % off).
#[test]
fn the_study_is_close_to_round_robin_at_the_tick() {
    let median = |policy: &str, q: &str| {
        let e = experiment(&[("p", policy), ("q", q)]);
        let out = e.run(&Limits::CLI, false).unwrap();
        let mut c = out.runs[0].schedule.completions.clone();
        c.sort_by(f64::total_cmp);
        c[c.len() / 2]
    };
    let eevdf = median("eevdf", "16");
    let near = |q: &str| (eevdf / median("rr", q) - 1.0).abs();
    assert!(
        near("4") < 0.01,
        "p50: eevdf {eevdf}, off rr 4 ms by {}",
        near("4")
    );
    assert!(near("0.75") > 0.03 && near("16") > 0.03);
}

/// A newcomer arriving while a long task runs, worked out by hand. A (100
/// ms) starts at 0 with half a slice to its deadline (0.375 ms on one
/// core); B (1 ms) arrives at 1 ms and is placed at V = A's vruntime, 1,
/// deadline 1.375.
/// - At the tick (HZ 250): A's deadline passed at 0.375 but no tick has
///   come; B's wakeup updates A, finds its slice used up and reschedules:
///   A's new deadline 1.75 is later than B's, so B runs at once, done at 2.
/// - With HRTICK: A's first slice ended at 0.375 exactly and it got a new
///   one (deadline 1.125); at 1 ms it is eligible and inside that slice,
///   so RUN_TO_PARITY keeps it on; at 1.125 its slice ends (next deadline
///   1.875, later than B's) and B runs its half slice to 1.5 (vruntime
///   1.375, next deadline 2.125); A, now the eligible one with the earlier
///   deadline, runs its 0.75 ms to 2.25; then B (deadline 2.125 against
///   A's 2.625) does its last 0.625 ms: done at 2.875.
#[test]
fn a_newcomer_waits_for_the_running_slice_as_the_kernel_says() {
    let at_tick = run_eevdf(&[0.0, 1.0], &[100.0, 1.0], &[0, 0], EevdfParams::default());
    assert!(
        (at_tick.completions[1] - 2.0).abs() < 1e-6,
        "{:?}",
        at_tick.completions
    );
    let hrtick = EevdfParams {
        hrtick: true,
        ..EevdfParams::default()
    };
    let exact = run_eevdf(&[0.0, 1.0], &[100.0, 1.0], &[0, 0], hrtick);
    assert!(
        (exact.completions[1] - 2.875).abs() < 1e-6,
        "{:?}",
        exact.completions
    );
    assert!((exact.completions[0] - 101.0).abs() < 1e-6);
}

/// A heavier thread arriving later catches up only by its weight: nice −5
/// (3121) beside nice 0 (1024) from t = 100 gets 3121 / 4145 of the core.
#[test]
fn a_heavier_newcomer_gets_its_weight_not_more() {
    let s = run_eevdf(
        &[0.0, 100.0],
        &[10_000.0, 10_000.0],
        &[0, -5],
        EevdfParams::default(),
    );
    let window = 5_100.0;
    let heavy = cpu_before(&s, 1, window);
    let share = 5_000.0 * 3121.0 / (3121.0 + 1024.0);
    assert!(
        (heavy - share).abs() <= 2.0 * 4.0 + 2.0 * 0.75,
        "{heavy} vs {share}"
    );
}

#[test]
fn the_base_slice_scales_as_the_kernel_with_cores() {
    assert_eq!([1, 2, 4, 8, 64].map(slice_factor), [1, 2, 3, 4, 4]);
}

/// Same inputs, same schedule, on several cores with arrivals over time.
#[test]
fn runs_are_deterministic() {
    let e = experiment(&[
        ("p", "eevdf"),
        ("cores", "4"),
        ("arrivals", "poisson:0.9"),
        ("n", "300"),
    ]);
    let a = e.run(&Limits::CLI, true).unwrap();
    let b = e.run(&Limits::CLI, true).unwrap();
    assert_eq!(a.runs[0].schedule, b.runs[0].schedule);
}

/// `@nice=N` in a mix: beside a QoS and an app, written back as read,
/// refused with one line outside −20 … 19.
#[test]
fn mix_classes_take_a_nice_value() {
    let m = Mix::parse("mix", "85:1-8@utility@nice=5~mail,15:10-40@NICE=-20").unwrap();
    assert_eq!(m.classes[0].nice, Some(5));
    assert_eq!(m.classes[1].nice, Some(-20));
    assert_eq!(
        m.labels(),
        vec!["1-8@utility@nice=5~mail", "10-40@nice=-20"]
    );
    assert!(m.has_attributes());
    for bad in [
        "1:1-8@nice=20",
        "1:1-8@nice=x",
        "1:1-8@nice=",
        "1:1-8@nice=1@nice=2",
    ] {
        let e = Mix::parse("mix", bad).unwrap_err().to_string();
        assert!(e.contains("mix") && e.contains("nice"), "{bad}: {e}");
    }
}

/// The nice value of a mix class reaches `eevdf` (and only it): two
/// classes of endless spinners, one at nice 5.
#[test]
fn the_mix_nice_reaches_the_class() {
    let e = experiment(&[
        ("p", "eevdf,rr"),
        ("mix", "1:fixed(3000),1:fixed(3000)@nice=5"),
        ("n", "2"),
        ("seed", "3"),
    ]);
    let out = e.run(&Limits::CLI, false).unwrap();
    let w = &out.workload;
    let nice5 = (0..2).find(|&i| w.class[i] == 1);
    let nice0 = (0..2).find(|&i| w.class[i] == 0);
    let (Some(n5), Some(n0)) = (nice5, nice0) else {
        panic!("seed 3 should draw one task of each class: {:?}", w.class);
    };
    let eevdf = &out.runs[0].schedule.completions;
    let rr = &out.runs[1].schedule.completions;
    // Under eevdf the nice-0 task finishes well before the nice-5 one;
    // rr ignores nice and alternates them to the end.
    assert!(eevdf[n0] < 4_100.0 && eevdf[n5] > 5_900.0, "{eevdf:?}");
    assert!(rr[n0] > 5_900.0 && rr[n5] > 5_900.0, "{rr:?}");
}

/// A task list's class may carry `@nice=N`; a wrong N is refused naming
/// the line.
#[test]
fn task_list_classes_take_a_nice_value() {
    let w = parse_task_list("0,5,batch@nice=5\n0,3,ui\n", 100).unwrap();
    assert_eq!(w.class_labels, vec!["batch@nice=5", "ui"]);
    let info = w.thread_info(&Mix::default());
    assert_eq!(info.iter().map(|t| t.nice).collect::<Vec<_>>(), vec![5, 0]);
    let e = parse_task_list("0,5,batch\n0,5,x@nice=99\n", 100).unwrap_err();
    let said = e.to_string();
    assert!(
        said.starts_with("line 2:") && said.contains("-20") && said.contains("19"),
        "{said}"
    );
}

/// Runs `work` (arriving at `arrival`, nice `nice`) on `cores` identical
/// cores under EEVDF with `params`.
fn run_on(
    arrival: &[f64],
    work: &[f64],
    nice: &[i8],
    cores: usize,
    params: EevdfParams,
    cfg: &EngineConfig,
) -> Schedule {
    let machine = Machine::identical(cores);
    let threads: Vec<ThreadInfo> = nice
        .iter()
        .map(|&n| ThreadInfo {
            nice: n,
            ..ThreadInfo::default()
        })
        .collect();
    let mut class = Eevdf::new(work.len(), &threads, &machine, params);
    simulate_on(
        &mut Tasks::new(arrival, work),
        &machine,
        &mut class,
        &mut NoRecord,
        cfg,
    )
    .expect("no slice limit")
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// With any nice values, HZ and HRTICK, on 1 to 4 cores: every task
    /// gets exactly its work, never before it arrives, never on two cores
    /// at once, no core runs two things; the same run twice is the same;
    /// on one core the fast path equals the general loop.
    #[test]
    fn the_class_keeps_the_invariants_with_any_knobs(
        tasks in proptest::collection::vec((0.0..300.0f64, 0.0..60.0f64, -20i8..=19), 1..40),
        cores in 1usize..5,
        hz in proptest::sample::select(vec![100u32, 250, 300, 1000]),
        hrtick: bool,
        run_to_parity: bool,
    ) {
        let arrival: Vec<f64> = tasks.iter().map(|t| t.0).collect();
        let work: Vec<f64> = tasks.iter().map(|t| t.1).collect();
        let nice: Vec<i8> = tasks.iter().map(|t| t.2).collect();
        let params = EevdfParams { hz, hrtick, run_to_parity, ..EevdfParams::default() };
        let cfg = EngineConfig::default();
        let s = run_on(&arrival, &work, &nice, cores, params, &cfg);
        let mut ran = vec![0.0; work.len()];
        let mut by_core: Vec<Vec<(f64, f64)>> = vec![Vec::new(); cores];
        let mut by_task: Vec<Vec<(f64, f64)>> = vec![Vec::new(); work.len()];
        for g in &s.segments {
            let t = g.task as usize;
            proptest::prop_assert!(g.start >= arrival[t] - 1e-9);
            ran[t] += g.end - g.start;
            by_core[g.core as usize].push((g.start, g.end));
            by_task[t].push((g.start, g.end));
        }
        for (t, r) in ran.iter().enumerate() {
            proptest::prop_assert!((r - work[t]).abs() < 1e-6, "task {} ran {} of {}", t, r, work[t]);
            proptest::prop_assert!(s.completions[t].is_finite());
        }
        for spans in by_core.iter_mut().chain(by_task.iter_mut()) {
            spans.sort_by(|a, b| a.0.total_cmp(&b.0));
            for w in spans.windows(2) {
                proptest::prop_assert!(w[1].0 >= w[0].1 - 1e-9, "overlap {:?}", w);
            }
        }
        let again = run_on(&arrival, &work, &nice, cores, params, &cfg);
        proptest::prop_assert_eq!(&s, &again);
        if cores == 1 {
            let slow = EngineConfig { one_core_fast_path: false, ..cfg };
            let general = run_on(&arrival, &work, &nice, 1, params, &slow);
            proptest::prop_assert_eq!(&s.segments, &general.segments);
            proptest::prop_assert_eq!(format!("{:?}", s.outcomes), format!("{:?}", general.outcomes));
        }
    }
}

/// How a used-up slice ends is a parameter (`eevdf_slice_end`, the CLI's
/// `--eevdf-slice-end`): `tick` by default (links without it open as
/// before), `exact` the same run as the class built with HRTICK; written
/// back only when not the default; anything else refused naming the key.
#[test]
fn the_slice_end_is_a_parameter_that_round_trips() {
    let default = experiment(&[("p", "eevdf")]);
    assert!(!default.eevdf.hrtick);
    assert!(default
        .to_query()
        .iter()
        .all(|(k, _)| *k != "eevdf_slice_end"));
    let exact = experiment(&[("p", "eevdf"), ("eevdf_slice_end", "exact")]);
    assert!(exact.eevdf.hrtick);
    assert!(exact
        .to_query()
        .contains(&("eevdf_slice_end", "exact".to_string())));
    let pairs = exact.to_query();
    let again = experiment(
        &pairs
            .iter()
            .map(|(k, v)| (*k, v.as_str()))
            .collect::<Vec<_>>(),
    );
    assert_eq!(again, exact);

    // The parameter reaches the class: the study's eevdf with `exact` is
    // the class built with HRTICK on the same tasks, and not the tick's.
    let run = |e: &Experiment| {
        let out = e.run(&Limits::CLI, false).unwrap();
        out.runs[0].schedule.completions.clone()
    };
    let w = Workload::generate(&exact.workload_spec());
    let hrtick = run_eevdf(
        &w.arrival,
        &w.work,
        &vec![0; w.len()],
        EevdfParams {
            hrtick: true,
            ..EevdfParams::default()
        },
    );
    assert_eq!(run(&exact), hrtick.completions);
    assert_ne!(run(&exact), run(&default));

    let (_, errors) = Experiment::from_query([("eevdf_slice_end", "hrtick")], &Limits::CLI);
    assert_eq!(
        errors[0].to_string(),
        "invalid eevdf_slice_end 'hrtick': expected tick or exact"
    );
}

/// The base slice scales by the CPUs `slice_cpus` names when it is set
/// (the kernel's online CPUs, for threads pinned to fewer), else by the
/// machine's cores: 0.75 ms × (1 + log2 cpus).
#[test]
fn the_base_slice_scales_by_the_cpus_it_is_told() {
    let on = |slice_cpus| EevdfParams {
        slice_cpus,
        ..EevdfParams::default()
    };
    assert_eq!(on(None).slice_ms(1), 0.75);
    assert_eq!(on(None).slice_ms(2), 1.5);
    assert_eq!(on(Some(2)).slice_ms(1), 1.5);
    assert_eq!(on(Some(16)).slice_ms(1), 0.75 * 4.0);
    // With exact slice ends the slice's length shows in the schedule.
    let work = [10.0, 10.0, 10.0];
    let exact = |slice_cpus| {
        run_eevdf(
            &[0.0; 3],
            &work,
            &[0; 3],
            EevdfParams {
                hrtick: true,
                ..on(slice_cpus)
            },
        )
        .segments
        .len()
    };
    assert!(exact(Some(2)) < exact(None), "longer slices, fewer turns");
}
