//! The responsiveness model's cross-checks on random task lists and traces
//! (a small xorshift RNG with fixed seeds, so every run checks the same
//! cases): the exact mean against Σd²/2W, a 10⁶-sample Monte Carlo of
//! random arrivals against the exact distribution, the invariants of every
//! plan, free yields keeping the busy time and the span, no blocking time
//! once q ≤ 50 ms, and the recorded TBT equal to the trace summary's.

use serde_json::json;
use tailslice::responsiveness::blocking::blocking;
use tailslice::responsiveness::delay::{DelayDistribution, Window};
use tailslice::responsiveness::plan::{pieces, run, Chunk, Plan, Schedule, Task};
use tailslice::responsiveness::report::{evaluate, MAX_CHUNKS};
use tailslice::responsiveness::{Answer, Settings, Source, YieldKind, Yielding};
use tailslice::text::Lang;
use tailslice::trace::{import_trace, TraceOptions};

/// xorshift64 (Marsaglia 2003): plenty for test inputs.
struct XorShift(u64);

impl XorShift {
    fn new(seed: u64) -> XorShift {
        XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    fn exp(&mut self, mean: f64) -> f64 {
        -mean * (1.0 - self.unit()).ln()
    }
}

/// A duration like a page's tasks: mostly short, some long ones.
fn duration(rng: &mut XorShift) -> f64 {
    if rng.unit() < 0.15 {
        rng.uniform(50.0, 400.0)
    } else {
        rng.exp(8.0)
    }
}

/// Tasks as a trace records them: one after another, never overlapping.
fn trace(rng: &mut XorShift, n: usize, gap_mean: f64) -> Vec<Task> {
    let mut t = rng.uniform(0.0, 50.0);
    (0..n)
        .map(|_| {
            let start = t + rng.exp(gap_mean);
            let d = duration(rng);
            t = start + d;
            Task::new(start, d)
        })
        .collect()
}

/// A task list whose arrivals overlap, so tasks queue.
fn list(rng: &mut XorShift, n: usize, over_ms: f64) -> Vec<Task> {
    (0..n)
        .map(|_| Task::new(rng.uniform(0.0, over_ms), duration(rng)))
        .collect()
}

fn sliced(q: f64, kind: YieldKind, cost: f64) -> Plan {
    Plan::Sliced {
        quantum_ms: q,
        yielding: Yielding::new(kind, cost),
    }
}

fn span(tasks: &[Task]) -> Window {
    Window::span(tasks, &run(tasks, &Plan::Recorded).completion)
}

/// Settings of the bare residual-life model: no transit, so the figures
/// are the formulas' own (the transit is a shift, tested on its own).
fn settings(kind: YieldKind, cost: f64, quanta: &[f64]) -> Settings {
    Settings {
        yielding: Yielding::new(kind, cost),
        quanta: quanta.to_vec(),
        transit_ms: 0.0,
        ..Settings::default()
    }
}

fn no_transit() -> Settings {
    Settings {
        transit_ms: 0.0,
        ..Settings::default()
    }
}

/// The delay of an input at `a`: the rest of the chunk running then.
fn delay_at(chunks: &[Chunk], a: f64) -> f64 {
    let i = chunks.partition_point(|c| c.start <= a);
    match i.checked_sub(1).map(|j| &chunks[j]) {
        Some(c) if a < c.end() => c.end() - a,
        _ => 0.0,
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-12)
}

/// The union of the busy intervals, merged.
fn busy_periods(s: &Schedule) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    for c in &s.chunks {
        match out.last_mut() {
            Some(last) if c.start <= last.1 + 1e-9 => last.1 = last.1.max(c.end()),
            _ => out.push((c.start, c.end())),
        }
    }
    out
}

