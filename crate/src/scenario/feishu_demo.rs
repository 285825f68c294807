//! `feishu-demo`: the Feishu study's demo (seed 000). 100 serial queues,
//! each spinning `while true {}` at one QoS, and the main thread spinning
//! too, on an iPhone 7 Plus (A10: two cores run at a time). Instruments
//! showed the main thread Preempted + Runnable 74 % / 73 % of the time with
//! userInteractive / userInitiated queues and 1.3 % with utility /
//! background ones.
//!
//! Why, in the model: every thread at base 37 or 46 shares the foreground
//! bucket with the main thread (47), whose priority decays with the CPU it
//! uses down to the band-limit floor 47 − 18 = 29. A queue that has just
//! waited has decayed back to its base (37 or 46), above 29, and takes the
//! core; with 100 of them there is always a fresh one. Utility (20) and
//! background (4) are below 29 whatever happens, so they only get the core
//! the main thread does not use. Without the band limit (macOS) the main
//! thread decays further and even utility queues overtake it.
//!
//! Which kernel explains it: a table runs the demo under XNU's timeshare
//! class (the kernels before Clutch), Clutch with the app in one thread
//! group, Clutch with the main thread's app marked as the UI app and the
//! queues in a second app (xnu-7195's boost gap), and GCD's worker cap
//! (which never caps serial queues). Under Clutch the userInitiated queues
//! sit in a lower root bucket than the main thread, which keeps its core:
//! the measured 73 % points at a kernel before Clutch (see `super::mechanism`
//! and `docs/clutch.md`).

use serde::Serialize;

use super::knob::Text;
use super::mechanism::{join_list, Apps, Mechanism, MechanismRow, MechanismTable};
use super::registry::{pri_caption, PageCell, PageColumn, PageRow, PageTable, RunLabel};
use super::{Knobs, PageText, RunView, ScenarioKind, ScenarioOutcome};
use crate::policy::{ClutchParams, ClutchRules, KernelFlavour, PolicyKind};
use crate::scenario::simulation::{simulate, PriSeries, RunConfig, RunResult};
use crate::sim::machine::Machine;
use crate::sim::{GroupKind, Qos, ThreadGroup};
use crate::text::Filled;
use crate::text::Lang;
use crate::workload::programs::{Process, Program, Programs, ThreadSpec, WorkerCap};

/// The runs the page can pick from: one per group (their priorities are
/// traced even without timelines).
pub(crate) fn run_labels(knobs: &Knobs) -> Vec<RunLabel> {
    knobs
        .groups
        .iter()
        .map(|q| QUEUES.both(&[q.name()]))
        .collect()
}

/// The study's four groups, in its order.
pub(crate) const STUDY_GROUPS: [Qos; 4] = [
    Qos::UserInteractive,
    Qos::UserInitiated,
    Qos::Utility,
    Qos::Background,
];

/// Other system work, when on: this much CPU (ms) every period on every
/// core at once. 1.3 % is set to read like the measured low groups; it is
/// an input, not a prediction (see `Programs::add_system_work`).
pub(crate) const SYSTEM_BURST_MS: f64 = 1.3;
pub(crate) const SYSTEM_PERIOD_MS: f64 = 100.0;

/// Measured main thread Preempted + Runnable, %, by group QoS.
pub(crate) fn measured_pct(qos: Qos) -> Option<f64> {
    match qos {
        Qos::UserInteractive => Some(74.0),
        Qos::UserInitiated => Some(73.0),
        Qos::Utility | Qos::Background => Some(1.3),
        _ => None,
    }
}

/// How one run of the demo is set up besides the queues' QoS.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Setup {
    pub policy: PolicyKind,
    pub rules: ClutchRules,
    /// One app, or the main thread's app and the queues' app.
    pub apps: Apps,
    pub cap: WorkerCap,
    pub band_limit: bool,
}

/// The table's setup from the knobs, on `machine`.
pub(crate) fn setup(knobs: &Knobs, machine: &Machine) -> Setup {
    Setup {
        policy: knobs.policy,
        rules: knobs.clutch_rules,
        apps: Apps::One(GroupKind::Normal),
        cap: WorkerCap::Off,
        band_limit: knobs
            .band_limit
            .unwrap_or(KernelFlavour::of(machine).band_limit),
    }
}

