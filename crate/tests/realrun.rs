//! "Run for real" without a browser: the plan is the model's own one-core
//! schedule, measured passes are summarised like simulated ones, and the
//! report and its sentences follow the numbers (invalid, stopped, missing
//! APIs included).

use tailslice::experiment::{Experiment, Limits};
use tailslice::policy::PolicyKind;
use tailslice::realrun::{
    Environment, Pass, PassCounts, Plan, RealRunReport, RealSettings, RealYield, RunState, Scale,
    YieldBatch,
};
use tailslice::responsiveness::YieldKind;
use tailslice::text::Lang;
use tailslice::workload::task_list::parse_task_list;
use tailslice::workload::Workload;

fn settings(scale: f64, repeats: u32) -> RealSettings {
    RealSettings {
        scale: Scale::Fixed(scale),
        repeats,
        yield_kind: RealYield::Primitive(YieldKind::Message),
    }
}

/// A pass as a perfect machine would measure it, every yield costing `gap`
/// ms (so the sliced pass's completions shift by the gaps before them).
fn ideal_pass(plan: &Plan, policy: PolicyKind, repeat: u32, gap: f64) -> Pass {
    let pp = plan.pass(policy).unwrap();
    let n = plan.workload.len();
    let mut completion = vec![f64::NAN; n];
    let mut busy = vec![0.0; n];
    let mut left = vec![0u32; n];
    for &(t, _) in &pp.slices {
        left[t as usize] += 1;
    }
    let mut now = 0.0;
    let mut gaps = Vec::new();
    for (i, &(t, len)) in pp.slices.iter().enumerate() {
        if policy == PolicyKind::Rr && i > 0 {
            now += gap;
            gaps.push(gap);
        }
        now = now.max(plan.workload.arrival[t as usize]);
        now += len;
        busy[t as usize] += len;
        left[t as usize] -= 1;
        if left[t as usize] == 0 {
            completion[t as usize] = now;
        }
    }
    Pass {
        policy,
        repeat,
        completion,
        busy,
        gaps: gaps.clone(),
        probe_late: vec![if policy == PolicyKind::Fifo {
            900.0
        } else {
            3.0
        }],
        input_delay: Some(vec![]),
        counts: PassCounts {
            slices: pp.slices.len() as u32,
            yields: gaps.len() as u32,
            frames: if policy == PolicyKind::Fifo { 1 } else { 60 },
            wall_ms: now,
            longtasks: Some(u32::from(policy == PolicyKind::Fifo)),
            longtask_ms: Some(if policy == PolicyKind::Fifo { now } else { 0.0 }),
            ..PassCounts::default()
        },
    }
}

fn env() -> Environment {
    Environment {
        isolated: true,
        resolution_ms: 0.005,
        yield_used: "message".into(),
        event_timing: true,
        ..Environment::default()
    }
}

#[test]
fn plan_equals_the_models_one_core_rr_for_the_same_tasks_and_quantum() {
    let exp = Experiment {
        cores: 4,
        quantum: 8.0,
        ..Experiment::default()
    };
    let w = Workload::generate(&exp.workload_spec());
    let plan = Plan::build(&exp, &w, settings(0.5, 1)).unwrap();
    let scaled = Experiment {
        cores: 1,
        quantum: 4.0,
        within: 50.0,
        ..exp.clone()
    };
    let sw = Workload {
        work: w.work.iter().map(|x| x * 0.5).collect(),
        arrival: w.arrival.clone(),
        ..w.clone()
    };
    let out = scaled.run_on(sw, &Limits::WEB, true).unwrap();
    for (pp, run) in plan.passes.iter().zip(&out.runs) {
        let want: Vec<(u32, f64)> = run
            .schedule
            .segments
            .iter()
            .map(|g| (g.task, g.end - g.start))
            .collect();
        assert_eq!(pp.slices, want, "{}", pp.policy.name());
        assert_eq!(pp.summary, run.summary);
    }
    // On one core at t = 0, rr gives each task ceil(work / quantum) slices.
    let expect: usize = w
        .work
        .iter()
        .map(|x| (x / 8.0).ceil().max(1.0) as usize)
        .sum();
    assert_eq!(plan.passes[1].slices.len(), expect);
}