#[test]
fn the_exact_mean_is_the_sum_of_squares_over_twice_the_span() {
    for seed in 0..20 {
        let mut rng = XorShift::new(seed);
        let tasks = trace(&mut rng, 500, 40.0);
        let w = span(&tasks);
        let rec = run(&tasks, &Plan::Recorded);
        let d = DelayDistribution::new(&rec.chunks, w);
        let sum_sq: f64 = tasks.iter().map(|t| t.duration * t.duration).sum();
        assert!(
            close(d.mean(), sum_sq / (2.0 * w.len()), 1e-12),
            "seed {seed}"
        );
        // And for a sliced schedule inside the same window, Σ chunk² / 2W.
        let s = run(&tasks, &sliced(16.0, YieldKind::Message, 0.5));
        let inside: Vec<Chunk> = s
            .chunks
            .iter()
            .copied()
            .filter(|c| c.end() <= w.end)
            .collect();
        let d = DelayDistribution::new(&inside, w);
        let sum_sq: f64 = inside.iter().map(|c| c.len * c.len).sum();
        assert!(
            close(d.mean(), sum_sq / (2.0 * w.len()), 1e-12),
            "seed {seed}"
        );
    }
}

/// 10⁶ uniform arrivals against the exact figures: the mean and p98 within
/// 1 %, the shares over 50/100/200 ms within 0.2 points, none above the max.
#[test]
fn monte_carlo_agrees_with_the_exact_distribution() {
    const SAMPLES: usize = 1_000_000;
    let mut rng = XorShift::new(2024);
    let tasks = trace(&mut rng, 400, 30.0);
    let w = span(&tasks);
    // A window that cuts chunks at both ends (and work pushed past its end
    // by the clamp and the yields).
    let cut = Window::new(w.start + 0.1 * w.len(), w.end - 0.2 * w.len());
    let cases = [
        ("recorded", Plan::Recorded, w),
        ("message q=16", sliced(16.0, YieldKind::Message, 1.0), w),
        (
            "timeout q=8, cut window",
            sliced(8.0, YieldKind::Timeout, 0.2),
            cut,
        ),
        ("raf q=24", sliced(24.0, YieldKind::Raf, 0.1), w),
        ("recorded, cut window", Plan::Recorded, cut),
    ];
    for (name, plan, window) in cases {
        let s = run(&tasks, &plan);
        let exact = DelayDistribution::new(&s.chunks, window);
        let mut samples: Vec<f64> = (0..SAMPLES)
            .map(|_| delay_at(&s.chunks, rng.uniform(window.start, window.end)))
            .collect();
        let mc_mean = samples.iter().sum::<f64>() / SAMPLES as f64;
        samples.sort_by(f64::total_cmp);
        let mc_p98 = samples[(0.98 * SAMPLES as f64).ceil() as usize - 1];
        let (ex_mean, ex_p98) = (exact.mean(), exact.quantile(0.98));
        assert!(ex_p98 > 0.0, "{name}: the case must have a p98 to compare");
        assert!(
            close(mc_mean, ex_mean, 0.01),
            "{name}: mean {mc_mean} vs {ex_mean}"
        );
        assert!(
            close(mc_p98, ex_p98, 0.01),
            "{name}: p98 {mc_p98} vs {ex_p98}"
        );
        for t in [50.0, 100.0, 200.0] {
            let mc = samples.iter().filter(|&&x| x > t).count() as f64 / SAMPLES as f64;
            assert!((mc - exact.survival(t)).abs() < 0.002, "{name}: over {t}");
        }
        assert!(samples[SAMPLES - 1] <= exact.max() + 1e-9, "{name}: max");
    }
}

#[test]
fn quantiles_invert_the_survival_function() {
    for seed in 0..10 {
        let mut rng = XorShift::new(100 + seed);
        let tasks = trace(&mut rng, 200, 20.0);
        let s = run(
            &tasks,
            &sliced(rng.uniform(2.0, 120.0), YieldKind::Timeout, 0.3),
        );
        let d = DelayDistribution::new(&s.chunks, span(&tasks));
        let busy = d.busy_share();
        for p in [0.5, 0.75, 0.95, 0.98, 0.999] {
            let q = d.quantile(p);
            if busy <= 1.0 - p {
                assert_eq!(q, 0.0);
            } else {
                assert!(
                    (d.survival(q) - (1.0 - p)).abs() < 1e-9,
                    "seed {seed} p {p}"
                );
                // The smallest such t: just below it, more inputs wait longer.
                if q > 1e-3 {
                    assert!(d.survival(q - 1e-3) > 1.0 - p, "seed {seed} p {p}");
                }
            }
            assert!(q <= d.max());
        }
        // The chart's CDF agrees with the survival function at its points.
        for (t, p) in d.cdf_points(64) {
            assert!(
                (p - (1.0 - d.survival(t))).abs() < 1e-9,
                "seed {seed} t {t}"
            );
        }
    }
}

