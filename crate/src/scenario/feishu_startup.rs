//! `feishu-startup`: the Feishu study's production change (seed 000), on a
//! synthetic start-up of a low-end 2-core phone. The main thread works until
//! the first screen, then keeps doing UI work; the message list's first
//! refresh (on the main thread) waits for a database read and a network
//! response handled on async queues; many unrelated async queues (prefetch,
//! logging, cache warm-up, ...) compete for the cores.
//!
//! Four configurations of the async queues' QoS: all userInitiated (GCD's
//! default for a queue created without one), all utility, a hand whitelist
//! (the queues the first refresh needs stay userInitiated, the rest go to
//! utility) and an automatic whitelist: every queue the first-refresh item
//! transitively waits on, read off the dependency graph — the study's tool
//! recorded `dispatch_async` calls to get the same graph.
//!
//! The workload is synthetic: queue names, CPU and I/O times below are
//! invented to have the study's shape (a contended start-up where the
//! critical path is a small part of the async work). They were tuned by
//! hand only so that the default start-up takes a few seconds; the
//! *ordering* of the four configurations is what the scenario shows, not
//! the study's 100 ms and 1500 ms.

use serde::Serialize;

use super::knob::Text;
use super::registry::{pri_caption, PageCell, PageColumn, PageRow, PageTable, RunLabel};
use super::{Knobs, PageText, RunView, ScenarioKind, ScenarioOutcome};
use crate::policy::{ClutchParams, KernelFlavour, PolicyKind};
use crate::scenario::simulation::{simulate, RunConfig};
use crate::sim::machine::Machine;
use crate::sim::{GroupKind, Qos, ThreadGroup};
use crate::text::Filled;
use crate::text::Lang;
use crate::workload::programs::{
    ItemId, Process, Program, Programs, Step, ThreadSpec, WorkItem, WorkerCap,
};

/// The queues the first refresh needs, found by hand (reading code and
/// Instruments traces, as the study did first).
/// The runs the page can pick from: one per configuration, with timelines
/// only.
pub(crate) fn run_labels(knobs: &Knobs) -> Vec<RunLabel> {
    if !knobs.timeline {
        return Vec::new();
    }
    CONFIGS
        .iter()
        .map(|&(name, _)| config_title(name).into())
        .collect()
}

/// The study's remark on the all-utility configuration (it gives no
/// figures), in English and Chinese.
pub(crate) const ALL_UTILITY_MEASURED: Text = Text::new(
    "first screen sooner, first refresh later (no figures given)",
    "首屏更早，首次刷新更晚（原文未给出数字）",
);

pub const HAND_WHITELIST: [&str; 4] = ["account", "db", "net-callback", "network"];

/// The four configurations, as named in the table and the JSON, and in
/// Chinese.
pub(crate) const CONFIGS: [(&str, &str); 4] = [
    ("default", "默认"),
    ("all-utility", "全部 utility"),
    ("whitelist", "白名单"),
    ("auto-whitelist", "自动白名单"),
];

/// Measured gains of the whitelist over the default, ms.
pub(crate) const MEASURED_FIRST_SCREEN_GAIN_MS: f64 = 100.0;
pub(crate) const MEASURED_FIRST_REFRESH_GAIN_MS: f64 = 1500.0;

/// Other processes during launch: threads, items each, CPU and wait per
/// item (ms).
const DAEMONS: usize = 2;
const DAEMON_ITEMS: usize = 40;
const DAEMON_CPU_MS: f64 = 30.0;
const DAEMON_WAIT_MS: f64 = 20.0;

/// When the unrelated queues get their first work: staggered from here.
const UNRELATED_START_MS: f64 = 300.0;
const UNRELATED_STAGGER_MS: f64 = 30.0;

/// An unrelated queue: name, items as (CPU ms, then I/O wait ms), and
/// whether it starts only after the messages were read.
type Unrelated = (&'static str, &'static [(f64, f64)], bool);