#[test]
fn an_imported_list_with_arrivals_is_planned_from_its_own_tasks() {
    let w = parse_task_list("0,30\n5,10\n50,4\n", Limits::WEB.max_tasks).unwrap();
    let exp = Experiment::default();
    let plan = Plan::build(&exp, &w, settings(1.0, 2)).unwrap();
    assert_eq!(plan.workload.arrival, vec![0.0, 5.0, 50.0]);
    // rr 16: task 0 runs 16, task 1 (arrived at 5) 10, task 0 the rest 14, then 2 at 50.
    let rr: Vec<u32> = plan.passes[1].slices.iter().map(|s| s.0).collect();
    assert_eq!(rr, vec![0, 1, 0, 2]);
    assert_eq!(plan.completion_order(PolicyKind::Fifo), vec![0, 1, 2]);
    assert_eq!(plan.completion_order(PolicyKind::Rr), vec![1, 0, 2]);
}

#[test]
fn a_perfect_machine_measures_what_the_model_simulates() {
    let exp = Experiment::default();
    let w = Workload::generate(&exp.workload_spec());
    let plan = Plan::build(&exp, &w, settings(0.1, 2)).unwrap();
    let passes: Vec<Pass> = (0..2)
        .flat_map(|r| {
            let plan = &plan;
            [PolicyKind::Fifo, PolicyKind::Rr]
                .into_iter()
                .map(move |p| ideal_pass(plan, p, r, 0.0))
        })
        .collect();
    let report = RealRunReport::build(&plan, &passes, &[], &env());
    assert_eq!(report.state, RunState::Done);
    for policy in ["fifo", "rr"] {
        let s = report.row(policy, "simulated").unwrap();
        let m = report.row(policy, "measured").unwrap();
        assert_eq!(m.repeats, 2);
        for metric in ["mean", "p50", "p90", "p95", "p99", "max", "done_within"] {
            let (a, b) = (s.value(metric).unwrap(), m.value(metric).unwrap());
            assert!((a - b).abs() < 1e-6, "{policy} {metric}: {a} vs {b}");
        }
    }
    let sim = report
        .row("rr", "simulated")
        .unwrap()
        .change_of("p95")
        .unwrap();
    assert!((sim + 27.9).abs() < 0.1, "{sim}");
    let en = &report.text.en.reading;
    assert!(
        en.contains("p95 −28 % measured against −28 % simulated"),
        "{en}"
    );
    assert!(en.contains("keeps 100 %"), "{en}");
    assert!(
        en.contains("Frames drawn: 60 sliced, 1 under FIFO."),
        "{en}"
    );
    assert!(en.contains("No clicks or keys"), "{en}");
    assert!(
        report.text.zh.reading.contains("实测 −28 %"),
        "{}",
        report.text.zh.reading
    );
}

#[test]
fn yield_costs_show_up_in_the_measured_rows_and_the_reading() {
    let exp = Experiment::default();
    let w = Workload::generate(&exp.workload_spec());
    let plan = Plan::build(&exp, &w, settings(0.1, 1)).unwrap();
    let passes = vec![
        ideal_pass(&plan, PolicyKind::Fifo, 0, 0.0),
        ideal_pass(&plan, PolicyKind::Rr, 0, 0.5),
    ];
    let report = RealRunReport::build(&plan, &passes, &[], &env());
    let yc = report.yield_cost.unwrap();
    assert_eq!(yc.gaps.n, plan.passes[1].slices.len() - 1);
    assert_eq!((yc.gaps.p50, yc.gaps.p95), (0.5, 0.5));
    let m = report.row("rr", "measured").unwrap();
    let s = report.row("rr", "simulated").unwrap();
    // 599 yields of 0.5 ms: the last task finishes 299.5 ms later.
    assert!((m.value("max").unwrap() - s.value("max").unwrap() - 299.5).abs() < 1e-6);
    assert!(
        m.change_of("p95") > s.change_of("p95"),
        "slices that cost something gain less"
    );
    // Gaps of 0.5 ms are 100 steps of this 5 µs clock: timed one by one.
    assert!(yc.resolved);
    assert_eq!(yc.ms, Some(0.5));
    let en = &report.text.en.yield_cost;
    assert!(
        en.contains("Yield cost (MessageChannel): median 0.50 ms, p95 0.50 ms over 599 yields between slices, 300 ms of each sliced pass."),
        "{en}"
    );
    assert!(
        !report.text.en.reading.contains("yield"),
        "one place says it"
    );
}