#[test]
fn every_plan_runs_each_task_whole_in_pieces_of_at_most_the_quantum() {
    for seed in 0..30 {
        let mut rng = XorShift::new(300 + seed);
        let tasks = if seed % 2 == 0 {
            trace(&mut rng, 150, 15.0)
        } else {
            list(&mut rng, 150, 2000.0)
        };
        let q = rng.uniform(0.5, 150.0);
        let kind = YieldKind::ALL[(seed % 4) as usize];
        let s = run(&tasks, &sliced(q, kind, rng.uniform(0.0, 5.0)));
        let mut work = vec![0.0; tasks.len()];
        for pair in s.chunks.windows(2) {
            assert!(
                pair[0].end() <= pair[1].start + 1e-9,
                "seed {seed}: overlap"
            );
        }
        for c in &s.chunks {
            assert!(c.len <= q, "seed {seed}");
            assert!(
                c.start >= tasks[c.task].start - 1e-12,
                "seed {seed}: ran early"
            );
            work[c.task] += c.len;
        }
        let mut expected_yields = 0;
        for (i, t) in tasks.iter().enumerate() {
            assert!(close(work[i], t.duration, 1e-9), "seed {seed}: task {i}");
            assert!(s.completion.ends[i] >= t.start + t.duration - 1e-9);
            expected_yields += pieces(t.duration, Some(q)).0 - 1;
        }
        assert_eq!(s.completion.yields, expected_yields, "seed {seed}");
    }
}

/// With free yields, `scheduler` and `message` change nothing but the order
/// of work: the same busy periods (so the same busy time and span); the
/// clamp and frames add idle time but never busy time.
#[test]
fn free_yields_keep_the_busy_time_and_the_span() {
    for seed in 0..20 {
        let mut rng = XorShift::new(500 + seed);
        let tasks = if seed % 2 == 0 {
            trace(&mut rng, 200, 25.0)
        } else {
            list(&mut rng, 200, 3000.0)
        };
        let rec = run(&tasks, &Plan::Recorded);
        let busy = rec.busy();
        for kind in YieldKind::ALL {
            let s = run(&tasks, &sliced(rng.uniform(1.0, 60.0), kind, 0.0));
            assert!(close(s.busy(), busy, 1e-9), "seed {seed} {kind:?}");
            assert_eq!(s.chunks[0].start, rec.chunks[0].start);
            match kind {
                YieldKind::Scheduler | YieldKind::Message => {
                    let (a, b) = (busy_periods(&s), busy_periods(&rec));
                    assert_eq!(a.len(), b.len(), "seed {seed} {kind:?}");
                    for (x, y) in a.iter().zip(&b) {
                        assert!(
                            close(x.0, y.0, 1e-9) && close(x.1, y.1, 1e-9),
                            "seed {seed}"
                        );
                    }
                    assert!(close(s.end(), rec.end(), 1e-12));
                }
                YieldKind::Timeout | YieldKind::Raf => assert!(s.end() >= rec.end() - 1e-9),
            }
        }
    }
}

#[test]
fn tbt_is_zero_once_the_quantum_is_at_most_50_ms() {
    for seed in 0..40 {
        let mut rng = XorShift::new(700 + seed);
        let tasks = trace(&mut rng, 200, 10.0);
        let q = if seed == 0 {
            50.0
        } else {
            rng.uniform(0.1, 50.0)
        };
        let kind = YieldKind::ALL[(seed % 4) as usize];
        let s = run(&tasks, &sliced(q, kind, rng.uniform(0.0, 20.0)));
        let b = blocking(&s.chunks, span(&tasks));
        assert_eq!(b.tbt_ms, 0.0, "seed {seed} q {q}");
        if q < 50.0 {
            assert_eq!(b.long_tasks, 0);
        }
    }
}