const UNRELATED: [Unrelated; 14] = [
    ("prefetch-images", &[(120.0, 30.0); 4], false),
    ("log-upload", &[(80.0, 100.0); 3], false),
    ("cache-warmup", &[(150.0, 0.0); 3], false),
    ("analytics", &[(60.0, 50.0); 4], false),
    ("config-sync", &[(100.0, 200.0); 2], false),
    ("emoji-preload", &[(150.0, 0.0); 2], false),
    ("contacts-sync", &[(100.0, 80.0); 3], false),
    ("calendar-sync", &[(120.0, 100.0); 2], false),
    ("doc-preview", &[(100.0, 0.0); 3], false),
    ("font-cache", &[(120.0, 0.0); 2], false),
    ("theme-loader", &[(90.0, 0.0); 2], false),
    ("push-register", &[(60.0, 300.0), (40.0, 0.0)], false),
    ("search-index", &[(150.0, 0.0); 3], true),
    ("mail-badge", &[(80.0, 150.0); 2], false),
];

/// The start-up workload with each async queue's QoS given by `qos_of`.
pub(crate) struct Startup {
    pub workload: Programs,
    pub first_screen: ItemId,
    pub first_refresh: ItemId,
    /// Async queue names, by thread id (None for the main thread).
    pub queue_names: Vec<Option<String>>,
}

pub(crate) fn workload(qos_of: &dyn Fn(&str) -> Qos) -> Startup {
    let mut w = Programs::default();
    // The app (its main thread and async queues), then the daemons' own
    // processes (other apps' thread groups).
    w.add_process(Process {
        name: "Feishu".into(),
        group: ThreadGroup {
            id: 1,
            kind: GroupKind::Normal,
        },
        worker_cap: WorkerCap::Off,
    });
    let mut names = Vec::new();
    let main = w.add_thread(ThreadSpec::main_thread(Program::Queue));
    names.push(None);
    let mut queue = |w: &mut Programs, name: &str| {
        names.push(Some(name.to_string()));
        w.add_thread(ThreadSpec::new(name, qos_of(name), Program::Queue).in_group("async"))
    };
    let item = |w: &mut Programs,
                thread,
                name: &str,
                release: f64,
                deps: Vec<ItemId>,
                steps: Vec<Step>| {
        w.add_item(WorkItem {
            name: name.into(),
            thread,
            release,
            deps,
            steps,
        })
    };
    use Step::{Cpu, Wait};
    // Main thread: launch, first screen, then steady UI work.
    let launch = item(&mut w, main, "launch", 0.0, vec![], vec![Cpu(250.0)]);
    let first_screen = item(
        &mut w,
        main,
        "first-screen",
        0.0,
        vec![launch],
        vec![Cpu(300.0)],
    );
    // After the first screen the main thread keeps drawing: one 25 ms
    // frame's work every 50 ms, each frame queued only once the previous one
    // is done (a run loop does not pile up frames).
    let mut prev = first_screen;
    for k in 0..60 {
        let release = 600.0 + 50.0 * k as f64;
        prev = item(
            &mut w,
            main,
            &format!("ui-{k}"),
            release,
            vec![prev],
            vec![Cpu(25.0)],
        );
    }
    // The first refresh's critical path.
    let account = queue(&mut w, "account");
    let db = queue(&mut w, "db");
    let network = queue(&mut w, "network");
    let callback = queue(&mut w, "net-callback");
    let session = item(
        &mut w,
        account,
        "load-session",
        0.0,
        vec![],
        vec![Cpu(80.0)],
    );
    let db_open = item(
        &mut w,
        db,
        "db-open",
        0.0,
        vec![session],
        vec![Cpu(100.0), Wait(40.0), Cpu(60.0)],
    );
    let db_read = item(
        &mut w,
        db,
        "db-read-messages",
        0.0,
        vec![db_open],
        vec![Cpu(150.0), Wait(60.0), Cpu(100.0)],
    );
    let request = item(
        &mut w,
        network,
        "net-request",
        0.0,
        vec![session],
        vec![Cpu(60.0), Wait(400.0)],
    );
    let response = item(
        &mut w,
        callback,
        "net-handle-response",
        0.0,
        vec![request],
        vec![Cpu(200.0)],
    );
    let first_refresh = item(
        &mut w,
        main,
        "first-refresh",
        0.0,
        vec![db_read, response],
        vec![Cpu(120.0)],
    );
    // Unrelated async queues.
    for (n, (name, items, after_db)) in UNRELATED.into_iter().enumerate() {
        let q = queue(&mut w, name);
        let release = UNRELATED_START_MS + UNRELATED_STAGGER_MS * n as f64;
        for (k, &(cpu, wait)) in items.iter().enumerate() {
            let deps = if after_db && k == 0 {
                vec![db_read]
            } else {
                vec![]
            };
            let mut steps = vec![Cpu(cpu)];
            if wait > 0.0 {
                steps.push(Wait(wait));
            }
            item(&mut w, q, &format!("{name}-{k}"), release, deps, steps);
        }
    }
    // Other processes busy during a launch (SpringBoard, daemons) at the
    // default QoS (31): above utility, below userInitiated.
    for d in 0..DAEMONS {
        let process = w.add_process(Process {
            name: format!("daemon {d}"),
            group: ThreadGroup {
                id: 2 + d as u32,
                kind: GroupKind::Normal,
            },
            worker_cap: WorkerCap::Off,
        });
        let t = w.add_thread(
            ThreadSpec::new(format!("daemon {d}"), Qos::Default, Program::Queue)
                .in_group("other processes")
                .in_process(process),
        );
        names.push(None);
        for k in 0..DAEMON_ITEMS {
            item(
                &mut w,
                t,
                &format!("daemon {d}-{k}"),
                0.0,
                vec![],
                vec![Cpu(DAEMON_CPU_MS), Wait(DAEMON_WAIT_MS)],
            );
        }
    }
    Startup {
        workload: w,
        first_screen,
        first_refresh,
        queue_names: names,
    }
}

