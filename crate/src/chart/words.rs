//! Every word a chart draws or shows on hover, in English and Chinese
//! ([`Text`] pairs, `{}` filled in order). A text made at run time is a
//! [`crate::text::Filled`], carried with a chart's data so that switching
//! language redraws without a new run.

use crate::text::Text;

pub(crate) const CDF_X: Text = Text::new("latency (ms)", "延迟（ms）");
pub(crate) const CDF_Y: Text = Text::new("share of tasks done", "已完成任务比例");
pub(crate) const HIST_X: Text = Text::new("task duration (ms)", "任务时长（ms）");
pub(crate) const HIST_X_CUT: Text = Text::new(
    "task duration (ms; last bin: all longer)",
    "任务时长（ms；最后一栏含所有更长的）",
);
pub(crate) const HIST_Y: Text = Text::new("tasks", "任务数");

/// A Gantt block's title on a named machine: policy, machine.
pub(crate) const GANTT_MACHINE: Text = Text::new("{} · {}", "{} · {}");
/// A Gantt block's title with several cores: policy, cores.
pub(crate) const GANTT_CORES: Text = Text::new("{} · {} cores", "{} · {} 核");
pub(crate) const GANTT_TOO_MANY: Text = Text::new(
    "too many slices to draw: the table and plots are complete",
    "切片太多无法绘制：表格和图表仍然完整",
);
/// Shown while a large schedule is still being loaded.
pub(crate) const GANTT_LOADING: Text = Text::new("…", "…");
/// After the name of the class drawn with a dark band (largest mean work).
pub(crate) const LONG: Text = Text::new("{} (long)", "{}（长任务）");
/// A class of a generated mix is a range of durations in ms.
pub(crate) const CLASS_MS: Text = Text::new("{} ms", "{} ms");

/// A study slice's tooltip: task, class, long, work, arrival, first on a
/// core, done, latency, slices, policy, core, slice start, slice end.
pub(crate) const TASK_TIP: Text = Text::new(
    "task #{} · class {}{}\nwork {} ms · arrived {} ms\nfirst on a core {} ms · done {} ms\nlatency {} ms · {}\n{} core {}: this slice {}–{} ms",
    "任务 #{} · 类别 {}{}\n工作量 {} ms · 到达 {} ms\n首次上核 {} ms · 完成 {} ms\n延迟 {} ms · {}\n{} 核 {}：本段 {}–{} ms",
);
pub(crate) const TIP_LONG: Text = Text::new(", long", "，长任务");
pub(crate) const SLICE_ONE: Text = Text::new("{} slice", "{} 段");
pub(crate) const SLICE_MANY: Text = Text::new("{} slices", "{} 段");

/// A scenario slice or state's tooltip: what (state or QoS), thread, where,
/// start, end.
pub(crate) const THREAD_TIP: Text = Text::new("{} · {}\n{}{}–{} ms", "{} · {}\n{}{}–{} ms");

/// A scenario's core lane: index, kind (P or E), speed when not 1.
pub(crate) const CORE: Text = Text::new("core {} · {}", "核心 {} · {}");
pub(crate) const CORE_SPEED: Text = Text::new("core {} · {} ×{}", "核心 {} · {} ×{}");
pub(crate) const MAIN_THREAD: Text = Text::new("main thread", "主线程");
/// Thread names in lanes and legends (`--json` keeps the scenario's own).
pub(crate) const MAIN: Text = Text::new("main", "主线程");
pub(crate) const WORKER: Text = Text::new("job {} worker {}", "任务 {} 工作线程 {}");
/// A worker's thread-state lane: job, worker, its QoS number.
pub(crate) const WORKER_QOS: Text =
    Text::new("job {} worker {} (QoS {})", "任务 {} 工作线程 {}（QoS {}）");
/// Under a scenario's charts when recording stopped before the run ended:
/// where they stop, the run's length, the recording limit.
pub(crate) const CUT_SHORT: Text = Text::new(
    "The charts show the first {} s of this {} s run: recording stops after {} slices or state changes, to keep the page light. The tables cover the whole run.",
    "图表只显示本次 {1} s 运行的前 {0} s：为了让页面保持轻量，记录在 {2} 个片段或状态变化后停止。表格覆盖整次运行。",
);
pub(crate) const SYSTEM_WORK: Text = Text::new("other system work", "其他系统负载");
pub(crate) const STATES: [Text; 3] = [
    Text::new("running", "运行"),
    Text::new("runnable", "可运行"),
    Text::new("preempted", "被抢占"),
];
pub(crate) const BLOCKED: Text = Text::new("blocked (lane background)", "阻塞（泳道底色）");
pub(crate) const FLOOR: Text = Text::new("floor {} (band limit)", "优先级下限 {}");
pub(crate) const FLOOR_MARK: Text = Text::new("floor {}", "下限 {}");
pub(crate) const NO_FLOOR: Text = Text::new("band limit off: no floor", "优先级下限关：无下限");

/// Titles of a figure's parts.
pub(crate) const SCHEDULE: Text = Text::new("Schedule", "调度甘特图");
pub(crate) const CDF_TITLE: Text = Text::new("Latency CDF", "延迟累积分布");
pub(crate) const HIST_TITLE: Text = Text::new("Task durations by class", "按类别的任务时长");
pub(crate) const TABLE_TITLE: Text = Text::new("Latency per policy (ms)", "各策略的延迟（ms）");
pub(crate) const POLICY: Text = Text::new("policy", "策略");
pub(crate) const SCENARIO_GANTT: Text = Text::new("Cores, coloured by QoS", "各核心，按 QoS 着色");
pub(crate) const SCENARIO_STATES: Text = Text::new("Thread states", "线程状态");
pub(crate) const SCENARIO_PRI: Text = Text::new("sched_pri over time", "sched_pri 随时间变化");
pub(crate) const RESP_TABLE: Text = Text::new(
    "Responsiveness: input delay, blocking and cost",
    "响应性：输入延迟、阻塞与开销",
);
pub(crate) const RESP_CDF: Text = Text::new("Input delay CDF", "输入延迟累积分布");
pub(crate) const RESP_TRADEOFF: Text = Text::new(
    "p98 input delay and cost over the quantum",
    "p98 输入延迟与开销随时间片的变化",
);
pub(crate) const RESP_BARS: Text = Text::new(
    "Interactions: input delay, processing, presentation",
    "交互：输入延迟、处理、呈现",
);