#[test]
fn recorded_tbt_is_the_sum_over_long_tasks() {
    for seed in 0..20 {
        let mut rng = XorShift::new(900 + seed);
        let tasks = trace(&mut rng, 300, 30.0);
        let r = evaluate(
            &tasks,
            &settings(YieldKind::Scheduler, 0.1, &[]),
            MAX_CHUNKS,
        )
        .unwrap();
        let want: f64 = tasks.iter().map(|t| (t.duration - 50.0).max(0.0)).sum();
        let long = tasks.iter().filter(|t| t.duration >= 50.0).count();
        assert!(close(r.rows[0].tbt_ms, want, 1e-12), "seed {seed}");
        assert_eq!(r.rows[0].long_tasks, long);
    }
}

/// A trace's tasks never finish earlier when sliced: each starts no earlier
/// than recorded and needs its whole duration; and the worst delay of a
/// sliced row is at most its quantum.
#[test]
fn slicing_a_trace_never_finishes_a_task_earlier() {
    for seed in 0..20 {
        let mut rng = XorShift::new(1100 + seed);
        let tasks = trace(&mut rng, 200, 10.0);
        let kind = YieldKind::ALL[(seed % 4) as usize];
        let r = evaluate(
            &tasks,
            &settings(kind, rng.uniform(0.0, 3.0), &[4.0, 16.0, 48.0]),
            MAX_CHUNKS,
        )
        .unwrap();
        for row in &r.rows {
            assert!(row.finish_later_ms.max >= -1e-9);
            assert!(row.finish_later_ms.mean >= -1e-9);
        }
        let max: Vec<f64> = r.rows.iter().map(|row| row.input_delay_ms.max).collect();
        assert!(max[1] <= 4.0 + 1e-9 && max[2] <= 16.0 + 1e-9 && max[3] <= 48.0 + 1e-9);
    }
}

/// A trace of `tasks` (start, duration ms) on one renderer main thread.
fn trace_file(tasks: &[(f64, f64)]) -> Vec<u8> {
    const T0: f64 = 123_456_789_000.0;
    let mut events = vec![
        json!({"ph": "M", "name": "thread_name", "pid": 7, "tid": 1, "ts": 0, "args": {"name": "CrRendererMain"}}),
    ];
    for &(s, d) in tasks {
        events.push(json!({"ph": "X", "name": "RunTask", "cat": "disabled-by-default-devtools.timeline",
            "pid": 7, "tid": 1, "ts": T0 + (s * 1000.0).round(), "dur": (d * 1000.0).round(), "args": {}}));
    }
    serde_json::to_vec(&json!({ "traceEvents": events })).unwrap()
}

/// The recorded row of an imported trace has the summary's TBT and long
/// tasks to the bit, and its span.
#[test]
fn the_recorded_row_agrees_with_the_trace_summary() {
    for seed in 0..10 {
        let mut rng = XorShift::new(1300 + seed);
        let tasks: Vec<(f64, f64)> = trace(&mut rng, 300, 20.0)
            .iter()
            .map(|t| (t.start, t.duration))
            .collect();
        let imp = import_trace(&trace_file(&tasks), &TraceOptions::default()).unwrap();
        let tasks = Task::from_columns(&imp.recorded_start, &imp.recorded);
        let a = Answer::new(&tasks, &no_transit(), Source::Trace, MAX_CHUNKS).unwrap();
        let rec = a.report.recorded();
        assert_eq!(rec.tbt_ms, imp.found.total_blocking_ms, "seed {seed}");
        assert_eq!(rec.long_tasks, imp.found.long_tasks, "seed {seed}");
        assert!(close(a.report.window.len(), imp.found.span_ms, 1e-12));
        assert!(close(a.report.busy_ms, imp.found.busy_ms, 1e-12));
        // Every sliced row at q ≤ 50 leaves no blocking time.
        for row in &a.report.rows[1..] {
            if row.quantum_ms.unwrap() <= 50.0 {
                assert_eq!(row.tbt_ms, 0.0);
            }
        }
    }
}

