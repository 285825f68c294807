//! `m1-compress`: the M1 / Intel QoS study (seed 001). Cormorant compresses
//! a 10 GB file as chunks on an operation queue whose concurrency equals the
//! core count, at QoS 9, 17, 25 or 33.
//!
//! What the model shows, and why: on `xeon-w` (8 identical cores, no band
//! limit) a job alone has the cores to itself whatever its QoS; two at once
//! share them by priority, and background (base 4, already at the floor
//! MAXPRI_THROTTLE) gets only what QoS 33 leaves. On `m1` background may
//! only use the 4 efficiency cores, even while the performance cores idle;
//! every other QoS takes P cores first and spills to E.
//!
//! Calibration (the only two tuned constants, both documented):
//! - [`CHUNK_WORK_MS`]: 160 chunks × 305 ms = 48.8 core-seconds on a
//!   speed-1 core, so one job alone on `xeon-w` takes ~6.1 s, the middle of
//!   the measured 5.6–6.6 s;
//! - the E/P speed ratio `M1_EP_RATIO` = 0.30 (in `machine.rs`), so QoS 9
//!   alone on the M1's 4 E cores takes ~41 s, inside the measured 38–43 s.
//!
//! An M1 P core is assumed as fast as a Xeon W core (not tuned).
//!
//! The jobs run in one app (Cormorant), whose operation-queue workers GCD
//! caps per process (`workq_constrained_allowance`: at most the machine's
//! parallelism for the QoS, the 4 E cores for background on the M1; on by
//! default, admission per chunk as for an operation queue's items).
//!
//! Which mechanism explains the two background jobs' 40 s / 77 s: a table
//! runs them under XNU's timeshare class, Clutch with both in one app,
//! Clutch with two apps whose groups differ in boost (xnu-7195 rules), and
//! Clutch with GCD's cap, workers holding their admission for the whole job
//! or taking it per chunk (see `super::mechanism` and `docs/clutch.md`).

use serde::Serialize;

use super::knob::Text;
use super::mechanism::{join_list, Apps, Mechanism, MechanismRow, MechanismTable};
use super::registry::{PageCell, PageColumn, PageRow, PageTable, RunLabel};
use super::{Knobs, PageText, RunView, ScenarioKind, ScenarioOutcome};
use crate::policy::{ClutchRules, KernelFlavour, PolicyKind};
use crate::scenario::simulation::{simulate, RunConfig, RunResult};
use crate::sim::machine::{CoreKind, Machine};
use crate::sim::{GroupKind, Qos, ThreadGroup};
use crate::text::Filled;
use crate::text::Lang;
use crate::workload::programs::{Pool, Process, Program, Programs, ThreadSpec, WorkerCap};

/// The runs the page can pick from: one per machine and case, with
/// timelines only.
pub(crate) fn run_labels(knobs: &Knobs) -> Vec<RunLabel> {
    if !knobs.timeline {
        return Vec::new();
    }
    machines(knobs)
        .iter()
        .flat_map(|m| {
            plan().into_iter().map(move |(case, jobs)| {
                let qos = jobs
                    .iter()
                    .map(|q| q.number().to_string())
                    .collect::<Vec<_>>()
                    .join("+");
                run_label(m, case, &qos)
            })
        })
        .collect()
}

/// The most telling run: the M1 under contention (QoS 9 kept on the E
/// cores while QoS 33 uses all eight). Each machine has its alone runs,
/// then contention, then two-background; without a machine knob xeon-w's
/// come first.
pub(crate) fn default_run(knobs: &Knobs) -> usize {
    let contention = ALONE_QOS.len();
    let runs_per_machine = ALONE_QOS.len() + 2;
    match knobs.machine {
        None => runs_per_machine + contention,
        Some(_) => contention,
    }
}

/// Chunks per job (10 GB in 64 MB chunks).
pub(crate) const CHUNKS: u32 = 160;
/// Work per chunk, ms on a speed-1 core. Calibrated, see the module doc.
pub(crate) const CHUNK_WORK_MS: f64 = 305.0;
/// QoS of the study's single-job runs.
pub(crate) const ALONE_QOS: [Qos; 4] = [
    Qos::Background,
    Qos::Utility,
    Qos::UserInitiated,
    Qos::UserInteractive,
];