/// Builds one group's workload: main thread 0, queues 1..=n, then system
/// work, in the apps `apps` names.
pub(crate) fn workload(
    qos: Qos,
    queues: u32,
    cores: usize,
    system_work: bool,
    apps: Apps,
    cap: WorkerCap,
) -> Programs {
    let mut w = Programs::default();
    let (main_kind, queue_kind) = match apps {
        Apps::One(k) => (k, None),
        Apps::Two(a, b) => (a, Some(b)),
    };
    let app = w.add_process(Process {
        name: "Feishu demo".into(),
        group: ThreadGroup {
            id: 1,
            kind: main_kind,
        },
        worker_cap: cap,
    });
    let queue_app = queue_kind.map_or(app, |kind| {
        w.add_process(Process {
            name: "a second app".into(),
            group: ThreadGroup { id: 2, kind },
            worker_cap: cap,
        })
    });
    w.add_thread(ThreadSpec::main_thread(Program::Spin).in_process(app));
    for i in 0..queues {
        w.add_thread(
            ThreadSpec::new(format!("serialQueue {i}"), qos, Program::Spin)
                .in_group("serialQueue")
                .in_process(queue_app),
        );
    }
    if system_work {
        w.add_system_work(cores, SYSTEM_BURST_MS, SYSTEM_PERIOD_MS);
    }
    w
}

/// Runs one group; thread 0 is the main thread, thread 1 the traced queue.
pub(crate) fn run_group(qos: Qos, knobs: &Knobs, machine: &Machine, setup: &Setup) -> RunResult {
    let w = workload(
        qos,
        knobs.queues,
        machine.cores.len(),
        knobs.system_work.unwrap_or(true),
        setup.apps,
        setup.cap,
    );
    let cfg = RunConfig {
        until: knobs.seconds * 1000.0,
        timeline: knobs.timeline,
        max_records: knobs.max_records,
        trace_pri: vec![0, 1],
        class: setup.policy,
        clutch: ClutchParams { rules: setup.rules },
        band_limit: Some(setup.band_limit),
        ..RunConfig::default()
    };
    simulate(&w, machine, &cfg)
}