/// The reading of the specification's worked example: 120 tasks, a 275 ms
/// one among 16 others of 55–175 ms and short ones, idle gaps of 5–64 ms.
fn worked_example() -> Vec<Task> {
    let mut tasks = Vec::new();
    let mut t = 0.0;
    for i in 0..120u32 {
        let d = match i {
            10 => 275.0,
            _ if i % 7 == 3 => 55.0 + f64::from(i % 5) * 30.0,
            _ => 1.0 + f64::from((i * 37) % 14),
        };
        tasks.push(Task::new(t, d));
        t += d + 5.0 + f64::from((i * 53) % 60);
    }
    tasks
}

#[test]
fn the_worked_example_reads_as_the_specification_says() {
    let tasks = worked_example();
    let a = Answer::new(&tasks, &no_transit(), Source::Trace, MAX_CHUNKS).unwrap();
    let r = &a.report;
    assert_eq!((r.window.len(), r.busy_ms), (6995.0, 2867.0));
    let rec = r.recorded();
    assert!((rec.input_delay_ms.mean - 23.49).abs() < 0.005);
    assert!((rec.input_delay_ms.p98 - 165.0).abs() < 0.05);
    assert_eq!((rec.tbt_ms, rec.long_tasks), (1295.0, 17));
    let fav = a.favoured.unwrap();
    assert_eq!(
        (r.rows[fav.row].quantum_ms, fav.meets_target),
        (Some(48.0), true)
    );
    assert_eq!(r.rows[a.knee.unwrap().row].quantum_ms, Some(24.0));
    let en = a.reading(Lang::En).join(" ");
    assert!(
        en.starts_with("As recorded, an input waits 23.5 ms on average; 1 in 50 waits over 165.0 ms and the worst 275.0 ms (19 % over 50 ms). Total blocking time 1295.0 ms in 17 long tasks. Your trace favours yielding every 48 ms with scheduler.yield(): p98 goes from 165.0 to 44.3 ms and TBT from 1295.0 to 0.0 ms, while tasks finish 0.0 ms later on average (0.3 ms at p95, 0.5 ms at worst; 3.8 ms in all). Below 24 ms the gain flattens: down to 4 ms p98 falls a further 18.5 ms while tasks finish 0.5 ms later on average. Even at 4 ms tasks finish only 0.5 ms later on average, so finer slicing is nearly free here."),
        "{en}"
    );
    let zh = a.reading(Lang::Zh).join("");
    assert!(zh.starts_with("按记录，输入平均等待 23.5 ms；"), "{zh}");
    assert!(
        zh.contains("你的 trace 适合每 48 ms 用 scheduler.yield() 让出一次"),
        "{zh}"
    );
    // With setTimeout(0) the knee costs more and the clamp is named.
    let timeout = Answer::new(
        &tasks,
        &settings(
            YieldKind::Timeout,
            0.1,
            &tailslice::responsiveness::settings::DEFAULT_QUANTA_MS,
        ),
        Source::Trace,
        MAX_CHUNKS,
    )
    .unwrap();
    let en = timeout.reading(Lang::En).join(" ");
    assert!(en.contains("setTimeout(0) is clamped to 4 ms"), "{en}");
    assert_eq!(
        timeout.report.rows[timeout.knee.unwrap().row].quantum_ms,
        Some(24.0)
    );
}

