//! Every class on every machine: random tasks with random QoS on identical
//! cores, the A10, the M1 and custom P/E machines keep the loop's
//! invariants — work is conserved at each core's speed, no core runs two
//! threads at once, no thread runs on two cores at once or before it
//! arrives — and the XNU class never puts a thread on a core its QoS may
//! not use. Same inputs, same schedule.

use proptest::prelude::*;

use tailslice::experiment::{Experiment, Limits};
use tailslice::policy::{ClassParams, ClutchParams, MlfqParams, PolicyKind};
use tailslice::sim::Qos;
use tailslice::sim::{CoreKind, Machine};
use tailslice::sim::{EngineConfig, NoRecord, Schedule, ThreadInfo};
use tailslice::workload::Workload;

const TOL: f64 = 1e-6;

fn machine_strategy() -> impl Strategy<Value = Machine> {
    prop_oneof![
        (1usize..5).prop_map(Machine::identical),
        Just(Machine::a10()),
        Just(Machine::m1(0.3)),
        Just(Machine::xeon_w()),
        (0usize..4, 1usize..4, 0.1..2.0f64).prop_map(|(p, e, r)| Machine::custom(p, e, r)),
    ]
}

fn tasks_strategy() -> impl Strategy<Value = Vec<(f64, f64, usize)>> {
    let task = (
        prop_oneof![Just(0.0), 0.0..300.0f64, (0u32..60).prop_map(f64::from)],
        prop_oneof![5 => 0.001..120.0f64, 4 => (1u32..40).prop_map(f64::from)],
        0usize..Qos::ALL.len(),
    );
    prop::collection::vec(task, 1..50)
}

fn run(
    w: &Workload,
    kind: PolicyKind,
    machine: &Machine,
    qos: &[Qos],
    quantum: f64,
    cfg: &EngineConfig,
) -> Schedule {
    let mlfq = MlfqParams::default();
    let threads: Vec<ThreadInfo> = qos.iter().map(|&q| ThreadInfo::of_qos(q)).collect();
    let params = ClassParams {
        quantum,
        mlfq: &mlfq,
        eevdf: tailslice::policy::EevdfParams::default(),
        clutch: ClutchParams::default(),
        band_limit: None,
        machine,
        threads: &threads,
    };
    kind.run(&params, &mut w.threads(), &mut NoRecord, cfg)
        .expect("no slice limit set")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_class_keeps_the_invariants_on_every_machine(
        tasks in tasks_strategy(),
        kind in prop::sample::select(PolicyKind::ALL.to_vec()),
        machine in machine_strategy(),
        switch_cost in prop_oneof![Just(0.0), 0.0..2.0f64],
        quantum in 0.5..40.0f64,
    ) {
        let n = tasks.len();
        let w = Workload {
            arrival: tasks.iter().map(|t| t.0).collect(),
            work: tasks.iter().map(|t| t.1).collect(),
            class: vec![0; n],
            class_labels: vec!["x".into()],
        };
        let qos: Vec<Qos> = tasks.iter().map(|t| Qos::ALL[t.2]).collect();
        let cfg = EngineConfig { switch_cost, ..EngineConfig::default() };
        let s = run(&w, kind, &machine, &qos, quantum, &cfg);

        let mut work_done = vec![0.0; n];
        let mut per_core: Vec<Vec<(f64, f64)>> = vec![Vec::new(); machine.cores.len()];
        let mut per_task: Vec<Vec<(f64, f64)>> = vec![Vec::new(); n];
        for seg in &s.segments {
            let (t, c) = (seg.task as usize, seg.core as usize);
            prop_assert!(c < machine.cores.len());
            prop_assert!(seg.end >= seg.start);
            prop_assert!(seg.start >= w.arrival[t] - TOL, "task {} ran before arriving", t);
            work_done[t] += (seg.end - seg.start) * machine.cores[c].speed;
            per_core[c].push((seg.start, seg.end));
            per_task[t].push((seg.start, seg.end));
            if kind.reads_threads() && machine.has_efficiency_cores() && qos[t].is_background() {
                prop_assert_eq!(machine.cores[c].kind, CoreKind::Efficiency,
                    "background task {} on a P core", t);
            }
        }
        // Fastest core: 1 (P) or the custom E/P ratio (up to 2).
        let fastest = machine.cores.iter().map(|c| c.speed).fold(1.0, f64::max);
        for (t, done) in work_done.iter().enumerate() {
            prop_assert!((done - w.work[t]).abs() <= TOL * w.work[t].max(1.0),
                "task {} did {} of {} on {}", t, done, w.work[t], machine.name);
            prop_assert!(s.completions[t] >= w.arrival[t] + w.work[t] / fastest - TOL);
        }
        for lanes in [&mut per_core, &mut per_task] {
            for lane in lanes.iter_mut() {
                lane.sort_by(|a, b| a.0.total_cmp(&b.0));
                for pair in lane.windows(2) {
                    prop_assert!(pair[1].0 >= pair[0].1 - TOL, "overlap {:?}", pair);
                }
            }
        }
        let again = run(&w, kind, &machine, &qos, quantum, &cfg);
        prop_assert_eq!(&s.segments, &again.segments);
        prop_assert_eq!(&s.completions, &again.completions);
    }
}