#[test]
fn a_coarse_clock_times_the_yield_in_batches() {
    let exp = Experiment::default();
    let w = Workload::generate(&exp.workload_spec());
    let plan = Plan::build(&exp, &w, settings(0.1, 1)).unwrap();
    // The 100 µs clock of a page that is not cross-origin isolated: yields
    // of a few µs read 0 one by one.
    let coarse = Environment {
        isolated: false,
        resolution_ms: 0.1,
        ..env()
    };
    let passes = vec![
        ideal_pass(&plan, PolicyKind::Fifo, 0, 0.0),
        ideal_pass(&plan, PolicyKind::Rr, 0, 0.0),
    ];
    // Nine batches of 512 yields, 2.6 to 2.8 ms each: about 5.3 µs a yield.
    let batches: Vec<YieldBatch> = (0..9)
        .map(|i| YieldBatch {
            yields: 512,
            ms: 2.6 + 0.025 * f64::from(i),
        })
        .collect();
    let report = RealRunReport::build(&plan, &passes, &batches, &coarse);
    let yc = report.yield_cost.unwrap();
    assert!(!yc.resolved);
    let median = (2.6 + 0.025 * 4.0) / 512.0;
    assert!((yc.ms.unwrap() - median).abs() < 1e-12, "{:?}", yc.ms);
    let en = &report.text.en.yield_cost;
    assert!(
        en.starts_with("Yield cost (MessageChannel): 0.0053 ms a yield (p95 0.0055 ms), the median of 9 batches of 512 yields timed together: this clock's step of 0.10 ms is too coarse for one yield"),
        "{en}"
    );
    assert!(!en.contains(" 0.00 ms"), "{en}");
    assert!(report.text.zh.yield_cost.contains("0.0053 ms"));
    // No batches (stopped before them): the page says the gaps are below
    // the clock's step instead of calling the yield free, and offers no
    // cost to simulate with.
    let report = RealRunReport::build(&plan, &passes, &[], &coarse);
    let yc = report.yield_cost.unwrap();
    assert_eq!(yc.ms, None);
    let en = &report.text.en.yield_cost;
    assert!(
        en.contains("below what this clock can time (its step is 0.10 ms)"),
        "{en}"
    );
}

#[test]
fn the_estimate_counts_the_yields_of_the_chosen_primitive() {
    let exp = Experiment::default();
    let w = Workload::generate(&exp.workload_spec());
    let with = |kind: YieldKind, repeats: u32| {
        let settings = RealSettings {
            scale: Scale::Auto,
            repeats,
            yield_kind: RealYield::Primitive(kind),
        };
        Plan::build(&exp, &w, settings).unwrap()
    };
    // The study at auto scale: 1 s a pass, 599 yields in the sliced one.
    let message = with(YieldKind::Message, 1).estimate_ms();
    let timeout = with(YieldKind::Timeout, 1).estimate_ms();
    let raf = with(YieldKind::Raf, 1).estimate_ms();
    assert!(message > 2000.0 && message < 2600.0, "{message}");
    assert!(
        timeout - message > 599.0 * 3.9,
        "{timeout} vs {message}: 4 ms a nested setTimeout"
    );
    assert!(raf - timeout > 599.0 * 12.0, "{raf}: a frame a yield");
    assert!(with(YieldKind::Message, 3).estimate_ms() > 2.5 * message);
    // The note says it, with the repeat counted right.
    let plan = with(YieldKind::Raf, 1);
    let en = tailslice::realrun::text::plan_notes(&plan, 1, Lang::En).join("\n");
    assert!(
        en.contains("1 repeat of FIFO and sliced: about 12."),
        "{en}"
    );
    assert!(
        en.contains("599 yields a sliced pass at about 16.7 ms each (a frame at 60 Hz)"),
        "{en}"
    );
    assert!(!en.contains("1 repeats"), "{en}");
    let zh =
        tailslice::realrun::text::plan_notes(&with(YieldKind::Timeout, 3), 3, Lang::Zh).join("\n");
    assert!(zh.contains("各重复 3 次"), "{zh}");
    assert!(zh.contains("至少等 4 ms"), "{zh}");
}

