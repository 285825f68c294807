//! `tailslice measure` as a user and a script see it: real threads under
//! SCHED_FIFO and SCHED_RR beside the model, the JSON contract, the queue
//! order, and the kernel settings put back after every way out (a normal
//! end, `--rt-unthrottled`, SIGTERM and SIGINT midway).
//!
//! The runs need Linux, root (real-time policies, writing sysctls) and
//! two CPUs (one for the tasks, one left to the system). Where the machine
//! does not allow them a test prints why it skips; with
//! `TAILSLICE_MEASURE_REQUIRED=1` (CI, as root) a skip is a failure.
//! Refusals of bad flags run everywhere on Linux.

#![cfg(target_os = "linux")]

mod cli_run;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;

use cli_run::tailslice;
use std::time::{Duration, Instant};

const RR_TIMESLICE: &str = "/proc/sys/kernel/sched_rr_timeslice_ms";
const RT_RUNTIME: &str = "/proc/sys/kernel/sched_rt_runtime_us";

/// The runs change machine-wide settings and time threads: one at a time.
static ONE_RUN: Mutex<()> = Mutex::new(());

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap().trim().to_string()
}

/// Why runs cannot happen here, if they cannot.
fn cannot_run() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let euid = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("?");
    if euid != "0" {
        return Some(format!(
            "not root (effective uid {euid}): real-time policies and the sysctls need root"
        ));
    }
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cpus < 2 {
        return Some(format!(
            "{cpus} CPU available: the tests keep one CPU free for the system"
        ));
    }
    if !tailslice::kernel::environment::rt_allowed() {
        return Some(
            "a thread cannot be made SCHED_FIFO here (no real-time budget in this cgroup?)"
                .to_string(),
        );
    }
    None
}

/// Runs `test` unless the machine cannot; a skip says why (and fails
/// where runs are required).
fn with_kernel(name: &str, test: impl FnOnce()) {
    if let Some(why) = cannot_run() {
        if std::env::var("TAILSLICE_MEASURE_REQUIRED").is_ok_and(|v| v == "1") {
            panic!("{name} cannot run but TAILSLICE_MEASURE_REQUIRED=1: {why}");
        }
        eprintln!("SKIPPED measure_cli::{name}: {why}");
        println!("SKIPPED measure_cli::{name}: {why}");
        return;
    }
    let _one = ONE_RUN.lock().unwrap_or_else(|e| e.into_inner());
    test();
}

fn settings() -> (String, String) {
    (read(RR_TIMESLICE), read(RT_RUNTIME))
}

/// One task's row of `--csv`.
struct TaskRow {
    policy: String,
    repeat: u32,
    task: usize,
    work: f64,
    completion: f64,
    latency: f64,
    busy: f64,
}

fn csv_rows(path: &std::path::Path) -> Vec<TaskRow> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "policy,kernel_policy,repeat,task,arrival_ms,work_ms,released_ms,completion_ms,latency_ms,busy_ms"
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let num = |i: usize| f[i].parse::<f64>().unwrap();
            TaskRow {
                policy: f[0].to_string(),
                repeat: f[2].parse().unwrap(),
                task: f[3].parse().unwrap(),
                work: num(5),
                completion: num(7),
                latency: num(8),
                busy: num(9),
            }
        })
        .collect()
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tailslice-measure-{}-{name}", std::process::id()))
}

