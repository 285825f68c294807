//! The snapshot corpus: what the CLI prints today for a table of
//! experiments, so that nothing changes by accident (issue #9, "Nothing that
//! works today may change by accident").
//!
//! Each line of `corpus!` below is one experiment: a test name and the
//! arguments of the real `tailslice` binary. The test runs the binary and
//! compares what it printed (stdout, plus stderr and the exit code when
//! there are any, plus any file written to `{out}`) with the committed
//! snapshot in `tests/snapshots/snapshots__<name>.snap`, byte for byte.
//! Adding an experiment is one line; its snapshot is written on the first
//! run with `INSTA_UPDATE=always` (or reviewed with `cargo insta review`).
//!
//! Placeholders in the arguments: `{corpus}` is the fixture folder
//! `tests/corpus/` (imported task files), `{out}` a scratch file whose
//! content after the run is part of the snapshot (exports). Arguments are
//! split at spaces, so no argument may contain one.
//!
//! Task counts are small on purpose: the whole corpus runs in seconds in a
//! debug build.

use std::path::PathBuf;
use std::process::Command;

/// Declares the corpus: one test per line, and the same lines as a table
/// (`CORPUS`) for the coverage check at the bottom.
macro_rules! corpus {
    ($($name:ident: $args:literal,)*) => {
        const CORPUS: &[(&str, &str)] = &[$((stringify!($name), $args),)*];
        $(
            #[test]
            fn $name() {
                check(stringify!($name), $args);
            }
        )*
    };
}