#[test]
fn after_stop_the_comparison_says_no_pass_completed() {
    let exp = Experiment::default();
    let w = Workload::generate(&exp.workload_spec());
    let plan = Plan::build(&exp, &w, settings(0.05, 1)).unwrap();
    // FIFO ran; the sliced pass was stopped halfway.
    let mut cut = ideal_pass(&plan, PolicyKind::Rr, 0, 0.0);
    cut.completion[3] = f64::NAN;
    cut.counts.stopped = true;
    let passes = vec![ideal_pass(&plan, PolicyKind::Fifo, 0, 0.0), cut];
    let report = RealRunReport::build(
        &plan,
        &passes,
        &[],
        &Environment {
            stopped: true,
            ..env()
        },
    );
    let probe = report
        .text
        .en
        .compare
        .iter()
        .find(|r| r.key == "probe")
        .unwrap();
    assert_eq!(probe.cells[1], "no complete pass: stopped before one ended");
    assert!(probe.cells[0].starts_with("p50 "), "{probe:?}");
    for row in &report.text.en.compare {
        assert!(!row.cells[1].contains("passes under 50 ms"), "{row:?}");
        assert!(!row.cells[1].contains("not available"), "{row:?}");
    }
    assert_eq!(report.text.en.passes, ["FIFO", "sliced"]);
    assert!(
        report
            .text
            .en
            .status
            .starts_with("Stopped: 0 complete repeats"),
        "{}",
        report.text.en.status
    );
}

#[test]
fn the_tables_come_with_their_headings_labels_and_cells() {
    let exp = Experiment::default();
    let w = Workload::generate(&exp.workload_spec());
    let plan = Plan::build(&exp, &w, settings(0.1, 2)).unwrap();
    let passes: Vec<Pass> = (0..2)
        .flat_map(|r| {
            let plan = &plan;
            [PolicyKind::Fifo, PolicyKind::Rr]
                .into_iter()
                .map(move |p| ideal_pass(plan, p, r, 0.01 * f64::from(r + 1)))
        })
        .collect();
    let report = RealRunReport::build(&plan, &passes, &[], &env());
    let en = &report.text.en;
    assert_eq!(
        en.columns,
        ["mean", "p50", "p90", "p95", "p99", "max", "done < 10 ms"]
    );
    assert_eq!(report.text.zh.columns[6], "10 ms 内完成");
    let labels: Vec<&str> = en.rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "FIFO · simulated",
            "FIFO · measured",
            "RR · simulated",
            "RR · measured"
        ]
    );
    for (row, text) in report.rows.iter().zip(&en.rows) {
        assert_eq!(text.cells.len(), 7);
        let p95 = row.value("p95").unwrap();
        assert_eq!(text.cells[3].text, format!("{p95:.2}"));
        let done = row.value("done_within").unwrap();
        assert_eq!(text.cells[6].text, format!("{done:.0}"));
    }
    // Two repeats of different yield costs: the measured sliced row has a
    // spread and a change against FIFO.
    let rr = &en.rows[3];
    assert!(rr.cells[5].spread.is_some(), "{rr:?}");
    assert!(
        rr.cells[3]
            .change
            .as_deref()
            .unwrap()
            .ends_with("versus FIFO of the same kind"),
        "{rr:?}"
    );
    assert!(rr.cells[6].change.is_none(), "a count has no % change");
    assert!(en.rows[0].cells.iter().all(|c| c.spread.is_none()));
}

#[test]
fn an_invalid_run_shows_no_measurements_and_says_why() {
    let exp = Experiment::default();
    let w = Workload::generate(&exp.workload_spec());
    let plan = Plan::build(&exp, &w, settings(0.05, 1)).unwrap();
    let passes = vec![ideal_pass(&plan, PolicyKind::Fifo, 0, 0.0)];
    let report = RealRunReport::build(
        &plan,
        &passes,
        &[],
        &Environment {
            invalid: Some("hidden".into()),
            ..env()
        },
    );
    assert_eq!(report.state, RunState::Invalid);
    assert!(report
        .row("fifo", "measured")
        .unwrap()
        .values
        .iter()
        .all(Option::is_none));
    assert!(report.yield_cost.is_none());
    assert!(
        report.text.en.status.contains("hidden"),
        "{}",
        report.text.en.status
    );
    assert!(report.text.zh.status.contains("隐藏"));
    assert!(report.text.en.reading.is_empty());
}