/// The automatic whitelist: the queues (not the main thread) of every item
/// the first refresh transitively waits on, sorted by name.
pub(crate) fn auto_whitelist(s: &Startup) -> Vec<String> {
    let mut names: Vec<String> = s
        .workload
        .transitive_deps(s.first_refresh)
        .into_iter()
        .filter_map(|i| s.queue_names[s.workload.items[i].thread as usize].clone())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// A configuration's name in the page's words (the JSON keeps `name`).
fn config_title(name: &'static str) -> Text {
    CONFIGS
        .iter()
        .find(|(en, _)| *en == name)
        .map_or(Text::new(name, name), |&(en, zh)| Text::new(en, zh))
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConfigResult {
    pub name: &'static str,
    pub first_screen_ms: f64,
    pub first_refresh_ms: f64,
    /// Queues kept at userInitiated (whitelist configurations only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub whitelist: Option<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Measured {
    pub first_screen_gain_ms: f64,
    pub first_refresh_gain_ms: f64,
    /// What the study says of all-utility (the JSON has the English).
    #[serde(serialize_with = "crate::text::english")]
    pub all_utility: Filled<&'static str>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FeishuStartupResult {
    pub scenario: &'static str,
    pub machine: String,
    pub band_limit: bool,
    /// The class every run used.
    pub policy: PolicyKind,
    /// The xnu release whose Clutch rules `clutch` followed.
    pub clutch_rules: &'static str,
    pub configs: Vec<ConfigResult>,
    /// Whitelist minus default, ms (negative: sooner).
    pub model_first_screen_gain_ms: f64,
    pub model_first_refresh_gain_ms: f64,
    pub measured: Measured,
    #[serde(flatten, serialize_with = "crate::text::pair::notes")]
    pub notes: Filled<Vec<String>>,
    pub runs: Vec<RunView>,
}

pub(crate) fn run(knobs: &Knobs) -> FeishuStartupResult {
    let machine = knobs.machine_or(|_| Machine::a10());
    let band_limit = knobs
        .band_limit
        .unwrap_or(KernelFlavour::of(&machine).band_limit);
    let hand: Vec<String> = HAND_WHITELIST.iter().map(|s| s.to_string()).collect();
    let auto = auto_whitelist(&workload(&|_| Qos::UserInitiated));
    type Pick = Box<dyn Fn(&str) -> Qos>;
    let plan: Vec<(&'static str, Pick, Option<Vec<String>>)> = vec![
        ("default", Box::new(|_| Qos::UserInitiated), None),
        ("all-utility", Box::new(|_| Qos::Utility), None),
        ("whitelist", whitelisted(hand.clone()), Some(hand)),
        ("auto-whitelist", whitelisted(auto.clone()), Some(auto)),
    ];
    let mut configs = Vec::new();
    let mut runs = Vec::new();
    for (name, pick, whitelist) in plan {
        let s = workload(&*pick);
        let mut w = s.workload;
        if knobs.system_work.unwrap_or(true) {
            w.add_system_work(
                machine.cores.len(),
                super::feishu_demo::SYSTEM_BURST_MS,
                super::feishu_demo::SYSTEM_PERIOD_MS,
            );
        }
        let cfg = RunConfig {
            until: 60_000.0,
            stop_after_items: vec![s.first_screen, s.first_refresh],
            timeline: knobs.timeline,
            max_records: knobs.max_records,
            trace_pri: vec![0],
            class: knobs.policy,
            clutch: ClutchParams {
                rules: knobs.clutch_rules,
            },
            band_limit: Some(band_limit),
            ..RunConfig::default()
        };
        let r = simulate(&w, &machine, &cfg);
        configs.push(ConfigResult {
            name,
            first_screen_ms: r.items_done[s.first_screen].unwrap_or(f64::INFINITY),
            first_refresh_ms: r.items_done[s.first_refresh].unwrap_or(f64::INFINITY),
            whitelist,
        });
        if knobs.timeline {
            runs.push(RunView {
                label: config_title(name).into(),
                machine: machine.clone(),
                run: r,
            });
        }
    }
    let gain = |f: fn(&ConfigResult) -> f64| f(&configs[2]) - f(&configs[0]);
    let setting = Setting {
        policy: knobs.policy,
        band_limit,
        rules: knobs.clutch_rules.name(),
    };
    FeishuStartupResult {
        scenario: ScenarioKind::FeishuStartup.name(),
        machine: machine.name.clone(),
        band_limit,
        policy: knobs.policy,
        clutch_rules: knobs.clutch_rules.name(),
        model_first_screen_gain_ms: gain(|c| c.first_screen_ms),
        model_first_refresh_gain_ms: gain(|c| c.first_refresh_ms),
        notes: Filled::each(|lang| notes(&configs, &setting, lang)),
        configs,
        measured: Measured {
            first_screen_gain_ms: -MEASURED_FIRST_SCREEN_GAIN_MS,
            first_refresh_gain_ms: -MEASURED_FIRST_REFRESH_GAIN_MS,
            all_utility: Filled {
                en: ALL_UTILITY_MEASURED.en,
                zh: ALL_UTILITY_MEASURED.zh,
            },
        },
        runs,
    }
}

fn whitelisted(list: Vec<String>) -> Box<dyn Fn(&str) -> Qos> {
    Box::new(move |name| {
        if list.iter().any(|l| l == name) {
            Qos::UserInitiated
        } else {
            Qos::Utility
        }
    })
}

/// What the notes need to know of the run's settings.
struct Setting {
    policy: PolicyKind,
    band_limit: bool,
    rules: &'static str,
}

fn notes(c: &[ConfigResult], set: &Setting, lang: Lang) -> Vec<String> {
    let first_screen = c[2].first_screen_ms - c[0].first_screen_ms;
    let first_refresh = c[2].first_refresh_ms - c[0].first_refresh_ms;
    let mut notes = vec![Text::new(
        "The workload is synthetic (invented queues, daemons and times with the study's shape); the ordering of the four configurations is the result, not the size of the gains. Tuned by hand: the amount of async work, the two launch-time daemons at default QoS (31) and the unrelated queues' start times, so that the start-up is contended for a few seconds and the critical path is a small part of the async work.",
        "工作负载是合成的（队列、守护进程和时间都是虚构的，只保留研究中的形态）；结论是四种配置的先后顺序，而不是收益的大小。手工调整过的有：异步工作量、启动时两个 default QoS（31）的守护进程，以及无关队列的开始时间，使启动过程有几秒的争用，且关键路径只占异步工作的一小部分。",
    )
    .get(lang)
    .to_string()];
    let sign = |v: f64| format!("{v:+.0}");
    let size = if first_screen.abs() > MEASURED_FIRST_SCREEN_GAIN_MS {
        Text::new(
            " The model's first-screen gain is larger than measured: every userInitiated queue here is always ready to run, while a real phone's queues are mostly idle or blocked.",
            "模型的首屏收益比实测大：这里每个 userInitiated 队列都随时可以运行，而真实手机上的队列大多空闲或阻塞。",
        )
        .get(lang)
    } else {
        ""
    };
    notes.push(format!(
        "{}{size}",
        Text::new(
            "Model vs measured, whitelist against default: first screen {} ms (measured -100 ms), first refresh {} ms (measured -1500 ms).",
            "模型与实测，白名单相对默认配置：首屏 {} ms（实测 -100 ms），首次刷新 {} ms（实测 -1500 ms）。",
        )
        .fill(lang, &[&sign(first_screen), &sign(first_refresh)])
    ));
    let same = c.iter().all(|x| {
        x.first_screen_ms == c[0].first_screen_ms && x.first_refresh_ms == c[0].first_refresh_ms
    });
    let why = match set.policy {
        _ if same => Text::new(
            "Why: {} does not read QoS, so the four configurations run the same schedule.",
            "原因：{} 不看 QoS，所以四种配置的调度完全相同。",
        )
        .fill(lang, &[set.policy.name()]),
        PolicyKind::Xnu if set.band_limit => Text::new(
            "Why: userInitiated queues (37) share the foreground bucket with the main thread (47), whose priority decays to 29 under load, so they preempt it; utility queues (20) never do. Lowering every queue frees the main thread but puts the database and network work below the main thread and the other processes (31) and level with all the unrelated work; the whitelist keeps the critical path above all of that.",
            "原因：userInitiated 队列（37）与主线程（47）同在前台优先级桶，主线程的优先级在负载下会衰减到 29，于是被这些队列抢占；utility 队列（20）则从不会。把所有队列都降级能解放主线程，却让数据库和网络工作低于主线程和其他进程（31），并与所有无关工作平级；白名单则让关键路径始终高于这一切。",
        )
        .get(lang)
        .to_string(),
        PolicyKind::Xnu => Text::new(
            "Why: userInitiated queues (37) share the foreground bucket with the main thread (47), whose priority decays under load with no floor (band limit off), so they preempt it, and utility queues (20) can too once it falls below 20. The whitelist keeps the critical path at userInitiated and the rest at utility.",
            "原因：userInitiated 队列（37）与主线程（47）同在前台优先级桶，主线程的优先级在负载下衰减且没有下限（优先级衰减下限关），于是被这些队列抢占；一旦它降到 20 以下，utility 队列（20）也能抢占它。白名单让关键路径保持 userInitiated，其余为 utility。",
        )
        .get(lang)
        .to_string(),
        PolicyKind::Clutch => Text::new(
            "Why, under Clutch (xnu-{}): the main thread's FG bucket comes first by earliest deadline, userInitiated queues (IN) next, the daemons (DF, other apps) then, utility (UT) last; the configurations differ in which async work waits behind the daemons and the unrelated queues.",
            "原因（Clutch，xnu-{}）：按最早截止时间，主线程所在的 FG 桶最先，其次是 userInitiated 队列（IN），然后是守护进程（DF，其他应用），utility（UT）最后；各配置的区别在于哪些异步工作要排在守护进程和无关队列之后。",
        )
        .fill(lang, &[set.rules]),
        _ => Text::new(
            "Why: {} does not read QoS; the configurations differ only through the order the work arrives in.",
            "原因：{} 不看 QoS；各配置只在工作到达的先后上有差别。",
        )
        .fill(lang, &[set.policy.name()]),
    };
    notes.push(why);
    notes
}

/// A whole number of ms with its sign (`−` for sooner), `—` when the
/// milestone was never reached.
fn signed_ms(v: f64) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    format!("{}{:.0}", if v < 0.0 { '−' } else { '+' }, v.abs())
}

impl ScenarioOutcome for FeishuStartupResult {
    fn to_text(&self, lang: Lang) -> String {
        let mut s = format!(
            "feishu-startup: synthetic start-up on {}, band limit {}\n\n\
             config           first screen  first refresh  whitelist\n",
            self.machine,
            if self.band_limit { "on" } else { "off" }
        );
        for c in &self.configs {
            s.push_str(&format!(
                "{:<16} {:>9.0} ms  {:>10.0} ms  {}\n",
                c.name,
                c.first_screen_ms,
                c.first_refresh_ms,
                c.whitelist.as_ref().map_or("-".into(), |w| w.join(", ")),
            ));
        }
        s.push_str(&format!(
            "\nwhitelist vs default: first screen {:+.0} ms (measured -{} ms), first refresh {:+.0} ms (measured -{} ms)\n",
            self.model_first_screen_gain_ms,
            MEASURED_FIRST_SCREEN_GAIN_MS,
            self.model_first_refresh_gain_ms,
            MEASURED_FIRST_REFRESH_GAIN_MS,
        ));
        super::push_notes(&mut s, self.notes.get(lang));
        s
    }

    fn runs_mut(&mut self) -> &mut Vec<RunView> {
        &mut self.runs
    }

    fn page_text(&self) -> PageText {
        let fs = signed_ms(self.model_first_screen_gain_ms);
        let fr = signed_ms(self.model_first_refresh_gain_ms);
        let m_fs = signed_ms(self.measured.first_screen_gain_ms);
        let m_fr = signed_ms(self.measured.first_refresh_gain_ms);
        const READING: Text = Text::new(
            "Whitelist versus default: first screen {} ms (measured {} ms), \
             first refresh {} ms (measured {} ms). All utility: {}.",
            "白名单相对默认：首屏 {} ms（实测 {} ms），首次刷新 {} ms\
             （实测 {} ms）。全部 utility：{}。",
        );
        let reading = Filled::each(|lang| {
            let all_utility = self.measured.all_utility.get(lang);
            READING.fill(lang, &[&fs, &m_fs, &fr, &m_fr, all_utility])
        });
        PageText {
            reading,
            pri_caption: pri_caption(self.policy, self.band_limit, false),
            ..PageText::default()
        }
    }

    fn tables(&self) -> Vec<PageTable> {
        let columns = vec![
            PageColumn::new("config", Text::new("configuration", "配置"), None),
            PageColumn::new("first_screen_ms", Text::new("first screen", "首屏"), None),
            PageColumn::new(
                "first_refresh_ms",
                Text::new("first refresh", "首次刷新"),
                None,
            ),
            PageColumn::new(
                "whitelist",
                Text::new("queues kept userInitiated", "保持 userInitiated 的队列"),
                Some("wl"),
            ),
        ];
        let rows = self
            .configs
            .iter()
            .map(|c| PageRow {
                key: c.name.to_string(),
                cells: vec![
                    PageCell::new(config_title(c.name).into()),
                    PageCell::number(Some(c.first_screen_ms), 1),
                    PageCell::number(Some(c.first_refresh_ms), 1),
                    PageCell::new(Filled::same(
                        c.whitelist.as_ref().map_or("—".into(), |w| w.join(", ")),
                    )),
                ],
            })
            .collect();
        vec![PageTable {
            id: "main",
            title: Filled::from(ScenarioKind::FeishuStartup.table_title()),
            columns,
            rows,
            reading: self.page_text().reading,
        }]
    }

    fn band_limit(&self) -> Option<bool> {
        Some(self.band_limit)
    }
}