/// One group's row of the table from its run.
fn group_result(qos: Qos, r: &RunResult) -> GroupResult {
    let main = &r.threads[0];
    let pct = |ms: f64| 100.0 * ms / r.end;
    GroupResult {
        qos: qos.name(),
        qos_number: qos.number(),
        queue_base_pri: qos.base_pri(),
        main_running_pct: pct(main.running_ms),
        main_runnable_pct: pct(main.runnable_ms),
        main_preempted_pct: pct(main.preempted_ms),
        main_waiting_pct: pct(main.runnable_ms + main.preempted_ms),
        measured_pct: measured_pct(qos),
        main_min_pri: main.min_pri,
        worker_min_pri: r.threads[1].min_pri,
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupResult {
    /// The queues' QoS, Swift name.
    pub qos: &'static str,
    pub qos_number: u8,
    pub queue_base_pri: u8,
    pub main_running_pct: f64,
    pub main_runnable_pct: f64,
    pub main_preempted_pct: f64,
    /// Runnable + preempted: the study's figure.
    pub main_waiting_pct: f64,
    /// The study's Preempted + Runnable, %.
    pub measured_pct: Option<f64>,
    /// Lowest `sched_pri` the main thread reached.
    pub main_min_pri: u8,
    /// Lowest `sched_pri` of the traced queue thread.
    pub worker_min_pri: u8,
}

/// `sched_pri` over time of the main thread and one queue, for one group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupPri {
    pub qos: &'static str,
    pub main: PriSeries,
    pub worker: PriSeries,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FeishuDemoResult {
    pub scenario: &'static str,
    pub machine: String,
    pub band_limit: bool,
    pub queues: u32,
    pub seconds: f64,
    pub system_work: bool,
    pub groups: Vec<GroupResult>,
    pub pri_series: Vec<GroupPri>,
    #[serde(flatten, serialize_with = "crate::text::pair::notes")]
    pub notes: Filled<Vec<String>>,
    /// Per-core segments and thread states, one run per group (only with
    /// the timeline knob on).
    pub runs: Vec<RunView>,
    /// The class every run of the table used.
    pub policy: PolicyKind,
    /// The xnu release whose Clutch rules `clutch` followed.
    pub clutch_rules: &'static str,
    /// Cores of the machine.
    pub cores: usize,
    /// Which kernel explains the measured waiting (present when a group
    /// the study measured was run).
    pub mechanisms: Option<MechanismTable>,
}

pub(crate) fn run(knobs: &Knobs) -> FeishuDemoResult {
    let machine = knobs.machine_or(|_| Machine::a10());
    let main_setup = setup(knobs, &machine);
    let mut groups = Vec::new();
    let mut pri_series = Vec::new();
    let mut runs = Vec::new();
    for &qos in &knobs.groups {
        let mut r = run_group(qos, knobs, &machine, &main_setup);
        groups.push(group_result(qos, &r));
        let mut series = std::mem::take(&mut r.pri).into_iter();
        if let (Some(main), Some(worker)) = (series.next(), series.next()) {
            pri_series.push(GroupPri {
                qos: qos.name(),
                main,
                worker,
            });
        }
        if knobs.timeline {
            runs.push(RunView {
                label: QUEUES.both(&[qos.name()]),
                machine: machine.clone(),
                run: r,
            });
        }
    }
    let mechanisms = groups
        .iter()
        .any(|g| g.measured_pct.is_some())
        .then(|| mechanism_table(knobs, &machine, &main_setup, &groups));
    let mut r = FeishuDemoResult {
        scenario: ScenarioKind::FeishuDemo.name(),
        machine: machine.name.clone(),
        band_limit: main_setup.band_limit,
        queues: knobs.queues,
        seconds: knobs.seconds,
        system_work: knobs.system_work.unwrap_or(true),
        pri_series,
        notes: Filled::default(),
        groups,
        runs,
        policy: knobs.policy,
        clutch_rules: knobs.clutch_rules.name(),
        cores: machine.cores.len(),
        mechanisms,
    };
    r.notes = Filled::each(|lang| notes(&r, lang));
    r
}

/// The candidates for the measured waiting.
pub(crate) fn mechanisms(rules: ClutchRules) -> [Mechanism; 4] {
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
                "Clutch, main thread and queues in one app",
                "Clutch，主线程与队列在同一个应用中",
            ),
            policy: PolicyKind::Clutch,
            rules,
            apps: one,
            cap: WorkerCap::Off,
        },
        Mechanism {
            id: "clutch-boost-gap",
            label: Text::new(
                "Clutch (xnu-7195), main thread's app UI (boost 4), queues in a second app (boost 2)",
                "Clutch（xnu-7195），主线程所在应用为 UI 应用（提升 4），队列在另一个应用（提升 2）",
            ),
            policy: PolicyKind::Clutch,
            rules: ClutchRules::V7195,
            apps: Apps::Two(GroupKind::Ui, GroupKind::Normal),
            cap: WorkerCap::Off,
        },
        Mechanism {
            id: "gcd-cap-per-item",
            label: Text::new(
                "Clutch + GCD worker cap",
                "Clutch + GCD 工作线程上限",
            ),
            policy: PolicyKind::Clutch,
            rules,
            apps: one,
            cap: WorkerCap::PerItem,
        },
    ]
}