/// Identical speed-1 cores given as a machine are the study's `--cores`:
/// the same schedule, bit for bit.
#[test]
fn identical_machine_is_the_cores_setting() {
    let w = Workload::generate(&tailslice::workload::WorkloadSpec {
        tasks: 300,
        ..Default::default()
    });
    for cores in [1, 3] {
        let by_count = Experiment {
            cores,
            policies: PolicyKind::ALL.to_vec(),
            ..Experiment::default()
        };
        let by_machine = Experiment {
            machine: Some(Machine::parse("machine", &format!("{cores}p"), 0.3).unwrap()),
            ..by_count.clone()
        };
        let a = by_count.run_on(w.clone(), &Limits::CLI, true).unwrap();
        let b = by_machine.run_on(w.clone(), &Limits::CLI, true).unwrap();
        for (a, b) in a.runs.iter().zip(&b.runs) {
            let kind = a.policy;
            assert_eq!(
                a.schedule.segments, b.schedule.segments,
                "{kind:?} on {cores}"
            );
            assert_eq!(a.schedule.completions, b.schedule.completions);
        }
    }
}

/// On an M1, XNU keeps background tasks on the four E cores and lets the
/// others use all eight; round-robin knows nothing of QoS and uses all
/// eight for everyone.
#[test]
fn xnu_places_background_on_e_cores_and_rr_ignores_qos() {
    let n = 64;
    let w = Workload {
        arrival: vec![0.0; n],
        work: vec![50.0; n],
        class: vec![0; n],
        class_labels: vec!["x".into()],
    };
    let qos: Vec<Qos> = (0..n)
        .map(|i| {
            if i % 2 == 0 {
                Qos::Background
            } else {
                Qos::UserInitiated
            }
        })
        .collect();
    let m1 = Machine::m1(0.3);
    let cfg = EngineConfig::default();
    let cores_of = |s: &Schedule, even: bool| -> std::collections::BTreeSet<u32> {
        s.segments
            .iter()
            .filter(|g| (g.task % 2 == 0) == even)
            .map(|g| g.core)
            .collect()
    };
    let xnu = run(&w, PolicyKind::Xnu, &m1, &qos, 16.0, &cfg);
    assert_eq!(cores_of(&xnu, true), (4..8).collect());
    assert_eq!(cores_of(&xnu, false), (0..8).collect());
    let rr = run(&w, PolicyKind::Rr, &m1, &qos, 16.0, &cfg);
    assert!(
        cores_of(&rr, true).iter().any(|&c| c < 4),
        "rr runs background tasks on P cores too"
    );
    // userInitiated (37) beats background (4): under XNU the high tasks
    // all finish before the last background one, and sooner than under rr.
    let last = |s: &Schedule, even: bool| {
        (0..n)
            .filter(|i| (i % 2 == 0) == even)
            .map(|i| s.completions[i])
            .fold(0.0, f64::max)
    };
    assert!(
        last(&xnu, false) < last(&xnu, true),
        "{} {} {} {}",
        last(&xnu, false),
        last(&xnu, true),
        last(&rr, false),
        last(&rr, true)
    );
    assert!(last(&xnu, false) < last(&rr, false));
}

#[test]
fn a_machine_is_described_in_both_languages() {
    let m1 = Machine::m1(tailslice::sim::machine::M1_EP_RATIO);
    let d = m1.describe(true);
    assert_eq!(d.en, "m1 (4 P + 4 E cores at 0.3×)");
    assert_eq!(d.zh, "m1（4 个 P 核 + 4 个 E 核，E 核速度为 0.3×）");
    assert_eq!(Machine::xeon_w().describe(true).en, "xeon-w (8 P cores)");
    assert_eq!(Machine::identical(1).describe(false).en, "1 core");
    assert_eq!(Machine::identical(4).describe(false).zh, "4 个核心");
}