#[test]
fn missing_apis_are_not_available_never_zero() {
    let exp = Experiment::default();
    let w = Workload::generate(&exp.workload_spec());
    let plan = Plan::build(&exp, &w, settings(0.05, 1)).unwrap();
    let mut passes = vec![
        ideal_pass(&plan, PolicyKind::Fifo, 0, 0.0),
        ideal_pass(&plan, PolicyKind::Rr, 0, 0.1),
    ];
    for p in &mut passes {
        p.input_delay = None;
        p.counts.longtasks = None;
        p.counts.longtask_ms = None;
    }
    let e = Environment {
        event_timing: false,
        ..env()
    };
    let report = RealRunReport::build(&plan, &passes, &[], &e);
    let c = report.compare("fifo").unwrap();
    assert!(c.longtasks.is_none() && c.input.is_none() && c.loafs.is_none());
    assert!(report
        .text
        .en
        .reading
        .contains("Real input delay: not available"));
    assert_eq!(report.text.en.na, "not available");
    assert_eq!(report.text.zh.na, "不可用");
}

#[test]
fn a_stopped_pass_is_left_out_and_the_status_says_so() {
    let exp = Experiment::default();
    let w = Workload::generate(&exp.workload_spec());
    let plan = Plan::build(&exp, &w, settings(0.05, 2)).unwrap();
    let mut cut = ideal_pass(&plan, PolicyKind::Rr, 1, 0.0);
    cut.completion[3] = f64::NAN;
    cut.counts.stopped = true;
    let passes = vec![
        ideal_pass(&plan, PolicyKind::Fifo, 0, 0.0),
        ideal_pass(&plan, PolicyKind::Rr, 0, 0.0),
        cut,
    ];
    let report = RealRunReport::build(
        &plan,
        &passes,
        &[],
        &Environment {
            stopped: true,
            ..env()
        },
    );
    assert_eq!(report.state, RunState::Stopped);
    assert_eq!(report.row("rr", "measured").unwrap().repeats, 1);
    assert!(
        report
            .text
            .en
            .status
            .starts_with("Stopped: 1 complete repeat"),
        "{}",
        report.text.en.status
    );
}

#[test]
fn notes_warn_about_blocking_cores_and_switch_cost() {
    let exp = Experiment {
        cores: 2,
        switch_cost: 0.5,
        ..Experiment::default()
    };
    let w = Workload::generate(&exp.workload_spec());
    let plan = Plan::build(&exp, &w, settings(0.5, 3)).unwrap();
    let notes = tailslice::realrun::text::plan_notes(&plan, 3, tailslice::text::Lang::En);
    let all = notes.join("\n");
    assert!(all.contains("blocks this tab for 2.6 s"), "{all}");
    assert!(all.contains("2 cores"), "{all}");
    assert!(all.contains("0.50 ms per switch"), "{all}");
    let short = Plan::build(&Experiment::default(), &w, settings(0.1, 3)).unwrap();
    let notes = tailslice::realrun::text::plan_notes(&short, 3, tailslice::text::Lang::Zh);
    assert_eq!(notes.len(), 1, "{notes:?}");
}

#[test]
fn slices_too_dear_lose_the_gain_and_the_reading_says_so() {
    let exp = Experiment::default();
    let w = Workload::generate(&exp.workload_spec());
    let plan = Plan::build(&exp, &w, settings(0.1, 1)).unwrap();
    let passes = vec![
        ideal_pass(&plan, PolicyKind::Fifo, 0, 0.0),
        ideal_pass(&plan, PolicyKind::Rr, 0, 4.0),
    ];
    let report = RealRunReport::build(&plan, &passes, &[], &env());
    let en = &report.text.en.reading;
    assert!(en.contains("loses the whole simulated p95 gain"), "{en}");
    assert!(!en.contains("keeps"), "{en}");
}

#[test]
fn the_visitors_input_delay_is_read_per_policy() {
    let exp = Experiment::default();
    let w = Workload::generate(&exp.workload_spec());
    let plan = Plan::build(&exp, &w, settings(0.1, 1)).unwrap();
    let mut fifo = ideal_pass(&plan, PolicyKind::Fifo, 0, 0.0);
    fifo.input_delay = Some(vec![480.0, 120.0]);
    let mut rr = ideal_pass(&plan, PolicyKind::Rr, 0, 0.1);
    rr.input_delay = Some(vec![1.5]);
    let report = RealRunReport::build(&plan, &[fifo, rr], &[], &env());
    let c = report.compare("fifo").unwrap().input.unwrap();
    assert_eq!((c.n, c.sample.unwrap().max), (2, 480.0));
    let en = &report.text.en.reading;
    assert!(
        en.contains("Your own input waited up to 1.50 ms sliced and 480 ms under FIFO (Event Timing, 3 events)"),
        "{en}"
    );
}