/// The main thread's waiting under each mechanism, against the study's.
fn mechanism_table(
    knobs: &Knobs,
    machine: &Machine,
    main: &Setup,
    groups: &[GroupResult],
) -> MechanismTable {
    let measured: Vec<Option<f64>> = groups.iter().map(|g| g.measured_pct).collect();
    let quiet = Knobs {
        timeline: false,
        ..knobs.clone()
    };
    // Rows already run (the table's own, and a cap the demo's serial
    // queues never meet: GCD caps no serial queue) are not run again.
    let mut done: Vec<(Setup, Vec<f64>)> = vec![(
        Setup {
            cap: WorkerCap::Off,
            ..*main
        },
        groups.iter().map(|g| g.main_waiting_pct).collect(),
    )];
    let rows: Vec<MechanismRow> = mechanisms(knobs.clutch_rules)
        .iter()
        .map(|mech| {
            let s = Setup {
                policy: mech.policy,
                rules: mech.rules,
                apps: mech.apps,
                // No capped workers in this workload: the cap changes
                // nothing.
                cap: WorkerCap::Off,
                band_limit: main.band_limit,
            };
            let figures = match done.iter().find(|(d, _)| *d == s) {
                Some((_, f)) => f.clone(),
                None => {
                    let f: Vec<f64> = knobs
                        .groups
                        .iter()
                        .map(|&q| {
                            group_result(q, &run_group(q, &quiet, machine, &s)).main_waiting_pct
                        })
                        .collect();
                    done.push((s, f.clone()));
                    f
                }
            };
            MechanismRow::new(mech, figures, &measured)
        })
        .collect();
    let names: Vec<&str> = groups.iter().map(|g| g.qos).collect();
    MechanismTable {
        what: Text::new(
            "Which kernel explains the main thread's waiting on {} (% of the time)",
            "哪种内核能解释 {} 上主线程的等待（占时间的 %）",
        )
        .both(&[&machine.name]),
        columns: Filled::each(|_| names.iter().map(|n| n.to_string()).collect()),
        measured,
        tolerance_pct: super::mechanism::TOLERANCE_PCT,
        reading: Filled::each(|l| mechanism_reading(main.band_limit, groups, &rows, l)),
        rows,
    }
}

/// Waiting more than this share of the time counts as "kept waiting".
pub(crate) const KEPT_WAITING_PCT: f64 = 50.0;

/// The groups (of those the study measured) whose queues keep the main
/// thread waiting more than half the time, by `figure`.
fn kept_waiting(groups: &[GroupResult], figure: impl Fn(usize) -> Option<f64>) -> Vec<String> {
    groups
        .iter()
        .enumerate()
        .filter(|(i, g)| {
            g.measured_pct.is_some() && figure(*i).is_some_and(|v| v > KEPT_WAITING_PCT)
        })
        .map(|(_, g)| g.qos.to_string())
        .collect()
}

fn set_text(set: &[String], lang: Lang) -> String {
    if set.is_empty() {
        Text::new("none", "没有").get(lang).to_string()
    } else {
        join_list(set, lang)
    }
}

/// Which mechanisms reproduce the measured waiting, which match its split
/// between groups, and what that says about the kernel.
fn mechanism_reading(
    band_limit: bool,
    groups: &[GroupResult],
    rows: &[MechanismRow],
    lang: Lang,
) -> String {
    let measured_set = kept_waiting(groups, |i| groups[i].measured_pct);
    let levels: Vec<String> = groups
        .iter()
        .filter_map(|g| g.measured_pct.map(|m| format!("{} {m} %", g.qos)))
        .collect();
    let yes: Vec<String> = rows
        .iter()
        .filter(|r| r.reproduces)
        .map(|r| r.label(lang).to_string())
        .collect();
    let gap = Text::new(" ", "").get(lang);
    let mut s = Text::new(
        "Measured on the phone: main thread waiting {}; within 10 % of every figure: {}.",
        "手机上实测：主线程等待 {}；每个数字都在 10 % 以内的：{}。",
    )
    .fill(lang, &[&join_list(&levels, lang), &set_text(&yes, lang)]);
    s.push_str(gap);
    s.push_str(
        &Text::new(
            "Groups whose queues keep the main thread waiting more than half the time: {} in the study;",
            "让主线程一半以上时间处于等待的队列组：研究中为{}；",
        )
        .fill(lang, &[&set_text(&measured_set, lang)]),
    );
    let mut matching = Vec::new();
    let parts: Vec<String> = rows
        .iter()
        .map(|r| {
            let set = kept_waiting(groups, |i| r.figures.get(i).copied());
            if set == measured_set {
                matching.push(r);
            }
            Text::new("{} under {}", "{}（{}）").fill(lang, &[&set_text(&set, lang), r.label(lang)])
        })
        .collect();
    s.push_str(gap);
    s.push_str(&join_list(&parts, lang));
    s.push_str(Text::new(".", "。").get(lang));
    let timeshare = matching.iter().any(|r| r.mechanism == "timeshare");
    let clutch = matching.iter().any(|r| r.policy == PolicyKind::Clutch);
    let in_run = groups.iter().any(|g| g.qos == Qos::UserInitiated.name());
    if timeshare && !clutch {
        s.push_str(gap);
        s.push_str(
            &Text::new(
                "Only the kernel before Clutch ({}) splits the groups as the study did.",
                "只有 Clutch 之前的内核（{}）能像研究那样区分各组。",
            )
            .fill(lang, &[band_text(band_limit).get(lang)]),
        );
        if band_limit {
            s.push_str(gap);
            s.push_str(Text::new(
                "That points at a phone running it (iOS 12 or earlier, where the band limit exists) rather than Clutch (iOS 13 and later).",
                "这说明测量所用的手机运行的是它（iOS 12 或更早，那里才有优先级衰减下限），而不是 Clutch（iOS 13 及以后）。",
            ).get(lang));
        }
        if in_run {
            s.push_str(gap);
            s.push_str(Text::new(
                "Under Clutch the userInitiated queues sit in a lower root bucket (IN) than the main thread (FG).",
                "在 Clutch 下 userInitiated 队列处于比主线程（FG）更低的根桶（IN）。",
            ).get(lang));
        }
    } else if matching.is_empty() {
        s.push_str(gap);
        s.push_str(
            Text::new(
                "No mechanism splits the groups as the study did.",
                "没有一种机制能像研究那样区分各组。",
            )
            .get(lang),
        );
    }
    {
        s.push_str(gap);
        s.push_str(Text::new(
            "GCD's worker cap changes nothing here: the demo's queues are serial, and GCD never caps serial (overcommit) queues.",
            "GCD 的工作线程上限在这里不起作用：演示中的队列是串行队列，而 GCD 从不限制串行（overcommit）队列。",
        ).get(lang));
    }
    s
}

