//! The figures-only path (`Experiment::report`, what `simulate --json`
//! prints) against the full run: the same report, byte for byte, on random
//! experiments; and the engine without per-task outcomes gives the same
//! schedule as with them.

use proptest::prelude::*;

use tailslice::experiment::summary::{summarize, summarize_owned};
use tailslice::experiment::{Experiment, Limits};
use tailslice::policy::{ClassParams, ClutchParams};
use tailslice::policy::{MlfqParams, PolicyKind};
use tailslice::sim::{EngineConfig, Machine, NoRecord};
use tailslice::workload::Workload;

fn policy_strategy() -> impl Strategy<Value = PolicyKind> {
    prop::sample::select(PolicyKind::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn figures_report_is_the_full_runs_report(
        seed in 0u64..10_000,
        tasks in 1u64..400,
        cores in 1u64..5,
        q in prop_oneof![0.5..64.0f64, (1u32..32).prop_map(f64::from)],
        cs in prop_oneof![Just(0.0), 0.001..2.0f64],
        arrivals in prop::sample::select(vec!["t0", "poisson:0.7", "poisson:1.3", "burst:10@50"]),
        rng in prop::sample::select(vec!["python", "fast"]),
        mix in prop::sample::select(vec!["85:1-8,12:10-40,3:80-200", "1:exp(10)", "3:lognormal(1.5,0.8),1:pareto(5,0.9)", "1:fixed(4)"]),
        levels in 1u8..6,
        boost in prop::sample::select(vec!["off", "20", "1000"]),
        within in prop::sample::select(vec!["100", "20", "5000"]),
    ) {
        let (seed, tasks, cores, q, cs, levels) = (seed.to_string(), tasks.to_string(), cores.to_string(), q.to_string(), cs.to_string(), levels.to_string());
        let pairs = [
            ("seed", seed.as_str()), ("n", tasks.as_str()), ("cores", cores.as_str()), ("q", q.as_str()),
            ("cs", cs.as_str()), ("arrivals", arrivals), ("rng", rng), ("mix", mix),
            ("p", "fifo,rr,sjf,srpt,mlfq"), ("mlfq_levels", levels.as_str()), ("mlfq_boost", boost),
            ("within", within),
        ];
        let (exp, errors) = Experiment::from_query(pairs, &Limits::CLI);
        prop_assert!(errors.is_empty(), "{:?}", errors);
        let w = Workload::generate(&exp.workload_spec());
        let full = exp.run_on(w.clone(), &Limits::CLI, false).unwrap().report();
        let lean = exp.report(&w, &Limits::CLI).unwrap();
        prop_assert_eq!(serde_json::to_string(&full).unwrap(), serde_json::to_string(&lean).unwrap());
    }

    #[test]
    fn outcomes_off_gives_the_same_schedule(
        tasks in prop::collection::vec((0.0..300.0f64, 0.0..60.0f64), 1..60),
        kind in policy_strategy(),
        cores in 1usize..4,
        switch_cost in prop_oneof![Just(0.0), 0.0..3.0f64],
        quantum in 0.5..40.0f64,
        fast_path in any::<bool>(),
    ) {
        let w = Workload {
            arrival: tasks.iter().map(|t| t.0).collect(),
            work: tasks.iter().map(|t| t.1).collect(),
            class: vec![0; tasks.len()],
            class_labels: vec!["x".into()],
        };
        let mlfq = MlfqParams::default();
        let full_cfg = EngineConfig { switch_cost, one_core_fast_path: fast_path, ..EngineConfig::default() };
        let lean_cfg = EngineConfig { record_outcomes: false, record_segments: false, ..full_cfg };
        let machine = Machine::identical(cores);
        let params = ClassParams { quantum, mlfq: &mlfq, eevdf: tailslice::policy::EevdfParams::default(), clutch: ClutchParams::default(), band_limit: None, machine: &machine, threads: &[] };
        let full = kind.run(&params, &mut w.threads(), &mut NoRecord, &full_cfg).unwrap();
        let lean = kind.run(&params, &mut w.threads(), &mut NoRecord, &lean_cfg).unwrap();
        prop_assert!(lean.outcomes.is_empty() && lean.segments.is_empty());
        // Completions are kept either way and agree with the outcomes.
        let from_outcomes: Vec<u64> = full.outcomes.iter().map(|o| o.completion.to_bits()).collect();
        let bits = |v: &[f64]| v.iter().map(|c| c.to_bits()).collect::<Vec<u64>>();
        prop_assert_eq!(&bits(&full.completions), &from_outcomes);
        prop_assert_eq!(bits(&lean.completions), from_outcomes);
        prop_assert_eq!(full.context_switches, lean.context_switches);
        prop_assert_eq!(full.slices, lean.slices);
        prop_assert_eq!(full.slices, full.outcomes.iter().map(|o| u64::from(o.slices)).sum::<u64>());
        prop_assert_eq!(full.makespan.to_bits(), lean.makespan.to_bits());
        prop_assert_eq!(full.busy_time.to_bits(), lean.busy_time.to_bits());
        prop_assert_eq!(full.switch_time.to_bits(), lean.switch_time.to_bits());
        let a = summarize(&w, &full, 50.0);
        let b = summarize_owned(&w, lean, 50.0);
        prop_assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }
}

#[test]
fn a_threaded_run_gives_the_same_report() {
    // Large enough for one thread per policy (50,000 tasks or more).
    let exp = Experiment {
        tasks: 200_000,
        ..Experiment::default()
    };
    let w = Workload::generate(&exp.workload_spec());
    let full = exp.run_on(w.clone(), &Limits::CLI, false).unwrap().report();
    let lean = exp.report(&w, &Limits::CLI).unwrap();
    assert_eq!(
        serde_json::to_string(&full).unwrap(),
        serde_json::to_string(&lean).unwrap()
    );
}
