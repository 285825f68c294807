//! Property tests of the QoS engine and the timeshare policy on random
//! small workloads: priority floor, placement, one thread per core, work
//! conserved, deterministic.

use proptest::prelude::*;

use tailslice::policy::timeshare::{BAND_LIMIT, MAXPRI_THROTTLE};
use tailslice::scenario::simulation::{simulate, RunConfig, RunResult};
use tailslice::sim::machine::Machine;
use tailslice::sim::Qos;
use tailslice::workload::programs::{Pool, Program, Programs, Step, ThreadSpec, WorkItem};

#[derive(Clone, Debug)]
enum Kind {
    Spin,
    Pool(u32, f64),
    Queue(Vec<(f64, f64, Option<usize>)>),
}

fn qos() -> impl Strategy<Value = Qos> {
    prop::sample::select(Qos::ALL.to_vec())
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        Just(Kind::Spin),
        (1u32..6, 1.0f64..60.0).prop_map(|(n, w)| Kind::Pool(n, w)),
        prop::collection::vec(
            (0.0f64..40.0, 0.0f64..30.0, prop::option::of(0usize..8)),
            1..5
        )
        .prop_map(Kind::Queue),
    ]
}

fn machine() -> impl Strategy<Value = Machine> {
    prop_oneof![
        Just(Machine::a10()),
        (0.1f64..1.0).prop_map(Machine::m1),
        Just(Machine::xeon_w()),
        (1usize..3, 0usize..3, 0.1f64..1.0).prop_map(|(p, e, r)| Machine::custom(p, e, r)),
    ]
}

/// A random workload; returns it with the total finite CPU work it holds.
fn build(threads: &[(Qos, bool, Kind)], machine: &Machine, system: bool) -> (Programs, f64) {
    let mut w = Programs::default();
    let mut finite = 0.0;
    for (i, (q, main, k)) in threads.iter().enumerate() {
        let program = match k {
            Kind::Spin => Program::Spin,
            Kind::Pool(n, work) => {
                finite += f64::from(*n) * *work;
                Program::Pool(w.add_pool(Pool {
                    name: format!("p{i}"),
                    chunks: *n,
                    chunk_work: *work,
                }))
            }
            Kind::Queue(_) => Program::Queue,
        };
        let spec = if *main {
            ThreadSpec::main_thread(program)
        } else {
            ThreadSpec::new(format!("t{i}"), *q, program)
        };
        let t = w.add_thread(spec);
        if let Kind::Queue(items) = k {
            for (j, &(cpu, wait, dep)) in items.iter().enumerate() {
                // Dependencies only on earlier items: no cycles.
                let deps = dep.filter(|&d| d < w.items.len()).into_iter().collect();
                finite += cpu;
                w.add_item(WorkItem {
                    name: format!("t{i}-{j}"),
                    thread: t,
                    release: (j as f64) * 7.0,
                    deps,
                    steps: vec![Step::Cpu(cpu), Step::Wait(wait), Step::Cpu(0.0)],
                });
            }
        }
    }
    if system {
        w.add_system_work(machine.cores.len(), 1.0, 50.0);
    }
    (w, finite)
}

fn run(w: &Programs, m: &Machine, band_limit: bool, until: f64) -> RunResult {
    let cfg = RunConfig {
        until,
        band_limit: Some(band_limit),
        timeline: true,
        max_records: usize::MAX,
        trace_pri: (0..w.threads.len() as u32).collect(),
        ..RunConfig::default()
    };
    simulate(w, m, &cfg)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold(
        threads in prop::collection::vec((qos(), any::<bool>(), kind()), 1..10),
        m in machine(),
        band_limit in any::<bool>(),
        system in any::<bool>(),
        until in 50.0f64..1500.0,
    ) {
        let (w, finite) = build(&threads, &m, system);
        let r = run(&w, &m, band_limit, until);

        // Deterministic.
        prop_assert_eq!(&r, &run(&w, &m, band_limit, until));
        prop_assert!(!r.truncated);

        for (t, (spec, st)) in w.threads.iter().zip(&r.threads).enumerate() {
            // Priority floor with the band limit on.
            if band_limit && !spec.fixed {
                let limit = BAND_LIMIT + spec.base_pri.saturating_sub(47);
                let floor = spec.base_pri.saturating_sub(limit).max(MAXPRI_THROTTLE);
                prop_assert!(st.min_pri >= floor, "{} min {} floor {}", spec.name, st.min_pri, floor);
                prop_assert!(r.pri[t].points.iter().all(|&(_, p)| p >= floor));
            }
            if spec.fixed {
                prop_assert_eq!(st.min_pri, spec.base_pri);
            }
            // Time accounted exactly once.
            let total = st.running_ms + st.runnable_ms + st.preempted_ms + st.blocked_ms;
            prop_assert!((total - r.end).abs() < 1e-6, "{} accounts {} of {}", spec.name, total, r.end);
            // Work done equals the running time weighted by core speed.
            let by_segments: f64 = r.segments.iter().filter(|s| s.task as usize == t)
                .map(|s| (s.end - s.start) * m.cores[s.core as usize].speed).sum();
            if spec.program != Program::Spin {
                prop_assert!((by_segments - st.work_done).abs() < 1e-6 * (1.0 + by_segments),
                    "{}: segments {} work {}", spec.name, by_segments, st.work_done);
            }
        }

        // Placement: never on a core its QoS (or pin) forbids.
        for s in &r.segments {
            let spec = &w.threads[s.task as usize];
            match spec.pinned {
                Some(c) => prop_assert_eq!(s.core as usize, c),
                None => prop_assert!(m.may_run(spec.qos, s.core as usize), "{} on core {}", spec.name, s.core),
            }
            prop_assert!(s.end > s.start && s.start >= 0.0 && s.end <= r.end + 1e-9);
        }

        // One thread per core at a time, one core per thread at a time.
        let mut by_core = r.segments.clone();
        by_core.sort_by(|a, b| (a.core, a.start).partial_cmp(&(b.core, b.start)).unwrap());
        for pair in by_core.windows(2) {
            if pair[0].core == pair[1].core {
                prop_assert!(pair[0].end <= pair[1].start + 1e-9, "{:?}", pair);
            }
        }
        let mut by_thread = r.segments.clone();
        by_thread.sort_by(|a, b| (a.task, a.start).partial_cmp(&(b.task, b.start)).unwrap());
        for pair in by_thread.windows(2) {
            if pair[0].task == pair[1].task {
                prop_assert!(pair[0].end <= pair[1].start + 1e-9, "{:?}", pair);
            }
        }

        // Work conserved: finite work done never exceeds what was given, and
        // all of it is done once every item and pool finished.
        let done: f64 = w.threads.iter().zip(&r.threads)
            .filter(|(s, _)| !s.fixed && s.program != Program::Spin)
            .map(|(_, st)| st.work_done).sum();
        prop_assert!(done <= finite + 1e-6);
        if r.items_done.iter().all(Option::is_some) && r.pools_done.iter().all(Option::is_some) {
            prop_assert!((done - finite).abs() < 1e-6 * (1.0 + finite), "done {} of {}", done, finite);
        }
    }
}

/// A background-only job on a machine with E cores leaves the P cores idle.
#[test]
fn background_never_touches_performance_cores() {
    let m = Machine::m1(0.3);
    let (w, _) = build(
        &vec![(Qos::Background, false, Kind::Pool(40, 20.0)); 6],
        &m,
        false,
    );
    let r = run(&w, &m, false, 10_000.0);
    assert!(r.pools_done.iter().all(Option::is_some));
    assert!(r.segments.iter().all(|s| s.core >= 4));
}