/// `, band limit on` for the class that has one (`xnu`), nothing for
/// the others.
fn band_clause(policy: PolicyKind, on: bool, lang: Lang) -> String {
    if policy == PolicyKind::Xnu {
        format!(
            "{}{}",
            Text::new(", ", "，").get(lang),
            band_text(on).get(lang)
        )
    } else {
        String::new()
    }
}

/// "band limit on" as the text says it.
fn band_text(on: bool) -> Text {
    if on {
        Text::new("band limit on", "优先级衰减下限开")
    } else {
        Text::new("band limit off", "优先级衰减下限关")
    }
}

/// The notes, from this run's machine, settings, groups and figures.
/// A run's name: the QoS its queues run at.
const QUEUES: Text = Text::new("{} queues", "{} 队列");

fn notes(r: &FeishuDemoResult, lang: Lang) -> Vec<String> {
    let mut notes = Vec::new();
    let policy = r.policy;
    let levels: Vec<String> = r
        .groups
        .iter()
        .map(|g| {
            let m = g.measured_pct.map_or("-".into(), |m| format!("{m} %"));
            Text::new("{} {} % (measured {})", "{} {} %（实测 {}）")
                .fill(lang, &[g.qos, &format!("{:.1}", g.main_waiting_pct), &m])
        })
        .collect();
    let setting = Text::new(
        "{} on {} ({} cores{}, other system work {})",
        "{}，{}（{} 个核心{}，其他系统负载{}）",
    )
    .fill(
        lang,
        &[
            r.policy.name(),
            &r.machine,
            &r.cores.to_string(),
            &band_clause(policy, r.band_limit, lang),
            Text::new(
                if r.system_work { "on" } else { "off" },
                if r.system_work { "开" } else { "关" },
            )
            .get(lang),
        ],
    );
    let sep = Text::new("; ", "；").get(lang);
    notes.push(
        Text::new(
            "{}: main thread Preempted + Runnable: {}.",
            "{}：主线程被抢占 + 可运行的时间：{}。",
        )
        .fill(lang, &[&setting, &levels.join(sep)]),
    );
    // The split against the study's, and where the low figures come from.
    let measured_set = kept_waiting(&r.groups, |i| r.groups[i].measured_pct);
    let model_set = kept_waiting(&r.groups, |i| Some(r.groups[i].main_waiting_pct));
    if r.groups.iter().any(|g| g.measured_pct.is_some()) {
        let same = measured_set == model_set;
        let close = r.groups.iter().all(|g| {
            g.measured_pct
                .is_none_or(|m| super::mechanism::within(g.main_waiting_pct, m))
        });
        let t = match (same, close) {
            (true, true) => Text::new(
                "Same split as the study and within 10 % of each measured figure.",
                "与研究的高低之分相同，且每个实测数字都在 10 % 以内。",
            ),
            (true, false) => Text::new(
                "Same split as the study (more than half the time waiting: {}), not the same levels.",
                "与研究的高低之分相同（一半以上时间在等待：{}），水平却不同。",
            ),
            (false, _) => Text::new(
                "Not the study's split: waiting more than half the time with {} queues here, with {} in the study.",
                "与研究的高低之分不同：这里一半以上时间在等待的是 {} 队列，研究中是 {}。",
            ),
        };
        notes.push(t.fill(
            lang,
            &[&set_text(&model_set, lang), &set_text(&measured_set, lang)],
        ));
    }
    let low: Vec<&GroupResult> = r
        .groups
        .iter()
        .filter(|g| g.main_waiting_pct <= KEPT_WAITING_PCT)
        .collect();
    if r.system_work && !low.is_empty() {
        let figures: Vec<String> = low
            .iter()
            .map(|g| format!("{} {:.1} %", g.qos, g.main_waiting_pct))
            .collect();
        notes.push(
            Text::new(
                "The low groups' waiting ({}) comes from the 'other system work' switch: {} ms of fixed-priority work every {} ms on each of the {} cores at once, an input rather than a prediction; it reads as the measured 1.3 % only where the main thread cannot move to a free core.",
                "低 QoS 组的等待（{0}）来自“其他系统负载”开关：在全部 {3} 个核心上同时、每 {2} ms 运行 {1} ms 的固定优先级工作，这是输入而不是预测；只有在主线程无法换到空闲核心时，它才读作实测的 1.3 %。",
            )
            .fill(
                lang,
                &[
                    &join_list(&figures, lang),
                    &SYSTEM_BURST_MS.to_string(),
                    &SYSTEM_PERIOD_MS.to_string(),
                    &r.cores.to_string(),
                ],
            ),
        );
    }
    // Why the levels differ, when they do.
    let off = r.groups.iter().any(|g| {
        g.measured_pct
            .is_some_and(|m| !super::mechanism::within(g.main_waiting_pct, m))
    });
    if off {
        let a10 = if r.machine == "a10" {
            Text::new(
                "; the A10's switching between its core pairs and its thermal limits are not modelled either",
                "；A10 在两对核心之间的切换和温控限制也没有建模",
            )
            .get(lang)
        } else {
            ""
        };
        notes.push(
            Text::new(
                "Why the levels differ: the model has exactly {} always-runnable spinners and nothing else, while on the phone GCD's thread pool, the app's own run loop and rendering, other processes, interrupts and Instruments itself change who is runnable{}.",
                "水平为何不同：模型里只有恰好 {} 个始终可运行的自旋线程，别无其他；而在手机上，GCD 线程池、应用自己的 RunLoop 和渲染、其他进程、中断以及 Instruments 本身，都会改变哪些线程可运行{}。",
            )
            .fill(lang, &[&r.queues.to_string(), a10]),
        );
    }
    notes.push(priority_note(r, policy, lang));
    notes
}