#[test]
fn a_small_run_prints_simulates_object_with_measured_rows_and_the_environment() {
    with_kernel("json", || {
        let before = settings();
        let csv = temp("json.csv");
        let o = tailslice(&[
            "measure",
            "--tasks",
            "20",
            "--mix",
            "1:1-5",
            "--repeats",
            "2",
            "--json",
            "--csv",
            csv.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "stderr: {err}");
        assert_eq!(settings(), before, "the sysctls are back after a run");

        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        // simulate's object, unchanged, first.
        let sim = tailslice(&["simulate", "--tasks", "20", "--mix", "1:1-5", "--json"]);
        let sim: serde_json::Value = serde_json::from_slice(&sim.stdout).unwrap();
        for key in ["total_work_ms", "tasks", "results"] {
            assert_eq!(v[key], sim[key], "{key}");
        }
        let measured = v["measured"].as_array().unwrap();
        let names: Vec<(&str, &str)> = measured
            .iter()
            .map(|r| {
                (
                    r["policy"].as_str().unwrap(),
                    r["kernel_policy"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(names, [("fifo", "SCHED_FIFO"), ("rr", "SCHED_RR")]);
        let work_max = 5.0;
        for r in measured {
            assert_eq!(r["repeats"], 2);
            let mut last = 0.0;
            for key in ["mean", "p50", "p90", "p95", "p99", "max"] {
                let x = r[key].as_f64().unwrap();
                let [lo, hi] = [0, 1].map(|i| r["spread"][key][i].as_f64().unwrap());
                assert!(lo <= x && x <= hi, "{key}: {lo} <= {x} <= {hi}");
                if key != "mean" {
                    assert!(x >= last, "{key} is not below the percentile before it");
                    last = x;
                }
            }
            // The model's max is the total work (one core, all at t = 0);
            // the kernel cannot do it faster.
            assert!(r["max"].as_f64().unwrap() >= v["total_work_ms"].as_f64().unwrap());
            assert!(r["p50"].as_f64().unwrap() >= 1.0);
        }
        let env = &v["environment"];
        for key in [
            "kernel",
            "hz",
            "cpus",
            "rt_throttling",
            "rr_timeslice_ms",
            "steal_ms",
        ] {
            assert!(env.get(key).is_some(), "environment.{key}");
        }
        // The kernel rounds the setting up to whole ticks (16 ms: 4 ticks
        // at HZ 250, 2 ticks or 20 ms at HZ 100).
        let slice = env["rr_timeslice_ms"].as_f64().unwrap();
        if let Some(hz) = env["hz"].as_f64() {
            let tick = 1000.0 / hz;
            assert!(
                (slice - (16.0 / tick).ceil() * tick).abs() < 0.01,
                "a slice of whole ticks: {slice} at HZ {hz}"
            );
        }
        assert_eq!(env["rr_timeslice"]["written"], 16);
        assert_eq!(env["rr_timeslice"]["restored"], true);
        assert!(env["steal_ms"].as_f64().unwrap() >= 0.0);
        assert_eq!(env["rt_throttling"]["restored"], true);
        assert_eq!(env["rt_throttling"]["switched_off"], false);
        let used = env["cpus"]["used"].as_array().unwrap();
        assert_eq!(used.len(), 1);
        assert!(!env["cpus"]["free"].as_array().unwrap().is_empty());
        assert!(env["notes"]["en"].as_array().unwrap().len() >= 2);
        assert!(env["notes"]["zh"].as_array().unwrap().len() >= 2);

        let rows = csv_rows(&csv);
        assert_eq!(rows.len(), 20 * 2 * 2);
        for r in &rows {
            assert!(r.work >= 1.0 && r.work <= work_max);
            assert!(r.busy >= r.work - 1e-3, "task {} spun its work", r.task);
            assert!(
                r.latency >= r.work,
                "{} task {}: latency {} below its own work {}",
                r.policy,
                r.task,
                r.latency,
                r.work
            );
        }
        // FIFO with every task at t = 0: the kernel completes them in the
        // list's order (a creator that lowers its threads' priority gets
        // the reverse).
        for repeat in [1, 2] {
            let mut fifo: Vec<&TaskRow> = rows
                .iter()
                .filter(|r| r.policy == "fifo" && r.repeat == repeat)
                .collect();
            fifo.sort_by(|a, b| a.completion.total_cmp(&b.completion));
            let order: Vec<usize> = fifo.iter().map(|r| r.task).collect();
            assert_eq!(order, (0..20).collect::<Vec<_>>(), "repeat {repeat}");
        }
        let _ = std::fs::remove_file(csv);
    });
}

#[test]
fn the_table_puts_a_measured_row_and_its_difference_under_each_model_row() {
    with_kernel("table", || {
        let o = tailslice(&[
            "measure",
            "--tasks",
            "10",
            "--mix",
            "1:1-3",
            "--repeats",
            "2",
        ]);
        assert!(o.status.success());
        let out = String::from_utf8_lossy(&o.stdout);
        let lines: Vec<&str> = out.lines().collect();
        let at = |start: &str| lines.iter().position(|l| l.starts_with(start)).unwrap();
        let fifo = at("FIFO ");
        assert!(lines[fifo + 1].starts_with("  SCHED_FIFO"));
        assert!(lines[fifo + 2].starts_with("    min"));
        assert!(lines[fifo + 3].starts_with("    max"));
        assert!(lines[fifo + 4].starts_with("    vs model") && lines[fifo + 4].contains('%'));
        let rr = at("RR 16ms ");
        assert!(lines[rr + 1].starts_with("  SCHED_RR"));
        assert!(out.contains("CPU 0 left free") || out.contains("left free for the system"));
        let zh = tailslice(&[
            "measure",
            "--tasks",
            "10",
            "--mix",
            "1:1-3",
            "--repeats",
            "1",
            "--lang",
            "zh",
        ]);
        let zh = String::from_utf8_lossy(&zh.stdout);
        assert!(zh.contains("相对模型") && zh.contains("留给系统"), "{zh}");
    });
}

#[test]
fn rt_unthrottled_switches_throttling_off_and_puts_it_back() {
    with_kernel("rt_unthrottled", || {
        let before = settings();
        let o = tailslice(&[
            "measure",
            "--tasks",
            "10",
            "--mix",
            "1:1-3",
            "--repeats",
            "1",
            "--policies",
            "rr",
            "--quantum",
            "8",
            "--rt-unthrottled",
            "--json",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(settings(), before);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let t = &v["environment"]["rt_throttling"];
        assert_eq!(t["switched_off"], true);
        assert_eq!(t["restored"], true);
        assert_eq!(
            t["runtime_us"].as_i64().unwrap().to_string(),
            before.1,
            "the value before is reported"
        );
        assert_eq!(v["environment"]["rr_timeslice"]["written"], 8);
        assert_eq!(v["measured"].as_array().unwrap().len(), 1);
    });
}

/// Starts a run long enough to be stopped midway (rr at an 8 ms slice,
/// throttling off), and waits until it has changed both settings.
fn start_long_run() -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tailslice"))
        .args([
            "measure",
            "--tasks",
            "100",
            "--mix",
            "1:50-70",
            "--policies",
            "rr",
            "--quantum",
            "8",
            "--repeats",
            "3",
            "--rt-unthrottled",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tailslice runs");
    let err = child.stderr.take().unwrap();
    let mut lines = BufReader::new(err).lines();
    let started = lines
        .by_ref()
        .map_while(Result::ok)
        .any(|l| l.starts_with("measure: rr (SCHED_RR), repeat 1"));
    assert!(started, "the run reports its first pass");
    // The rest of stderr is drained so the child never blocks on it.
    std::thread::spawn(move || lines.for_each(drop));
    let deadline = Instant::now() + Duration::from_secs(10);
    while settings() != ("8".to_string(), "-1".to_string()) {
        assert!(Instant::now() < deadline, "the run changed the settings");
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

fn stopped_midway_puts_the_settings_back(signal: &str, number: i32) {
    let before = settings();
    let mut child = start_long_run();
    let killed = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + number), "{status:?}");
    assert_eq!(settings(), before, "SIG{signal} midway: settings put back");
}

#[test]
fn a_run_stopped_by_sigterm_puts_the_settings_back() {
    with_kernel("sigterm", || {
        stopped_midway_puts_the_settings_back("TERM", 15)
    });
}

#[test]
fn a_run_stopped_by_sigint_puts_the_settings_back() {
    with_kernel("sigint", || stopped_midway_puts_the_settings_back("INT", 2));
}

/// One line on stderr naming the flag, exit status 2, nothing run.
fn refused(args: &[&str], flag: &str, allowed: &str) {
    let before = settings();
    let mut all = vec!["measure"];
    all.extend_from_slice(args);
    let o = tailslice(&all);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(flag), "{args:?} names {flag}: {err}");
    assert!(err.contains(allowed), "{args:?} says {allowed}: {err}");
    assert!(o.stdout.is_empty());
    assert_eq!(settings(), before);
}

#[test]
fn bad_flags_are_refused_in_one_line_with_exit_status_2() {
    let _one = ONE_RUN.lock().unwrap_or_else(|e| e.into_inner());
    refused(&["--policies", "sjf"], "--policies", "fifo, rr, eevdf");
    refused(
        &["--policies", "sjf"],
        "--policies",
        "sjf has no kernel policy",
    );
    refused(&["--policies", "fifo,fifo"], "--policies", "twice");
    refused(&["--policies", "bogus"], "--policies", "fifo, rr, eevdf");
    refused(&["--repeats", "0"], "--repeats", "1 to 100");
    refused(&["--repeats", "x"], "--repeats", "1 to 100");
    refused(&["--switch-cost", "1"], "--switch-cost", "model's alone");
    refused(&["--machine", "m1"], "--machine", "model's alone");
    refused(&["--cores", "9999"], "--cores", "1 to 256");
    refused(&["--quantum", "1.5"], "--quantum", "whole number of ms");
    refused(&["--tasks", "6000"], "--tasks", "at most 5000");
    refused(
        &["--tasks", "5000", "--mix", "1:fixed(1000)"],
        "--repeats",
        "600 s",
    );
    refused(&["--bogus"], "--bogus", "tailslice measure --help");
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    refused(
        &["--cores", &(cpus + 1).to_string()],
        "--cores",
        &format!("1 to {cpus}"),
    );
    refused(
        &["--cores", &cpus.to_string(), "--rt-unthrottled"],
        "--rt-unthrottled",
        "every CPU",
    );
}

/// The model beside SCHED_OTHER is the library's `eevdf` as the measured
/// threads meet the kernel: slices that end the moment they are used up
/// (the threads read their own CPU-time clock) and the base slice scaled
/// by the machine's online CPUs, not by the one CPU the tasks are pinned
/// to. `--eevdf-slice-end tick` puts the tick back, and says it was given.
#[test]
fn the_eevdf_model_row_ends_slices_exactly_and_scales_by_online_cpus() {
    use tailslice::experiment::{Experiment, Limits};
    use tailslice::policy::eevdf::slice_factor;
    with_kernel("eevdf_model", || {
        let online = tailslice::kernel::environment::online_cpus();
        let args = [
            "measure",
            "--policies",
            "eevdf",
            "--tasks",
            "30",
            "--repeats",
            "1",
            "--json",
        ];
        for (given, exact) in [(None, true), (Some("tick"), false), (Some("exact"), true)] {
            let mut a = args.to_vec();
            if let Some(end) = given {
                a.extend(["--eevdf-slice-end", end]);
            }
            let o = tailslice(&a);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            let m = &v["eevdf_model"];
            assert_eq!(
                m["slice_end"],
                if exact { "exact" } else { "tick" },
                "{given:?}"
            );
            assert_eq!(m["slice_end_given"], given.is_some());
            assert_eq!(m["slice_cpus"], online);
            let slice = 0.75 * slice_factor(online) as f64;
            assert_eq!(m["base_slice_ms"].as_f64().unwrap(), slice);

            // The library's run with those settings gives the model row.
            let (mut exp, errors) =
                Experiment::from_query([("p", "eevdf"), ("n", "30")], &Limits::CLI);
            assert!(errors.is_empty());
            exp.eevdf.hrtick = exact;
            exp.eevdf.slice_cpus = Some(online);
            let out = exp.run(&Limits::CLI, false).unwrap();
            let expected = serde_json::to_value(out.report()).unwrap();
            assert_eq!(v["results"], expected["results"], "{given:?}");
            let notes = v["environment"]["notes"]["en"].to_string();
            let says = if exact {
                "the moment it is used up"
            } else {
                "at the next tick"
            };
            assert!(notes.contains(says), "{notes}");
        }
        // Exact slice ends with the scaled slice are not the defaults'
        // model (what `simulate` prints on one core).
        let sim = tailslice(&["simulate", "--policies", "eevdf", "--tasks", "30", "--json"]);
        let sim: serde_json::Value = serde_json::from_slice(&sim.stdout).unwrap();
        let o = tailslice(&args);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_ne!(v["results"], sim["results"]);
    });
}

/// A class's nice value reaches its threads: two spinners on one CPU, one
/// at nice 0 with 400 ms of work and one at nice 5 with the work its
/// weight earns meanwhile (400 × 335 / 1024 ≈ 130.9 ms), finish together
/// when the kernel weighs them 1024 : 335. Had nice been left at 0, the
/// short one would finish at about half the long one's time (2 × 130.9
/// against 530.9 ms: a ratio of 0.49). Other threads on the CPU take their
/// share from both in proportion, so the ratio holds on a loaded machine;
/// EEVDF keeps each thread within a slice and a tick (5.5 ms of CPU time)
/// of its share, about 1 % of the run: 15 % is a wide margin that still
/// tells the two apart.
#[test]
fn nice_values_reach_the_threads_and_the_kernel_weighs_them() {
    with_kernel("nice", || {
        let tasks = temp("nice.csv");
        let short = 400.0 * 335.0 / 1024.0;
        std::fs::write(
            &tasks,
            format!("arrival_ms,duration_ms,class\n0,400,spin\n0,{short:.3},spin@nice=5\n"),
        )
        .unwrap();
        let csv = temp("nice-out.csv");
        let o = tailslice(&[
            "measure",
            "--policies",
            "eevdf",
            "--tasks-file",
            tasks.to_str().unwrap(),
            "--repeats",
            "3",
            "--csv",
            csv.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let rows = csv_rows(&csv);
        let _ = std::fs::remove_file(&tasks);
        let _ = std::fs::remove_file(&csv);
        for repeat in 1..=3 {
            let done = |task: usize| {
                rows.iter()
                    .find(|r| r.repeat == repeat && r.task == task && r.policy == "eevdf")
                    .map(|r| r.latency)
                    .unwrap()
            };
            let ratio = done(1) / done(0);
            println!(
                "repeat {repeat}: nice 5 done at {:.1} ms, nice 0 at {:.1} ms, ratio {ratio:.3}",
                done(1),
                done(0)
            );
            assert!(
                (0.85..=1.15).contains(&ratio),
                "repeat {repeat}: the nice 5 task finished at {ratio:.3} of the nice 0 task's time (weights: 1, nice ignored: 0.49)"
            );
        }
    });
}