corpus! {
    // The study, as a person and as a script see it.
    study_table: "simulate",
    study_table_zh: "simulate --lang zh",
    study_json: "simulate --json",
    study_json_explain_en: "simulate --json --explain",
    study_json_explain_zh: "simulate --json --explain --lang zh",
    // Every policy, on one core and on several.
    all_policies_one_core: "simulate --json --policies fifo,rr,sjf,srpt,mlfq --tasks 300",
    all_policies_four_cores: "simulate --json --policies fifo,rr,sjf,srpt,mlfq --tasks 300 --cores 4",
    policies_table_three_cores_zh: "simulate --policies srpt,mlfq,sjf --cores 3 --tasks 200 --lang zh",
    sjf_alone: "simulate --json --policies sjf --tasks 250 --seed 3",
    srpt_poisson_two_cores: "simulate --json --policies srpt,fifo --arrivals poisson:0.8 --tasks 300 --cores 2",
    // Any class on any machine (the one loop): XNU on the study, on an A10
    // and an M1 with QoS per class; round-robin and MLFQ on P/E machines.
    xnu_study_one_core: "simulate --json --policies fifo,rr,xnu",
    xnu_a10_qos_mix: "simulate --policies fifo,rr,xnu --machine a10 --mix 85:1-8@userInitiated,12:10-40@utility,3:80-200@utility",
    xnu_m1_background_json: "simulate --json --policies rr,mlfq,xnu --machine m1 --mix 85:1-8@userInitiated,12:10-40@utility,3:80-200@background --tasks 300",
    rr_custom_machine_poisson: "simulate --json --policies fifo,rr,srpt --machine 2p+2e --arrivals poisson:0.8 --tasks 300",
    // Clutch/Edge on the study, on identical cores, on an M1 with apps
    // named in the mix, and under each xnu release's rules.
    clutch_study_one_core: "simulate --json --policies fifo,rr,xnu,clutch",
    clutch_four_cores_poisson: "simulate --json --policies xnu,clutch --cores 4 --arrivals poisson:0.9 --tasks 300",
    clutch_m1_apps: "simulate --policies xnu,clutch --machine m1 --mix 85:1-8@userInitiated~mail,12:10-40@utility~backup:efficient,3:80-200@background~mail --tasks 300",
    clutch_a10_ios_quanta: "simulate --json --policies clutch --machine a10 --mix 85:1-8@userInitiated,15:10-40@default --tasks 200",
    // Linux's EEVDF on the study, and with nice weights per class on an M1
    // with arrivals over time.
    eevdf_study_one_core: "simulate --json --policies fifo,rr,eevdf",
    eevdf_nice_m1_poisson: "simulate --policies rr,eevdf --machine m1 --mix 85:1-8,12:10-40@nice=5,3:80-200@utility@nice=10 --arrivals poisson:0.9 --tasks 300",
    // Switch costs.
    switch_cost_rr_small_quantum: "simulate --json --switch-cost 0.5 --quantum 4 --tasks 300",
    switch_cost_four_cores_poisson: "simulate --json --policies fifo,rr,srpt,mlfq --switch-cost 0.25 --cores 4 --arrivals poisson:0.95 --tasks 400",
    switch_cost_table: "simulate --switch-cost 1 --quantum 8 --tasks 200 --policies fifo,rr,mlfq",
    // Each arrival kind.
    poisson_overload: "simulate --json --arrivals poisson:1.5 --tasks 300 --policies fifo,rr,sjf",
    poisson_eight_cores: "simulate --json --cores 8 --arrivals poisson:0.9 --tasks 500 --policies fifo,rr,srpt",
    poisson_table_explain: "simulate --arrivals poisson:0.9 --tasks 300 --policies fifo,rr,srpt",
    burst_all_policies: "simulate --json --arrivals burst:20@50 --tasks 300 --policies fifo,rr,sjf,srpt,mlfq",
    burst_table_two_cores: "simulate --arrivals burst:50@100 --tasks 200 --cores 2",
    // Each duration distribution.
    dist_fixed: "simulate --json --mix 1:fixed(5) --tasks 100 --policies fifo,rr,sjf",
    dist_exp_poisson: "simulate --json --mix 1:exp(10) --tasks 300 --arrivals poisson:0.7 --policies fifo,rr,srpt",
    dist_lognormal: "simulate --json --mix 3:lognormal(1.5,0.8),1:lognormal(3,0.5) --tasks 300 --policies fifo,rr,sjf,mlfq",
    dist_pareto: "simulate --json --mix 1:pareto(2,1.2) --tasks 300 --policies fifo,rr,srpt",
    dist_pareto_heavy_tail: "simulate --json --mix 9:1-8,1:pareto(5,0.9) --tasks 200",
    dist_mixed_table: "simulate --mix 85:1-8,10:exp(20),5:pareto(50,1.5) --tasks 300 --policies fifo,rr,sjf",
    // The two generators, seeds at the edges of the range.
    rng_fast: "simulate --json --rng fast --tasks 300",
    rng_fast_dists_two_cores: "simulate --json --rng fast --mix 1:exp(5),1:lognormal(2,1) --arrivals poisson:0.9 --cores 2 --tasks 300 --policies fifo,rr,srpt",
    rng_fast_table: "simulate --rng fast --seed 7 --tasks 200",
    seed_largest: "simulate --json --seed 9007199254740991 --tasks 300",
    seed_zero: "simulate --json --seed 0 --tasks 200",
    // Quanta and the "done within" threshold.
    quantum_half_ms: "simulate --json --quantum 0.5 --tasks 100",
    quantum_large: "simulate --json --quantum 200 --policies rr,mlfq",
    within_250: "simulate --json --within 250 --tasks 300",
    // mlfq settings.
    mlfq_one_level: "simulate --json --policies mlfq --mlfq-levels 1 --tasks 300",
    mlfq_eight_levels_boost_off: "simulate --json --policies mlfq,rr --mlfq-levels 8 --mlfq-boost off --quantum 2 --tasks 200",
    mlfq_short_boost_poisson: "simulate --json --policies mlfq --mlfq-boost 20 --quantum 4 --arrivals poisson:0.9 --cores 2 --tasks 300",
    mlfq_table: "simulate --policies rr,mlfq --mlfq-levels 5 --mlfq-boost 200 --tasks 300",
    // Imported task files.
    tasks_file_durations_json: "simulate --json --tasks-file {corpus}/durations.txt --policies fifo,rr,sjf",
    tasks_file_durations_table: "simulate --tasks-file {corpus}/durations.txt",
    tasks_file_csv_all_policies: "simulate --json --tasks-file {corpus}/arrivals.csv --policies fifo,rr,sjf,srpt,mlfq --cores 2",
    tasks_file_csv_table_zh: "simulate --tasks-file {corpus}/arrivals.csv --switch-cost 0.5 --lang zh",
    // Exports (the file's content is part of the snapshot).
    export_tasks_csv: "simulate --json --tasks 20 --policies fifo,rr,srpt --cores 2 --csv {out}",
    export_chrome_trace: "simulate --json --tasks 12 --policies rr,mlfq --cores 2 --switch-cost 0.5 --quantum 2 --trace {out}",
    export_trace_imported: "simulate --tasks-file {corpus}/arrivals.csv --policies srpt --trace {out}",
    // Sweeps over seeds and quanta, as text, JSON and CSV.
    sweep_seeds_text: "sweep --seeds 1-20 --tasks 100",
    sweep_seeds_json: "sweep --seeds 1-5 --tasks 60 --json",
    sweep_seeds_csv: "sweep --seeds 1-8 --tasks 60 --csv --policies fifo,rr,srpt",
    sweep_seeds_poisson_cores: "sweep --seeds 3-12 --tasks 80 --arrivals poisson:0.9 --cores 2 --policies fifo,srpt --json",
    sweep_quanta_text: "sweep --quanta 1,2,4,8,16,32,64 --tasks 200 --switch-cost 0.1",
    sweep_quanta_json: "sweep --quanta 2,16,128 --tasks 60 --json --policies rr,mlfq",
    sweep_quanta_csv: "sweep --quanta 4,16 --tasks 60 --csv --cores 2",
    sweep_quanta_tasks_file: "sweep --quanta 2,8,32 --tasks-file {corpus}/arrivals.csv --json",
    // Responsiveness: input delay, TBT and the cost of slicing, recorded
    // and per quantum, for a task list and the study's workloads.
    responsiveness_tasks_file_table: "responsiveness --tasks-file {corpus}/arrivals.csv",
    responsiveness_tasks_file_json: "responsiveness --tasks-file {corpus}/arrivals.csv --yield message --json",
    responsiveness_poisson_timeout_zh: "responsiveness --tasks 200 --arrivals poisson:0.6 --yield timeout --yield-cost 0.2 --lang zh",
    responsiveness_study_raf_window_json: "responsiveness --tasks 150 --arrivals burst:10@100 --yield raf --quanta 8,16,50 --window 100-900 --json",
    // A trace with interactions: the Interactions table and INP per row,
    // and the JSON's interactions.
    responsiveness_trace_interactions: "responsiveness --trace-in {corpus}/interactions.json --quanta 16,50",
    responsiveness_trace_interactions_json_zh: "responsiveness --trace-in {corpus}/interactions.json --quanta 16 --transit 0 --json --lang zh",
    // Every scenario with several knob settings, text in both languages.
    feishu_demo_json: "scenario feishu-demo --json",
    feishu_demo_table: "scenario feishu-demo --seconds 2",
    feishu_demo_table_zh: "scenario feishu-demo --seconds 2 --lang zh",
    feishu_demo_band_limit_off: "scenario feishu-demo --band-limit off --seconds 3 --json",
    feishu_demo_groups_no_system_work: "scenario feishu-demo --queues 10 --groups userInteractive,background --system-work off --seconds 2 --json",
    feishu_demo_on_m1: "scenario feishu-demo --machine m1 --seconds 2 --json",
    feishu_demo_timeline: "scenario feishu-demo --timeline on --seconds 0.5 --queues 3 --groups utility --json",
    feishu_startup_json: "scenario feishu-startup --json",
    feishu_startup_table_zh: "scenario feishu-startup --lang zh",
    feishu_startup_band_limit_off: "scenario feishu-startup --band-limit off --json",
    feishu_startup_custom_machine: "scenario feishu-startup --machine 2p+4e --system-work on",
    m1_compress_json: "scenario m1-compress --json",
    m1_compress_table_zh: "scenario m1-compress --lang zh",
    m1_compress_ep_ratio: "scenario m1-compress --ep-ratio 0.5 --json",
    m1_compress_custom_machine: "scenario m1-compress --machine 4p+2e",
    // Any class runs every scenario; the mechanism tables under other rules
    // and caps.
    feishu_demo_clutch: "scenario feishu-demo --policy clutch --seconds 2",
    feishu_demo_rr_zh: "scenario feishu-demo --policy rr --seconds 1 --queues 20 --lang zh",
    feishu_demo_clutch_11215_json: "scenario feishu-demo --policy clutch --clutch-rules 11215 --seconds 1 --queues 30 --json",
    feishu_startup_clutch_json: "scenario feishu-startup --policy clutch --json",
    feishu_startup_mlfq: "scenario feishu-startup --policy mlfq",
    m1_compress_clutch_m1: "scenario m1-compress --policy clutch --machine m1",
    m1_compress_gcd_held_json: "scenario m1-compress --gcd-cap held --machine m1 --json",
    m1_compress_rules_8796_zh: "scenario m1-compress --clutch-rules 8796 --machine m1 --lang zh",
    // Bad input: one line naming the flag, exit code 2.
    error_quantum: "simulate --quantum 0",
    error_mix: "simulate --mix 1:9-2",
    error_mix_qos: "simulate --mix 85:1-8@fast",
    error_machine: "simulate --machine 65p --policies xnu",
    error_arrivals: "simulate --arrivals poisson:3",
    error_policies: "simulate --policies fifo,fifo",
    error_tasks_file_conflict: "simulate --tasks-file {corpus}/durations.txt --seed 3",
    error_sweep_both_modes: "sweep --seeds 1-3 --quanta 1,2",
    error_unknown_scenario: "scenario feishu",
    error_responsiveness_yield: "responsiveness --yield auto",
    error_scenario_knob: "scenario feishu-demo --seconds 100",
    error_scenario_policy: "scenario feishu-demo --policy cfs",
    error_scenario_clutch_rules: "scenario m1-compress --clutch-rules 6000",
    error_scenario_gcd_cap: "scenario m1-compress --gcd-cap always",
    error_mix_app: "simulate --mix 1:1-8~mail:fast --policies clutch",
}

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// Runs one line of the corpus and compares its output with the snapshot.
fn check(name: &str, args: &str) {
    let corpus = corpus_dir();
    let corpus = corpus.to_str().expect("a UTF-8 path");
    let scratch =
        std::env::temp_dir().join(format!("tailslice-snapshot-{}-{name}", std::process::id()));
    let out = scratch.to_str().expect("a UTF-8 path");
    let argv: Vec<String> = args
        .split(' ')
        .filter(|a| !a.is_empty())
        .map(|a| a.replace("{corpus}", corpus).replace("{out}", out))
        .collect();
    let output = Command::new(env!("CARGO_BIN_EXE_tailslice"))
        .args(&argv)
        .output()
        .expect("the tailslice binary runs");
    // Paths are shown as the placeholders, so snapshots do not depend on
    // where the checkout is.
    let shown = |bytes: &[u8]| {
        String::from_utf8_lossy(bytes)
            .replace(corpus, "{corpus}")
            .replace(out, "{out}")
    };
    let mut text = format!("$ tailslice {args}\n{}", shown(&output.stdout));
    if !output.stderr.is_empty() {
        text.push_str(&format!("--- stderr ---\n{}", shown(&output.stderr)));
    }
    if !output.status.success() {
        text.push_str(&format!("--- exit code {:?} ---\n", output.status.code()));
    }
    if args.contains("{out}") {
        let written = std::fs::read(&scratch).unwrap_or_default();
        let _ = std::fs::remove_file(&scratch);
        text.push_str(&format!("--- {{out}} ---\n{}", shown(&written)));
    }
    insta::assert_snapshot!(name, text);
}