/// What the class does with the main thread's priority in this run.
fn priority_note(r: &FeishuDemoResult, policy: PolicyKind, lang: Lang) -> String {
    let find = |q: Qos| r.groups.iter().find(|g| g.qos == q.name());
    let lowest = r.groups.iter().map(|g| g.main_min_pri).min().unwrap_or(47);
    let gap = Text::new(" ", "").get(lang);
    match policy {
        PolicyKind::Xnu => {
            let mut s = if r.band_limit {
                Text::new(
                    "sched_pri floor: with the band limit on (iOS 12 and earlier), the main thread (47) never goes below 29 (its lowest here: {}).",
                    "sched_pri 下限：开启优先级衰减下限时（iOS 12 及更早），主线程（47）从不低于 29（这里最低为 {}）。",
                )
            } else {
                Text::new(
                    "No sched_pri floor: with the band limit off (macOS), the main thread (47) decays as far as its load takes it (its lowest here: {}).",
                    "没有 sched_pri 下限：关闭优先级衰减下限时（macOS），主线程（47）随负载一路衰减（这里最低为 {}）。",
                )
            }
            .fill(lang, &[&lowest.to_string()]);
            if let Some(u) = find(Qos::Utility) {
                let t = if u.main_min_pri < Qos::Utility.base_pri() {
                    Text::new(
                        "{}With utility queues it falls to {}, below their 20, so they preempt it too.",
                        "{}有 utility 队列时它降到 {}，低于它们的 20，所以它们也会抢占它。",
                    )
                } else {
                    Text::new(
                        "{}With utility queues it stays at {} or above, above their 20.",
                        "{}有 utility 队列时它不低于 {}，高于它们的 20。",
                    )
                };
                s.push_str(&t.fill(lang, &[gap, &u.main_min_pri.to_string()]));
            }
            if let Some(b) = find(Qos::Background) {
                if b.main_min_pri == BASEPRI_MAIN {
                    s.push_str(
                        &Text::new(
                            "{}Background queues add only one to the foreground load, so on {} cores the main thread's bucket is not contended and it does not decay at all.",
                            "{}background 队列只给前台负载加一，所以在 {} 个核心上主线程所在的优先级桶没有争用，它根本不会衰减。",
                        )
                        .fill(lang, &[gap, &r.cores.to_string()]),
                    );
                }
            }
            s
        }
        PolicyKind::Clutch => {
            let lower: Vec<String> = r
                .groups
                .iter()
                .filter(|g| g.queue_base_pri <= 37)
                .map(|g| g.qos.to_string())
                .collect();
            let mut s = Text::new(
                "Under Clutch (xnu-{}) there is no band limit and the main thread decays only with the load of its own clutch bucket (its lowest here: {}).",
                "在 Clutch（xnu-{}）下没有优先级衰减下限，主线程只随它所在 clutch bucket 的负载衰减（这里最低为 {}）。",
            )
            .fill(lang, &[r.clutch_rules, &lowest.to_string()]);
            if !lower.is_empty() {
                s.push_str(gap);
                s.push_str(
                    &Text::new(
                        "The {} queues sit in lower root buckets than the main thread (FG); alone in its clutch bucket it keeps its core at quantum expiry while no queued thread has a base priority as high.",
                        "{} 队列处于比主线程（FG）更低的根桶；主线程独占自己的 clutch bucket，只要排队的线程基础优先级都不如它高，时间片到期时它就继续占着核心。",
                    )
                    .fill(lang, &[&join_list(&lower, lang)]),
                );
            }
            if let Some(u) = find(Qos::UserInteractive) {
                s.push_str(gap);
                s.push_str(
                    &Text::new(
                        "userInteractive queues share its clutch bucket (same app, FG bucket), where it decays to {}.",
                        "userInteractive 队列与它共用一个 clutch bucket（同一应用、FG 桶），在那里它衰减到 {}。",
                    )
                    .fill(lang, &[&u.main_min_pri.to_string()]),
                );
            }
            s
        }
        _ => Text::new(
            "{} ignores QoS and priorities: the main thread is one of {} spinners whatever the queues' QoS.",
            "{} 不看 QoS 和优先级：无论队列的 QoS 如何，主线程都只是 {} 个自旋线程之一。",
        )
        .fill(lang, &[r.policy.name(), &(r.queues + 1).to_string()]),
    }
}