#[test]
fn the_json_has_the_contracts_fields() {
    let a = Answer::new(
        &worked_example(),
        &Settings::default(),
        Source::Trace,
        MAX_CHUNKS,
    )
    .unwrap();
    let v = serde_json::to_value(a.json(Lang::En)).unwrap();
    assert_eq!(v["span_ms"], 6995.0);
    assert_eq!(v["span"]["from"], "tasks");
    assert_eq!(v["tasks"], 120);
    assert_eq!(v["yield"], "scheduler");
    assert_eq!(v["yield_cost_from"], "default");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    assert!(rows[0]["quantum_ms"].is_null() && rows[0]["yield"].is_null());
    assert!(rows[0]["yield_cost_ms"].is_null());
    for r in rows {
        for k in ["mean", "p50", "p75", "p95", "p98", "max"] {
            assert!(r["input_delay_ms"][k].is_f64(), "{k}");
        }
        for k in ["50", "100", "200"] {
            let s = r["delayed_over"][k].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&s));
        }
        for k in ["mean", "p95", "max", "total"] {
            assert!(r["finish_later_ms"][k].is_f64(), "{k}");
        }
        assert!(r["tbt_ms"].is_f64() && r["long_tasks"].is_u64());
    }
    // The transit is in every output; task lists have no interactions.
    assert_eq!(v["transit_ms"], 0.9);
    assert!(rows
        .iter()
        .all(|r| r["inp_ms"].is_null() && r["obstacles"] == "all"));
    assert!(v.get("interactions").is_none());
    assert_eq!(rows[6]["quantum_ms"], 48.0);
    assert_eq!(rows[6]["yield"], "scheduler");
    assert_eq!(v["favoured"]["quantum_ms"], 48.0);
    assert_eq!(v["knee"]["quantum_ms"], 24.0);
    assert!(v["reading"][0].as_str().unwrap().starts_with("As recorded"));
}

/// The reading is whole sentences on any tasks, with any primitive, in
/// both languages: every placeholder filled, no NaN or infinity, and no
/// "only −x ms" for a queueing list whose tasks finish earlier.
#[test]
fn readings_are_whole_sentences() {
    for seed in 0..24 {
        let mut rng = XorShift::new(1500 + seed);
        let tasks = match seed % 3 {
            0 => trace(&mut rng, 120, 30.0),
            1 => list(&mut rng, 120, 4000.0),
            _ => trace(&mut rng, 40, 2000.0),
        };
        let kind = YieldKind::ALL[(seed % 4) as usize];
        let mut s = settings(kind, rng.uniform(0.0, 2.0), &[4.0, 16.0, 48.0, 100.0]);
        if seed % 5 == 0 {
            s.window = Some(Window::new(100.0, 2500.0));
        }
        let source = if seed % 3 == 1 {
            Source::Tasks
        } else {
            Source::Trace
        };
        let a = Answer::new(&tasks, &s, source, MAX_CHUNKS).unwrap();
        for lang in Lang::ALL {
            for line in a.reading(lang) {
                assert!(!line.contains("{}"), "seed {seed}: {line}");
                assert!(
                    !line.contains("NaN") && !line.contains("inf"),
                    "seed {seed}: {line}"
                );
                assert!(!line.contains("only -"), "seed {seed}: {line}");
                assert!(!line.contains("只晚完成 -"), "seed {seed}: {line}");
            }
        }
    }
}

/// With the transit every input waits a little; the reading still tells a
/// thread that is rarely busy, or idle in the window, from a busy one.
#[test]
fn the_reading_sees_past_the_transit() {
    // Busy 1 % of the span: fewer than 1 input in 50 meets the task.
    let sparse = [Task::new(0.0, 10.0), Task::new(990.0, 0.5)];
    let a = Answer::new(&sparse, &Settings::default(), Source::Trace, MAX_CHUNKS).unwrap();
    let rec = a.report.recorded();
    assert!((rec.input_delay_ms.p98 - 0.9).abs() < 1e-12);
    let en = a.reading(Lang::En).join(" ");
    assert!(
        en.contains("so fewer than 1 input in 50 lands in a task (p98 is the transit alone, 0.9 ms); the worst wait is 10.9 ms"),
        "{en}"
    );
    // A window in which no task runs.
    let idle = Settings {
        window: Some(Window::new(2000.0, 3000.0)),
        ..Settings::default()
    };
    let a = Answer::new(&sparse, &idle, Source::Trace, MAX_CHUNKS).unwrap();
    let en = a.reading(Lang::En).join(" ");
    assert!(
        en.contains("no task runs in the window: no input waits for one"),
        "{en}"
    );
}