pub(crate) const CALIBRATION: &str =
    "Two constants tuned, nothing else: chunk work = 305 ms per chunk \
    × 160 chunks (48.8 s on one speed-1 core), tuned so one job alone on xeon-w takes ~6.1 s \
    (measured 5.6–6.6 s); E-core speed = 0.30 × P core (--ep-ratio), tuned so QoS 9 alone on \
    the M1's 4 E cores takes ~41 s (measured 38–43 s). An M1 P core is assumed as fast as a \
    Xeon W core; hyper-threading, memory bandwidth and I/O are not modelled.";

/// [`CALIBRATION`] in Simplified Chinese.
pub(crate) const CALIBRATION_ZH: &str = "只校准了两个常数，别无其他：每块工作量 = 305 ms × 160 块\
    （在一个速度为 1 的核心上共 48.8 s），校准使一个任务在 xeon-w 上单独运行约需 6.1 s\
    （实测 5.6–6.6 s）；能效核速度 = 0.30 × 性能核（--ep-ratio），校准使 QoS 9 的任务在 M1 \
    的 4 个能效核上单独运行约需 41 s（实测 38–43 s）。假定 M1 的性能核与 Xeon W 的核心一样快；\
    超线程、内存带宽和 I/O 均未建模。";

/// The cases each machine runs, in order: each QoS alone, then background
/// against userInteractive, then two background jobs.
fn plan() -> Vec<(&'static str, Vec<Qos>)> {
    let mut plan: Vec<(&'static str, Vec<Qos>)> =
        ALONE_QOS.iter().map(|&q| ("alone", vec![q])).collect();
    plan.push(("contention", vec![Qos::Background, Qos::UserInteractive]));
    plan.push(("two-background", vec![Qos::Background, Qos::Background]));
    plan
}

/// The machines a run covers: the knob's, or xeon-w and m1.
fn machines(knobs: &Knobs) -> Vec<Machine> {
    match &knobs.machine {
        Some(_) => vec![knobs.machine_or(Machine::m1)],
        None => vec![Machine::xeon_w(), Machine::m1(knobs.ep_ratio)],
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JobResult {
    pub qos: u8,
    pub seconds: f64,
    pub measured_seconds: Option<f64>,
    /// The measured range or remark, when the study gives one (the JSON
    /// has the English).
    #[serde(serialize_with = "english_or_null")]
    pub measured: Option<Text>,
    /// Share of its CPU time spent on efficiency cores.
    pub efficiency_core_share: f64,
    /// Distinct cores its workers ran on.
    pub cores_used: u32,
    /// The job had not finished when the simulation stopped (its `seconds`
    /// is then the simulated span, a lower bound). Only written when true,
    /// so finished runs keep their JSON.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unfinished: bool,
}

/// A study's remark as its English text, or `null`.
fn english_or_null<S: serde::Serializer>(text: &Option<Text>, s: S) -> Result<S::Ok, S::Error> {
    match text {
        Some(t) => s.serialize_some(t.en),
        None => s.serialize_none(),
    }
}

/// A run's name in the run picker: machine, case and the jobs' QoS.
fn run_label(m: &Machine, case: &'static str, qos: &str) -> RunLabel {
    RunLabel::each(|lang| format!("{} {} {qos}", m.name, case_title(case).get(lang)))
}

/// A case's name in the page's words (the JSON keeps `case`).
fn case_title(case: &'static str) -> Text {
    match case {
        "alone" => Text::new("alone", "单独运行"),
        "contention" => Text::new("contention", "争用"),
        "two-background" => Text::new("two-background", "两个 background"),
        _ => Text::new(case, case),
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CaseResult {
    pub machine: String,
    pub case: &'static str,
    pub jobs: Vec<JobResult>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct M1CompressResult {
    pub scenario: &'static str,
    pub cases: Vec<CaseResult>,
    /// The constants tuned, and to what.
    #[serde(flatten, serialize_with = "crate::text::pair::calibration")]
    pub calibration: Filled<&'static str>,
    #[serde(flatten, serialize_with = "crate::text::pair::notes")]
    pub notes: Filled<Vec<String>>,
    pub runs: Vec<RunView>,
    /// The class every run of the table used.
    pub policy: PolicyKind,
    /// The xnu release whose Clutch rules `clutch` followed.
    pub clutch_rules: &'static str,
    /// GCD's worker cap of the table's runs: `per-item`, `held` or `off`.
    pub gcd_cap: &'static str,
    /// Which mechanism explains the two background jobs' 40 s / 77 s
    /// (present when an m1 was run: the machine of the measurement).
    pub mechanisms: Option<MechanismTable>,
}

/// How the jobs of one run are set up besides their QoS.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Setup {
    pub policy: PolicyKind,
    pub rules: ClutchRules,
    /// One app (Cormorant) or each job in its own (`Two`: job 0's kind,
    /// job 1's kind).
    pub apps: Apps,
    pub cap: WorkerCap,
    pub band_limit: bool,
}

/// GCD's cap when the knob leaves it to the scenario: per chunk, as GCD
/// admits an operation queue's items (macOS has the cap since 10.14; every
/// machine here runs macOS).
pub(crate) const DEFAULT_GCD_CAP: WorkerCap = WorkerCap::PerItem;

/// The table's setup on machine `m` from the knobs.
fn setup(knobs: &Knobs, m: &Machine) -> Setup {
    Setup {
        policy: knobs.policy,
        rules: knobs.clutch_rules,
        apps: Apps::One(GroupKind::Normal),
        cap: knobs.gcd_cap.unwrap_or(DEFAULT_GCD_CAP),
        band_limit: knobs.band_limit.unwrap_or(KernelFlavour::of(m).band_limit),
    }
}

/// Jobs at the given QoS, all starting at 0; job `j` is pool `j`, its
/// workers named "job j worker k", in the apps and under the cap `setup`
/// names.
pub(crate) fn workload(jobs: &[Qos], concurrency: usize, apps: Apps, cap: WorkerCap) -> Programs {
    let mut w = Programs::default();
    let (first, second) = match apps {
        Apps::One(k) => (k, None),
        Apps::Two(a, b) => (a, Some(b)),
    };
    let cormorant = w.add_process(Process {
        name: "Cormorant".into(),
        group: ThreadGroup { id: 1, kind: first },
        worker_cap: cap,
    });
    let other = second.map(|kind| {
        w.add_process(Process {
            name: "Cormorant (a second app)".into(),
            group: ThreadGroup { id: 2, kind },
            worker_cap: cap,
        })
    });
    for (j, &qos) in jobs.iter().enumerate() {
        let pool = w.add_pool(Pool {
            name: format!("job {j} (QoS {})", qos.number()),
            chunks: CHUNKS,
            chunk_work: CHUNK_WORK_MS,
        });
        let process = match other {
            Some(p) if j > 0 => p,
            _ => cormorant,
        };
        for k in 0..concurrency {
            w.add_thread(
                ThreadSpec::new(format!("job {j} worker {k}"), qos, Program::Pool(pool))
                    .in_group(format!("job {j}"))
                    .in_process(process),
            );
        }
    }
    w
}

/// Runs jobs together on `machine`.
pub(crate) fn run_jobs(machine: &Machine, jobs: &[Qos], setup: &Setup, knobs: &Knobs) -> RunResult {
    let mut w = workload(jobs, machine.cores.len(), setup.apps, setup.cap);
    if knobs.system_work.unwrap_or(false) {
        w.add_system_work(machine.cores.len(), 1.3, 100.0);
    }
    let cfg = RunConfig {
        until: SIMULATED_MS,
        stop_when_pools_done: true,
        timeline: knobs.timeline,
        max_records: knobs.max_records,
        class: setup.policy,
        clutch: crate::policy::ClutchParams { rules: setup.rules },
        band_limit: Some(setup.band_limit),
        ..RunConfig::default()
    };
    simulate(&w, machine, &cfg)
}

/// The study's figure (s) and its wording, for one job of one case.
fn measured(machine: &str, case: &str, job: usize, qos: Qos) -> (Option<f64>, Option<Text>) {
    let text = Text::new;
    match (machine, case, job, qos) {
        ("xeon-w", "alone", _, _) => (
            Some(6.1),
            Some(text("5.6–6.6 s at any QoS", "任意 QoS 下 5.6–6.6 秒")),
        ),
        ("xeon-w", "contention", _, Qos::Background) => (Some(24.0), Some(text("24 s", "24 秒"))),
        ("xeon-w", "contention", _, _) => (
            Some(6.1),
            Some(text("normal time (5.6–6.6 s)", "正常耗时（5.6–6.6 秒）")),
        ),
        ("m1", "alone", _, Qos::Background) => (Some(40.5), Some(text("38–43 s", "38–43 秒"))),
        ("m1", "alone", _, _) => (
            None,
            Some(text(
                "about as fast as any higher QoS; no figure given",
                "与其他较高 QoS 一样快；原文未给出数字",
            )),
        ),
        ("m1", "two-background", 0, _) => (Some(40.0), Some(text("40 s", "40 秒"))),
        ("m1", "two-background", _, _) => (Some(77.0), Some(text("77 s", "77 秒"))),
        _ => (None, None),
    }
}

/// The study's two background jobs on the M1, s.
pub(crate) const MEASURED_TWO_BACKGROUND: [f64; 2] = [40.0, 77.0];

/// What the page's "the study" column says when the study gives nothing.
const NO_FIGURE: Text = Text::new("no figure", "无数据");

/// The jobs' results of one run.
fn job_results(m: &Machine, case: &'static str, jobs: &[Qos], r: &RunResult) -> Vec<JobResult> {
    let per_job = m.cores.len();
    jobs.iter()
        .enumerate()
        .map(|(j, &qos)| {
            let workers = &r.threads[j * per_job..(j + 1) * per_job];
            let mask = workers.iter().fold(0u64, |m, th| m | th.cores_used);
            let total: f64 = workers.iter().map(|th| th.running_ms).sum();
            let on_e: f64 = workers.iter().map(|th| th.efficiency_ms).sum();
            let (ms, text) = measured(&m.name, case, j, qos);
            JobResult {
                qos: qos.number(),
                seconds: r.pools_done[j].unwrap_or(r.end) / 1000.0,
                unfinished: r.pools_done[j].is_none(),
                measured_seconds: ms,
                measured: text,
                efficiency_core_share: if total > 0.0 { on_e / total } else { 0.0 },
                cores_used: mask.count_ones(),
            }
        })
        .collect()
}

pub(crate) fn run(knobs: &Knobs) -> M1CompressResult {
    let machines = machines(knobs);
    let mut cases = Vec::new();
    let mut runs = Vec::new();
    for m in &machines {
        let setup = setup(knobs, m);
        let mut alone = CaseResult {
            machine: m.name.clone(),
            case: "alone",
            jobs: Vec::new(),
        };
        for (case, jobs) in plan() {
            let r = run_jobs(m, &jobs, &setup, knobs);
            let results = job_results(m, case, &jobs, &r);
            if knobs.timeline {
                let numbers = jobs
                    .iter()
                    .map(|q| q.number().to_string())
                    .collect::<Vec<_>>()
                    .join("+");
                runs.push(RunView {
                    label: run_label(m, case, &numbers),
                    machine: m.clone(),
                    run: r,
                });
            }
            if case == "alone" {
                alone.jobs.extend(results);
            } else {
                cases.push(CaseResult {
                    machine: m.name.clone(),
                    case,
                    jobs: results,
                });
            }
        }
        let at = cases.len() - 2;
        cases.insert(at, alone);
    }
    let mechanisms = machines
        .iter()
        .find(|m| m.name == "m1")
        .map(|m| mechanism_table(m, knobs, &cases));
    let mut result = M1CompressResult {
        scenario: ScenarioKind::M1Compress.name(),
        cases,
        calibration: Filled {
            en: CALIBRATION,
            zh: CALIBRATION_ZH,
        },
        notes: Filled::default(),
        runs,
        policy: knobs.policy,
        clutch_rules: knobs.clutch_rules.name(),
        gcd_cap: knobs.gcd_cap.unwrap_or(DEFAULT_GCD_CAP).name(),
        mechanisms,
    };
    result.notes = Filled::each(|lang| notes(&result, &machines, lang));
    result
}

/// How long each case is simulated: a job not done by then is reported as
/// unfinished.
pub(crate) const SIMULATED_MS: f64 = 1_000_000.0;

/// The candidates for the two background jobs' split.
pub(crate) fn mechanisms(rules: ClutchRules) -> [Mechanism; 5] {
    let one = Apps::One(GroupKind::Normal);
    [
        Mechanism {
            id: "timeshare",
            label: Text::new(
                "timeshare (xnu, the kernels before Clutch)",
                "分时（xnu，Clutch 之前的内核）",
            ),
            policy: PolicyKind::Xnu,
            rules,
            apps: one,
            cap: WorkerCap::Off,
        },
        Mechanism {
            id: "clutch-one-app",
            label: Text::new(
                "Clutch, both jobs in one app",
                "Clutch，两个任务在同一个应用中",
            ),
            policy: PolicyKind::Clutch,
            rules,
            apps: one,
            cap: WorkerCap::Off,
        },
        Mechanism {
            id: "clutch-boost-gap",
            label: Text::new(
                "Clutch (xnu-7195), two apps, group boost 2 vs 0",
                "Clutch（xnu-7195），两个应用，线程组提升 2 对 0",
            ),
            policy: PolicyKind::Clutch,
            rules: ClutchRules::V7195,
            apps: Apps::Two(GroupKind::Normal, GroupKind::Efficient),
            cap: WorkerCap::Off,
        },
        Mechanism {
            id: "gcd-cap-held",
            label: Text::new(
                "Clutch + GCD cap, workers keep their slot for the whole job",
                "Clutch + GCD 上限，工作线程整个任务期间占着名额",
            ),
            policy: PolicyKind::Clutch,
            rules,
            apps: one,
            cap: WorkerCap::Held,
        },
        Mechanism {
            id: "gcd-cap-per-item",
            label: Text::new(
                "Clutch + GCD cap, admission per chunk",
                "Clutch + GCD 上限，每块重新准入",
            ),
            policy: PolicyKind::Clutch,
            rules,
            apps: one,
            cap: WorkerCap::PerItem,
        },
    ]
}

/// The two background jobs on `m` under each mechanism, against the
/// study's 40 s / 77 s.
fn mechanism_table(m: &Machine, knobs: &Knobs, cases: &[CaseResult]) -> MechanismTable {
    let measured = MEASURED_TWO_BACKGROUND.map(Some);
    let jobs = [Qos::Background, Qos::Background];
    let main = setup(knobs, m);
    let rows: Vec<MechanismRow> = mechanisms(knobs.clutch_rules)
        .iter()
        .map(|mech| {
            let s = Setup {
                policy: mech.policy,
                rules: mech.rules,
                apps: mech.apps,
                cap: mech.cap,
                band_limit: main.band_limit,
            };
            // The table's own two-background run when it is the same.
            let same = cases
                .iter()
                .find(|c| c.machine == m.name && c.case == "two-background")
                .filter(|_| s == main);
            let figures = match same {
                Some(c) => c.jobs.iter().map(|j| j.seconds).collect(),
                None => {
                    let quiet = Knobs {
                        timeline: false,
                        ..knobs.clone()
                    };
                    let r = run_jobs(m, &jobs, &s, &quiet);
                    job_results(m, "two-background", &jobs, &r)
                        .iter()
                        .map(|j| j.seconds)
                        .collect()
                }
            };
            MechanismRow::new(mech, figures, &measured)
        })
        .collect();
    MechanismTable {
        what: Text::new(
            "Which mechanism explains the two background jobs on {} (s)",
            "哪种机制能解释 {} 上的两个后台任务（秒）",
        )
        .both(&[&m.name]),
        columns: Filled::each(|l| {
            let job = Text::new("job {}", "任务 {}");
            vec![job.fill(l, &["0"]), job.fill(l, &["1"])]
        }),
        measured: measured.to_vec(),
        tolerance_pct: super::mechanism::TOLERANCE_PCT,
        reading: Filled::each(|l| mechanism_reading(m, knobs, &rows, l)),
        rows,
    }
}

/// `40.7 s / 81.3 s`.
fn pair(figures: &[f64]) -> String {
    figures
        .iter()
        .map(|f| format!("{f:.1} s"))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// Which mechanisms reproduce the 40 s / 77 s, which do not, and what
/// each that does needs, from the rows' own figures.
fn mechanism_reading(m: &Machine, knobs: &Knobs, rows: &[MechanismRow], lang: Lang) -> String {
    let row = |id: &str| rows.iter().find(|r| r.mechanism == id);
    let named = |r: &MechanismRow| {
        Text::new("{} ({})", "{}（{}）").fill(lang, &[r.label(lang), &pair(&r.figures)])
    };
    let yes: Vec<String> = rows.iter().filter(|r| r.reproduces).map(named).collect();
    let no: Vec<String> = rows.iter().filter(|r| !r.reproduces).map(named).collect();
    let measured = pair(&MEASURED_TWO_BACKGROUND);
    let gap = Text::new(" ", "").get(lang);
    let mut s = if yes.is_empty() {
        Text::new(
            "Two background jobs on {}, measured {}: no mechanism reproduces it within 10 %: {}.",
            "{} 上的两个后台任务，实测 {}：没有一种机制能在 10 % 以内重现：{}。",
        )
        .fill(lang, &[&m.name, &measured, &join_list(&no, lang)])
    } else {
        Text::new(
            "Two background jobs on {}, measured {}: reproduced within 10 % by {}; not by {}.",
            "{} 上的两个后台任务，实测 {}：在 10 % 以内重现的有 {}；不能重现的有 {}。",
        )
        .fill(
            lang,
            &[
                &m.name,
                &measured,
                &join_list(&yes, lang),
                &join_list(&no, lang),
            ],
        )
    };
    // The second finish is the total work whatever the order.
    let second: Vec<f64> = rows
        .iter()
        .filter_map(|r| r.figures.get(1).copied())
        .collect();
    let (lo, hi) = second.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| {
        (lo.min(v), hi.max(v))
    });
    if hi > 0.0 && hi / lo < 1.03 {
        s.push_str(gap);
        s.push_str(Text::new(
            "Every mechanism ends the second job at about the same time (the two jobs' work on the cores they may use); only the first finish tells them apart.",
            "每种机制下第二个任务都在差不多同一时间结束（两个任务的总工作量除以它们能用的核心）；只有第一个任务的完成时间能区分它们。",
        ).get(lang));
    }
    let boost = row("clutch-boost-gap").is_some_and(|r| r.reproduces);
    let held = row("gcd-cap-held").is_some_and(|r| r.reproduces);
    let per_item = row("gcd-cap-per-item");
    if boost {
        s.push_str(gap);
        s.push_str(Text::new(
            "The boost gap needs the two jobs in two apps whose thread groups carry different flags (one marked efficient), and exists only in xnu-7195 to xnu-8792 (macOS 11–13.2).",
            "线程组提升之差要求两个任务分属两个应用，且它们的线程组标志不同（其一被标为 efficient），而且只存在于 xnu-7195 到 xnu-8792（macOS 11–13.2）。",
        ).get(lang));
    }
    if held {
        let item = per_item.map(|r| pair(&r.figures)).unwrap_or_default();
        s.push_str(gap);
        s.push_str(
            &Text::new(
                "GCD's cap of {} background workers per process splits them only if each job's workers keep their admission for the whole job (work items that loop over it); admitted per chunk, the jobs share the cores again ({}).",
                "GCD 对每个进程 {} 个后台工作线程的上限，只有当每个任务的工作线程在整个任务期间都保留准入（工作项本身循环处理整个任务）时才会把它们分开；若每块重新准入，两个任务又会分享核心（{}）。",
            )
            .fill(lang, &[&m.max_parallelism(Qos::Background).to_string(), &item]),
        );
    }
    if boost && held {
        s.push_str(gap);
        s.push_str(Text::new(
            "The study compressed both files in one app (Cormorant), one thread group, which leaves no boost gap between them: that points at the GCD cap with long-running work items; the default run here admits per chunk.",
            "研究是在同一个应用（Cormorant）里压缩两个文件的，只有一个线程组，两者之间没有提升之差：这指向带长时间工作项的 GCD 上限；这里的默认运行按块准入。",
        ).get(lang));
    }
    if knobs.clutch_rules != ClutchRules::V7195 {
        s.push_str(gap);
        s.push_str(
            &Text::new(
                "The other Clutch rows follow xnu-{} rules.",
                "其他 Clutch 行按 xnu-{} 的规则。",
            )
            .fill(lang, &[knobs.clutch_rules.name()]),
        );
    }
    s
}

/// The notes, from this run's machines, settings and figures.
fn notes(r: &M1CompressResult, machines: &[Machine], lang: Lang) -> Vec<String> {
    let mut notes = Vec::new();
    let job = |machine: &str, case: &str, qos: u8| {
        r.cases
            .iter()
            .filter(|c| c.machine == machine && c.case == case)
            .flat_map(|c| c.jobs.iter())
            .find(|j| j.qos == qos)
    };
    let unfinished = r
        .cases
        .iter()
        .flat_map(|c| &c.jobs)
        .filter(|j| j.unfinished)
        .count();
    if unfinished > 0 {
        let span = format!("{:.0}", SIMULATED_MS / 1000.0);
        notes.push(
            Text::new(
                "{} job(s) did not finish within the simulated {} s (shown as > {} s): the E cores are too slow at this ep ratio.",
                "有 {} 个任务在模拟的 {} 秒内没有完成（显示为 > {} s）：在这个 ep 速度比下能效核太慢。",
            )
            .fill(lang, &[&unfinished.to_string(), &span, &span]),
        );
    }
    let policy = r.policy;
    let by_qos = policy.reads_threads();
    for m in machines {
        let name = m.name.as_str();
        let e = m.count(CoreKind::Efficiency);
        let p = m.count(CoreKind::Performance);
        if name == "xeon-w" {
            if let (Some(bg), Some(ui)) = (job(name, "contention", 9), job(name, "contention", 33))
            {
                let why = if by_qos {
                    Text::new(
                        "The model gives background exactly the cores QoS 33 leaves",
                        "模型给 background 的恰好是 QoS 33 剩下的核心",
                    )
                } else {
                    Text::new(
                        "This policy ignores QoS, so the two jobs share the cores",
                        "这个策略不看 QoS，两个任务平分核心",
                    )
                };
                notes.push(
                    Text::new(
                        "xeon-w, QoS 9 under contention: {} s in the model (QoS 33: {} s), the study measured 24 s. {}; macOS also throttles background I/O (this job reads and writes 10 GB) and the Xeon's hyper-threads share cores, neither of which is modelled.",
                        "xeon-w，争用下的 QoS 9：模型中为 {} s（QoS 33：{} s），研究实测为 24 s。{}；而 macOS 还会限制 background 的 I/O（这个任务要读写 10 GB），Xeon 的超线程也共享物理核心，这两点都没有建模。",
                    )
                    .fill(lang, &[&format!("{:.1}", bg.seconds), &format!("{:.1}", ui.seconds), why.get(lang)]),
                );
            }
        }
        if e > 0 && p > 0 {
            if let (Some(bg), Some(ui)) = (job(name, "alone", 9), job(name, "alone", 33)) {
                notes.push(
                    Text::new(
                        "{}, QoS ≥ 17 alone: {} s on up to {} cores ({} P first, spilling to {} E) against {} s for QoS 9 on the {} E cores; the study gives no number for QoS ≥ 17, only that it is several times faster than QoS 9.",
                        "{0}，QoS ≥ 17 单独运行：最多用 {2} 个核心（先用 {3} 个性能核，再溢出到 {4} 个能效核）需 {1} s，而 QoS 9 在 {6} 个能效核上需 {5} s；研究没有给出 QoS ≥ 17 的数字，只说比 QoS 9 快好几倍。",
                    )
                    .fill(
                        lang,
                        &[
                            name,
                            &format!("{:.1}", ui.seconds),
                            &(p + e).to_string(),
                            &p.to_string(),
                            &e.to_string(),
                            &format!("{:.1}", bg.seconds),
                            &e.to_string(),
                        ],
                    ),
                );
            }
        }
        if let Some(c) = r
            .cases
            .iter()
            .find(|c| c.machine == name && c.case == "two-background")
        {
            let figures: Vec<f64> = c.jobs.iter().map(|j| j.seconds).collect();
            let measured = c.jobs.iter().filter_map(|j| j.measured_seconds).count() == 2;
            if measured {
                notes.push(
                    Text::new(
                        "{}, two background jobs: {} under this run's settings ({}, GCD cap {}); the study measured {}. The table of mechanisms runs the same two jobs under each candidate.",
                        "{0}，两个 background 任务：在本次运行的设置下（{2}，GCD 上限 {3}）为 {1}；研究实测为 {4}。机制表在每种候选机制下运行同样的两个任务。",
                    )
                    .fill(
                        lang,
                        &[
                            name,
                            &pair(&figures),
                            r.policy.name(),
                            r.gcd_cap,
                            &pair(&MEASURED_TWO_BACKGROUND),
                        ],
                    ),
                );
            }
        }
    }
    if r.mechanisms.is_none() {
        let names: Vec<String> = machines.iter().map(|m| m.name.clone()).collect();
        notes.push(
            Text::new(
                "The table of mechanisms for the two background jobs is made on the study's own machine only; this run is on {}.",
                "两个后台任务的机制表只在研究所用的机器上运行；本次运行的机器是 {}。",
            )
            .fill(lang, &[&join_list(&names, lang)]),
        );
    }
    notes
}

impl ScenarioOutcome for M1CompressResult {
    fn to_text(&self, lang: Lang) -> String {
        // The measured column is as wide as its longest cell (20 at least).
        let measured = self
            .cases
            .iter()
            .flat_map(|c| &c.jobs)
            .map(|j| j.measured.map_or("-", |t| t.en).chars().count())
            .fold(20, usize::max);
        let mut s = format!(
            "m1-compress: chunks on an operation queue, concurrency = core count\n\n\
             {:<8} {:<15} {:>3}  {:>10}  {:<measured$}  E-core share  cores\n",
            "machine", "case", "QoS", "simulated", "measured"
        );
        for c in &self.cases {
            for j in &c.jobs {
                let secs = if j.unfinished {
                    format!(">{:.1}", j.seconds)
                } else {
                    format!("{:.1}", j.seconds)
                };
                s.push_str(&format!(
                    "{:<8} {:<15} {:>3}  {:>8} s  {:<measured$}  {:>11.0}%  {:>5}\n",
                    c.machine,
                    c.case,
                    j.qos,
                    secs,
                    j.measured.map_or("-", |t| t.en),
                    100.0 * j.efficiency_core_share,
                    j.cores_used,
                ));
            }
        }
        s.push_str(&format!("\n{}\n", self.page_text().reading.get(lang)));
        if let Some(m) = &self.mechanisms {
            s.push('\n');
            s.push_str(&m.to_text(lang, 1));
        }
        let label = Text::new("calibration: ", "校准：").get(lang);
        s.push_str(&format!("\n{label}{}\n", self.calibration.get(lang)));
        super::push_notes(&mut s, self.notes.get(lang));
        s
    }

    fn runs_mut(&mut self) -> &mut Vec<RunView> {
        &mut self.runs
    }

    fn page_text(&self) -> PageText {
        PageText {
            reading: Text::new(
                "Every run: policy {}, GCD's worker cap {}.",
                "每次运行：调度策略 {}，GCD 工作线程上限 {}。",
            )
            .both(&[self.policy.name(), self.gcd_cap]),
            pri_caption: Filled::default(),
            gantt_caption: Text::new(
                "Each lane is a core, P cores first; a slice is coloured by its thread's QoS (the jobs' workers; other system work grey). This scenario has no main thread.",
                "每条泳道是一个核心，性能核在前；每段按其线程的 QoS 着色（各任务的工作线程；其他系统负载为灰色）。这个场景没有主线程。",
            )
            .into(),
            states_caption: Text::new(
                "Key threads of this run: the first workers of each job, with their QoS.",
                "本次运行的关键线程：每个任务的前几个工作线程，附其 QoS。",
            )
            .into(),
        }
    }

    fn tables(&self) -> Vec<PageTable> {
        let columns = vec![
            PageColumn::new("machine", Text::new("machine", "机器"), None),
            PageColumn::new("case", Text::new("case", "情形"), None),
            PageColumn::new("qos", Text::new("QoS", "QoS"), None),
            PageColumn::new("seconds", Text::new("simulated", "模拟"), None),
            PageColumn::new(
                "measured_seconds",
                Text::new("measured", "实测"),
                Some("measured"),
            ),
            PageColumn::new("measured", Text::new("the study", "研究结果"), Some("wl")),
            PageColumn::new(
                "efficiency_core_share",
                Text::new("on E cores", "能效核占比"),
                None,
            ),
            PageColumn::new("cores_used", Text::new("cores", "核心数"), None),
        ];
        let mut seen: Vec<(String, usize)> = Vec::new();
        let mut rows = Vec::new();
        for c in &self.cases {
            for j in &c.jobs {
                let mut key = format!("{}:{}:{}", c.machine, c.case, j.qos);
                let n = match seen.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, n)) => {
                        *n += 1;
                        *n
                    }
                    None => {
                        seen.push((key.clone(), 1));
                        1
                    }
                };
                if n > 1 {
                    key = format!("{key}#{n}");
                }
                let measured = Filled::from(j.measured.unwrap_or(NO_FIGURE));
                rows.push(PageRow {
                    key,
                    cells: vec![
                        PageCell::new(Filled::same(c.machine.clone())),
                        PageCell::new(Filled::from(case_title(c.case))),
                        PageCell::new(Filled::same(j.qos.to_string())).with_qos(j.qos),
                        PageCell::number(Some(j.seconds), 1),
                        PageCell::number(j.measured_seconds, 1),
                        PageCell::new(measured),
                        PageCell::new(Filled::same(format!(
                            "{:.0} %",
                            100.0 * j.efficiency_core_share
                        ))),
                        PageCell::new(Filled::same(j.cores_used.to_string())),
                    ],
                });
            }
        }
        let mut tables = vec![PageTable {
            id: "main",
            title: Filled::from(ScenarioKind::M1Compress.table_title()),
            columns,
            rows,
            reading: self.page_text().reading,
        }];
        if let Some(m) = &self.mechanisms {
            tables.push(PageTable::of_mechanisms(m, 1));
        }
        tables
    }
}