/// The main thread's base priority (BASEPRI_FOREGROUND).
const BASEPRI_MAIN: u8 = crate::sim::qos::BASEPRI_FOREGROUND;

impl ScenarioOutcome for FeishuDemoResult {
    fn to_text(&self, lang: Lang) -> String {
        let mut s = format!(
            "feishu-demo: {} spinning queues + spinning main thread on {}, \
             band limit {}, {} s simulated, other system work {}\n\n",
            self.queues,
            self.machine,
            if self.band_limit { "on" } else { "off" },
            self.seconds,
            if self.system_work { "on" } else { "off" },
        );
        s.push_str("queues' QoS       qos  main running  runnable  preempted  waiting  measured  main min pri\n");
        for g in &self.groups {
            s.push_str(&format!(
                "{:<16} {:>4}  {:>11.1}%  {:>7.1}%  {:>8.1}%  {:>6.1}%  {:>8}  {:>12}\n",
                g.qos,
                g.qos_number,
                g.main_running_pct,
                g.main_runnable_pct,
                g.main_preempted_pct,
                g.main_waiting_pct,
                g.measured_pct.map_or("-".into(), |m| format!("{m}%")),
                g.main_min_pri,
            ));
        }
        s.push_str(&format!("\n{}\n", self.page_text().reading.get(lang)));
        if let Some(m) = &self.mechanisms {
            s.push('\n');
            s.push_str(&m.to_text(lang, 1));
        }
        super::push_notes(&mut s, self.notes.get(lang));
        s
    }