/// The corpus keeps covering what the issue lists; a line removed by
/// mistake fails here, not silently.
#[test]
fn corpus_covers_every_kind_of_experiment() {
    assert!(CORPUS.len() >= 40, "only {} experiments", CORPUS.len());
    let has = |needle: &str| CORPUS.iter().any(|(_, a)| a.contains(needle));
    let simulate = |needle: &str| {
        CORPUS
            .iter()
            .any(|(_, a)| a.starts_with("simulate") && a.contains(needle))
    };
    for policy in [
        "fifo", "rr", "sjf", "srpt", "mlfq", "xnu", "clutch", "eevdf",
    ] {
        assert!(simulate(policy), "no experiment runs {policy}");
    }
    for knob in [
        "--policy clutch",
        "--policy rr",
        "--clutch-rules",
        "--gcd-cap",
    ] {
        assert!(has(knob), "no scenario with {knob}");
    }
    for needle in [
        "--cores 2",
        "--cores 4",
        "--cores 8",
        "--switch-cost",
        "--arrivals poisson:",
        "--arrivals burst:",
        "fixed(",
        "exp(",
        "lognormal(",
        "pareto(",
        "--rng fast",
        "--mlfq-levels",
        "--mlfq-boost off",
        "--tasks-file {corpus}/durations.txt",
        "--tasks-file {corpus}/arrivals.csv",
        "--csv {out}",
        "--trace {out}",
        "--lang zh",
        "--explain",
    ] {
        assert!(simulate(needle), "no simulate experiment with {needle}");
    }
    // Default arrivals (t0) and uniform classes appear in the study lines.
    assert!(CORPUS.iter().any(|(_, a)| *a == "simulate --json"));
    for sweep in [
        "sweep --seeds",
        "sweep --quanta",
        "--json",
        "--csv",
        "--quanta 2,8,32 --tasks-file",
    ] {
        assert!(has(sweep), "no sweep with {sweep}");
    }
    for needle in [
        "--tasks-file",
        "--arrivals poisson:",
        "--json",
        "--lang zh",
        "--window",
        "interactions.json",
    ] {
        assert!(
            CORPUS
                .iter()
                .any(|(_, a)| a.starts_with("responsiveness") && a.contains(needle)),
            "no responsiveness experiment with {needle}"
        );
    }
    for scenario in ["feishu-demo", "feishu-startup", "m1-compress"] {
        let lines: Vec<&str> = CORPUS
            .iter()
            .map(|(_, a)| *a)
            .filter(|a| a.starts_with(&format!("scenario {scenario}")))
            .collect();
        assert!(lines.len() >= 3, "{scenario}: only {lines:?}");
        assert!(lines.iter().any(|a| a.contains("--json")), "{scenario}");
        assert!(lines.iter().any(|a| !a.contains("--json")), "{scenario}");
    }
    assert!(has("--band-limit off") && has("--machine") && has("--ep-ratio"));
    let mut names: Vec<&str> = CORPUS.iter().map(|(n, _)| *n).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), CORPUS.len(), "two lines share a name");
}