    fn runs_mut(&mut self) -> &mut Vec<RunView> {
        &mut self.runs
    }

    fn page_text(&self) -> PageText {
        let policy = self.policy;
        let reading = Text::new(
            "{} · {} cores · {} · {} queues × {} s",
            "{} · {} 个核心 · {} · {} 个队列 × {} 秒",
        )
        .both(&[
            &self.machine,
            &self.cores.to_string(),
            self.policy.name(),
            &self.queues.to_string(),
            &crate::error::fmt_number(self.seconds),
        ]);
        let band = band_text(self.band_limit);
        let reading = if policy == PolicyKind::Xnu {
            Filled {
                en: format!("{} · {}", reading.en, band.en),
                zh: format!("{} · {}", reading.zh, band.zh),
            }
        } else {
            reading
        };
        PageText {
            reading,
            pri_caption: pri_caption(policy, self.band_limit, true),
            ..PageText::default()
        }
    }

    fn tables(&self) -> Vec<PageTable> {
        let columns = vec![
            PageColumn::new("qos", Text::new("queues' QoS", "队列 QoS"), None),
            PageColumn::new("main_running_pct", Text::new("running", "运行"), None),
            PageColumn::new("main_runnable_pct", Text::new("runnable", "可运行"), None),
            PageColumn::new("main_preempted_pct", Text::new("preempted", "被抢占"), None),
            PageColumn::new("main_waiting_pct", Text::new("waiting", "等待"), None),
            PageColumn::new(
                "measured_pct",
                Text::new("measured waiting", "实测等待"),
                Some("measured"),
            ),
            PageColumn::new(
                "main_min_pri",
                Text::new("main min pri", "主线程最低优先级"),
                None,
            ),
        ];
        let rows = self
            .groups
            .iter()
            .map(|g| PageRow {
                key: g.qos.to_string(),
                cells: vec![
                    PageCell::new(Filled::same(format!("{} ({})", g.qos, g.qos_number)))
                        .with_qos(g.qos_number),
                    PageCell::number(Some(g.main_running_pct), 1),
                    PageCell::number(Some(g.main_runnable_pct), 1),
                    PageCell::number(Some(g.main_preempted_pct), 1),
                    PageCell::number(Some(g.main_waiting_pct), 1),
                    PageCell::number(g.measured_pct, 1),
                    PageCell::new(Filled::same(g.main_min_pri.to_string())),
                ],
            })
            .collect();
        let mut tables = vec![PageTable {
            id: "main",
            title: Filled::from(ScenarioKind::FeishuDemo.table_title()),
            columns,
            rows,
            reading: self.page_text().reading,
        }];
        if let Some(m) = &self.mechanisms {
            tables.push(PageTable::of_mechanisms(m, 1));
        }
        tables
    }

    fn band_limit(&self) -> Option<bool> {
        Some(self.band_limit)
    }

    /// The main thread's and the traced queue's, per group: traced even
    /// without timelines.
    fn pri_series(&self, run: usize) -> Option<Vec<&PriSeries>> {
        Some(
            self.pri_series
                .get(run)
                .map(|g| vec![&g.main, &g.worker])
                .unwrap_or_default(),
        )
    }

    fn pri_labels(&self) -> Vec<crate::text::Filled> {
        self.pri_series
            .iter()
            .map(|p| QUEUES.both(&[p.qos]))
            .collect()
    }

    fn simulated_ms(&self) -> Option<f64> {
        Some(self.seconds * 1000.0)
    }
}
